"""Bets as data, payout rule sets, and the one place that turns a distribution into a bet's result.

A bet is a list of pay lines, tried in order; the first line whose condition holds settles the
bet at that line's net payout (units won per unit staked; 0 is a push). Anything no line covers
loses the stake (-1). Conditions are data over the outcome fields (FIELDS), never code.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from .cards import BaccaratError, Shoe
from .engine import Distribution, enumerate_coup
from .tableau import PUNTO_BANCO, Tableau

FIELDS = {
    "winner": "who wins the coup: player, banker or tie",
    "player_total": "the Player's final total, 0-9",
    "banker_total": "the Banker's final total, 0-9",
    "player_two_card_total": "the Player's total on his first two cards",
    "banker_two_card_total": "the Banker's total on his first two cards",
    "player_cards": "cards the Player took, 2 or 3",
    "banker_cards": "cards the Banker took, 2 or 3",
    "player_third": "value of the Player's third card, 0-9 (-1: none)",
    "banker_third": "value of the Banker's third card, 0-9 (-1: none)",
    "player_natural": "the Player has a natural (two-card 8 or 9)",
    "banker_natural": "the Banker has a natural (two-card 8 or 9)",
    "natural": "either hand has a natural",
    "player_pair": "the Player's first two cards are of equal rank",
    "banker_pair": "the Banker's first two cards are of equal rank",
    "player_suited": "the Player's first two cards are of the same suit",
    "banker_suited": "the Banker's first two cards are of the same suit",
    "margin": "the difference of the final totals, 0-9",
    "total_cards": "cards dealt in the coup, 4-6",
}
WINNERS = {"player": 1, "banker": -1, "tie": 0}


@dataclass(frozen=True)
class Is:
    """The outcome field ``field`` takes one of ``values``."""

    field: str
    values: tuple

    def mask(self, fields):
        return np.isin(fields[self.field], [WINNERS.get(v, v) for v in self.values])


@dataclass(frozen=True)
class AllOf:
    parts: tuple

    def mask(self, fields):
        return np.logical_and.reduce([p.mask(fields) for p in self.parts] + [np.ones(len(fields["winner"]), bool)])


@dataclass(frozen=True)
class AnyOf:
    parts: tuple

    def mask(self, fields):
        return np.logical_or.reduce([p.mask(fields) for p in self.parts] + [np.zeros(len(fields["winner"]), bool)])


def where(**conditions) -> AllOf:
    """All of the given field conditions; a value may be one value or a tuple of allowed values.

    >>> where(winner="banker", banker_total=(6, 7))
    AllOf(parts=(Is(field='winner', values=('banker',)), Is(field='banker_total', values=(6, 7))))
    """
    for name, value in conditions.items():
        if name not in FIELDS:
            raise BaccaratError(f"unknown outcome field {name!r}")
    return AllOf(tuple(Is(k, v if isinstance(v, tuple) else (v,)) for k, v in conditions.items()))


@dataclass(frozen=True)
class Line:
    """One pay line: when ``condition`` holds, the bet wins ``pays`` units (0: push)."""

    pays: Fraction
    label: str
    condition: AllOf | AnyOf | Is


@dataclass(frozen=True)
class Bet:
    id: str
    name: str
    lines: tuple[Line, ...]

    def pay_table(self) -> str:
        """The pay lines in words, e.g. ``Banker wins 19/20:1; tie push``."""
        return "; ".join(f"{ln.label} {'push' if ln.pays == 0 else f'{ln.pays}:1'}" for ln in self.lines)


def line(pays, label: str, **conditions) -> Line:
    return Line(Fraction(pays), label, where(**conditions))


@dataclass(frozen=True)
class RuleSet:
    name: str
    description: str
    bets: tuple[Bet, ...]
    tableau: Tableau = PUNTO_BANCO


def banker_bet(commission=Fraction(5, 100)) -> Bet:
    pays = 1 - Fraction(commission)
    label = "Banker wins" if commission else "Banker wins (no commission)"
    return Bet("banker", "Banker", (line(pays, label, winner="banker"), line(0, "tie", winner="tie")))


PLAYER = Bet("player", "Player", (line(1, "Player wins", winner="player"), line(0, "tie", winner="tie")))
PLAYER_PAIR = Bet("player_pair", "Player Pair", (line(11, "Player pair", player_pair=True),))
BANKER_PAIR = Bet("banker_pair", "Banker Pair", (line(11, "Banker pair", banker_pair=True),))


def tie_bet(pays=8) -> Bet:
    return Bet("tie", "Tie", (line(pays, "Tie", winner="tie"),))


def rule_set(name, description, banker=None, tie=None) -> RuleSet:
    """A rule set of the five main bets, with the given Banker and Tie bets (standard by default)."""
    return RuleSet(name, description, (banker or banker_bet(), PLAYER, tie or tie_bet(), PLAYER_PAIR, BANKER_PAIR))


RULE_SETS = {
    rules.name: rules
    for rules in (
        rule_set("standard", "Punto banco: Banker 1:1 less 5% commission, Tie 8:1, pairs 11:1"),
        rule_set("commission-4", "Banker 1:1 less 4% commission", banker=banker_bet(Fraction(4, 100))),
        rule_set("tie-9", "Tie pays 9:1", tie=tie_bet(9)),
        rule_set(
            "no-commission",
            "No commission; a Banker win with 6 pays 1:2",
            banker=Bet("banker", "Banker", (
                line(Fraction(1, 2), "Banker wins with 6", winner="banker", banker_total=6),
                line(1, "Banker wins otherwise", winner="banker"),
                line(0, "tie", winner="tie"),
            )),
        ),
        rule_set(
            "ez",
            "EZ Baccarat: no commission; a Banker win with a three-card 7 pushes",
            banker=Bet("banker", "Banker", (
                line(0, "Banker wins with a three-card 7", winner="banker", banker_total=7, banker_cards=3),
                line(1, "Banker wins otherwise", winner="banker"),
                line(0, "tie", winner="tie"),
            )),
        ),
    )
}


def get_rules(name: str) -> RuleSet:
    """A built-in rule set by name."""
    try:
        return RULE_SETS[name]
    except KeyError:
        raise BaccaratError(f"unknown rule set {name!r} (choose from {', '.join(RULE_SETS)})") from None


@dataclass(frozen=True)
class BetResult:
    """A bet's exact results: each line's probability, and the loss probability."""

    bet: Bet
    line_probabilities: tuple[Fraction, ...]
    loss: Fraction

    @property
    def win(self) -> Fraction:
        return sum((p for p, ln in zip(self.line_probabilities, self.bet.lines) if ln.pays > 0), Fraction(0))

    @property
    def push(self) -> Fraction:
        return sum((p for p, ln in zip(self.line_probabilities, self.bet.lines) if ln.pays == 0), Fraction(0))

    @property
    def ev(self) -> Fraction:
        """Expected value per unit staked."""
        return sum((p * ln.pays for p, ln in zip(self.line_probabilities, self.bet.lines)), -self.loss)

    @property
    def house_edge(self) -> Fraction:
        """Expected loss per unit staked, ties and pushes counted as bets."""
        return -self.ev

    @property
    def house_edge_resolved(self) -> Fraction | None:
        """Expected loss per bet that wins or loses (pushes excluded)."""
        return None if self.push == 1 else -self.ev / (1 - self.push)

    @property
    def variance(self) -> Fraction:
        second = sum((p * ln.pays**2 for p, ln in zip(self.line_probabilities, self.bet.lines)), self.loss)
        return second - self.ev**2

    @property
    def hits_one_in(self) -> Fraction | None:
        """The bet wins once in this many coups on average (1 / P(win))."""
        return 1 / self.win if self.win else None


def evaluate(bet: Bet, dist: Distribution) -> BetResult:
    """The exact result of ``bet`` on a coup with distribution ``dist``."""
    open_cells = np.ones(len(dist.counts), bool)
    counts = []
    for ln in bet.lines:
        hit = ln.condition.mask(dist.fields) & open_cells
        counts.append(dist.count(hit))
        open_cells &= ~hit
    return BetResult(bet, tuple(Fraction(c, dist.total) for c in counts), Fraction(dist.total - sum(counts), dist.total))


def analyse(rules: RuleSet, shoe: Shoe) -> list[BetResult]:
    """Every bet of ``rules`` on ``shoe``, from one enumeration."""
    dist = enumerate_coup(shoe, rules.tableau)
    return [evaluate(bet, dist) for bet in rules.bets]


OUTCOMES = (
    ("banker", "Banker wins", where(winner="banker")),
    ("player", "Player wins", where(winner="player")),
    ("tie", "Tie", where(winner="tie")),
    ("player_pair", "Player pair", where(player_pair=True)),
    ("banker_pair", "Banker pair", where(banker_pair=True)),
    ("either_pair", "Either hand a pair", AnyOf((where(player_pair=True), where(banker_pair=True)))),
    ("player_natural", "Player natural", where(player_natural=True)),
    ("banker_natural", "Banker natural", where(banker_natural=True)),
    ("player_draws", "Player draws a third card", where(player_cards=3)),
    ("banker_draws", "Banker draws a third card", where(banker_cards=3)),
)


def outcome_counts(dist: Distribution) -> list[tuple[str, str, int]]:
    """(id, label, number of ordered 6-card sequences) of each outcome in OUTCOMES."""
    return [(name, label, dist.count(cond.mask(dist.fields))) for name, label, cond in OUTCOMES]
