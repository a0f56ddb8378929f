"""The rules of play in words, as a par sheet states them for a reader who does not read a
tableau grid: the shoe, the deal, the drawing rules (read off the rule set's tableau), who
wins, and what each bet pays with its commission.

Glossary
--------
values     the sets of card values (0 to 9, a ten-value card counting 0) or totals on which a
           side draws, written as runs: ``0 to 5``, ``6 or 7``.
"""

from __future__ import annotations

from ..bets.bet import MAIN_BETS, RuleSet
from ..game.cards import Shoe
from ..game.tableau import STOOD, Tableau
from ..render import payout_text, percent_text

BETS_IN_WORDS = 12  # a rule set with more bets has its main bets' payouts in words, the others in its table
TOTALS = range(8)  # the two-card totals on which a side may draw: 8 and 9 are naturals


def runs(values) -> str:
    """Whole numbers as runs, the way a rule book writes them.

    >>> runs([0, 1, 2, 3, 4, 5]), runs([6, 7]), runs([3]), runs([0, 1, 2, 4, 6, 7, 9])
    ('0 to 5', '6 or 7', '3', '0 to 2, 4, 6, 7 or 9')
    """
    values = sorted(values)
    groups, start = [], None
    for i, v in enumerate(values):
        start = v if start is None else start
        if i + 1 == len(values) or values[i + 1] != v + 1:
            groups.append(f"{start} to {v}" if v - start >= 2 else f"{start}, {v}" if v > start else str(v))
            start = None
    text = ", ".join(groups)
    head, sep, last = text.rpartition(", ")
    return f"{head} or {last}" if sep else text


def player_rule(tableau: Tableau) -> str:
    """The Player's rule: the totals he draws on and those he stands on.

    >>> from analyzer.game.tableau import PUNTO_BANCO
    >>> player_rule(PUNTO_BANCO)
    'the Player draws a third card on 0 to 5 and stands on 6 or 7'
    """
    draws = [t for t in TOTALS if tableau.player_draws[t]]
    stands = [t for t in TOTALS if not tableau.player_draws[t]]
    choose = [t for t in TOTALS if tableau.player_options[t]]
    parts = ([f"draws a third card on {runs(draws)}"] if draws else []) + ([f"stands on {runs(stands)}"] if stands else [])
    return "the Player " + " and ".join(parts) + (f" (he may choose on {runs(choose)})" if choose else "")


def banker_rule(tableau: Tableau) -> str:
    """The Banker's rule: when the Player stood, by his total alone; when the Player drew, by his
    total and the value of the Player's third card, totals that follow one rule said together.

    >>> from analyzer.game.tableau import PUNTO_BANCO
    >>> print(banker_rule(PUNTO_BANCO))
    if the Player stood, the Banker draws on 0 to 5 and stands on 6 or 7; if the Player drew, the Banker draws on 0 to 2 whatever the Player's third card, on 3 unless it counts 8, on 4 when it counts 2 to 7, on 5 when it counts 4 to 7, on 6 when it counts 6 or 7, and stands on 7
    """
    stood_draws = [t for t in TOTALS if tableau.banker_draws[t][STOOD]]
    stood_stands = [t for t in TOTALS if not tableau.banker_draws[t][STOOD]]
    stood = " and ".join(([f"draws on {runs(stood_draws)}"] if stood_draws else [])
                         + ([f"stands on {runs(stood_stands)}"] if stood_stands else []))
    rules: dict[tuple, list[int]] = {}  # the third-card values he draws on -> the totals with that rule
    for t in TOTALS:
        rules.setdefault(tuple(k for k in range(10) if tableau.banker_draws[t][k]), []).append(t)
    draws = [f"on {runs(totals)} {third_card(values)}" for values, totals in rules.items() if values]
    stands = [t for values, totals in rules.items() if not values for t in totals]
    drew = ("draws " + ", ".join(draws) if draws else "") + (", and " if draws and stands else "") + (
        f"stands on {runs(stands)}" if stands else "")
    options = tableau.banker_option_cells()
    choose = "; the tableau lets the Banker choose in some cells (chemin de fer): these figures play its own choice" \
        if options else ""
    return f"if the Player stood, the Banker {stood}; if the Player drew, the Banker {drew}{choose}"


def third_card(values: tuple) -> str:
    """When the Banker draws, by the values of the Player's third card he draws on.

    >>> third_card(tuple(range(10))), third_card((0, 1, 2, 3, 4, 5, 6, 7, 9)), third_card((6, 7))
    ("whatever the Player's third card", 'unless it counts 8', 'when it counts 6 or 7')
    """
    if len(values) == 10:
        return "whatever the Player's third card"
    others = [k for k in range(10) if k not in values]
    return f"unless it counts {runs(others)}" if len(others) <= 2 else f"when it counts {runs(values)}"


def bet_in_words(bet) -> str:
    """What a bet pays, line by line (the first line that holds settles it), with its commission.

    >>> from analyzer import get_rules
    >>> bet_in_words(get_rules("standard").bet("banker"))
    'Banker: Banker wins 1:1, tie push, less a 5% commission on each win'
    """
    lines = ", ".join(f"{ln.label} {ln.written or payout_text(ln.pays)}" for ln in bet.lines)
    commission = f", less a {percent_text(bet.commission)} commission on each win" if bet.commission != 0 else ""
    return f"{bet.name}: {lines}{commission}"


def rules_of_play(rules: RuleSet, shoe: Shoe) -> str:
    """The rules of play of ``rules`` on ``shoe``, in words: a paragraph."""
    tableau = rules.tableau
    bets = list(rules.bets)
    shown = bets if len(bets) <= BETS_IN_WORDS else [b for b in bets if b.id in MAIN_BETS]
    rest = len(bets) - len(shown)
    payouts = "; ".join(bet_in_words(b) for b in shown)
    if rest:
        payouts += ("; " if payouts else "") + f"the other {rest} bets pay as the table of bets and pay tables below gives"
    return (f"The game is dealt from a shoe of {shoe.describe()}, without replacement. The Player and the Banker are each "
            "dealt two cards; an ace counts 1, a 2 to 9 its face value, a ten, jack, queen or king 0, and a hand's "
            "total is the last digit of its cards' sum. A two-card 8 or 9 on either side is a natural: neither side "
            f"draws. Otherwise (tableau {tableau.name}) {player_rule(tableau)}; {banker_rule(tableau)}. "
            "The higher total wins; equal totals tie. Payouts are in units won per unit bet, a push returning "
            f"the bet: {payouts}.")
