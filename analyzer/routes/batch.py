"""Many shoes at once: every bet's exact result for tens of thousands of shoes a second.

The same numbers as the enumerator (tests hold them equal on hundreds of shoes), reached by
compiling each pay line once into a polynomial in the card counts and evaluating that polynomial
for all shoes together.

Glossary
--------
value line   a pay line that depends on point values only (totals, third cards, naturals,
             margins, cards taken). Its count on the ordered 6-card basis is
             sum over multisets mu of six point values of  c[mu] * F[mu](v),
             F[mu](v) = prod_x v_x (v_x - 1) ... (v_x - mu_x + 1)  (a *falling monomial*),
             where v_x is the number of cards of value x and c[mu] <= 6! the number of orders of
             mu's six values that deal the line. 5,005 monomials; every term is >= 0.
class line   a pay line that depends only on the hand classes of the two hands' first two cards
             (pair, suited): a closed form in the 52 card counts, ``hand_class_counts``.
other line   a line that mixes the two (say "Player pair and Player wins"): the enumerator,
             shoe by shoe.

Exactness: with every term >= 0, each partial sum is at most N(N-1)...(N-5), so float64 matrix
products are exact integers while that is <= 2**53 (8 decks: 416 cards). Bigger shoes split each
monomial into 26-bit halves, two products each exact, recombined in int64 (N**6 < 2**62:
up to FAST_CARDS = 1290 cards); beyond that the enumerator with Python integers, shoe by shoe.
"""

from __future__ import annotations

import math
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from operator import truediv

import numpy as np

from . import cardcount, closedforms, suitsets
from ..bets.bet import BetResult, RuleSet, result_of
from .counts import card_line_counts, multiplied
from ..game.cards import KINDS, BaccaratError, Shoe
from ..game.engine import enumerate_coup
from .compiled import (CHUNK, DEGREE, FAST_CARDS, FLOAT_EXACT, THREADS, RulePlan, card_polynomials, compile_rules,  # noqa: F401
                       falling_monomials, hand_class_counts, one_blas_thread, plan_of, split_product)  # (the plan's doors, as before)
from .acrosscoups import series_evs, series_floats
from .basis import hand_classes_of, monomial_plan, multisets  # noqa: F401  (pure Python: the lean route shares them)

BLOCK = 2_500  # shoes per call when streaming a file: each block's arrays in memory at once
FEW_SHOES = 32  # below this, a rule set not yet compiled is evaluated by the enumerator, shoe by shoe
MAX_KIND = 10**6  # cards of one kind in a shoe, at most

SHOE_BY_SHOE_WORK = 4_000  # products of suit sets one evaluation may count (shoes x products): about 20 s on 8 decks


def suits_shoe_by_shoe(rules: RuleSet) -> list[tuple[str, int]]:
    """(bet id, products of suit sets a shoe) of the bets of ``rules`` that suitsets.SuitSets
    counts shoe by shoe (too detailed to compile, of the suits' shape, no faster closed form):
    found without compiling anything."""
    return [(bet.id, products) for bet in rules.bets
            if bet.card_level and (products := suitsets.suit_products(bet.conditions))
            and not cardcount.fits(bet.needs, rules.tableau)
            and isinstance(closedforms.one_form(bet.conditions, rules.tableau), suitsets.SuitSets)]


def check_shoe_by_shoe(plan: RulePlan, shoes: int, per_shoe: int = 1, unit: str = "shoes") -> None:
    """Refuse, before any work, to count more than SHOE_BY_SHOE_WORK products of suit sets: the
    bets too detailed to compile that the suits and colours of whole hands count (closedforms.
    SuitSets) cost each shoe a pass over the value sequences per product, about 5 ms on 8 decks.
    ``shoes`` of ``unit`` are asked, each ``per_shoe`` shoes to evaluate (a simulated shoe's coups)."""
    slow = suits_shoe_by_shoe(plan.rules)
    products = sum(p for _, p in slow)
    if products * shoes * per_shoe > SHOE_BY_SHOE_WORK:
        names = " and ".join(f"{name!r} ({p} products of suit sets a shoe)" for name, p in slow)
        most = SHOE_BY_SHOE_WORK // (products * per_shoe)
        seconds = products * shoes * per_shoe * 5 // 1000
        raise BaccaratError(f"{'bet' if len(slow) == 1 else 'bets'} {names}: too detailed to compile, counted shoe by "
                            f"shoe; {shoes:,} {unit} would take about {seconds:,} s on 8 decks: ask at most {most:,} "
                            f"{unit}, or leave {'it' if len(slow) == 1 else 'them'} out")


