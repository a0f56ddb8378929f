"""Which route answers a question, in one place: every door that asks for a rule set's figures
(``analyse`` and so ``edge``, ``now``, ``compare``, the tracker, the pit, ``protect`` and the
results; ``batch``, ``simulate`` and ``eor`` through ``batch.evaluate_many``) comes here or to
``batch.evaluate_many``, whose rule for many shoes this table states too.

=====================================  ===============================  ==========================
the question                           the route                        why
=====================================  ===============================  ==========================
one shoe, rule set compiled here       ``compiled.analyse_one``         1.9 ms: one matrix row
one shoe, value-level rules, Lean      ``lean`` (Python integers)       1.5-2 ms, and no numpy
plan on disk                                                            for a one-off ``edge``
one shoe from the second, the rule     ``compiled.compile_rules``       the plan costs a read,
set's plan on disk (a mark says so)    from disk, then ``analyse_one``  not 7 enumerations
one shoe, the first FEW_ANALYSES       the enumerator (:func:`enum-     a compilation (0.1-1 s)
times a process asks                   erated`), each bet by counts.py  is not worth a few shoes
one shoe, after that                   compiled, kept on disk           a loop gets the speed
known cards, or a payout that is a     the enumerator                   no plan holds them
symbol
many shoes (``evaluate_many``)         polynomials from FEW_SHOES       matrix products over
                                       shoes on or once compiled        shoes
=====================================  ===============================  ==========================

A bet with multipliers has its lines counted by the route that answers, then how its counted
cards fall into patterns of identical cards by ``multipliers.py`` (0.3-2 ms a bet and shoe, its
plan compiled once a process in 40-120 ms); ``batch`` does the same shoe by shoe.

Each bet's lines within the enumerator's route are counted as counts.py says (cells, card-level
polynomials, closed forms, the walk at card detail). Every route gives the same integers: the
enumerator stays the second, independent route the tests hold the others to.
"""

from __future__ import annotations

import sys
import threading

from ..base.lazy import LazyModule
from ..bets.bet import BetResult, RuleSet
from ..game.cards import Shoe
from ..game.knowledge import NOTHING, Knowledge
from . import lean, plancache
from .counts import evaluate, prepare, with_multipliers

engine = LazyModule("analyzer.game.engine")  # with numpy: not loaded where lean.py answers

FEW_ANALYSES = 8  # shoes analysed one at a time by the enumerator before a rule set is compiled
SECOND = 2  # the shoe at which a plan kept on disk is read: a one-off question (`edge`) asks one shoe, and reading
            # the whole plan costs more than that one shoe by the enumerator (0.2-0.5 s against 10 ms)
_USES: dict = {}  # id(rules) -> (rules, shoes analysed one at a time): found by identity, as batch's plans
_USES_LOCK = threading.Lock()


def one_shoe(rules: RuleSet, shoe: Shoe, knowledge: Knowledge = NOTHING) -> list[BetResult]:
    """Every bet of ``rules`` on ``shoe`` given ``knowledge``, by the first route of the table
    above that answers; the bets with multipliers then count their patterns (multipliers.py)."""
    results = _one_shoe(rules, shoe, knowledge)
    if any(bet.multipliers is not None for bet in rules.bets):
        results = with_multipliers(results, shoe, rules.tableau, knowledge)
    return results


def _one_shoe(rules: RuleSet, shoe: Shoe, knowledge: Knowledge = NOTHING) -> list[BetResult]:
    if not knowledge:
        plan = plan_for_one(rules)
        if plan is not None:
            from . import compiled  # loaded: plan_for_one found or made the plan there

            results = compiled.analyse_one(plan, shoe)
            if results is not None:
                return results
        results = lean.analyse(rules, shoe)
        if results is not None:
            return results
    return enumerated(rules, shoe, knowledge)


def enumerated(rules: RuleSet, shoe: Shoe, knowledge: Knowledge = NOTHING) -> list[BetResult]:
    """Every bet of ``rules`` on ``shoe`` by the enumerator, whatever is compiled: one enumeration
    (and one more for each card detail the bets read)."""
    dist = engine.enumerate_coup(shoe, rules.tableau, knowledge)
    prepare(rules.bets, rules.tableau, knowledge)
    return [evaluate(bet, dist) for bet in rules.bets]


def plan_for_one(rules: RuleSet):
    """The compiled RulePlan (compiled.py) by which :func:`one_shoe` answers a shoe of ``rules``, or
    None where the enumerator answers: payouts that are symbols, and the first FEW_ANALYSES
    shoes of a rule set in this process (one shoe by the enumerator costs a few milliseconds, a
    compilation a tenth of a second to a second: a few shoes never pay for it) - unless its
    plan is kept on disk (:func:`kept_on_disk`), when it is read at the second shoe (a one-off
    question asks one; a second is a loop). From then on the rule set is compiled, so that a
    loop over shoes gets the compiled speed without asking.

    Until then compiled.py is not imported (with its threads and the card-level counting, about
    10 ms of a one-off `baccarat edge`): a plan compiled in this process is one compiled.py made. Where
    it is in sys.modules it is imported as usual, which waits for an import another thread
    has under way (a module is in sys.modules before its body has run)."""
    plan = None
    if "analyzer.routes.compiled" in sys.modules:
        from . import compiled

        plan = compiled.compiled_plan(rules)
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
    if used <= FEW_ANALYSES and not (used == SECOND and kept_on_disk(rules)):
        return None
    from . import compiled
    return compiled.compile_rules(rules)


def kept_on_disk(rules: RuleSet) -> bool:
    """Whether a process compiled ``rules`` whole and kept the plan (the mark batch.compile_rules
    leaves, plancache.py): looked at once per rule set and process, a file's name and a stat. A
    value-level rule set that lean.py answers is left to it (no numpy)."""
    return not lean.answers(rules) and plancache.stored(compiled_mark(rules), bytes)


def compiled_mark(rules: RuleSet) -> str | None:
    """The name of the mark that says ``rules`` was compiled whole and kept (None: not nameable)."""
    return plancache.key("compiled", rules)
