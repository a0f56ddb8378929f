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
suited     a followed position whose suit is compared with other cards' (suited hands, same
           suit, flushes). Which suited cards share a suit is a *suit pattern* (a set partition
           of them, at most four blocks); the suits themselves are not followed.
class      cards that nothing read at a position (suits compared aside), *nor at any position
           counted after it*, tells apart. Positions are counted suited ones first, then the
           others, each in dealing order; each position's classes are then unions of the
           classes of every position counted before it (a *chain*), so whether an earlier card
           lies in a later card's class is known from the earlier card's class alone.
row        one way the followed cards can fall: a class at each followed position, and a suit
           pattern of the suited ones.
term       what a row counts: the product over the unsuited followed positions of the *factors*
           ``S(C) - c`` (cards of the position's class C less the c earlier cards of that class),
           times the sum over every way of giving the pattern's blocks distinct suits s of the
           product over each block's positions of ``S(C, s) - c`` (cards of C in suit s less the
           earlier cards of the block in C), times (N-d)(N-d-1)...(N-5) for the 6 - d free
           positions. Rows of one term merge, their coefficients (ways to order them) added.

Why it is exact: count the followed positions first, suited ones first (the free ones take any
of the cards left, in (N-d)(N-d-1)...(N-5) ways, whatever the followed ones were). Given the
suits of the blocks, the card at a suited position can be any card of its class in its block's
suit not counted before it: by the chain, the c earlier cards of its block in its class (keys of
suits alone, such as a colour, tell no card of one block from another, so the classes of earlier
suited cards need not hold them), and no card of another block (another suit); where its class
holds no kind of that suit, none (the factor is 0, whatever c). At an unsuited position, any card of its class but the c
counted before it, whatever their suits. So a row's number of ordered 6-card sequences is its
term, and a line's count the sum of the terms of the rows it settles. Every factor is a count
(the first that reaches zero makes the product zero before any could turn negative), so every
product and sum is an integer at most N(N-1)...(N-5).

Symmetries, each an exchange of cards that no condition and no class tells apart, so that the
rows it pairs have the same count: the two cards of a hand (nothing known of them, neither read
alone), or all four head cards (only the first four read as a group, no draws). Rows are then
multisets of classes, weighted by their orders (with every suit pattern of each).