def shoe_counts(shoes) -> np.ndarray:
    """Shoes as an int64 array [shoe, rank, suit]: from Shoe values, 13 rank counts each (spread
    over the suits as Shoe.from_ranks does), or 13 x 4 card counts each.

    >>> shoe_counts([[5] + [0] * 12])[0, 0].tolist()
    [2, 1, 1, 1]
    """
    if isinstance(shoes, Shoe):
        shoes = [shoes]
    if len(shoes) and isinstance(shoes[0], Shoe):
        return np.array([s.counts for s in shoes], np.int64).reshape(-1, 13, 4)
    n = np.asarray(shoes)
    if n.dtype == object or n.dtype.kind not in "iu":
        raise BaccaratError("shoes must be rows of whole-number card counts: 13 by rank, or 13 x 4 by rank and suit")
    if n.size and n.min() < 0:
        raise BaccaratError(f"shoe {np.argwhere(n < 0)[0][0] + 1}: card counts must be 0 or more")
    if n.size and n.max() > MAX_KIND:
        raise BaccaratError(f"shoe {np.argwhere(n > MAX_KIND)[0][0] + 1}: more than {MAX_KIND:,} cards of one kind")
    n = n.astype(np.int64)
    if n.ndim == 2 and n.shape[1] == 13:
        return n[:, :, None] // 4 + (np.arange(4) < n[:, :, None] % 4)
    if n.ndim == 3 and n.shape[1:] == (13, 4):
        return n
    raise BaccaratError(f"shoes must be rows of 13 rank counts or 13 x 4 card counts (got shape {n.shape})")


def value_counts(n: np.ndarray) -> np.ndarray:
    """v[b, x]: cards of point value x (T, J, Q, K are 0) in each shoe [shoe, rank, suit]."""
    ranks = n.sum(2)
    return np.concatenate([ranks[:, 9:].sum(1, keepdims=True), ranks[:, :9]], 1)


def value_line_counts(plan: RulePlan, v: np.ndarray, split: bool) -> np.ndarray:
    """[shoe, value column] exact int64 counts: the basis columns by one float64 product (two on
    26-bit halves when ``split``), the others as integer combinations of them. Chunks of shoes
    run on a thread per core, each product on one BLAS thread (numpy releases the GIL)."""

    polynomials = plan.polynomials

    def basis_counts(part):
        if not split:
            return np.rint(polynomials.sequences(part)).T.astype(np.int64)
        monomials = falling_monomials(part, np.int64)
        return split_product(polynomials.basis, monomials).T

    parts = [v[start:start + CHUNK] for start in range(0, len(v), CHUNK)]
    with one_blas_thread():
        counts = on_threads(basis_counts, parts)
    out = np.concatenate(counts) if counts else np.zeros((0, polynomials.basis.shape[0]), np.int64)
    return combine(out, polynomials.value_from_basis)


def on_threads(function, items: list, worth: bool = True) -> list:
    """``[function(item) for item in items]``, on a thread per core where there are several items
    and it is ``worth`` it (numpy releases the GIL in its loops); on Ctrl-C the items not started
    are dropped, not computed."""
    if len(items) < 2 or THREADS < 2 or not worth:
        return [function(item) for item in items]
    pool = ThreadPoolExecutor(THREADS)
    try:
        return list(pool.map(function, items))
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def combine(basis_counts: np.ndarray, m: np.ndarray) -> np.ndarray:
    """basis_counts @ m in exact integers, column by column over m's few nonzero entries.
    Every result is a count (< 2**62); a partial sum may not be, so those go through Python ints."""
    out = np.empty((len(basis_counts), m.shape[1]), np.int64)
    for k in range(m.shape[1]):
        (rows,) = np.nonzero(m[:, k])
        if len(rows) == 1 and m[rows[0], k] == 1:
            out[:, k] = basis_counts[:, rows[0]]
        elif int(np.abs(m[:, k]).sum()) * int(basis_counts.max(initial=0)) < 2**63:
            out[:, k] = basis_counts[:, rows] @ m[rows, k]
        else:
            out[:, k] = (basis_counts[:, rows].astype(object) @ m[rows, k].astype(object)).astype(np.int64)
    return out


