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

import json
import math
import os
import re
import threading
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property, lru_cache
from operator import truediv

import numpy as np
from threadpoolctl import ThreadpoolController

from . import basis, cardcount, closedforms, plancache
from ..bets.bet import BetResult, RuleSet, result_of
from .counts import card_line_counts, prepare, settled_cells
from ..bets.series import geometric_ev, nets_by_count
from ..game.cards import KINDS, RANKS, BaccaratError, Shoe
from ..game.engine import cells, enumerate_coup, falling
from ..game.layout import draws
from .basis import hand_classes_of, monomial_plan, multisets  # noqa: F401  (pure Python: the lean route shares them)
from ..game.tableau import STOOD, Tableau

DEGREE = 6  # cards on the counting basis
FLOAT_EXACT = 2**53  # float64 holds every integer up to here
FAST_CARDS = 1290  # the largest N with N**6 < 2**62: monomials and class counts fit int64
SPLIT = 26  # bits in the low half of a split monomial
CHUNK = 256  # shoes per matrix product (keeps the monomials in cache)
BLOCK = 2_500  # shoes per call when streaming a file: each block's arrays in memory at once
FEW_SHOES = 32  # below this, a rule set not yet compiled is evaluated by the enumerator, shoe by shoe
MAX_KIND = 10**6  # cards of one kind in a shoe, at most
THREADS = os.cpu_count() or 1  # threads for the matrix products (a worker process of simulate: 1)
GRID = (10, 10, 11, 11)  # value cells: two-card totals, Player third, Banker third (10 = none)


@lru_cache(maxsize=1)
def blas_controller():
    return ThreadpoolController()


_BLAS = {"lock": threading.Lock(), "users": 0, "limiter": None}  # one limit shared by overlapping contexts


@contextmanager
def one_blas_thread():
    """A context in which matrix products run on one BLAS thread. Our own threads (chunks of
    shoes) and worker processes are the parallelism; BLAS threads beside them oversubscribe the
    cores, and under load a product then takes seconds instead of milliseconds. The limit is
    process-wide: the first context to enter sets it and the last to leave restores it, so
    contexts overlapping in several threads leave the caller's setting as it was."""
    with _BLAS["lock"]:
        if not _BLAS["users"]:
            take_blas_control()
            _BLAS["limiter"] = blas_controller().limit(limits=1, user_api="blas")
        _BLAS["users"] += 1
    try:
        yield
    finally:
        with _BLAS["lock"]:
            _BLAS["users"] -= 1
            if not _BLAS["users"]:
                take_blas_control()
                _BLAS["limiter"].restore_original_limits()


def take_blas_control():
    """Let this thread set OpenBLAS's limit. threadpoolctl (3.6 on) lets only the first thread that
    set it set it again while that thread lives, so a limit taken in one thread and restored in
    another was left as it was (the caller's setting lost). Called under _BLAS's lock: one thread
    at a time sets or restores."""
    for library in blas_controller().lib_controllers:
        clear = getattr(type(library), "clear_controlling_thread", None)
        if clear is not None:
            clear(force=True)


def falling_monomials(v: np.ndarray, dtype=np.float64, levels: int = DEGREE, with_factors: bool = False):
    """F[mu, b] for the value counts v[b, 0..9] of each shoe b: exact (see the module notes).
    ``levels`` below 6 stops at that degree; ``with_factors`` also returns the factor rows
    v_x - c (row x * 7 + c).

    >>> F = falling_monomials(np.array([[128] + [32] * 9]), np.int64)
    >>> int(F[0, 0]) == 128 * 127 * 126 * 125 * 124 * 123, int(F[-1, 0]) == 32 * 31 * 30 * 29 * 28 * 27
    (True, True)
    """
    v = np.asarray(v).T.astype(dtype)  # [x, b]
    factors = (v[:, None, :] - np.arange(7, dtype=dtype)[None, :, None]).reshape(70, -1)
    monomials = np.ones((1, v.shape[1]), dtype)
    for blocks in monomial_plan(DEGREE)[0][:levels]:  # (DEGREE given: one cache entry with multisets())
        new = np.empty((sum(end - start for _, start, end in blocks), v.shape[1]), dtype)
        row = 0
        for factor, start, end in blocks:
            np.multiply(monomials[start:end], factors[factor], out=new[row:row + end - start])
            row += end - start
        monomials = new
    return (monomials, factors) if with_factors else monomials


