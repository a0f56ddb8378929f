"""Multiplied bets counted exactly: how the counted cards of each multiplied pay line fall into
patterns of identical cards (bets/overlay.py says what a pattern is worth), on any shoe.

Glossary
--------
row        one way the coup's cards can fall by point value, place by place (the first four
           cards, the third cards the tableau deals, and the fifth and sixth cards where the
           known cards say something of them), with the line of the bet that it settles.
counted    the cards whose identities the multipliers read (overlay.CARD_MODES): k[x] of
           value x among them, u[x] of value x dealt and not counted, t = k + u.
repeated   a value with two or more counted cards (or the two cards of a ``pair`` bet): only
           there can counted cards share an identity.
group      the rows of one line with the same number of counted cards and the same repeated
           values (each with its count and, for a pair, whether the ranks match).

Why it is exact. Given the values of a row, the physical cards of value x at its places are an
ordered draw of t[x] distinct cards of the C[x] of that value, whatever the other values; so the
row's ways, prod over x of ff(C[x], t[x]) times the free places' ff(N-d, 6-d), split by the
identities of the counted cards as prod over x of W_x(k[x], mu_x), where W_x(k, mu) counts the
ordered draws of k cards of value x whose identities fall in pattern mu:

    W_x(k, mu) = k! / prod(b!) * [the coefficient of prod y_b in prod over identities i of value x
                                  of (1 + sum over b of ff(c_i, b) y_b)]

(each identity used takes a block of b places, in ff(c_i, b) orders of its copies). A value
counted once has one pattern, W = C[x]. Dividing the row's ways by ff(C[x], k[x]) for each
repeated value leaves an integer polynomial in the counts, prod ff(C[x] - k[x], u[x]) for those
and ff(C[x], t[x]) for the others: summed over a group's rows (a product of six gathered
factors a row), then times the W of each repeated value, the line's count in each pattern.

A ``pair`` bet's two cards have one rank: for two cards of value x, W splits by whether the
ranks match - sum over identities of ff(c_i, 2) alike, sum over ranks of ff(c_r, 2) less that
in two identities, ff(C[x], 2) less sum over ranks of ff(c_r, 2) with the ranks apart - so each
row with both values x is counted once as a pair and once not. Known cards are taken where they
are known by point value (a rank or a suit known is refused: the identities are then not drawn
alike). The infinite deck: each card's value with chance q_x / 13, identities alike within a
value, the same sums in Fractions.

Every count is an integer at most N(N-1)...(N-5): int64 while 8 N^6 < 2^63, Python integers
beyond. The tests hold each line's patterns to sum to its count, and the whole to a brute force
over real cards and every drawn set of identities.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np

from ..base.errors import BaccaratError
from ..bets.conditions import settled_masks
from ..bets.overlay import MOST_COUNTED, fields_read, patterns
from ..game.cards import VALUES, Shoe
from ..game.knowledge import NOTHING, Knowledge
from ..game.layout import NONE, draws, value_fields
from ..game.tableau import Tableau

FREE = -2  # a fifth or sixth card the coup does not deal (and nothing known of)
ONE = 80  # the slot of the factor 1
PLAIN, PAIR, APART = 0, 1, 2  # a repeated value's cards: any ranks; one rank (a pair); two ranks
HANDS = {"player": (0, 2), "banker": (1, 3)}


@dataclass(frozen=True)
class Plan:
    """What a multiplied bet's lines count on every shoe. Rows with the same factors merge:
    ``slots`` (six indices x * 8 + o of the factor C[x] - o, ONE for none), ``free`` (the places
    left free) and ``count`` (how many orders of rows), sorted by group, ``starts`` where each
    group's begin. Then the *combinations*: each group times one pattern of each repeated
    value, ``combo_group``, ``combo_width`` (three indices into the widths of ``widths``, the
    (value, count, kind) each reads, a last index for none), sorted by ``outputs`` (line, pattern)
    with ``combo_starts``."""

    slots: np.ndarray
    free: np.ndarray
    count: np.ndarray
    starts: np.ndarray
    widths: tuple
    combo_group: np.ndarray
    combo_width: np.ndarray
    combo_starts: np.ndarray
    outputs: tuple


def counted_patterns(bet, shoe: Shoe | None, tableau: Tableau, knowledge: Knowledge = NOTHING) -> tuple:
    """((line index, pattern, count), ...) for each multiplied line of ``bet`` on ``shoe`` (None:
    the infinite deck, counts as chances), given ``knowledge`` (point values only): counts on
    the 6-card basis, patterns of no count left out."""
    table = bet.multipliers
    if table.spot:  # one multiplier for the spot: no card counted (counts.multiplied takes each line whole)
        return ()
    plan = compile_plan(bet.conditions, tableau, table.multiplied(bet), table.cards, value_knowledge(knowledge, bet.id))
    if not len(plan.combo_group):
        return ()
    sums = group_sums(plan, shoe)
    most = {}  # the most cards of each value counted together: the generating product goes that far
    for x, k, _ in plan.widths:
        most[x] = max(most.get(x, 0), k)
    widths = [w for x, k, kind in plan.widths for w in shape_widths(shoe, x, k, kind, most[x])] + [1]
    kind = object if shoe is None or sums.dtype == object else np.int64
    if kind is np.int64 and max(widths) >= 2**62:
        kind = object
    widths = np.array(widths, kind)
    values = sums.astype(kind)[plan.combo_group]
    for i in range(3):
        values = values * widths[plan.combo_width[:, i]]
    counts = np.add.reduceat(values, plan.combo_starts)
    if shoe is None:
        counts = [Fraction(c) / 13**6 for c in counts]
    found = [(line, pattern, int(c) if shoe is not None else c) for (line, pattern), c in zip(plan.outputs, counts) if c]
    return tuple(sorted(found, key=lambda f: (f[0], sum(f[1]), -patterns(sum(f[1])).index(f[1]))))


def value_knowledge(knowledge: Knowledge, bet_id: str) -> tuple:
    """The point values allowed at each position (None: any), refusing knowledge finer than values."""
    if not knowledge:
        return (None,) * 6
    allowed = []
    for position, kinds in enumerate(knowledge.known, 1):
        if kinds is None:
            allowed.append(None)
            continue
        values = {VALUES[k // 4] for k in range(52) if kinds[k]}
        if not all(kinds[k] == (VALUES[k // 4] in values) for k in range(52)):
            raise BaccaratError(f"bet {bet_id!r}: its multipliers are counted given known point values, not ranks, "
                                f"suits or colours (card {position} is known by more than its value)")
        allowed.append(None if len(values) == 10 else frozenset(values))
    return tuple(allowed)


# -- the rows, once per bet and tableau ---------------------------------------------------------


def expand(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(index, offset): each row i repeated counts[i] times, and which repetition each is.

    >>> [x.tolist() for x in expand(np.array([2, 1, 3]))]
    [[0, 0, 1, 2, 2, 2], [0, 1, 0, 0, 1, 2]]
    """
    index = np.repeat(np.arange(len(counts)), counts)
    return index, np.arange(len(index)) - np.repeat(np.cumsum(counts) - counts, counts)


