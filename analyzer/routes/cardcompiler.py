"""The card-level counter's machinery: which detail each of the coup's six places keeps
(position keys, suit patterns), the Layout of the rows a compilation walks, the Polynomials it
yields and how they are evaluated on a shoe, the tables of falling factors they read, and the
Compiler that walks a layout's rows. cardcount.py compiles pay lines with them."""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from . import plancache
from .forms import one_shoe
from ..game.cards import KINDS, kind_attributes
from ..game.engine import TooMuchDetail, class_sums, free_ways, orderings, sorted_tuples
from ..game.knowledge import NOTHING, Knowledge
from ..game.layout import HEAD, KIND_VALUE, NONE, PLACES, Needs, draws, head_flags, value_fields
from ..game.tableau import Tableau

SIX = 6  # cards on the counting basis
SUIT = "suit"  # the attribute read through suit patterns
HEAD_POSITIONS = (1, 2, 3, 4)
MAX_ROWS = 6_000_000  # rows a compilation may walk: up to about 4 s and 300 MB here (0.25-0.7 us a row)
PLAIN_ROWS = 400_000  # suits compared are followed as classes up to this many rows, by patterns beyond
CHUNK_ROWS = 400_000  # rows walked at once (bounds the memory of a compilation)
SIZE_HEADS = 20_000  # head rows counted at once before a compilation: [heads, fifth classes] arrays of a few MB
CHUNK_CELLS = 1 << 17  # products evaluated at once, terms x shoes: arrays of 1 MB, within a core's cache (2**19: Monkey 6 five times slower here, the products going to memory and back; 2**16: the calls' overhead shows)
FAST_CARDS = 1290  # the largest N with N**6 < 2**62: int64 is exact
FLOAT_CARDS = 455  # N**6 < 2**53: float64 is exact (456 is the largest such N: one card to spare)
MAX_TABLE = 1447  # factor indices fit six to an int64 code: 1448**6 < 2**63 (more classes than any bet reads)




