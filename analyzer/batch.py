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

import os
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import combinations_with_replacement
from math import lcm

import numpy as np

from .bets import BetResult, RuleSet, card_line_counts, settled_cells
from .cards import RANKS, BaccaratError, Shoe
from .engine import cells, enumerate_coup
from .layout import draws
from .tableau import STOOD, Tableau

DEGREE = 6  # cards on the counting basis
FLOAT_EXACT = 2**53  # float64 holds every integer up to here
FAST_CARDS = 1290  # the largest N with N**6 < 2**62: monomials and class counts fit int64
SPLIT = 26  # bits in the low half of a split monomial
CHUNK = 512  # shoes per matrix product (keeps the monomials in cache)
BLOCK = 20_000  # shoes per call when streaming a file
MAX_KIND = 10**6  # cards of one kind in a shoe, at most
THREADS = os.cpu_count() or 1  # threads for the matrix products (a worker process of simulate: 1)
GRID = (10, 10, 11, 11)  # value cells: two-card totals, Player third, Banker third (10 = none)


def multisets(k: int = DEGREE) -> list[tuple[int, ...]]:
    """The multisets of k point values, as sorted tuples, in the order of the monomial columns:
    by largest value, then by how many times it occurs (see monomial_plan).

    >>> len(multisets()), multisets(2)[:4]
    (5005, [(0, 0), (0, 1), (1, 1), (0, 2)])
    """
    return monomial_plan(k)[1]


@lru_cache(maxsize=DEGREE + 1)
def monomial_plan(k: int = DEGREE):
    """How to build the falling monomials of degree 1..k, and the multisets of degree k.

    A multiset of degree d is one of degree d-1 with a value x added that is at least its largest;
    its monomial is the parent's times (v_x - c), c the copies of x already in the parent. With
    each level ordered by (largest value, its copies), the parents for a given (x, c) are one
    contiguous block of rows, so a level is a few dozen slice-times-row products: returns, per
    level, [(factor row x*7 + c, first parent row, end parent row)]."""
    level, steps = [()], []
    for _ in range(k):
        blocks, new = [], []
        top = [(m[-1], m.count(m[-1])) if m else (-1, 0) for m in level]
        for x in range(10):
            for c in range(DEGREE):
                rows = [i for i, t in enumerate(top) if (t[0] < x and c == 0) or t == (x, c)]
                if rows:
                    assert rows == list(range(rows[0], rows[-1] + 1))
                    blocks.append((x * 7 + c, rows[0], rows[-1] + 1))
                    new += [level[i] + (x,) for i in rows]
        level = new
        steps.append(blocks)
    return steps, level


def falling_monomials(v: np.ndarray, dtype=np.float64) -> np.ndarray:
    """F[mu, b] for the value counts v[b, 0..9] of each shoe b: exact (see the module notes).

    >>> F = falling_monomials(np.array([[128] + [32] * 9]), np.int64)
    >>> int(F[0, 0]) == 128 * 127 * 126 * 125 * 124 * 123, int(F[-1, 0]) == 32 * 31 * 30 * 29 * 28 * 27
    (True, True)
    """
    v = np.asarray(v).T.astype(dtype)  # [x, b]
    factors = (v[:, None, :] - np.arange(7, dtype=dtype)[None, :, None]).reshape(70, -1)
    monomials = np.ones((1, v.shape[1]), dtype)
    for blocks in monomial_plan()[0]:
        new = np.empty((sum(end - start for _, start, end in blocks), v.shape[1]), dtype)
        row = 0
        for factor, start, end in blocks:
            np.multiply(monomials[start:end], factors[factor], out=new[row:row + end - start])
            row += end - start
        monomials = new
    return monomials


@lru_cache(maxsize=8)
def value_terms(tableau: Tableau):
    """The polynomial of every value cell, sparse: (cell, monomial, c) triples, where cell indexes
    GRID and c counts the orders of six values that deal that cell. Found by dealing all 10**6
    ordered value sequences (Player, Banker, Player, Banker, then third cards) once."""
    p1, b1, p2, b2, x5, x6 = np.indices((10,) * DEGREE).reshape(DEGREE, -1)
    pt, bt = (p1 + p2) % 10, (b1 + b2) % 10
    player_draws, banker_draws = draws(tableau, pt, bt, x5)
    p3 = np.where(player_draws, x5, STOOD)
    b3 = np.where(banker_draws, np.where(player_draws, x6, x5), 10)
    cell = np.ravel_multi_index((pt, bt, p3, b3), GRID)
    sequences = np.stack([p1, b1, p2, b2, x5, x6])
    code = np.sort(sequences, axis=0)
    code = (code * (10 ** np.arange(DEGREE))[:, None]).sum(0)
    column = np.full(10**DEGREE, -1)
    column[[sum(x * 10**i for i, x in enumerate(m)) for m in multisets()]] = range(len(multisets()))
    key, c = np.unique(cell * 10_000 + column[code], return_counts=True)
    return key // 10_000, key % 10_000, c


