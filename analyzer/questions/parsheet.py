"""What a par sheet shows of a bet beyond its house edge: its return table, and how far a
session's result strays from the expectation.

Glossary
--------
return table  one row per pay line - event, net pays (units won per unit staked, commission
              paid), combinations (ordered 6-card sequences that settle the bet on that line),
              probability, return = pays x probability - then the losing row; the combinations
              sum exactly to the total and the returns to the bet's EV.
session       N hands of one unit each, independent (each coup from the same shoe state, as a
              par sheet assumes); its result is the sum of N single results.
range         the player's result after N hands that holds with a confidence: by the normal
              approximation, mean N EV +- z SD sqrt(N); where the result is too skewed for it
              (long shots over few hands), by the exact distribution of the sum.
hold          what the house keeps per 100 units wagered: 100 x the house edge.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from statistics import NormalDist

import numpy as np

from ..base.numbers import decimal
from ..bets.bet import BetResult
from ..bets.overlay import pattern_words

LEVELS = (Fraction(90, 100), Fraction(95, 100), Fraction(99, 100))  # confidence levels of the ranges
HANDS = (100, 1_000, 10_000, 100_000, 1_000_000)  # session lengths of the ranges
VI_LEVEL = Fraction(90, 100)  # the volatility index is z(90%) x SD, as slot par sheets state it
SKEW_LIMIT = 0.1  # the normal approximation is called poor where a session's result is more skewed than this
EXACT_BUDGET = 40_000_000  # array cells the exact distribution of one session may take (about 0.3 s)
LOSES = "loses"


@dataclass(frozen=True)
class ReturnRow:
    event: str
    pays: object  # net units won per unit staked (Fraction; -1 for the losing row; symbolic where a payout is)
    combinations: int | None  # None for a bet across coups: its chances are not counts of one coup's cards
    probability: Fraction

    @property
    def ret(self):
        """The row's share of the EV: pays x probability."""
        return self.pays * self.probability


def return_table(result: BetResult) -> list[ReturnRow]:
    """The bet's pay lines, then the losing row (what no line settles).

    >>> from analyzer.bets.bet import RuleSet
    >>> from analyzer.routes.counts import evaluate
    >>> from analyzer.bets.rulefile import get_rules
    >>> from analyzer.game.cards import Shoe
    >>> from analyzer.game.engine import enumerate_coup
    >>> banker = get_rules("standard").bet("banker")
    >>> rows = return_table(evaluate(banker, enumerate_coup(Shoe.decks(8))))
    >>> [(r.event, str(r.pays), r.combinations) for r in rows]
    [('Banker wins', '19/20', 2292252566437888), ('tie', '0', 475627426473216), ('loses', '-1', 2230518282592256)]
    >>> sum(r.ret for r in rows) == evaluate(banker, enumerate_coup(Shoe.decks(8))).ev
    True
    """
    bet = result.bet
    if bet.overlaid:
        return overlaid_table(result)
    counted = bet.series is None
    rows = [ReturnRow(ln.label, bet.net(ln), c if counted else None, p)
            for ln, c, p in zip(bet.lines, result.sequences, result.line_probabilities)]
    lost = result.total - sum(result.sequences)
    return rows + [ReturnRow(LOSES, Fraction(-1), lost if counted else None, Fraction(lost, result.total))]


def overlaid_table(result: BetResult) -> list[ReturnRow]:
    """A bet with a fee or multipliers: each row's pays less the fee (paid whatever the result), a
    multiplied line a row per pattern of its counted cards at its average multiplier (the
    counts are of card sequences; the multipliers are averaged within the row)."""
    bet, fee, total = result.bet, result.bet.fee, result.total
    patterns = getattr(result, "patterns", ())
    multiplied = set(bet.multipliers.multiplied(bet)) if bet.multipliers is not None else set()
    rows = []
    for i, (ln, c) in enumerate(zip(bet.lines, result.sequences)):
        if i not in multiplied:
            rows.append(ReturnRow(ln.label, bet.net(ln) - fee, c, Fraction(c, total)))
            continue
        for j, pattern, count in patterns:
            if j == i:
                mean = bet.multipliers.mean(pattern)
                words = f" · {pattern_words(pattern)}" if pattern else " · spot"
                rows.append(ReturnRow(f"{ln.label}{words} (×{decimal(mean, 4)})", bet.net(ln) * mean - fee,
                                      count if isinstance(count, int) else None, Fraction(count) / total))
    lost = total - sum(result.sequences)
    return rows + [ReturnRow(LOSES, Fraction(-1) - fee, lost, Fraction(lost, total))]


