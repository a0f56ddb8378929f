"""The coup layout: where each card of a coup lies, the drawing tableau applied to it, and which
card detail a question keeps.

Glossary
--------
position  a card's place in dealing order, 1 to 6: Player, Banker, Player, Banker, then the fifth
          card (the Player's third if he draws, else the Banker's third if he draws) and the
          sixth (the Banker's third when both draw).
place     a card by its hand: ``player_1``, ``player_2``, ``player_3``, ``banker_1``, ... A third
          card that was not dealt is absent (kind -1): it passes no card test.
group     a set of places: the Player's cards, the Banker's cards, the first four cards, all
          cards dealt.
detail    what a question needs to know of the cards: always their point values where the
          tableau matters, and beyond that only the card tests and attributes (rank, suit,
          colour) its conditions use. Cards that no condition tells apart form one *class*.

Every path that deals a coup - the enumerator, the batch evaluator, the simulator - applies the
tableau through :func:`draws` and names the outcome through :func:`value_fields`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache, reduce

from .cards import KINDS, VALUES, kind_attributes, whole_ranks, whole_suits
from .knowledge import NOTHING, Knowledge
from ..base.lazy import LazyModule
from .tableau import STOOD, Tableau

NONE = -1  # the value (or kind) of a third card that was not dealt
HEAD = ("player_1", "banker_1", "player_2", "banker_2")  # positions 1-4, in dealing order
PLACES = HEAD + ("player_3", "banker_3")
GROUPS = {
    "player_hand": ("player_1", "player_2", "player_3"),
    "banker_hand": ("banker_1", "banker_2", "banker_3"),
    "first_four": HEAD,
    "all_cards": PLACES,
}
POSITION_FIELDS = HEAD + ("fifth_card", "sixth_card")  # the card at each position 1-6, dealt or not
np = LazyModule("numpy")  # imported at first use: a question answered without arrays (lean.py) never loads it


@lru_cache(maxsize=1)
def kind_values():
    """The point value of each kind (rank * 4 + suit) as an array, made at first use
    (``layout.KIND_VALUE``)."""
    return np.repeat(np.array(VALUES), 4)


def __getattr__(name):  # KIND_VALUE, made when first imported (PEP 562)
    if name == "KIND_VALUE":
        return kind_values()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def draws(tableau: Tableau, pt, bt, player_third):
    """(Player draws, Banker draws) for two-card totals ``pt``, ``bt`` (arrays), where
    ``player_third`` is the value of the card the Player takes if he draws (ignored if not).
    A natural on either side ends the coup.

    >>> from analyzer.game.tableau import PUNTO_BANCO
    >>> [bool(x) for x in draws(PUNTO_BANCO, np.array(5), np.array(3), np.array(8))]
    [True, False]
    """
    natural = (pt >= 8) | (bt >= 8)
    player = ~natural & np.array(tableau.player_draws)[pt]
    banker = ~natural & np.array(tableau.banker_draws)[bt, np.where(player, player_third, STOOD)]
    return player, banker


def value_fields(pt, bt, player_third, banker_third) -> dict:
    """The outcome fields that depend on point values alone, from the two-card totals and the
    third cards' values (NONE where not dealt): arrays aligned with the inputs."""
    player_total = (pt + np.maximum(player_third, 0)) % 10
    banker_total = (bt + np.maximum(banker_third, 0)) % 10
    fields = {
        "player_total": player_total,
        "banker_total": banker_total,
        "player_two_card_total": pt,
        "banker_two_card_total": bt,
        "player_third": player_third,
        "banker_third": banker_third,
        "player_cards": 2 + (player_third >= 0),
        "banker_cards": 2 + (banker_third >= 0),
        "player_natural": (pt >= 8) & (player_third < 0),
        "banker_natural": (bt >= 8) & (banker_third < 0),
        "winner": np.sign(player_total - banker_total),  # 1 Player, -1 Banker, 0 tie
        "margin": np.abs(player_total - banker_total),
        "totals_sum": player_total + banker_total,
        "winning_total": np.maximum(player_total, banker_total),  # in a tie both are the tied total
        "losing_total": np.minimum(player_total, banker_total),
    }
    fields["natural"] = fields["player_natural"] | fields["banker_natural"]
    fields["total_cards"] = fields["player_cards"] + fields["banker_cards"]
    return fields


MAX_MEMOS = 64  # quantities derived and kept per layout of cells, the oldest dropped first


