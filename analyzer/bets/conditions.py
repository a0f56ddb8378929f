"""Conditions over a coup's outcome fields: the data that says when a pay line applies.

A condition is built from field tests combined with all / any / not; it is parsed from user
text (rule files) and validated, never evaluated as code. ``mask(fields)`` gives the cells of a
Distribution where it holds; ``needs()`` says what of the cards it reads (layout.Needs), so that
a bet is counted at exactly the card detail it uses. Tests on single cards and groups of cards
are in cardtests.py.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..game.cards import BaccaratError
from ..base.errors import did_you_mean
from .cardtests import GROUPS, PLACES, Poker, CardIs, is_card_key, parse_card_test, parse_group_test
from ..game.layout import Needs, np, union  # np: numpy, imported at first use

WINNERS = {"player": 1, "banker": -1, "tie": 0}

# name -> (meaning, allowed values): a range of integers, booleans, or the winners.
FIELDS = {
    "winner": ("who wins the coup: player, banker or tie", WINNERS),
    "player_total": ("the Player's final total", range(10)),
    "banker_total": ("the Banker's final total", range(10)),
    "player_two_card_total": ("the Player's total on his first two cards", range(10)),
    "banker_two_card_total": ("the Banker's total on his first two cards", range(10)),
    "player_cards": ("cards the Player took", range(2, 4)),
    "banker_cards": ("cards the Banker took", range(2, 4)),
    "player_third": ("value of the Player's third card; -1 when he took none", range(-1, 10)),
    "banker_third": ("value of the Banker's third card; -1 when he took none", range(-1, 10)),
    "player_natural": ("the Player has a natural (a two-card 8 or 9)", (False, True)),
    "banker_natural": ("the Banker has a natural (a two-card 8 or 9)", (False, True)),
    "natural": ("either hand has a natural", (False, True)),
    "player_pair": ("the Player's first two cards are of equal rank", (False, True)),
    "banker_pair": ("the Banker's first two cards are of equal rank", (False, True)),
    "player_suited": ("the Player's first two cards are of one suit", (False, True)),
    "banker_suited": ("the Banker's first two cards are of one suit", (False, True)),
    "margin": ("the difference of the final totals", range(10)),
    "total_cards": ("cards dealt in the coup", range(4, 7)),
    "totals_sum": ("the two final totals added", range(19)),
    "winning_total": ("the winning hand's final total (in a tie, the tied total)", range(10)),
    "losing_total": ("the losing hand's final total (in a tie, the tied total)", range(10)),
}
EXAMPLES = {
    "winner": 'winner = "banker"', "player_total": "player_total = [8, 9]",
    "banker_total": "banker_total = 6", "player_two_card_total": "player_two_card_total = { min = 0, max = 5 }",
    "banker_two_card_total": "banker_two_card_total = 7", "player_cards": "player_cards = 3",
    "banker_cards": "banker_cards = 3", "player_third": "player_third = -1",
    "banker_third": "banker_third = { min = 0, max = 4 }", "player_natural": "player_natural = true",
    "banker_natural": "banker_natural = false", "natural": "natural = true", "player_pair": "player_pair = true",
    "banker_pair": "banker_pair = true", "player_suited": "player_suited = true",
    "banker_suited": "banker_suited = true", "margin": "margin = { min = 4 }", "total_cards": "total_cards = [5, 6]",
    "totals_sum": "totals_sum = { min = 15 }", "winning_total": "winning_total = 9", "losing_total": "losing_total = 0",
}


def _encode(value):
    return WINNERS.get(value, value) if isinstance(value, str) else value


def _size(fields):
    return len(next(iter(fields.values())))


HEAD_FLAGS = {  # the value-level fields read from the head cards' ranks and suits
    f"{hand}_{flag}": Needs(frozenset({f"{hand}_1", f"{hand}_2"}), attributes=frozenset({attribute}),
                            singles=frozenset({f"{hand}_hand"}),
                            reads=frozenset({(f"{hand}_1", attribute), (f"{hand}_2", attribute)}))
    for hand in ("player", "banker") for flag, attribute in (("pair", "rank"), ("suited", "suit"))
}


def values_at(*places) -> frozenset:
    return frozenset((place, "value") for place in places)


# The value fields that need no draw, by the head cards whose values they read (a natural ends the
# coup, so a two-card 8 or 9 is a natural whatever the tableau), and the third cards whose values
# the others read beyond the draws themselves.
TWO_CARD_FIELDS = {
    "player_two_card_total": values_at("player_1", "player_2"), "player_natural": values_at("player_1", "player_2"),
    "banker_two_card_total": values_at("banker_1", "banker_2"), "banker_natural": values_at("banker_1", "banker_2"),
    "natural": values_at("player_1", "player_2", "banker_1", "banker_2"),
}
THIRD_CARD_VALUES = {
    "player_total": values_at("player_3"), "player_third": values_at("player_3"),
    "banker_total": values_at("banker_3"), "banker_third": values_at("banker_3"),
    **{name: values_at("player_3", "banker_3") for name in ("winner", "margin", "totals_sum", "winning_total",
                                                               "losing_total")},
}


def field_needs(name: str) -> Needs:
    """What a value-level field reads: the two head cards' ranks or suits, their values, or the
    draws (and the third cards' values where the field reads them).

    >>> field_needs("player_natural").draws, field_needs("winner").draws
    (False, True)
    """
    if name in HEAD_FLAGS:
        return HEAD_FLAGS[name]
    if name in TWO_CARD_FIELDS:  # each hand's two cards read together: the hands are not to be exchanged
        hands = frozenset(f"{place.split('_')[0]}_hand" for place, _ in TWO_CARD_FIELDS[name])
        return Needs(tableau=True, reads=TWO_CARD_FIELDS[name], singles=hands)
    return Needs(tableau=True, reads=THIRD_CARD_VALUES.get(name, frozenset()), draws=True)


@dataclass(frozen=True)
class Is:
    """The field takes one of the values."""

    field: str
    values: tuple

    def mask(self, fields):
        """Where the field takes one of the values: a comparison a value (np.isin costs ten
        times as much on the few values a condition names)."""
        field, codes = fields[self.field], [_encode(v) for v in self.values]
        if not codes or len(codes) > 8:
            return np.isin(field, codes)
        out = np.asarray(field == codes[0])
        for code in codes[1:]:
            out = out | (field == code)
        return out

    def needs(self) -> Needs:
        return field_needs(self.field)


@dataclass(frozen=True)
class Between:
    """low <= field <= high."""

    field: str
    low: int
    high: int

    def mask(self, fields):
        return (fields[self.field] >= self.low) & (fields[self.field] <= self.high)

    def needs(self) -> Needs:
        return field_needs(self.field)


@dataclass(frozen=True)
class AllOf:
    parts: tuple

    def mask(self, fields):
        out = np.ones(_size(fields), bool)
        for part in self.parts:  # one mask at a time: memory does not grow with the parts
            out &= part.mask(fields)
        return out

    def needs(self) -> Needs:
        return union(p.needs() for p in self.parts)


@dataclass(frozen=True)
class AnyOf:
    parts: tuple

    def mask(self, fields):
        out = np.zeros(_size(fields), bool)
        for part in self.parts:
            out |= part.mask(fields)
        return out

    def needs(self) -> Needs:
        return union(p.needs() for p in self.parts)


@dataclass(frozen=True)
class Not:
    part: object

    def mask(self, fields):
        return ~self.part.mask(fields)

    def needs(self) -> Needs:
        return self.part.needs()


def domain(name: str, context: str):
    """The values field ``name`` can take."""
    hand, _, number = name.rpartition("_")
    if hand in ("player", "banker") and number.isdigit():
        raise BaccaratError(f"{context}: no card {name!r}: a hand has at most three cards ({hand}_1 to {hand}_3)")
    if name not in FIELDS:
        hint = did_you_mean(name, [*FIELDS, *PLACES, *GROUPS])
        raise BaccaratError(f"{context}: unknown outcome field {name!r}" + (hint or f" (fields: {', '.join(FIELDS)}; "
                            f"cards: {', '.join(PLACES)}; groups: {', '.join(GROUPS)})"))
    return FIELDS[name][1]


def check_value(name: str, value, context: str):
    """The value itself, if the field can take it."""
    allowed = domain(name, context)
    booleans = allowed == (False, True)
    ok = isinstance(value, bool) if booleans else (
        isinstance(value, str) if allowed is WINNERS else type(value) is int
    )
    if not ok or value not in allowed:
        shown = ", ".join(map(str, allowed)) if not isinstance(allowed, range) else f"{allowed[0]} to {allowed[-1]}"
        raise BaccaratError(f"{context}: {name} cannot be {value!r} (it is one of {shown.lower() if booleans else shown})")
    return value


def where(**conditions) -> AllOf:
    """All of the given field tests; a value may be one value or a tuple (or list) of allowed values.

    >>> where(winner="banker", banker_total=(6, 7))
    AllOf(parts=(Is(field='winner', values=('banker',)), Is(field='banker_total', values=(6, 7))))
    """
    parts = []
    for name, value in conditions.items():
        values = tuple(value) if isinstance(value, (tuple, list)) else (value,)
        parts.append(Is(name, tuple(check_value(name, v, "condition") for v in values)))
    return AllOf(tuple(parts))


MAX_DEPTH = 32  # all / any / not within each other: ample for any bet, and no recursion without end


def parse_condition(table, context: str, poker: Poker = Poker(), depth: int = 0):
    """A condition from a rule file's ``when`` table: each key a field test, or all / any / not.

    A field test is a value (``banker_total = 6``), a list of values (``player_total = [8, 9]``)
    or a range (``margin = { min = 4, max = 9 }``, either end optional); a card place takes a
    card test (``player_1 = { rank = "K" }``) and a group a group test (``first_four = {
    same_colour = true }``), see cardtests.py. An empty table holds always (a catch-all line).

    >>> parse_condition({"winner": "player", "margin": {"min": 4}, "not": {"player_natural": True}}, "x")
    AllOf(parts=(Is(field='winner', values=('player',)), Between(field='margin', low=4, high=9), Not(part=AllOf(parts=(Is(field='player_natural', values=(True,)),)))))
    """
    if not isinstance(table, dict):
        raise BaccaratError(f"{context}: a condition is a table of field tests, all, any or not")
    if depth > MAX_DEPTH:
        raise BaccaratError(f"{context}: conditions nested more than {MAX_DEPTH} deep")
    parts = []
    for key, value in table.items():
        here = f"{context}.{key}"
        if key in ("all", "any"):
            if not isinstance(value, list) or not value:
                raise BaccaratError(f"{here}: '{key}' takes a non-empty list of conditions")
            inner = tuple(parse_condition(v, f"{here}[{i}]", poker, depth + 1) for i, v in enumerate(value, 1))
            parts.append(AllOf(inner) if key == "all" else AnyOf(inner))
        elif key == "not":
            if value == {}:
                raise BaccaratError(f"{here}: 'not' of an empty table matches nothing")
            parts.append(Not(parse_condition(value, here, poker, depth + 1)))
        elif is_card_key(key):
            if key in PLACES:
                parts.append(CardIs(key, parse_card_test(value, here)))
            else:
                parts.extend(parse_group_test(key, value, here, poker))
        elif isinstance(value, list):
            if not value:
                raise BaccaratError(f"{here}: an empty list matches nothing")
            parts.append(Is(key, tuple(check_value(key, v, here) for v in value)))
        elif isinstance(value, dict):
            parts.append(parse_range(key, value, here))
        else:
            parts.append(Is(key, (check_value(key, value, here),)))
    return AllOf(tuple(parts))


def parse_range(name: str, table: dict, context: str) -> Between:
    allowed = domain(name, context)
    if not isinstance(allowed, range):
        raise BaccaratError(f"{context}: {name} is not a number; give a value or a list, not a range")
    unknown = set(table) - {"min", "max"}
    if unknown or not table:
        raise BaccaratError(f"{context}: a range has only 'min' and 'max' (got {', '.join(sorted(unknown)) or 'neither'})")
    low = check_value(name, table.get("min", allowed[0]), f"{context}.min")
    high = check_value(name, table.get("max", allowed[-1]), f"{context}.max")
    if low > high:
        raise BaccaratError(f"{context}: min {low} is above max {high}: the range matches nothing")
    return Between(name, low, high)


def settled_masks(conditions: tuple, fields: dict) -> list:
    """For each condition in turn (a bet's pay lines), the cells it settles: where it holds and no
    earlier one did."""
    open_cells = True
    out = []
    for condition in conditions:
        hit = condition.mask(fields) & open_cells
        out.append(hit)
        open_cells = open_cells & ~hit
    return out
