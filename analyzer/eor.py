"""Effect of removal, count systems and the shoe in play.

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
tags     a count system: an integer per rank A..9 and one for the zero class (T/J/Q/K).
BC       betting correlation: the count-weighted correlation of tags and EoRs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from decimal import Decimal, localcontext
from fractions import Fraction

from .bets import RuleSet, evaluate, outcome_counts
from .cards import RANKS, BaccaratError, Shoe, check_playable
from .engine import enumerate_coup, falling, possible_coup
from .knowledge import NOTHING, Knowledge
from .userfiles import read_text

MAIN_OUTCOMES = ("banker", "player", "tie")
TAG_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T")  # T stands for the zero class


def evs(rules: RuleSet, shoe: Shoe, knowledge: Knowledge = NOTHING) -> dict:
    """bet id -> exact EV, and ``P(banker)``, ``P(player)``, ``P(tie)`` of the next coup."""
    dist = enumerate_coup(shoe, rules.tableau, knowledge)
    probabilities = {f"P({name})": Fraction(count, dist.total)
                     for name, _, count in outcome_counts(dist) if name in MAIN_OUTCOMES}
    return {bet.id: evaluate(bet, dist).ev for bet in rules.bets} | probabilities


def rank_removal(rules: RuleSet, shoe: Shoe, rank: int, base: dict, knowledge: Knowledge = NOTHING):
    """(the EoR of ``rank`` for every key of ``base``, its weight in the sum rule); None when the
    shoe has none of that rank (or no removal of it leaves the known cards possible). The card
    goes from each suit in turn, weighted by how many of that suit are left times the sequences
    that then agree with the knowledge."""
    if shoe.rank_counts()[rank] == 0:
        return None
    sighted = [bet for bet in rules.bets if not bet.needs.suit_blind]  # bets on named suits or colours
    blind = replace(rules, bets=tuple(bet for bet in rules.bets if bet not in sighted))
    total = dict.fromkeys(base, Fraction(0))
    weight = 0
    for part, rename_suits in ((blind, knowledge.suit_blind), (replace(rules, bets=tuple(sighted)), False)):
        keys = [bet.id for bet in part.bets] + [key for key in base if key.startswith("P(") and part is blind]
        weight_of = {}  # removals that differ only by suit names give the same EVs (to a suit-blind bet)
        for suit, k in enumerate(shoe.counts[rank]):
            if k and keys:
                after = shoe.remove(rank, suit)
                after = after.canonical() if rename_suits else after
                weight_of[after] = weight_of.get(after, 0) + k
        part_weight = 0
        for after, k in weight_of.items():
            w = k
            if knowledge:  # times the sequences that still agree with it
                agree = possible_coup(after, rules.tableau, knowledge)
                w = k * agree.total if agree else 0
            if w:
                ev_after = evs(part, after, knowledge)
                for key in keys:
                    total[key] += w * (ev_after[key] - base[key])
            part_weight += w
        weight = weight or part_weight
    if not weight:
        return None
    scale = Fraction(1, falling(shoe.size - 1, 6)) if knowledge else 1
    return {key: value / weight for key, value in total.items()}, weight * scale


@dataclass(frozen=True)
class Removal:
    """Effects of removal on one shoe: ``base[key]`` the EV (or probability) now, ``by_rank[r]``
    the exact EoR of each rank index r for every key (None where the rank is gone), and
    ``weights[r]`` the rank's weight in the sum rule (the cards of that rank left; see ``known``
    in the glossary for the weights given known cards)."""

    shoe: Shoe
    base: dict
    by_rank: tuple
    weights: tuple

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


def effect_of_removal(rules: RuleSet, shoe: Shoe, progress=None, knowledge: Knowledge = NOTHING) -> Removal:
    """The exact EoR of each rank for every bet of ``rules`` (and P(banker/player/tie)), given
    ``knowledge`` of the coming coup's cards."""
    if shoe.size < 7:
        raise BaccaratError(f"effect of removal needs a shoe of at least 7 cards (this one has {shoe.size})")
    base = evs(rules, shoe, knowledge)
    by_rank, weights = [], []
    for rank in range(13):
        removal = rank_removal(rules, shoe, rank, base, knowledge)
        by_rank.append(removal and removal[0])
        weights.append(removal[1] if removal else 0)
        if progress:
            progress(1)
    return Removal(shoe, base, tuple(by_rank), tuple(weights))


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
                after = shoe.remove(r1).remove(r2)
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


# Count systems -------------------------------------------------------------------------------

def tag_weights(shoe: Shoe) -> list[int]:
    """Cards of each tag class (A..9, zero) in the shoe."""
    ranks = shoe.rank_counts()
    return list(ranks[:9]) + [sum(ranks[9:])]


def weighted(tags, eors, weights) -> list[tuple]:
    """(weight, tag, EoR) of each tag class present in the shoe."""
    return [(w, t, e) for w, t, e in zip(weights, tags, eors) if w and e is not None]