def rows(tableau: Tableau, allowed: tuple, symmetric: bool):
    """(positions [row, 6] (FREE where free), orders, pt, bt, p3, b3) of every way by point
    value, the places a known value restricts expanded where free. ``symmetric``: each hand's
    first two cards taken in one order (the lower value first), ``orders`` the ways (1 or 2 each)."""
    a, b, c, d = (x.reshape(-1) for x in np.indices((10,) * 4))
    orders = np.ones(len(a), np.int64)
    if symmetric:  # nothing tells a hand's two first cards apart: its count, its total, its pair
        keep = (a <= c) & (b <= d)
        a, b, c, d = a[keep], b[keep], c[keep], d[keep]
        orders = np.where(a < c, 2, 1) * np.where(b < d, 2, 1)
    pt, bt = (a + c) % 10, (b + d) % 10
    player, _ = draws(tableau, pt, bt, np.zeros_like(pt))
    head, p3 = expand(np.where(player, 10, 1))
    p3 = np.where(player[head], p3, NONE)
    _, banker = draws(tableau, pt[head], bt[head], p3)
    row, b3 = expand(np.where(banker, 10, 1))
    b3 = np.where(banker[row], b3, NONE)
    h, p3 = head[row], p3[row]
    fifth = np.where(p3 >= 0, p3, np.where(b3 >= 0, b3, FREE))
    sixth = np.where((p3 >= 0) & (b3 >= 0), b3, FREE)
    positions = np.stack([a[h], b[h], c[h], d[h], fifth, sixth], 1)
    orders, pt, bt = orders[h], pt[h], bt[h]
    keep = np.ones(len(positions), bool)
    for i, values in enumerate(allowed):
        if values is not None:
            keep &= np.isin(positions[:, i], sorted(values)) | (positions[:, i] == FREE)
    positions, orders, pt, bt, p3, b3 = positions[keep], orders[keep], pt[keep], bt[keep], p3[keep], b3[keep]
    for i, values in enumerate(allowed[4:], 4):  # a free place known: each value it may take
        if values is None:
            continue
        free = positions[:, i] == FREE
        index, offset = expand(np.where(free, len(values), 1))
        positions, orders, pt, bt, p3, b3 = positions[index], orders[index], pt[index], bt[index], p3[index], b3[index]
        filled = np.array(sorted(values))[np.minimum(offset, len(values) - 1)]
        positions[:, i] = np.where(positions[:, i] == FREE, filled, positions[:, i])
    return positions, orders, pt, bt, p3, b3


