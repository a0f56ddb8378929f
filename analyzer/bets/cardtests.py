"""Card-level conditions: tests on each card of a coup by its place, and on groups of cards.

A *card test* is a table of attributes a card must have - ``rank``, ``value``, ``suit``,
``colour``, ``face``, or the ``card`` itself - all of which must hold; ``{}`` passes any card
that was dealt. A third card that was not dealt passes no card test.

A *group test* reads the cards of a group (``player_hand``, ``banker_hand``, ``first_four``,
``all_cards``; only the cards dealt): ``count`` (how many pass the card test ``of``, by default
all of them), ``every`` (each card passes a card test), ``same_colour``, ``same_suit``,
``max_value``, ``min_value``, and ``poker`` (the group makes one of the named poker categories;
``poker_ranks`` limits an n-of-a-kind to the ranks listed). Definitions, for the cards of the
group, ranks A 2 .. 9 T J Q K:

pair             some rank appears at least twice
two_pair         two different ranks each appear at least twice (three pairs are two pairs)
three_of_a_kind  some rank appears at least three times
full_house       one rank at least three times and another at least twice
two_triplets     two different ranks each at least three times
four_of_a_kind, five_of_a_kind, six_of_a_kind   some rank at least 4, 5, 6 times
flush            every card of one suit
straight         every rank different and the ranks consecutive; the rule set's ``[poker]``
                 table says where the ace stands: ``ace = "both"`` (default: A-2-3-4 and
                 J-Q-K-A are both straights), ``"low"`` or ``"high"``, and ``wrap = true`` lets a
                 straight run on past the king (Q-K-A-2)
straight_flush   a straight and a flush
mini_royal       exactly A, K, Q and J, all of one suit (four cards)

A group makes every category whose definition it meets (a full house also makes a pair), so a
pay table lists its lines from the best category down and the first line that holds settles it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from ..game.cards import COLOURS, FACE_RANKS, KINDS, SUIT_NAMES, SUITS, BaccaratError, kind_attributes, parse_card, parse_rank
from ..base.errors import did_you_mean
from ..game.layout import GROUPS, PLACES, Needs, memo, np  # np: numpy, imported at first use

CARD_KEYS = ("rank", "value", "suit", "colour", "face", "card")
GROUP_KEYS = ("count", "of", "every", "same_colour", "same_suit", "max_value", "min_value", "poker", "poker_ranks")
N_OF_A_KIND = {"pair": 2, "three_of_a_kind": 3, "four_of_a_kind": 4, "five_of_a_kind": 5, "six_of_a_kind": 6}
CATEGORIES = (*N_OF_A_KIND, "two_pair", "full_house", "two_triplets", "flush", "straight", "straight_flush",
              "mini_royal")
ACE_RULES = ("both", "low", "high")


@dataclass(frozen=True)
class KindSet:
    """The kinds (rank * 4 + suit) a card test passes: 52 booleans, and the test as written."""

    member: tuple = field(repr=False)
    text: str

    def table(self) -> np.ndarray:
        """Lookup by kind, with index -1 (no card) failing."""
        return np.array(self.member + (False,))


ANY_CARD = KindSet((True,) * KINDS, "any card")


@dataclass(frozen=True)
class Poker:
    """Where the ace stands in a straight: ``ace`` both, low or high; ``wrap``: past the king."""

    ace: str = "both"
    wrap: bool = False

    def straights(self, size: int) -> frozenset:
        """The rank sets (as bit masks over rank indices) that are straights of ``size`` cards.

        >>> ace_low, ace_high = 0b1111, 0b1110000000001  # A-2-3-4 and J-Q-K-A
        >>> [(ace_low in Poker(ace=a).straights(4), ace_high in Poker(ace=a).straights(4)) for a in ACE_RULES]
        [(True, True), (True, False), (False, True)]
        >>> len(Poker().straights(4)), len(Poker(ace="low").straights(4)), len(Poker(wrap=True).straights(4))
        (11, 10, 13)
        """
        masks = set()
        for start in range(13 if self.wrap else 14 - size):
            ranks = [(start + i) % 13 for i in range(size)]
            masks.add(sum(1 << r for r in ranks))
        ace_high = sum(1 << r for r in [0] + list(range(14 - size, 13)))  # J-Q-K-A for four cards
        if self.ace in ("both", "high") and size <= 13:
            masks.add(ace_high)
        if self.ace == "high":
            masks.discard(sum(1 << r for r in range(size)))  # A-2-3-4 is no straight
        return frozenset(masks)


@dataclass(frozen=True)
class CardIs:
    """The card at ``place`` passes a card test."""

    place: str
    test: KindSet

    def mask(self, fields):
        return self.test.table()[fields[self.place]]

    def needs(self) -> Needs:
        third = self.place.endswith("_3")
        return Needs(frozenset({self.place}), frozenset({self.test.member}), tableau=third,
                     singles=frozenset({self.place}), cards=True, reads=frozenset({(self.place, self.test.member)}),
                     draws=third)


def group_kinds(fields, group: str) -> np.ndarray:
    """[cell, card] kinds of the group's places (-1: not dealt)."""
    return np.column_stack([fields[place] for place in GROUPS[group]])


