"""A shoe replayed coup by coup: what was dealt, as a table's clerk writes it, and every bet's
exact figures before each coup.

A file of coups has one line a coup (its 4 to 6 cards in dealing order: Player, Banker, Player,
Banker, then the third cards; separated by spaces or commas), and these marks, each on a line of
its own:

==================  ==========================================================================
``shoe ID``         a new shoe begins (the first shoe needs none: it is shoe 1)
``burn CARDS [+N]`` the burn: the cards turned up, then N more burned face down (unseen)
``cut``             the cut card came out (the coup after it is the shoe's last, as dealt)
``# ...``           a comment, here or after anything on a line
==================  ==========================================================================

A coup is refused, by its line, if the drawing tableau could not have dealt it that way (a
natural ends the coup at four cards; the Player draws on his totals, then the Banker by his
total and the Player's third card), or if a card is not left in the shoe. Face-down burns leave
the shoe unseen: they count in the cards left, not in the composition the figures are taken
from (a card nobody saw tells nothing of the next coup). A file is read a shoe at a time
(:func:`read_shoes`, from :func:`file_lines`), whatever its length; a shoe holds at most
MAX_SHOE_COUPS coups.

>>> shoes = parse_coups("burn 5h +5\\n8c 3c 7h 5c\\n9s,Kd,2h,4c  # a natural 9\\ncut\\n", "f")
>>> [(s.name, len(s.coups), s.face_down, s.cut) for s in shoes], [card_text(c) for c in shoes[0].coups[1].cards]
([('1', 2, 5, 2)], ['9s', 'Kd', '2h', '4c'])
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..game.cards import RANKS, SUITS, VALUES, Shoe, parse_card
from ..base.errors import BaccaratError
from ..base.userfiles import text_lines
from ..game.tableau import PUNTO_BANCO, STOOD, Tableau

MAX_SHOE_COUPS = 1_000  # coups in one shoe (an eight-deck shoe deals about 80): a file is read a shoe at a time
MAX_LINE = 200  # characters in a line of a coup file


@dataclass(frozen=True)
class Coup:
    """A coup as dealt: its cards (rank index, suit index or None) in dealing order, its line in
    the file, and whether the cut card had come out before it."""

    cards: tuple
    line: int
    after_cut: bool = False
    first: int | None = None  # a pit's coup: the event that first dealt it (pit.kept_shoe)


@dataclass
class ShoeDealt:
    """What was dealt from one shoe: its name, its coups in order, the cards turned up by the
    burn, the cards burned face down, and the coup after which the cut card came out (0: before
    the first; None: not marked)."""

    name: str
    coups: list = field(default_factory=list)
    burned: list = field(default_factory=list)
    face_down: int = 0
    cut: int | None = None
    voided: list = field(default_factory=list)  # a pit's coups struck out: {coup, cards, dealt, void} (pit.kept_shoe)

    def seen(self, upto: int | None = None) -> list:
        """The cards seen before coup ``upto`` (0-based; None: after the last): the burn's turned
        cards, then the coups' cards."""
        coups = self.coups if upto is None else self.coups[:upto]
        return list(self.burned) + [card for coup in coups for card in coup.cards]


def card_text(card) -> str:
    """A card as the file writes it: rank and suit ("9h"), or the rank alone."""
    rank, suit = card
    return RANKS[rank] + ("" if suit is None else SUITS[suit])


def parse_coups(text: str, name: str = "coup file") -> list[ShoeDealt]:
    """The shoes of a file of coups given as its text (see the module notes): :func:`read_shoes`
    of its lines, all of them."""
    return list(read_shoes(text.split("\n"), name))  # only a new line ends a line (a form feed is junk in it)


def read_shoes(lines, name: str = "coup file"):
    """Each shoe of a file of coups (see the module notes) as soon as it ends, from its ``lines``
    (any iterable of them, each with or without its new line): a file of any length is read
    holding one shoe at a time - at most MAX_SHOE_COUPS coups, each line at most MAX_LINE
    characters - and the names of the shoes before it. Each coup is read as written; checking it
    against a rule set's tableau and a shoe is :func:`steps`'s.

    >>> [(s.name, len(s.coups)) for s in read_shoes(iter(["8c 3c 7h 5c\\n", "shoe b\\n", "9s Kd Kh 4c\\n"]), "f")]
    [('1', 1), ('b', 1)]
    """
    shoe, names = ShoeDealt("1"), set()
    for number, raw in enumerate(lines, 1):
        where = f"{name}, line {number}"
        line = line_text(raw, where)
        words = [w for w in re.split(r"[\s,]+", line) if w]
        if not words:
            continue
        head = words[0].lower()
        if head == "shoe":
            named = shoe_name(words, line, where)
            if named in names or (begun(shoe) and named == shoe.name):
                raise BaccaratError(f"{where}: shoe {named!r} is named twice")
            if begun(shoe):
                names.add(shoe.name)
                yield shoe
                shoe = ShoeDealt(named)
            else:  # the shoe begun by nothing yet (the first: '1' unless named) takes the name
                shoe.name = named
        elif head == "burn":
            burn(shoe, words, where)
        elif head == "cut":
            cut(shoe, words, where)
        else:
            add_coup(shoe, words, number, where)
    yield shoe