@lru_cache(maxsize=8)
def value_terms(tableau: Tableau):
    """The polynomial of every value cell, sparse: (cell, monomial, c) rows, where cell indexes
    GRID and c counts orders of six values that deal that cell (a cell and monomial may come in
    several rows: their c add up). Found by dealing every pair of unordered two-card hands
    (55 x 55, each counted in its orders) and both possible third cards once: 302,500 rows."""
    low, high = (x.astype(np.int8) for x in np.triu_indices(10))
    hand_orders = np.where(low == high, 1, 2).astype(np.int8)
    digit = (7 ** np.arange(10)).astype(np.int32)  # a multiset of six values as its value counts in base 7
    codes = np.array([digit[list(m)].sum() for m in multisets()], np.int32)
    order = np.argsort(codes).astype(np.int16)
    parts = []
    for hands in np.array_split(np.arange(len(low)), 5):  # a fifth of the rows at a time: about 2 MB
        player, banker, x5, x6 = (x.ravel() for x in np.meshgrid(hands.astype(np.int8), *(np.arange(n, dtype=np.int8)
                                                                  for n in (len(low), 10, 10)), indexing="ij"))
        p1, p2, b1, b2 = low[player], high[player], low[banker], high[banker]
        pt, bt = (p1 + p2) % 10, (b1 + b2) % 10
        player_draws, banker_draws = draws(tableau, pt, bt, x5)
        p3 = np.where(player_draws, x5, STOOD)
        b3 = np.where(banker_draws, np.where(player_draws, x6, x5), 10)
        cell = np.ravel_multi_index((pt, bt, p3, b3), GRID).astype(np.int16)
        code = digit[p1] + digit[p2] + digit[b1] + digit[b2] + digit[x5] + digit[x6]
        parts.append((cell, order[np.searchsorted(codes, code, sorter=order)], hand_orders[player] * hand_orders[banker]))
    return tuple(np.concatenate(x) for x in zip(*parts))


MEET, CLASS_OF_MATCHES = np.array(basis.MEET), np.array(basis.CLASS_OF_MATCHES)  # how two cards match; hand classes by matches


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


@dataclass(frozen=True)
class Polynomials:
    """The value lines of a RulePlan as polynomials: the basis lines' coefficients, and every value
    line as an integer combination of them."""

    basis: np.ndarray  # [basis line, monomial]: c, float64 (exact integers)
    value_from_basis: np.ndarray  # [basis line, value column]: integer combinations, int64
    value_sums: tuple  # the same by value column: ((basis line, multiplier), ...), for one shoe in Python integers
    last_level: tuple  # per block (x, c) of the degree-6 monomials: (factor row x * 7 + c, parent rows, basis columns)

    def sequences(self, v: np.ndarray) -> np.ndarray:
        """[basis line, shoe] for the value counts v[shoe, 0..9] of shoes with N(N-1)...(N-5) <= 2**53.

        The last factor of each monomial is taken after the product: basis @ F6 is the sum over
        the blocks (x, c) of (basis columns of the block @ their degree-5 parents) * (v_x - c),
        so the 5,005 degree-6 monomials are never built (a third of the time). Exact: each
        block's product is a sum of non-negative terms c * F5 <= 6 N(N-1)...(N-4), and times
        its factor it is part of the line's count (a zero factor meets only zero terms beyond)."""
        parents, factors = falling_monomials(v, levels=DEGREE - 1, with_factors=True)
        out = np.zeros((self.basis.shape[0], len(v)))
        for factor, (start, end), columns in self.last_level:
            out += (columns @ parents[start:end]) * factors[factor]
        return out