HAND_EQUIVALENCES = ("any", "rank", "suit", "card")  # two cards 'match' under each
MEET = np.array([[0, 1, 2, 3], [1, 1, 3, 3], [2, 3, 2, 3], [3, 3, 3, 3]])  # both matches at once
# A hand class (plain, suited, pair, suited pair: engine.HAND_CLASSES) by inclusion-exclusion
# over the matches: plain = any - rank - suit + card, suited = suit - card, pair = rank - card.
CLASS_OF_MATCHES = np.array([[1, -1, -1, 1], [0, 0, 1, -1], [0, 1, 0, -1], [0, 0, 0, 1]])


def hand_class_counts(n: np.ndarray) -> np.ndarray:
    """H[b, cp, cb]: ordered 6-card sequences from shoe b (n[b, rank, suit]) whose Player and
    Banker first two cards are of hand classes cp and cb.

    Closed form: call two cards X-matched when they are equal under X (any, rank, suit, card)
    and g_X(c) the number of *other* cards matching card c. Then Q_X = sum_c n_c g_X(c) ordered
    X-matched pairs, and removing the Player's pair changes each group's f(m) = m(m-1) by
    -2k(m-1) + k(k-1), so the ordered 4-card counts are
    J[X, Y] = Q_X Q_Y - 4 sum_c n_c g_X(c) g_Y(c) + 2 Q_{X and Y}.

    >>> int(hand_class_counts(np.array([Shoe.decks(1).counts]))[0, 3, 3])  # suited pair twice
    0
    """
    n = np.asarray(n, dtype=np.int64)
    rank, suit = n.sum(2), n.sum(1)
    size = rank.sum(1)
    g = [size - 1, rank - 1, suit - 1, n - 1]  # g_X by rank (rank), suit (suit) or card (n)
    q = np.stack([size * g[0], (rank * g[1]).sum(1), (suit * g[2]).sum(1), (n * g[3]).sum((1, 2))], 1)
    t = np.empty((len(n), 4, 4), np.int64)  # sum_c n_c g_X(c) g_Y(c)
    t[:, 0, :] = t[:, :, 0] = g[0][:, None] * q
    t[:, 1, 1] = (rank * g[1] ** 2).sum(1)
    t[:, 2, 2] = (suit * g[2] ** 2).sum(1)
    t[:, 3, 3] = (n * g[3] ** 2).sum((1, 2))
    t[:, 1, 2] = t[:, 2, 1] = np.einsum("br,brs,bs->b", g[1], n, g[2])
    t[:, 1, 3] = t[:, 3, 1] = (g[1] * (n * g[3]).sum(2)).sum(1)
    t[:, 2, 3] = t[:, 3, 2] = (g[2] * (n * g[3]).sum(1)).sum(1)
    j = q[:, :, None] * q[:, None, :] - 4 * t + 2 * q[:, MEET]
    left = size - 4
    return np.einsum("px,bxy,qy->bpq", CLASS_OF_MATCHES, j, CLASS_OF_MATCHES) * (left * (left - 1))[:, None, None]


@dataclass(frozen=True, eq=False)
class Plan:
    """Every pay line of a rule set compiled once: the distinct lines as columns of four kinds
    (value, class, other, then the lines of card-level bets), and each bet as integer weights on
    those columns."""

    rules: RuleSet
    basis_polynomials: np.ndarray  # [basis column, monomial]: c, float64 (exact integers)
    value_from_basis: np.ndarray  # [basis column, value column]: integer combinations, int64
    class_sets: np.ndarray  # [class column, cp * 4 + cb]: the line holds for that hand-class pair
    column_cells: tuple  # cell indices (into the enumerator's cells) of every column but the card columns, in order
    line_columns: tuple  # per bet, the column of each of its lines
    weights: np.ndarray  # [column, bet]: scale * (net payout + 1) of the line in that column
    scale: np.ndarray  # per bet: the common denominator of its net payouts
    card_bets: tuple = ()  # (bet index, its columns) of each card-level bet: the last columns, shoe by shoe


