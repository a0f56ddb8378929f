"""Bets across coups: what a bet that follows the coups after it is placed sees, exactly, for
independent coups.

A bet across coups (Banker Streak, say) watches the coups dealt after it is placed. Each coup
either *counts* (adds one to what the bet saw: a Banker win), *ends* the bet (a Player win or a
tie), or neither (it is dealt and passes). The bet also ends when its count reaches ``most``, or
after ``coups`` coups. It then pays by the count it saw, by the first of its pay lines whose
``count`` test holds; a count no line takes loses the stake.

The model, stated wherever a figure is shown: **independent coups**, each with the shoe's exact
per-coup probabilities of counting and of ending (the coup that the known cards describe, if
any, first). Under it the count is a stopped random walk, and its law is exact:

- with no limit of coups, the coups that neither count nor end do not matter: each deciding coup
  counts with probability q = c / (c + e), so P(count = k) = q^k (1 - q) below the cap ``most``
  and P(count = most) = q^most (a geometric law; without a cap, P(count >= k) = q^k);
- with a limit of N coups, the law is the N steps of the chain on the count (at most
  MAX_COUPS steps of at most MAX_COUPS + 1 states, in integers).

Where nothing can end an unlimited bet on a shoe, its law is the limit as the chance of an end
goes to 0 (see :func:`count_law`).

In a real shoe the coups are not independent (each takes cards from the next one's shoe), and a
shoe dealt to its cut card may end before the bet settles: ``baccarat simulate`` deals real shoes
and gives that figure with its confidence interval.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from ..base.errors import BaccaratError
from ..game.layout import Needs

MAX_COUPS = 100  # coups a bet may follow: a shoe deals about 80; the chain is MAX_COUPS**2 / 2 integer steps
SHOE_ENDS = ("continues", "settles", "push")  # what a bet still open when the cut card comes out does


@dataclass(frozen=True)
class Count:
    """A pay line's test of the count a bet across coups saw: one of ``ranges`` (low, high) both
    included, high None for no upper end.

    >>> Count(((4, 6), (10, None))).holds(5), Count(((4, 6), (10, None))).holds(7)
    (True, False)
    """

    ranges: tuple

    def holds(self, k: int) -> bool:
        return any(low <= k and (high is None or k <= high) for low, high in self.ranges)

    def needs(self) -> Needs:
        return Needs()  # reads nothing of a coup: the series' own conditions do


@dataclass(frozen=True)
class Series:
    """What a bet across coups follows: ``counts`` and ``ends`` are conditions on one coup
    (a coup that counts never ends the bet); ``most`` the count at which it ends and ``coups``
    the coups after which it ends (None: no such end); ``placed_after`` the condition the coup
    before it must meet for it to be placed (None: any), or else a run of ``placed_after_run``
    coups that counted; ``shoe_end`` what a bet still open at the cut card does (in a real shoe:
    "continues" into the next shoe, "settles", paid by the count so far, or "push", the stake
    returned)."""

    counts: object
    ends: object | None = None
    most: int | None = None
    coups: int | None = None
    placed_after: object | None = None
    placed_after_run: int | None = None
    shoe_end: str = "continues"


def count_law(series: Series, first: tuple, rest: tuple, bounds: int) -> list[Fraction]:
    """P(count = k) for k = 0 .. bounds - 1, then P(count >= bounds), for independent coups
    whose (count, end, total) sequences are ``first`` for the first coup and ``rest`` for
    every later one (equal without known cards).

    Where nothing can end an unlimited bet on this shoe (no coup ends it, and no ``most``), the
    law is the limit of the laws as the chance of an end goes to 0: the count passes every bound
    if a coup can count, and stays 0 if none can.

    >>> law = count_law(Series(counts=None, most=3), (1, 1, 2), (1, 1, 2), 4)
    >>> law
    [Fraction(1, 2), Fraction(1, 4), Fraction(1, 8), Fraction(1, 8), Fraction(0, 1)]
    >>> count_law(Series(counts=None, coups=2), (1, 0, 2), (1, 0, 2), 3)
    [Fraction(1, 4), Fraction(1, 2), Fraction(1, 4), Fraction(0, 1)]
    >>> count_law(Series(counts=None), (1, 0, 2), (1, 0, 2), 2), count_law(Series(counts=None), (0, 0, 2), (0, 0, 2), 1)
    ([Fraction(0, 1), Fraction(0, 1), Fraction(1, 1)], [Fraction(1, 1), Fraction(0, 1)])
    """
    c1, e1, t1 = first
    c, e, t = rest
    if t1 == 0 or t == 0:
        raise BaccaratError("no coup can be dealt from this shoe")
    if series.coups is not None:
        return chain(series, first, rest, bounds)
    p1, q1 = Fraction(c1, t1), Fraction(e1, t1)
    stay = Fraction(c, c + e) if c + e else Fraction(0)  # a deciding coup counts (none decides: the count stays)
    later = geometric(stay, series.most, bounds)
    if (p1, q1) == (Fraction(c, t), Fraction(e, t)):
        return later
    after_count = shifted(geometric(stay, None if series.most is None else series.most - 1, bounds))
    return [(1 - p1 - q1) * a + p1 * b + q1 * (k == 0) for k, (a, b) in enumerate(zip(later, after_count))]


def geometric(stay: Fraction, most: int | None, bounds: int) -> list[Fraction]:
    """The law of the count from a fresh start when each deciding coup counts with chance
    ``stay``: P(k) = stay^k (1 - stay) below the cap ``most``, P(most) = stay^most; the last
    entry P(count >= bounds) = stay^bounds, where the cap allows it.

    >>> geometric(Fraction(1, 2), None, 2), geometric(Fraction(1, 2), 1, 3)
    ([Fraction(1, 2), Fraction(1, 4), Fraction(1, 4)], [Fraction(1, 2), Fraction(1, 2), Fraction(0, 1), Fraction(0, 1)])
    """
    law = [Fraction(0) if most is not None and k > most else stay**k if k == most else stay**k * (1 - stay)
           for k in range(bounds)]
    return law + [stay**bounds if most is None or most >= bounds else Fraction(0)]


def shifted(law: list[Fraction]) -> list[Fraction]:
    """The law of 1 + count (the last entry still the tail at the same bound)."""
    return [Fraction(0)] + law[:-2] + [law[-2] + law[-1]]


def chain(series: Series, first: tuple, rest: tuple, bounds: int) -> list[Fraction]:
    """The law of the count over at most N = ``series.coups`` coups, step by step, in integers:
    after step s, open[k] and done[k] are the numerators, over t1 t^s (t1, t the first coup's and
    the later coups' totals), of the chance that the bet is still open having counted k, or has
    ended with k; each step multiplies by the coup's counts (c, e and t - c - e), and what is
    done is carried to the final denominator t1 t^(N-1) by the powers of t still to come. A count
    reaching ``most`` (at most N) ends the bet. N^2 / 2 integer steps at most."""
    n = series.coups
    most = series.most if series.most is not None and series.most <= n else None
    open_ = [1] + [0] * n
    done = [0] * (n + 1)
    for step in range(n):
        c, e, t = first if step == 0 else rest
        stay, later = t - c - e, t ** (n - 1 - step)
        moved = [0] * (n + 1)
        for k in range(step + 1):
            chance = open_[k]
            if chance:
                done[k] += chance * e * later
                moved[k] += chance * stay
                moved[k + 1] += chance * c
        if most is not None:
            done[most] += moved[most] * later
            moved[most] = 0
        open_ = moved
    scale = first[2] * rest[2] ** (n - 1)
    law = [Fraction(d + o, scale) for d, o in zip(done, open_)]
    return [law[k] if k < len(law) else Fraction(0) for k in range(bounds)] + [sum(law[bounds:], Fraction(0))]


def bounds_of(lines) -> int:
    """A count from which every pay line's test stays the same: one past the largest end any
    range names (a range with no upper end holds for all counts past its low end)."""
    return 1 + max((x for ln in lines for low, high in ln.condition.ranges for x in (low, high) if x is not None),
                   default=0)


def geometric_ev(bet, counts: int, ends: int) -> Fraction | None:
    """The EV of a bet across coups with no limit of coups and every coup alike (no known
    cards), in integers: with s = counts + ends and K = min(most, bounds), the count is k < K
    with chance counts^k ends / s^(k+1) and K (or more) with chance counts^K / s^K, so
    s^K d EV = sum_k n_k counts^k ends s^(K-k-1) + n_K counts^K, d the common denominator of
    the lines' nets n (the stake, -d, where no line holds). None where the geometric law does
    not apply (a limit of coups; nothing ends the bet).

    >>> from analyzer.bets.rulefile import get_rules
    >>> geometric_ev(get_rules("catalog").bet("banker_streak_1"), 1, 1)
    Fraction(15, 32)
    """
    series = bet.series
    if series.coups is not None or counts + ends == 0 or (series.most is None and ends == 0):
        return None
    top, scale, net = nets_by_count(bet)
    s = counts + ends
    total, power = 0, 1  # power = counts**k
    for k in range(top):
        total = total * s + net[k] * power * ends  # Horner in s: the k-th term ends up times s^(top-k-1)
        power *= counts
    total += net[top] * power
    return Fraction(total, scale * s**top)


def line_numerators(bet, counts: int, ends: int) -> tuple[tuple[int, ...], int] | None:
    """Each pay line's chance of settling a bet across coups with no limit of coups and every
    coup alike (no known cards), as integer numerators over one denominator, in lowest terms as a
    whole; None where the geometric law does not apply (``coups``, or no coup decides). With
    s = counts + ends and B = bounds_of(lines), the count is k < B with chance
    counts^k ends s^(B-k-1) / s^B (capped at ``most``: counts^most s^(B-most) / s^B there, 0
    past it), and B or more with chance counts^B / s^B; these sum to s^B (telescoping). The
    common factor g of them all is divided out: (n / g) / (s^B / g) is the form line_probabilities'
    Fractions give over their least common denominator. Bets that settle alike by count
    (Banker Streak's four pay tables) share one answer: a cache of the last few."""
    series = bet.series
    if series.coups is not None or counts + ends == 0:
        return None
    bounds, line_of = lines_by_count(bet)
    return settled_numerators(counts, ends, series.most, bounds, line_of, len(bet.lines))


@lru_cache(maxsize=64)
def settled_numerators(counts: int, ends: int, most: int | None, bounds: int, line_of: tuple, lines: int):
    """line_numerators' answer from what it depends on: the shoe's counting and ending coups,
    the cap ``most``, and the line that settles each count up to ``bounds``."""
    decide = counts + ends
    law = [0 if most is not None and k > most else counts**k * decide ** (bounds - k) if k == most
           else counts**k * ends * decide ** (bounds - k - 1) for k in range(bounds)]
    law.append(counts**bounds if most is None or most >= bounds else 0)
    out = [0] * lines
    for k, chance in enumerate(law):
        if line_of[k] is not None:
            out[line_of[k]] += chance
    denominator = decide**bounds
    g = math.gcd(denominator, *out)
    return tuple(n // g for n in out), denominator // g


def kept_on(bet, name: str, make):
    """``make()``, kept on the bet itself (as a cached_property keeps its value) under ``name``:
    found once a bet, and looked up without hashing it (a bet's hash walks all its lines, and
    every analysis of a shoe asks these of each bet across coups)."""
    found = bet.__dict__.get(name)
    if found is None:
        found = bet.__dict__[name] = make()
    return found


def lines_by_count(bet) -> tuple[int, tuple]:
    """(B, line): B = bounds_of(lines), and line[k] the index of the pay line that settles a
    count k = 0 .. B (B: B or more), None where none does."""
    def make():
        bounds = bounds_of(bet.lines)
        return bounds, tuple(next((i for i, ln in enumerate(bet.lines) if ln.condition.holds(k)), None)
                             for k in range(bounds + 1))
    return kept_on(bet, "_lines_by_count", make)


def nets_by_count(bet) -> tuple[int, int, tuple]:
    """(K, d, n): K = min(most, bounds), d the common denominator of the bet's nets, and n[k] the
    net (times d) of the line that settles a count k = 0 .. K (-d where none does): found once a
    bet, as a batch asks it of every shoe."""
    def make():
        bound, line = lines_by_count(bet)
        top = bound if bet.series.most is None else min(bet.series.most, bound)
        scale, nets = bet.integer_nets
        return top, scale, tuple(-scale if line[k] is None else nets[line[k]] for k in range(top + 1))
    return kept_on(bet, "_nets_by_count", make)


def line_probabilities(bet, first: tuple, rest: tuple) -> list[Fraction]:
    """Each pay line's chance of settling ``bet`` (a bet across coups): the chance of the counts
    its test takes and no earlier line's does."""
    bounds, line = lines_by_count(bet)
    law = count_law(bet.series, first, rest, bounds)
    out = [Fraction(0)] * len(bet.lines)
    for k, chance in enumerate(law):
        if line[k] is not None:
            out[line[k]] += chance
    return out