The compiled lines depend on the conditions, the tableau and the knowledge, never on the shoe:
a rule set is compiled once, and every shoe - one, or a batch as an array - is a few gathers
and one matrix product.
"""

from __future__ import annotations

import threading
from functools import lru_cache

import numpy as np

from . import closedforms, plancache
from ..bets.conditions import settled_masks
from ..game.engine import TooMuchDetail
from ..game.knowledge import NOTHING, Knowledge
from ..game.layout import Needs
from ..base.recent import Recent
from ..game.tableau import Tableau

from .cardcompiler import (CHUNK_CELLS, CHUNK_ROWS, FAST_CARDS, FLOAT_CARDS, HANDS, HEAD_POSITIONS, MAX_ROWS, MAX_TABLE,  # noqa: F401
    PLAIN_ROWS, SIX, SIZE_HEADS, SUIT, SUIT_KINDS, SUIT_ORDERS, Fields, Layout, Polynomials, build, factor_table, head_rows,
    injective_sums, kinds_of, partition, position_keys, prefix_levels, restricted_growth, set_partitions, suit_only,
    suit_patterns, Compiler)


def compile_lines(groups: tuple, layout: Layout, tableau: Tableau, context: str = "these bets") -> Polynomials:
    """The polynomials of every line of ``groups`` (tuples of conditions, each a bet's pay lines
    settled in turn) on ``layout``: columns in order, group after group; with knowledge, one
    more column last, every row (the sequences that agree with it)."""
    size = layout.size(tableau)
    if size > MAX_ROWS:
        raise TooMuchDetail(f"{context} read too much card detail at once ({size:,} ways the cards read can fall; "
                            f"at most {MAX_ROWS:,}): read fewer attributes at once (rank and suit together), at fewer "
                            "places, or know fewer cards")
    compiler = Compiler(layout, tableau)
    heads, weight = head_rows(layout)
    columns = sum(len(g) for g in groups) + bool(layout.knowledge)
    step = max(1, CHUNK_ROWS * len(heads) // max(1, size))
    free_codes, block_codes, hits_of = [], [], []
    for start in range(0, len(heads), step):
        rows, w = compiler.rows(heads[start:start + step], weight[start:start + step])
        rows, w, block, suit = compiler.patterns(rows, w)
        fields = compiler.fields(rows, suit)
        hits = [np.flatnonzero(hit) for conditions in groups for hit in settled_masks(conditions, fields)]
        if layout.knowledge:
            hits.append(np.arange(len(rows)))
        settles = np.zeros(len(rows), bool)
        for h in hits:
            settles[h] = True
        used = np.flatnonzero(settles)
        free, blocks = compiler.factors(rows[used], block[used])
        free_codes.append(compiler.encode(free))
        block_codes.append(np.column_stack([compiler.encode(blocks[:, j]) for j in range(4)]) if layout.suited
                           else np.zeros((len(used), 0), np.int64))
        where = np.full(len(rows), -1)
        where[used] = np.arange(len(used)) + sum(len(f) for f in free_codes[:-1])
        hits_of.append([(where[h], w[h]) for h in hits])
    terms, (levels, free_part), (block_levels, blocks, free) = merge_terms(
        compiler, np.concatenate(free_codes), np.concatenate(block_codes))
    index = np.concatenate([terms[rows_] * columns + column for part in hits_of for column, (rows_, _) in enumerate(part)])
    mults = np.concatenate([m for part in hits_of for _, m in part]).astype(np.float64)
    coefficients = np.rint(np.bincount(index, mults, len(free) * columns)).astype(np.int64).reshape(-1, columns)  # small integers: exact
    order = np.lexsort((free_part, free))  # terms in runs of their free positions, each run one product
    free_part, blocks, free, coefficients = free_part[order], blocks[order], free[order], coefficients[order]
    if not block_levels and levels:  # one term to each product: the last level laid out in the terms' order
        parent, factor = levels[-1]
        levels, free_part = levels[:-1] + ((parent[free_part], factor[free_part]),), None
    runs = [(int(d), int(np.searchsorted(free, d)), int(np.searchsorted(free, d, side="right"))) for d in np.unique(free)]
    return Polynomials(compiler.sets, levels, block_levels, free_part, blocks, tuple(runs), coefficients)


def merge_terms(compiler: Compiler, free_codes: np.ndarray, block_codes: np.ndarray):
    """Rows with the same unsuited product and the same blocks (in any order) are one term.
    Returns (the term of each row, (levels of the unsuited products, the product of each term),
    (levels of the block products, each term's blocks [term, 4] (-1: none), each term's free
    positions))."""
    pad = compiler.pad
    empty = compiler.encode(np.full((1, SIX), pad))[0]  # a block with no factor: no block
    free_products, free_index = np.unique(free_codes, return_inverse=True)
    present = block_codes != empty
    block_products, block_index = np.unique(block_codes[present], return_inverse=True)
    which = np.full(block_codes.shape, len(block_products), np.int64)
    which[present] = block_index.reshape(-1)
    which = np.sort(which, 1)  # a term's blocks in any order: sorted, none (the largest) last
    key = free_index.reshape(-1).astype(np.int64)
    base = len(block_products) + 1
    if len(free_products) * base ** which.shape[1] < 2**62:
        key = key * base ** which.shape[1] + which @ base ** np.arange(which.shape[1] - 1, -1, -1, dtype=np.int64)
        keys, terms = np.unique(key, return_inverse=True)
        width = which.shape[1]
        which = np.zeros((len(keys), width), np.int64)
        for i in range(width):
            which[:, i] = keys // base ** (width - 1 - i) % base
        free_of = keys // base ** width
    else:
        keys, terms = np.unique(np.column_stack([key, which]), axis=0, return_inverse=True)
        free_of, which = keys[:, 0], keys[:, 1:]
    free_factors = compiler.decode(free_products)
    levels, free_order = prefix_levels(free_factors, pad)
    followed = (free_factors[free_of] != pad).sum(1)
    blocks = np.full((len(free_of), 4), -1, np.int64)
    block_levels = ()
    if len(block_products):
        block_factors = compiler.decode(block_products)
        block_levels, block_order = prefix_levels(block_factors, pad)
        in_blocks = (block_factors != pad).sum(1)
        inside = which < len(block_products)
        blocks[:, :which.shape[1]] = np.where(inside, block_order[np.minimum(which, len(block_products) - 1)], -1)
        followed += np.where(inside, in_blocks[np.minimum(which, len(block_products) - 1)], 0).sum(1)
    return terms.reshape(-1), (levels, free_order[free_of]), (block_levels, blocks, SIX - followed)


# Compiled lines by (conditions, tableau, knowledge, for many shoes): (polynomials, first column, columns). One
# compilation serves every shoe; a rule set's bets that read alike share one, each charged its
# share of it (its columns), so that the budget counts what is held once.
COMPILED = Recent(16_000_000, size=lambda entry: entry[0].cells() * entry[2] // max(entry[0].lines, 1))
_COMPILING = threading.Lock()  # one compilation at a time: a server's threads wait for it, not repeat it


@lru_cache(maxsize=1024)
def fits(needs: Needs, tableau: Tableau, knowledge: Knowledge = NOTHING) -> bool:
    """Whether lines reading ``needs`` compile within MAX_ROWS rows (else they are counted by the
    enumeration at their card detail, shoe by shoe: engine.enumerate_cards)."""
    layout = layout_of(needs, knowledge, tableau)
    return layout.rows_at_most() <= MAX_ROWS or layout.size(tableau) <= MAX_ROWS


@lru_cache(maxsize=1024)
def layout_of(needs: Needs, knowledge: Knowledge, tableau: Tableau, many: bool = False) -> Layout:
    """The layout a compilation walks: suits compared by suit patterns (few rows: rank and suit
    read together at every head card, or at a hand's three cards, compile only so); for ``many``
    shoes, as classes where that takes at most PLAIN_ROWS rows (more rows to compile, fewer
    products to evaluate each shoe: Jackpot Baccarat's batch runs 2.2x faster so, and compiles in
    0.3 s rather than 0.04 s)."""
    patterned = Layout.of(needs, knowledge)
    if not many or not patterned.suited:
        return patterned
    plain = Layout.of(needs, knowledge, patterns=False)
    return plain if plain.rows_at_most() <= PLAIN_ROWS or plain.size(tableau, PLAIN_ROWS) <= PLAIN_ROWS else patterned


def walks(bets, tableau: Tableau, knowledge: Knowledge = NOTHING, many: bool = False) -> dict:
    """The compilations :func:`prepare` would make now for ``bets`` ((name, conditions, needs)
    each): layout -> {conditions: name} of the bets not compiled yet that fit, one walk a layout."""
    by_layout = {}
    for name, conditions, needs in bets:
        if fits(needs, tableau, knowledge) and COMPILED.get((conditions, tableau, knowledge, many)) is None:
            by_layout.setdefault(layout_of(needs, knowledge, tableau, many), {}).setdefault(conditions, name)
    return by_layout


def pending_rows(bets, tableau: Tableau, knowledge: Knowledge = NOTHING, many: bool = False) -> list[tuple]:
    """(the bets' conditions, rows) of each compilation :func:`prepare` would make now for
    ``bets``, in order: the rows it walks (Layout.size, counted before any walk), 0 where a closed
    form or the cache on disk has it. What a server bounds before it starts a request's work."""
    out = []
    for layout, members in walks(bets, tableau, knowledge, many).items():
        groups = tuple(members)
        free = (not knowledge and closedforms.closed_form(groups, tableau) is not None) or \
            plancache.stored(plancache.key("cards", groups, tableau, knowledge, many))
        out.append((groups, 0 if free else layout.size(tableau)))
    return out


def prepare(bets, tableau: Tableau, knowledge: Knowledge = NOTHING, many: bool = False):
    """Compile the lines of ``bets`` ((name, conditions, needs) each) not compiled yet, in one
    walk for all the bets that share a layout (for ``many`` shoes: see layout_of); those that do
    not fit are left out."""
    with _COMPILING:
        for layout, members in walks(bets, tableau, knowledge, many).items():
            context = " and ".join(dict.fromkeys(members.values()))
            polynomials = None if knowledge else closedforms.closed_form(tuple(members), tableau)  # a closed form first
            if polynomials is None:
                polynomials = stored_or_compiled(tuple(members), layout, tableau, knowledge, many, context)
            start = 0
            for conditions in members:
                COMPILED.put((conditions, tableau, knowledge, many), (polynomials, start, len(conditions)))
                start += len(conditions)


def stored_or_compiled(groups: tuple, layout: Layout, tableau: Tableau, knowledge: Knowledge, many: bool,
                       context: str) -> Polynomials:
    """compile_lines' polynomials, read from the cache on disk where an earlier process kept them
    (plancache.py: the layout is a function of what is asked and of the code), else compiled
    and kept there."""
    return plancache.read_or_made(plancache.key("cards", groups, tableau, knowledge, many), Polynomials.from_arrays,
                                  lambda: compile_lines(groups, layout, tableau, context))


def compiled(name: str, conditions: tuple, needs: Needs, tableau: Tableau, knowledge: Knowledge = NOTHING,
             many: bool = False):
    """(polynomials, first column, columns) of these lines, compiled now if they were not."""
    key = (conditions, tableau, knowledge, many)
    entry = COMPILED.get(key)
    if entry is None:
        prepare([(name, conditions, needs)], tableau, knowledge, many)
        entry = COMPILED.get(key)
        if entry is None:  # kept out of the cache by a larger one since: compile it for this call alone
            polynomials = compile_lines((conditions,), layout_of(needs, knowledge, tableau, many), tableau, name)
            entry = (polynomials, 0, len(conditions))
    return entry


def line_counts(name: str, conditions: tuple, needs: Needs, counts, tableau: Tableau,
                knowledge: Knowledge = NOTHING) -> list[int]:
    """Ordered 6-card sequences settled by each of ``conditions`` in turn on a shoe of card
    ``counts`` (52, by kind), that agree with ``knowledge``."""
    polynomials, start, width = compiled(name, conditions, needs, tableau, knowledge)
    return last_shoe(polynomials, tuple(counts))[start:start + width]


def last_shoe(polynomials, n: tuple) -> list[int]:
    """``polynomials.counts(n)`` (compiled Polynomials, or a closed form), kept for the last shoe
    asked: the bets that share one compilation are counted by one evaluation a shoe, not one
    each (the memory goes with the polynomials)."""
    last = polynomials.__dict__.get("_last")
    if last is None or last[0] != n:
        last = (n, polynomials.counts(n))
        polynomials.__dict__["_last"] = last  # one pair, replaced whole: safe between threads
    return last[1]