def falling6(size: np.ndarray) -> np.ndarray:
    """N(N-1)...(N-5) for each shoe size: int64 where every size fits, else Python integers."""
    if (size <= FAST_CARDS).all():
        size = size.astype(np.int64)
        return size * (size - 1) * (size - 2) * (size - 3) * (size - 4) * (size - 5)
    return np.array([int(np.prod([int(s) - i for i in range(DEGREE)], dtype=object)) for s in size], object)


@dataclass(frozen=True, eq=False)
class Batch:
    """Every bet's exact result on each of many shoes. ``lines[i, k]`` is the number of ordered
    6-card sequences of shoe i that settle the line in column k; ``numerators[i, b]`` is
    scale[b] * EV * total[i] for bet b, an exact integer (int64 or Python int); for a bet across
    coups (whose EV is no linear function of its columns) ``series[b]`` holds its EV on each
    shoe instead, as (numerators, denominators): Python integers, not in lowest terms (a
    Fraction reduces them where one is asked for: ``ev``, ``ev_terms``), worked out when first
    asked for: the signs and floats of those EVs (``positive``, ``ev_floats``: a simulation's
    questions) have a faster route of their own (series_estimates)."""

    plan: RulePlan
    counts: np.ndarray  # [shoe, rank, suit]
    total: np.ndarray  # N(N-1)...(N-5) per shoe: int64, or Python integers beyond FAST_CARDS
    lines: np.ndarray
    numerators: np.ndarray

    @cached_property
    def series(self) -> dict:
        """bet index -> ([shoe] numerators, [shoe] denominators) of each bet across coups (series_evs),
        and of each bet with a fee or multipliers (:attr:`overlaid`)."""
        return series_evs(self.plan, self.lines, self.total) | self.overlaid

    @cached_property
    def overlaid(self) -> dict:
        """bet index -> ([shoe] numerators, [shoe] denominators) of each bet with a fee or
        multipliers: its lines' counts less the fee, its multiplied lines by their patterns
        (counts.multiplied), shoe by shoe."""
        out = {}
        for b, bet in enumerate(self.bets):
            if not bet.overlaid:
                continue
            evs = [self.results_of(i, b).ev for i in range(len(self))]
            out[b] = (np.array([x.numerator for x in evs], object), np.array([x.denominator for x in evs], object))
        return out

    def results_of(self, i: int, b: int) -> BetResult:
        """Bet b's BetResult on shoe i."""
        bet, columns = self.bets[b], self.plan.line_columns[b]
        result = result_of(bet, [int(self.lines[i, k]) for k in columns], int(self.total[i]))
        if bet.multipliers is not None:
            shoe = Shoe(tuple(map(tuple, self.counts[i].tolist())))
            result = multiplied(bet, result.sequences, result.total, shoe, self.plan.rules.tableau)
        return result

    def series_estimates(self, exact_near=()) -> dict:
        """bet index -> ([shoe] EV > 0, [shoe] EV as a float) of each bet across coups: from the
        exact EVs where they are worked out (the nearest floats), else by series_floats (exact
        signs; floats within FLOAT_ROUTE_ERROR, on the same side as the nearest float of every
        value of ``exact_near``)."""
        if "series" in self.__dict__:
            return {b: signs_and_quotients(*terms) for b, terms in self.series.items()}
        return {b: series_floats(self.plan, self.lines, self.total, b, exact_near)
                for b, bet in enumerate(self.bets) if bet.series is not None} | {
            b: signs_and_quotients(*terms) for b, terms in self.overlaid.items()}

    def __len__(self):
        return len(self.counts)

    @property
    def bets(self):
        return self.plan.rules.bets

    def ev(self, i: int, b: int) -> Fraction:
        """The exact EV of bet b on shoe i."""
        if b in self.series:
            numerators, denominators = self.series[b]
            return Fraction(int(numerators[i]), int(denominators[i]))
        return Fraction(int(self.numerators[i, b]), int(self.plan.scale[b]) * int(self.total[i]))

    def ev_terms(self, shoes: slice = slice(None)) -> tuple[np.ndarray, np.ndarray]:
        """[shoe, bet] numerators and denominators of every EV in lowest terms (denominators
        positive) for ``shoes``: by numpy's gcd in int64 where the denominators fit, else in
        Python integers; the bets across coups (``series``) always in Python integers."""
        scale, total, numerators = self.plan.scale, self.total[shoes], self.numerators[shoes]
        gcd = np.frompyfunc(math.gcd, 2, 1)
        if int(scale.max(initial=1)) * int(total.max(initial=1)) < 2**63 and numerators.dtype != object:
            denominators = scale.astype(np.int64)[None, :] * total.astype(np.int64)[:, None]
            divisor = np.gcd(numerators, denominators)
            numerators, denominators = numerators // divisor, denominators // divisor
            if not self.series:
                return numerators, denominators
            numerators, denominators = numerators.astype(object), denominators.astype(object)  # for the series' own
        else:
            denominators = scale[None, :] * total.astype(object)[:, None]
            divisor = gcd(numerators.astype(object), denominators)
            numerators, denominators = numerators.astype(object) // divisor, denominators // divisor
        for b, (top, bottom) in self.series.items():  # bets across coups: their EV in Python integers
            divisor = gcd(top[shoes], bottom[shoes])
            numerators[:, b], denominators[:, b] = top[shoes] // divisor, bottom[shoes] // divisor
        return numerators, denominators

    def evs(self, i: int) -> dict:
        """bet id -> exact EV on shoe i."""
        return {bet.id: self.ev(i, b) for b, bet in enumerate(self.bets)}

    def results(self, i: int) -> list[BetResult]:
        """Shoe i's BetResults, exactly those of analysis.analyse on the same shoe."""
        total, lines = int(self.total[i]), self.lines[i].tolist()
        return [self.results_of(i, b) if bet.multipliers is not None else result_of(bet, [lines[k] for k in columns], total)
                for b, (bet, columns) in enumerate(zip(self.bets, self.plan.line_columns))]

    def positive(self) -> np.ndarray:
        """[shoe, bet]: the bet has positive expectation (exact integer sign)."""
        return self.signs_and_floats()[0]

    def ev_floats(self, exact_near=()) -> np.ndarray:
        """[shoe, bet] EVs as floats, for statistics and charts (each the nearest float to the
        exact EV, up to one rounding of numerator and denominator; a bet across coups, unless
        its exact EVs are worked out, within FLOAT_ROUTE_ERROR of it, and on the same side as
        the nearest float of each value of ``exact_near``, a histogram's edges: series_floats)."""
        return self.signs_and_floats(exact_near)[1]

    def signs_and_floats(self, exact_near=()) -> tuple[np.ndarray, np.ndarray]:
        """(positive(), ev_floats(exact_near)) at once: the bets across coups worked out once
        for both (a simulation asks both of every batch)."""
        signs = self.numerators > 0
        floats = self.numerators.astype(np.float64) / (self.plan.scale.astype(np.float64)[None, :]
                                                       * self.total.astype(np.float64)[:, None])
        for b, (sign, estimate) in self.series_estimates(exact_near).items():
            signs[:, b], floats[:, b] = sign, estimate
        return signs, floats


