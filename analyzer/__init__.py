"""Exact probabilities and house edges for mini baccarat / punto banco.

>>> from analyzer import Shoe, analyse
>>> from analyzer.base.numbers import percent
>>> banker = analyse("standard", Shoe.decks(8))[0]
>>> banker.bet.id, percent(banker.house_edge)
('banker', '1.0579%')

The names below are loaded when first used, so that ``import analyzer`` (and ``baccarat
--version``) does not load numpy.
"""

from .base.lazy import exports

__version__ = "0.1.0"

BUILT_IN = ("standard", "commission-4", "tie-9", "no-commission", "ez", "banker-stands-on-6", "catalog", "lightning")  # rules/*.toml

__getattr__, __dir__, __all__ = exports(__name__, {
    "questions.analysis": ("analyse", "enumerated", "records"),
    "bets.bet": ("Bet", "BetResult", "Line", "RuleSet", "line", "where"),
    "routes.counts": ("evaluate",),
    "game.cards": ("Shoe", "load_shoe", "make_shoe"),
    "game.engine": ("Distribution", "enumerate_coup"),
    "base.errors": ("BaccaratError", "RunFailed", "Unsatisfiable"),
    "game.knowledge": ("Knowledge",),
    "bets.rulefile": ("get_rules", "load_rules", "parse_rules"),
    "game.tableau": ("PUNTO_BANCO", "Tableau"),
}, own=("BUILT_IN",), moved={  # the modules as they were named before the floors (issue 54): old notebooks
    **{name: f"base.{name}" for name in ("errors", "lazy", "numbers", "recent", "signals", "userfiles", "workers")},
    **{name: f"game.{name}" for name in ("cards", "engine", "knowledge", "layout", "tableau")},
    **{name: f"bets.{name}" for name in ("amounts", "cardtests", "conditions", "counting", "rulefile", "series", "symbolic")},
    **{name: f"routes.{name}" for name in ("basis", "batch", "cardcount", "closedforms", "lean", "plancache")},
    **{name: f"questions.{name}" for name in ("advantage", "analysis", "check", "chemin", "eor", "parsheet", "runs",
                                              "simulate")},
    **{name: f"pit.{name}" for name in ("replay", "results", "roads", "store", "wagers", "protect")},
})
