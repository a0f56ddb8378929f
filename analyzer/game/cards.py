"""Cards and shoes.

Glossary
--------
rank   one of A 2 3 4 5 6 7 8 9 T J Q K (``10`` is accepted for ``T``).
suit   one of s h d c (spades, hearts, diamonds, clubs).
kind   a (rank, suit) pair: the 52 different cards of a deck, numbered rank * 4 + suit.
value  a card's point value: A=1, 2..9 face, T/J/Q/K=0.
colour red (hearts, diamonds) or black (spades, clubs).
face   a J, Q or K (a ten is not a face card).
point  a hand's total: the sum of its values mod 10.
shoe   the cards left to deal, as a count for each of the 52 kinds.

A :class:`Shoe` is an immutable, hashable value; removing cards returns a new shoe.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from ..base.errors import BaccaratError, expect
from ..base.numbers import MAX_DIGITS  # noqa: F401  (the digits a user may write: cards, amounts)
from ..base.userfiles import parse_json, parse_toml, read_text

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")
SUITS = ("s", "h", "d", "c")
VALUES = (1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0)  # value of each rank, in RANKS order
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
COLOURS = ("red", "black")
SUIT_COLOUR = (1, 0, 0, 1)  # index into COLOURS of each suit
FACE_RANKS = (10, 11, 12)  # J, Q, K
KINDS = 52
MAX_CARDS = 10**12  # far beyond any shoe; keeps every count printable


def point(*values: int) -> int:
    """A hand's point: the sum of its card values mod 10.

    >>> point(6, 7)
    3
    >>> point(9, 0, 9)
    8
    """
    return sum(values) % 10


def parse_rank(text: str) -> int:
    """Index into RANKS of a rank name: ``A``, ``2``..``9``, ``T`` or ``10``, ``J``, ``Q``, ``K``.

    >>> parse_rank("10"), parse_rank("t"), parse_rank("A")
    (9, 9, 0)
    """
    name = text.strip().upper()
    name = "T" if name == "10" else name
    if name not in RANKS:
        raise BaccaratError(f"unknown card rank {text.strip()!r} (use A, 2-9, T or 10, J, Q, K)")
    return RANKS.index(name)


def parse_card(text: str) -> tuple[int, int | None]:
    """(rank index, suit index or None) of a card name such as ``Ah``, ``10s``, ``Td`` or ``5``.

    >>> parse_card("Ah"), parse_card("10s"), parse_card("K")
    ((0, 1), (9, 0), (12, None))
    """
    name = text.strip()
    if not name:
        raise BaccaratError("empty card name")
    if len(name) >= 2 and name[-1].lower() in SUITS and name[:-1].upper() in RANKS + ("10",):
        return parse_rank(name[:-1]), SUITS.index(name[-1].lower())
    try:
        return parse_rank(name), None
    except BaccaratError:
        raise BaccaratError(
            f"unknown card {name!r} (a rank A, 2-9, T or 10, J, Q, K, optionally followed by a suit s, h, d, c)"
        ) from None


def parse_cards(text: str) -> list[tuple[int, int | None]]:
    """The cards of a comma-separated list, in order.

    >>> parse_cards("5, K,Ah")
    [(4, None), (12, None), (0, 1)]
    """
    return [parse_card(part) for part in text.split(",")] if text.strip() else []


def kind_attributes(kind: int) -> dict:
    """What a card kind (rank * 4 + suit) is, by every attribute a card test can ask about.

    >>> kind_attributes(4 * 11 + 2)
    {'rank': 11, 'value': 0, 'suit': 2, 'colour': 0, 'face': True}
    """
    rank, suit = divmod(kind, 4)
    return {"rank": rank, "value": VALUES[rank], "suit": suit, "colour": SUIT_COLOUR[suit], "face": rank in FACE_RANKS}


def whole_ranks(kinds) -> bool:
    """Whether a set of kinds (52 booleans) takes each rank whole: all four suits or none, so
    that renaming the suits leaves it as it is.

    >>> whole_ranks([k < 8 for k in range(52)]), whole_ranks([k % 4 == 1 for k in range(52)])
    (True, False)
    """
    return all(len(set(kinds[4 * r:4 * r + 4])) == 1 for r in range(13))


def whole_suits(kinds) -> bool:
    """Whether a set of kinds (52 booleans) takes each suit whole: all thirteen ranks or none (a
    test of suits or colours alone).

    >>> whole_suits([k % 4 == 1 for k in range(52)]), whole_suits([k < 8 for k in range(52)])
    (True, False)
    """
    return all(kinds[k] == kinds[k % 4] for k in range(len(kinds)))


def card_name(rank: int, suit: int) -> str:
    """The name of a card kind.

    >>> card_name(9, 2)
    'Td'
    """
    return RANKS[rank] + SUITS[suit]


@dataclass(frozen=True)
class Shoe:
    """Counts of each card kind: ``counts[rank][suit]`` with ranks and suits in RANKS/SUITS order.

    >>> shoe = Shoe.decks(8)
    >>> shoe.size, shoe.rank_counts()[0], shoe.value_counts()[0]
    (416, 32, 128)
    """

    counts: tuple[tuple[int, ...], ...]

    def __post_init__(self):
        rows = self.counts
        if not isinstance(rows, (tuple, list)) or len(rows) != 13 \
                or any(not isinstance(row, (tuple, list)) or len(row) != 4 for row in rows):
            raise BaccaratError("a shoe has counts for 13 ranks by 4 suits")
        object.__setattr__(self, "counts", tuple(map(tuple, rows)))  # a list of lists is taken too, frozen
        if any(type(c) is not int or c < 0 for row in self.counts for c in row):
            raise BaccaratError("card counts must be whole numbers, 0 or more")
        if self.size > MAX_CARDS:
            raise BaccaratError(f"a shoe of more than {MAX_CARDS:,} cards is not supported")

    @classmethod
    def decks(cls, n: int) -> Shoe:
        """A shoe of n full 52-card decks."""
        if type(n) is not int or n < 1:
            raise BaccaratError(f"the number of decks must be a whole number, 1 or more (got {n!r})")
        if 52 * n > MAX_CARDS:
            raise BaccaratError(f"a shoe of more than {MAX_CARDS:,} cards is not supported")
        return cls(tuple((n,) * 4 for _ in RANKS))

    @classmethod
    def from_ranks(cls, rank_counts) -> Shoe:
        """A shoe from 13 counts by rank (A..K); each spread as evenly as possible over the suits,
        any remainder going to s, h, d, c in that order.

        >>> Shoe.from_ranks([5] + [0] * 12).counts[0]
        (2, 1, 1, 1)
        """
        rank_counts = list(expect(rank_counts, (tuple, list, range), "a shoe by rank is a list of 13 counts"))
        if len(rank_counts) != 13:
            raise BaccaratError("a shoe by rank needs 13 counts, A 2 3 4 5 6 7 8 9 T J Q K")
        for c in rank_counts:
            if type(c) is not int or c < 0:
                raise BaccaratError(f"card counts must be whole numbers, 0 or more (got {c!r})")
        return cls(tuple(tuple(c // 4 + (s < c % 4) for s in range(4)) for c in rank_counts))

    @property
    def size(self) -> int:
        """The number of cards in the shoe."""
        return sum(map(sum, self.counts))

    def rank_counts(self) -> tuple[int, ...]:
        """Cards of each rank, A..K."""
        return tuple(map(sum, self.counts))

    def kind_counts(self) -> tuple[int, ...]:
        """Cards of each of the 52 kinds, numbered rank * 4 + suit."""
        return tuple(c for row in self.counts for c in row)

    def value_counts(self) -> tuple[int, ...]:
        """Cards of each point value 0..9."""
        ranks = self.rank_counts()
        return (sum(ranks[9:]),) + ranks[:9]

    def remove(self, *cards: str | int) -> Shoe:
        """The shoe less these cards, each as written: a rank (``"5"``, ``"A"``, ``"10"`` or
        ``"T"``, ``"K"``, or the number 5) takes one of that rank from the suit that has most left;
        a card (``"Ah"``, ``"10s"``) takes that card. A string may list several, comma-separated.

        >>> shoe = Shoe.decks(1).remove("5", "Ah", 9)
        >>> shoe.size, shoe.rank_counts()[4], shoe.counts[0]
        (49, 3, (1, 0, 1, 1))
        >>> Shoe.decks(1).remove("5,5,K") == Shoe.decks(1).remove("5", 5, "K")
        True
        """
        parsed = []
        for card in cards:
            if isinstance(card, int) and not isinstance(card, bool):
                card = str(card)
            if not isinstance(card, str):
                raise BaccaratError(f"a card is written as text, such as '5', 'K' or 'Ah' (got {card!r})")
            parsed += parse_cards(card)
        return self.without_cards(parsed)

    def without_card(self, rank: int, suit: int | None = None) -> Shoe:
        """The shoe less one card, by index: ``rank`` into RANKS (0 is the ace), ``suit`` into
        SUITS; with no suit, from the suit that has most of that rank left (the first in s, h, d,
        c order among equals). :meth:`remove` takes cards as written."""
        rows = [list(row) for row in self.counts]
        take_card(rows, rank, suit)
        return Shoe(tuple(map(tuple, rows)))

    def without_cards(self, cards) -> Shoe:
        """The shoe less each (rank index, suit index or None) card in turn (see :meth:`without_card`)."""
        cards = list(expect(cards, (list, tuple), "cards by index are a list of (rank, suit) pairs"))
        if not all(isinstance(card, tuple) and len(card) == 2 for card in cards):
            raise BaccaratError("cards by index are (rank, suit) pairs: rank 0-12, suit 0-3 or None")
        if len(cards) > self.size:
            raise BaccaratError(f"cannot remove {len(cards):,} cards from a shoe of {self.size:,}")
        rows = [list(row) for row in self.counts]  # one Shoe at the end, not one a card
        for rank, suit in cards:
            take_card(rows, rank, suit)
        return Shoe(tuple(map(tuple, rows)))

    def canonical(self) -> Shoe:
        """The shoe with its suits relabelled into a standard order (columns sorted), a
        representative of every shoe that differs from it only by the names of the suits.

        >>> Shoe.decks(1).remove("Ac").canonical().counts[0]
        (0, 1, 1, 1)
        """
        columns = sorted(zip(*self.counts))
        return Shoe(tuple(zip(*columns)))

    def describe(self) -> str:
        """A one-line summary: ``416 cards (8 decks)`` or the counts by rank."""
        ranks = self.rank_counts()
        full = self.counts[0][0]
        if full and all(c == full for row in self.counts for c in row):
            return f"{self.size:,} cards ({full:,} deck{'s' * (full != 1)})"
        return f"{self.size:,} cards (" + " ".join(f"{r}:{c:,}" for r, c in zip(RANKS, ranks)) + ")"


def load_shoe(path: str | Path) -> Shoe:
    """A shoe from a TOML or JSON file giving counts per rank or per card.

    Either ``ranks`` (a table of rank -> count, e.g. ``A = 32``; ranks not named have none) or
    ``cards`` (a table of card -> count, e.g. ``Ah = 8``; cards not named have none).
    """
    if not str(expect(path, (str, Path), "a shoe file is a path")):
        raise BaccaratError("no shoe file given (an empty name)")
    path = Path(path)
    text = read_text(path, "shoe file")
    context = f"shoe file {str(path)!r}"
    data = parse_json(text, context) if path.suffix.lower() == ".json" else parse_toml(text, context)
    return shoe_from_mapping(data, context=context)


def shoe_from_mapping(data, context: str = "shoe") -> Shoe:
    """A shoe from ``{"ranks": {...}}`` or ``{"cards": {...}}`` (see :func:`load_shoe`).

    >>> shoe_from_mapping({"ranks": {"A": 4, "10": 8}}).describe()
    '12 cards (A:4 2:0 3:0 4:0 5:0 6:0 7:0 8:0 9:0 T:8 J:0 Q:0 K:0)'
    """
    if not isinstance(data, dict) or set(data) not in ({"ranks"}, {"cards"}):
        raise BaccaratError(f"{context} must have exactly one table, 'ranks' or 'cards'")
    (key, table), = data.items()
    if not isinstance(table, dict):
        raise BaccaratError(f"{context}: '{key}' must map names to counts")
    counts = [[0] * 4 for _ in RANKS]
    by_rank = [0] * 13
    seen = {}
    for name, count in table.items():
        if type(count) is not int or count < 0:
            raise BaccaratError(f"{context}: count of {name!r} must be a whole number, 0 or more")
        if count > MAX_CARDS:
            raise BaccaratError(f"{context}: count of {name!r}: a shoe holds at most {MAX_CARDS:,} cards")
        try:
            card = (parse_rank(str(name)), None) if key == "ranks" else parse_card(str(name))
        except BaccaratError as exc:
            raise BaccaratError(f"{context}: {exc}") from None
        if key == "cards" and card[1] is None:
            raise BaccaratError(f"{context}: card {name!r} needs a suit (s, h, d, c)")
        if card in seen:
            raise BaccaratError(f"{context}: {name!r} and {seen[card]!r} name the same {key[:-1]}")
        seen[card] = name
        if key == "ranks":
            by_rank[card[0]] = count
        else:
            counts[card[0]][card[1]] = count
    return Shoe.from_ranks(by_rank) if key == "ranks" else Shoe(tuple(map(tuple, counts)))


def parse_decks(text: str) -> int:
    """A number of decks, 1 or more.

    >>> parse_decks(" 6 ")
    6
    """
    digits = text.strip()
    decks = None
    if digits.isascii() and digits.isdigit():  # beyond MAX_DIGITS, too many for Shoe.decks to take
        decks = int(digits) if len(digits) <= MAX_DIGITS else MAX_CARDS + 1
    if decks is None or decks < 1:
        raise BaccaratError(f"the number of decks must be a whole number, 1 or more (got {text.strip()!r})")
    return decks


def parse_deck_list(text: str) -> list[int]:
    """A comma-separated list of deck counts.

    >>> parse_deck_list("1,2, 8")
    [1, 2, 8]
    """
    return [parse_decks(part) for part in text.split(",")]


def parse_percent(text: str):
    """An exact fraction from a percentage such as ``1.2351`` or ``-0.5``.

    >>> parse_percent("1.25")
    Fraction(1, 80)
    """
    return parse_number(text.strip().removesuffix("%"), "a percentage", shown=text) / 100


def parse_number(text: str, what: str = "a number", shown: str | None = None) -> Fraction:
    """An exact decimal number such as ``4``, ``-2.5`` or ``.75``.

    >>> parse_number("-2.5")
    Fraction(-5, 2)
    >>> parse_number("1" * 101)
    Traceback (most recent call last):
    ...
    analyzer.base.errors.BaccaratError: not a number: 101 digits (at most 100)
    """
    if not re.fullmatch(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)", text.strip()):
        raise BaccaratError(f"not {what}: {shown or text!r}" if text.strip() else f"not {what}: empty")
    digits = sum(c.isdigit() for c in text)
    if digits > MAX_DIGITS:
        raise BaccaratError(f"not {what}: {digits} digits (at most {MAX_DIGITS})")
    return Fraction(text.strip())


def make_shoe(decks: int | str | None = None, remove: str = "", shoe_file: str | None = None) -> Shoe:
    """The shoe a user asks for: ``decks`` full decks (a number or its text; default 8) or a shoe
    file, less ``remove`` (comma-separated cards). At least 6 cards must remain, enough for any coup."""
    expect(remove, str, "the cards to remove are text, such as '5,K,Ah'")
    if decks is not None and shoe_file is not None:
        raise BaccaratError("give {decks} or {shoe_file}, not both", names=("decks", "shoe_file"))
    if isinstance(decks, str):
        decks = parse_decks(decks)
    shoe = load_shoe(shoe_file) if shoe_file is not None else Shoe.decks(8 if decks is None else decks)
    return check_playable(shoe.without_cards(parse_cards(remove)))


def check_playable(shoe: Shoe) -> Shoe:
    """The shoe itself, if it holds the 6 cards a coup may need."""
    if shoe.size < 6:
        raise BaccaratError(f"a shoe needs at least 6 cards to deal a coup (this one has {shoe.size})")
    return shoe


def parse_dealt(text: str) -> list:
    """Dealt cards from text: commas, spaces or new lines separate cards, blank lines and #
    comments are skipped (a line may hold one card or a whole coup, written as the page shows it).

    >>> parse_dealt("5,K, # a comment, with commas\\n\\nAh"), parse_dealt("8c 3c 7h 5c")
    ([(4, None), (12, None), (0, 1)], [(7, 3), (2, 3), (6, 1), (4, 3)])
    """
    lines = (line.split("#", 1)[0] for line in text.splitlines())
    return [parse_card(part) for line in lines for part in re.split(r"[\s,]+", line) if part.strip()]


def take_card(rows: list[list[int]], rank: int, suit: int | None):
    """Take one card out of ``rows`` (13 rows of 4 suit counts, changed in place): by rank index
    and suit index, or with no suit from the suit that has most of that rank left (the first in
    s, h, d, c order among equals). Shoe.without_card and without_cards share it."""
    if type(rank) is not int or not 0 <= rank < 13 or not (suit is None or type(suit) is int and 0 <= suit < 4):
        raise BaccaratError(f"a card by index is a rank 0-12 and a suit 0-3 or None (got {rank!r}, {suit!r}); "
                            "Shoe.remove takes cards as written")
    row = rows[rank]
    if suit is None:
        suit = max(range(4), key=lambda s: (row[s], -s))
    if row[suit] == 0:
        what = RANKS[rank] if sum(row) == 0 else card_name(rank, suit)
        raise BaccaratError(f"cannot remove {what}: none left in the shoe")
    row[suit] -= 1


def shoe_in_play(shoe: Shoe, dealt) -> Shoe:
    """The shoe less the cards already dealt; it must still hold a coup's 6 cards."""
    return check_playable(shoe.without_cards(dealt))
