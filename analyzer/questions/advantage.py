"""What a piece of information about the coming cards is worth to a bettor who sees it first.

Glossary
--------
information  what the bettor sees before he bets: at each of some positions (1-6, dealing order,
             see knowledge.py) which group of a split of the ten point values the card is in.
             Edge sorting: a group (say 6, 7, 8, 9) and the rest; an exposed card: all ten
             values apart.
state        one pattern the bettor may see: a group at each position.
best bet     in a state, the bet with the highest EV given the state (the first of the bets
             in the order asked, among equals); the bettor stakes one unit on it when that EV is positive,
             and does not bet otherwise.
advantage    his expected win per coup dealt: the sum over states of P(state) x max(0, best EV).

Every figure is exact. The enumeration keeps the point value of the card at each position
watched (engine.enumerate_cards with those positions revealed), so that every split of the
values is a regrouping of one table of integer counts: the search for the best split enumerates
the shoe once.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ..bets.bet import Bet, RuleSet
from ..bets.conditions import settled_masks
from ..game.cards import BaccaratError, Shoe, check_playable
from ..game.engine import enumerate_cards
from ..game.knowledge import NOTHING, Knowledge, of_values
from ..game.layout import KIND_VALUE, POSITION_FIELDS, Detail, Needs

POINT_VALUES = range(10)
MAX_STATES = 100_000  # states listed one by one (the exact values of five cards); bounds time and memory
BY_VALUE = Needs(subsets=frozenset(of_values({v}) for v in POINT_VALUES))  # cards told apart by point value


@dataclass(frozen=True)
class Information:
    """At each of ``positions`` the bettor sees which of ``groups`` (a split of the point values
    0-9 into disjoint groups covering them all) the card's value is in.

    >>> Information.sort({6, 7, 8, 9}, (1,)).describe()
    'card 1 is 6-9 or not'
    """

    positions: tuple[int, ...]
    groups: tuple[tuple[int, ...], ...]

    def __post_init__(self):
        states = len(self.groups) ** len(self.positions)
        if states > MAX_STATES:
            raise BaccaratError(f"seeing that much makes {states:,} states to list, more than {MAX_STATES:,}: "
                                "watch fewer places (at most five exact cards)")

    @classmethod
    def sort(cls, values, positions) -> Information:
        """Edge sorting: the cards of ``values`` are told from the rest at each position."""
        values = tuple(sorted(set(values)))
        if not values:
            raise BaccaratError("a sorted group needs at least one point value")
        if len(values) == 10:
            raise BaccaratError("a sorted group of all ten point values tells the bettor nothing")
        return cls(tuple(positions), (values, tuple(v for v in POINT_VALUES if v not in values)))

    @classmethod
    def exact(cls, positions) -> Information:
        """The exact point value of the card at each position."""
        return cls(tuple(positions), tuple((v,) for v in POINT_VALUES))

    def group_of(self) -> np.ndarray:
        """For each point value, the index of its group."""
        out = np.empty(10, np.int64)
        for i, group in enumerate(self.groups):
            out[list(group)] = i
        return out

    def states(self):
        """Every state: one group index per position, in order."""
        return itertools.product(range(len(self.groups)), repeat=len(self.positions))

    def group_name(self, i: int) -> str:
        return values_text(self.groups[i]) if len(self.groups) > 2 or i == 0 else "other"

    def state_name(self, state) -> str:
        return ", ".join(f"{p}: {self.group_name(g)}" for p, g in zip(self.positions, state))

    def describe(self) -> str:
        context = ", ".join(map(str, self.positions))
        if len(self.groups) == 10:
            return f"the point value of card{'s' * (len(self.positions) > 1)} {context}"
        return f"card{'s' * (len(self.positions) > 1)} {context} {'are' if len(self.positions) > 1 else 'is'} " \
               f"{values_text(self.groups[0])} or not"


def values_text(values) -> str:
    """Point values as a short text: runs as ranges.

    >>> values_text((6, 7, 8, 9)), values_text((0, 2, 3, 9))
    ('6-9', '0, 2-3, 9')
    """
    runs = []
    for v in values:
        if runs and v == runs[-1][1] + 1:
            runs[-1][1] = v
        else:
            runs.append([v, v])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


def parse_values(text: str) -> tuple[int, ...]:
    """Point values from a list such as ``6,7,8,9`` or ``6-9`` or ``0,1``.

    >>> parse_values("6-9"), parse_values("0, 5-6")
    ((6, 7, 8, 9), (0, 5, 6))
    """
    values = set()
    for item in (item for item in text.split(",") if item.strip()):
        low, dash, high = item.strip().partition("-")
        ends = [low.strip(), (high if dash else low).strip()]
        if not all(e.isascii() and e.isdigit() and len(e) == 1 for e in ends):
            raise BaccaratError(f"a group of point values is written like 6,7,8,9 or 6-9 (values 0 to 9); got {text.strip()!r}")
        a, b = map(int, ends)
        if a > b:
            raise BaccaratError(f"the range {item.strip()!r} runs backwards")
        values |= set(range(a, b + 1))
    if not values:
        raise BaccaratError(f"a group of point values is written like 6,7,8,9 or 6-9 (values 0 to 9); got {text.strip()!r}")
    return tuple(sorted(values))


@dataclass(frozen=True)
class Table:
    """Exact counts by the point values at the positions watched: ``totals[s]`` the sequences
    that show the values of state s (s = sum of value_j 10**j), ``lines[bet][l][s]`` those that
    settle pay line l of each bet (the rest of ``totals[s]`` lose it)."""

    positions: tuple[int, ...]
    bets: tuple[Bet, ...]
    totals: np.ndarray
    lines: tuple  # per bet: an array [line, state]
    total: int

    def regroup(self, info: Information):
        """(totals, lines) summed over the states that ``info`` does not tell apart."""
        digits = (np.arange(10 ** len(self.positions))[:, None] // 10 ** np.arange(len(self.positions))) % 10
        size = len(info.groups)
        state = (info.group_of()[digits] * size ** np.arange(len(self.positions))).sum(1)
        totals = np.zeros(size ** len(self.positions), self.totals.dtype)
        np.add.at(totals, state, self.totals)
        lines = []
        for counts in self.lines:
            out = np.zeros((len(counts), len(totals)), counts.dtype)
            for i, row in enumerate(counts):
                np.add.at(out[i], state, row)
            lines.append(out)
        return totals, lines


def count_table(rules: RuleSet, shoe: Shoe, bets, positions, knowledge: Knowledge = NOTHING) -> Table:
    """The exact counts of every pay line of ``bets`` by the point values of the cards at
    ``positions``, given ``knowledge``: one enumeration per card detail the bets read."""
    shoe = check_playable(shoe)
    if not bets:
        raise BaccaratError("no bets to choose among")
    for bet in bets:
        if not bet.numeric:
            raise BaccaratError(f"bet {bet.id!r} has a symbolic payout: the best bet needs numbers")
        if bet.series is not None:
            raise BaccaratError(f"bet {bet.id!r} is a bet across coups: the cards of one coup do not settle it "
                                "(choose bets on one coup)")
        if bet.multipliers is not None:
            raise BaccaratError(f"bet {bet.id!r} has multipliers: its EV given a card seen is not counted here "
                                "(choose bets without them)")
    positions = tuple(positions)
    totals, lines = None, []
    for bet in bets:
        detail = Detail.of(bet.needs | BY_VALUE, knowledge, frozenset(positions))
        dist = enumerate_cards(shoe, rules.tableau, detail)
        seen = [dist.fields[POSITION_FIELDS[p - 1]] for p in positions]
        assert all((kinds >= 0).all() for kinds in seen), "a revealed position always holds a card"
        state = np.zeros(len(dist.sequences), np.int64)
        for j, kinds in enumerate(seen):
            state += KIND_VALUE[kinds] * 10**j
        by_state = np.zeros(10 ** len(positions), dist.sequences.dtype)
        np.add.at(by_state, state, dist.sequences)
        if totals is None:
            totals = by_state
        assert (totals == by_state).all(), "every detail counts the same sequences"
        settled = np.zeros((len(bet.lines), len(by_state)), dist.sequences.dtype)
        for i, hit in enumerate(settled_masks(tuple(ln.condition for ln in bet.lines), dist.fields)):
            np.add.at(settled[i], state[hit], dist.sequences[hit])
        lines.append(settled)
    total = int(totals.sum())
    if not total:
        raise BaccaratError(f"no deal from this shoe agrees with the known cards ({knowledge.describe()})")
    return Table(positions, tuple(bets), totals, tuple(lines), total)


def wins(bet: Bet, settled, total: int) -> Fraction:
    """The bet's total win over ``total`` sequences, ``settled[l]`` of which settle line l."""
    won = sum((bet.net(ln) * int(n) for ln, n in zip(bet.lines, settled) if ln.pays != 0), Fraction(0))
    return won - (total - sum(int(n) for n in settled)) - bet.fee * total  # a fee is paid whatever the result


