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
from ..bets.overlay import patterns
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
    """What a multiplied bet's lines count on every shoe: the groups (line, counted cards,
    repeated values as ((value, count, kind), ...)) and, sorted by group, each distinct product of
    factors with its multiplicity (``slots``: six indices x * 8 + o of the factor C[x] - o, ONE for
    none; ``free``: the places left free; ``starts``: where each group's begin)."""

    groups: tuple
    slots: np.ndarray
    free: np.ndarray
    count: np.ndarray
    starts: np.ndarray


def counted_patterns(bet, shoe: Shoe | None, tableau: Tableau, knowledge: Knowledge = NOTHING) -> tuple:
    """((line index, pattern, count), ...) for each multiplied line of ``bet`` on ``shoe`` (None:
    the infinite deck), given ``knowledge`` (point values only): counts on the 6-card basis."""
    table = bet.multipliers
    lines = table.multiplied(bet)
    if table.spot:
        return ()
    plan = compile_plan(bet.conditions, tableau, lines, table.cards, value_knowledge(knowledge, bet.id))
    sums = group_sums(plan, shoe)
    widths = shape_tables(shoe)
    out: dict = {}
    for (line, n, repeated), s in zip(plan.groups, sums):
        if not s:
            continue
        singles = n - sum(k for _, k, _ in repeated)
        combos = [((1,) * singles, s)]
        for x, k, kind in repeated:
            combos = [(tuple(sorted(shape + mu, reverse=True)), w * ways) for shape, w in combos
                      for mu, ways in widths(x, k, kind).items() if ways]
        for shape, w in combos:
            key = (line, shape)
            out[key] = out.get(key, 0) + w
    return tuple((line, shape, c) for (line, shape), c in sorted(out.items()))


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


def rows(tableau: Tableau, allowed: tuple):
    """(positions [row, 6] (FREE where free), pt, bt, p3, b3) of every way by point value, the
    positions a known value restricts expanded when free."""
    a, b, c, d = (x.reshape(-1) for x in np.indices((10,) * 4))
    pt, bt = (a + c) % 10, (b + d) % 10
    player, _ = draws(tableau, pt, bt, np.zeros_like(pt))
    head = np.repeat(np.arange(len(a)), np.where(player, 10, 1))
    p3 = np.where(player[head], np.arange(len(head)) - np.repeat(np.cumsum(np.where(player, 10, 1)) - np.where(player, 10, 1), np.where(player, 10, 1)), NONE)
    _, banker = draws(tableau, pt[head], bt[head], p3)
    more = np.where(banker, 10, 1)
    row = np.repeat(np.arange(len(head)), more)
    b3 = np.where(banker[row], np.arange(len(row)) - np.repeat(np.cumsum(more) - more, more), NONE)
    h, p3 = head[row], p3[row]
    fifth = np.where(p3 >= 0, p3, np.where(b3 >= 0, b3, FREE))
    sixth = np.where((p3 >= 0) & (b3 >= 0), b3, FREE)
    positions = np.stack([a[h], b[h], c[h], d[h], fifth, sixth], 1)
    keep = np.ones(len(positions), bool)
    for i, values in enumerate(allowed):
        if values is None:
            continue
        column = positions[:, i]
        inside = np.isin(column, sorted(values))
        keep &= inside | (column == FREE)
    positions, pt, bt, p3, b3 = positions[keep], pt[h][keep], bt[h][keep], p3[keep], b3[keep]
    for i, values in enumerate(allowed):  # a free place known: each value it may take
        if values is None or i < 4:
            continue
        free = positions[:, i] == FREE
        repeat = np.where(free, len(values), 1)
        index = np.repeat(np.arange(len(positions)), repeat)
        positions, pt, bt, p3, b3 = positions[index], pt[index], bt[index], p3[index], b3[index]
        offsets = np.arange(len(index)) - np.repeat(np.cumsum(repeat) - repeat, repeat)
        filled = np.array(sorted(values))[np.minimum(offsets, len(values) - 1)]
        positions[:, i] = np.where(positions[:, i] == FREE, filled, positions[:, i])
    return positions, pt, bt, p3, b3


