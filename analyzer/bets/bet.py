"""Bets as data and rule sets; a bet's figures from its line counts (routes/counts.py counts them).

A bet is a list of pay lines, tried in order; the first line whose condition holds settles the
bet at that line's payout (units won per unit staked; 0 is a push), less any commission. Anything
no line covers loses the stake (-1). Conditions are data over the outcome fields, never code.
Payouts are exact Fractions, or sympy expressions where a rule file names a symbol.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cached_property

from .amounts import parse_payout
from .cardtests import Poker
from .conditions import AllOf, AnyOf, Between, Is, Not, where  # noqa: F401  (the bet vocabulary)
from ..base.errors import BaccaratError, did_you_mean, expect, listing
from ..game.layout import Needs, union
from .series import Series, line_numerators, line_probabilities
from ..game.tableau import PUNTO_BANCO, Tableau

NEVER = AnyOf(())  # a condition that holds for no coup
INDEPENDENT = ("independent coups, each with this shoe's exact chances (a real shoe's figure, dealt to its cut "
               "card: baccarat simulate)")


MAIN_BETS = ("banker", "player", "tie")  # the bets on who wins (the outcomes of the same names); every other bet is a side bet


@dataclass(frozen=True)
class Line:
    """One pay line: when ``condition`` holds, the bet wins ``pays`` units (0: push) before any
    commission. ``pays`` is a Fraction, or a sympy expression where a payout is a symbol;
    ``written`` the payout as the casino prints it where that is not to one (``"5 for 1"``)."""

    pays: object
    label: str
    condition: object
    written: str = ""


@dataclass(frozen=True)
class Bet:
    """A bet: pay lines tried in order, the first that holds settling it. ``commission`` (a
    fraction of the win, possibly symbolic) is taken from every win."""

    id: str
    name: str
    lines: tuple[Line, ...]
    commission: object = Fraction(0)
    source: str = ""
    series: Series | None = None  # a bet across coups: what it follows (series.py); its lines test the count
    fee: Fraction = Fraction(0)  # paid on every coup beside the stake, whatever the result (a share of the stake)
    multipliers: object = None  # overlay.Multipliers: random multipliers drawn before the coup, on wins

    def __post_init__(self):
        lines = self.lines
        if not isinstance(lines, (tuple, list)) or not lines or not all(isinstance(ln, Line) for ln in lines):
            raise BaccaratError(f"bet {self.id!r}: its pay lines are a non-empty list of Lines (see bets.line)")
        if isinstance(self.commission, (str, float, bool)) or self.commission is None:
            raise BaccaratError(f"bet {self.id!r}: a commission is a Fraction, such as Fraction(1, 20) (got {self.commission!r})")
        object.__setattr__(self, "lines", tuple(lines))  # frozen, hashable
        if not isinstance(self.fee, (Fraction, int)) or isinstance(self.fee, bool) or not 0 <= self.fee < 1:
            raise BaccaratError(f"bet {self.id!r}: a fee is a Fraction of the stake from 0 to less than 1 (got {self.fee!r})")
        if (self.multipliers is not None or self.fee) and self.series is not None:
            raise BaccaratError(f"bet {self.id!r}: a fee and multipliers are for a bet on one coup, not a bet across coups")

    @property
    def overlaid(self) -> bool:
        """A fee or multipliers change the bet's figures beyond its pay lines' counts."""
        return self.multipliers is not None or self.fee != 0

    @cached_property
    def conditions(self) -> tuple:
        """The conditions read of each coup: the pay lines' in order, or for a bet across coups
        the coup that counts and the coup that ends it (NEVER where nothing but its limits does)."""
        if self.series is not None:
            return (self.series.counts, self.series.ends if self.series.ends is not None else NEVER)
        return tuple(ln.condition for ln in self.lines)

    @cached_property
    def needs(self) -> Needs:
        """What the bet's conditions read of the cards (layout.Needs); found once per bet."""
        return union(c.needs() for c in self.conditions)

    @property
    def card_level(self) -> bool:
        """The bet reads single cards or groups of cards (ranks, suits, colours, places), beyond
        what the value-level distribution holds: it is counted at its own card detail."""
        return self.needs.cards

    @cached_property
    def numeric(self) -> bool:
        """Every payout and the commission are numbers (no payout symbol)."""
        return all(isinstance(x, (Fraction, int)) for x in (self.commission, *(ln.pays for ln in self.lines)))

    def net(self, ln: Line):
        """Units won per unit staked when ``ln`` settles the bet, commission paid."""
        return ln.pays if ln.pays == 0 else ln.pays * (1 - self.commission)

    @cached_property
    def integer_nets(self) -> tuple[int, tuple[int, ...]]:
        """(d, nets): d the common denominator of the numeric net payouts, nets each line's net
        payout times d (a push: 0), so that sums of counts stay in integers."""
        nets = [Fraction(self.net(ln)) for ln in self.lines]
        scale = math.lcm(*(x.denominator for x in nets))
        return scale, tuple(int(x * scale) for x in nets)