@dataclass(frozen=True, eq=False)
class RulePlan:
    """Every pay line of a rule set laid out once: the distinct lines as columns of four kinds
    (value, class, other, then the lines of card-level bets), and each bet as integer weights on
    those columns. The value lines' polynomials are compiled on first use (``polynomials``)."""

    rules: RuleSet
    value_masks: tuple  # per value column: the possible value cells (``possible``) where it holds
    possible: np.ndarray  # the value cells (GRID indices) the tableau can deal
    class_sets: np.ndarray  # [class column, cp * 4 + cb]: the line holds for that hand-class pair
    column_cells: tuple  # cell indices (into the enumerator's cells) of every column but the card columns, in order
    line_columns: tuple  # per bet, the column of each of its lines
    weights: np.ndarray  # [column, bet]: scale * (net payout + 1) of the line in that column
    scale: np.ndarray  # per bet: the common denominator of its net payouts
    card_bets: tuple = ()  # (bet index, its columns) of each card-level bet: the last columns, shoe by shoe

    @property
    def value_columns(self) -> int:
        return len(self.value_masks)

    @cached_property
    def polynomials(self) -> Polynomials:
        """Each value line's count as a polynomial in the value counts (a fraction of a second
        for the catalogue's 49 lines, once; read from the cache on disk where an earlier process
        kept them: plancache.py)."""
        name = self.values_key()
        stored = plancache.load(name) or {}
        basis_rows, value_from_basis = stored.get("basis_rows"), stored.get("value_from_basis")
        if basis_rows is None or value_from_basis is None or basis_rows.shape[1:] != (len(multisets()),) \
                or value_from_basis.shape != (len(basis_rows), self.value_columns):
            basis_rows, value_from_basis = self.compile_values()
            plancache.store(name, {"basis_rows": basis_rows, "value_from_basis": value_from_basis})
        value_sums = tuple(tuple((int(r), int(value_from_basis[r, k])) for r in np.flatnonzero(value_from_basis[:, k]))
                           for k in range(value_from_basis.shape[1]))
        last_level, row = [], 0
        for factor, start, end in monomial_plan(DEGREE)[0][DEGREE - 1]:
            last_level.append((factor, (start, end), np.ascontiguousarray(basis_rows[:, row:row + end - start])))
            row += end - start
        return Polynomials(basis_rows, value_from_basis, value_sums, tuple(last_level))

    def values_key(self) -> str | None:
        """The name the value polynomials are kept under on disk (plancache.key)."""
        return plancache.key("values", self.rules.tableau, self.possible, self.value_masks)

    def compile_values(self) -> tuple[np.ndarray, np.ndarray]:
        """(basis rows [basis line, monomial] as float64, value_from_basis): every value line's
        polynomial found from the tableau's value terms, then a basis of them (integer_basis)."""
        cell, monomial, c = value_terms(self.rules.tableau)
        polynomials = np.zeros((len(multisets()), self.value_columns), np.int64)
        in_line = np.zeros(np.prod(GRID), bool)
        for k, mask in enumerate(self.value_masks):
            in_line[:] = False
            in_line[self.possible[mask]] = True
            polynomials[:, k] = np.bincount(monomial, weights=c * in_line[cell], minlength=len(multisets()))
        with one_blas_thread():
            basis, value_from_basis = integer_basis(polynomials)
        return np.ascontiguousarray(polynomials[:, basis].T, np.float64), value_from_basis

    @cached_property
    def lines_by_cell(self) -> tuple[np.ndarray, np.ndarray]:
        """(line, nets): line[cell, bet] is the pay line (0, 1, ...) that settles each value-level
        bet in each cell of the enumerator's grid, -1 none (the bet loses; card-level bets: -1);
        nets[bet, line] the units that line wins as a float, nets[bet, -1] = -1."""
        line = np.full((len(cells(self.rules.tableau)[0]), len(self.rules.bets)), -1, np.int16)
        nets = np.full((len(self.rules.bets), max(len(bet.lines) for bet in self.rules.bets) + 1), -1.0)
        for b, (bet, columns) in enumerate(zip(self.rules.bets, self.line_columns)):
            if not bet.card_level and bet.series is None:
                for j, column in enumerate(columns):
                    line[self.column_cells[column], b] = j
                    nets[b, j] = float(bet.net(bet.lines[j]))
        return line, nets

    @cached_property
    def one_shoe(self) -> tuple:
        """What analyse_one takes for one shoe: (C, w, class rows, plain): C[value column, basis
        line] = value_from_basis transposed (int64), w the most sum of |C| along a row (the value
        lines are C @ basis, exact in int64 while w * N(N-1)...(N-5) < 2**63), the hand-class
        pairs each class line holds for, and which bets are value-level bets on one coup (their
        result is their counts as they are)."""
        combine = np.ascontiguousarray(self.polynomials.value_from_basis.T, np.int64)
        weight = int(np.abs(combine).sum(1).max(initial=0))
        class_rows = tuple(tuple(np.flatnonzero(row).tolist()) for row in self.class_sets)
        return combine, weight, class_rows, tuple(bet.series is None and not bet.card_level for bet in self.rules.bets)

    @property
    def compiled(self) -> bool:
        """The polynomials are built: a shoe then costs a fraction of a millisecond."""
        return "polynomials" in self.__dict__


