"""Closed forms for lines that compare suits (hands of one or two colours, suits held in sets):
each line expanded into products of suit-set indicators, each product counted by value
sequences in exact integers (SuitSets). Refused past MAX_SUIT_TERMS terms or
MAX_SUIT_PRODUCTS products, and then counted by another route (counts.py)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache, reduce
from itertools import product

import numpy as np

from ..game.cards import SUIT_COLOUR, whole_suits
from ..bets.cardtests import CardIs, GroupCount, GroupEvery, GroupSame
from ..bets.conditions import AllOf, AnyOf, Is, Not
from ..game.engine import falling
from ..game.layout import GROUPS, HEAD, NONE, PLACES, draws, value_fields

from .forms import DEGREE, FAST_CARDS, ClosedForm, with_card

ALL_SUITS = 15  # suit sets as 4-bit masks: bit s for suit s
MAX_SUIT_TERMS = 512  # products of indicators a bet's lines may expand to
MAX_SUIT_PRODUCTS = 160  # distinct products of suit sets counted a shoe: about a second on 8 decks


@dataclass(frozen=True)
class Dealt:
    """The place holds a card (a head place always does): a value test."""

    place: str

    def mask(self, fields):
        return fields[self.place.split("_")[0] + "_third"] >= 0 if self.place.endswith("_3") else True


def suit_mask(member: tuple) -> int | None:
    """The suits whose every card a card test passes, as a mask, if it passes exactly those
    (a test of whole suits: a suit, a colour); else None.

    >>> suit_mask(tuple(k % 4 in (1, 2) for k in range(52))), suit_mask(tuple(k // 4 == 0 for k in range(52)))
    (6, None)
    """
    return sum(1 << s for s in range(4) if member[s]) if whole_suits(member) else None


def suit_terms(condition) -> list | None:
    """The condition as a sum of terms (coefficient, value tests, suit sets: ((place, mask), ...)),
    or None where it tests anything else of the cards."""
    one = [(1, (), ())]
    if isinstance(condition, (AllOf, AnyOf)):
        parts = [suit_terms(part) for part in condition.parts]
        if any(terms is None for terms in parts):
            return None
        if isinstance(condition, AllOf):
            return reduce(times, parts, one)
        return minus(one, reduce(times, [minus(one, terms) for terms in parts], one))  # any = 1 - prod(1 - x)
    if isinstance(condition, Not):
        terms = suit_terms(condition.part)
        return None if terms is None else minus(one, terms)
    if isinstance(condition, GroupEvery):
        mask = suit_mask(condition.test.member)
        return None if mask is None else [(1, (), tuple((p, mask) for p in GROUPS[condition.group]))]
    if isinstance(condition, CardIs):
        mask = suit_mask(condition.test.member)
        return None if mask is None else [(1, (Dealt(condition.place),), ((condition.place, mask),))]
    if isinstance(condition, GroupCount):  # how many dealt cards in C: the sum over the places' choices of in C or not
        mask = suit_mask(condition.test.member)
        if mask is None:
            return None
        held = [[(1, (Dealt(p),) if p not in HEAD else (), ((p, mask),))] for p in GROUPS[condition.group]]
        return merged(term for chosen in product((True, False), repeat=len(held)) if sum(chosen) in condition.values
                      for term in reduce(times, [h if c else minus(one, h) for h, c in zip(held, chosen)], one))
    if isinstance(condition, GroupSame) and condition.attribute in ("suit", "colour"):
        places, attribute, holds = GROUPS[condition.group], condition.attribute, {condition.holds}
    elif isinstance(condition, Is) and condition.field in ("player_suited", "banker_suited"):
        hand = condition.field.split("_")[0]
        places, attribute, holds = (f"{hand}_1", f"{hand}_2"), "suit", {bool(v) for v in condition.values}
    else:
        needs = condition.needs()
        return None if needs.cards or needs.attributes else [(1, (condition,), ())]
    sets = [1 << s for s in range(4)] if attribute == "suit" else \
        [sum(1 << s for s in range(4) if SUIT_COLOUR[s] == c) for c in (0, 1)]
    same = [(1, (), tuple((p, mask) for p in places)) for mask in sets]
    return {frozenset({True}): same, frozenset({False}): minus(one, same), frozenset({True, False}): one}.get(frozenset(holds), [])


def times(a: list, b: list) -> list:
    """The product of two sums of terms, like terms merged."""
    return merged((x * y, tests + more, tuple(sorted(set(sets) | set(other))))
                  for x, tests, sets in a for y, more, other in b)


def minus(a: list, b: list) -> list:
    return merged(list(a) + [(-y, tests, sets) for y, tests, sets in b])


def merged(terms) -> list:
    """Like terms added (each place's suit sets intersected, repeated value tests once), those
    that vanish dropped: a coefficient 0, or a head place (always dealt) in no suit."""
    out = {}
    for coefficient, tests, sets in terms:
        mask = {}
        for place, m in sets:
            mask[place] = mask.get(place, ALL_SUITS) & m
        if any(m == 0 for place, m in mask.items() if place in HEAD):
            continue
        key = (tuple(dict.fromkeys(tests)), tuple(sorted(mask.items())))
        out[key] = out.get(key, 0) + coefficient
        if len(out) > MAX_SUIT_TERMS:
            raise TooManyTerms
    return [(c, tests, sets) for (tests, sets), c in out.items() if c]


class TooManyTerms(Exception):
    pass


def suit_set_lines(conditions: tuple) -> tuple | None:
    """Per line, its terms as it settles (held, and no earlier line held), each term's suit sets
    nested or apart; None where the lines are not of this shape (or expand to too many terms)."""
    return suit_expansion(conditions)[0]


@lru_cache(maxsize=64)
def suit_expansion(conditions: tuple) -> tuple:
    """(suit_set_lines, and where they are None, why not: words for a refusal)."""
    try:
        expanded = [suit_terms(condition) for condition in conditions]
        if any(terms is None for terms in expanded):
            return None, "no closed form has its shape"
        out, open_ = [], [(1, (), ())]
        for terms in expanded:
            out.append(times(terms, open_))
            open_ = times(open_, minus([(1, (), ())], terms))
    except TooManyTerms:
        return None, f"its tests of suits and colours expand to more than {MAX_SUIT_TERMS} terms"
    products = {sets for terms in out for _, _, sets in terms}
    if len(products) > MAX_SUIT_PRODUCTS:
        return None, (f"its tests of suits and colours expand to {len(products)} products of suit sets a shoe, at most "
                      f"{MAX_SUIT_PRODUCTS}")
    for sets in products:
        masks = [m for _, m in sets]
        if any(a & b not in (0, a, b) for a in masks for b in masks):
            return None, "its tests of suits and colours cross (sets of suits that overlap without nesting)"
    return tuple(tuple(terms) for terms in out), ""


def suit_products(conditions: tuple) -> int:
    """The distinct products of suit sets these lines count a shoe (each a pass over the value
    sequences: about 5 ms on 8 decks), or 0 where they are not of this shape."""
    lines = suit_set_lines(conditions)
    return 0 if lines is None else len({sets for terms in lines for _, _, sets in terms})


@lru_cache(maxsize=2)
def value_sequences(tableau) -> tuple:
    """(values [sequence, place] in PLACES order, -1 where not dealt; cards dealt): every
    sequence of point values the tableau deals (339,400 under punto banco)."""
    heads = np.indices((10,) * 4).reshape(4, -1)  # positions 1-4: player_1, banker_1, player_2, banker_2
    pt, bt = (heads[0] + heads[2]) % 10, (heads[1] + heads[3]) % 10
    player, banker = draws(tableau, pt, bt, np.zeros_like(pt))
    none = lambda rows: np.full((1, rows.shape[1]), NONE)  # noqa: E731
    stood = heads[:, ~player & ~banker]
    alone = with_card(heads[:, ~player & banker], 10)
    drew = with_card(heads[:, player], 10)
    _, takes = draws(tableau, (drew[0] + drew[2]) % 10, (drew[1] + drew[3]) % 10, drew[4])
    both = with_card(drew[:, takes], 10)
    values = np.hstack([np.vstack([stood, none(stood), none(stood)]), np.vstack([alone[:4], none(alone), alone[4:]]),
                        np.vstack([drew[:, ~takes], none(drew[:, ~takes])]), both]).T.copy()
    return values.astype(np.int8), 4 + (values[:, 4:] >= 0).sum(1)


class SuitSets(ClosedForm):
    """Lines of suit_set_lines, shoe by shoe: each product of suit sets counted over the value
    sequences, added into the lines it is a term of, then let go (memory: a few arrays of the
    sequences, whatever the lines)."""

    def group(self, conditions: tuple, n: np.ndarray, dtype) -> np.ndarray:
        values, dealt = value_sequences(self.tableau)
        by_product = {}  # the products of suit sets, each with (line, coefficient, value tests) of its terms
        for line, terms in enumerate(suit_set_lines(conditions)):
            for coefficient, tests, sets in terms:
                by_product.setdefault(sets, []).append((line, coefficient, tests))
        fields = value_fields((values[:, 0] + values[:, 2]) % 10, (values[:, 1] + values[:, 3]) % 10,
                              values[:, 4], values[:, 5])
        tested = {}
        for sets, uses in by_product.items():
            for _, _, tests in uses:
                if tests not in tested:
                    tested[tests] = np.logical_and.reduce([np.broadcast_to(t.mask(fields), len(values)) for t in tests]) \
                        if tests else None
        out = np.zeros((len(n), len(conditions)), object if dtype is object else np.int64)
        for shoe, counts in enumerate(np.asarray(n)):
            size = int(counts.sum())
            kind = object if size > FAST_CARDS else np.int64
            by_value = counts.reshape(13, 4)[list(RANK_OF_VALUE)].astype(kind)  # [value, suit], value 0: T-K
            by_value = np.concatenate([by_value[:4].sum(0, keepdims=True), by_value[4:]])
            in_sets = np.stack([by_value[:, [s for s in range(4) if m >> s & 1]].sum(1) for m in range(16)], 1)  # [value, mask]
            free = np.array([falling(size - d, DEGREE - d) for d in range(7)], kind)[dealt]
            totals = [0] * len(conditions)
            for sets, uses in by_product.items():
                counted = sequences(self.tableau, in_sets, dict(sets), kind) * free
                for line, coefficient, tests in uses:
                    held = counted if tested[tests] is None else counted[tested[tests]]
                    totals[line] += coefficient * int(held.sum())
            out[shoe] = totals
        return out


RANK_OF_VALUE = (9, 10, 11, 12, 0, 1, 2, 3, 4, 5, 6, 7, 8)  # T J Q K (value 0), then A-9: rows of value 0..9 after the sum


def sequences(tableau, in_sets: np.ndarray, sets: dict, kind) -> np.ndarray:
    """[value sequence] ordered draws of its dealt cards with each place's card in its suit set:
    the product above, the places most constrained first."""
    values, _ = value_sequences(tableau)
    equal = equal_values(tableau)
    mask = [sets.get(place, ALL_SUITS) for place in PLACES]
    order = sorted(range(len(PLACES)), key=lambda p: (bin(mask[p]).count("1"), p))
    out = np.ones(len(values), kind)
    for i, p in enumerate(order):
        left = np.append(in_sets[:, mask[p]], 1)[values[:, p]]  # index -1: no card, the factor 1
        for q in order[:i]:
            if mask[q] & ~mask[p] == 0:  # within p's suits: a card counted at q is one p cannot take
                left -= equal[min(p, q), max(p, q)]
        out *= left
    return out


@lru_cache(maxsize=2)
def equal_values(tableau) -> dict:
    """(p, q) -> [value sequence] whether places p < q both hold cards of one value."""
    values, _ = value_sequences(tableau)
    return {(p, q): (values[:, p] == values[:, q]) & (values[:, p] >= 0)
            for p in range(len(PLACES)) for q in range(p + 1, len(PLACES))}