def memo(fields: dict, key: tuple, compute):
    """A quantity derived from a distribution's fields, computed once per layout of cells (see
    engine.shared_fields: shoes whose enumerations lay their cells out alike share one fields
    dict): every pay line of a bet, and every bet at the same detail, reads the same group
    profiles, and each bet's lines the same masks. At most MAX_MEMOS are kept beside the fields,
    so memory stays bounded however many bets are asked of one layout.

    >>> fields = {"player_1": np.zeros(3)}
    >>> [memo(fields, ("n", i), lambda: i) for i in range(MAX_MEMOS + 1)][-1]
    64
    >>> len(fields) == MAX_MEMOS + 1 and ("n", 0) not in fields and "player_1" in fields
    True
    """
    if key not in fields:
        derived = [k for k in fields if isinstance(k, tuple)]  # the fields themselves are named by strings
        if len(derived) >= MAX_MEMOS:
            fields.pop(derived[0], None)
        fields[key] = compute()
    return fields[key]


def head_flags(kinds: np.ndarray) -> dict:
    """Pair and suited flags of each hand's first two cards, from kinds [cell, place]."""
    rank, suit = kinds // 4, kinds % 4
    return {f"{hand}_{flag}": (attribute[:, i] == attribute[:, j])
            for hand, (i, j) in (("player", (0, 2)), ("banker", (1, 3)))
            for flag, attribute in (("pair", rank), ("suited", suit))}


def coup_fields(kinds: np.ndarray) -> dict:
    """Every outcome field of coups dealt from real cards: ``kinds[coup, place]`` in PLACES
    order, -1 for a third card not dealt."""
    value = np.append(kind_values(), NONE)[kinds]  # index -1: no card
    pt, bt = (value[:, 0] + value[:, 2]) % 10, (value[:, 1] + value[:, 3]) % 10
    places = {place: kinds[:, i] for i, place in enumerate(PLACES)}
    return places | value_fields(pt, bt, value[:, 4], value[:, 5]) | head_flags(kinds)


@dataclass(frozen=True)
class Needs:
    """What a condition looks at: the ``places`` whose cards it reads, the kind ``subsets`` its
    card tests select (52 booleans each), the ``attributes`` it compares between cards (rank,
    value, suit, colour), whether the coup's draws matter (``tableau``), ``singles``: the places
    and groups read (a head place named here is read alone, so its order matters), and ``cards``:
    whether a card-level test is used (one the value-level distribution cannot answer).

    Per place, for the card-level counter (cardcount.py): ``reads``, pairs (place, what is read
    there: a card test's 52 booleans or an attribute name), and ``draws``, whether the third
    cards matter (``tableau`` is also true for the fields of the first two cards' values alone,
    such as two-card totals and naturals, which need no draw)."""

    places: frozenset = frozenset()
    subsets: frozenset = frozenset()
    attributes: frozenset = frozenset()
    tableau: bool = False
    singles: frozenset = frozenset()
    cards: bool = False
    reads: frozenset = frozenset()
    draws: bool = False

    @property
    def suit_blind(self) -> bool:
        """Whether every answer stays the same when the suits are renamed (any permutation of
        s, h, d, c): each card test takes whole ranks, and no colour is compared. Shoes that
        differ only by suit names then give the same results.

        >>> Needs(attributes=frozenset({"suit", "rank"})).suit_blind, Needs(attributes=frozenset({"colour"})).suit_blind
        (True, False)
        """
        return all(map(whole_ranks, self.subsets)) and "colour" not in self.attributes

    def words(self) -> str:
        """What these needs tell cards apart by, in words (a refusal says what is really read).

        >>> Needs(tableau=True, attributes=frozenset({"suit", "colour"})).words()
        'the point value (for the draws), the colour and the suit'
        >>> hearts, kings = tuple(k % 4 == 1 for k in range(52)), tuple(k // 4 == 12 for k in range(52))
        >>> Needs(subsets=frozenset({hearts, kings, (True,) + (False,) * 51})).words()
        'the rank, the suit and which cards pass its card test'
        """
        read = set(self.attributes - ({"value"} if self.tableau else set()))
        other = 0
        for member in self.subsets:  # a card test of whole suits reads the suit; of whole ranks, the rank
            if whole_suits(member):
                read.add("suit")
            elif whole_ranks(member):
                read.add("rank")
            else:
                other += 1
        words = ["the point value (for the draws)"] if self.tableau else []
        words += [f"the {a}" for a in sorted(read)]
        if other:
            words.append("which cards pass its card tests" if other > 1 else "which cards pass its card test")
        if not words:
            return "nothing of the cards"
        return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"

    def __or__(self, other: Needs) -> Needs:
        return Needs(self.places | other.places, self.subsets | other.subsets, self.attributes | other.attributes,
                     self.tableau or other.tableau, self.singles | other.singles, self.cards or other.cards,
                     self.reads | other.reads, self.draws or other.draws)