def line_kind(mask_by_value_cell: np.ndarray):
    """'value', 'class' or 'other' for a line given as [value cell, hand-class pair] booleans
    (possible value cells only)."""
    if (mask_by_value_cell == mask_by_value_cell[:, :1]).all():
        return "value"
    if (mask_by_value_cell == mask_by_value_cell[:1]).all():
        return "class"
    return "other"


@lru_cache(maxsize=16)
def compile_rules(rules: RuleSet) -> Plan:
    """The Plan of ``rules``: needs numeric payouts (a symbolic payout has no batch value)."""
    keep, _ = cells(rules.tableau)
    value_cell, hand_pair = np.divmod(keep, 16)
    possible = np.unique(value_cell)
    row = np.searchsorted(possible, value_cell)
    columns, kinds, line_columns = {}, [], []
    for b, bet in enumerate(rules.bets):
        these = []
        if bet.card_level:  # counted shoe by shoe at its card detail: one column per line
            for j in range(len(bet.lines)):
                columns[("card", b, j)] = len(columns)
                kinds.append(("card", None, (b, j)))
                these.append(columns[("card", b, j)])
            line_columns.append(these)
            continue
        for settled in settled_cells(tuple(ln.condition for ln in bet.lines), rules.tableau):
            key = settled.tobytes()
            if key not in columns:
                mask = np.zeros((len(possible), 16), bool)
                mask[row[settled], hand_pair[settled]] = True
                columns[key] = len(columns)
                kinds.append((line_kind(mask), mask, settled))
            these.append(columns[key])
        line_columns.append(these)
    order = sorted(range(len(kinds)), key=lambda i: ("value", "class", "other", "card").index(kinds[i][0]))
    position = {old: new for new, old in enumerate(order)}
    kinds = [kinds[i] for i in order]
    line_columns = tuple(tuple(position[c] for c in these) for these in line_columns)

    cell, monomial, c = value_terms(rules.tableau)
    value_masks = [mask[:, 0] for kind, mask, _ in kinds if kind == "value"]
    polynomials = np.zeros((len(multisets()), len(value_masks)), np.int64)
    in_line = np.zeros(np.prod(GRID), bool)
    for k, mask in enumerate(value_masks):
        in_line[:] = False
        in_line[possible[mask]] = True
        polynomials[:, k] = np.bincount(monomial, weights=c * in_line[cell], minlength=len(multisets()))
    basis, value_from_basis = integer_basis(polynomials)
    class_sets = np.array([mask[0] for kind, mask, _ in kinds if kind == "class"], bool).reshape(-1, 16)

    scale, weights = [], np.zeros((len(kinds), len(rules.bets)), object)
    for b, bet in enumerate(rules.bets):
        if not bet.numeric:
            raise BaccaratError(f"bet {bet.id!r} has a symbolic payout: give it a number to evaluate shoes in batch")
        nets = [bet.net(ln) for ln in bet.lines]
        d = lcm(*(Fraction(x).denominator for x in nets))
        scale.append(d)
        for column, x in zip(line_columns[b], nets):
            weights[column, b] = d * (x + 1)  # the line's net win, plus the stake the loss term takes
    card_bets = tuple((b, line_columns[b]) for b, bet in enumerate(rules.bets) if bet.card_level)
    return Plan(rules, np.ascontiguousarray(polynomials[:, basis].T, np.float64), value_from_basis,
                class_sets, tuple(settled for kind, _, settled in kinds if kind != "card"), line_columns, weights,
                np.array(scale, object), card_bets)


def integer_basis(polynomials: np.ndarray):
    """Columns of ``polynomials`` that span the others, and the integer matrix M with
    polynomials == polynomials[:, basis] @ M, each combination checked exactly in integers (a
    column that is not an integer combination of earlier ones joins the basis). Lines such as
    "total odd" (= all - "total even") then cost no matrix product of their own.

    >>> basis, m = integer_basis(np.array([[1, 0, 1], [0, 1, 1], [2, 0, 2]]))
    >>> basis, m.tolist()
    ([0, 1], [[1, 0, 1], [0, 1, 1]])
    """
    basis, combinations = [], {}
    for k in range(polynomials.shape[1]):
        if basis:
            spanned = polynomials[:, basis]
            x = np.linalg.lstsq(spanned.astype(np.float64), polynomials[:, k].astype(np.float64), rcond=None)[0]
            x = np.rint(x).astype(np.int64)
            if (spanned @ x == polynomials[:, k]).all():
                combinations[k] = x
                continue
        basis.append(k)
    m = np.zeros((len(basis), polynomials.shape[1]), np.int64)
    m[range(len(basis)), basis] = 1
    for k, x in combinations.items():
        m[: len(x), k] = x
    return basis, m


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


