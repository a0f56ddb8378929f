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

import math
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from .cards import Shoe, check_playable
from .tableau import PUNTO_BANCO, STOOD, Tableau

NONE = -1  # third-card value of a hand that took no third card

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


def dtype_for(shoe: Shoe):
    """int64 while N**6 and the few products the walk forms stay below 2**63; else exact objects."""
    return np.int64 if 8 * shoe.size**6 < 2**63 else object


def by_value(x, axis):
    """Fold an axis indexed by rank (A..K) into one indexed by point value (0..9)."""
    return np.concatenate([x.take(range(9, 13), axis).sum(axis, keepdims=True), x.take(range(9), axis)], axis)


def head_counts(shoe: Shoe, dtype=np.int64):
    """H[a, b, c, d, cp, cb]: ordered ways to deal the Player values a, b and the Banker values c, d
    as the four head cards, with hand classes cp and cb (see HAND_CLASSES)."""
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
    )  # [..., player suited?, banker suited?]
    pair = eye.astype(bool)
    player_class = np.stack([~pair, ~pair, pair, pair], -1)[:, :, None, None, :, None]
    banker_class = np.stack([~pair, ~pair, pair, pair], -1)[None, None, :, :, None, :]
    suited = [0, 1, 0, 1]
    h = by_suitedness[..., suited, :][..., suited] * player_class * banker_class
    for axis in range(4):
        h = by_value(h, axis)
    return h


@dataclass(frozen=True, eq=False)
class Distribution:
    """The joint distribution of a coup: for each cell (a combination of outcome fields), the
    number of ordered 6-card sequences that produce it. ``fields`` maps a field name to an integer
    array aligned with ``counts``; ``total`` is N(N-1)...(N-5).
    """

    shoe: Shoe | None  # None: the infinite-deck limit
    tableau: Tableau
    total: int
    counts: np.ndarray
    fields: dict = field(repr=False)

    def count(self, mask) -> int:
        """Exact number of sequences in the cells selected by ``mask`` (booleans or indices)."""
        return int(self.counts[mask].sum())


@lru_cache(maxsize=8)
def cells(tableau: Tableau):
    """The grid of cells (two-card totals, third cards, hand classes) and which can occur."""
    pt, bt, p3, b3, cp, cb = np.indices((10, 10, 11, 11, 4, 4)).reshape(6, -1)
    player_draws = np.array(tableau.player_draws)
    banker_draws = np.array(tableau.banker_draws)
    natural = (pt >= 8) | (bt >= 8)
    p_draws = ~natural & player_draws[pt]
    b_draws = ~natural & banker_draws[bt, np.where(p_draws, p3, STOOD)]
    possible = ((p3 < 10) == p_draws) & ((b3 < 10) == b_draws)
    p3v = np.where(p3 < 10, p3, NONE)
    b3v = np.where(b3 < 10, b3, NONE)
    keep = np.flatnonzero(possible)
    take = lambda a: a[keep]  # noqa: E731
    player_total = (pt + np.maximum(p3v, 0)) % 10
    banker_total = (bt + np.maximum(b3v, 0)) % 10
    fields = {
        "player_total": player_total,
        "banker_total": banker_total,
        "player_two_card_total": pt,
        "banker_two_card_total": bt,
        "player_third": p3v,
        "banker_third": b3v,
        "player_cards": 2 + (p3 < 10),
        "banker_cards": 2 + (b3 < 10),
        "player_natural": (pt >= 8) & (p3 == 10),
        "banker_natural": (bt >= 8) & (b3 == 10),
        "player_pair": cp >= 2,
        "banker_pair": cb >= 2,
        "player_suited": cp % 2 == 1,
        "banker_suited": cb % 2 == 1,
        "winner": np.sign(player_total - banker_total),  # 1 Player, -1 Banker, 0 tie
    }
    fields["margin"] = np.abs(player_total - banker_total)
    fields["natural"] = fields["player_natural"] | fields["banker_natural"]
    fields["total_cards"] = fields["player_cards"] + fields["banker_cards"]
    return keep, {name: take(values) for name, values in fields.items()}


def enumerate_coup(shoe: Shoe, tableau: Tableau = PUNTO_BANCO) -> Distribution:
    """The exact joint distribution of one coup dealt from ``shoe`` under ``tableau``.

    Suits only matter through "same suit or not", so shoes that differ by a relabelling of suits
    have the same distribution: they share one enumeration (the cache is keyed on suit order).
    """
    return _enumerate(check_playable(shoe).canonical(), tableau)