def betting_correlation(tags, eors, weights) -> Fraction:
    """The count-weighted correlation of tags with EoRs. Its exact form has a square root, so it
    is rounded to 30 significant digits (decimal arithmetic) and returned as a Fraction."""
    pairs = weighted(tags, eors, weights)
    total = sum(w for w, _, _ in pairs)
    mean_t = Fraction(sum(w * t for w, t, _ in pairs), total)
    mean_e = sum((w * e for w, _, e in pairs), Fraction(0)) / total
    cov = sum((w * (t - mean_t) * (e - mean_e) for w, t, e in pairs), Fraction(0))
    var_t = sum((w * (t - mean_t) ** 2 for w, t, _ in pairs), Fraction(0))
    var_e = sum((w * (e - mean_e) ** 2 for w, _, e in pairs), Fraction(0))
    if not var_t or not var_e:
        return Fraction(0)
    with localcontext() as ctx:
        ctx.prec = 30
        product = var_t * var_e
        root = (Decimal(product.numerator) / Decimal(product.denominator)).sqrt()
        return cov / Fraction(root)


def imbalance(tags, weights) -> int:
    """The running count after the whole shoe: 0 for a balanced count."""
    return sum(w * t for w, t in zip(weights, tags))


def derive_tags(eors, weights, levels=(1, 2, 3, 4, 5, 6)) -> list[dict]:
    """Integer tag sets from EoRs: for each level L, tag = round(L * EoR / max |EoR|) (halves away
    from zero), then balanced (see :func:`balance`), with its betting correlation and imbalance."""
    top = max((abs(e) for e in eors if e is not None), default=0)
    out = []
    for level in levels:
        scaled = [None if e is None or not top else level * e / top for e in eors]
        tags = balance([0 if x is None else round_half_away(x) for x in scaled], scaled, weights)
        out.append({"level": level, "tags": tags, "bc": betting_correlation(tags, eors, weights),
                    "imbalance": imbalance(tags, weights)})
    return out


def balance(tags, scaled, weights, steps: int = 20) -> list[int]:
    """Nudge rounded tags one unit at a time until the count is balanced (imbalance 0), each time
    moving the tag whose rounding it strains least; gives up (leaving an imbalance, reported)
    when no single nudge brings the imbalance closer to 0.

    >>> balance([1, 0, -1], [Fraction(3, 4), Fraction(1, 10), Fraction(-1, 2)], [4, 4, 4])
    [1, 0, -1]
    >>> balance([1, 1, -1], [Fraction(3, 4), Fraction(1, 2), Fraction(-1, 2)], [4, 4, 4])
    [1, 0, -1]
    """
    tags = list(tags)
    for _ in range(steps):
        off = imbalance(tags, weights)
        if off == 0:
            break
        step = -1 if off > 0 else 1
        moves = [(abs(x - tags[i] - step) - abs(x - tags[i]), i) for i, x in enumerate(scaled)
                 if x is not None and weights[i] and abs(off + step * weights[i]) < abs(off)]
        if not moves:
            break
        tags[min(moves)[1]] += step
    return tags


def round_half_away(q: Fraction) -> int:
    """q rounded to an integer, halves away from zero.

    >>> round_half_away(Fraction(5, 2)), round_half_away(Fraction(-5, 2)), round_half_away(Fraction(7, 3))
    (3, -3, 2)
    """
    n = math.floor(abs(q) + Fraction(1, 2))
    return n if q >= 0 else -n


def linear_slope(eors, tags, weights, shoe_size: int) -> Fraction:
    """Change in EV per unit of true count (running count per deck left): the weighted least-squares
    regression of each card's EoR on the true count its removal gives, 52 tag / N."""
    pairs = weighted(tags, eors, weights)
    num = sum((w * t * e for w, t, e in pairs), Fraction(0))
    den = sum(w * t * t for w, t, _ in pairs)
    if not den:
        raise BaccaratError("the tags are all zero: no count to regress on")
    return Fraction(shoe_size, 52) * num / den


def parse_tags(text: str) -> list[int]:
    """Ten integer tags A,2,...,9,T (T for the whole zero class).

    >>> parse_tags("0,0,0,-1,-1,-1,-1,2,2,0")
    [0, 0, 0, -1, -1, -1, -1, 2, 2, 0]
    """
    parts = [p.strip() for p in text.split(",")]
    try:
        tags = [int(p) for p in parts]
    except ValueError:
        tags = None
    if tags is None or len(tags) != 10:
        raise BaccaratError(f"{{tags}} takes 10 integers, A,2,...,9,T (T for all ten-value cards); got {text!r}",
                            names=("tags",))
    check_tags(tags, "{tags}", names=("tags",))
    return tags


MAX_TAG = 1000  # a count's tags are single digits in practice; this keeps every figure printable


def check_tags(tags, context: str, names: tuple = ()):
    if any(abs(t) > MAX_TAG for t in tags):
        raise BaccaratError(f"{context}: a tag must be between -{MAX_TAG} and {MAX_TAG}", names)


# The shoe in play ---------------------------------------------------------------------------

def parse_dealt(text: str) -> list:
    """Dealt cards from text: commas or new lines separate cards, blank lines and # comments are
    skipped (a line may hold one card or a whole coup).

    >>> parse_dealt("5,K, # a comment, with commas\\n\\nAh")
    [(4, None), (12, None), (0, 1)]
    """
    from .cards import parse_card

    lines = (line.split("#", 1)[0] for line in text.splitlines())
    return [parse_card(part) for line in lines for part in line.split(",") if part.strip()]


def load_dealt(path) -> list:
    """Dealt cards from a file (see :func:`parse_dealt`)."""
    return parse_dealt(read_text(path, "dealt file"))  # a shoe's cards: kilobytes


def shoe_in_play(shoe: Shoe, dealt) -> Shoe:
    """The shoe less the cards already dealt; it must still hold a coup's 6 cards."""
    return check_playable(shoe.remove_cards(dealt))
