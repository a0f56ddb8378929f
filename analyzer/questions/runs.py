"""Runs in a shoe, for game protection: how often a shoe dealt to its cut card holds a run of k or
more Banker wins (Player wins, ties), the law of its longest run, and the coups it deals.

Two figures side by side, as the issue of runs asks:

- **exact for independent coups**: each coup's result and the cards it takes (4, 5 or 6) drawn
  from the full shoe's exact joint chances (the ordered 6-card sequences of the enumeration), the
  burn as the deal says, and coups dealt while more than ``cut`` cards are left. The chain below
  is exact in integers;
- **simulated for the real shoe**: shoes shuffled and dealt card by card to the cut card
  (simulate.py), each proportion with its 95% Wilson interval.

The chain
---------
A state is the number of cards gone (burn included), p, and the current run, j < k. A coup
moves p to p + u and j to j + 1 (its result is the one followed), to 0 (another result), or
leaves j where it is (a tie, where ties are skipped); a run reaching k leaves the chain (the shoe
has its run). Every state's mass is held as an integer numerator over B * T^(p // 4), B the burn's
denominator and T the sequences of one coup: a coup takes u >= 4 cards, so (p + u) // 4 >= p // 4
+ 1 and the step from p multiplies the numerator by the coup's count and T^((p + u) // 4 - p // 4
- 1), an integer. What is left when the shoe ends is P(no run of k); states in order of p, each
visited once.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import sqrt

import numpy as np

from ..game.cards import Shoe
from ..game.engine import enumerate_coup
from ..base.errors import BaccaratError, unknown
from ..game.layout import coup_fields
from ..game.tableau import PUNTO_BANCO, Tableau

RESULTS = {"banker": -1, "player": 1, "tie": 0}  # as the winner field encodes them
MAX_RUN = 40  # the longest run a table asks about: chains of 1..MAX_RUN states
MAX_SHOES = 10_000_000  # shoes a simulation may deal
CHUNK = 500  # shoes dealt at once


@dataclass(frozen=True)
class CoupLaw:
    """Each coup's joint chances, from the full shoe: ``weight[(result, cards)]`` the ordered
    6-card sequences (out of ``total``) in which the coup ends with that result having taken that
    many cards."""

    weight: dict
    total: int


def coup_law(shoe: Shoe, tableau: Tableau = PUNTO_BANCO) -> CoupLaw:
    """The joint law of a coup's result and the cards it takes, exactly.

    >>> law = coup_law(Shoe.decks(8))
    >>> sum(law.weight.values()) == law.total, law.weight[("tie", 4)] > 0
    (True, True)
    """
    dist = enumerate_coup(shoe, tableau)
    winner, cards = dist.fields["winner"], dist.fields["total_cards"]
    weight = {(name, u): dist.count((winner == code) & (cards == u)) for name, code in RESULTS.items() for u in (4, 5, 6)}
    return CoupLaw({key: w for key, w in weight.items() if w}, dist.total)


def burn_law(shoe: Shoe, burn: str) -> tuple[dict, int]:
    """(cards burned -> weight, total weight): the face rule turns the first card and burns as many
    more as its value (10 for a ten-value card); a number burns that many; none burns none.

    >>> burn_law(Shoe.decks(1), "face")[0][11], burn_law(Shoe.decks(1), "3")
    (16, ({3: 1}, 1))
    """
    if burn == "none":
        return {0: 1}, 1
    if burn != "face":
        return {int(burn): 1}, 1
    out = {}
    for value, n in enumerate(shoe.value_counts()):
        if n:
            out[1 + (value or 10)] = out.get(1 + (value or 10), 0) + n
    return out, shoe.size


def no_run_chance(law: CoupLaw, burn: tuple, size: int, cut: int, result: str, k: int, skip_ties: bool) -> Fraction:
    """P(no run of ``k`` or more coups won by ``result`` in a shoe of ``size`` cards dealt to the
    cut card), for independent coups (the chain of the module's notes)."""
    burns, burn_total = burn
    t = law.total
    ends = size - cut  # a coup starts while more than cut cards are left: p < ends
    steps = [(name == result, name == "tie" and skip_ties and result != "tie", u, w) for (name, u), w in law.weight.items()]
    mass = [None] * positions(ends, burns)
    for b, w in burns.items():
        mass[b] = [0] * k
        mass[b][0] = w * t ** (b // 4)  # w / B over B * T^(b // 4)
    left = Fraction(0)
    powers = [1, t, t * t]
    for p in range(len(mass)):
        here = mass[p]
        if here is None:
            continue
        if p >= ends:  # the shoe is over: no run of k in it
            left += Fraction(sum(here), burn_total * t ** (p // 4))
            continue
        for same, skip, u, w in steps:
            q = p + u
            factor = w * powers[q // 4 - p // 4 - 1]
            there = mass[q]
            if there is None:
                there = mass[q] = [0] * k
            if skip:
                for j in range(k):
                    there[j] += here[j] * factor
            elif same:
                for j in range(k - 1):
                    there[j + 1] += here[j] * factor
            else:
                there[0] += sum(here) * factor
        mass[p] = None
    return left


def positions(ends: int, burns: dict) -> int:
    """The states of the chain: every count of cards gone a coup can start from (below ``ends``)
    or end at (at most 6 past it), and every burn (a burn past ``ends`` deals no coup)."""
    return max(ends + 6, *burns) + 1


def coups_law(law: CoupLaw, burn: tuple, size: int, cut: int) -> dict[int, Fraction]:
    """P(the shoe deals n coups) for each n, for independent coups: the same chain on the cards
    gone, following the number of coups instead of a run."""
    burns, burn_total = burn
    t = law.total
    ends = size - cut
    by_cards = {}
    for (name, u), w in law.weight.items():
        by_cards[u] = by_cards.get(u, 0) + w
    mass = [None] * positions(ends, burns)
    for b, w in burns.items():
        mass[b] = {0: w * t ** (b // 4)}
    out: dict[int, Fraction] = {}
    powers = [1, t, t * t]
    for p in range(len(mass)):
        here = mass[p]
        if here is None:
            continue
        if p >= ends:
            for n, m in here.items():
                out[n] = out.get(n, Fraction(0)) + Fraction(m, burn_total * t ** (p // 4))
            continue
        for u, w in by_cards.items():
            q = p + u
            there = mass[q] if mass[q] is not None else {}
            mass[q] = there
            factor = w * powers[q // 4 - p // 4 - 1]
            for n, m in here.items():
                there[n + 1] = there.get(n + 1, 0) + m * factor
        mass[p] = None
    return dict(sorted(out.items()))


@dataclass(frozen=True)
class Runs:
    """What ``runs`` found: for k = 1 .. most, the exact chance (independent coups) that a shoe
    holds a run of k or more, and the shoes simulated that did; the coups per shoe both ways."""

    result: str
    skip_ties: bool
    seed: int
    exact: tuple  # P(a run of k or more), k = 1 .. most
    coups: dict  # n -> P(n coups), independent coups
    shoes: int  # simulated
    hits: tuple  # shoes simulated with a run of k or more
    coups_sum: int
    coups_squares: int


def runs(deal, result: str = "banker", most: int = 20, shoes: int = 0, seed: int = 1, skip_ties: bool = False,
         tableau: Tableau = PUNTO_BANCO, progress=None) -> Runs:
    """Runs of ``result`` in a shoe dealt as ``deal`` (simulate.Deal): exact for independent coups
    for k = 1 .. ``most``, and over ``shoes`` real shoes simulated (seeded ``seed``; 0: none)."""
    skip_ties = skip_ties and result != "tie"  # a tie is the result followed: it is never skipped
    if result not in RESULTS:
        raise BaccaratError(unknown("result", result, RESULTS))
    if not 1 <= most <= MAX_RUN:
        raise BaccaratError("{most}: runs of 1 to {top} coups", names=("most",), top=MAX_RUN)
    if not 0 <= shoes <= MAX_SHOES:
        raise BaccaratError("{shoes}: 0 to {top:,} shoes", names=("shoes",), top=MAX_SHOES)
    shoe = Shoe.decks(deal.decks)
    law, burn = coup_law(shoe, tableau), burn_law(shoe, deal.burn)
    exact = []
    for k in range(1, most + 1):
        exact.append(1 - no_run_chance(law, burn, shoe.size, deal.cut, result, k, skip_ties))
        if progress:
            progress(1)
    coups = coups_law(law, burn, shoe.size, deal.cut)
    hits, total, squares = simulated(deal, tableau, result, most, shoes, seed, skip_ties, progress)
    return Runs(result, skip_ties, seed, tuple(exact), coups, shoes, tuple(hits), total, squares)


def simulated(deal, tableau, result: str, most: int, shoes: int, seed: int, skip_ties: bool, progress=None):
    """(shoes with a run of k or more for k = 1 .. most, coups dealt, sum of squares of the coups
    per shoe) over ``shoes`` real shoes, dealt CHUNK at a time."""
    from .simulate import deal_coups, shuffled_shoe

    hits = np.zeros(most, np.int64)
    total = squares = 0
    for first in range(0, shoes, CHUNK):
        count = min(CHUNK, shoes - first)
        cards = np.stack([shuffled_shoe(deal, seed, first + i) for i in range(count)])
        coups = deal_coups(deal, tableau, cards)
        winner = coup_fields(coups.kinds)["winner"]
        longest = longest_runs(winner == RESULTS[result], (winner == 0) if skip_ties and result != "tie" else None,
                               coups.shoe, count)
        hits += (longest[:, None] >= np.arange(1, most + 1)[None, :]).sum(0)
        per_shoe = np.bincount(coups.shoe, minlength=count)
        total += int(per_shoe.sum())
        squares += int((per_shoe.astype(np.int64) ** 2).sum())
        if progress:
            progress(count)
    return hits.tolist(), total, squares


def longest_runs(same: np.ndarray, skipped: np.ndarray | None, shoe: np.ndarray, shoes: int) -> np.ndarray:
    """[shoe] the longest run of coups where ``same`` holds, coups ``skipped`` neither extending nor
    breaking a run (coups in dealing order, ``shoe`` theirs)."""
    longest = np.zeros(shoes, np.int64)
    run = 0
    for i in range(len(same)):
        if i and shoe[i] != shoe[i - 1]:
            run = 0
        if same[i]:
            run += 1
            if run > longest[shoe[i]]:
                longest[shoe[i]] = run
        elif skipped is None or not skipped[i]:
            run = 0
    return longest


def wilson(hits: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion (sound near 0 and 1, where runs live).

    >>> [round(x, 4) for x in wilson(0, 100)], [round(x, 4) for x in wilson(50, 100)]
    ([0.0, 0.037], [0.4038, 0.5962])
    """
    if n == 0:
        return 0.0, 1.0
    p = hits / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_coups(coups: dict) -> Fraction:
    """The exact mean number of coups per shoe."""
    return sum((n * p for n, p in coups.items()), Fraction(0))

