"""The exact enumerator: a shoe in, the joint distribution of a coup's outcome out.

Counting basis
--------------
Every count is a number of *ordered sequences of six distinct physical cards* drawn from the shoe,
N(N-1)...(N-5) in all: the published basis. A coup that uses only 4 or 5 cards carries the ways to
draw the unused ones. Cards are dealt Player, Banker, Player, Banker, then third cards.

How the walk is organised
-------------------------
Only the first two cards of each hand (the *head*) matter by rank and suit (pairs, suited hands);
everything after them depends on point values alone. So the walk is done in two exact steps:

1. Head: for every rank of the four head cards (13**4 tuples, vectorised) the number of ordered
   physical card choices, split by whether each hand's two cards share a suit - closed forms with
   the depletion between the hands counted exactly - then folded from ranks to point values.
2. Tail: the third cards. Their weights are products of the *remaining* value counts
   m = V - R (R: the head's values), so summing over heads needs only the head's moments
   sum(H), sum(H * R_x), sum(H * R_x * R_y): the draw-by-draw recursion becomes a few array
   products.

All arithmetic is on integers: numpy int64 while every intermediate provably stays below 2**63
(shoes of up to 1023 cards), Python integers (numpy object arrays) beyond. Brute force over card
permutations (tests/) checks every cell.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field, replace
from functools import lru_cache

import numpy as np

from .cards import Shoe, check_playable
from ..base.errors import BaccaratError, Unsatisfiable, expect
from .knowledge import NOTHING, Knowledge
from ..base.recent import Recent
from .layout import HEAD, KIND_VALUE, NONE, PLACES, POSITION_FIELDS, Detail, Needs, draws, head_flags, representatives, value_fields
from .tableau import PUNTO_BANCO, Tableau

# A hand's first two cards: class index = 2 * pair + suited.
HAND_CLASSES = ("plain", "suited", "pair", "suited pair")


def falling(n: int, k: int) -> int:
    """n (n-1) ... (n-k+1): ordered ways to draw k of n cards.

    >>> falling(416, 6)
    4998398275503360
    """
    result = 1
    for i in range(k):
        result *= n - i
    return result


def free_ways(size: np.ndarray, free: int, dtype) -> np.ndarray:
    """(N-d)(N-d-1)...(N-5), d = 6 - ``free``, for each shoe size N: the ways to fill the free
    positions after the d constrained ones, in ``dtype`` (every partial product at most N**6).

    >>> free_ways(np.array([52, 8]), 2, np.int64).tolist()  # 48 * 47, 4 * 3
    [2256, 12]
    >>> free_ways(np.arange(6, 56), 4, np.float64).tolist() == [falling(n - 2, 4) for n in range(6, 56)]  # the array route
    True
    """
    if len(size) < 16:  # a few shoes (one, analysed): Python integers cost less than array operations
        return np.array([falling(int(x) - (6 - free), free) for x in size.tolist()]).astype(dtype)
    ways = (size - (6 - free)).astype(dtype) if free else np.ones(len(size), dtype)
    for i in range(6 - free + 1, 6):
        ways *= size - i
    return ways


def dtype_for(shoe: Shoe):
    """int64 while N**6 and the few products the walk forms stay below 2**63; else exact objects."""
    return np.int64 if 8 * shoe.size**6 < 2**63 else object


def by_value(x, *axes):
    """Fold each of ``axes``, indexed by rank (A..K), into one indexed by point value (0..9):
    value 0 is the sum over T, J, Q, K, values 1-9 the ranks A-9 as they are."""
    for axis in axes:
        x = np.moveaxis(x, axis, 0)
        folded = np.empty((10,) + x.shape[1:], x.dtype)
        folded[0] = x[9:].sum(0)
        folded[1:] = x[:9]
        x = np.moveaxis(folded, 0, axis)
    return x


def head_counts(shoe: Shoe, dtype=np.int64):
    """H[a, b, c, d, cp, cb]: ordered ways to deal the Player values a, b and the Banker values c, d
    as the four head cards, with hand classes cp and cb (see HAND_CLASSES).

    Counted by rank (the suits only through "how many same-suit pairs"), folded to values before
    the pairs are told apart: a pair has both cards of one rank, so the ways with the Player's
    pair are the rank-level counts on the diagonal r1 = r2 folded alone (and the Banker's on
    r3 = r4), and the ways without a pair are every way less those (inclusion-exclusion). Each
    fold then works on a 13**4 x 4 array, not its 16 classes."""
    n = np.array(shoe.counts, dtype=dtype)  # [rank, suit]
    nr = n.sum(1)
    eye = np.eye(13, dtype=int).astype(dtype)
    d12, d34 = eye[:, :, None, None], eye[None, None, :, :]
    u = eye[:, None, :, None] + eye[None, :, :, None]  # Player cards with the rank of card 3
    w = eye[:, None, None, :] + eye[None, :, None, :]  # Player cards with the rank of card 4
    banker_after = (nr[None, None, :, None] - u) * (nr[None, None, None, :] - w - d34)
    any_suits = nr[:, None, None, None] * (nr[None, :, None, None] - d12) * banker_after
    gram = n @ n.T
    same_suit = gram - np.diag(nr)  # ordered same-suit pairs by ranks (r1, r2)
    player_suited = same_suit[:, :, None, None] * banker_after
    banker_suited = player_suited.transpose(2, 3, 0, 1)
    triple = (n[:, None, None, :] * n[None, :, None, :] * n[None, None, :, :]).sum(-1)
    triple = triple - eye[:, :, None] * gram[:, None, :]  # sum_s n[r1,s](n[r2,s]-d12) n[r3,s]
    both_suited = (
        same_suit[:, :, None, None] * same_suit[None, None, :, :]
        - w * triple[:, :, :, None]
        - u * triple[:, :, None, :]
        + u * (d34 + w) * same_suit[:, :, None, None]
    )
    by_suitedness = np.stack(
        [
            np.stack([any_suits - player_suited - banker_suited + both_suited, banker_suited - both_suited], -1),
            np.stack([player_suited - both_suited, both_suited], -1),
        ],
        -2,
    )  # [r1, r2, r3, r4, player suited?, banker suited?]
    rank = np.arange(13)
    every = by_value(by_suitedness, 0, 1, 2, 3)  # [a, b, c, d, ...]
    player_pair = by_value(by_suitedness[rank, rank], 0, 1, 2)  # [a (= b), c, d, ...]
    banker_pair = by_value(by_suitedness[:, :, rank, rank], 0, 1, 2)  # [a, b, c (= d), ...]
    both_pairs = by_value(by_suitedness[rank, rank][:, rank, rank], 0, 1)  # [a (= b), c (= d), ...]
    v, (a, c) = np.arange(10), np.ix_(range(10), range(10))
    plain, pair = slice(0, 2), slice(2, 4)  # hand classes without and with a pair (see HAND_CLASSES)
    h = np.empty((10, 10, 10, 10, 4, 4), dtype)  # every cell is written below
    h[..., plain, plain] = every
    h[v, v, :, :, plain, plain] -= player_pair  # [a, c, d]: the Player's values a, a
    h[:, :, v, v, plain, plain] -= banker_pair  # [a, b, c]: the Banker's values c, c
    h[a, a, c, c, plain, plain] += both_pairs  # inclusion-exclusion: neither hand a pair
    h[..., pair, plain] = 0
    h[v, v, :, :, pair, plain] = player_pair
    h[a, a, c, c, pair, plain] -= both_pairs  # the Player's pair without the Banker's
    h[..., plain, pair] = 0
    h[:, :, v, v, plain, pair] = banker_pair
    h[a, a, c, c, plain, pair] -= both_pairs
    h[..., pair, pair] = 0
    h[a, a, c, c, pair, pair] = both_pairs
    return h


@dataclass(frozen=True, eq=False)
class Distribution:
    """The joint distribution of a coup: for each cell (a combination of outcome fields), the
    number of ordered 6-card sequences that produce it. ``fields`` maps a field name to an integer
    array aligned with ``sequences``; ``total`` is N(N-1)...(N-5), or with ``knowledge`` the number of
    sequences that agree with it (every count is then of those sequences alone).
    """

    shoe: Shoe | None  # None: the infinite-deck limit
    tableau: Tableau
    total: int
    sequences: np.ndarray  # ordered 6-card sequences in each cell
    fields: dict = field(repr=False)
    knowledge: Knowledge = NOTHING

    def count(self, mask) -> int:
        """Exact number of sequences in the cells selected by ``mask`` (booleans or indices)."""
        return int(self.sequences[mask].sum())


@lru_cache(maxsize=8)
def cells(tableau: Tableau):
    """The grid of cells (two-card totals, third cards, hand classes) and which can occur.

    Which occur, and their fields but the pairs and suits, depend on the totals and third cards
    alone: they are worked out on those 12,100 cells and repeated for the 16 pairs of hand
    classes, the grid's last axes (so the cells keep their order)."""
    pt, bt, p3, b3 = np.indices((10, 10, 11, 11), np.int8).reshape(4, -1)
    p_draws, b_draws = draws(tableau, pt, bt, p3)
    drawn = np.flatnonzero(((p3 < 10) == p_draws) & ((b3 < 10) == b_draws))  # 3,394 of the value cells
    keep = (drawn[:, None] * 16 + np.arange(16)).reshape(-1)  # small: 54,304 cells kept
    pt, bt, p3, b3 = pt[drawn], bt[drawn], np.where(p3 < 10, p3, NONE)[drawn], np.where(b3 < 10, b3, NONE)[drawn]
    fields = {name: np.repeat(field, 16) for name, field in value_fields(pt, bt, p3, b3).items()}
    classes = np.tile(np.arange(16, dtype=np.int8), len(drawn))  # cp * 4 + cb
    cp, cb = classes // 4, classes % 4
    fields |= {"player_pair": cp >= 2, "banker_pair": cb >= 2, "player_suited": cp % 2 == 1, "banker_suited": cb % 2 == 1}
    return keep, fields


