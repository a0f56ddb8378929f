"""Every bet of a rule set on one shoe: the library's front door.

:func:`analyse` answers by the fastest exact route: the enumerator (engine.enumerate_coup, one
walk of the shoe for every bet), or a rule set's compiled polynomials (batch.compile_rules)
once it is compiled. :func:`enumerated` is the enumerator whatever is compiled, the route every
faster one is tested against. Both take a rule set by name, and known cards as ``--known``
writes them, so that a notebook needs nothing else:

>>> from analyzer import Shoe, analyse, records
>>> from analyzer.render import percent
>>> results = analyse("standard", Shoe.decks(8).remove("5", "Ah"))
>>> [(r.bet.id, percent(r.house_edge)) for r in results][:2]
[('banker', '1.0618%'), ('player', '1.2311%')]
>>> tie = records(results)[2]
>>> tie["bet"], tie["ev"], sorted(tie)[:4]
('tie', Fraction(-4845557399513, 33715849247115), ['bet', 'ev', 'hits_one_in', 'house_edge'])
"""

from __future__ import annotations

from pathlib import Path

from . import batch
from .bets import BetResult, RuleSet, evaluate, prepare
from .cards import Shoe
from .engine import enumerate_coup
from .errors import BaccaratError, expect
from .knowledge import NOTHING, Knowledge
from .rulefile import get_rules


def analyse(rules: RuleSet | str, shoe: Shoe, knowledge: Knowledge | str | list[str] = NOTHING) -> list[BetResult]:
    """Every bet of ``rules`` (a RuleSet, or a built-in name or rule file's path) on ``shoe``,
    given ``knowledge`` of the coup's cards (a Knowledge, or ``"1=9"`` items as ``--known``
    writes them): by the rule set's compiled polynomials once it has been analysed on a few
    shoes in this process (batch.plan_for_one; read from disk where an earlier process kept
    them), by the enumerator before. Both give the same exact results."""
    rules, shoe, knowledge = as_rules(rules), as_shoe(shoe), as_knowledge(knowledge)
    if not knowledge:
        plan = batch.plan_for_one(rules)
        results = batch.analyse_one(plan, shoe) if plan is not None else None
        if results is not None:
            return results
    return enumerated(rules, shoe, knowledge)


def enumerated(rules: RuleSet | str, shoe: Shoe, knowledge: Knowledge | str | list[str] = NOTHING) -> list[BetResult]:
    """Every bet of ``rules`` on ``shoe`` by the enumerator, whatever is compiled: one enumeration
    (and one more for each card detail the bets read)."""
    rules, shoe, knowledge = as_rules(rules), as_shoe(shoe), as_knowledge(knowledge)
    dist = enumerate_coup(shoe, rules.tableau, knowledge)
    prepare(rules.bets, rules.tableau, knowledge)
    return [evaluate(bet, dist) for bet in rules.bets]


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