def position_keys(needs: Needs, knowledge: Knowledge) -> tuple:
    """For positions 1-6, the keys (card tests and attribute names) read there: at a head
    position its place's reads, at the fifth card the Player's and the Banker's third, at the
    sixth the Banker's third; the point value at positions 1-5 where the draws matter; and
    what is known of the card.

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


def suit_only(keys) -> frozenset:
    """The keys among these that read a card's suit alone (its colour, or whole suits): within a
    suit block, where every card has the block's suit, they tell no cards apart.

    >>> from analyzer.game.knowledge import parse_kinds
    >>> red, nine_of_hearts = parse_kinds("red"), parse_kinds("9h")
    >>> suit_only({"colour", "rank", red, nine_of_hearts}) == {"colour", red}
    True
    """
    return frozenset(k for k in keys if k == "colour" or (not isinstance(k, str) and all(k[i] == k[i % 4] for i in range(KINDS))))


def restricted_growth(size: int, most: int) -> list:
    """The set partitions of ``size`` items into at most ``most`` blocks, as restricted growth
    strings: the block of each item, blocks numbered in order of first use.

    >>> restricted_growth(3, 2)
    [(0, 0, 0), (0, 0, 1), (0, 1, 0), (0, 1, 1)]
    """
    strings = [()]
    for _ in range(size):
        strings = [s + (b,) for s in strings for b in range(min(max(s, default=-1) + 2, most))]
    return strings


@lru_cache(maxsize=8)
def suit_patterns(size: int) -> np.ndarray:
    """The set partitions of ``size`` positions into at most four blocks (as many suits as there
    are), as restricted growth strings: the block of each position, blocks numbered in order of
    first use.

    >>> suit_patterns(3).tolist()
    [[0, 0, 0], [0, 0, 1], [0, 1, 0], [0, 1, 1], [0, 1, 2]]
    >>> [len(suit_patterns(k)) for k in range(7)]
    [1, 1, 2, 5, 15, 51, 187]
    """
    strings = restricted_growth(size, 4)
    patterns = np.array(strings, np.int8).reshape(len(strings), size)
    patterns.flags.writeable = False
    return patterns


SUIT_ORDERS = np.array(list(itertools.permutations(range(4))), np.int8)  # suits for blocks 0-3, every way


HANDS = ((1, 3), (2, 4))  # the positions of each hand's first two cards


@dataclass(frozen=True)
class Layout:
    """How a bet's cards are followed: ``partitions[p - 1]`` the classes at position p (None:
    never followed); ``suited`` the positions whose suits are compared; ``order`` the order in
    which positions are counted (suited first); ``symmetry`` ``"head"`` where the four head
    cards may be exchanged, else ``pairs``, the hands whose two cards may be (see the module
    notes); whether the draws matter; and the knowledge (allowed kinds by position)."""

    partitions: tuple
    suited: frozenset
    order: tuple
    symmetry: str
    pairs: tuple
    draws: bool
    knowledge: Knowledge
    reduced: tuple = (None,) * 6  # at a suited position, its classes without the keys of suits alone

    @classmethod
    def of(cls, needs: Needs, knowledge: Knowledge = NOTHING, patterns: bool = True) -> Layout:
        """The layout of ``needs`` given ``knowledge``; with ``patterns`` false, suits compared
        are followed as classes (each suit apart) rather than by suit patterns."""
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
        suited = frozenset(p for p in ever if SUIT in keys[p - 1]) if patterns else frozenset()
        order = tuple(sorted(ever, key=lambda p: (p not in suited, p)))
        keys = [k - {SUIT} if p in suited else k for p, k in enumerate(keys, 1)]  # suited: the suit by pattern
        partitions, reduced = [None] * 6, [None] * 6
        for i, p in enumerate(order):  # a suited card's suit is its block's: the keys of suits alone stay where read
            later = [keys[q - 1] - suit_only(keys[q - 1]) if p in suited and q in suited else keys[q - 1] for q in order[i + 1:]]
            every = frozenset().union(keys[p - 1], *later)
            partitions[p - 1] = partition(every)
            if p in suited:
                reduced[p - 1] = partition(every - suit_only(every))
        if head:  # all four alike: the classes of the first counted
            first = next(p for p in order if p <= 4) if any(p <= 4 for p in order) else None
            partitions[:4] = [partitions[first - 1] if p in ever else None for p in HEAD_POSITIONS]
            reduced[:4] = [reduced[first - 1] if p in ever else None for p in HEAD_POSITIONS]
        for a, b in pairs:  # a pair alike: keys of a = keys of b, counted later too, so the chain holds
            partitions[b - 1], reduced[b - 1] = partitions[a - 1], reduced[a - 1]
        return cls(tuple(partitions), suited, order, "head" if head else "", pairs, needs.draws, knowledge, tuple(reduced))

    def classes(self, p: int) -> np.ndarray:
        """The classes allowed at position p (all of a class's kinds agree with what is known)."""
        part = np.array(self.partitions[p - 1])
        allowed = np.array(self.knowledge.allowed(p))
        return np.flatnonzero(np.bincount(part[allowed]))  # sorted, distinct (np.unique imports numpy.ma: 8 ms)

    def slots(self) -> list:
        """The head's followed positions in groups counted together: all four (``head``), a
        hand's pair, or one position."""
        followed = [p for p in HEAD_POSITIONS if self.partitions[p - 1] is not None]
        if self.symmetry == "head":
            return [tuple(followed)] if followed else []
        paired = {p for pair in self.pairs for p in pair}
        return [pair for pair in self.pairs if pair[0] in followed] + [(p,) for p in followed if p not in paired]

    def heads(self) -> int:
        """How many head rows there are: each slot's multisets of its classes."""
        return math.prod(math.comb(len(self.classes(slot[0])) + len(slot) - 1, len(slot)) for slot in self.slots())

    def rows_at_most(self) -> int:
        """A bound on :meth:`size` from the classes alone, with no walk and no look on disk: each
        head row grows into at most (classes at position 5) x (classes at 6) rows, each times the
        suit patterns of at most every suited position (Compiler.grown_sizes: the patterns grow
        with the suited cards taken). Where it is within a limit, so is the size (``fits``)."""
        count = [len(self.classes(p)) if self.partitions[p - 1] is not None else 1 for p in (5, 6)]
        return self.heads() * count[0] * count[1] * len(suit_patterns(len(self.suited)))

    def size(self, tableau: Tableau, limit: int = MAX_ROWS) -> int:
        """The rows a compilation walks, counted before it from the head rows alone: each head
        times the classes of the third cards it takes (and of the fifth and sixth where known),
        times the suit patterns of its suited cards; counted a few heads at a time, and no
        further once past ``limit`` (at most MAX_ROWS heads are looked at). Kept on disk as the
        compilations are (plancache.py): a process that reads a compilation need not size it."""
        if self.heads() > limit:
            return self.heads()
        name = plancache.key("size", self, tableau, limit)
        stored = plancache.load(name)
        if stored is not None and stored.get("rows", np.zeros(0)).shape == ():
            return int(stored["rows"])
        heads, _ = head_rows(self)
        compiler, total = Compiler(self, tableau), 0
        for start in range(0, len(heads), SIZE_HEADS):
            total += int(compiler.grown_sizes(heads[start:start + SIZE_HEADS]).sum())
            if total > limit:
                break
        plancache.store(name, {"rows": np.array(total, np.int64)})
        return total


@dataclass(frozen=True, eq=False)
class Polynomials:
    """Compiled lines. ``sets`` [set, kind]: the classes whose cards the factors count; a factor
    is an index set * 6 + c (``S(set) - c``), or ``pad`` (the factor 1). ``levels`` builds the
    products of the unsuited factors, ``block_levels`` those of each suit block's factors (in
    every suit), each level the distinct products of their first factors: (parent at the level
    before, factor). A term (row of ``coefficients`` [term, line]) is an unsuited product
    ``free_part``, its blocks ``blocks`` (-1: none), and its ``free`` positions."""

    sets: np.ndarray
    levels: tuple
    block_levels: tuple
    free_part: np.ndarray | None  # None: the last level's products are the terms', in order
    blocks: np.ndarray
    free: tuple  # (free positions, first term, end) of each run of terms: terms are sorted by them
    coefficients: np.ndarray

    def arrays(self) -> dict:
        """The polynomials as named arrays (plancache.store), read back by :meth:`from_arrays`."""
        out = {"sets": self.sets, "blocks": self.blocks, "coefficients": self.coefficients,
               "free": np.array(self.free, np.int64).reshape(-1, 3)}
        for name, levels in (("level", self.levels), ("block_level", self.block_levels)):
            for i, (parent, factor) in enumerate(levels):
                out[f"{name}_{i}_parent"], out[f"{name}_{i}_factor"] = parent, factor
        if self.free_part is not None:
            out["free_part"] = self.free_part
        return out

    @classmethod
    def from_arrays(cls, arrays: dict) -> Polynomials:
        """The polynomials that :meth:`arrays` gave (KeyError or ValueError if they are not whole)."""
        def levels(name):
            count = sum(1 for k in arrays if k.startswith(name + "_") and k.endswith("_parent"))
            return tuple((arrays[f"{name}_{i}_parent"], arrays[f"{name}_{i}_factor"]) for i in range(count))

        free = tuple((int(d), int(start), int(end)) for d, start, end in arrays["free"].tolist())
        coefficients = arrays["coefficients"]
        if coefficients.ndim != 2 or (free and free[-1][2] != len(coefficients)):
            raise ValueError("compiled lines not whole")
        return cls(arrays["sets"], levels("level"), levels("block_level"), arrays.get("free_part"), arrays["blocks"],
                   free, coefficients)

    @property
    def lines(self) -> int:
        return self.coefficients.shape[1]

    def cells(self) -> int:
        built = sum(len(parent) for parent, _ in self.levels + self.block_levels)
        return 2 * built + self.blocks.size + 2 * self.coefficients.size + 1  # twice: their float copy (transposed)

    def counts(self, n) -> list[int]:
        """Each line's ordered 6-card sequences from a shoe of card counts ``n`` (52, by kind)."""
        return one_shoe(self, n)

    def many(self, n: np.ndarray) -> np.ndarray:
        """[shoe, line] counts for card counts n[shoe, 52] of shoes of at most FAST_CARDS cards:
        in float64 where N**6 < 2**53 (every partial product and sum is a count, at most
        N(N-1)...(N-5): exact), int64 beyond (N**6 < 2**62); chunks of shoes of a few MB."""
        exact_float = int(n.sum(1).max(initial=0)) <= FLOAT_CARDS
        widest = max((len(parent) for parent, _ in self.levels + self.block_levels), default=1)
        widest = max(widest * (4 if self.block_levels else 1), len(self.coefficients) * (4 if self.block_levels else 1), 1)
        step = max(1, CHUNK_CELLS // widest)
        out = np.empty((len(n), self.coefficients.shape[1]), np.int64)
        for start in range(0, len(n), step):
            counts = self.evaluate(n[start:start + step], np.float64 if exact_float else np.int64)
            out[start:start + step] = np.rint(counts) if exact_float else counts
        return out

    def evaluate(self, n: np.ndarray, dtype) -> np.ndarray:
        """[shoe, line] counts, with products in ``dtype`` (float64, int64 or object)."""
        size = n.sum(1)
        table = factor_table(class_sums(self.sets, n), dtype)  # [factor, shoe]
        values = build(self.levels, table)
        if self.free_part is not None:
            values = values[self.free_part]
        if self.block_levels:
            suited = np.stack([self.sets & SUIT_KINDS[s] for s in range(4)], 1)  # [set, suit, kind]
            by_suit = factor_table(class_sums(suited.reshape(-1, KINDS), n).reshape(len(self.sets), 4 * len(n)), dtype)
            none = np.repeat(~suited.any(2), len(n), 1)  # [set, suit * shoe]: a class with no kind of that suit
            by_suit[:-1].reshape(len(self.sets), SIX, -1)[np.broadcast_to(none[:, None, :], (len(self.sets), SIX, none.shape[1]))] = 0
            blocks = build(self.block_levels, by_suit).reshape(-1, 4, len(n))  # [block product, suit, shoe]
            values = values * injective_sums(blocks, self.blocks)
        out = np.zeros((self.coefficients.shape[1], len(n)), dtype)
        for (free, start, end), weights in zip(self.free, self.transposed(dtype)):
            out += (weights @ values[start:end]) * free_ways(size, free, dtype)  # after the product
        return out.T

    def transposed(self, dtype) -> list[np.ndarray]:
        """Each run's coefficients [line, term] in ``dtype``, converted once and kept (a tracker
        evaluates the same polynomials after every card)."""
        kept = self.__dict__.setdefault("_transposed", {})
        key = np.dtype(dtype).str
        if key not in kept:
            kept[key] = [np.ascontiguousarray(self.coefficients[start:end].T.astype(dtype)) for _, start, end in self.free]
        return kept[key]


SUIT_KINDS = np.array([[k % 4 == s for k in range(KINDS)] for s in range(4)])  # [suit, kind]


def factor_table(s: np.ndarray, dtype) -> np.ndarray:
    """[factor, column]: S - c for each set's card count S (rows of ``s``) and c = 0..5, then
    the pad factor 1."""
    table = (s[:, None, :] - np.arange(SIX)[None, :, None]).reshape(-1, s.shape[1])
    return np.concatenate([table, np.ones((1, s.shape[1]), table.dtype)]).astype(dtype)


def build(levels: tuple, table: np.ndarray) -> np.ndarray:
    """The products of the last level, row by row: each level's product is its parent's times
    its factor (rows gathered whole, by np.take, faster than indexing; multiplied in place)."""
    values = np.ones((1, table.shape[1]), table.dtype)
    for parent, factor in levels:
        product = np.take(values, parent, axis=0)
        product *= np.take(table, factor, axis=0)
        values = product
    return values


def injective_sums(blocks: np.ndarray, which: np.ndarray) -> np.ndarray:
    """[term, shoe]: for each term's blocks (``which`` [term, 4], -1 none), the sum over every
    way to give them distinct suits of the product of their products in those suits.

    By inclusion-exclusion over which blocks share a suit (Moebius inversion on the lattice of
    set partitions), for blocks j = 1..m with products g_j(s): the sum over distinct suits is
    sum over set partitions P of the blocks of mu(P) prod over the parts b of p_b, where
    p_b = sum_s prod_{j in b} g_j(s) and mu(P) = prod over parts of (-1)^(|b|-1) (|b|-1)!
    (m = 2: p_1 p_2 - p_12). Every p_b is a sum over the suit axis of contiguous products.

    >>> g = np.array([[[1], [2], [3], [4]], [[1], [1], [0], [0]]])  # two blocks, [block, suit, shoe]
    >>> injective_sums(g, np.array([[0, -1, -1, -1], [0, 1, -1, -1]])).tolist()  # 1+2+3+4; 1*1 + 2*1 + ... distinct
    [[10], [17]]
    """
    out = np.zeros((len(which), blocks.shape[2]), blocks.dtype)
    used = (which >= 0).sum(1)
    for m in range(5):
        terms = np.flatnonzero(used == m)
        if not len(terms):
            continue
        if m == 0:
            out[terms] = 1
            continue
        chosen = [blocks[which[terms, j]] for j in range(m)]  # each [term, suit, shoe]
        power, product = {}, {}
        for size in range(1, m + 1):
            for part in itertools.combinations(range(m), size):
                product[part] = chosen[part[0]] if size == 1 else product[part[:-1]] * chosen[part[-1]]
                power[part] = product[part].sum(1)
        for partition, weight in set_partitions(m):
            term = weight * power[partition[0]]
            for part in partition[1:]:
                term = term * power[part]
            out[terms] += term
    return out


@lru_cache(maxsize=8)
def set_partitions(m: int) -> tuple:
    """The set partitions of blocks 0..m-1, each as (its parts, the Moebius weight of the
    partition: the product over parts of (-1)^(size - 1) (size - 1)!).

    >>> set_partitions(2)
    ((((0, 1),), -1), (((0,), (1,)), 1))
    """
    out = []
    for pattern in restricted_growth(m, m):
        parts = tuple(tuple(j for j in range(m) if pattern[j] == b) for b in range(max(pattern) + 1))
        weight = math.prod((-1) ** (len(p) - 1) * math.factorial(len(p) - 1) for p in parts)
        out.append((parts, weight))
    return tuple(out)


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
        sets = {}
        self.set_of, self.rep, self.suits_of, self.rep_in = {}, {}, {}, {}
        for p in layout.order:
            kinds = kinds_of(layout.partitions[p - 1])
            self.rep[p] = np.append(kinds.argmax(1), NONE).astype(np.int8)  # a kind of each class; index -1: no card
            in_suit = kinds[:, :, None] & SUIT_KINDS.T[None, :, :]  # [class, kind, suit]
            self.rep_in[p] = np.where(in_suit.any(1), in_suit.argmax(1), NONE).astype(np.int8)  # [class, suit]
            self.suits_of[p] = in_suit.any(1)  # [class, suit]: the class has kinds of that suit
            self.set_of[p] = np.append([sets.setdefault(row.tobytes(), len(sets)) for row in kinds], -1).astype(np.int64)
        self.sets = np.array([np.frombuffer(key, bool) for key in sets]).reshape(len(sets), KINDS)
        self.pad = len(sets) * SIX
        if self.pad >= MAX_TABLE:
            raise TooMuchDetail(f"too many classes of cards at once ({len(sets)}): read fewer attributes at once")
        # containment along the chain: parent[(q, p)][class at q] = the class at p holding it; between
        # suited positions, the class at p without the keys of suits alone (``own[p]`` maps p's classes there)
        order, self.own = layout.order, {}
        self.parent = {}
        for i, q in enumerate(order):
            for p in order[i + 1:]:
                target = layout.reduced[p - 1] if q in layout.suited and p in layout.suited else layout.partitions[p - 1]
                self.parent[(q, p)] = np.append(np.array(target)[self.rep[q][:-1]], -2)
        for p in layout.suited:
            self.own[p] = np.append(np.array(layout.reduced[p - 1])[self.rep[p][:-1]], -3)

    def rows(self, heads: np.ndarray, weight: np.ndarray):
        """Every row grown from these heads: classes [row, 6] (-1: not followed) and weights."""
        layout, tableau = self.layout, self.tableau
        known = [layout.knowledge.known[p - 1] is not None for p in range(1, 7)]
        rows = np.full((len(heads), 6), NONE, np.int16)
        rows[:, :4] = heads
        if layout.draws:
            pt, bt = self.two_card_totals(rows)
            player, banker_alone = draws(tableau, pt, bt, 0)
            fifth = player | (banker_alone & ~player) | known[4]
        else:
            fifth = np.full(len(rows), known[4])
        rows, weight = self.grow(rows, weight, fifth, 5)
        if layout.draws:
            pt, bt = self.two_card_totals(rows)
            fifth_value = np.where(rows[:, 4] >= 0, KIND_VALUE[self.rep[5][rows[:, 4]]], 0)
            player, banker = draws(tableau, pt, bt, fifth_value)
            sixth = (player & banker) | known[5]
        else:
            sixth = np.full(len(rows), known[5])
        return self.grow(rows, weight, sixth, 6)

    def grown_sizes(self, heads: np.ndarray) -> np.ndarray:
        """For each head row, the rows it grows into (see :meth:`rows` and :meth:`patterns`)."""
        layout, known = self.layout, [k is not None for k in self.layout.knowledge.known]
        count = {p: len(layout.classes(p)) if layout.partitions[p - 1] is not None else 1 for p in (5, 6)}
        suited_heads = ((heads >= 0) & np.isin(np.arange(1, 5), list(layout.suited))).sum(1)
        patterns = np.array([len(suit_patterns(k)) for k in range(7)])
        rows = np.full((len(heads), 6), NONE, np.int16)
        rows[:, :4] = heads
        fifth, sixth = np.full(len(heads), known[4]), np.zeros((len(heads), count[5]), bool) | known[5]
        if layout.draws:
            pt, bt = self.two_card_totals(rows)
            player, banker_alone = draws(self.tableau, pt, bt, 0)
            fifth = fifth | player | banker_alone
            values = KIND_VALUE[self.rep[5][layout.classes(5)]]  # the fifth card's value, class by class
            both = draws(self.tableau, pt[:, None], bt[:, None], values[None, :])
            sixth = sixth | (both[0] & both[1])
        five, six = 5 in layout.suited, 6 in layout.suited
        taken = np.where(fifth[:, None], 1, 0)  # [head, fifth class]: the fifth card taken
        suited = suited_heads[:, None] + five * taken + six * sixth
        ways = patterns[suited] * np.where(sixth, count[6], 1)
        return np.where(fifth, ways.sum(1), ways[:, 0])

    def two_card_totals(self, rows):
        value = {p: KIND_VALUE[self.rep[p][rows[:, p - 1]]] for p in HEAD_POSITIONS}
        return (value[1] + value[3]) % 10, (value[2] + value[4]) % 10

    def grow(self, rows, weight, follow, p):
        """Rows where ``follow`` holds take each allowed class at position p; the others stay."""
        if self.layout.partitions[p - 1] is None or not follow.any():
            return rows, weight
        classes = self.layout.classes(p)
        stay, go = np.flatnonzero(~follow), np.repeat(np.flatnonzero(follow), len(classes))
        grown = rows[go]
        grown[:, p - 1] = np.tile(classes.astype(rows.dtype), int(follow.sum()))
        return np.concatenate([rows[stay], grown]), np.concatenate([weight[stay], weight[go]])

    def patterns(self, rows, weight):
        """Each row with every suit pattern of its followed suited positions that some distinct
        suits can take (each block's classes all hold cards of its suit): (rows, weights, the
        block of each position [row, 6] (-1: none), a suit for each position that one such way
        gives it, for the fields)."""
        suited = [p for p in self.layout.order if p in self.layout.suited]
        block = np.full(rows.shape, NONE, np.int8)
        suit = np.full(rows.shape, NONE, np.int8)
        if not suited:
            return rows, weight, block, suit
        followed = rows[:, [p - 1 for p in suited]] >= 0
        key = followed @ (1 << np.arange(len(suited)))
        parts = []
        for mask in np.unique(key):
            these = np.flatnonzero(key == mask)
            places = [p for i, p in enumerate(suited) if mask >> i & 1]
            strings = suit_patterns(len(places))
            r = np.repeat(these, len(strings))
            b = np.full((len(r), 6), NONE, np.int8)
            b[:, [p - 1 for p in places]] = np.tile(strings, (len(these), 1))
            parts.append((r, b))
        r = np.concatenate([x for x, _ in parts])
        rows, weight, block = rows[r], weight[r], np.concatenate([b for _, b in parts])
        allowed = np.full((len(rows), 4, 4), True)  # [row, block, suit]
        for p in suited:
            here = rows[:, p - 1] >= 0
            for j in range(4):
                at = here & (block[:, p - 1] == j)
                allowed[at, j] &= self.suits_of[p][rows[at, p - 1]]
        chosen = np.full(len(rows), -1)
        for i, order in enumerate(SUIT_ORDERS):  # the first way to give the blocks distinct suits they all hold
            fits = allowed[:, np.arange(4), order].all(1) & (chosen < 0)
            chosen[fits] = i
        keep = np.flatnonzero(chosen >= 0)
        rows, weight, block = rows[keep], weight[keep], block[keep]
        order = SUIT_ORDERS[chosen[keep]]
        suit = np.where(block >= 0, np.take_along_axis(order, np.maximum(block, 0).astype(np.int64), 1), NONE)
        return rows, weight, block, suit.astype(np.int8)

    def factors(self, rows: np.ndarray, block: np.ndarray):
        """(unsuited factors [row, 6], each block's factors [row, 4, 6]), sorted (a product is
        the same in any order), ``pad`` where none."""
        free = np.full(rows.shape, self.pad, np.int64)
        blocks = np.full((len(rows), 4 if self.layout.suited else 0, SIX), self.pad, np.int64)
        order = self.layout.order
        for i, p in enumerate(order):
            here = rows[:, p - 1]
            c = np.zeros(len(rows), np.int64)
            for q in order[:i]:
                if p in self.layout.suited:  # an earlier card of the block (its suit), of p's class but for suits alone
                    c += (self.parent[(q, p)][rows[:, q - 1]] == self.own[p][here]) & (block[:, q - 1] == block[:, p - 1])
                else:
                    c += self.parent[(q, p)][rows[:, q - 1]] == here
            factor = np.where(here >= 0, self.set_of[p][here] * SIX + c, self.pad)
            if p in self.layout.suited:
                for j in range(4):
                    blocks[:, j, p - 1] = np.where(block[:, p - 1] == j, factor, self.pad)
            else:
                free[:, p - 1] = factor
        return np.sort(free, 1), np.sort(blocks, 2)

    def encode(self, factors: np.ndarray) -> np.ndarray:
        """Each row of sorted factor indices as one integer in base pad + 1 (fits in int64: the
        factor table has at most MAX_TABLE entries)."""
        return factors.astype(np.int64) @ (self.pad + 1) ** np.arange(SIX, dtype=np.int64)

    def decode(self, codes: np.ndarray) -> np.ndarray:
        out = np.empty((len(codes), SIX), np.int64)
        for j in range(SIX):
            codes, out[:, j] = np.divmod(codes, self.pad + 1)
        return out

    def fields(self, rows: np.ndarray, suit: np.ndarray) -> dict:
        """The outcome fields of each row, as the conditions read them (places by a kind of the
        class there, in the suit its block was given if suited; -1 where no card); the value
        fields and the hand flags when first read."""
        kind = np.full(rows.shape, NONE, np.int8)
        for p in self.rep:
            kind[:, p - 1] = self.rep[p][rows[:, p - 1]]
            if p in self.layout.suited:
                inside = suit[:, p - 1] >= 0
                kind[inside, p - 1] = self.rep_in[p][rows[inside, p - 1], suit[inside, p - 1]]
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