def enumerate_coup(shoe: Shoe, tableau: Tableau = PUNTO_BANCO, knowledge: Knowledge = NOTHING) -> Distribution:
    """The exact joint distribution of one coup dealt from ``shoe`` under ``tableau``, given
    ``knowledge`` of its cards (see knowledge.py).

    Its value-level cells read suits only through "same suit or not", so shoes that differ by a
    relabelling of suits share one enumeration (the cache is keyed on suit order); ``shoe`` stays
    the shoe given, for the bets that read suits and colours (:func:`enumerate_cards`).

    Given knowledge, the cells are those of the point values and draws alone (no pair or suit
    flags): every bet is then counted at its own card detail with the same knowledge.

    >>> seen = enumerate_coup(Shoe.decks(8), knowledge=Knowledge.parse(["1=9"]))
    >>> seen.total == 32 * falling(415, 5)
    True
    """
    expect(shoe, Shoe, "a shoe is a Shoe, such as Shoe.decks(8)"), expect(tableau, Tableau, "a tableau is a Tableau")
    expect(knowledge, Knowledge, "known cards are a Knowledge")
    shoe = check_playable(shoe)
    if knowledge:
        dist = enumerate_cards(shoe, tableau, Detail.of(Needs(tableau=True), knowledge))
        if not dist.total:
            raise Unsatisfiable(f"no deal from this shoe agrees with the known cards ({knowledge.describe()})")
        return dist
    return replace(_enumerate(shoe.canonical(), tableau), shoe=shoe)


