"""Effect of removal: how each bet's EV moves as cards leave the shoe (count systems: counting.py).

Glossary
--------
EoR      effect of removal of rank r: the exact change in a bet's EV when one card of rank r
         leaves the shoe, positive = better for the bettor. With suits uneven, it is the
         average over the suits of that rank, weighted by how many of each are left - the
         expected change when a random card of that rank goes - so that the *sum rule*
         sum_r n_r EoR_r = 0 holds exactly (the EV of a shoe is the average EV after burning a
         random card).
known    with cards of the coming coup known (knowledge.py), every EV is conditional on them,
         and a suit's weight is also multiplied by the number of sequences that still agree
         with them once the card is gone (the chance of the known cards given that removal).
         The sum rule then holds with those weights: sum_r w_r EoR_r = 0, where w_r is n_r
         times that number, over the number with a card of no particular kind gone.
zero     T, J, Q and K together: their count-weighted average EoR.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache

from ..bets.bet import MAIN_BETS, OUTCOMES, Bet, Line, RuleSet
from ..routes.counts import evaluate, outcome_counts
from ..game.cards import RANKS, Shoe
from ..game.engine import enumerate_coup, falling, possible_coup
from ..base.errors import BaccaratError
from ..game.knowledge import NOTHING, Knowledge
from ..game.tableau import Tableau

BET, OUTCOME = "bet", "outcome"  # what an effect of removal is of: a bet's EV, an outcome's probability


def evs(rules: RuleSet, shoe: Shoe, knowledge: Knowledge = NOTHING) -> dict:
    """bet id -> exact EV of the next coup."""
    return {name: value for (_, name), value in followed(rules, shoe, knowledge, outcomes=False).items()}


def followed(rules: RuleSet, shoe: Shoe, knowledge: Knowledge, outcomes: bool) -> dict:
    """What the effect of removal follows on the next coup: (BET, id) -> the bet's exact EV, and
    with ``outcomes``, (OUTCOME, name) -> the probability that Banker, Player or a tie wins."""
    dist = enumerate_coup(shoe, rules.tableau, knowledge)
    values = {(BET, bet.id): evaluate(bet, dist).ev for bet in rules.bets}
    if outcomes:
        values |= {(OUTCOME, name): Fraction(count, dist.total)
                   for name, _, count in outcome_counts(dist) if name in MAIN_BETS}
    return values


@lru_cache(maxsize=8)
def outcome_rules(tableau: Tableau) -> RuleSet:
    """Who wins under ``tableau``, as three one-line bets: a batch's count of each line is the
    outcome's count."""
    return RuleSet("outcomes", "who wins", tuple(Bet(name, label, (Line(Fraction(1), label, condition),))
                                                 for name, label, condition in OUTCOMES if name in MAIN_BETS), tableau)


def followed_all(rules: RuleSet, shoes: list, knowledge: Knowledge, outcomes: bool, by_plan: bool | None = None) -> list:
    """:func:`followed` of each shoe: by the rule set's compiled polynomials, all the shoes in
    one batch (batch.evaluate_many; the outcomes as outcome_rules' line counts), where nothing
    is known of the coup, every payout is a number and the shoes are within the polynomials'
    reach - ``by_plan`` None chooses so, False always enumerates shoe by shoe (the second route
    the tests compare it with). Known cards are always enumerated."""
    from ..routes import batch  # numpy's polynomials: only where a batch is worth them

    if by_plan is None:  # the polynomials reach shoes of at most FAST_CARDS cards (beyond, a batch enumerates)
        by_plan = all(bet.numeric for bet in rules.bets) and all(shoe.size <= batch.FAST_CARDS for shoe in shoes)
    if not by_plan or knowledge or not shoes:  # known cards: the enumerator, whatever is asked
        return [followed(rules, shoe, knowledge, outcomes) for shoe in shoes]

    values = [{} for _ in shoes]
    if rules.bets:
        batch.compile_rules(rules)
        done = batch.evaluate_many(rules, shoes)
        for i, value in enumerate(values):
            value.update(((BET, bet), ev) for bet, ev in done.evs(i).items())
    if outcomes:
        who_wins = outcome_rules(rules.tableau)
        batch.compile_rules(who_wins)
        done = batch.evaluate_many(who_wins, shoes)
        for i, value in enumerate(values):
            total = int(done.total[i])
            value.update(((OUTCOME, bet.id), Fraction(int(done.lines[i, columns[0]]), total))
                         for bet, columns in zip(who_wins.bets, done.plan.line_columns))
    return values