def line_kind(mask_by_value_cell: np.ndarray):
    """'value', 'class' or 'other' for a line given as [value cell, hand-class pair] booleans
    (possible value cells only)."""
    if (mask_by_value_cell == mask_by_value_cell[:, :1]).all():
        return "value"
    if (mask_by_value_cell == mask_by_value_cell[:1]).all():
        return "class"
    return "other"


_PLANS: dict = {}  # id(rules) -> (rules, plan): found by identity (hashing a rule set costs more than a shoe)
_PLANS_LOCK = threading.Lock()  # a server's threads compile and look up at once


def plan_of(rules: RuleSet) -> RulePlan:
    """The RulePlan of ``rules`` (its polynomials not yet built): needs numeric payouts (a symbolic
    payout has no batch value)."""
    hit = _PLANS.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    plan = _plan(rules)
    with _PLANS_LOCK:
        if len(_PLANS) >= 16:
            _PLANS.pop(next(iter(_PLANS)))
        _PLANS[id(rules)] = (rules, plan)
    return plan


def compiled_plan(rules: RuleSet) -> RulePlan | None:
    """The RulePlan of ``rules`` if this very rule set was compiled in this process, else None."""
    hit = _PLANS.get(id(rules))
    return hit[1] if hit is not None and hit[0] is rules and hit[1].compiled else None


def compile_rules(rules: RuleSet) -> RulePlan:
    """The RulePlan of ``rules`` with its polynomials built (value and card-level lines), read from
    disk where an earlier process kept them. From then on, analysis.analyse evaluates the rule
    set's shoes by the RulePlan (analyse_one) and evaluate_many always by polynomials.
    (evaluate_many compiles by itself from FEW_SHOES shoes on, choose.one_shoe after FEW_ANALYSES shoes
    or at once where this mark is kept.)"""
    plan = plan_of(rules)
    if not plan.compiled:
        card_polynomials(plan)
        plan.polynomials
        mark = plancache.key("compiled", rules)  # choose.kept_on_disk: read at a process's first shoe
        if not plancache.stored(mark, bytes):
            plancache.store_bytes(mark, b"")
    return plan