def line(pays, label: str, **conditions) -> Line:
    """A pay line from Python: ``line(25, "Perfect pair", player_pair=True, player_suited=True)``.
    The payout is checked as a rule file's (amounts.parse_payout): a float is taken as the decimal
    it prints as (0.95 is 19/20), a Fraction as it is, text as a rule file writes it ("3:2").

    >>> line(0.95, "Banker wins", winner="banker").pays, line("3:2", "x", winner="tie").pays
    (Fraction(19, 20), Fraction(3, 2))
    """
    if isinstance(pays, (float, Fraction)):
        pays = repr(pays) if isinstance(pays, float) else str(pays)
    amount, written = parse_payout(pays, "pay line", expect(label, str, "a pay line's label is text"))
    return Line(amount, label, where(**conditions), written)


@dataclass(frozen=True)
class RuleSet:
    name: str
    description: str
    bets: tuple[Bet, ...]
    tableau: Tableau = PUNTO_BANCO
    source: str = ""
    count_systems: tuple = ()  # named count systems: (name, 10 tags for A..9 and the ten-value cards)
    poker: Poker = Poker()  # where the ace stands in a straight, for the bets on poker hands
    own: tuple = field(default=(), compare=False)  # the ids of the bets its file defines (not those it extends)

    @property
    def first_own(self) -> Bet:
        """The first bet its own file defines (a file that extends another: its new bet), else the first."""
        return self.bet(self.own[0]) if self.own else self.bets[0]

    def bet(self, bet_id: str) -> Bet:
        """The bet with this id."""
        for bet in self.bets:
            if bet.id == bet_id:
                return bet
        ids = [b.id for b in self.bets]
        hint = did_you_mean(bet_id, ids)
        raise BaccaratError(f"rule set {self.name!r} has no bet {bet_id!r}" + (hint or f" (bets: {listing(ids)})"))

    def only(self, bet_ids) -> RuleSet:
        """The same rule set with just these bets (ids, or one id), in the rule set's order."""
        wanted = {self.bet(b).id for b in ([bet_ids] if isinstance(bet_ids, str) else bet_ids)}
        return replace(self, bets=tuple(b for b in self.bets if b.id in wanted))

    def value_level(self) -> RuleSet:
        """The same rule set without its card-level bets (those counted at their own card detail)."""
        return replace(self, bets=tuple(b for b in self.bets if not b.card_level))


def _sum(terms, start):
    for term in terms:
        start = start + term
    return start