def counted_mask(cards, positions, winner, p3, b3) -> np.ndarray:
    """[row, 6]: whether the card at each position is counted (overlay.CARD_MODES, or places)."""
    dealt = positions >= 0
    player3 = np.zeros(positions.shape, bool)
    player3[:, 4] = p3 >= 0
    banker3 = np.zeros(positions.shape, bool)
    banker3[:, 4] = (p3 < 0) & (b3 >= 0)
    banker3[:, 5] = (p3 >= 0) & (b3 >= 0)
    player = np.zeros(positions.shape, bool)
    player[:, [0, 2]] = True
    player |= player3
    banker = np.zeros(positions.shape, bool)
    banker[:, [1, 3]] = True
    banker |= banker3
    if cards == "all":
        return dealt & (player | banker)
    if cards == "winner":
        winner = winner[:, None]
        return np.where(winner > 0, player, np.where(winner < 0, banker, player | banker))
    if isinstance(cards, str) and cards in HANDS:  # a pair's two cards
        out = np.zeros(positions.shape, bool)
        out[:, list(HANDS[cards])] = True
        return out
    named = {"player_1": 0, "banker_1": 1, "player_2": 2, "banker_2": 3}
    out = np.zeros(positions.shape, bool)
    for place in cards:
        if place in named:
            out[:, named[place]] = True
        elif place == "player_3":
            out |= player3
        else:
            out |= banker3
    return out


def pair_hand(conditions: tuple) -> str:
    """Which hand's pair a ``pair`` bet reads (its conditions name one of player_pair and banker_pair)."""
    read = set()
    for condition in conditions:
        if not condition.needs().cards:  # a card test reads more than a pair: refused at the count
            read |= {"player_pair", "banker_pair"} & fields_read(condition)
    if len(read) != 1:
        raise BaccaratError("cards = \"pair\" counts the pair the bet reads: its lines read one of player_pair and "
                            "banker_pair (or list the places: cards = [\"player_1\", \"player_2\"])")
    return read.pop().split("_")[0]


