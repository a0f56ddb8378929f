"""Closed forms in the 52 card counts for card-level lines whose compiled polynomials are large:
each shoe costs a few hundred array operations over all the shoes at once, not one product per
term (Jackpot Baccarat's poker hands of the first four cards take 81,279 terms compiled). Three
shapes: the poker hand of the first four cards, the hands drawn from two disjoint sets of cards,
and how the ranks of every card dealt repeat (Lucky Match: 11,348 terms compiled; here 4,364
products of falling powers in the rank counts, weighted by the value orders that deal 4, 5 or 6
cards), each explained where it is written. A fourth, the suits and colours of whole hands,
counts shoe by shoe the bets that are too detailed to compile.

Poker hands of the first four cards
-----------------------------------
A line that tests only the poker category of the first four cards (``first_four = { poker =
... }``: any categories, ``poker_ranks``, any ``[poker]`` ace rule, combined with all / any /
not) holds or fails alike on every hand of one *atom*:

========  ==========================================  ===============================================
atom      the four cards                                ordered sequences (R rank counts, n card counts)
========  ==========================================  ===============================================
4 r       four of rank r                                R_r^(4)
3 r       three of rank r, one of another rank          4 R_r^(3) (N - R_r)
2+2 r q   two of rank r, two of rank q (r < q)          6 R_r^(2) R_q^(2)
2 r       two of rank r, two singles of two other ranks 6 R_r^(2) ((N - R_r)^2 - sum_{q != r} R_q^2)
1 W       four ranks, the rank set W a straight (or     24 prod_{r in W} R_r
          A-J-Q-K, a mini royal's)
1         four ranks, any other rank set                24 e4(R) - sum_W 24 prod_{r in W} R_r
========  ==========================================  ===============================================

each split in two by suit: all four of one suit (the same forms in each suit's counts n[., s],
with S_s the suit's cards for N, summed over s), or not (the whole less the suited). x^(k) is
the falling power x (x-1) ... (x-k+1) and e4 the fourth elementary symmetric polynomial. Each
form counts ordered 4-card sequences of distinct cards: the positions of the repeated ranks
(4, 6, 6, 24 ways), times ordered draws of distinct cards within each rank; for "2 r", the two
singles are an ordered pair of cards of different ranks, neither r: all ordered pairs from the
N - R_r others less those of one rank. Every line is then the sum of the atoms on which it is
settled (the line's test is read off one hand of each atom by the tests' own code), times
(N - 4)(N - 5) for the two cards after the first four.

Why every test is constant on an atom: an n-of-a-kind (n >= 2) reads the most cards of a rank
listed, and only r (and q) can repeat; two pair needs two repeated ranks (2+2 alone); full
house and two triplets need five cards; a straight needs four different ranks in a straight's
set; a flush, all four of one suit; a mini royal, the set A-J-Q-K all of one suit.

Exactness: every term is a count of sequences (at most N^4, times N^2 at the end): int64 while
N <= 1290 (N^6 < 2^62), Python integers beyond.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache
from math import factorial, prod

import numpy as np

from ..bets.cardtests import MINI_ROYAL, GroupEvery, GroupPoker
from ..bets.conditions import AllOf, AnyOf, Not, settled_masks
from ..game.engine import class_sums, free_ways
from ..game.layout import HEAD, KIND_VALUE, NONE, PLACES, draws, value_fields

from .forms import DEGREE, ClosedForm
from .suitsets import SuitSets, suit_set_lines, value_sequences
OTHER_SET = (0, 2, 5, 8)  # A-3-6-9: no straight under any ace rule, with or without wrap, nor a mini royal


def leaves(condition):
    """The tests at the leaves of all / any / not."""
    if isinstance(condition, (AllOf, AnyOf)):
        for part in condition.parts:
            yield from leaves(part)
    elif isinstance(condition, Not):
        yield from leaves(condition.part)
    else:
        yield condition


def first_four_poker(conditions: tuple) -> bool:
    """Whether these lines test nothing but the poker categories of the first four cards."""
    tests = [leaf for condition in conditions for leaf in leaves(condition)]
    return bool(tests) and all(isinstance(t, GroupPoker) and t.group == "first_four" for t in tests)


@lru_cache(maxsize=64)
def atoms(conditions: tuple) -> tuple[tuple, np.ndarray]:
    """(the atoms, [atom, line] 0/1: the line that settles each), for lines of first_four_poker.
    An atom is (pattern, ranks, suited): "4", "3", "2" with (r,); "22" with (r, q); "1" with a
    rank set (special) or () (any other)."""
    special = sorted({MINI_ROYAL} | {w for t in (leaf for c in conditions for leaf in leaves(c))
                                     for w in t.poker.straights(4)})
    listed = [("4", (r,)) for r in range(13)] + [("3", (r,)) for r in range(13)] + [("2", (r,)) for r in range(13)]
    listed += [("22", (int(r), int(q))) for r, q in zip(*np.triu_indices(13, 1))]  # in atom_counts' order
    listed += [("1", tuple(r for r in range(13) if w >> r & 1)) for w in special] + [("1", ())]
    found = [(pattern, ranks, suited) for pattern, ranks in listed for suited in (True, False)]
    hands = np.array([representative(*atom) for atom in found], np.int8)
    fields = {place: hands[:, i] for i, place in enumerate(HEAD)}
    masks = settled_masks(conditions, fields)
    return tuple(found), np.column_stack(masks).astype(np.int64) if masks else np.zeros((len(found), 0), np.int64)


@lru_cache(maxsize=64)
def family(conditions: tuple) -> dict:
    return by_family(*atoms(conditions))


def representative(pattern: str, ranks: tuple, suited: bool) -> list[int]:
    """The kinds (rank * 4 + suit) of one hand of the atom, in dealing order."""
    if pattern == "4":
        rows = [ranks[0]] * 4
    elif pattern == "3":
        rows = [ranks[0]] * 3 + [(ranks[0] + 1) % 13]
    elif pattern == "2":
        rows = [ranks[0]] * 2 + [(ranks[0] + 1) % 13, (ranks[0] + 3) % 13]
    elif pattern == "22":
        rows = [ranks[0], ranks[0], ranks[1], ranks[1]]
    else:
        rows = list(ranks or OTHER_SET)
    suits = [0, 0, 0, 0] if suited else [0, 1, 0, 0]
    return [r * 4 + s for r, s in zip(rows, suits)]


def elementary4(x: np.ndarray):
    """e4 of the last axis of ``x`` (the sum of the products of its 4-subsets), by Newton's
    identity 24 e4 = p1^4 - 6 p1^2 p2 + 3 p2^2 + 8 p1 p3 - 6 p4, p_k the sum of the k-th powers:
    a few array operations where the recurrence e_k += x e_(k-1) takes 4 per entry. Exact in
    integers: for counts x >= 0, p_k <= p1^k, so every term and partial sum is at most
    (1 + 6 + 3 + 8 + 6) p1^4 = 24 p1^4 in size, below 2^46 in int64 while the entries sum to at
    most FAST_CARDS; and the sum is 24 e4, divisible by 24.

    >>> elementary4(np.array([[1, 2, 3, 4, 5], [0, 0, 7, 0, 0]])).tolist()  # 1*2*3*4 + 1*2*3*5 + ...
    [274, 0]
    """
    squares = x * x
    p1, p2, p3, p4 = x.sum(-1), squares.sum(-1), (squares * x).sum(-1), (squares * squares).sum(-1)
    return (p1 * p1 * (p1 * p1 - 6 * p2) + 3 * p2 * p2 + 8 * p1 * p3 - 6 * p4) // 24


def by_family(found: tuple, settles: np.ndarray) -> dict:
    """The settle rows of the atoms arranged for atom_lines: for each of "4", "3", "2" a
    [rank, line] matrix, for "22" a [line, rank, rank] one (pairs r < q), for "1" a [set, line]
    one (the special sets, then any other), each for the suited atoms and for the others."""
    out = {}
    for suited in (True, False):
        rows = {(pattern, ranks): row for (pattern, ranks, s), row in zip(found, settles) if s == suited}
        for pattern in ("4", "3", "2"):
            out[pattern, suited] = np.array([rows[pattern, (r,)] for r in range(13)])
        pairs = np.zeros((settles.shape[1], 13, 13), np.int64)
        for (pattern, ranks), row in rows.items():
            if pattern == "22":
                pairs[:, ranks[0], ranks[1]] = row
        out["22", suited] = pairs
        out["1", suited] = np.array([row for (pattern, _), row in rows.items() if pattern == "1"])
    out["sets"] = [ranks for pattern, ranks, s in found if pattern == "1" and s and ranks]
    return out


def atom_lines(family: dict, n: np.ndarray) -> np.ndarray:
    """[shoe, line] ordered sequences of the first four cards settling each line: the forms of
    the table above for all four cards (rank counts R, N) and in each suit alone (n[., ., s],
    S_s), the suited atoms' summed over the suits and the others' the whole less them, each
    family's atoms weighted by the line they settle (a matrix product over ranks; two pairs as a
    quadratic form in R^(2))."""
    def forms(c, size):  # c [..., rank] counts, size [...] their sum
        f2 = c * (c - 1)
        f3 = f2 * (c - 2)
        other = size[..., None] - c
        squares = (c * c).sum(-1)[..., None] - c * c
        special = 24 * c[..., np.array(family["sets"], np.int64).reshape(-1, 4)].prod(-1)  # [..., set]
        return {"4": f3 * (c - 3), "3": 4 * f3 * other, "2": 6 * f2 * (other * other - squares), "22": f2,
                "1": np.concatenate([special, (24 * elementary4(c) - special.sum(-1))[..., None]], -1)}

    whole = forms(n.sum(2), n.sum((1, 2)))  # [shoe, ...]
    each = forms(np.ascontiguousarray(n.transpose(0, 2, 1)), n.sum(1))  # [shoe, suit, ...]: contiguous, its sums faster
    out = 0
    for pattern in ("4", "3", "2", "1"):
        suited = each[pattern].sum(1)
        out = out + suited @ family[pattern, True] + (whole[pattern] - suited) @ family[pattern, False]
    for pairs, is_suited in ((family["22", True], True), (family["22", False], False)):
        both = quadratic(whole["22"], pairs)
        in_suits = quadratic(each["22"], pairs).sum(1)
        out = out + 6 * (in_suits if is_suited else both - in_suits)
    return out


def quadratic(x: np.ndarray, forms: np.ndarray) -> np.ndarray:
    """[..., k] sum over r, q of x[..., r] forms[k, r, q] x[..., q] for 0/1 forms, x >= 0. In float64
    where x is int64: each partial sum is a count of ordered four-card sequences, at most N^4 <
    2^53 (N <= 1290), so the matrix product is exact; in Python integers otherwise."""
    out = np.zeros((*x.shape[:-1], forms.shape[0]), x.dtype)
    used = np.flatnonzero(forms.any((1, 2)))  # the lines some pair settles: most take none
    if not len(used):
        return out
    flat = forms[used].transpose(1, 0, 2).reshape(13, len(used) * 13)
    if x.dtype == object:
        out[..., used] = ((x @ flat.astype(object)).reshape(*x.shape[:-1], len(used), 13) * x[..., None, :]).sum(-1)
        return out
    y = x.astype(np.float64)
    products = (y @ flat.astype(np.float64)).reshape(*x.shape[:-1], len(used), 13) * y[..., None, :]
    out[..., used] = np.rint(products.sum(-1)).astype(np.int64)
    return out


class FirstFourPoker(ClosedForm):
    """Lines of first_four_poker."""

    def group(self, conditions: tuple, n: np.ndarray, dtype) -> np.ndarray:
        n = n.reshape(len(n), 13, 4).astype(dtype)
        size = n.sum((1, 2))
        rest = (size - 4) * (size - 5)
        return atom_lines(family(conditions), n) * rest[:, None]


# Hands drawn from two disjoint sets of cards
# -------------------------------------------
# A line "the Player's cards all in A and the Banker's all in B" (Contrast Bonus: all red against
# all black), A and B disjoint sets of cards, beside tests of point values alone (the cards dealt,
# the winner, the totals), settles the coups of value cells c = (pt, p3, bt, b3) (two-card totals,
# third cards or none) that its value tests take, and in each such cell the Player's cards are an
# ordered draw from A and the Banker's from B: since no card is in both, the ordered 6-card
# sequences are P_A[pt, p3] B_B[bt, b3] f(c), with f the ordered draws of the 6 - k cards after the
# k dealt ((N-4)(N-5), N-5 or 1), and P_A[pt, p3] the ordered draws of the Player's cards from A:
#
#   T[x, y] = a_x (a_y - [x = y])                                   (a: A's cards of each value)
#   P_A[pt, none] = sum_x T[x, pt - x]                              (all mod 10)
#   P_A[pt, c] = a_c P_A[pt, none] - 2 T[c, pt - c]                 (the third, less the two dealt)
#
# (the last: sum over the head x + y = pt of T[x, y] (a_c - [c = x] - [c = y]), T symmetric). A
# line is then a bilinear form in P_A and B_B per alternative (A, B); alternatives that cannot both
# hold (the Players' sets or the Bankers' disjoint) add up; lines whose value tests take no cell in
# common settle what they hold. Exact: every partial sum counts sequences, at most N^6: float64
# while N <= 455 (N^6 < 2^53; 456 would do, one card to spare), int64 to 1290 cards, Python integers beyond.

FLOAT_CARDS = 455


def hand_pairs(part):
    """[(A, B)]: the alternatives of a test "the Player's cards all in A and the Banker's all in B"
    (or any of several), A and B as 52 booleans; None for any other test."""
    if isinstance(part, AnyOf):
        inner = [hand_pairs(p) for p in part.parts]
        return None if not inner or any(x is None or len(x) != 1 for x in inner) else [x[0] for x in inner]
    if isinstance(part, AllOf):
        every = list(conjuncts(part))
        if len(every) == 2 and all(isinstance(t, GroupEvery) for t in every):
            sets = {t.group: np.array(t.test.member) for t in every}
            if set(sets) == {"player_hand", "banker_hand"}:
                return [(sets["player_hand"], sets["banker_hand"])]
    return None


def conjuncts(condition):
    """The tests that all must hold, through nested all (any other test, a not or an any
    included, is one conjunct as it is)."""
    if isinstance(condition, AllOf):
        for part in condition.parts:
            yield from conjuncts(part)
    else:
        yield condition


def value_cells(tableau):
    """The cells (pt, p3, bt, b3) a coup can end in (10: no third card), as index arrays, with
    their value fields and cards dealt."""
    pt, bt, p3, b3 = np.indices((10, 10, 11, 11)).reshape(4, -1)
    player, banker = draws(tableau, pt, bt, p3)
    keep = ((p3 < 10) == player) & ((b3 < 10) == banker)
    pt, bt, p3, b3 = pt[keep], bt[keep], p3[keep], b3[keep]
    fields = value_fields(pt, bt, np.where(p3 < 10, p3, NONE), np.where(b3 < 10, b3, NONE))
    return pt * 11 + p3, bt * 11 + b3, fields


@lru_cache(maxsize=64)
def hand_set_lines(conditions: tuple, tableau) -> tuple | None:
    """For lines of the shape above: per line, its alternatives [(A, B)] and, per cards dealt k =
    4, 5, 6, the cells it takes as a 0/1 matrix [player's (pt, p3), banker's (bt, b3)]; None where
    the lines are not all of that shape, or may hold together."""
    rows, columns, fields = value_cells(tableau)
    taken = np.zeros(len(rows), bool)
    out = []
    for condition in conditions:
        parts = condition.parts if isinstance(condition, AllOf) else (condition,)
        every = tuple(p for p in parts if isinstance(p, GroupEvery))  # tests on the hands written beside the others
        if every:
            parts = tuple(p for p in parts if not isinstance(p, GroupEvery)) + (AllOf(every),)
        found = [hand_pairs(p) for p in parts]
        if sum(x is not None for x in found) != 1:
            return None
        pairs = next(x for x in found if x is not None)
        if any((a & b).any() for a, b in pairs) or any(
                (a1 & a2).any() and (b1 & b2).any() for i, (a1, b1) in enumerate(pairs) for a2, b2 in pairs[i + 1:]):
            return None  # a card in both hands' sets, or two alternatives that can hold at once
        values = [p for p, x in zip(parts, found) if x is None]
        if any(p.needs().cards for p in values):  # a card read elsewhere (a not of a hand's test, say)
            return None
        try:
            mask = np.ones(len(rows), bool)
            for p in values:
                mask &= p.mask(fields)
        except KeyError:  # a test of pairs or suits of the head: not a value test
            return None
        if (mask & taken).any():
            return None
        taken |= mask
        k = fields["total_cards"]
        forms = np.zeros((3, 110, 110), np.int8)  # [cards dealt - 4, player's cell, banker's cell]
        forms[k[mask] - 4, rows[mask], columns[mask]] = 1
        out.append((tuple((a, b) for a, b in pairs), forms))
    return tuple(out)


def hand_draws(a: np.ndarray) -> np.ndarray:
    """[shoe, pt * 11 + p3] ordered draws of a hand's cards from a set with a[shoe, value] cards
    of each value (p3 = 10: no third card)."""
    ten = np.arange(10)
    pairs = a[:, :, None] * (a[:, None, :] - np.eye(10, dtype=a.dtype))  # T[x, y]
    partner = (ten[:, None] - ten[None, :]) % 10  # [pt, x]: the y with x + y = pt
    head = pairs[:, ten[None, :], partner]  # [shoe, pt, x] = T[x, pt - x]
    two = head.sum(2)  # [shoe, pt]
    three = a[:, None, :] * two[:, :, None] - 2 * head  # [shoe, pt, c]
    return np.concatenate([three, two[:, :, None]], 2).reshape(len(a), 110)


class HandSets(ClosedForm):
    """Lines of hand_set_lines: float64 sums while N <= FLOAT_CARDS (exact, see above)."""

    def group(self, conditions: tuple, n: np.ndarray, dtype) -> np.ndarray:
        if dtype is np.int64 and len(n) and n.sum(1).max() <= FLOAT_CARDS:
            dtype = np.float64
        size = n.sum(1).astype(object if dtype is object else np.int64)
        free = [free_ways(size, 2 - k, size.dtype) for k in range(3)]  # after the 4, 5 or 6 cards dealt
        by_value = KIND_VALUE[None, :] == np.arange(10)[:, None]  # [value, kind]
        lines = hand_set_forms(conditions, self.tableau, dtype)
        out = np.zeros((len(n), len(lines)), size.dtype)
        drawn = {}
        for j, (pairs, forms) in enumerate(lines):
            for a, b in pairs:
                for mask in (a, b):
                    if mask.tobytes() not in drawn:
                        drawn[mask.tobytes()] = hand_draws(class_sums(by_value & mask, n).T).astype(dtype)
                player, banker = drawn[a.tobytes()], drawn[b.tobytes()]
                for k, rows, columns, form in forms:
                    total = ((player[:, rows] @ form) * banker[:, columns]).sum(1)  # the bilinear form, where it is not 0
                    if dtype is np.float64:
                        total = np.rint(total).astype(np.int64)
                    out[:, j] += total * free[k]
        return out


@lru_cache(maxsize=16)  # a line's forms: up to 3 x 110 x 110 float64 (0.3 MB)
def hand_set_forms(conditions: tuple, tableau, dtype) -> tuple:
    """hand_set_lines, each line's forms in ``dtype`` and only those that take a cell, as (cards
    dealt - 4, the Player's cells, the Banker's cells, the form on them): only the rows and
    columns that hold a 1 (Contrast Bonus's 110 x 110 forms on 60 x 70, 62 x 65 and 10 x 10
    cells: a quarter of the products), converted once, not at every evaluation (most of the
    time of one shoe)."""
    def cut(form):
        rows, columns = np.flatnonzero(form.any(1)), np.flatnonzero(form.any(0))
        return rows, columns, form[np.ix_(rows, columns)].astype(dtype)

    return tuple((pairs, tuple((k, *cut(form)) for k, form in enumerate(by_cards) if form.any()))
                 for pairs, by_cards in hand_set_lines(conditions, tableau))


# The ranks' pattern of every card dealt
# ---------------------------------------
# A line that tests only how the ranks of all the cards dealt repeat (``all_cards = { poker =
# ... }`` with n of a kind, two pair, full house or two triplets, any ranks: Lucky Match) holds or
# fails alike on every deal whose ranks repeat in the same pattern (a partition of the 4, 5 or 6
# cards dealt). How many cards are dealt depends on point values alone, so the count is summed
# by the point values of the cards dealt. For a coup of k cards whose values come in counts
# c_0..c_9 (W_k[c] orders of them deal exactly k: value_prefixes), the cards of values 1-9 are of
# one rank each, a count A(c) = prod_v R_v^(c_v) of ordered draws (R: rank counts, x^(e) the
# falling power); the c_0 ten-value cards fall among T, J, Q, K with rank counts d (sum c_0) in
# c_0! / prod d_j! orders, so by the sorted d, a partition lam of c_0:
#
#   count(line) = sum_k (N-k)^(6-k) sum_c W_k[c] A(c) sum_lam [line settles on c's pattern + lam]
#                   * c_0!/prod lam_i! * M_lam,    M_lam = sum of prod_j R_j^(d_j) over the d that sort to lam
#
# (N-k)^(6-k) counting the cards after the k dealt. Every term A M (N-k)^(6-k) and every partial
# sum of terms times their weights counts distinct ordered six-card sequences, at most N^6: exact
# in float64 for N <= 455, in int64 for N <= 1290, in Python integers beyond.

PATTERN_CATEGORIES = frozenset({"pair", "three_of_a_kind", "four_of_a_kind", "five_of_a_kind", "six_of_a_kind",
                                "two_pair", "full_house", "two_triplets"})
TEN_RANKS = (9, 10, 11, 12)  # T, J, Q, K: the ranks of point value 0
FLOAT_CARDS = 455  # N^6 < 2^53 (456 is the largest such N: one card to spare)


def rank_pattern_lines(conditions: tuple) -> bool:
    """Whether these lines test nothing but how the ranks of all the cards dealt repeat."""
    tests = [leaf for condition in conditions for leaf in leaves(condition)]
    return bool(tests) and all(isinstance(t, GroupPoker) and t.group == "all_cards" and t.ranks is None
                               and set(t.categories) <= PATTERN_CATEGORIES for t in tests)


@lru_cache(maxsize=8)
def value_prefixes(tableau) -> dict:
    """k -> (value counts [row, 10], orders [row]): the value counts c_0..c_9 of the k cards of a
    coup that deals exactly k (4, 5, 6), and how many orders of the values in dealing order do
    (value_sequences, counted by their values)."""
    values, dealt = value_sequences(tableau)
    out = {}
    for k in (4, 5, 6):
        counts = (values[dealt == k, :, None] == np.arange(10)).sum(1)  # [order, value]; -1, no card, counts nowhere
        keys, inverse = np.unique(counts @ 7 ** np.arange(10), return_inverse=True)
        orders = np.bincount(inverse.ravel())
        first = np.zeros(len(keys), np.int64)
        first[inverse.ravel()] = np.arange(len(inverse.ravel()))
        out[k] = (counts[first], orders)
    return out


def partitions(n: int, most: int = 4, top: int | None = None) -> list[tuple]:
    """The partitions of n into at most ``most`` parts, largest first.

    >>> partitions(4)
    [(4,), (3, 1), (2, 2), (2, 1, 1), (1, 1, 1, 1)]
    """
    top = n if top is None else top
    if n == 0:
        return [()]
    if most == 0:
        return []
    return [(first,) + rest for first in range(min(n, top), 0, -1) for rest in partitions(n - first, most - 1, first)]


def arrangements(lam: tuple) -> list[tuple]:
    """The distinct ways to give the parts of ``lam`` (and zeros) to the four ten-value ranks."""
    from itertools import permutations

    return sorted(set(permutations(lam + (0,) * (4 - len(lam)))))


@dataclass(frozen=True, eq=False)
class PatternTerms:
    """The sum above, laid out for arrays of shoes: ``levels`` build every product A(c) (degree by
    degree, each its parent times one factor R_v - e: the products' rows in that order, row 0 the
    empty product); each term t takes the product ``rows[t]``, the scale of its group ``group[t]``
    (M_lam (N-k)^(6-k) for the group's ``keys`` (k, lam index)), and ``weights[t, line]``."""

    levels: tuple
    lams: tuple
    keys: tuple
    rows: np.ndarray
    group: np.ndarray
    weights: np.ndarray

    def arrays(self) -> dict:
        """Its arrays, as plancache keeps them."""
        out = {f"parents{i}": parents for i, (parents, _) in enumerate(self.levels)}
        out |= {f"factors{i}": factors for i, (_, factors) in enumerate(self.levels)}
        lams = np.zeros((len(self.lams), 4), np.int64)
        for i, lam in enumerate(self.lams):
            lams[i, :len(lam)] = lam
        return out | {"lams": lams, "keys": np.array(self.keys, np.int64).reshape(-1, 2), "rows": self.rows,
                      "group": self.group, "weights": self.weights}

    @classmethod
    def from_arrays(cls, arrays: dict) -> PatternTerms:
        levels = tuple((arrays[f"parents{i}"], arrays[f"factors{i}"]) for i in range(6))
        lams = tuple(tuple(int(x) for x in row if x) for row in arrays["lams"])
        keys = tuple((int(k), int(j)) for k, j in arrays["keys"])
        return cls(levels, lams, keys, arrays["rows"], arrays["group"], arrays["weights"])

    def checked(self, lines: int) -> PatternTerms:
        """Itself, if its arrays fit together and count ``lines`` lines; else a ValueError (a file
        kept under this name that holds other terms is made again)."""
        products = 1 + sum(len(parents) for parents, _ in self.levels)
        fits = (self.weights.shape == (len(self.rows), lines) and len(self.group) == len(self.rows)
                and all(len(parents) == len(factors) and (parents < products).all() and (factors < 54).all()
                        for parents, factors in self.levels)
                and (self.rows < products).all() and (self.group < len(self.keys)).all()
                and all(k in (4, 5, 6) and j < len(self.lams) for k, j in self.keys))
        if not fits:
            raise ValueError("pattern terms that do not fit these lines")
        return self

    @cached_property
    def ten_ranks(self) -> tuple:
        """(the exponents [arrangement, 4] of the four ten-value ranks' falling powers, the first
        arrangement of each lam): M_lam sums the products over its arrangements."""
        every = [arrangements(lam) for lam in self.lams]
        starts = np.cumsum([0] + [len(a) for a in every[:-1]])
        return np.array([d for a in every for d in a], np.int64).reshape(-1, 4), starts


@lru_cache(maxsize=64)
def pattern_terms(conditions: tuple, tableau) -> PatternTerms:
    """The PatternTerms of these lines under ``tableau``: read from the cache on disk where an
    earlier process kept them (plancache.py), else laid out (a tenth of a second) and kept there."""
    from . import plancache

    return plancache.read_or_made(plancache.key("pattern", conditions, tableau),
                                  lambda arrays: PatternTerms.from_arrays(arrays).checked(len(conditions)),
                                  lambda: laid_out(conditions, tableau))


def laid_out(conditions: tuple, tableau) -> PatternTerms:
    prefixes = value_prefixes(tableau)
    products = {(0,) * 9: 0}  # exponents of the values 1-9 -> row
    levels = []
    for degree in range(1, 7):
        parents, factors = [], []
        for a in sorted(exponent_vectors(degree)):
            v = max(i for i, x in enumerate(a) if x)  # the last value it has: its parent lacks one of it
            parent = a[:v] + (a[v] - 1,) + a[v + 1:]
            products[a] = len(products)
            parents.append(products[parent])
            factors.append(v * 6 + a[v] - 1)  # R_v - (a_v - 1)
        levels.append((np.array(parents, np.int64), np.array(factors, np.int64)))
    lams, keys, settles, terms = [], [], {}, {}
    for k, (counts, orders) in prefixes.items():
        for c, w in zip(counts.tolist(), orders.tolist()):
            a, c0 = tuple(c[1:]), c[0]
            for lam in partitions(c0):
                pattern = tuple(sorted([x for x in a if x] + list(lam), reverse=True))
                if pattern not in settles:
                    settles[pattern] = settled_line(conditions, pattern)
                line = settles[pattern]
                if line < 0:
                    continue
                if lam not in lams:
                    lams.append(lam)
                if (k, lams.index(lam)) not in keys:
                    keys.append((k, lams.index(lam)))
                term = (products[a], keys.index((k, lams.index(lam))))
                terms.setdefault(term, [0] * len(conditions))[line] += w * factorial(c0) // prod(factorial(x) for x in lam)
    order = sorted(terms, key=lambda t: (t[1], t[0]))  # group by group
    return PatternTerms(tuple(levels), tuple(lams), tuple(keys), np.array([t[0] for t in order], np.int64),
                        np.array([t[1] for t in order], np.int64),
                        np.array([terms[t] for t in order], np.int64).reshape(len(order), len(conditions)))


def exponent_vectors(degree: int, parts: int = 9) -> list[tuple]:
    """Every way to write ``degree`` as an ordered sum of ``parts`` whole numbers."""
    if parts == 1:
        return [(degree,)]
    return [(first,) + rest for first in range(degree + 1) for rest in exponent_vectors(degree - first, parts - 1)]


def settled_line(conditions: tuple, pattern: tuple) -> int:
    """The line that settles a deal whose ranks repeat in ``pattern`` (a partition of the cards
    dealt), read off one such deal by the tests' own code; -1 where none does."""
    ranks = [r for r, part in enumerate(pattern) for _ in range(part)]
    kinds = [r * 4 for r in ranks] + [NONE] * (6 - len(ranks))
    fields = {place: np.array([kind], np.int8) for place, kind in zip(PLACES, kinds)}
    hits = [bool(np.asarray(mask).ravel()[0]) for mask in settled_masks(conditions, fields)]
    return hits.index(True) if True in hits else -1


def falling_table(counts: np.ndarray, top: int) -> np.ndarray:
    """[e, ...] the falling powers counts^(e) for e = 0..top."""
    out = [np.ones_like(counts)]
    for e in range(top):
        out.append(out[-1] * (counts - e))
    return np.stack(out)


PATTERN_CELLS = 1 << 17  # products held at once, terms x shoes (1 MB arrays, within a core's cache; see cardcount.CHUNK_CELLS)


class RankPattern(ClosedForm):
    """Lines of rank_pattern_lines."""

    def group(self, conditions: tuple, n: np.ndarray, dtype) -> np.ndarray:
        terms = pattern_terms(conditions, self.tableau)
        ranks = n.reshape(len(n), 13, 4).sum(2)
        if dtype is not object and len(n) and int(ranks.sum(1).max()) <= FLOAT_CARDS:
            dtype = np.float64  # every partial sum a count below 2^53 (see the notes above)
        out = np.zeros((len(n), len(conditions)), np.int64 if dtype is np.float64 else dtype)
        if not len(terms.rows):  # no pattern of ranks settles a line: every count is 0
            return out
        weights = terms.weights.astype(dtype)
        every = ranks.T.astype(dtype)  # [rank, shoe]
        tens = falling_table(every[list(TEN_RANKS)], 6)  # [e, ten rank, shoe]
        d, firsts = terms.ten_ranks
        m = np.add.reduceat(tens[d[:, 0], 0] * tens[d[:, 1], 1] * tens[d[:, 2], 2] * tens[d[:, 3], 3], firsts, 0)
        free = {k: free_ways(every.sum(0), DEGREE - k, dtype) for k in (4, 5, 6)}  # (N-k)^(6-k)
        scales = np.stack([m[j] * free[k] for k, j in terms.keys])  # [group, shoe]: M_lam (N-k)^(6-k), every shoe at once
        step = max(1, PATTERN_CELLS // max(len(terms.rows), 1))
        for start in range(0, len(n), step):
            part = every[:, start:start + step]
            factors = (part[:9, None, :] - np.arange(6)[None, :, None]).reshape(54, -1)  # R_v - e, v = A..9
            products = np.empty((1 + sum(len(parents) for parents, _ in terms.levels), part.shape[1]), dtype)
            products[0], row = 1, 1
            for parents, chosen in terms.levels:  # A(c), degree by degree: a parent's row comes before
                np.multiply(np.take(products, parents, axis=0), np.take(factors, chosen, axis=0),
                            out=products[row:row + len(parents)])  # np.take: faster than indexing
                row += len(parents)
            taken = np.take(products, terms.rows, axis=0)
            taken *= np.take(scales[:, start:start + step], terms.group, axis=0)  # each term times its group's scale
            counts = weights.T @ taken  # [line, shoe]
            out[start:start + step] = np.rint(counts.T) if dtype is np.float64 else counts.T
        return out


def closed_form(groups: tuple, tableau) -> ClosedForm | None:
    """The closed form of these lines (each group a bet's lines), or None where one of them has none."""
    if all(map(first_four_poker, groups)):
        return FirstFourPoker(groups, tableau)
    if all(map(rank_pattern_lines, groups)):
        return RankPattern(groups, tableau)
    if all(hand_set_lines(conditions, tableau) is not None for conditions in groups):
        return HandSets(groups, tableau)
    return None


@lru_cache(maxsize=256)
def one_form(conditions: tuple, tableau) -> ClosedForm | None:
    """closed_form of one bet's lines, kept (a bet too detailed to compile is counted by it), or
    else, as such a bet may be, by the suits and colours of whole hands."""
    form = closed_form((conditions,), tableau)
    if form is None and suit_set_lines(conditions) is not None:
        return SuitSets((conditions,), tableau)
    return form