def counted_mask(cards, positions, fields, p3, b3) -> np.ndarray:
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
        winner = fields["winner"][:, None]
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
    fields = {"player_pair", "banker_pair"}
    read = set()
    for condition in conditions:
        read |= fields & set(condition_fields(condition))
    if len(read) != 1:
        raise BaccaratError("cards = \"pair\" counts the pair the bet reads: its lines read one of player_pair and "
                            "banker_pair (or list the places: cards = [\"player_1\", \"player_2\"])")
    return read.pop().split("_")[0]


def condition_fields(condition) -> list:
    """The outcome fields a condition reads (by trying them: a condition reads its fields by name)."""
    names = []

    class Spy(dict):
        def __missing__(self, key):
            names.append(key)
            return np.zeros(1, np.int64)

    try:
        condition.mask(Spy(_=np.zeros(1, np.int64)))
    except Exception:  # a card-level test reads arrays of its own: it reads more than values anyway
        names.append("cards")
    return names


@lru_cache(maxsize=64)
def compile_plan(conditions: tuple, tableau: Tableau, lines: tuple, cards, allowed: tuple) -> Plan:
    """The plan of a bet's multiplied ``lines`` (see Plan), once per bet, tableau and knowledge."""
    positions, pt, bt, p3, b3 = rows(tableau, allowed)
    fields = value_fields(pt, bt, p3, b3)
    kind = np.zeros(len(positions), np.int8)
    if cards == "pair":
        cards = pair_hand(conditions)
        i, j = HANDS[cards]
        alike = positions[:, i] == positions[:, j]
        twice = np.repeat(np.arange(len(positions)), np.where(alike, 2, 1))
        first = np.r_[True, twice[1:] != twice[:-1]]
        positions, pt, bt, p3, b3 = positions[twice], pt[twice], bt[twice], p3[twice], b3[twice]
        fields = value_fields(pt, bt, p3, b3)
        fields[f"{cards}_pair"] = alike[twice] & first
        kind = np.where(alike[twice], np.where(first, PAIR, APART), PLAIN).astype(np.int8)
    try:
        masks = settled_masks(conditions, fields)
    except KeyError as missing:
        raise BaccaratError(f"a multiplied bet's lines read the coup's point values and draws (and, with cards = "
                            f"\"pair\", that pair): not {missing.args[0]!r}") from None
    line = np.full(len(positions), -1, np.int32)
    for j in lines:
        line[masks[j]] = j
    keep = line >= 0
    positions, line, kind = positions[keep], line[keep], kind[keep]
    p3, b3 = p3[keep], b3[keep]
    fields = {name: value[keep] for name, value in fields.items()}
    counted = counted_mask(cards, positions, fields, p3, b3) & (positions >= 0)
    values = np.maximum(positions, 0)
    onehot = (values[:, :, None] == np.arange(10)) & (positions[:, :, None] >= 0)
    k = (onehot & counted[:, :, None]).sum(1)  # [row, value]
    t = onehot.sum(1)
    repeated = (k >= 2)
    kinds = np.where(repeated, np.where(k == 2, kind[:, None], PLAIN), 0)
    # the factors: C[x] - o for o from (k[x] if repeated else 0) up to t[x] - 1
    start = np.where(repeated, k, 0)
    o = np.arange(6)
    present = (start[:, :, None] + o) < t[:, :, None]
    slot = np.where(present, np.arange(10)[None, :, None] * 8 + start[:, :, None] + o, ONE).reshape(len(k), 60)
    slot = np.sort(slot, 1)[:, :6]
    free = 6 - t.sum(1)
    n = k.sum(1)
    code = (np.where(repeated, k, 0) * 3 + kinds).astype(np.int64)
    signature = (code * 21 ** np.arange(10)).sum(1)
    group_key = (signature * 7 + n) * 1024 + line
    groups, group_of = np.unique(group_key, return_inverse=True)
    slot_key = (slot.astype(np.int64) * 81 ** np.arange(6)).sum(1) * 3 + free
    combo = group_of.astype(np.int64) * (81**6 * 3) + slot_key
    unique, count = np.unique(combo, return_counts=True)
    group_of_combo = unique // (81**6 * 3)
    rest = unique % (81**6 * 3)
    free_of = rest % 3
    slots = np.stack([(rest // 3) // 81**i % 81 for i in range(6)], 1).astype(np.int16)
    starts = np.searchsorted(group_of_combo, np.arange(len(groups)))
    decoded = []
    for key in groups.tolist():
        line_index, key = key % 1024, key // 1024
        n_counted, signature = key % 7, key // 7
        reps = []
        for x in range(10):
            c = signature // 21**x % 21
            if c:
                reps.append((x, c // 3, c % 3))
        decoded.append((line_index, n_counted, tuple(reps)))
    return Plan(tuple(decoded), slots, free_of.astype(np.int8), count.astype(np.int64), starts)


# -- each shoe -----------------------------------------------------------------------------------


def value_counts(shoe: Shoe) -> list[int]:
    by_rank = [sum(row) for row in shoe.counts]
    return [sum(by_rank[9:])] + by_rank[:9]


def group_sums(plan: Plan, shoe: Shoe | None) -> list:
    """Each group's sum of products (the row's ways divided by ff(C[x], k[x]) for each repeated
    value): Python integers (Fractions for the infinite deck)."""
    if not len(plan.count):
        return [0] * len(plan.groups)
    if shoe is None:  # the infinite deck: value x with chance q_x / 13, over 13**6
        factor = np.array([[4] * 8] + [[1] * 8] * 9, object).reshape(80).tolist() + [1]
        free = [1, 13, 169]
        kind = object
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
    sums = np.add.reduceat(product, plan.starts) if len(product) else product
    sums = [int(s) for s in sums]
    if shoe is None:
        return [Fraction(s, 13**6) for s in sums]
    return sums


def shape_tables(shoe: Shoe | None):
    """widths(x, k, kind) -> {pattern: W_x(k, pattern)} on ``shoe`` (see the module's note;
    the infinite deck: the chance of each pattern times (q_x / 13)**k... over the row's factor)."""
    memo = {}

    def widths(x: int, k: int, kind: int) -> dict:
        key = (x, k, kind)
        if key not in memo:
            memo[key] = _widths(shoe, x, k, kind)
        return memo[key]
    return widths


def _widths(shoe: Shoe | None, x: int, k: int, kind: int) -> dict:
    ranks = [r for r in range(13) if VALUES[r] == x]
    drawn = math.perm if shoe is not None else (lambda c, b: c**b)  # the infinite deck: with replacement
    identities = [list(shoe.counts[r]) for r in ranks] if shoe is not None else [[1] * 4 for _ in ranks]
    flat = [c for suits in identities for c in suits]
    if kind != PLAIN:  # two cards of one value: one rank (alike or two suits), or two ranks
        alike = sum(drawn(c, 2) for c in flat)
        same_rank = sum(drawn(s, 2) for s in map(sum, identities))
        everything = drawn(sum(flat), 2)
        out = {(2,): alike, (1, 1): same_rank - alike} if kind == PAIR else {(2,): 0, (1, 1): everything - same_rank}
    else:
        out = plain_widths(tuple(flat), k, drawn)
    if shoe is None:  # chances of the patterns (each card one of the value's identities at random) times (q_x)**k
        q = 4 if x == 0 else 1
        out = {mu: Fraction(w * q**k, len(flat) ** k) for mu, w in out.items()}
    return out


def plain_widths(flat: tuple, k: int, drawn=math.perm) -> dict:
    """W(k, pattern) for identities with counts ``flat`` (the module's generating function)."""
    poly = {(): 1}  # pattern (sorted block sizes) -> coefficient
    for c in flat:
        grown = dict(poly)
        for shape, coefficient in poly.items():
            room = k - sum(shape)
            for b in range(1, room + 1):
                ways = drawn(c, b)
                if not ways:
                    break
                key = tuple(sorted(shape + (b,), reverse=True))
                grown[key] = grown.get(key, 0) + coefficient * ways
        poly = grown
    out = {}
    for shape in patterns(k):
        coefficient = poly.get(shape, 0)
        orders = math.factorial(k)
        for b in shape:
            orders //= math.factorial(b)
        out[shape] = coefficient * orders
    return out
