"""Exact probabilities and house edges for mini baccarat / punto banco.

>>> from analyzer import Shoe, analyse, get_rules
>>> from analyzer.render import percent
>>> banker = analyse(get_rules("standard"), Shoe.decks(8))[0]
>>> banker.bet.id, percent(banker.house_edge)
('banker', '1.0579%')
"""

__version__ = "0.1.0"

from .bets import Bet, BetResult, Line, RuleSet, analyse, evaluate, line, where  # noqa: E402
from .cards import BaccaratError, Shoe, load_shoe, make_shoe  # noqa: E402
from .engine import Distribution, enumerate_coup  # noqa: E402
from .knowledge import Knowledge  # noqa: E402
from .rulefile import BUILT_IN, get_rules, load_rules, parse_rules  # noqa: E402
from .tableau import PUNTO_BANCO, Tableau  # noqa: E402

__all__ = [
    "BUILT_IN", "load_rules", "parse_rules", "Bet", "BetResult", "Line", "RuleSet", "analyse", "evaluate", "get_rules", "line", "where",
    "BaccaratError", "Shoe", "load_shoe", "make_shoe", "Distribution", "enumerate_coup", "Knowledge", "PUNTO_BANCO", "Tableau",
]