def union(needs) -> Needs:
    return reduce(Needs.__or__, needs, Needs())


@dataclass(frozen=True)
class Detail:
    """The card detail a question keeps: ``classes[kind]`` numbers the classes of cards that no
    test tells apart (kinds of one class pass the same tests and share the attributes compared;
    the walks split them further by value and by what is known, see :meth:`split`); ``places``
    the places read; ``tableau`` whether the draws matter; ``symmetry`` which head cards may be
    exchanged without changing any answer: ``"head"`` (all four: only the groups first four and
    all cards read them), ``"hands"`` (each hand's two: no head place is read alone) or ``""``;
    ``knowledge`` what is known of the cards (the walk counts only the sequences that agree);
    ``revealed`` the positions 1-6 whose card's class is kept as a field (POSITION_FIELDS),
    dealt or not."""

    classes: tuple
    places: frozenset
    tableau: bool
    symmetry: str
    knowledge: Knowledge = NOTHING
    revealed: frozenset = frozenset()

    @classmethod
    @lru_cache(maxsize=256)
    def of(cls, needs: Needs, knowledge: Knowledge = NOTHING, revealed: frozenset = frozenset()) -> Detail:
        """The coarsest detail that answers every test of ``needs`` given ``knowledge``, keeping
        the cards at the ``revealed`` positions.

        >>> from analyzer.game.cards import FACE_RANKS
        >>> face = tuple(k // 4 in FACE_RANKS for k in range(52))
        >>> d = Detail.of(Needs(frozenset({"player_3"}), frozenset({face}), tableau=True))
        >>> len(set(d.classes)), d.symmetry
        (2, 'head')
        >>> known = Detail.of(Needs(tableau=True), Knowledge.parse(["5=red"]))
        >>> len(set(known.classes)), len(set(known.split(False, [5])))
        (1, 2)
        """
        subsets = sorted(needs.subsets)
        signature = [tuple(subset[k] for subset in subsets)
                     + tuple(kind_attributes(k)[a] for a in sorted(needs.attributes)) for k in range(KINDS)]
        first = {}
        classes = tuple(first.setdefault(sig, len(first)) for sig in signature)
        shown = {HEAD[p - 1] for p in revealed if p <= len(HEAD)}
        head_singles = needs.singles & set(HEAD) | shown
        hand_groups = needs.singles & {"player_hand", "banker_hand"}
        symmetry = "" if head_singles else "hands" if hand_groups else "head"
        return cls(classes, needs.places | shown, needs.tableau, symmetry, knowledge, frozenset(revealed))

    @property
    def positions(self) -> frozenset:
        """The positions 1-6 whose card's class the walk follows by itself: those revealed or known."""
        return self.revealed | set(self.knowledge.positions)

    def tells(self, attribute: str) -> bool:
        """Whether cards of one class always share ``attribute`` (rank, suit, ...)."""
        first = {}
        return all(first.setdefault(c, kind_attributes(k)[attribute]) == kind_attributes(k)[attribute]
                   for k, c in enumerate(self.classes))

    def split(self, by_value: bool, positions) -> tuple:
        """The classes split further by point value (for the positions where the tableau reads
        it) and by what is known at ``positions``: a walk follows cards in these classes where it
        needs to apply the tableau or the knowledge, and in the coarser ``classes`` elsewhere."""
        known = [self.knowledge.known[p - 1] for p in positions if self.knowledge.known[p - 1] is not None]
        first = {}
        return tuple(first.setdefault((c, VALUES[k // 4] if by_value else 0, tuple(s[k] for s in known)), len(first))
                     for k, c in enumerate(self.classes))


@lru_cache(maxsize=256)
def representatives(classes: tuple) -> np.ndarray:
    """The first kind of each class: every test gives it the class's answer (read-only)."""
    array = np.asarray(classes)
    first = np.array([int(np.flatnonzero(array == c)[0]) for c in range(array.max() + 1)])
    first.flags.writeable = False
    return first