# Volatility ---------------------------------------------------------------------------------


def z(level: Fraction) -> float:
    """The two-sided normal quantile of a confidence level.

    >>> round(z(Fraction(95, 100)), 4), round(z(Fraction(90, 100)), 4)
    (1.96, 1.6449)
    """
    return NormalDist().inv_cdf(float((1 + level) / 2))


def moments(result: BetResult) -> tuple[Fraction, Fraction, Fraction]:
    """(mean, variance, third central moment) of one hand's result, exact.

    >>> from analyzer.bets.bet import Bet, line
    >>> from analyzer.routes.counts import evaluate
    >>> from analyzer.game.cards import Shoe
    >>> from analyzer.game.engine import enumerate_coup
    >>> coin = Bet("tie", "Tie", (line(8, "Tie", winner="tie"),))
    >>> mean, var, third = moments(evaluate(coin, enumerate_coup(Shoe.decks(8))))
    >>> mean == evaluate(coin, enumerate_coup(Shoe.decks(8))).ev
    True
    """
    if getattr(result, "patterns", None) is not None:
        return multiplied_moments(result)
    rows = return_table(result)
    mean = sum((r.probability * r.pays for r in rows), Fraction(0))
    var = sum((r.probability * (r.pays - mean) ** 2 for r in rows), Fraction(0))
    third = sum((r.probability * (r.pays - mean) ** 3 for r in rows), Fraction(0))
    return mean, var, third


def multiplied_moments(result: BetResult) -> tuple[Fraction, Fraction, Fraction]:
    """:func:`moments` of a multiplied bet: E[X**j] of X = net M on a multiplied line (E[M**j] by
    its pattern, overlay.Multipliers.mean), net elsewhere, -1 lost; the fee shifts the mean alone."""
    bet, total, table = result.bet, result.total, result.bet.multipliers
    multiplied = set(table.multiplied(bet))
    raw = [Fraction(0)] * 4
    for i, (ln, c) in enumerate(zip(bet.lines, result.sequences)):
        if i not in multiplied:
            for j in range(4):
                raw[j] += Fraction(c, total) * Fraction(bet.net(ln)) ** j
    for i, pattern, count in result.patterns:
        p, net = Fraction(count) / total, Fraction(bet.net(bet.lines[i]))
        for j in range(4):
            raw[j] += p * net**j * table.mean(pattern, j) if j else p
    lost = Fraction(total - sum(result.sequences), total)
    for j in range(4):
        raw[j] += lost * (-1) ** j
    m1 = raw[1]
    var = raw[2] - m1 * m1
    third = raw[3] - 3 * m1 * raw[2] + 2 * m1**3
    return m1 - bet.fee, var, third


def skewness(result: BetResult) -> float:
    """The skewness of one hand's result (third central moment over SD cubed); a session of N
    hands has skewness / sqrt(N)."""
    _, var, third = moments(result)
    return float(third) / float(var) ** 1.5 if var else 0.0


@dataclass(frozen=True)
class Range:
    """The player's result after ``hands`` hands that holds with confidence ``level``."""

    hands: int
    level: Fraction
    low: float | Fraction
    high: float | Fraction
    method: str  # "normal" | "exact" | "normal, poor"
    coverage: float | None = None  # exact: the probability the range holds (at least ``level``, to 1e-12)


@dataclass(frozen=True)
class Volatility:
    """A bet's spread: SD and skewness per hand, the volatility index, the hold per 100 units
    wagered, and the ranges after each number of hands."""

    ev: Fraction
    variance: Fraction
    skewness: float
    ranges: tuple[Range, ...]

    @property
    def sd(self) -> float:
        return math.sqrt(self.variance)

    @property
    def volatility_index(self) -> float:
        return z(VI_LEVEL) * self.sd

    @property
    def hold_per_100(self) -> Fraction:
        return -100 * self.ev

    def hands_for_normal(self) -> int:
        """The fewest hands from which the normal approximation is taken as good (skewness of
        the session's result at most SKEW_LIMIT)."""
        return max(1, math.ceil((self.skewness / SKEW_LIMIT) ** 2))


