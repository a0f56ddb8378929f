"""What is known of the coming cards: a frozen value beside the shoe.

Glossary
--------
position   a card's place in dealing order, 1 to 6: 1 the Player's first card, 2 the Banker's
           first, 3 the Player's second, 4 the Banker's second, 5 the fifth card out of the shoe
           (the Player's third if he draws, else the Banker's third if he draws), 6 the sixth
           (the Banker's third when both draw). The fifth and sixth cards are counted whether or
           not the coup uses them: every count is of ordered six-card sequences.
known      what is known of the card at a position: the kinds (of the 52) it may be. Written as
           a rank (``8``, ``K``), a card (``Ah``), a list or range of ranks or point values
           (``6,7,8,9``, ``6-9``, ``0`` for the ten-value cards), a colour (``red``, ``black``)
           or a suit (``hearts``); items of a list add up.
knowledge  what is known at each position; nothing by default. Results given knowledge are
           conditional on it, and their total is the number of six-card sequences that agree.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import reduce

from .cards import COLOURS, KINDS, RANKS, SUIT_COLOUR, SUIT_NAMES, SUITS, VALUES, BaccaratError, parse_card, parse_rank, whole_ranks
from ..base.errors import expect

POSITIONS = range(1, 7)
POSITION_NAMES = ("the Player's first card", "the Banker's first card", "the Player's second card",
                  "the Banker's second card", "the fifth card out", "the sixth card out")
ANY = (True,) * KINDS


def kinds_where(test) -> tuple:
    """52 booleans: which kinds (rank * 4 + suit) pass ``test(rank, suit)``."""
    return tuple(bool(test(k // 4, k % 4)) for k in range(KINDS))


def of_values(values) -> tuple:
    """The kinds whose point value is one of ``values``.

    >>> sum(of_values({0}))
    16
    """
    return kinds_where(lambda rank, suit: VALUES[rank] in values)


def parse_item(text: str) -> tuple:
    """The kinds one item of a card list names: a rank, a card, a point value 0 or 1, a range of
    point values (``6-9``) or of ranks (``T-K``), a colour or a suit.

    >>> [sum(parse_item(t)) for t in ("8", "Ah", "0", "1", "6-9", "T-K", "red", "clubs")]
    [4, 1, 16, 4, 16, 16, 26, 13]
    """
    word = text.strip().lower()
    if word in COLOURS:
        return kinds_where(lambda rank, suit: SUIT_COLOUR[suit] == COLOURS.index(word))
    if word in SUIT_NAMES:
        return kinds_where(lambda rank, suit: suit == SUIT_NAMES.index(word))
    if word in ("0", "1"):
        return of_values({int(word)})
    ends = re.fullmatch(r"(\w+)\s*-\s*(\w+)", word)
    if ends:
        low, high = ends.groups()
        if re.fullmatch(r"[0-9]", low) and re.fullmatch(r"[0-9]", high):
            first, last, key = int(low), int(high), lambda rank: VALUES[rank]
        else:
            try:
                first, last, key = parse_rank(low), parse_rank(high), lambda rank: rank
            except BaccaratError:
                raise BaccaratError(f"the range {text.strip()!r} must run between two point values (0-9, e.g. 6-9) "
                                    "or two ranks (A-K, e.g. T-K)") from None
        if first > last:
            raise BaccaratError(f"the range {text.strip()!r} runs backwards")
        return kinds_where(lambda rank, suit: first <= key(rank) <= last)
    rank, suit = parse_card(text)
    return kinds_where(lambda r, s: r == rank and suit in (None, s))


def parse_kinds(text: str) -> tuple:
    """The kinds a comma-separated card list names (the union of its items).

    >>> sum(parse_kinds("6,7,8,9")), parse_kinds("6-9") == parse_kinds("9, 8,7,6")
    (16, True)
    """
    items = [item for item in text.split(",") if item.strip()]
    if not items:
        raise BaccaratError(f"no cards named in {text.strip()!r}")
    return tuple(map(any, zip(*(parse_item(item) for item in items))))


def describe_kinds(kinds) -> str:
    """A short name for a set of kinds.

    >>> describe_kinds(parse_kinds("6-9")), describe_kinds(parse_kinds("red")), describe_kinds(parse_kinds("Ah,Kd"))
    ('6, 7, 8, 9', 'red', 'Ah, Kd')
    >>> describe_kinds(tuple(a and b for a, b in zip(parse_kinds("0"), parse_kinds("black"))))
    'T, J, Q, K (black)'
    """
    ranks = [r for r in range(13) if any(kinds[4 * r:4 * r + 4])]
    suits = [s for s in range(4) if any(kinds[s::4])]
    if sum(kinds) != len(ranks) * len(suits):  # not a block of ranks by suits: name the cards
        return ", ".join(RANKS[k // 4] + SUITS[k % 4] for k in range(KINDS) if kinds[k])
    colour = [c for c in COLOURS if suits == [s for s in range(4) if SUIT_COLOUR[s] == COLOURS.index(c)]]
    suit_text = "" if len(suits) == 4 else colour[0] if colour else " or ".join(SUIT_NAMES[s] for s in suits)
    if len(ranks) == 13:
        return suit_text or "any card"
    rank_text = ", ".join(RANKS[r] for r in ranks)
    if len(ranks) == 1 and len(suits) == 1:
        return RANKS[ranks[0]] + SUITS[suits[0]]
    return f"{rank_text} ({suit_text})" if suit_text else rank_text


def parse_position(text: str) -> int:
    """A position 1-6 in dealing order.

    >>> parse_position(" 5 ")
    5
    """
    word = text.strip()
    if not (word.isascii() and word.isdigit() and len(word) == 1 and int(word) in POSITIONS):
        raise BaccaratError(f"no card position {word!r}: positions are 1 to 6 in dealing order "
                            "(1 Player, 2 Banker, 3 Player, 4 Banker, 5 and 6 the fifth and sixth cards out)")
    return int(word)


def parse_positions(text: str) -> tuple[int, ...]:
    """Distinct positions from a comma-separated list, in order.

    >>> parse_positions("1,2, 3,4")
    (1, 2, 3, 4)
    """
    positions = tuple(parse_position(p) for p in text.split(","))
    if len(set(positions)) < len(positions):
        raise BaccaratError(f"a position is given twice in {text.strip()!r}")
    return positions


@dataclass(frozen=True)
class Knowledge:
    """What is known of the card at each position 1-6: ``known[position - 1]`` is None (nothing)
    or 52 booleans, the kinds that card may be.

    >>> k = Knowledge.parse(["1=6-9", "5=red"])
    >>> k.describe()
    "card 1 (the Player's first card): 6, 7, 8, 9; card 5 (the fifth card out): red"
    >>> bool(Knowledge()), k.positions
    (False, (1, 5))
    """

    known: tuple = (None,) * 6

    def __post_init__(self):
        known = self.known
        if not isinstance(known, (tuple, list)) or len(known) != 6 or any(
                k is not None and (not isinstance(k, (tuple, list)) or len(k) != KINDS or not all(
                    isinstance(x, bool) for x in k) or not any(k)) for k in known):
            raise BaccaratError("knowledge is, for each of 6 positions, None (nothing) or 52 booleans, not all false")
        object.__setattr__(self, "known", tuple(None if k is None else tuple(k) for k in known))  # frozen, hashable

    def __bool__(self) -> bool:
        return any(k is not None for k in self.known)

    @classmethod
    def parse(cls, items) -> Knowledge:
        """Knowledge from ``POS=CARDS`` texts (one, or a list of them); the same position twice
        means both hold."""
        items = [items] if isinstance(items, str) else expect(items, (list, tuple), "known cards are 'POS=CARDS' items")
        items = [expect(item, str, "a known card is a 'POS=CARDS' text, such as '1=9'") for item in items]
        return reduce(lambda k, item: k.at(*split_item(item)), items, cls())

    def at(self, position: int, cards) -> Knowledge:
        """This knowledge and, at ``position``, that the card is one of ``cards`` (a card list as
        text, or 52 booleans by kind)."""
        if type(position) is not int or position not in POSITIONS:
            raise BaccaratError(f"no card position {position!r}: positions are 1 to 6 in dealing order")
        kinds = parse_kinds(cards) if isinstance(cards, str) else tuple(map(bool, expect(
            cards, (tuple, list), "known cards are a card list such as '6-9' or 'Ah', or 52 booleans")))
        if len(kinds) != KINDS:
            raise BaccaratError(f"known cards by kind are 52 booleans (got {len(kinds)})")
        before = self.known[position - 1] or ANY
        both = tuple(a and b for a, b in zip(before, kinds))
        if not any(both):
            raise BaccaratError(f"the knowledge of card {position} contradicts itself: "
                                f"{describe_kinds(before)} and {describe_kinds(kinds)}")
        return Knowledge(self.known[:position - 1] + (both,) + self.known[position:])

    @property
    def positions(self) -> tuple[int, ...]:
        """The positions something is known of."""
        return tuple(p for p in POSITIONS if self.known[p - 1] is not None)

    def allowed(self, position: int) -> tuple:
        """The kinds the card at ``position`` may be (all 52 when nothing is known)."""
        return self.known[position - 1] or ANY

    @property
    def suit_blind(self) -> bool:
        """Whether renaming the suits leaves the knowledge as it is: it names whole ranks only.

        >>> Knowledge.parse(["1=6-9"]).suit_blind, Knowledge.parse(["1=red"]).suit_blind
        (True, False)
        """
        return all(whole_ranks(k) for k in self.known if k is not None)

    def describe(self) -> str:
        """The knowledge in words; empty when nothing is known."""
        return "; ".join(f"card {p} ({POSITION_NAMES[p - 1]}): {describe_kinds(self.known[p - 1])}" for p in self.positions)

    def data(self) -> dict:
        """For JSON: position -> what is known, in words."""
        return {str(p): describe_kinds(self.known[p - 1]) for p in self.positions}


def split_item(text: str) -> tuple[int, str]:
    """(position, card list) of a ``POS=CARDS`` text.

    >>> split_item("1=6-9")
    (1, '6-9')
    """
    position, sep, cards = text.partition("=")
    if not sep:
        raise BaccaratError(f"known cards are written POSITION=CARDS, e.g. 1=6-9 or 5=red (got {text.strip()!r})")
    return parse_position(position), cards


NOTHING = Knowledge()