def line_text(raw: str, where: str) -> str:
    """A line of a file of coups without its new line and its comment."""
    raw = raw[:-1] if raw.endswith("\n") else raw
    if len(raw) > MAX_LINE:
        raise BaccaratError(f"{where}: longer than {MAX_LINE} characters (a coup has at most 6 cards)")
    return raw.split("#", 1)[0].strip()


def begun(shoe: ShoeDealt) -> bool:
    """Whether anything of the shoe is written yet: a coup, a burn or the cut."""
    return bool(shoe.coups or shoe.burned or shoe.face_down or shoe.cut is not None)


def shoe_name(words: list[str], line: str, where: str) -> str:
    if len(words) != 2:
        raise BaccaratError(f"{where}: 'shoe' takes one name, such as 'shoe 2' (got {line!r})")
    return words[1]


def burn(shoe: ShoeDealt, words: list[str], where: str) -> None:
    """The shoe's burn: the cards turned up, then '+N' cards burned face down."""
    if shoe.coups or shoe.burned or shoe.face_down:
        raise BaccaratError(f"{where}: a burn comes before the shoe's first coup, once")
    for word in words[1:]:
        if word.startswith("+"):
            if not (word[1:].isascii() and word[1:].isdigit()) or int(word[1:]) > 20:
                raise BaccaratError(f"{where}: '+N' gives the cards burned face down, 0 to 20 (got {word!r})")
            shoe.face_down += int(word[1:])
        else:
            shoe.burned.append(card_at(word, where))
    if not shoe.burned and not shoe.face_down:
        raise BaccaratError(f"{where}: 'burn' takes the cards turned up and '+N' for those burned face down")


def cut(shoe: ShoeDealt, words: list[str], where: str) -> None:
    if len(words) != 1:
        raise BaccaratError(f"{where}: 'cut' stands alone on its line")
    if shoe.cut is not None:
        raise BaccaratError(f"{where}: the cut card came out once already in shoe {shoe.name!r}")
    shoe.cut = len(shoe.coups)


def add_coup(shoe: ShoeDealt, words: list[str], number: int, where: str) -> None:
    """A coup of the shoe, as written: 4 to 6 cards."""
    cards = tuple(card_at(word, where) for word in words)
    if not 4 <= len(cards) <= 6:
        raise BaccaratError(f"{where}: a coup has 4 to 6 cards (got {len(cards)}: {' '.join(words)})")
    if len(shoe.coups) >= MAX_SHOE_COUPS:
        raise BaccaratError(f"{where}: shoe {shoe.name!r} has more than {MAX_SHOE_COUPS:,} coups (an eight-deck shoe "
                            "deals about 80: is a 'shoe ID' line missing?)")
    shoe.coups.append(Coup(cards, number, shoe.cut is not None))


def file_lines(path, what: str = "coup file"):
    """The lines of a coup file, read one at a time (userfiles.text_lines): at most MAX_LINE + 2
    characters at a time, a longer line coming in pieces, the first of which read_shoes refuses."""
    return text_lines(path, what, MAX_LINE + 2)


def card_at(word: str, where: str):
    try:
        return parse_card(word)
    except BaccaratError as error:
        raise BaccaratError(f"{where}: {error}") from None


def cards_taken(values: list[int], tableau: Tableau) -> int:
    """How many cards the tableau deals in a coup whose cards have these point values in dealing
    order (at least the first four; the fifth where the Player draws).

    >>> cards_taken([9, 0, 0, 0], PUNTO_BANCO), cards_taken([5, 1, 0, 2, 8], PUNTO_BANCO), cards_taken([2, 1, 3, 0, 9], PUNTO_BANCO)
    (4, 5, 6)
    """
    player, banker = (values[0] + values[2]) % 10, (values[1] + values[3]) % 10
    if player >= 8 or banker >= 8:
        return 4
    if tableau.player_draws[player]:
        return 6 if len(values) > 4 and tableau.banker_draws[banker][values[4]] else 5
    return 5 if tableau.banker_draws[banker][STOOD] else 4