def volatility(result: BetResult, hands=HANDS, levels=LEVELS, budget: int = EXACT_BUDGET) -> Volatility:
    """A bet's volatility and ranges: normal where a session is nearly symmetric, else exact
    where the exact distribution is within ``budget``, else normal marked poor."""
    mean, var, _ = moments(result)
    skew = skewness(result)
    ranges = []
    for n in hands:
        exact = None
        if abs(skew) / math.sqrt(n) > SKEW_LIMIT and exact_cost(result, n) <= budget:
            exact = session_distribution(result, n)
        for level in levels:
            if exact is not None:
                ranges.append(exact_range(exact, n, level))
            else:
                poor = abs(skew) / math.sqrt(n) > SKEW_LIMIT
                ranges.append(normal_range(mean, var, n, level, "normal, poor" if poor else "normal"))
    return Volatility(mean, var, skew, tuple(ranges))


def normal_range(mean: Fraction, var: Fraction, n: int, level: Fraction, method: str = "normal") -> Range:
    """mean n +- z sqrt(var n): the normal approximation.

    >>> r = normal_range(Fraction(0), Fraction(1), 100, Fraction(95, 100))
    >>> round(r.low, 3), round(r.high, 3)
    (-19.6, 19.6)
    """
    centre, half = float(mean * n), z(level) * math.sqrt(var * n)
    return Range(n, level, centre - half, centre + half, method)


# The exact distribution of a session ---------------------------------------------------------


def outcomes(result: BetResult) -> tuple[int, list[int], list[Fraction]]:
    """(scale, values, probabilities): one hand's results as integers over a common ``scale``,
    with their exact probabilities (lines paying the same merged)."""
    merged: dict[Fraction, Fraction] = {}
    for row in return_table(result):
        if row.probability:
            merged[row.pays] = merged.get(row.pays, Fraction(0)) + row.probability
    scale = math.lcm(*(x.denominator for x in merged))
    return scale, [int(x * scale) for x in merged], list(merged.values())


def exact_cost(result: BetResult, n: int) -> int:
    """Array cells the session distribution takes to build: n steps over a support growing to
    n x (highest - lowest) + 1, once per outcome."""
    if not result.bet.numeric or result.bet.multipliers is not None:  # a multiplied win has many values
        return math.inf
    scale, values, _ = outcomes(result)
    return n * (n * (max(values) - min(values)) + 1) * len(values) // 2


@dataclass(frozen=True)
class SessionDistribution:
    """The distribution of a session's result: P(result = (low + i) / scale) = p[i], each p[i]
    within a relative ``error`` of the exact probability (proved in session_distribution)."""

    scale: int
    low: int
    p: object  # numpy float64 array
    error: float


def session_distribution(result: BetResult, n: int) -> SessionDistribution:
    """The distribution of the sum of ``n`` hands, by n convolutions with one hand's outcomes.

    float64, with a proved bound: every term is non-negative (no cancellation), so each
    multiplication or addition adds at most one rounding, a relative 2**-53, to a number that
    is a sum of non-negative products. One hand's probabilities start within 2**-53; each of the
    n steps adds at most 2k roundings (a product and a sum per outcome, k outcomes); a tail sum
    of S terms adds S - 1 more. So
    every probability and every tail sum is within (1 + 2**-53)**(n (2k + 1) + S) - 1 of the
    exact value, relatively (underflow aside: it loses at most S x 2**-1074 in all, far below any level).
    """
    scale, values, probs = outcomes(result)
    lo = min(values)
    shifts = [v - lo for v in values]
    q = np.array([float(p) for p in probs])
    span = max(shifts)
    dist = np.ones(1)
    for _ in range(n):
        new = np.zeros(len(dist) + span)
        for shift, weight in zip(shifts, q):
            new[shift:shift + len(dist)] += weight * dist
        dist = new
    steps = n * (2 * len(values) + 1) + len(dist)
    return SessionDistribution(scale, n * lo, dist, math.expm1(steps * math.log1p(2.0**-53)))


def exact_range(d: SessionDistribution, n: int, level: Fraction) -> Range:
    """The central range of the exact distribution: the highest low end with P(result < low) at
    most (1 - level) / 2 and the lowest high end with P(result > high) at most as much, each
    decided with the computed tail inflated by its error bound (so the range holds with at
    least ``level``, whatever the rounding)."""
    tail = float(1 - level) / 2
    below = np.concatenate([[0.0], np.cumsum(d.p)[:-1]]) * (1 + d.error)  # P(result < value i), over-estimated
    above = np.concatenate([np.cumsum(d.p[::-1])[::-1][1:], [0.0]]) * (1 + d.error)  # P(result > value i)
    i = int(np.flatnonzero(below <= tail).max())
    j = int(np.flatnonzero(above <= tail).min())
    coverage = float(np.sum(d.p[i:j + 1]))
    return Range(n, level, Fraction(d.low + i, d.scale), Fraction(d.low + j, d.scale), "exact", coverage)