def signs_and_quotients(numerators: np.ndarray, denominators: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(EV > 0, the EV as the nearest float) of exact EVs given as numerators over positive
    denominators (Python integers)."""
    return numerators > 0, np.array(list(map(truediv, numerators, denominators)), np.float64)


def evaluate_many(rules: RuleSet, shoes, progress=None) -> Batch:
    """Every bet of ``rules`` on every shoe (see shoe_counts for the accepted forms), exactly:
    by the rule set's polynomials when they are built or there are FEW_SHOES shoes or more (the
    polynomials take about 0.1 s to build, the enumerator a few milliseconds a shoe).
    ``progress(n)``, if given, is told of every n shoes done."""
    plan = plan_of(rules)
    n = shoe_counts(shoes)
    check_shoe_by_shoe(plan, len(n))
    if not len(n):
        empty = np.zeros((0, plan.weights.shape[0]), np.int64)
        return Batch(plan, n.reshape(0, 13, 4), np.zeros(0, np.int64), empty, np.zeros((0, len(plan.scale)), np.int64))
    size = n.sum((1, 2))
    small = np.flatnonzero(size < DEGREE)
    if len(small):
        raise BaccaratError(f"shoe {small[0] + 1}: a shoe needs at least 6 cards to deal a coup (it has {size[small[0]]})")
    total = falling6(size)
    columns = plan.weights.shape[0]
    n_value, n_class = plan.value_columns, len(plan.class_sets)
    fits = size <= FAST_CARDS
    lines = np.zeros((len(n), columns), np.int64 if fits.all() else object)
    by_polynomial = fits & (plan.compiled or len(n) >= FEW_SHOES)
    fast = np.flatnonzero(by_polynomial)
    if len(fast):
        split = int(total[fast].max()) > FLOAT_EXACT
        if n_value:
            lines[fast, :n_value] = value_line_counts(plan, value_counts(n[fast]), split)
        for start in range(0, len(fast) if n_class else 0, 4 * CHUNK):  # in parts: a dozen arrays per shoe
            part = fast[start:start + 4 * CHUNK]
            classes = hand_class_counts(n[part]).reshape(len(part), 16)
            lines[part, n_value:n_value + n_class] = classes @ plan.class_sets.T.astype(np.int64)
    other = plan.column_cells[n_value + n_class:]  # lines mixing values and hand classes
    cells_end = len(plan.column_cells)
    walked = card_columns(plan, n, lines, fits)  # card-level bets by their polynomials, all shoes at once
    one_by_one = np.arange(len(n)) if other or walked else np.flatnonzero(~by_polynomial)
    if progress and len(n) > len(one_by_one):
        progress(len(n) - len(one_by_one))
    for i in one_by_one:
        shoe = Shoe(tuple(map(tuple, n[i].tolist())))
        if other or not by_polynomial[i]:
            dist = enumerate_coup(shoe, rules.tableau)
            start = n_value + n_class if by_polynomial[i] else 0
            lines[i, start:cells_end] = [dist.count(s) for s in plan.column_cells[start:]]
        for b, columns in walked:
            lines[i, list(columns)] = card_line_counts(rules.bets[b], shoe, rules.tableau)
        if progress:
            progress(1)
    numerators = numerators_of(plan, lines, total)
    return Batch(plan, n, total, lines, numerators)


def card_columns(plan: RulePlan, n: np.ndarray, lines: np.ndarray, in_int64: np.ndarray) -> list:
    """Fill the columns of the card-level bets whose lines compile (cardcount.py), for every shoe:
    one evaluation of each compiled polynomial for all the shoes of at most FAST_CARDS cards,
    shoe by shoe in Python integers beyond. Returns the (bet, columns) left to count shoe by shoe."""
    walked, distinct = [], {}
    small, large = np.flatnonzero(in_int64), np.flatnonzero(~in_int64)  # shoes of at most FAST_CARDS cards, and beyond
    flat = n.reshape(len(n), KINDS)
    for (b, columns), found in zip(plan.card_bets, card_polynomials(plan)):
        if found is None:
            walked.append((b, columns))
        else:
            distinct.setdefault(id(found[0]), found[0])

    def evaluated(polynomials):
        counts = np.zeros((len(n), polynomials.lines), lines.dtype)
        if len(small):
            counts[small] = polynomials.many(flat[small])
        for i in large:
            counts[i] = polynomials.counts(flat[i])
        return counts

    with one_blas_thread():  # the compilations on a thread per core
        done = dict(zip(distinct, on_threads(evaluated, list(distinct.values()), len(small) >= FEW_SHOES)))
    for (b, columns), found in zip(plan.card_bets, card_polynomials(plan)):
        if found is not None:
            polynomials, start, width = found
            lines[:, list(columns)] = done[id(polynomials)][:, start:start + width]
    return walked


def numerators_of(plan: RulePlan, lines: np.ndarray, total: np.ndarray) -> np.ndarray:
    """scale * EV * total for every shoe and bet: sum of weights * counts, less scale * total.
    int64 where a bound proves every partial sum below 2**63, Python integers otherwise. The
    bound: max(weight) * total; or, where that is too coarse (a line paying 6,000 to 1), the sum
    of |weight| * count + scale * total itself, in float64: its relative error is below 2**-40
    with a few hundred terms, so a value below 2**62 proves the true sum, and with it every
    partial sum, below 2**63."""
    big = int(max(plan.weights.max(), plan.scale.max())) * int(total.max()) >= 2**63
    if big and lines.dtype != object and len(lines):
        weights = plan.__dict__.get("_abs_weights")
        if weights is None:  # converted once a plan (a simulation evaluates it chunk after chunk)
            weights = plan.__dict__["_abs_weights"] = np.abs(plan.weights.astype(np.float64))
        bound = lines.astype(np.float64) @ weights + total.astype(np.float64)[:, None] * plan.scale.astype(np.float64)[None, :]
        big = not bound.max() < 2.0**62
    kind = object if big else np.int64
    total, weights, scale = total.astype(kind), plan.weights.astype(kind), plan.scale.astype(kind)
    numerators = np.empty((len(lines), len(plan.scale)), kind)
    for b, columns in enumerate(plan.line_columns):
        numerator = -total * scale[b]
        for k in set(columns):
            numerator = numerator + lines[:, k].astype(kind) * weights[k, b]
        numerators[:, b] = numerator
    return numerators