@lru_cache(maxsize=32)
def _enumerate(shoe: Shoe, tableau: Tableau) -> Distribution:
    return walk(shoe, tableau, dtype_for(shoe))


def walk(shoe: Shoe, tableau: Tableau, dtype) -> Distribution:
    """The enumeration itself, uncached, with integer arrays of ``dtype`` (np.int64 or object)."""
    g = head_counts(shoe, dtype)
    pt, bt = np.arange(10)[:, None, None, None], np.arange(10)[None, :, None, None]
    a, c = np.arange(10)[None, None, :, None], np.arange(10)[None, None, None, :]
    g = g[a, (pt - a) % 10, c, (bt - c) % 10]  # [pt, bt, a, c, cp, cb]: by two-card totals
    h0 = g.sum((2, 3))  # [pt, bt, cp, cb]
    pa, ba = g.sum(3), g.sum(2)  # [pt, bt, x, cp, cb]: Player's / Banker's first card is x
    h1 = 2 * (pa + ba)  # sum of H * R_x (each hand's two cards are exchangeable)
    x, y = np.arange(10)[:, None], np.arange(10)[None, :]
    eye = (x == y).astype(int)[None, None, :, :, None, None]
    player_pair_xy = ((x + y) % 10 == np.arange(10)[:, None, None])[:, None, :, :, None, None]
    banker_pair_xy = ((x + y) % 10 == np.arange(10)[:, None, None])[None, :, :, :, None, None]
    h2 = (  # sum of H * R_x * R_y, over the ordered pairs of head positions
        eye * h1[:, :, :, None]
        + 2 * player_pair_xy * pa[:, :, :, None]
        + 2 * banker_pair_xy * ba[:, :, :, None]
        + 4 * (g + g.transpose(0, 1, 3, 2, 4, 5))
    )
    v = np.array(shoe.value_counts(), dtype=dtype)
    vx, vy = v[None, None, :, None, None, None], v[None, None, None, :, None, None]
    rest = shoe.size - 4
    m1 = v[None, None, :, None, None] * h0[:, :, None] - h1  # sum of H * m_x
    m2 = vx * vy * h0[:, :, None, None] - vx * h1[:, :, None, :] - vy * h1[:, :, :, None] + h2
    grid = np.zeros((10, 10, 11, 11, 4, 4), dtype=dtype)
    grid[:, :, 10, 10] = rest * (rest - 1) * h0  # nobody draws: two free cards
    grid[:, :, 10, :10] = (rest - 1) * m1  # the Banker alone draws y: one free card
    grid[:, :, :10, 10] = (rest - 1) * m1  # the Player alone draws x: one free card
    grid[:, :, :10, :10] = m2 - eye * m1[:, :, :, None]  # both draw: m_x (m_y - [x == y])
    keep, fields = cells(tableau)
    counts = grid.reshape(-1)[keep]
    if dtype is not object:
        counts = counts.astype(np.int64)
    return Distribution(shoe, tableau, falling(shoe.size, 6), counts, fields)


DECK_KINDS = 52


def infinite_deck(tableau: Tableau = PUNTO_BANCO) -> Distribution:
    """The limit of the distribution as the number of decks grows without end: each card one of
    the 52 kinds with probability 1/52, as if dealt with replacement. ``total`` is 52**6 and each
    cell counts the sequences of six card kinds (with repeats) that produce it.

    Computed exactly from the enumerator: on a shoe of d decks each cell's count is a sum of
    products of six factors k*d - j, a polynomial in d of degree at most 6 with integer
    coefficients, and its d**6 coefficient is the limit's count (the total's is 52**6). That
    coefficient is the sixth finite difference of the counts at d = 1..7, divided by 6!.

    >>> limit = infinite_deck()
    >>> limit.total == 52**6, int(limit.counts.sum()) == limit.total
    (True, True)
    """
    return _infinite_deck(tableau)


@lru_cache(maxsize=8)
def _infinite_deck(tableau: Tableau) -> Distribution:
    counts = [enumerate_coup(Shoe.decks(d), tableau).counts.astype(object) for d in range(1, 8)]
    sixth_difference = sum((-1) ** (6 - k) * math.comb(6, k) * counts[k] for k in range(7))
    leading = sixth_difference // math.factorial(6)
    assert (leading * math.factorial(6) == sixth_difference).all(), "cell counts are integer polynomials in d"
    return Distribution(None, tableau, DECK_KINDS**6, leading.astype(np.int64), cells(tableau)[1])
