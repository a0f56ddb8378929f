"""Every bet of a rule set on one shoe: the library's front door.

:func:`analyse` answers by the fastest exact route (routes/choose.py says which, and why);
:func:`enumerated` by the enumerator whatever is compiled, the route every faster one is tested
against. Both take a rule set by name, and known cards as ``--known``
writes them, so that a notebook needs nothing else:

>>> from analyzer import Shoe, analyse, records
>>> from analyzer.base.numbers import percent
>>> results = analyse("standard", Shoe.decks(8).remove("5", "Ah"))
>>> [(r.bet.id, percent(r.house_edge)) for r in results][:2]
[('banker', '1.0618%'), ('player', '1.2311%')]
>>> tie = records(results)[2]
>>> tie["bet"], tie["ev"], sorted(tie)[:4]
('tie', Fraction(-4845557399513, 33715849247115), ['bet', 'ev', 'hits_one_in', 'house_edge'])
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from ..base.errors import BaccaratError, expect
from ..base.numbers import pay_table
from ..base.recent import Recent
from ..bets.bet import BetResult, RuleSet
from ..bets.rulefile import get_rules
from ..game.cards import Shoe
from ..game.knowledge import NOTHING, Knowledge
from ..routes import choose

def analyse(rules: RuleSet | str, shoe: Shoe, knowledge: Knowledge | str | list[str] = NOTHING) -> list[BetResult]:
    """Every bet of ``rules`` (a RuleSet, or a built-in name or rule file's path) on ``shoe``,
    given ``knowledge`` of the coup's cards (a Knowledge, or ``"1=9"`` items as ``--known``
    writes them), by the route routes/choose.py chooses: all routes give the same exact results."""
    return choose.one_shoe(as_rules(rules), as_shoe(shoe), as_knowledge(knowledge))


def enumerated(rules: RuleSet | str, shoe: Shoe, knowledge: Knowledge | str | list[str] = NOTHING) -> list[BetResult]:
    """Every bet of ``rules`` on ``shoe`` by the enumerator, whatever is compiled: the route every
    faster one is tested against (choose.enumerated)."""
    return choose.enumerated(as_rules(rules), as_shoe(shoe), as_knowledge(knowledge))


def records(results) -> list[dict]:
    """Results as plain records (see BetResult.record), one a bet: what ``pandas.DataFrame``
    takes as it is."""
    return [expect(result, BetResult, "records takes BetResults").record()
            for result in expect(results, (list, tuple), "records takes a list of results")]


def as_rules(rules) -> RuleSet:
    """A RuleSet, or the rule set a name or path names.

    >>> as_rules("ez").name
    'ez'
    """
    if isinstance(rules, RuleSet):
        return rules
    if isinstance(rules, (str, Path)):
        return get_rules(rules)
    raise BaccaratError(f"rules are a RuleSet, a rule set's name or a rule file's path (got {type(rules).__name__})")


def as_shoe(shoe) -> Shoe:
    return expect(shoe, Shoe, "a shoe is a Shoe, such as Shoe.decks(8)")


def as_knowledge(knowledge) -> Knowledge:
    """A Knowledge, or the knowledge of ``POS=CARDS`` items (one string or a list of them).

    >>> as_knowledge("1=9") == as_knowledge(["1=9"]) == Knowledge.parse(["1=9"])
    True
    """
    return knowledge if isinstance(knowledge, Knowledge) else Knowledge.parse(knowledge)


# -- a bet's figures as a record: the rows of `edge` and `now`, and the pit's figures -----------


def bet_row(result: BetResult) -> dict:
    """Every figure of a bet's house-edge table, exact."""
    bet, figures = result.bet, result.figures()
    pays, brief = pay_tables(bet)
    return {
        "bet": bet.id,
        "name": bet.name,
        "pays": pays,
        "pays_brief": brief,
        "source": bet.source,
        "lines": [
            {"label": ln.label, "pays": ln.pays, "probability": p} | ({"written": ln.written} if ln.written else {})
            for ln, p in zip(bet.lines, figures["line_probabilities"])
        ],
        **{key: figures[key] for key in FIGURES},
    } | ({"model": result.model} if result.model else {}) | overlay_row(result)


def overlay_row(result: BetResult) -> dict:
    """A bet's fee and multipliers, exact: the return to player on stake and fee, and with
    multipliers the largest payout and its chance, the share of the winnings paid on multiplied
    wins and each multiplied line's patterns (bets/overlay.py); {} for other bets."""
    bet = result.bet
    if not bet.overlaid:
        return {}
    ev = result.ev
    row = {"fee": bet.fee, "rtp": (1 + bet.fee + ev) / (1 + bet.fee)}
    if bet.multipliers is None:
        return row
    figures = result.figures()
    return row | {"multipliers": bet.multipliers.describe(), "largest_payout": figures["largest"],
                  "largest_chance": figures["largest_chance"], "multiplied_share": figures["multiplied_share"],
                  "patterns": [{key: p[key] for key in ("label", "pattern", "words", "probability", "mean", "return")}
                               for p in figures["patterns"]]}


FIGURES = ("win", "push", "loss", "ev", "house_edge", "house_edge_resolved", "variance", "hits_one_in")


PAY_TABLES = Recent(4096, size=lambda kept: 1)  # id(bet) -> (bet, its pay table in words, in brief)


def pay_tables(bet) -> tuple[str, str]:
    """The bet's pay table in words, whole and brief (numbers.pay_table), worked out once a bet:
    a tracker shows the same bets after every card."""
    kept = PAY_TABLES.get(id(bet))
    if kept is None or kept[0] is not bet:  # the cache holds the bet: its id is its own while kept
        kept = PAY_TABLES.put(id(bet), (bet, pay_table(bet), pay_table(bet, brief=True)))
    return kept[1], kept[2]


def is_positive(value) -> bool:
    return isinstance(value, Fraction) and value > 0