@lru_cache(maxsize=16)
def _plan(rules: RuleSet) -> RulePlan:
    keep, _ = cells(rules.tableau)
    value_cell, hand_pair = np.divmod(keep, 16)
    possible = np.flatnonzero(np.bincount(value_cell))  # (np.unique would load numpy.ma)
    row = np.searchsorted(possible, value_cell)
    columns, kinds, line_columns = {}, [], []
    for b, bet in enumerate(rules.bets):
        these = []
        if bet.card_level:  # counted shoe by shoe at its card detail: one column per line
            for j in range(len(bet.conditions)):
                columns[("card", b, j)] = len(columns)
                kinds.append(("card", None, (b, j)))
                these.append(columns[("card", b, j)])
            line_columns.append(these)
            continue
        for settled in settled_cells(bet.conditions, rules.tableau):
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
    value_masks = tuple(mask[:, 0] for kind, mask, _ in kinds if kind == "value")
    class_sets = np.array([mask[0] for kind, mask, _ in kinds if kind == "class"], bool).reshape(-1, 16)

    scale, weights = [], np.zeros((len(kinds), len(rules.bets)), object)
    for b, bet in enumerate(rules.bets):
        if not bet.numeric:
            raise BaccaratError(f"bet {bet.id!r} has a symbolic payout: give it a number to evaluate shoes in batch")
        if bet.series is not None:  # a bet across coups: its EV is not linear in its columns (Batch.series)
            scale.append(1)
            continue
        d, nets = bet.integer_nets
        scale.append(d)
        for column, x in zip(line_columns[b], nets):
            weights[column, b] = x + d  # the line's net win, plus the stake the loss term takes
    card_bets = tuple((b, line_columns[b]) for b, bet in enumerate(rules.bets) if bet.card_level)
    return RulePlan(rules, value_masks, possible, class_sets, tuple(settled for kind, _, settled in kinds if kind != "card"),
                line_columns, weights, np.array(scale, object), card_bets)


def integer_basis(polynomials: np.ndarray):
    """Columns of ``polynomials`` that span the others, and the integer matrix M with
    polynomials == polynomials[:, basis] @ M, each combination checked exactly in integers (a
    column that is not an integer combination of earlier ones joins the basis). Lines such as
    "total odd" (= all - "total even") then cost no matrix product of their own.

    >>> basis, m = integer_basis(np.array([[1, 0, 1], [0, 1, 1], [2, 0, 2]]))
    >>> basis, m.tolist()
    ([0, 1], [[1, 0, 1], [0, 1, 1]])
    """
    gram = polynomials.T.astype(np.float64) @ polynomials  # exact: every entry is below 2**53
    basis, combinations = [], {}
    for k in range(polynomials.shape[1]):
        if basis:  # the combination by least squares on the Gram matrix, then checked exactly
            x = np.linalg.lstsq(gram[np.ix_(basis, basis)], gram[basis, k], rcond=None)[0]
            x = np.rint(x).astype(np.int64)
            if (polynomials[:, basis] @ x == polynomials[:, k]).all():
                combinations[k] = x
                continue
        basis.append(k)
    m = np.zeros((len(basis), polynomials.shape[1]), np.int64)
    m[range(len(basis)), basis] = 1
    for k, x in combinations.items():
        m[: len(x), k] = x
    return basis, m


@lru_cache(maxsize=1)
def factor_rows() -> np.ndarray:
    """[6, monomial]: the factor rows x * 7 + c (factor v_x - c) of each falling monomial, the
    copies of a value in increasing c (so a zero factor comes before any negative one)."""
    return np.array([[x * 7 + m[:j].count(x) for j, x in enumerate(m)] for m in multisets()]).T.copy()


def split_product(basis: np.ndarray, monomials: np.ndarray) -> np.ndarray:
    """basis @ monomials exactly, for int64 monomials whose products pass 2**53: two float64
    products on the high and low 26-bit halves, each exact, recombined in int64."""
    high = np.rint(basis @ (monomials >> SPLIT).astype(np.float64)).astype(np.int64)
    low = np.rint(basis @ (monomials & (2**SPLIT - 1)).astype(np.float64)).astype(np.int64)
    return (high << SPLIT) + low