def possible_coup(shoe: Shoe, tableau: Tableau, knowledge: Knowledge) -> Distribution | None:
    """:func:`enumerate_coup`, or None where no deal from ``shoe`` agrees with ``knowledge``."""
    try:
        return enumerate_coup(shoe, tableau, knowledge)
    except Unsatisfiable:
        return None


@lru_cache(maxsize=32)
def _enumerate(shoe: Shoe, tableau: Tableau) -> Distribution:
    return closed_form(shoe, tableau, dtype_for(shoe))


def closed_form(shoe: Shoe, tableau: Tableau, dtype) -> Distribution:
    """The value-level enumeration itself, uncached, by closed forms rather than a walk over the
    draws (see "How the walk is organised" above), with integer arrays of ``dtype`` (np.int64 or
    object)."""
    g = head_counts(shoe, dtype)
    pt, bt = np.arange(10)[:, None, None, None], np.arange(10)[None, :, None, None]
    a, c = np.arange(10)[None, None, :, None], np.arange(10)[None, None, None, :]
    g = g[a, (pt - a) % 10, c, (bt - c) % 10]  # [pt, bt, a, c, cp, cb]: by two-card totals
    h0 = g.sum((2, 3))  # [pt, bt, cp, cb]
    pa, ba = g.sum(3), g.sum(2)  # [pt, bt, x, cp, cb]: Player's / Banker's first card is x
    h1 = 2 * (pa + ba)  # sum of H * R_x (each hand's two cards are exchangeable)
    v = np.array(shoe.value_counts(), dtype=dtype)
    rest = shoe.size - 4
    m1 = v[None, None, :, None, None] * h0[:, :, None] - h1  # sum of H * m_x
    grid = np.zeros((10, 10, 11, 11, 4, 4), dtype=dtype)
    grid[:, :, 10, 10] = rest * (rest - 1) * h0  # nobody draws: two free cards
    grid[:, :, 10, :10] = (rest - 1) * m1  # the Banker alone draws y: one free card
    grid[:, :, :10, 10] = (rest - 1) * m1  # the Player alone draws x: one free card
    # Both draw: sum of H * m_x (m_y - [x == y]) = m2 - [x == y] m1, where m2 = sum of H m_x m_y =
    # v_x v_y h0 - v_x h1_y - v_y h1_x + h2, and h2 = sum of H R_x R_y over the ordered pairs of
    # head positions = 4 (g + g^T) (a card of each hand) + 2 [x + y = pt] pa + 2 [x + y = bt] ba
    # (the two cards of one hand) + [x == y] h1 (a position with itself). Written into the grid
    # term by term, each term on a diagonal added there alone: one array of the grid's size at a time.
    both = grid[:, :, :10, :10]  # [pt, bt, x, y, cp, cb]
    np.add(g, g.transpose(0, 1, 3, 2, 4, 5), out=both)
    both *= 4
    term = np.empty_like(g)
    both += np.multiply(np.multiply.outer(v, v)[None, None, :, :, None, None], h0[:, :, None, None], out=term)
    both -= np.multiply(v[None, None, :, None, None, None], h1[:, :, None, :], out=term)
    both -= np.multiply(v[None, None, None, :, None, None], h1[:, :, :, None], out=term)
    x, t = np.arange(10), np.arange(10)[:, None]  # t: a two-card total
    both[:, :, x, x] += h1 - m1  # [x == y] (h1 - m1)
    both[t, :, x, (t - x) % 10] += 2 * pa[t, :, x]  # [pt, x, bt, ...]: the Player's two cards x, pt - x
    both[:, t, x, (t - x) % 10] += 2 * ba[:, t, x]  # [pt, bt, x, ...]: the Banker's two cards x, bt - x
    keep, fields = cells(tableau)
    counts = grid.reshape(-1)[keep]
    if dtype is not object:
        counts = counts.astype(np.int64)
    return Distribution(shoe, tableau, falling(shoe.size, 6), counts, fields)