def value_line_counts(plan: Plan, v: np.ndarray, split: bool) -> np.ndarray:
    """[shoe, value column] exact int64 counts: the basis columns by one float64 product (two on
    26-bit halves when ``split``), the others as integer combinations of them. Chunks of shoes
    run on a thread per core, each product on one BLAS thread (numpy releases the GIL)."""

    def basis_counts(part):
        if not split:
            return np.rint(plan.basis_polynomials @ falling_monomials(part)).T.astype(np.int64)
        monomials = falling_monomials(part, np.int64)
        high = np.rint(plan.basis_polynomials @ (monomials >> SPLIT).astype(np.float64)).astype(np.int64)
        low = np.rint(plan.basis_polynomials @ (monomials & (2**SPLIT - 1)).astype(np.float64)).astype(np.int64)
        return ((high << SPLIT) + low).T

    parts = [v[start:start + CHUNK] for start in range(0, len(v), CHUNK)]
    if len(parts) > 1 and THREADS > 1:
        from concurrent.futures import ThreadPoolExecutor

        from threadpoolctl import threadpool_limits

        with threadpool_limits(1), ThreadPoolExecutor(THREADS) as pool:
            counts = list(pool.map(basis_counts, parts))
    else:
        counts = [basis_counts(part) for part in parts]
    out = np.concatenate(counts) if counts else np.zeros((0, plan.basis_polynomials.shape[0]), np.int64)
    return combine(out, plan.value_from_basis)


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
    scale[b] * EV * total[i] for bet b, an exact integer (int64 or Python int)."""

    plan: Plan
    counts: np.ndarray  # [shoe, rank, suit]
    total: np.ndarray  # N(N-1)...(N-5) per shoe: int64, or Python integers beyond FAST_CARDS
    lines: np.ndarray
    numerators: np.ndarray

    def __len__(self):
        return len(self.counts)

    @property
    def bets(self):
        return self.plan.rules.bets

    def ev(self, i: int, b: int) -> Fraction:
        """The exact EV of bet b on shoe i."""
        return Fraction(int(self.numerators[i, b]), int(self.plan.scale[b]) * int(self.total[i]))

    def evs(self, i: int) -> dict:
        """bet id -> exact EV on shoe i."""
        return {bet.id: self.ev(i, b) for b, bet in enumerate(self.bets)}

    def results(self, i: int) -> list[BetResult]:
        """Shoe i's BetResults, exactly those of bets.analyse on the same shoe."""
        total = int(self.total[i])
        out = []
        for bet, columns in zip(self.bets, self.plan.line_columns):
            counts = [int(self.lines[i, k]) for k in columns]
            out.append(BetResult(bet, tuple(Fraction(c, total) for c in counts), Fraction(total - sum(counts), total)))
        return out

    def positive(self) -> np.ndarray:
        """[shoe, bet]: the bet has positive expectation (exact integer sign)."""
        return self.numerators > 0

    def ev_floats(self) -> np.ndarray:
        """[shoe, bet] EVs as floats, for statistics and charts (each the nearest float to the
        exact EV, up to one rounding of numerator and denominator)."""
        return self.numerators.astype(np.float64) / (self.plan.scale.astype(np.float64)[None, :]
                                                     * self.total.astype(np.float64)[:, None])