def analyse_one(plan: RulePlan, shoe: Shoe) -> list[BetResult] | None:
    """Every bet of the plan's rule set on one shoe, exactly as analysis.analyse gives them, or None
    where the plan does not reach (more than FAST_CARDS cards). One product of the basis
    polynomials with the shoe's 5,005 monomials (two on 26-bit halves past 2**53), the hand
    classes by their closed form; lines mixing the two, and card-level bets, by the enumerator."""
    if shoe.size > FAST_CARDS or shoe.size < DEGREE:
        return None
    v = shoe.value_counts()
    total = falling(shoe.size, DEGREE)
    exact = total <= FLOAT_EXACT
    factors = np.subtract.outer(np.array(v, np.float64 if exact else np.int64), np.arange(7)).ravel()[factor_rows()]
    monomials = np.multiply.reduce(factors)  # each partial product a count, at most N(N-1)...(N-5)
    polynomials = plan.polynomials
    with one_blas_thread():
        if exact:
            basis = np.rint(polynomials.basis @ monomials).astype(np.int64)
        else:
            basis = split_product(polynomials.basis, monomials)
    combine, weight, class_rows, plain = plan.one_shoe
    if weight * total < 2**63:  # each basis count is at most total, each partial sum at most weight * total: exact in int64
        lines = (combine @ basis).tolist()
    else:
        basis = basis.tolist()
        lines = [sum(m * basis[r] for r, m in terms) for terms in polynomials.value_sums]
    if class_rows:
        classes = hand_classes_of(shoe.counts)
        lines += [sum(map(classes.__getitem__, row)) for row in class_rows]
    if len(lines) < len(plan.column_cells):  # lines mixing values and hand classes
        dist = enumerate_coup(shoe, plan.rules.tableau)
        lines += [dist.count(cells) for cells in plan.column_cells[len(lines):]]
    lines += card_counts(plan, shoe)
    take = lines.__getitem__  # Python integers: a bet on one coup is its counts as they are (result_of)
    return [BetResult(bet, tuple(map(take, columns)), total) if simple else result_of(bet, list(map(take, columns)), total)
            for bet, columns, simple in zip(plan.rules.bets, plan.line_columns, plain)]


def card_counts(plan: RulePlan, shoe: Shoe) -> list[int]:
    """The card-level bets' line counts on one shoe, in the order of plan.card_bets: by the
    polynomials compiled for many shoes where the lines compile (card_columns' own: the plan is
    one that serves many shoes, and those evaluate fastest), the bets that share one counted
    once; by counts.card_line_counts otherwise."""
    rules, counts, lines, done = plan.rules, shoe.kind_counts(), [], {}
    for (b, _), found in zip(plan.card_bets, card_polynomials(plan)):
        if found is None:
            lines += card_line_counts(rules.bets[b], shoe, rules.tableau)
            continue
        polynomials, start, width = found
        if id(polynomials) not in done:
            done[id(polynomials)] = polynomials.counts(counts)
        lines += done[id(polynomials)][start:start + width]
    return lines


def card_polynomials(plan: RulePlan) -> list:
    """Per card-level bet of the plan, its compiled (polynomials, first column, columns) for many
    shoes, or None where its lines do not compile: looked up once a plan, and held by it (a look-up
    hashes the bet's conditions)."""
    found = plan.__dict__.get("_card_polynomials")
    if found is None:
        rules = plan.rules
        prepare([rules.bets[b] for b, _ in plan.card_bets], rules.tableau, many=True)
        found = [cardcount.compiled(f"bet {bet.id!r}", bet.conditions, bet.needs, rules.tableau, many=True)
                 if cardcount.fits(bet.needs, rules.tableau) else too_detailed(bet, rules.tableau)
                 for bet in (rules.bets[b] for b, _ in plan.card_bets)]
        plan.__dict__["_card_polynomials"] = found  # one list, put whole: safe between threads
    return found