def parts(rules: RuleSet) -> tuple:
    """``rules`` in two: the bets blind to suits, and those that read named suits or colours (whose
    removals must keep the suit's name)."""
    sighted = tuple(bet for bet in rules.bets if not bet.needs.suit_blind)
    return replace(rules, bets=tuple(bet for bet in rules.bets if bet not in sighted)), replace(rules, bets=sighted)


def removals(parts: tuple, shoe: Shoe, rank: int, knowledge: Knowledge) -> list:
    """[(part, keys, {shoe after: cards of ``rank`` whose removal leaves it})] for both ``parts``:
    the blind one (with the outcomes) takes shoes that differ only by the names of suits as one,
    if the knowledge is blind to them too. Empty when the shoe has none of that rank."""
    if shoe.rank_counts()[rank] == 0:
        return []
    out = []
    for part, blind in zip(parts, (True, False)):
        keys = [(BET, bet.id) for bet in part.bets] + ([(OUTCOME, name) for name in MAIN_BETS] if blind else [])
        weight_of = {}  # removals that differ only by suit names give the same EVs (to a suit-blind bet)
        for suit, k in enumerate(shoe.counts[rank]):
            if k and keys:
                after = shoe.without_card(rank, suit)
                after = after.canonical() if blind and knowledge.suit_blind else after
                weight_of[after] = weight_of.get(after, 0) + k
        out.append((part, keys, weight_of))
    return out


def rank_removal(shoe: Shoe, rank: int, base: dict, knowledge: Knowledge, parts: tuple, values: list, agree: dict):
    """(the EoR of ``rank`` for every key of ``base``, its weight in the sum rule); None when the
    shoe has none of that rank (or no removal of it leaves the known cards possible). The card
    goes from each suit in turn, weighted by how many of that suit are left times the sequences
    that then agree with the knowledge (``agree[after]``; 1 when nothing is known); ``values[p]``
    holds :func:`followed` of each shoe after a removal for the bets of ``parts[p]``."""
    total = dict.fromkeys(base, Fraction(0))
    weight = 0
    for (part, keys, weight_of), value in zip(removals(parts, shoe, rank, knowledge), values):
        part_weight = 0
        for after, k in weight_of.items():
            w = k * agree.get(after, 1)
            if w:
                for key in keys:
                    total[key] += w * (value[after][key] - base[key])
            part_weight += w
        weight = weight or part_weight
    if not weight:
        return None
    scale = Fraction(1, falling(shoe.size - 1, 6)) if knowledge else 1
    return {key: value / weight for key, value in total.items()}, weight * scale


@dataclass(frozen=True)
class Removal:
    """Effects of removal on one shoe: ``base[id]`` each bet's EV now, ``by_rank[r]`` the exact
    EoR of each rank index r for every bet (None where the rank is gone), and ``weights[r]`` the
    rank's weight in the sum rule (the cards of that rank left; see ``known`` in the glossary for
    the weights given known cards). ``outcomes``: the same for the probabilities that Banker,
    Player or a tie wins (keys ``banker``, ``player``, ``tie``)."""

    shoe: Shoe
    base: dict
    by_rank: tuple
    weights: tuple
    outcomes: Removal | None = None

    def zero_class(self, key):
        """The EoR of a zero-value card (T, J, Q or K), weighted as in the sum rule."""
        pairs = [(w, e[key]) for w, e in zip(self.weights[9:], self.by_rank[9:]) if e is not None]
        if not pairs:
            return None
        return sum((w * e for w, e in pairs), Fraction(0)) / sum(w for w, _ in pairs)

    def check_sum(self, key) -> Fraction:
        """sum_r w_r EoR_r: exactly 0 (the sum rule)."""
        return sum((w * eor[key] for w, eor in zip(self.weights, self.by_rank) if eor is not None), Fraction(0))

    def sum_of_squares(self, key) -> Fraction:
        """sum over the 13 ranks of EoR squared (by rank, as published tables give it)."""
        return sum((eor[key] ** 2 for eor in self.by_rank if eor is not None), Fraction(0))

    def tag_eors(self, key) -> list:
        """The EoRs in tag order: A..9, then the zero class."""
        return [None if self.by_rank[r] is None else self.by_rank[r][key] for r in range(9)] + [self.zero_class(key)]