@dataclass(frozen=True)
class State:
    """One pattern the bettor may see: its probability and each bet's exact EV given it."""

    groups: tuple[int, ...]
    probability: Fraction
    evs: tuple[Fraction, ...]  # in the order of the bets

    @property
    def best(self) -> int:
        """Index of the bet with the highest EV (the first among equals)."""
        return max(range(len(self.evs)), key=lambda i: (self.evs[i], -i))


@dataclass(frozen=True)
class Advantage:
    info: Information
    bets: tuple[Bet, ...]
    states: tuple[State, ...]  # the states that occur
    total: int  # sequences that agree with what is known

    @property
    def advantage(self) -> Fraction:
        """Expected win per coup dealt: sum of P(state) x max(0, best EV)."""
        return sum((s.probability * max(0, s.evs[s.best]) for s in self.states), Fraction(0))

    @property
    def betting_share(self) -> Fraction:
        """The share of coups on which the bettor bets (his best EV positive)."""
        return sum((s.probability for s in self.states if s.evs[s.best] > 0), Fraction(0))


def advantage(table: Table, info: Information) -> Advantage:
    """The bettor's exact advantage when he sees ``info`` (its positions are the table's)."""
    assert info.positions == table.positions
    totals, lines = table.regroup(info)
    states = []
    for s, groups in enumerate(info.states()):
        index = sum(g * len(info.groups) ** j for j, g in enumerate(groups))
        n = int(totals[index])
        if n:
            evs = tuple(wins(bet, counts[:, index], n) / n for bet, counts in zip(table.bets, lines))
            states.append(State(groups, Fraction(n, table.total), evs))
    return Advantage(info, table.bets, tuple(states), table.total)


def best_sort(table: Table) -> list[tuple[tuple[int, ...], Advantage]]:
    """Every split of the ten point values into two groups, best first: (the group without 0,
    its advantage). There are 511 splits; the table is regrouped for each, never re-enumerated."""
    splits = [group for size in range(1, 10) for group in itertools.combinations(range(1, 10), size)]
    results = [(group, advantage(table, Information.sort(group, table.positions))) for group in splits]
    return sorted(results, key=lambda r: -r[1].advantage)


def by_position(rules: RuleSet, shoe: Shoe, bets, positions=tuple(range(1, 7)), knowledge: Knowledge = NOTHING):
    """For each position, the advantage of knowing the exact point value of that card alone."""
    return [(p, advantage(count_table(rules, shoe, bets, (p,), knowledge), Information.exact((p,)))) for p in positions]


def default_bets(rules: RuleSet) -> tuple[Bet, ...]:
    """The main bets of a rule set (Player, Banker and Tie, by those ids) or, lacking them, all."""
    main = [b for b in rules.bets if b.id in ("player", "banker", "tie")]
    return tuple(main or rules.bets)

