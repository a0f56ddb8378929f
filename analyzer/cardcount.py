"""Card-level counting: the pay lines of bets that read single cards, compiled once into
polynomials in the shoe's card counts and evaluated for each shoe in a fraction of a millisecond.

Glossary
--------
reads      what the conditions read of the card at each place (layout.Needs.reads): card tests
           and attributes, plus the point value where the draws need it and what is known of
           the card at that position.
followed   a position (1-6, dealing order) whose card the count follows: one read or known, and
           the third cards where the draws matter and a hand takes them. The others are *free*:
           any card left.
class      cards that nothing read at a position, *or at any later followed position*, tells
           apart. Each position's classes are then unions of the classes of every earlier
           position (a *chain*), so whether an earlier card lies in a later card's class is
           known from the earlier card's class alone.
row        one way the followed cards can fall: a class at each followed position.
monomial   what a row counts, a product of *factors* ``S(C) - c``: for each followed position,
           the cards of its class C in the shoe less the c earlier followed cards of that class;
           times (N-d)(N-d-1)...(N-5) for the 6 - d free positions. Rows with the same factors
           merge, their coefficients (ways to order them) added.

Why it is exact: dealing the followed positions first (the free ones take any of the cards left,
in (N-d)(N-d-1)...(N-5) ways, whatever the followed ones were), the card at a followed position
can be any card of its class not dealt before it; by the chain, exactly c of those were dealt,
whichever cards they were. So a row's number of ordered 6-card sequences is its monomial, and
each line's count is the sum of the monomials of the rows it settles. Every factor is a count
(the first factor that reaches zero makes the product zero before any could turn negative), so
the products and their sums are integers at most N(N-1)...(N-5).

Symmetries, each an exchange of cards that no condition and no class tells apart, so the rows
it pairs have the same count: the two cards of a hand (``hands``: no single head place read,
nothing known of the head), or all four head cards (``head``: only the first four read as a
group, no draws). Rows are then unordered pairs or multisets, weighted by their orders.

The compiled lines depend on the conditions, the tableau and the knowledge, never on the shoe:
a rule set is compiled once, and every shoe - one, or a batch as an array - is a few gathers
and one matrix product.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from .cards import KINDS, kind_attributes
from .conditions import settled_masks
from .engine import Recent, TooMuchDetail, falling, orderings, sorted_tuples
from .knowledge import NOTHING, Knowledge
from .layout import HEAD, KIND_VALUE, NONE, PLACES, Needs, draws, head_flags, value_fields
from .tableau import Tableau

SIX = 6  # cards on the counting basis
HEAD_POSITIONS = (1, 2, 3, 4)
MAX_ROWS = 6_000_000  # rows a compilation may walk: about a second and 400 MB at most
CHUNK_ROWS = 400_000  # rows walked at once (bounds the memory of a compilation)
FAST_CARDS = 1290  # the largest N with N**6 < 2**62: int64 is exact
FLOAT_CARDS = 455  # the largest N with N**6 < 2**53: float64 is exact
MAX_TABLE = 1447  # factor indices fit six to an int64 code: 1448**6 < 2**63 (more classes than any bet reads)


def position_keys(needs: Needs, knowledge: Knowledge) -> tuple:
    """For positions 1-6, the keys (card tests and attribute names) read there: at a head
    position its place's reads, at the fifth card the Player's and the Banker's third, at the
    sixth the Banker's third; the point value at positions 1-5 where the draws matter; and
    what is known of the card.

    >>> from .cardtests import parse_card_test
    >>> keys = position_keys(Needs(reads=frozenset({("banker_3", "colour")}), draws=True), NOTHING)
    >>> [sorted(k) for k in keys]
    [['value'], ['value'], ['value'], ['value'], ['colour', 'value'], ['colour']]
    """
    by_place = {place: set() for place in PLACES}
    for place, key in needs.reads:
        by_place[place].add(key)
    keys = [by_place[place] for place in HEAD] + [by_place["player_3"] | by_place["banker_3"], set(by_place["banker_3"])]
    for p in range(5 if needs.draws else 0):
        keys[p].add("value")
    for p in knowledge.positions:
        keys[p - 1].add(knowledge.known[p - 1])
    return tuple(frozenset(k) for k in keys)


@lru_cache(maxsize=1024)
def partition(keys: frozenset) -> tuple:
    """Class of each of the 52 kinds: kinds alike under every key (a card test's 52 booleans,
    or an attribute) share a class; classes numbered in order of their first kind.

    >>> len(set(partition(frozenset({"colour", "value"})))), len(set(partition(frozenset())))
    (20, 1)
    """
    ordered = sorted(keys, key=repr)
    signature = [tuple(kind_attributes(k)[key] if isinstance(key, str) else key[k] for key in ordered)
                 for k in range(KINDS)]
    first = {}
    return tuple(first.setdefault(sig, len(first)) for sig in signature)


HANDS = ((1, 3), (2, 4))  # the positions of each hand's first two cards


@dataclass(frozen=True)
class Layout:
    """How a bet's cards are followed: ``partitions[p - 1]`` the classes at position p (None:
    never followed); ``symmetry`` ``"head"`` where the four head cards may be exchanged, else
    ``pairs``, the hands whose two cards may be (see the module notes); whether the draws
    matter; and the knowledge (allowed kinds by position)."""

    partitions: tuple
    symmetry: str
    pairs: tuple
    draws: bool
    knowledge: Knowledge

    @classmethod
    def of(cls, needs: Needs, knowledge: Knowledge = NOTHING) -> Layout:
        keys = position_keys(needs, knowledge)
        known = [knowledge.known[p - 1] is not None for p in range(1, 7)]
        ever = [p for p in range(1, 7) if keys[p - 1] or (needs.draws and p <= 4) or known[p - 1]]
        if needs.draws:
            ever = sorted(set(ever) | {5, 6})  # a hand may take them
        head_known = any(known[:4])
        singles = needs.singles & (set(HEAD) | {"player_hand", "banker_hand"})
        head = not needs.draws and not head_known and not singles and len({keys[p - 1] for p in ever if p <= 4}) <= 1
        pairs = () if head else tuple(
            (a, b) for a, b in HANDS if not known[a - 1] and not known[b - 1] and keys[a - 1] == keys[b - 1]
            and not needs.singles & {HEAD[a - 1], HEAD[b - 1]})
        partitions = [partition(frozenset().union(*(keys[q - 1] for q in ever if q >= p))) if p in ever else None
                      for p in range(1, 7)]
        if head:  # all four alike: the classes of the first
            partitions[:4] = [partitions[0] if p in ever else None for p in HEAD_POSITIONS]
        for a, b in pairs:  # a pair alike: keys of a = keys of b, read later too, so the chain holds
            partitions[b - 1] = partitions[a - 1]
        return cls(tuple(partitions), "head" if head else "", pairs, needs.draws, knowledge)

    def classes(self, p: int) -> np.ndarray:
        """The classes allowed at position p (all of a class's kinds agree with what is known)."""
        part = np.array(self.partitions[p - 1])
        allowed = np.array(self.knowledge.allowed(p))
        return np.unique(part[allowed])

    def slots(self) -> list:
        """The head's followed positions in groups counted together: all four (``head``), a
        hand's pair, or one position."""
        followed = [p for p in HEAD_POSITIONS if self.partitions[p - 1] is not None]
        if self.symmetry == "head":
            return [tuple(followed)] if followed else []
        paired = {p for pair in self.pairs for p in pair}
        return [pair for pair in self.pairs if pair[0] in followed] + [(p,) for p in followed if p not in paired]

    def size(self) -> int:
        """An upper bound on the rows a compilation walks (checked before any work)."""
        k = {p: len(self.classes(p)) for p in range(1, 7) if self.partitions[p - 1] is not None}
        heads = math.prod(math.comb(k[slot[0]] + len(slot) - 1, len(slot)) for slot in self.slots())
        return heads * (1 + k.get(5, 0)) * (1 + k.get(6, 0))


@dataclass(frozen=True, eq=False)
class Polynomials:
    """Compiled lines: ``sets`` [set, kind] the classes whose card counts the factors read;
    ``levels`` how to build the monomials, factor by factor: level j holds the distinct
    products of their first j + 1 factors, each (its parent at level j - 1, its factor as an
    index set * 6 + c into the factor table, or ``pad``, the factor 1); ``free`` the free
    positions of each monomial (the last level) and ``coefficients`` [monomial, line]."""

    sets: np.ndarray
    levels: tuple
    free: np.ndarray
    coefficients: np.ndarray

    @property
    def pad(self) -> int:
        return len(self.sets) * SIX

    def cells(self) -> int:
        return sum(len(parent) for parent, _ in self.levels) * 2 + self.coefficients.size

    def counts(self, n) -> list[int]:
        """Each line's ordered 6-card sequences from a shoe of card counts ``n`` (52, by kind)."""
        n = [int(x) for x in n]
        size = sum(n)
        if size > FAST_CARDS:  # Python integers: exact for any shoe
            s = [sum(c for c, inside in zip(n, row) if inside) for row in self.sets.tolist()]
            table = [x - c for x in s for c in range(SIX)] + [1]
            values = [1]
            for parent, factor in self.levels:
                values = [values[p] * table[f] for p, f in zip(parent.tolist(), factor.tolist())]
            values = [v * falling(size - (SIX - f), f) for v, f in zip(values, self.free.tolist())]
            return [sum(v * c for v, c in zip(values, column) if c) for column in self.coefficients.T.tolist()]
        return self.many(np.array([n], np.int64))[0].tolist()

    def many(self, n: np.ndarray) -> np.ndarray:
        """[shoe, line] counts for card counts n[shoe, 52] of shoes of at most FAST_CARDS cards:
        float64 products where N**6 < 2**53 (every partial product and sum is a count, at most
        N(N-1)...(N-5): exact), int64 beyond (N**6 < 2**62)."""
        size = n.sum(1)
        exact_float = int(size.max(initial=0)) <= FLOAT_CARDS
        dtype = np.float64 if exact_float else np.int64
        s = self.sets.astype(np.int64) @ n.T  # [set, shoe]: cards of each class
        table = np.concatenate([(s[:, None, :] - np.arange(SIX)[None, :, None]).reshape(-1, len(n)),
                                np.ones((1, len(n)), np.int64)]).astype(dtype)  # [factor, shoe]
        free = np.array([[falling(int(x) - (SIX - f), f) for x in size.tolist()] for f in range(SIX + 1)], dtype)
        out = np.empty((len(n), self.coefficients.shape[1]), np.int64)
        widest = max((len(parent) for parent, _ in self.levels), default=1)
        step = max(1, 4_000_000 // widest)  # shoes at once: a few arrays of at most 32 MB
        coefficients = self.coefficients.T.astype(dtype)
        for start in range(0, len(n), step):
            part = slice(start, start + step)
            values = np.ones((1, len(n[part])), dtype)  # [product, shoe]: rows gathered whole
            for parent, factor in self.levels:
                values = values[parent] * table[factor, part]
            values *= free[self.free, part]
            counts = (coefficients @ values).T
            out[part] = np.rint(counts).astype(np.int64) if exact_float else counts
        return out


def prefix_levels(monomials: np.ndarray, pad: int):
    """The levels of Polynomials for these monomials (rows of sorted factor indices, padded at
    the end) and the order of the monomials at the last level. Monomials sharing their first
    factors share those products: the catalogue's Jackpot takes a third of the products.

    >>> levels, order = prefix_levels(np.array([[1, 2, 9], [1, 3, 9]]), 9)  # 9: the pad
    >>> [(parent.tolist(), factor.tolist()) for parent, factor in levels], order.tolist()
    ([([0], [1]), ([0, 0], [2, 3])], [0, 1])
    """
    depth = int((monomials != pad).any(0).sum()) if len(monomials) else 0  # pads sort last: columns beyond are all pads
    prefix = np.zeros(len(monomials), np.int64)
    levels = []
    for j in range(max(depth, 1)):
        pair, prefix = np.unique(prefix * (pad + 1) + monomials[:, j], return_inverse=True)
        prefix = prefix.reshape(-1)
        levels.append(tuple(x.astype(np.int32) for x in np.divmod(pair, pad + 1)))
    return tuple(levels), prefix


def kinds_of(partition_: tuple) -> np.ndarray:
    """[class, kind] booleans of a partition."""
    part = np.array(partition_)
    return part[None, :] == np.arange(part.max() + 1)[:, None]


def head_rows(layout: Layout):
    """(classes [row, 4] of the head positions, -1 where not followed; multiplicity [row]): each
    slot's multisets of classes, weighted by their orders (layout.slots)."""
    parts = []
    for slot in layout.slots():
        classes = layout.classes(slot[0])
        tuples = sorted_tuples(len(classes), len(slot))
        parts.append((slot, classes[tuples], orderings(len(classes), len(slot))))
    if not parts:
        return np.full((1, 4), NONE, np.int16), np.ones(1, np.int64)
    index = np.indices([len(m) for _, _, m in parts]).reshape(len(parts), -1)
    heads = np.full((index.shape[1], 4), NONE, np.int16)
    weight = np.ones(index.shape[1], np.int64)
    for (slot, classes, orders), i in zip(parts, index):
        heads[:, [p - 1 for p in slot]] = classes[i]
        weight *= orders[i]
    return heads, weight


class Fields(dict):
    """The outcome fields of rows, each computed when a condition first reads it."""

    def __init__(self, places: dict, compute):
        super().__init__(places)
        self.compute = compute

    def __missing__(self, name):
        if not isinstance(name, str):
            raise KeyError(name)
        self.update(self.compute(name))
        return self[name]


class Compiler:
    """The walk of one layout's rows, turning each into its factors and fields."""

    def __init__(self, layout: Layout, tableau: Tableau):
        self.layout, self.tableau = layout, tableau
        sets, self.set_of = {}, {}
        self.rep = {}
        for p in range(1, 7):
            part = layout.partitions[p - 1]
            if part is None:
                continue
            kinds = kinds_of(part)
            self.rep[p] = np.append(kinds.argmax(1), NONE).astype(np.int8)  # a kind of each class; index -1: no card
            ids = [sets.setdefault(row.tobytes(), len(sets)) for row in kinds]
            self.set_of[p] = np.append(np.array(ids, np.int64), -1)
        self.sets = np.array([np.frombuffer(key, bool) for key in sets]).reshape(len(sets), KINDS)
        # containment along the chain: parent[(q, p)][class at q] = the class at p holding it
        self.parent = {(q, p): np.append(np.array(layout.partitions[p - 1])[self.rep[q][:-1]], -2)
                       for q in self.rep for p in self.rep if q < p}
        self.pad = len(sets) * SIX
        if self.pad >= MAX_TABLE:
            raise TooMuchDetail(f"too many classes of cards at once ({len(sets)}): read fewer attributes at once")

    def rows(self, heads: np.ndarray, weight: np.ndarray):
        """Every row grown from these heads: classes [row, 6] (-1: not followed) and weights."""
        layout, tableau = self.layout, self.tableau
        known = [layout.knowledge.known[p - 1] is not None for p in range(1, 7)]
        rows = np.full((len(heads), 6), NONE, np.int16)
        rows[:, :4] = heads
        if layout.draws:
            value = {p: KIND_VALUE[self.rep[p][heads[:, p - 1]]] for p in HEAD_POSITIONS}
            pt, bt = (value[1] + value[3]) % 10, (value[2] + value[4]) % 10
            player, banker_alone = draws(tableau, pt, bt, 0)
            fifth = player | (banker_alone & ~player) | known[4]
        else:
            fifth = np.full(len(rows), known[4])
        rows, weight = self.grow(rows, weight, fifth, 5)
        if layout.draws:
            value = {p: KIND_VALUE[self.rep[p][rows[:, p - 1]]] for p in HEAD_POSITIONS}
            pt, bt = (value[1] + value[3]) % 10, (value[2] + value[4]) % 10
            fifth_value = np.where(rows[:, 4] >= 0, KIND_VALUE[self.rep[5][rows[:, 4]]], 0)
            player, banker = draws(tableau, pt, bt, fifth_value)
            sixth = (player & banker) | known[5]
        else:
            sixth = np.full(len(rows), known[5])
        return self.grow(rows, weight, sixth, 6)

    def grow(self, rows, weight, follow, p):
        """Rows where ``follow`` holds take each allowed class at position p; the others stay."""
        if self.layout.partitions[p - 1] is None or not follow.any():
            return rows, weight
        classes = self.layout.classes(p)
        stay, go = np.flatnonzero(~follow), np.repeat(np.flatnonzero(follow), len(classes))
        grown = rows[go]
        grown[:, p - 1] = np.tile(classes.astype(rows.dtype), int(follow.sum()))
        return np.concatenate([rows[stay], grown]), np.concatenate([weight[stay], weight[go]])

    def factors(self, rows: np.ndarray) -> np.ndarray:
        """[row, 6] factor indices, sorted (a monomial is their product in any order)."""
        out = np.full(rows.shape, self.pad, np.int64)
        for p in self.rep:
            here = rows[:, p - 1]
            c = np.zeros(len(rows), np.int64)
            for q in self.rep:
                if q < p:
                    c += self.parent[(q, p)][rows[:, q - 1]] == here
            out[:, p - 1] = np.where(here >= 0, self.set_of[p][here] * SIX + c, self.pad)
        return np.sort(out, 1)

    def encode(self, factors: np.ndarray) -> np.ndarray:
        """Each row of sorted factor indices as one integer in base pad + 1 (fits in int64: the
        factor table has at most MAX_TABLE entries)."""
        return factors.astype(np.int64) @ (self.pad + 1) ** np.arange(SIX, dtype=np.int64)

    def decode(self, codes: np.ndarray) -> np.ndarray:
        out = np.empty((len(codes), SIX), np.int64)
        for j in range(SIX):
            codes, out[:, j] = np.divmod(codes, self.pad + 1)
        return out

    def fields(self, rows: np.ndarray) -> dict:
        """The outcome fields of each row, as the conditions read them (places by a kind of the
        class there, -1 where no card); the value fields and the hand flags when first read."""
        kind = np.full(rows.shape, NONE, np.int8)
        for p in self.rep:
            kind[:, p - 1] = self.rep[p][rows[:, p - 1]]
        value = np.append(KIND_VALUE, NONE).astype(np.int8)[kind]
        pt, bt = (value[:, 0] + value[:, 2]) % 10, (value[:, 1] + value[:, 3]) % 10
        if self.layout.draws:
            player, banker = draws(self.tableau, pt, bt, np.maximum(value[:, 4], 0))
            third_p = np.where(player, kind[:, 4], NONE)
            third_b = np.where(banker, np.where(player, kind[:, 5], kind[:, 4]), NONE)
        else:
            third_p = third_b = np.full(len(rows), NONE, np.int8)
        places = np.column_stack([kind[:, :4], third_p, third_b])

        def compute(name):
            if name.endswith(("_pair", "_suited")):
                return head_flags(places)
            value_of = np.append(KIND_VALUE, NONE).astype(np.int8)
            return value_fields(pt, bt, value_of[third_p], value_of[third_b])

        return Fields({place: places[:, i] for i, place in enumerate(PLACES)}, compute)


def compile_lines(groups: tuple, layout: Layout, tableau: Tableau, context: str = "these bets") -> Polynomials:
    """The polynomials of every line of ``groups`` (tuples of conditions, each a bet's pay lines
    settled in turn) on ``layout``: columns in order, group after group; with knowledge, one
    more column last, every row (the sequences that agree with it)."""
    size = layout.size()
    if size > MAX_ROWS:
        raise TooMuchDetail(f"{context} read too much card detail at once ({size:,} ways the cards read can fall; "
                            f"at most {MAX_ROWS:,}): read fewer attributes at once (rank and suit together), at fewer "
                            "places, or know fewer cards")
    compiler = Compiler(layout, tableau)
    heads, weight = head_rows(layout)
    columns = sum(len(g) for g in groups) + bool(layout.knowledge)
    grown_per_head = max(1, size // max(1, len(heads)))
    step = max(1, CHUNK_ROWS // grown_per_head)
    keys, cols, mults = [], [], []
    for start in range(0, len(heads), step):
        rows, w = compiler.rows(heads[start:start + step], weight[start:start + step])
        factors = compiler.factors(rows)
        fields = compiler.fields(rows)
        column = 0
        hits = []
        for conditions in groups:
            for hit in settled_masks(conditions, fields):
                hits.append((column, np.flatnonzero(hit)))
                column += 1
        if layout.knowledge:
            hits.append((column, np.arange(len(rows))))
        used = np.unique(np.concatenate([h for _, h in hits])) if hits else np.zeros(0, np.int64)
        if not len(used):
            continue
        local, code = np.unique(compiler.encode(factors[used]), return_inverse=True)
        where = np.full(len(rows), -1)
        where[used] = code.reshape(-1)
        keys.append(local)
        offset = sum(len(k) for k in keys[:-1])
        for c, h in hits:
            cols.append(np.full(len(h), c))
            mults.append((where[h] + offset, w[h]))
    if keys:
        monomials, back = np.unique(np.concatenate(keys), return_inverse=True)
        back = back.reshape(-1)
        index = np.concatenate([back[i] for i, _ in mults]) * columns + np.concatenate(cols)
        sums = np.bincount(index, np.concatenate([m for _, m in mults]).astype(np.float64), len(monomials) * columns)
        coefficients = np.rint(sums).astype(np.int64).reshape(len(monomials), columns)  # small integers: exact
        monomials = compiler.decode(monomials)
    else:
        monomials, coefficients = np.zeros((0, SIX), np.int64), np.zeros((0, columns), np.int64)
    levels, order = prefix_levels(monomials, compiler.pad)
    last = np.zeros((len(levels[-1][0]), columns), np.int64)
    last[order] = coefficients
    free = np.zeros(len(last), np.int64)
    free[order] = (monomials == compiler.pad).sum(1)
    return Polynomials(compiler.sets, levels, free, last)


# Compiled lines by (conditions, tableau, knowledge): (polynomials, first column, columns). One
# compilation serves every shoe; a rule set's bets that read alike share one.
COMPILED = Recent(16_000_000, size=lambda entry: entry[0].cells())
_COMPILING = threading.Lock()  # one compilation at a time: a server's threads wait for it, not repeat it


def fits(needs: Needs, knowledge: Knowledge = NOTHING) -> bool:
    """Whether lines reading ``needs`` compile within MAX_ROWS rows (else they are counted by the
    enumeration at their card detail, shoe by shoe: engine.enumerate_cards)."""
    return layout_of(needs, knowledge).size() <= MAX_ROWS


@lru_cache(maxsize=1024)
def layout_of(needs: Needs, knowledge: Knowledge) -> Layout:
    return Layout.of(needs, knowledge)


def prepare(bets, tableau: Tableau, knowledge: Knowledge = NOTHING):
    """Compile the lines of ``bets`` ((name, conditions, needs) each) not compiled yet, in one
    walk for all the bets that share a layout; those that do not fit are left out."""
    with _COMPILING:
        by_layout = {}
        for name, conditions, needs in bets:
            if fits(needs, knowledge) and COMPILED.get((conditions, tableau, knowledge)) is None:
                by_layout.setdefault(layout_of(needs, knowledge), {}).setdefault(conditions, name)
        for layout, members in by_layout.items():
            context = " and ".join(dict.fromkeys(members.values()))
            polynomials = compile_lines(tuple(members), layout, tableau, context)
            start = 0
            for conditions in members:
                COMPILED.put((conditions, tableau, knowledge), (polynomials, start, len(conditions)))
                start += len(conditions)


def compiled(name: str, conditions: tuple, needs: Needs, tableau: Tableau, knowledge: Knowledge = NOTHING):
    """(polynomials, first column, columns) of these lines, compiled now if they were not."""
    key = (conditions, tableau, knowledge)
    entry = COMPILED.get(key)
    if entry is None:
        prepare([(name, conditions, needs)], tableau, knowledge)
        entry = COMPILED.get(key)
        if entry is None:  # kept out of the cache by a larger one since: compile it for this call alone
            polynomials = compile_lines((conditions,), layout_of(needs, knowledge), tableau, name)
            entry = (polynomials, 0, len(conditions))
    return entry


def line_counts(name: str, conditions: tuple, needs: Needs, counts, tableau: Tableau,
                knowledge: Knowledge = NOTHING) -> list[int]:
    """Ordered 6-card sequences settled by each of ``conditions`` in turn on a shoe of card
    ``counts`` (52, by kind), that agree with ``knowledge``."""
    polynomials, start, width = compiled(name, conditions, needs, tableau, knowledge)
    return polynomials.counts(counts)[start:start + width]