def check_dealt(cards: tuple, tableau: Tableau, where: str) -> None:
    """Refuse a coup the tableau could not have dealt with these cards, saying why."""
    values = [VALUES[rank] for rank, _ in cards]
    taken = cards_taken(values, tableau)
    if len(cards) != taken:
        player, banker = (values[0] + values[2]) % 10, (values[1] + values[3]) % 10
        if player >= 8 or banker >= 8:
            why = "a natural ends it"
        elif tableau.player_draws[player]:
            why = f"the Player draws on {player}" + ("" if len(values) < 5 else
                                                     f", the Banker {'draws' if taken == 6 else 'stands'} on {banker} "
                                                     f"against a third card of {values[4]}")
        else:
            why = f"the Player stands on {player}, the Banker {'draws' if taken == 5 else 'stands'} on {banker}"
        raise BaccaratError(f"{where}: the tableau deals {taken} cards here, not {len(cards)} "
                            f"(Player {player}, Banker {banker}: {why})")


def result_of(cards, tableau: Tableau) -> tuple[str, int, int]:
    """(winner, Player's total, Banker's total) of a coup's cards as dealt (check_dealt first):
    the fifth card is the Player's where he drew, else the Banker's.

    >>> result_of([(7, 3), (2, 3), (6, 1), (4, 3)], PUNTO_BANCO)  # 8c 3c 7h 5c: a Banker natural
    ('banker', 5, 8)
    """
    values = [VALUES[rank] for rank, _ in cards]
    head_player, head_banker = (values[0] + values[2]) % 10, (values[1] + values[3]) % 10
    player_drew = len(values) > 4 and head_player < 8 and head_banker < 8 and tableau.player_draws[head_player]
    player = (head_player + (values[4] if player_drew else 0)) % 10
    banker = (head_banker + sum(values[5 if player_drew else 4:])) % 10
    return ("player" if player > banker else "banker" if banker > player else "tie"), player, banker


@dataclass(frozen=True)
class Step:
    """One coup replayed: the shoe it was dealt from (the cards seen before it gone), the cards
    left in the shoe (face-down burns too), and the coup."""

    shoe: str
    number: int
    coup: Coup
    before: Shoe
    cards_left: int


def steps(start: Shoe, shoes: list[ShoeDealt], tableau: Tableau):
    """Each coup of each shoe (each shoe dealt from ``start``), with the shoe before it; a coup
    that the tableau could not deal, or a card not left, refused by its line."""
    for dealt in shoes:
        if dealt.face_down + len(dealt.burned) > start.size:
            raise BaccaratError(f"shoe {dealt.name!r}: the burn takes more cards than the shoe holds")
        shoe = without(start, dealt.burned, f"shoe {dealt.name!r}, the burn")
        for i, coup in enumerate(dealt.coups):
            check_dealt(coup.cards, tableau, f"line {coup.line}")
            if coup.after_cut and i and dealt.coups[i - 1].after_cut:
                raise BaccaratError(f"line {coup.line}: the coup after the cut card was the shoe's last (a new shoe "
                                    "comes next: 'shoe ID')")
            left = shoe.size - dealt.face_down
            if left < 6:
                raise BaccaratError(f"line {coup.line}: {left} cards are left in the shoe: a coup is dealt from 6 at least")
            yield Step(dealt.name, i + 1, coup, shoe, left)
            shoe = without(shoe, coup.cards, f"line {coup.line}")


def without(shoe: Shoe, cards, where: str) -> Shoe:
    try:
        return shoe.without_cards(list(cards))
    except BaccaratError as error:
        raise BaccaratError(f"{where}: {error}") from None


def seen_in_last_shoe(start: Shoe, shoes: list[ShoeDealt], tableau: Tableau) -> list:
    """The cards seen in the last shoe of a file (what `now --dealt-file` takes out), every coup
    of it checked as :func:`steps` checks them."""
    if not shoes:
        return []
    for _ in steps(start, shoes[-1:], tableau):
        pass
    return shoes[-1].seen()


def dealt_file(text: str, start: Shoe, tableau: Tableau, name: str = "dealt file") -> list:
    """The cards seen in a dealt file: cards as they come (any number a line, as before), or, where
    a line is a mark or holds 4 to 6 cards, a file of coups as replay reads it (each coup checked;
    the cards seen in its last shoe).

    >>> from analyzer.game.cards import Shoe
    >>> len(dealt_file("5\\nK\\n", Shoe.decks(8), PUNTO_BANCO)), len(dealt_file("burn 7h +7\\n8c 3c 7h 5c\\n", Shoe.decks(8), PUNTO_BANCO))
    (2, 5)
    """
    lines = [line.split("#", 1)[0].strip() for line in text.split("\n")]
    words = [[w for w in re.split(r"[\s,]+", line) if w] for line in lines]
    if not any(w and (w[0].lower() in MARKS or 4 <= len(w) <= 6) for w in words):  # loose cards, as before
        return [card_at(word, f"{name}, line {number}") for number, line in enumerate(words, 1) for word in line]
    return seen_in_last_shoe(start, parse_coups(text, name), tableau)


MARKS = ("shoe", "burn", "cut")