@dataclass(frozen=True)
class BetResult:
    """A bet's exact results: the ordered 6-card sequences settled by each pay line, out of
    ``total`` (for a bet across coups, each line's probability under independent coups as a
    numerator over their common denominator ``total``: see ``model``). Probabilities, EV and
    variance are Fractions, made when asked: with numeric payouts from integer sums over one
    common denominator (one Fraction each)."""

    bet: Bet
    sequences: tuple[int, ...]
    total: int

    def figures(self) -> dict:
        """Every figure at once, worked out on first use and kept (a plain dict: a tracker asks
        for a thousand of them after each card). With numeric payouts each is one Fraction of
        integer sums: won W, pushed P and lost L sequences of T; d the common denominator of the
        net payouts (Bet.integer_nets), E = sum(d net c) - d L and M = sum((d net)^2 c) + d^2 L,
        so EV = E / (d T), the variance M / (d^2 T) - EV^2 = (M T - E^2) / (d T)^2, the edge per
        resolved bet -E / (d (T - P)), and a win once in T / W coups."""
        kept = self.__dict__.get("_figures")
        if kept is None:
            kept = self.__dict__["_figures"] = self._figures()
        return kept

    def _figures(self) -> dict:
        total, lines = self.total, self.bet.lines
        won = sum(c for c, ln in zip(self.sequences, lines) if ln.pays != 0)
        pushed = sum(c for c, ln in zip(self.sequences, lines) if ln.pays == 0)
        probabilities = tuple(Fraction(c, total) for c in self.sequences)
        loss = Fraction(total - won - pushed, total)
        out = {"line_probabilities": probabilities, "win": Fraction(won, total), "push": Fraction(pushed, total),
               "loss": loss, "hits_one_in": Fraction(total, won) if won else None}
        if self.bet.numeric:
            scale, nets = self.bet.integer_nets
            lost = total - won - pushed
            first = sum(w * c for w, c in zip(nets, self.sequences)) - scale * lost
            second = sum(w * w * c for w, c in zip(nets, self.sequences)) + scale * scale * lost
            out["ev"] = ev = Fraction(first, scale * total) - self.bet.fee
            out["variance"] = Fraction(second * total - first * first, (scale * total) ** 2)
            out["house_edge_resolved"] = None if pushed == total else -ev * total / (total - pushed)
        else:
            pairs = [(p, ln) for p, ln in zip(probabilities, lines) if ln.pays != 0]
            out["ev"] = ev = _sum((p * self.bet.net(ln) for p, ln in pairs), -loss) - self.bet.fee
            out["variance"] = _sum((p * self.bet.net(ln) ** 2 for p, ln in pairs), loss) - ev**2
            out["house_edge_resolved"] = None if pushed == total else -ev / (1 - out["push"])
        out["house_edge"] = -ev
        return out

    @property
    def line_probabilities(self) -> tuple[Fraction, ...]:
        return self.figures()["line_probabilities"]

    @property
    def win(self) -> Fraction:
        return self.figures()["win"]

    @property
    def push(self) -> Fraction:
        return self.figures()["push"]

    @property
    def loss(self) -> Fraction:
        return self.figures()["loss"]

    def moments(self) -> tuple:
        """(EV, variance) alone, without the other figures: with numeric payouts the same two
        integer sums as :meth:`figures` (E and M over the lines' sequences, the lost ones
        total - sum(sequences), the lines being exclusive), two Fractions in all - what a review
        of thousands of coups asks of every bet."""
        kept = self.__dict__.get("_figures")
        if kept is None and self.bet.numeric and self.bet.multipliers is None:
            kept = self.__dict__.get("_moments")
            if kept is None:
                scale, nets = self.bet.integer_nets
                total = self.total
                lost = total - sum(self.sequences)
                first = sum(w * c for w, c in zip(nets, self.sequences)) - scale * lost
                second = sum(w * w * c for w, c in zip(nets, self.sequences)) + scale * scale * lost
                kept = self.__dict__["_moments"] = {"ev": Fraction(first, scale * total) - self.bet.fee,
                                                    "variance": Fraction(second * total - first * first, (scale * total) ** 2)}
        if kept is None:
            kept = self.figures()
        return kept["ev"], kept["variance"]

    @property
    def ev(self):
        """Expected value per unit staked."""
        return self.moments()[0]

    @property
    def house_edge(self):
        """Expected loss per unit staked, ties and pushes counted as bets."""
        return self.figures()["house_edge"]

    @property
    def house_edge_resolved(self):
        """Expected loss per bet that wins or loses (pushes excluded)."""
        return self.figures()["house_edge_resolved"]

    @property
    def variance(self):
        return self.moments()[1]

    @property
    def hits_one_in(self) -> Fraction | None:
        """The bet wins once in this many coups on average (1 / P(win))."""
        return self.figures()["hits_one_in"]

    def record(self) -> dict:
        """The result as a plain record: the bet's id and name, the exact probabilities, EV,
        house edges and variance (Fractions; sympy expressions for a symbolic payout), and the
        ordered 6-card sequences settled by each pay line out of ``total``.

        >>> from analyzer.bets.rulefile import get_rules
        >>> from analyzer.game.cards import Shoe
        >>> from analyzer.game.engine import enumerate_coup
        >>> from analyzer.routes.counts import evaluate
        >>> tie = evaluate(get_rules("standard").bet("tie"), enumerate_coup(Shoe.decks(8)))
        >>> record = tie.record()
        >>> record["bet"], record["house_edge"], record["sequences"] == [record["total"] * record["win"]]
        ('tie', Fraction(103841353768, 723147898655), True)
        """
        return {"bet": self.bet.id, "name": self.bet.name, "win": self.win, "push": self.push, "loss": self.loss,
                "ev": self.ev, "house_edge": self.house_edge, "house_edge_resolved": self.house_edge_resolved,
                "variance": self.variance, "hits_one_in": self.hits_one_in, "sequences": list(self.sequences),
                "total": self.total} | ({"model": self.model} if self.model else {})

    @property
    def model(self) -> str:
        """'' for a bet on one coup (exact on the shoe); for a bet across coups, the model under
        which its figures are exact."""
        return INDEPENDENT if self.bet.series is not None else ""


def result_of(bet: Bet, counts, total: int, later=None, later_total: int | None = None) -> BetResult:
    """A bet's result from the sequences settled by each of its conditions (Bet.conditions) out
    of ``total``: a bet on one coup as it is; a bet across coups by the law of its count
    (series.py), the later coups' counts ``later`` (default: the same), its line probabilities
    then held as numerators over their common denominator."""
    if bet.series is None:
        return BetResult(bet, tuple(map(int, counts)), int(total))
    first = (int(counts[0]), int(counts[1]), int(total))
    rest = first if later is None else (int(later[0]), int(later[1]), int(later_total))
    if first[0] * rest[2] == rest[0] * first[2] and first[1] * rest[2] == rest[1] * first[2]:  # every coup alike
        fast = line_numerators(bet, rest[0], rest[1])
        if fast is not None:
            return BetResult(bet, *fast)
    try:
        chances = line_probabilities(bet, first, rest)
    except BaccaratError as error:
        raise BaccaratError(f"bet {bet.id!r}: {error}") from None
    scale = math.lcm(*(p.denominator for p in chances))
    return BetResult(bet, tuple(int(p * scale) for p in chances), scale)


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