def group_needs(group: str, subsets=(), attributes=()) -> Needs:
    draws = group != "first_four"
    reads = frozenset((place, key) for place in GROUPS[group] for key in (*subsets, *attributes))
    return Needs(frozenset(GROUPS[group]), frozenset(subsets), frozenset(attributes),
                 tableau=draws, singles=frozenset({group}), cards=True, reads=reads, draws=draws)


@dataclass(frozen=True)
class GroupCount:
    """How many of the group's cards pass a card test is one of ``values``."""

    group: str
    test: KindSet
    values: tuple

    def mask(self, fields):
        return np.isin(passing(fields, self.group, self.test), self.values)

    def needs(self) -> Needs:
        return group_needs(self.group, [self.test.member])


@dataclass(frozen=True)
class GroupEvery:
    """Every card of the group passes a card test."""

    group: str
    test: KindSet

    def mask(self, fields):
        return passing(fields, self.group, self.test) == dealt(fields, self.group)

    def needs(self) -> Needs:
        return group_needs(self.group, [self.test.member])


@lru_cache(maxsize=4)
def attribute_table(name: str) -> np.ndarray:
    """The attribute (rank, value, suit, colour) of each kind, and -1 at index -1 (no card)."""
    return np.array([kind_attributes(k)[name] for k in range(KINDS)] + [-1])


@dataclass(frozen=True)
class GroupSame:
    """Every card of the group has the same ``attribute`` (colour or suit) as ``holds`` says."""

    group: str
    attribute: str
    holds: bool

    def mask(self, fields):
        return same(fields, self.group, self.attribute) == self.holds

    def needs(self) -> Needs:
        return group_needs(self.group, attributes=[self.attribute])


def passing(fields, group: str, test: KindSet) -> np.ndarray:
    """How many of the group's dealt cards pass the card test, per cell."""
    def compute():
        table = test.table().astype(np.int8)
        return sum(table[fields[place]] for place in GROUPS[group])  # place by place: no [cell, card] array

    return memo(fields, ("passing", group, test), compute)


def dealt(fields, group: str) -> np.ndarray:
    return memo(fields, ("dealt", group), lambda: sum((fields[place] >= 0).astype(np.int8) for place in GROUPS[group]))


def same(fields, group: str, attribute: str) -> np.ndarray:
    """Whether the group's dealt cards all share the attribute (colour or suit)."""
    def compute():
        table = attribute_table(attribute)
        first = table[fields[GROUPS[group][0]]]
        out = np.ones(len(first), bool)
        for place in GROUPS[group][1:]:  # a card not dealt (the first never is) agrees with any
            out &= (table[fields[place]] == first) | (fields[place] < 0)
        return out

    return memo(fields, ("same", group, attribute), compute)