@lru_cache(maxsize=128)  # the 96 bets a rule set may hold each keep theirs: 0.1-0.4 MB each
def compile_plan(conditions: tuple, tableau: Tableau, lines: tuple, cards, allowed: tuple) -> Plan:
    """The plan of a bet's multiplied ``lines`` (see Plan), once per bet, tableau and knowledge."""
    symmetric = isinstance(cards, str) and all(v is None for v in allowed[:4])
    positions, orders, pt, bt, p3, b3 = rows(tableau, allowed, symmetric)
    kind = np.zeros(len(positions), np.int8)
    if cards == "pair":
        cards = pair_hand(conditions)
        i, j = HANDS[cards]
        alike = positions[:, i] == positions[:, j]
        index, second = expand(np.where(alike, 2, 1))
        positions, orders, pt, bt, p3, b3 = positions[index], orders[index], pt[index], bt[index], p3[index], b3[index]
        alike = alike[index]
        fields = value_fields(pt, bt, p3, b3) | {f"{cards}_pair": alike & (second == 0)}
        kind = np.where(alike, np.where(second == 0, PAIR, APART), PLAIN).astype(np.int8)
    else:
        fields = value_fields(pt, bt, p3, b3)
    try:
        masks = settled_masks(conditions, fields)
    except KeyError as missing:
        raise BaccaratError(f"a multiplied bet's lines read the coup's point values and draws (and, with cards = "
                            f"\"pair\", that pair): not {missing.args[0]!r}") from None
    line = np.full(len(positions), -1, np.int32)
    for j in lines:
        line[masks[j]] = j
    keep = line >= 0
    positions, orders, line, kind, p3, b3 = positions[keep], orders[keep], line[keep], kind[keep], p3[keep], b3[keep]
    winner = fields["winner"][keep]
    counted = counted_mask(cards, positions, winner, p3, b3) & (positions >= 0)
    # the factors of each row: its cards sorted by value, counted ones first; a card's offset o is
    # how many of its value come before it; counted cards of a repeated value take no factor
    value = np.where(positions >= 0, positions, 10)
    order = np.argsort(value * 2 + ~counted, axis=1, kind="stable")
    value = np.take_along_axis(value, order, 1)
    counted = np.take_along_axis(counted, order, 1)
    onehot = value[:, :, None] == np.arange(10)
    k = (onehot & counted[:, :, None]).sum(1)
    repeated = k >= 2
    offset = np.zeros(value.shape, np.int64)
    for i in range(1, 6):
        offset[:, i] = np.where(value[:, i] == value[:, i - 1], offset[:, i - 1] + 1, 0)
    taken = counted & np.take_along_axis(repeated, np.minimum(value, 9), 1)
    slot = np.where((value < 10) & ~taken, value * 8 + offset, ONE)
    free = (value == 10).sum(1)
    n = k.sum(1)
    kinds = np.where(repeated, np.where(k == 2, kind[:, None], PLAIN), 0)
    signature = ((np.where(repeated, k, 0) * 3 + kinds).astype(np.int64) * 21 ** np.arange(10)).sum(1)
    groups, group_of = np.unique((signature * 7 + n) * 1024 + line, return_inverse=True)
    slot_key = (np.sort(slot, 1).astype(np.int64) * 81 ** np.arange(6)).sum(1) * 3 + free
    combo = group_of.reshape(-1).astype(np.int64) * (81**6 * 3) + slot_key
    unique, where = np.unique(combo, return_inverse=True)
    count = np.bincount(where.reshape(-1), weights=orders).astype(np.int64)  # small integers: exact
    rest = unique % (81**6 * 3)
    slots = np.stack([(rest // 3) // 81**i % 81 for i in range(6)], 1).astype(np.int16)
    starts = np.searchsorted(unique // (81**6 * 3), np.arange(len(groups)))
    return combinations(groups.tolist(), slots, (rest % 3).astype(np.int8), count, starts)


def combinations(groups: list, slots, free, count, starts) -> Plan:
    """The plan's combinations (see Plan) from its groups' keys ((signature * 7 + n) * 1024 + line)."""
    widths, index_of, outputs, combos = [], {}, {}, []
    for g, key in enumerate(groups):
        line, n, signature = key % 1024, key // 1024 % 7, key // 1024 // 7
        repeated = [(x, signature // 21**x % 21 // 3, signature // 21**x % 21 % 3) for x in range(10) if signature // 21**x % 21]
        partial = [((1,) * (n - sum(k for _, k, _ in repeated)), ())]
        for x, k, kind in repeated:
            if (x, k, kind) not in index_of:
                index_of[(x, k, kind)] = sum(len(patterns(w[1])) for w in widths)
                widths.append((x, k, kind))
            base = index_of[(x, k, kind)]
            partial = [(tuple(sorted(shape + mu, reverse=True)), refs + (base + m,))
                       for shape, refs in partial for m, mu in enumerate(patterns(k))]
        for shape, refs in partial:
            out = outputs.setdefault((line, shape), len(outputs))
            combos.append((out, g, refs))
    none = sum(len(patterns(w[1])) for w in widths)
    combos.sort()
    combo_out = np.array([c[0] for c in combos], np.int64)
    return Plan(slots, free, count, starts, tuple(widths),
                np.array([c[1] for c in combos], np.int64),
                np.array([list(c[2]) + [none] * (3 - len(c[2])) for c in combos], np.int64).reshape(-1, 3),
                np.searchsorted(combo_out, np.arange(len(outputs))),
                tuple(sorted(outputs, key=outputs.get)))


# -- each shoe -----------------------------------------------------------------------------------


def value_counts(shoe: Shoe) -> list[int]:
    by_rank = [sum(row) for row in shoe.counts]
    return [sum(by_rank[9:])] + by_rank[:9]


def group_sums(plan: Plan, shoe: Shoe | None) -> np.ndarray:
    """Each group's sum of products (the row's ways divided by ff(C[x], k[x]) for each repeated
    value): int64 while 8 N^6 < 2^63, else Python integers; the infinite deck over 13**6, value
    x with chance q_x / 13 (q_0 = 4, else 1)."""
    if shoe is None:
        factor, free, kind = [4] * 8 + [1] * 72 + [1], [1, 13, 169], object
    else:
        c = value_counts(shoe)
        n = sum(c)
        kind = np.int64 if 8 * n**6 < 2**63 else object
        factor = [max(c[x] - o, 0) for x in range(10) for o in range(8)] + [1]
        free = [math.perm(n - 6 + f, f) for f in range(3)]
    factors = np.array(factor, kind)
    product = plan.count.astype(kind) * np.array(free, kind)[plan.free]
    for i in range(6):
        product = product * factors[plan.slots[:, i]]
    return np.add.reduceat(product, plan.starts)


def shape_widths(shoe: Shoe | None, x: int, k: int, kind: int, most: int = MOST_COUNTED) -> list:
    """W_x(k, pattern) for each pattern of ``k`` (overlay.patterns) on ``shoe``; the infinite
    deck: each card any identity of the value at random (with replacement), times q_x**k."""
    ranks = [r for r in range(13) if VALUES[r] == x]
    drawn = math.perm if shoe is not None else (lambda c, b: c**b)
    identities = [list(shoe.counts[r]) for r in ranks] if shoe is not None else [[1] * 4 for _ in ranks]
    flat = [c for suits in identities for c in suits]
    if kind != PLAIN:  # two cards of one value: one rank (alike or two suits), or two ranks
        alike = sum(drawn(c, 2) for c in flat)
        same_rank = sum(drawn(t, 2) for t in map(sum, identities))
        out = [alike, same_rank - alike] if kind == PAIR else [0, drawn(sum(flat), 2) - same_rank]
    else:
        out = plain_widths(tuple(flat), k, drawn, max(k, most))
    if shoe is None:  # over the common 13**6: the chance of the pattern times q_x**k (q_0 = 4)
        q = 4 if x == 0 else 1
        return [Fraction(w * q**k, len(flat) ** k) for w in out]
    return out


def plain_widths(flat: tuple, k: int, drawn=math.perm, most: int = 0) -> list:
    """W(k, pattern) for identities with counts ``flat``, a width for each pattern of overlay.
    patterns(k): closed forms to three cards (two cards alike: sum of c(c-1); two of three alike:
    3 sum of c(c-1)(C-c), the three places choosing the odd one), the generating function of the
    module's note beyond. Kept for the shoe's next bets (one shoe's bets share them)."""
    most = max(k, most)
    if drawn is math.perm:
        return list(_plain_widths(flat, k, most))
    return _generating(flat, k, drawn, most)


@lru_cache(maxsize=4096)
def _plain_widths(flat: tuple, k: int, most: int) -> tuple:
    total = sum(flat)
    if k == 1:
        return (total,)
    two = sum(c * (c - 1) for c in flat)
    if k == 2:
        return two, total * (total - 1) - two
    if k == 3:
        three = sum(c * (c - 1) * (c - 2) for c in flat)
        two_one = 3 * sum(c * (c - 1) * (total - c) for c in flat)
        return three, two_one, total * (total - 1) * (total - 2) - three - two_one
    return tuple(_generating(flat, k, math.perm, most))


def _generating(flat: tuple, k: int, drawn, most: int = 0) -> list:
    """W(k, pattern) by the generating function (one product for every k up to ``most``)."""
    poly = _products(flat, drawn is math.perm, max(k, most))
    out = []
    for shape in patterns(k):
        state = [k] + [0] * MOST_COUNTED
        orders = math.factorial(k)
        for b in shape:
            state[b] += 1
            orders //= math.factorial(b)
        out.append(poly.get(tuple(state), 0) * orders)
    return out



@lru_cache(maxsize=1024)
def _products(flat: tuple, without_replacement: bool, most: int = MOST_COUNTED) -> dict:
    """The product over identities of (1 + sum over b of ways(c, b) y_b), to ``most`` cards:
    {(cards, blocks of size 1, ..., of size MOST_COUNTED): coefficient}."""
    drawn = math.perm if without_replacement else (lambda c, b: c**b)
    poly = {(0,) * (MOST_COUNTED + 1): 1}
    for c in flat:
        ways = [drawn(c, b) for b in range(1, most + 1)]
        if not ways[0]:
            continue  # an identity with no card left adds nothing
        grown = dict(poly)
        for state, coefficient in poly.items():
            for b in range(1, most - state[0] + 1):
                w = ways[b - 1]
                if not w:
                    break
                key = (state[0] + b,) + state[1:b] + (state[b] + 1,) + state[b + 1:]
                grown[key] = grown.get(key, 0) + coefficient * w
        poly = grown
    return poly