def evaluate_many(rules: RuleSet, shoes) -> Batch:
    """Every bet of ``rules`` on every shoe (see shoe_counts for the accepted forms), exactly."""
    plan = compile_rules(rules)
    n = shoe_counts(shoes)
    if not len(n):
        empty = np.zeros((0, plan.weights.shape[0]), np.int64)
        return Batch(plan, n.reshape(0, 13, 4), np.zeros(0, np.int64), empty, np.zeros((0, len(plan.scale)), np.int64))
    size = n.sum((1, 2))
    small = np.flatnonzero(size < DEGREE)
    if len(small):
        raise BaccaratError(f"shoe {small[0] + 1}: a shoe needs at least 6 cards to deal a coup (it has {size[small[0]]})")
    total = falling6(size)
    columns = plan.weights.shape[0]
    n_value, n_class = plan.value_from_basis.shape[1], len(plan.class_sets)
    fits = size <= FAST_CARDS
    lines = np.zeros((len(n), columns), np.int64 if fits.all() else object)
    fast = np.flatnonzero(fits)
    if len(fast):
        split = int(total[fast].max()) > FLOAT_EXACT
        lines[fast, :n_value] = value_line_counts(plan, value_counts(n[fast]), split)
        if n_class:
            classes = hand_class_counts(n[fast]).reshape(len(fast), 16)
            lines[fast, n_value:n_value + n_class] = classes @ plan.class_sets.T.astype(np.int64)
    other = plan.column_cells[n_value + n_class:]  # lines mixing values and hand classes
    cells_end = len(plan.column_cells)
    for i in (np.arange(len(n)) if other or plan.card_bets else np.flatnonzero(~fits)):
        shoe = Shoe(tuple(map(tuple, n[i].tolist())))
        if other or not fits[i]:
            dist = enumerate_coup(shoe, rules.tableau)
            start = n_value + n_class if fits[i] else 0
            lines[i, start:cells_end] = [dist.count(s) for s in plan.column_cells[start:]]
        for b, columns in plan.card_bets:
            lines[i, list(columns)] = card_line_counts(rules.bets[b], shoe, rules.tableau)
    numerators = numerators_of(plan, lines, total)
    return Batch(plan, n, total, lines, numerators)


def numerators_of(plan: Plan, lines: np.ndarray, total: np.ndarray) -> np.ndarray:
    """scale * EV * total for every shoe and bet: sum of weights * counts, less scale * total.
    int64 where the bound max(weight) * total < 2**63 proves it exact, Python integers otherwise."""
    big = int(max(plan.weights.max(), plan.scale.max())) * int(total.max()) >= 2**63
    kind = object if big else np.int64
    total, weights, scale = total.astype(kind), plan.weights.astype(kind), plan.scale.astype(kind)
    numerators = np.empty((len(lines), len(plan.scale)), kind)
    for b, columns in enumerate(plan.line_columns):
        numerator = -total * scale[b]
        for k in set(columns):
            numerator = numerator + lines[:, k].astype(kind) * weights[k, b]
        numerators[:, b] = numerator
    return numerators


def parse_shoe_lines(text: str) -> list[list[int]]:
    """Shoes from text, one per line: 13 comma-separated rank counts A,2,...,9,T,J,Q,K (the
    suits spread evenly, as Shoe.from_ranks does), or 52 card counts As,Ah,Ad,Ac,2s,...,Kc
    (rank by rank, suits s h d c) where the suits matter. Blank lines and lines starting with #
    are skipped.

    >>> parse_shoe_lines("# a comment\\n32,32,32,32,32,32,32,32,32,32,32,32,32\\n")[0][:3]
    [32, 32, 32]
    """
    shoes = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        fields = [f.strip() for f in line.split(",")]
        if len(fields) not in (13, 52):
            raise BaccaratError(f"line {number}: expected 13 comma-separated counts ({','.join(RANKS)}) "
                                f"or 52 (As,Ah,Ad,Ac,2s,...,Kc), got {len(fields)}")
        for field in fields:
            if not (field.isascii() and field.isdigit()) or len(field) > 12:
                raise BaccaratError(f"line {number}: {field!r} is not a card count (a whole number, 0 or more)")
            if int(field) > MAX_KIND:
                what = "one rank" if len(fields) == 13 else "one card"
                raise BaccaratError(f"line {number}: {field} cards of {what} is more than a shoe can hold ({MAX_KIND:,} at most)")
        shoe = [int(f) for f in fields]
        if sum(shoe) < DEGREE:
            raise BaccaratError(f"line {number}: a shoe needs at least 6 cards to deal a coup (this one has {sum(shoe)})")
        shoes.append(shoe)
    return shoes


def as_card_counts(rows) -> np.ndarray:
    """Lines of 13 rank counts or 52 card counts (parse_shoe_lines) as [shoe, rank, suit]."""
    return np.stack([shoe_counts([row])[0] if len(row) == 13 else np.array(row, np.int64).reshape(13, 4)
                     for row in rows]) if rows else np.zeros((0, 13, 4), np.int64)


def json_lines(batch: Batch, rows):
    """One JSON line per shoe: its counts as given (``rows``: 13 by rank or 52 by card) and
    every bet's exact EV as "p/q"."""
    import json

    from .render import exact

    for i in range(len(batch)):
        evs = {bet.id: {"ev": exact(batch.ev(i, b))} for b, bet in enumerate(batch.bets)}
        yield json.dumps({"shoe": list(rows[i]), "bets": evs})