@dataclass(frozen=True)
class GroupValue:
    """The highest (``which`` = max) or lowest point value among the group's cards is one of ``values``."""

    group: str
    which: str
    values: tuple

    def mask(self, fields):
        kinds = group_kinds(fields, self.group)
        value = attribute_table("value")[kinds]
        extreme = np.where(kinds >= 0, value, -1).max(1) if self.which == "max" else np.where(kinds >= 0, value, 10).min(1)
        return np.isin(extreme, self.values)

    def needs(self) -> Needs:
        return group_needs(self.group, attributes=["value"])


@dataclass(frozen=True)
class GroupPoker:
    """The group makes one of the poker ``categories`` (see the module notes); ``ranks`` (rank
    indices), when given, limits an n-of-a-kind to repeated cards of those ranks."""

    group: str
    categories: tuple
    ranks: tuple | None
    poker: Poker

    def mask(self, fields):
        by_rank, ranks, size = rank_profile(fields, self.group)
        chosen = by_rank if self.ranks is None else by_rank[:, list(self.ranks)]
        tests = {}
        for name in self.categories:
            if name in N_OF_A_KIND:
                tests[name] = chosen.max(1) >= N_OF_A_KIND[name]
            elif name == "two_pair":
                tests[name] = (by_rank >= 2).sum(1) >= 2
            elif name == "full_house":
                tests[name] = (by_rank.max(1) >= 3) & ((by_rank >= 2).sum(1) >= 2)
            elif name == "two_triplets":
                tests[name] = (by_rank >= 3).sum(1) >= 2
            elif name == "mini_royal":
                tests[name] = same(fields, self.group, "suit") & (size == 4) & (ranks == MINI_ROYAL)
            else:
                straight = np.zeros(len(size), bool)
                if name != "flush":
                    for n in np.flatnonzero(np.bincount(size)):  # each size (np.unique imports numpy.ma)
                        straight |= (size == n) & (by_rank.max(1) == 1) & np.isin(ranks, list(self.poker.straights(int(n))))
                flush = same(fields, self.group, "suit") if name != "straight" else True
                tests[name] = straight & flush if name == "straight_flush" else flush if name == "flush" else straight
        return np.logical_or.reduce([tests[c] for c in self.categories])

    def needs(self) -> Needs:
        suits = any(c in ("flush", "straight_flush", "mini_royal") for c in self.categories)
        ranks = any(c != "flush" for c in self.categories)  # a flush alone compares suits only
        return group_needs(self.group, attributes=["rank"] * ranks + ["suit"] * suits)


MINI_ROYAL = sum(1 << r for r in (0, 10, 11, 12))  # A, J, Q, K as a rank bit mask


