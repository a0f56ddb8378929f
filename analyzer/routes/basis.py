"""The counting basis, in pure Python: the falling monomials of degree six in the ten point-value
counts (the value lines' basis: a value line's count is a sum of c[mu] F[mu](v) over them), and
the hand classes of the Player's and Banker's first two cards by how two cards match (the class
lines' closed form). Shared by the compiled plans (batch.py, with numpy) and the lean route that
evaluates a kept plan without numpy (lean.py); it imports neither.

>>> len(multisets()), multisets(2)[:4]
(5005, [(0, 0), (0, 1), (1, 1), (0, 2)])
"""

from __future__ import annotations

from bisect import bisect_left
from functools import lru_cache
from operator import mul

DEGREE = 6  # cards on the counting basis
VALUES = 10  # point values 0-9


@lru_cache(maxsize=DEGREE + 1)
def monomial_plan(k: int = DEGREE):
    """How to build the falling monomials of degree 1..k, and the multisets of degree k.

    A multiset of degree d is one of degree d-1 with a value x added that is at least its largest;
    its monomial is the parent's times (v_x - c), c the copies of x already in the parent. With
    each level ordered by (largest value, its copies), the parents for a given (x, c) are one
    contiguous block of rows, so a level is a few dozen slice-times-row products: returns, per
    level, [(factor row x*7 + c, first parent row, end parent row)], and the multisets of degree
    k as sorted tuples in that order (batch.py's columns)."""
    level, top = [()], [-1]  # top: x * 7 + copies of the largest x, increasing along the level
    steps = []
    for _ in range(k):
        blocks, parts, tops = [], [], []
        for x in range(VALUES):
            for c in range(DEGREE):
                start = 0 if c == 0 else bisect_left(top, x * 7 + c)
                end = bisect_left(top, x * 7 + c + (c > 0))
                if end > start:
                    blocks.append((x * 7 + c, start, end))
                    parts += [m + (x,) for m in level[start:end]]
                    tops += [x * 7 + c + 1] * (end - start)
        level, top = parts, tops
        steps.append(blocks)
    return steps, level


def multisets(k: int = DEGREE) -> list[tuple[int, ...]]:
    """The multisets of k point values, as sorted tuples, in the order of the monomial columns."""
    return monomial_plan(k)[1]


def falling_monomials(v) -> list[int]:
    """F[mu](v) for the multisets mu of six values (multisets() order), v the ten value counts:
    Python integers, exact at any size.

    >>> F = falling_monomials([128] + [32] * 9)
    >>> F[0] == 128 * 127 * 126 * 125 * 124 * 123, F[-1] == 32 * 31 * 30 * 29 * 28 * 27
    (True, True)
    """
    factors = [x - c for x in v for c in range(7)]  # row x * 7 + c: v_x - c
    level = [1]
    for blocks in monomial_plan(DEGREE)[0]:
        level = [m * factors[f] for f, start, end in blocks for m in level[start:end]]
    return level


# How two cards match: 0 any, 1 same rank, 2 same suit, 3 the same card; MEET[a][b]: both at once.
MEET = [[0, 1, 2, 3], [1, 1, 3, 3], [2, 3, 2, 3], [3, 3, 3, 3]]
# A hand class (plain, suited, pair, suited pair: engine.HAND_CLASSES) by inclusion-exclusion
# over the matches: plain = any - rank - suit + card, suited = suit - card, pair = rank - card.
CLASS_OF_MATCHES = [[1, -1, -1, 1], [0, 0, 1, -1], [0, 1, 0, -1], [0, 0, 0, 1]]


def hand_classes_of(counts) -> list[int]:
    """Ordered 6-card sequences of one shoe (``counts``: 13 rows of 4 card counts) whose Player's
    and Banker's first two cards are of hand classes cp and cb, at [cp * 4 + cb]: batch's
    hand_class_counts (whose docstring derives the closed form) in Python integers.

    >>> import math
    >>> from analyzer.game.cards import Shoe
    >>> classes = hand_classes_of(Shoe.decks(1).counts)
    >>> sum(classes) == math.perm(52, 6), classes[15]  # no two suited pairs from one deck
    (True, 0)
    """
    rank = [sum(row) for row in counts]
    suit = [sum(column) for column in zip(*counts)]
    size = sum(rank)
    n = [c for row in counts for c in row]
    same = [c * (c - 1) for c in n]  # ordered pairs of one card kind
    g1 = [r - 1 for r in rank for _ in range(4)]  # by kind: other cards of its rank, of its suit
    g2 = [s - 1 for s in suit] * 13
    q = [size * (size - 1), sum(r * (r - 1) for r in rank), sum(s * (s - 1) for s in suit), sum(same)]
    t = [[(size - 1) * q[max(x, y)] if min(x, y) == 0 else 0 for y in range(4)] for x in range(4)]
    t[1][1] = sum(r * (r - 1) ** 2 for r in rank)
    t[2][2] = sum(s * (s - 1) ** 2 for s in suit)
    t[3][3] = sum(p * (c - 1) for p, c in zip(same, n))
    t[1][2] = t[2][1] = sum(map(mul, map(mul, g1, n), g2))
    t[1][3] = t[3][1] = sum(map(mul, g1, same))
    t[2][3] = t[3][2] = sum(map(mul, g2, same))
    j = [[q[x] * q[y] - 4 * t[x][y] + 2 * q[MEET[x][y]] for y in range(4)] for x in range(4)]
    m = CLASS_OF_MATCHES
    rest = (size - 4) * (size - 5)
    mj = [[sum(map(mul, row, column)) for column in zip(*j)] for row in m]
    return [rest * sum(map(mul, a, b)) for a in mj for b in m]