def enumerate_cards(shoe: Shoe, tableau: Tableau, detail: Detail) -> Distribution:
    """The exact joint distribution of one coup at a card ``detail`` (see layout.Detail): one
    cell for each combination of card classes at the places read (and of the draws, when the
    tableau matters), with ``fields[place]`` the kind of a card of that class (-1: no card)
    beside the value-level fields. Counts are on the same ordered 6-card basis as
    :func:`enumerate_coup`, so every total agrees with it.

    >>> from analyzer.game.layout import Detail, Needs
    >>> dist = enumerate_cards(Shoe.decks(1), PUNTO_BANCO, Detail.of(Needs(frozenset({"player_1"}))))
    >>> dist.total == falling(52, 6) == int(dist.sequences.sum())
    True
    """
    shoe = check_playable(shoe)
    n = np.array([c for row in shoe.counts for c in row], dtype=object)  # by kind, rank * 4 + suit
    splits = (detail.split(detail.tableau, range(1, 7)),) + ((detail.split(True, (5, 6)),) if detail.tableau else ())
    key = (tableau, detail, shoe.size) + tuple(tuple(class_counts(n, split)) for split in splits)
    dist = CARD_CACHE.kept(key, lambda: _enumerate_cards(shoe, tableau, detail))
    return dist if dist.shoe == shoe else replace(dist, shoe=shoe)


# The walk's output depends on the shoe only through its cards of each class (and its size), so
# two shoes that differ only within a class - one less heart or one less diamond, to a bet on
# colours - share one enumeration. Kept: the details a report asks of its last few shoes.
CARD_CACHE = Recent(4_000_000, size=lambda dist: len(dist.sequences))  # about 100 MB of counts


def _enumerate_cards(shoe: Shoe, tableau: Tableau, detail: Detail) -> Distribution:
    n = np.array([c for row in shoe.counts for c in row], dtype=object)  # by kind, rank * 4 + suit
    dtype = dtype_for(shoe)
    if detail.tableau:
        kinds, counts, value_cells = card_walk(n, tableau, detail, dtype)
    else:
        kinds, counts = head_walk(n, detail, dtype)
        value_cells = {}
    laid = {place: kinds[:, i] for i, place in enumerate(PLACES)} | value_cells
    laid |= {name: kinds[:, len(PLACES) + i] for i, name in enumerate(POSITION_FIELDS[4:])}
    fields = shared_fields(laid, tableau, detail)
    if fields is laid:  # a layout not seen lately: its pair and suited flags
        fields |= {name: flag for name, flag in head_flags(kinds[:, :len(PLACES)]).items()
                   if detail.tells("rank" if name.endswith("pair") else "suit")}
    if dtype is not object:
        counts = counts.astype(np.int64)
    total = int(counts.sum()) if detail.knowledge else falling(shoe.size, 6)
    return Distribution(shoe, tableau, total, counts, fields, detail.knowledge)


LAYOUTS = Recent(8_000_000, size=lambda fields: len(fields["player_1"]))  # (tableau, detail, cells) -> fields


