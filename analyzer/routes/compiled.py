"""A rule set compiled: each pay line a polynomial in the card counts, once, for every shoe after.

The RulePlan of a rule set (:func:`plan_of`) sorts its lines into value lines, class lines, lines
mixing the two and card-level lines (see batch.py's glossary); :func:`compile_rules` builds their
polynomials (value lines on the falling-monomial basis, read from disk where an earlier process
kept them), and :func:`analyse_one` evaluates one shoe by them in Python integers. Exactness of
each shortcut is proved where it is taken (falling_monomials, split_product, integer_basis).
"""

from __future__ import annotations

import os
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property, lru_cache

import numpy as np
from threadpoolctl import ThreadpoolController

from . import basis, cardcount, closedforms, plancache
from ..bets.bet import BetResult, RuleSet, result_of
from .counts import card_line_counts, prepare, settled_cells
from ..game.cards import BaccaratError, Shoe
from ..game.engine import cells, enumerate_coup, falling
from ..game.layout import draws
from .basis import hand_classes_of, monomial_plan, multisets  # noqa: F401  (pure Python: the lean route shares them)
from ..game.tableau import STOOD, Tableau


DEGREE = 6  # cards on the counting basis
FLOAT_EXACT = 2**53  # float64 holds every integer up to here
FAST_CARDS = 1290  # the largest N with N**6 < 2**62: monomials and class counts fit int64
SPLIT = 26  # bits in the low half of a split monomial
CHUNK = 256  # shoes per matrix product (keeps the monomials in cache)
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


def too_detailed(bet, tableau) -> tuple | None:
    """(closed form, 0, its lines) for a bet too detailed to compile that has one, else None."""
    form = closedforms.one_form(bet.conditions, tableau)
    return None if form is None else (form, 0, len(bet.conditions))