def effect_of_removal(rules: RuleSet, shoe: Shoe, progress=None, knowledge: Knowledge = NOTHING,
                      by_plan: bool | None = None) -> Removal:
    """The exact EoR of each rank for every bet of ``rules`` (and for P(banker/player/tie)), given
    ``knowledge`` of the coming coup's cards: every shoe a removal leaves evaluated at once, by
    the compiled polynomials where nothing is known (``by_plan``: see :func:`followed_all`)."""
    if shoe.size < 7:
        raise BaccaratError(f"effect of removal needs a shoe of at least 7 cards (this one has {shoe.size})")
    split = parts(rules)
    afters = [{}, {}]  # each part's shoes after a removal (dicts: in order, each once)
    for rank in range(13):
        for side, (_, _, weight_of) in zip(afters, removals(split, shoe, rank, knowledge)):
            side.update(dict.fromkeys(weight_of))
    agree = {}  # with known cards: the sequences of each shoe after a removal that still agree with them
    if knowledge:
        for after in {**afters[0], **afters[1]}:
            possible = possible_coup(after, rules.tableau, knowledge)
            agree[after] = possible.total if possible else 0
    values = []
    for part, side, outcomes in zip(split, afters, (True, False)):
        shoes = [shoe] * (part.bets != () or outcomes) + [after for after in side if agree.get(after, 1)]
        values.append(dict(zip(shoes, followed_all(part, shoes, knowledge, outcomes, by_plan))))
    found = {**values[0].get(shoe, {}), **values[1].get(shoe, {})}
    base = {key: found[key] for key in [(BET, bet.id) for bet in rules.bets] + [(OUTCOME, name) for name in MAIN_BETS]}
    by_rank, weights = [], []
    for rank in range(13):
        removal = rank_removal(shoe, rank, base, knowledge, split, values, agree)
        by_rank.append(removal and removal[0])
        weights.append(removal[1] if removal else 0)
        if progress:
            progress(1)

    def of(kind: str, outcomes=None) -> Removal:
        def part(values):
            return None if values is None else {name: v for (k, name), v in values.items() if k == kind}

        return Removal(shoe, part(base), tuple(map(part, by_rank)), tuple(weights), outcomes)

    return of(BET, of(OUTCOME))


def pair_removals(rules: RuleSet, shoe: Shoe, bet_id: str, progress=None) -> list[dict]:
    """For each pair of ranks r1 <= r2: the exact change in ``bet_id``'s EV when one card of each
    leaves (each from the suit with most left), the linear estimate EoR(r1) + EoR(r2), and its
    error (exact - linear)."""
    rules = rules.only([bet_id])
    removal = effect_of_removal(rules, shoe, progress)
    rows = []
    for r1 in range(13):
        for r2 in range(r1, 13):
            try:
                after = shoe.without_card(r1).without_card(r2)
            except BaccaratError:
                continue  # not two cards of these ranks left
            if after.size < 6:
                continue
            exact = evs(rules, after)[bet_id] - removal.base[bet_id]
            linear = removal.by_rank[r1][bet_id] + removal.by_rank[r2][bet_id]
            rows.append({"ranks": f"{RANKS[r1]},{RANKS[r2]}", "exact": exact, "linear": linear, "error": exact - linear})
            if progress:
                progress(1)
    return rows