SHOE_BY_SHOE_WORK = 4_000  # products of suit sets one evaluation may count (shoes x products): about 20 s on 8 decks


def suits_shoe_by_shoe(rules: RuleSet) -> list[tuple[str, int]]:
    """(bet id, products of suit sets a shoe) of the bets of ``rules`` that closedforms.SuitSets
    counts shoe by shoe (too detailed to compile, of the suits' shape, no faster closed form):
    found without compiling anything."""
    return [(bet.id, products) for bet in rules.bets
            if bet.card_level and (products := closedforms.suit_products(bet.conditions))
            and not cardcount.fits(bet.needs, rules.tableau)
            and isinstance(closedforms.one_form(bet.conditions, rules.tableau), closedforms.SuitSets)]


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


def too_detailed(bet, tableau) -> tuple | None:
    """(closed form, 0, its lines) for a bet too detailed to compile that has one, else None."""
    form = closedforms.one_form(bet.conditions, tableau)
    return None if form is None else (form, 0, len(bet.conditions))


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
        """bet index -> ([shoe] numerators, [shoe] denominators) of each bet across coups (series_evs)."""
        return series_evs(self.plan, self.lines, self.total)

    def series_estimates(self, exact_near=()) -> dict:
        """bet index -> ([shoe] EV > 0, [shoe] EV as a float) of each bet across coups: from the
        exact EVs where they are worked out (the nearest floats), else by series_floats (exact
        signs; floats within FLOAT_ROUTE_ERROR, on the same side as the nearest float of every
        value of ``exact_near``)."""
        if "series" in self.__dict__:
            return {b: (numerators > 0, np.array(list(map(truediv, numerators, denominators)), np.float64))
                    for b, (numerators, denominators) in self.series.items()}
        return {b: series_floats(self.plan, self.lines, self.total, b, exact_near)
                for b, bet in enumerate(self.bets) if bet.series is not None}

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
        return [result_of(bet, [lines[k] for k in columns], total) for bet, columns in zip(self.bets, self.plan.line_columns)]

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


COUNTS = re.compile(r"[0-9]{1,7}(?:[ \t]*,[ \t]*[0-9]{1,7})*")  # a line of card counts (after strip)


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
        if COUNTS.fullmatch(line):  # the common case at a glance; anything odd is told below
            shoe = list(map(int, line.split(",")))
            if len(shoe) in (13, 52) and max(shoe) <= MAX_KIND and sum(shoe) >= DEGREE:
                shoes.append(shoe)
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
    out = np.zeros((len(rows), 13, 4), np.int64)
    for size, convert in ((13, shoe_counts), (52, lambda x: np.array(x, np.int64).reshape(-1, 13, 4))):
        these = [i for i, row in enumerate(rows) if len(row) == size]
        if these:
            out[these] = convert([rows[i] for i in these])
    return out


def json_lines(batch: Batch, rows, group: int = 1000):
    """One JSON line per shoe: its counts as given (``rows``: 13 by rank or 52 by card) and
    every bet's exact EV as "p/q" (lowest terms; "n" for an integer), as json.dumps writes it.
    Yields the lines of ``group`` shoes at a time, joined (the text of one group in memory)."""
    bets = ", ".join(f'{json.dumps(bet.id).replace("%", "%%")}: {{"ev": "%s"}}' for bet in batch.bets)
    template = '{"shoe": [%s], "bets": {' + bets + '}}'
    width = len(batch.bets)
    for first in range(0, len(batch), group):
        numerators, denominators = (x.ravel().tolist() for x in batch.ev_terms(slice(first, first + group)))
        evs = list(map("{}/{}".format, numerators, denominators))
        for j, q in enumerate(denominators):
            if q == 1:
                evs[j] = str(numerators[j])
        yield "\n".join(template % (", ".join(map(str, shoe)), *evs[i * width:(i + 1) * width])
                        for i, shoe in enumerate(rows[first:first + group]))
