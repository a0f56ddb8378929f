"""Every bet of a rule set on one shoe: the library's front door.

:func:`analyse` answers by the fastest exact route: a rule set's compiled polynomials
(batch.compile_rules) once it is compiled, else its plan for one shoe in Python integers where one
is kept on disk (lean.py: no numpy), else the enumerator (engine.enumerate_coup, one walk of the
shoe for every bet). :func:`enumerated` is the enumerator whatever is compiled, the route every
faster one is tested against. Both take a rule set by name, and known cards as ``--known``
writes them, so that a notebook needs nothing else:

>>> from analyzer import Shoe, analyse, records
>>> from analyzer.numbers import percent
>>> results = analyse("standard", Shoe.decks(8).remove("5", "Ah"))
>>> [(r.bet.id, percent(r.house_edge)) for r in results][:2]
[('banker', '1.0618%'), ('player', '1.2311%')]
>>> tie = records(results)[2]
>>> tie["bet"], tie["ev"], sorted(tie)[:4]
('tie', Fraction(-4845557399513, 33715849247115), ['bet', 'ev', 'hits_one_in', 'house_edge'])
"""

from __future__ import annotations

import sys
import threading
from fractions import Fraction
from pathlib import Path

from . import lean
from .bets import BetResult, RuleSet, evaluate, prepare
from .cards import Shoe
from .errors import BaccaratError, expect
from .knowledge import NOTHING, Knowledge
from .lazy import LazyModule
from .numbers import pay_table
from .recent import Recent
from .rulefile import get_rules

engine = LazyModule("analyzer.engine")  # with numpy: not loaded where lean.py answers


def analyse(rules: RuleSet | str, shoe: Shoe, knowledge: Knowledge | str | list[str] = NOTHING) -> list[BetResult]:
    """Every bet of ``rules`` (a RuleSet, or a built-in name or rule file's path) on ``shoe``,
    given ``knowledge`` of the coup's cards (a Knowledge, or ``"1=9"`` items as ``--known``
    writes them): by the rule set's compiled polynomials once it has been analysed on a few
    shoes in this process (:func:`plan_for_one`; read from disk where an earlier process kept
    them), before that by its plan for one shoe kept on disk (lean.py, value-level rule sets
    asked again), else by the enumerator. All give the same exact results."""
    rules, shoe, knowledge = as_rules(rules), as_shoe(shoe), as_knowledge(knowledge)
    if not knowledge:
        plan = plan_for_one(rules)
        if plan is not None:
            from . import batch  # loaded: plan_for_one found or made the plan there

            results = batch.analyse_one(plan, shoe)
            if results is not None:
                return results
        results = lean.analyse(rules, shoe)
        if results is not None:
            return results
    return enumerated(rules, shoe, knowledge)


FEW_ANALYSES = 8  # shoes analysed one at a time by the enumerator before a rule set is compiled
_USES: dict = {}  # id(rules) -> (rules, shoes analysed one at a time): found by identity, as batch's plans
_USES_LOCK = threading.Lock()


def plan_for_one(rules: RuleSet):
    """The compiled RulePlan (batch.py) by which :func:`analyse` answers a shoe of ``rules``, or
    None where the enumerator answers: payouts that are symbols, and the first FEW_ANALYSES
    shoes of a rule set in this process (one shoe by the enumerator costs a few milliseconds, a
    compilation a tenth of a second to a second, or a few milliseconds read from disk: a few
    shoes never pay for it). From then on the rule set is compiled (read from disk where an
    earlier process kept it: plancache.py), so that a loop over shoes gets the compiled speed
    without asking.

    Until then batch.py is not imported (with its threads and the card-level counting, about
    10 ms of a one-off `baccarat edge`): a plan compiled in this process is one batch made. Where
    batch is in sys.modules it is imported as usual, which waits for an import another thread
    has under way (a module is in sys.modules before its body has run)."""
    plan = None
    if "analyzer.batch" in sys.modules:
        from . import batch

        plan = batch.compiled_plan(rules)
    if plan is not None:
        return plan
    if not all(bet.numeric for bet in rules.bets):
        return None
    with _USES_LOCK:
        rules_seen, used = _USES.get(id(rules), (rules, 0))
        used = used + 1 if rules_seen is rules else 1
        if len(_USES) >= 64:
            _USES.pop(next(iter(_USES)))
        _USES[id(rules)] = (rules, used)
    if used <= FEW_ANALYSES:
        return None
    from . import batch
    return batch.compile_rules(rules)


def enumerated(rules: RuleSet | str, shoe: Shoe, knowledge: Knowledge | str | list[str] = NOTHING) -> list[BetResult]:
    """Every bet of ``rules`` on ``shoe`` by the enumerator, whatever is compiled: one enumeration
    (and one more for each card detail the bets read)."""
    rules, shoe, knowledge = as_rules(rules), as_shoe(shoe), as_knowledge(knowledge)
    dist = engine.enumerate_coup(shoe, rules.tableau, knowledge)
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
    } | ({"model": result.model} if result.model else {})


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