def shared_fields(fields: dict, tableau: Tableau, detail: Detail) -> dict:
    """``fields``, or the equal fields of an earlier enumeration (another shoe, same detail): the
    walks lay cells out alike wherever the shoes have the same classes of cards live (a full shoe
    and one with a card removed, most often), and what is derived from the fields alone - the card
    tests' profiles, each bet's masks (layout.memo) - is then computed once for all of them."""
    key = (tableau, detail, len(fields["player_1"]))
    earlier = LAYOUTS.get(key)
    if earlier is not None and all(np.array_equal(earlier[name], array) for name, array in fields.items()):
        return earlier
    return LAYOUTS.put(key, fields)


def live_classes(n: np.ndarray, detail: Detail, classes, dtype):
    """The classes of ``classes`` (a refinement of the detail's) that the shoe holds cards of:
    their card counts, a representative kind of each, and for each position 1-6 whether its
    card may be of that class. The walks number classes this way: empty ones never occur."""
    counts = class_counts(n, classes)
    live = np.flatnonzero(counts)
    rep = representatives(classes)[live]
    allowed = [np.array(detail.knowledge.allowed(p))[rep] for p in range(1, 7)]
    return counts[live].astype(dtype), rep, allowed


def class_counts(n: np.ndarray, classes) -> np.ndarray:
    """Cards of each class: n summed over the kinds of each class (Python integers)."""
    out = np.zeros(max(classes) + 1, dtype=object)
    np.add.at(out, np.asarray(classes), n)
    return out


def class_sums(sets: np.ndarray, n: np.ndarray) -> np.ndarray:
    """[set, shoe]: the cards of each set's kinds (``sets`` [set, kind], booleans) in each shoe
    n[shoe, kind]. For many int64 shoes, by one float64 product (BLAS; numpy multiplies integer
    matrices with no BLAS, ten times slower): every partial sum is a count of cards of one shoe,
    far below 2**53, so exact; for a few shoes (where converting costs more than it saves) and
    Python integers, in n's own integers.

    >>> class_sums(np.array([[True, False, True]]), np.array([[3, 5, 7], [1, 1, 1]])).tolist()
    [[10, 2]]
    """
    if n.dtype == object or len(n) < 32:
        return sets @ n.T
    return (sets.astype(np.float64) @ n.T.astype(np.float64)).astype(np.int64)


