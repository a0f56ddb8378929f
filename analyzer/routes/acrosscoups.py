"""Bets across coups in a batch: the EV of a bet that follows the coups after it is placed (a
streak, a count within N coups), on every shoe at once, from its per-coup line counts - exactly
(series_evs, series.geometric_ev's closed form where it applies) or as floats with a proved
error bound (series_floats).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from operator import truediv

import numpy as np

from ..bets.bet import result_of
from ..bets.series import geometric_ev, nets_by_count

if TYPE_CHECKING:
    from .compiled import RulePlan

def series_evs(plan: RulePlan, lines: np.ndarray, total: np.ndarray, only: int | None = None) -> dict:
    """bet index -> (numerators, denominators), the exact EV on each shoe of each bet across
    coups (series.py; ``only`` that bet), not in lowest terms: by the closed form of
    series.geometric_ev for all the shoes at once where it applies (geometric_terms, shared by
    the bets that follow the same coups: a pay table that differs from the first at a few counts
    adds those terms to the first's sums), else shoe by shoe by the law of its count."""
    out, shared = {}, {}
    for b, bet in enumerate(plan.rules.bets):
        if bet.series is None or only not in (None, b):
            continue
        counts, ends = (lines[:, k] for k in plan.line_columns[b])
        top, scale, nets = nets_by_count(bet)
        numerators, denominators = np.empty(len(lines), object), np.empty(len(lines), object)
        decides = counts + ends > 0
        closed = np.zeros(len(lines), bool) if bet.series.coups is not None else \
            decides & ((ends > 0) | (bet.series.most is not None))
        if closed.any():
            key = (*plan.line_columns[b], top)  # the terms of every shoe where a coup decides
            if key not in shared:
                terms, power = geometric_terms(counts[decides], ends[decides], top)
                shared[key] = terms, power, nets, np.array(nets, object) @ terms
            terms, power, first, sums = shared[key]
            differ = [k for k, (x, y) in enumerate(zip(nets, first)) if x != y]  # pay tables differ at a few counts
            if differ:
                sums = sums + np.array([nets[k] - first[k] for k in differ], object) @ terms[differ]
            mine = closed[decides]
            numerators[closed] = sums[mine]
            denominators[closed] = power[mine] * scale
        for i in np.flatnonzero(~closed):
            ev = result_of(bet, [counts[i], ends[i]], total[i]).ev
            numerators[i], denominators[i] = ev.numerator, ev.denominator
        out[b] = (numerators, denominators)
    return out


UNIT = 2.0**-53  # float64's unit roundoff


FLOAT_ROUTE_ERROR = 2.0**-30  # the largest error series_floats lets an EV's float carry; past it, exact EVs


def series_floats(plan: RulePlan, lines: np.ndarray, total: np.ndarray, b: int,
                  exact_near: np.ndarray = ()) -> tuple[np.ndarray, np.ndarray]:
    """([shoe] EV > 0, exactly; [shoe] EV as a float) of bet b, a bet across coups, on every shoe:
    where series_evs takes the closed form of series.geometric_ev, that form in float64, its sign
    proved or the shoe's EV taken exactly; elsewhere the exact EV by the count's law, as
    series_evs takes it (and series_evs' own on shoes past FAST_CARDS, for nets past 2^53, or
    where the bound below passes FLOAT_ROUTE_ERROR: a bet paying hundreds of thousands).

    With r = c / s and q = e / s (s = c + e: c the coups that count, e those that end it), the
    closed form is d EV = sum_{k<K} n_k r^k q + n_K r^K, whose weights r^k q and r^K add up to 1.
    In float64 (unit roundoff u = 2^-53; every n_k an integer below 2^53, so exact): c, e, s are
    rounded once each, r and q then carry a relative error of at most 3.01u, r^k by k products
    at most 4k * 1.01u, a term with its two more products at most (4K + 5) * 1.01u; adding the
    K + 1 terms one by one adds at most K * 1.01u times the sum of their sizes. The error of
    d EV is then below (5K + 5) * 1.02u * max |n_k| < B = (6K + 8) u max |n_k|: where the float
    is farther than B from 0 its sign is the exact sign, and elsewhere (a shoe where the bet is
    all but even) the EV is taken in integers (series.geometric_ev). The float EV, one division
    more, is within E = B / d + 2u |EV| of the EV (at most FLOAT_ROUTE_ERROR: statistics never
    see it). Where it is within E + 4u |EV| of a value of ``exact_near`` (a histogram's edges)
    the EV is taken exactly too, so that the float falls on the same side of each such value
    as the nearest float to the EV does (the edges are floats, and rounding keeps order)."""
    bet = plan.rules.bets[b]
    counts, ends = (lines[:, k] for k in plan.line_columns[b])
    top, scale, nets = nets_by_count(bet)
    largest = max(abs(n) for n in nets)
    bound = (6 * top + 8) * UNIT * largest
    if lines.dtype == object or largest >= 2**53 or (bound + 2 * UNIT * largest) / scale > FLOAT_ROUTE_ERROR:  # E, |EV| <= largest / d
        numerators, denominators = series_evs(plan, lines, total, only=b)[b]
        return numerators > 0, np.array(list(map(truediv, numerators, denominators)), np.float64)
    closed = (counts + ends > 0) & ((ends > 0) | (bet.series.most is not None)) if bet.series.coups is None else \
        np.zeros(len(lines), bool)
    c, e = counts[closed], ends[closed]
    s = (c + e).astype(np.float64)
    r, q = c.astype(np.float64) / s, e.astype(np.float64) / s
    weighted, power = np.zeros(len(c)), np.ones(len(c))
    for k in range(top):
        weighted += nets[k] * power * q
        power *= r
    weighted += nets[top] * power
    sign, floats = np.zeros(len(lines), bool), np.zeros(len(lines))
    sign[closed], floats[closed] = weighted > 0, weighted / scale
    unsure = np.abs(weighted) <= bound
    edges = np.sort(np.asarray(exact_near, np.float64))
    if len(edges):
        f = floats[closed]
        at = np.searchsorted(edges, f)
        gap = np.minimum(np.abs(f - edges[np.maximum(at - 1, 0)]), np.abs(f - edges[np.minimum(at, len(edges) - 1)]))
        unsure |= gap <= bound / scale + 6 * UNIT * np.abs(f)
    for i in np.flatnonzero(closed)[unsure]:  # the sign, or the side of an edge, not proved: the exact EV
        ev = geometric_ev(bet, int(counts[i]), int(ends[i]))
        sign[i], floats[i] = ev > 0, float(ev)
    for i in np.flatnonzero(~closed):  # no closed form (a limit of coups; nothing ends the bet): the count's law
        ev = result_of(bet, [int(counts[i]), int(ends[i])], int(total[i])).ev
        sign[i], floats[i] = ev > 0, float(ev)
    return sign, floats


def geometric_terms(counts: np.ndarray, ends: np.ndarray, top: int) -> tuple[np.ndarray, np.ndarray]:
    """(T, s^top) for the EV of series.geometric_ev on many shoes at once: T[k] = c^k e s^(top-k-1)
    for k < top and T[top] = c^top, with s = c + e, in Python integers ([k, shoe] object arrays),
    so that a bet whose nets by count are n has s^top d EV = n @ T (d its nets' denominator).
    The EV depends on c and e only through c / s, so both are first divided by their gcd (in
    int64 where they are). Equivalent to, but a few times faster than, geometric_ev shoe by shoe:
    each step is one operation on every shoe, and the bets that follow the same coups share T.

    >>> terms, power = geometric_terms(np.array([2]), np.array([4]), 2)
    >>> terms[:, 0].tolist(), power.tolist()  # c, e = 1, 2: (e s, c e, c^2) and s^2
    ([6, 2, 1], [9])
    """
    if counts.dtype != object and ends.dtype != object:
        divisor = np.maximum(np.gcd(counts, ends), 1)
        counts, ends = counts // divisor, ends // divisor
    c, e = counts.astype(object), ends.astype(object)
    s = c + e
    c_powers, e_s_powers = [np.ones(len(c), object)], [e]  # c^k, e s^k
    for _ in range(top):
        c_powers.append(c_powers[-1] * c)
        e_s_powers.append(e_s_powers[-1] * s)
    terms = np.empty((top + 1, len(c)), object)
    for k in range(top):
        terms[k] = c_powers[k] * e_s_powers[top - 1 - k]
    terms[top] = c_powers[top]
    return terms, s**top