def rank_profile(fields, group: str):
    """(cards of each rank [cell, 13], the ranks present as a bit mask, cards dealt) of a group."""
    def compute():
        kinds = group_kinds(fields, group)
        rows = np.arange(len(kinds))
        by_rank = np.zeros((len(kinds), 14), np.int8)  # column 13: no card
        present = np.zeros(len(kinds), np.int64)
        for i in range(kinds.shape[1]):
            rank = np.where(kinds[:, i] >= 0, kinds[:, i] // 4, 13).astype(np.int64)  # 1 << 12 needs more than 8 bits
            by_rank[rows, rank] += 1
            present |= np.where(rank < 13, 1 << np.minimum(rank, 12), 0)
        return by_rank[:, :13], present, (kinds >= 0).sum(1)

    return memo(fields, ("ranks", group), compute)


COLOUR_NAMES = {"red": 0, "black": 1}


def as_list(value):
    return value if isinstance(value, list) else [value]


def parse_card_test(table, context: str) -> KindSet:
    """The kinds that pass a card test such as ``{ rank = ["K", "Q"], suit = "h" }``.

    >>> sum(parse_card_test({"colour": "red", "face": True}, "x").member)
    6
    >>> sum(parse_card_test({"value": {"min": 6}}, "x").member), sum(parse_card_test({}, "x").member)
    (16, 52)
    """
    if not isinstance(table, dict):
        raise BaccaratError(f"{context}: a card test is a table of {', '.join(CARD_KEYS)} (e.g. {{ rank = \"K\" }})")
    member = [True] * KINDS
    for key, value in table.items():
        here = f"{context}.{key}"
        if key not in CARD_KEYS:
            raise BaccaratError(f"{here}: unknown card attribute {key!r}" + (did_you_mean(key, CARD_KEYS) or
                                                                              f" (a card test has {', '.join(CARD_KEYS)})"))
        passes = card_attribute(key, value, here)
        member = [m and passes(k) for k, m in enumerate(member)]
    return KindSet(tuple(member), ", ".join(f"{k} {v}" for k, v in table.items()) or "any card")


def card_attribute(key: str, value, context: str):
    """A predicate on kinds for one attribute of a card test."""
    if key == "face":
        if not isinstance(value, bool):
            raise BaccaratError(f"{context}: face is true or false (J, Q, K are face cards; a ten is not)")
        return lambda k: (k // 4 in FACE_RANKS) == value
    if key == "value":
        allowed = set(int_values(value, range(10), context, "a point value"))
        return lambda k: kind_attributes(k)["value"] in allowed
    if isinstance(value, list) and not value:
        raise BaccaratError(f"{context}: an empty list matches nothing")
    names = as_list(value)
    if not all(isinstance(v, str) for v in names):
        raise BaccaratError(f"{context}: {key} takes a name or a list of names (got {value!r})")
    try:
        if key == "rank":
            ranks = {parse_rank(v) for v in names}
            return lambda k: k // 4 in ranks
        if key == "card":
            cards = {parse_card(v) for v in names}
            if any(s is None for _, s in cards):
                raise BaccaratError("a card names its suit, e.g. Ah or Td (give a rank alone with rank = ...)")
            return lambda k: divmod(k, 4) in cards
    except BaccaratError as exc:
        raise BaccaratError(f"{context}: {exc}") from None
    if key == "suit":
        suits = {suit_index(v, context) for v in names}
        return lambda k: k % 4 in suits
    colours = set()
    for v in names:
        if v.lower() not in COLOUR_NAMES:
            raise BaccaratError(f"{context}: unknown colour {v!r} (red: hearts and diamonds; black: spades and clubs)")
        colours.add(v.lower())
    return lambda k: COLOURS[kind_attributes(k)["colour"]] in colours


def suit_index(name: str, context: str) -> int:
    text = name.strip().lower()
    for i, (letter, full) in enumerate(zip(SUITS, SUIT_NAMES)):
        if text in (letter, full):
            return i
    raise BaccaratError(f"{context}: unknown suit {name!r} (s, h, d, c or spades, hearts, diamonds, clubs)")


def int_values(value, allowed: range, context: str, what: str) -> tuple:
    """A number, a list of numbers or a ``{ min, max }`` range, each within ``allowed``."""
    if isinstance(value, dict):
        unknown = set(value) - {"min", "max"}
        if unknown or not value:
            raise BaccaratError(f"{context}: a range has only 'min' and 'max' (got {', '.join(sorted(unknown)) or 'neither'})")
        low, high = value.get("min", allowed[0]), value.get("max", allowed[-1])
        for end, v in (("min", low), ("max", high)):
            int_values(v, allowed, f"{context}.{end}", what)
        if low > high:
            raise BaccaratError(f"{context}: min {low} is above max {high}: the range matches nothing")
        return tuple(range(low, high + 1))
    if isinstance(value, list) and not value:
        raise BaccaratError(f"{context}: an empty list matches nothing")
    values = as_list(value)
    for v in values:
        if type(v) is not int or v not in allowed:
            raise BaccaratError(f"{context}: {v!r} is not {what} ({allowed[0]} to {allowed[-1]})")
    return tuple(values)


def parse_group_test(group: str, table, context: str, poker: Poker) -> list:
    """The tests of a group table, all of which must hold."""
    if not isinstance(table, dict) or not table:
        raise BaccaratError(f"{context}: a group test is a table of {', '.join(GROUP_KEYS)} (e.g. {{ same_colour = true }})")
    for key in table:
        if key not in GROUP_KEYS:
            raise BaccaratError(f"{context}.{key}: unknown group test {key!r}" + (did_you_mean(key, GROUP_KEYS) or
                                                                                   f" (a group has {', '.join(GROUP_KEYS)})"))
    for key, needs in (("of", "count"), ("poker_ranks", "poker")):
        if key in table and needs not in table:
            raise BaccaratError(f"{context}.{key}: '{key}' goes with '{needs}'")
    size = len(GROUPS[group])
    tests = []
    if "count" in table:
        test = parse_card_test(table["of"], f"{context}.of") if "of" in table else ANY_CARD
        tests.append(GroupCount(group, test, int_values(table["count"], range(size + 1), f"{context}.count", "a number of cards")))
    if "every" in table:
        tests.append(GroupEvery(group, parse_card_test(table["every"], f"{context}.every")))
    for key, attribute in (("same_colour", "colour"), ("same_suit", "suit")):
        if key in table:
            if not isinstance(table[key], bool):
                raise BaccaratError(f"{context}.{key}: is true or false")
            tests.append(GroupSame(group, attribute, table[key]))
    for key in ("max_value", "min_value"):
        if key in table:
            tests.append(GroupValue(group, key[:3], int_values(table[key], range(10), f"{context}.{key}", "a point value")))
    if "poker" in table:
        tests.append(parse_poker(group, table, context, poker))
    return tests


def parse_poker(group: str, table: dict, context: str, poker: Poker) -> GroupPoker:
    names = as_list(table["poker"])
    if not names or not all(isinstance(n, str) for n in names):
        raise BaccaratError(f"{context}.poker: a category or a list of categories ({', '.join(CATEGORIES)})")
    for name in names:
        if name not in CATEGORIES:
            raise BaccaratError(f"{context}.poker: unknown poker category {name!r} (categories: {', '.join(CATEGORIES)})")
    ranks = None
    if "poker_ranks" in table:
        if not all(n in N_OF_A_KIND for n in names):
            raise BaccaratError(f"{context}.poker_ranks: only an n-of-a-kind ({', '.join(N_OF_A_KIND)}) is limited to ranks")
        text = as_list(table["poker_ranks"])
        if not text or not all(isinstance(r, str) for r in text):
            raise BaccaratError(f"{context}.poker_ranks: a list of ranks such as [\"T\", \"J\", \"Q\", \"K\"]")
        try:
            ranks = tuple(sorted({parse_rank(r) for r in text}))
        except BaccaratError as exc:
            raise BaccaratError(f"{context}.poker_ranks: {exc}") from None
    return GroupPoker(group, tuple(names), ranks, poker)


def parse_poker_rules(data, context: str) -> Poker:
    """A rule file's ``[poker]`` table: ``ace`` (both, low, high) and ``wrap`` (true/false)."""
    if not isinstance(data, dict):
        raise BaccaratError(f"{context}: poker: must be a table with ace and wrap")
    unknown = sorted(set(data) - {"ace", "wrap"})
    if unknown:
        raise BaccaratError(f"{context}: poker.{unknown[0]}: unknown key (expected one of ace, wrap)")
    ace = data.get("ace", "both")
    if ace not in ACE_RULES:
        raise BaccaratError(f"{context}: poker.ace: {ace!r} is not one of {', '.join(ACE_RULES)}")
    wrap = data.get("wrap", False)
    if not isinstance(wrap, bool):
        raise BaccaratError(f"{context}: poker.wrap: is true or false")
    return Poker(ace, wrap)


def is_card_key(key: str) -> bool:
    return key in PLACES or key in GROUPS