def draw_factors(tuples: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """For each row of class indices (cards dealt in order), the ordered ways to deal them:
    the product over positions of (cards of that class) - (earlier cards of the same class)."""
    weight = np.ones(len(tuples), dtype=counts.dtype)
    for i in range(tuples.shape[1]):
        earlier = (tuples[:, :i] == tuples[:, i:i + 1]).sum(1)
        weight = weight * (counts[tuples[:, i]] - earlier)
    return weight


@lru_cache(maxsize=64)  # read-only: shared by every shoe of a batch
def sorted_tuples(k: int, length: int) -> np.ndarray:
    """Every non-decreasing tuple of ``length`` classes out of k (the multisets), in order.

    >>> sorted_tuples(3, 2).tolist()
    [[0, 0], [0, 1], [0, 2], [1, 1], [1, 2], [2, 2]]
    """
    rows = np.arange(k)[:, None]
    for _ in range(length - 1):
        last = rows[:, -1]
        reps = k - last
        start = np.repeat(np.cumsum(reps) - reps, reps)
        rows = np.column_stack([np.repeat(rows, reps, axis=0), np.repeat(last, reps) + np.arange(reps.sum()) - start])
    rows.flags.writeable = False
    return rows


@lru_cache(maxsize=64)  # read-only, as sorted_tuples
def orderings(k: int, length: int) -> np.ndarray:
    """For each of sorted_tuples(k, length), the number of distinct orders of its entries (a
    multinomial).

    >>> orderings(3, 2).tolist()
    [1, 2, 2, 1, 2, 1]
    """
    tuples = sorted_tuples(k, length)
    out = np.full(len(tuples), math.factorial(tuples.shape[1]), dtype=np.int64)
    for i in range(tuples.shape[1]):
        out //= 1 + (tuples[:, :i] == tuples[:, i:i + 1]).sum(1)  # exact: divides the running product of t!
    return out


MAX_CELLS = 12_000_000  # bounds the memory of a card-level walk (52**4 heads fit; about 1 GB at most)


def head_walk(n: np.ndarray, detail: Detail, dtype):
    """A coup read only at head places, draws ignored, and at the positions known or revealed:
    the classes at the places read, each combination weighted by its ordered deals times the
    ways to deal the other cards (in any order: every count is of ordered distinct cards).

    A position known but not read is dealt after the places read, by *atom* (cards that agree
    alike with everything known): the cards of an atom left are its count less the earlier
    cards of that atom, so it needs no finer class."""
    followed = {p - 1 for p in detail.positions}
    read = sorted({i for i, place in enumerate(HEAD) if place in detail.places} | {p - 1 for p in detail.revealed})
    counts, rep, allowed = live_classes(n, detail, detail.split(False, range(1, 7)), dtype)
    k = len(counts)
    if not read:
        tuples, weight = np.zeros((1, 0), np.int64), np.ones(1, dtype)
    elif detail.symmetry == "head" and not followed & set(read):
        tuples = sorted_tuples(k, len(read))
        weight = draw_factors(tuples, counts) * orderings(k, len(read)).astype(dtype)
    else:
        check_size(k ** len(read), k)
        tuples = np.indices((k,) * len(read), dtype=np.int8).reshape(len(read), -1).T  # at most 52 classes
        weight = draw_factors(tuples, counts)
        for j, p in enumerate(read):
            weight = weight * allowed[p][tuples[:, j]]
    unread = sorted(followed - set(read))
    if unread:
        atom = np.unique(np.stack([allowed[p] for p in unread], 1), axis=0, return_inverse=True)[1].reshape(-1).astype(np.int8)
        atom_counts = np.zeros(atom.max() + 1, dtype)
        np.add.at(atom_counts, atom, counts)
        dealt = atom[tuples]  # [row, earlier card]: the atom of each card dealt so far
        for p in unread:
            choices = np.unique(atom[allowed[p]])
            check_size(len(tuples) * len(choices), k)
            rows = np.repeat(np.arange(len(tuples)), len(choices))
            a = np.tile(choices, len(tuples)).astype(np.int8)
            weight = weight[rows] * (atom_counts[a] - (dealt[rows] == a[:, None]).sum(1))
            tuples, dealt = tuples[rows], np.column_stack([dealt[rows], a])
    keep = weight != 0
    tuples, weight = tuples[keep], weight[keep]
    kinds = np.full((len(tuples), len(PLACES) + 2), NONE, np.int8)
    kinds[:, [p if p < len(HEAD) else p + 2 for p in read]] = rep[tuples]
    dealt_now = len(read) + len(unread)
    return kinds, weight * falling(int(n.sum()) - dealt_now, 6 - dealt_now)


class TooMuchDetail(BaccaratError):
    """Counting would take more cells (or rows) than the bound on its memory: refused before the walk."""


def check_size(cells: int, k: int):
    if cells > MAX_CELLS:
        raise TooMuchDetail(f"too much card detail at once ({k} card classes): ask for fewer card attributes "
                            "(rank and suit together), fewer places, or fewer cards known or watched")


def card_walk(n: np.ndarray, tableau: Tableau, detail: Detail, dtype):
    """A coup read through its draws: every head of four card classes (classes split by value,
    so the tableau can be applied), grouped by the two-card totals and what the conditions read
    of the head; then the fifth and sixth cards, whose weights need only each group's sums of H,
    H R_e and H R_e R_f (R_e: head cards of class e), as in :func:`closed_form`.

    The fifth and sixth cards are followed class by class where a hand takes them or where they
    are known or revealed; elsewhere they are free and counted at once. The head's classes are
    split by everything known; the tail's only by what is known of the fifth and sixth cards
    (a head card counts in the tail's class that holds its own)."""
    return walk_tails(n, tableau, detail, dtype, walk_heads(n, detail, dtype))


@dataclass(frozen=True)
class Heads:
    """The heads of a card walk, grouped (:func:`walk_heads`): what :func:`walk_tails` reads."""

    counts: np.ndarray  # cards left of each tail class
    rep: np.ndarray  # a kind of each tail class
    tail_allowed: list  # the classes each place allows
    heads: np.ndarray  # each head's four cards by their tail classes
    weight: np.ndarray  # the ordered ways of each head
    group: np.ndarray  # each head's group
    groups: np.ndarray  # [pt, bt, the four head classes read] of each group
    h0: np.ndarray  # each group's sum of H
    h1: np.ndarray  # each group's sums of H R_e


def walk_heads(n: np.ndarray, detail: Detail, dtype) -> Heads:
    """Every head of four card classes with its ways, grouped by the two-card totals and what
    the conditions read of it, with each group's sums the tails need."""
    head_counts_, head_rep, allowed = live_classes(n, detail, detail.split(True, range(1, 7)), dtype)
    counts, rep, tail_allowed = live_classes(n, detail, detail.split(True, (5, 6)), dtype)
    k = len(counts)
    tail_label = np.array(detail.split(True, (5, 6)))
    tail_index = np.full(tail_label.max() + 1, -1)
    tail_index[tail_label[rep]] = np.arange(k)
    feature = np.array(detail.classes)[head_rep]
    check_size(len(head_counts_) ** 4, len(head_counts_))
    heads = np.indices((len(head_counts_),) * 4, dtype=np.int8).reshape(4, -1).T  # at most 52 classes
    weight = draw_factors(heads, head_counts_)
    for i in range(4):
        weight = weight * allowed[i][heads[:, i]]
    heads, weight = heads[weight != 0], weight[weight != 0]
    head_value = KIND_VALUE[head_rep]
    pt, bt = (head_value[heads[:, 0]] + head_value[heads[:, 2]]) % 10, (head_value[heads[:, 1]] + head_value[heads[:, 3]]) % 10
    seen = feature[heads]  # what the tests read of the head cards
    heads = tail_index[tail_label[head_rep]].astype(np.int8)[heads]  # from here on, the head cards by the tail's classes
    if detail.symmetry == "head":
        seen = np.sort(seen, 1)
    elif detail.symmetry == "hands":
        seen = np.stack([np.minimum(seen[:, 0], seen[:, 2]), np.minimum(seen[:, 1], seen[:, 3]),
                         np.maximum(seen[:, 0], seen[:, 2]), np.maximum(seen[:, 1], seen[:, 3])], 1)
    base = int(feature.max()) + 1
    key = (pt * 10 + bt).astype(np.int64)
    for i in range(4):
        key = key * base + seen[:, i]
    codes, group = np.unique(key, return_inverse=True)
    g = len(codes)
    groups = np.empty((g, 6), np.int64)  # [pt, bt, the four head classes read]
    for i in range(5, 1, -1):
        codes, groups[:, i] = np.divmod(codes, base)
    groups[:, 0], groups[:, 1] = np.divmod(codes, 10)
    h0 = np.zeros(g, dtype)
    np.add.at(h0, group, weight)
    h1 = np.zeros((g, k), dtype)
    for i in range(4):
        np.add.at(h1, (group, heads[:, i]), weight)
    return Heads(counts, rep, tail_allowed, heads, weight, group, groups, h0, h1)


def walk_tails(n: np.ndarray, tableau: Tableau, detail: Detail, dtype, head: Heads):
    """The fifth and sixth cards after each group of heads: (kinds, count, fields) of every row."""
    counts, rep, tail_allowed, heads, weight, group, groups, h0, h1 = (
        head.counts, head.rep, head.tail_allowed, head.heads, head.weight, head.group, head.groups, head.h0, head.h1)
    k, value, allowed = len(counts), KIND_VALUE[rep], [None] * 4 + tail_allowed[4:]
    gp, gb = groups[:, 0], groups[:, 1]
    rest = int(n.sum()) - 4
    follow5, follow6 = 5 in detail.positions, 6 in detail.positions
    player, banker_alone = draws(tableau, gp, gb, 0)
    banker_alone &= ~player  # the Banker draws after the Player stood

    # the fifth card: followed where a hand takes it or it is known; else free (e5 = NONE)
    fifth = player | banker_alone | follow5
    free = np.flatnonzero(~fifth)
    gs = np.concatenate([free, np.repeat(np.flatnonzero(fifth), k)])
    e5 = np.concatenate([np.full(len(free), NONE), np.tile(np.arange(k), int(fifth.sum()))])
    keep = (e5 < 0) | allowed[4][e5]
    gs, e5 = gs[keep], e5[keep]
    p = player[gs]
    b = np.where(p, draws(tableau, gp[gs], gb[gs], value[e5])[1], banker_alone[gs])

    # the sixth card: followed where the Banker takes it after the Player, or it is known
    sixth = (p & b) | follow6
    check_size(int(sixth.sum()) * k, k)
    one = np.flatnonzero(~sixth)
    two = np.repeat(np.flatnonzero(sixth), k)
    e6 = np.tile(np.arange(k), int(sixth.sum()))
    keep = allowed[5][e6]
    two, e6 = two[keep], e6[keep]
    gs, e5, p, b = (np.concatenate([x[one], x[two]]) for x in (gs, e5, p, b))
    e6 = np.concatenate([np.full(len(one), NONE), e6])
    count = tail_counts(gs, e5, e6, counts, h0, h1, heads, group, weight, rest, dtype)
    nonzero = count != 0
    gs, e5, e6, p, b, count = gs[nonzero], e5[nonzero], e6[nonzero], p[nonzero], b[nonzero], count[nonzero]
    third_p = np.where(p, e5, NONE)
    third_b = np.where(p, np.where(b, e6, NONE), np.where(b, e5, NONE))
    kind_of = np.append(rep, NONE).astype(np.int8)  # by class; index -1: no card
    kinds = np.empty((len(gs), len(PLACES) + 2), np.int8)
    kinds[:, :4] = representatives(detail.classes)[groups[gs, 2:]]  # by the classes the tests read
    kinds[:, 4], kinds[:, 5], kinds[:, 6], kinds[:, 7] = kind_of[third_p], kind_of[third_b], kind_of[e5], kind_of[e6]
    value_of = np.append(value, NONE).astype(np.int8)
    fields = value_fields(gp[gs].astype(np.int8), gb[gs].astype(np.int8), value_of[third_p], value_of[third_b])
    return kinds, count, fields




def tail_counts(gs, e5, e6, counts, h0, h1, heads, group, weight, rest, dtype):
    """For each row (group, fifth card class, sixth card class; NONE: free), the number of
    sequences: the sum over the group's heads H of m_e5 (m_e6 - [e5 == e6]), m_e = counts[e] -
    R_e the cards of class e left after the head; a free card counts every card left."""
    out = np.zeros(len(gs), dtype)
    c5, c6 = counts[np.maximum(e5, 0)], counts[np.maximum(e6, 0)]
    m5 = c5 * h0[gs] - h1[gs, np.maximum(e5, 0)]  # sum of H m_e5
    m6 = c6 * h0[gs] - h1[gs, np.maximum(e6, 0)]
    neither, only5, only6, both = (e5 < 0) & (e6 < 0), (e5 >= 0) & (e6 < 0), (e5 < 0) & (e6 >= 0), (e5 >= 0) & (e6 >= 0)
    out[neither] = h0[gs[neither]] * rest * (rest - 1)
    out[only5] = m5[only5] * (rest - 1)
    out[only6] = m6[only6] * (rest - 1)
    if both.any():  # sum of H R_e5 R_e6 over the ordered pairs of head positions, for the groups needed
        at = np.full(int(group.max()) + 1, -1)
        at[gs[both]] = 0
        needed = np.flatnonzero(at == 0)  # the groups needed, in order (a sort would cost more)
        at[needed] = np.arange(len(needed))
        row_of = at[gs[both]]
        sel = at[group] >= 0
        rows = at[group[sel]]
        check_size(len(needed) * len(counts) ** 2, len(counts))
        pairs = np.zeros((len(needed), len(counts), len(counts)), dtype)  # sum of H over head positions i < j of class e, f
        for i, j in itertools.combinations(range(4), 2):
            np.add.at(pairs, (rows, heads[sel, i], heads[sel, j]), weight[sel])
        x, y, gb_ = e5[both], e6[both], gs[both]
        h2 = pairs[row_of, x, y] + pairs[row_of, y, x] + (x == y) * h1[gb_, x]  # sum of H R_x R_y
        out[both] = (c5[both] * c6[both] * h0[gb_] - c5[both] * h1[gb_, y] - c6[both] * h1[gb_, x]
                     + h2 - (x == y) * m5[both])
    return out


DECK_KINDS = 52


def infinite_deck(tableau: Tableau = PUNTO_BANCO, knowledge: Knowledge = NOTHING) -> Distribution:
    """The limit of the distribution as the number of decks grows without end: each card one of
    the 52 kinds with probability 1/52, as if dealt with replacement. ``total`` is 52**6 and each
    cell counts the sequences of six card kinds (with repeats) that produce it.

    Computed exactly from the enumerator: on a shoe of d decks each cell's count is a sum of
    products of six factors k*d - j, a polynomial in d of degree at most 6 with integer
    coefficients, and its d**6 coefficient is the limit's count (the total's is 52**6). That
    coefficient is the sixth finite difference of the counts at d = 1..7, divided by 6!.

    Given ``knowledge``, the cards are independent in the limit, so the total is 52**6 times the
    share of the kinds allowed at each position; the distribution then has no cells of its own
    and each bet is counted at its card detail (counts.infinite_card_counts).

    >>> limit = infinite_deck()
    >>> limit.total == 52**6, int(limit.sequences.sum()) == limit.total
    (True, True)
    >>> infinite_deck(knowledge=Knowledge.parse(["1=6-9"])).total == 16 * 52**5
    True
    """
    if knowledge:
        total = math.prod(sum(knowledge.allowed(p)) for p in range(1, 7))
        return Distribution(None, tableau, total, np.zeros(0, np.int64), {}, knowledge)
    return _infinite_deck(tableau)


@lru_cache(maxsize=8)
def _infinite_deck(tableau: Tableau) -> Distribution:
    counts = [enumerate_coup(Shoe.decks(d), tableau).sequences.astype(object) for d in range(1, 8)]
    sixth_difference = sum((-1) ** (6 - k) * math.comb(6, k) * counts[k] for k in range(7))
    leading = sixth_difference // math.factorial(6)
    assert (leading * math.factorial(6) == sixth_difference).all(), "cell counts are integer polynomials in d"
    return Distribution(None, tableau, DECK_KINDS**6, leading.astype(np.int64), cells(tableau)[1])
