"""Bets as data, rule sets, and the one place that turns a distribution into a bet's result.

A bet is a list of pay lines, tried in order; the first line whose condition holds settles the
bet at that line's payout (units won per unit staked; 0 is a push), less any commission. Anything
no line covers loses the stake (-1). Conditions are data over the outcome fields, never code.
Payouts are exact Fractions, or sympy expressions where a rule file names a symbol.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cached_property, lru_cache

from .cards import Shoe
from .amounts import parse_payout
from .cardtests import Poker
from .conditions import AllOf, AnyOf, Between, Is, Not, settled_masks, where  # noqa: F401  (the bet vocabulary)
from .errors import BaccaratError, did_you_mean, expect, listing
from .knowledge import NOTHING, Knowledge
from .layout import Detail, Needs, memo, np, union  # np: numpy, imported at first use
from .series import Series, line_numerators, line_probabilities
from .tableau import PUNTO_BANCO, Tableau
from .lazy import LazyModule

# The card-level counting, imported when a bet first reads card detail: a value-level question
# (`baccarat edge --decks 8`) starts without it (about 15 ms of a process).
cardcount, closedforms = LazyModule("analyzer.cardcount"), LazyModule("analyzer.closedforms")
engine = LazyModule("analyzer.engine")  # a question answered without arrays (lean.py) never loads it

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

    def __post_init__(self):
        lines = self.lines
        if not isinstance(lines, (tuple, list)) or not lines or not all(isinstance(ln, Line) for ln in lines):
            raise BaccaratError(f"bet {self.id!r}: its pay lines are a non-empty list of Lines (see bets.line)")
        if isinstance(self.commission, (str, float, bool)) or self.commission is None:
            raise BaccaratError(f"bet {self.id!r}: a commission is a Fraction, such as Fraction(1, 20) (got {self.commission!r})")
        object.__setattr__(self, "lines", tuple(lines))  # frozen, hashable

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
            out["ev"] = ev = Fraction(first, scale * total)
            out["variance"] = Fraction(second * total - first * first, (scale * total) ** 2)
            out["house_edge_resolved"] = None if pushed == total else Fraction(-first, scale * (total - pushed))
        else:
            pairs = [(p, ln) for p, ln in zip(probabilities, lines) if ln.pays != 0]
            out["ev"] = ev = _sum((p * self.bet.net(ln) for p, ln in pairs), -loss)
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
        if kept is None and self.bet.numeric:
            kept = self.__dict__.get("_moments")
            if kept is None:
                scale, nets = self.bet.integer_nets
                total = self.total
                lost = total - sum(self.sequences)
                first = sum(w * c for w, c in zip(nets, self.sequences)) - scale * lost
                second = sum(w * w * c for w, c in zip(nets, self.sequences)) + scale * scale * lost
                kept = self.__dict__["_moments"] = {"ev": Fraction(first, scale * total),
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

        >>> from .rulefile import get_rules
        >>> from .engine import enumerate_coup
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


@lru_cache(maxsize=1024)
def settled_cells(conditions: tuple, tableau: Tableau) -> tuple:
    """For each pay line (by its condition), the indices of the distribution's cells it settles:
    those where it holds and no earlier line did. Cells depend on the tableau, not the shoe."""
    return tuple(np.flatnonzero(hit).astype(np.int32) for hit in settled_masks(conditions, engine.cells(tableau)[1]))


def evaluate(bet: Bet, dist: Distribution) -> BetResult:
    """The exact result of ``bet`` on a coup with distribution ``dist``; a card-level bet is
    counted on the same shoe at the card detail its conditions read. A bet across coups follows
    the coups from this one on, independent, each with this shoe's chances (series.py): the
    first is the coup ``dist`` describes, with its known cards; the later ones are dealt blind."""
    expect(bet, Bet, "evaluate takes a Bet"), expect(dist, engine.Distribution, "and a Distribution (enumerate_coup)")
    counts = line_counts(bet, dist)
    if bet.series is None:
        return BetResult(bet, tuple(counts), dist.total)
    blind = dist if not dist.knowledge else unknowing(dist)
    return result_of(bet, counts, dist.total, line_counts(bet, blind) if blind is not dist else counts, blind.total)


def unknowing(dist: Distribution) -> Distribution:
    """The distribution of a coup dealt from the same shoe with nothing known of its cards."""
    from .engine import enumerate_coup, infinite_deck

    return infinite_deck(dist.tableau) if dist.shoe is None else enumerate_coup(dist.shoe, dist.tableau)


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


def line_counts(bet: Bet, dist: Distribution) -> list[int]:
    """Ordered 6-card sequences settled by each of the bet's conditions on one coup: its pay
    lines, or for a bet across coups the coup that counts and the coup that ends it."""
    return settled_counts(bet.conditions, bet.needs, dist, f"bet {bet.id!r}")


def settled_counts(conditions: tuple, needs: Needs, dist: Distribution, name: str = "these pay lines") -> list[int]:
    """Sequences settled by each of ``conditions`` in turn (the first that holds), on the shoe,
    tableau and knowledge of ``dist``: from its own cells where they answer the conditions, else
    by the card-level counter (cardcount.py) at the detail ``needs`` calls for."""
    if not needs.cards and not dist.knowledge:
        return [dist.count(settled) for settled in settled_cells(conditions, dist.tableau)]
    if dist.shoe is None:
        return infinite_card_counts(conditions, dist.tableau, dist.knowledge)
    if values_only(needs):  # given knowledge, the distribution's cells are those of the values and draws
        masks = memo(dist.fields, ("settled", conditions), lambda: settled_masks(conditions, dist.fields))
        return [dist.count(hit) for hit in masks]
    return detail_counts(conditions, needs, dist.shoe, dist.tableau, dist.knowledge, name)


def values_only(needs: Needs) -> bool:
    """Whether lines reading ``needs`` read the cards' point values and the draws alone (no pair,
    suit or card test): the cells of enumerate_coup answer them, with or without knowledge."""
    return not needs.cards and all(key == "value" for _, key in needs.reads)


def card_line_counts(bet: Bet, shoe: Shoe, tableau: Tableau, knowledge: Knowledge = NOTHING) -> list[int]:
    """A card-level bet's line counts on ``shoe``, by the card-level counter."""
    return detail_counts(bet.conditions, bet.needs, shoe, tableau, knowledge, f"bet {bet.id!r}")


def detail_counts(conditions: tuple, needs: Needs, shoe: Shoe, tableau: Tableau, knowledge: Knowledge = NOTHING,
                  name: str = "these pay lines") -> list[int]:
    """Sequences settled by each pay line, counted at the card detail ``needs`` calls for: by the
    lines' polynomials in the card counts (cardcount.py, compiled on first use), or where they
    read too much to compile (suits compared at every card, say), by a closed form where the lines
    have one (closedforms.py), else by the enumeration."""
    if cardcount.fits(needs, tableau, knowledge):
        return cardcount.line_counts(name, conditions, needs, shoe.kind_counts(), tableau, knowledge)
    form = None if knowledge else closedforms.one_form(conditions, tableau)
    if form is not None:  # too detailed to compile, but a closed form counts it (hands of two colours, say)
        return form.counts(shoe.kind_counts())
    return walked_counts(conditions, needs, shoe, tableau, knowledge, name)


def walked_counts(conditions: tuple, needs: Needs, shoe: Shoe, tableau: Tableau, knowledge: Knowledge = NOTHING,
                  name: str = "these pay lines") -> list[int]:
    """The same as :func:`detail_counts` by the other exact route: the enumeration of the coup at
    that card detail (engine.enumerate_cards), shoe by shoe. The tests hold the two equal."""
    detail = Detail.of(needs, knowledge)
    classes = live_classes_count(shoe, detail)
    if detail.tableau and classes > WALK_CLASSES:  # heads of four classes, then the third cards: refused before
        why = ""
        if not cardcount.fits(needs, tableau, knowledge):
            form = "with cards known, no closed form counts it" if knowledge and closedforms.one_form(conditions, tableau) \
                else closedforms.suit_expansion(conditions)[1] or "no closed form has its shape"
            why = f"; nor does it compile: more than {cardcount.MAX_ROWS:,} ways for the cards it reads to fall, and {form}"
        raise engine.TooMuchDetail(f"{name}: too much card detail to count on this shoe ({classes} classes of cards at every "
                            f"place through the draws, at most {WALK_CLASSES}: it reads {needs.words()}{why}): read "
                            "fewer attributes at once, at fewer places, or use a smaller shoe")
    try:
        detailed = engine.enumerate_cards(shoe, tableau, detail)
    except engine.TooMuchDetail as error:
        raise engine.TooMuchDetail(f"{name}: {error}") from None
    masks = memo(detailed.fields, ("settled", conditions), lambda: settled_masks(conditions, detailed.fields))
    return [detailed.count(hit) for hit in masks]


WALK_CLASSES = 26  # classes the enumeration follows at every place through the draws: 26**4 heads and their tails, a second or so


def live_classes_count(shoe: Shoe, detail: Detail) -> int:
    """The classes of cards the enumeration would follow at each place of this shoe (those it
    holds cards of), known before it starts."""
    split = np.array(detail.split(detail.tableau, range(1, 7)))
    return len(np.unique(split[np.array(shoe.kind_counts()) > 0]))


def prepare(bets, tableau: Tableau, knowledge: Knowledge = NOTHING, many: bool = False):
    """Compile the card-level counts of these bets (all of them given ``knowledge``, but those on
    values alone) at once, for one shoe or ``many``: bets that read alike share one walk of their
    cards (cardcount.prepare)."""
    lines = compiled_lines(bets, knowledge)
    if lines:  # (none: nothing to compile, and no card-level counting to import)
        cardcount.prepare(lines, tableau, knowledge, many)


def pending_rows(bets, tableau: Tableau, knowledge: Knowledge = NOTHING, many: bool = False) -> list[tuple]:
    """What :func:`prepare` would walk now for these bets: cardcount.pending_rows, counted before
    any walk."""
    return cardcount.pending_rows(compiled_lines(bets, knowledge), tableau, knowledge, many)


def compiled_lines(bets, knowledge: Knowledge) -> list[tuple]:
    """(name, lines, needs) of the bets whose counts are compiled: the card-level ones, and given
    ``knowledge`` every bet but those on values alone."""
    return [(f"bet {b.id!r}", b.conditions, b.needs) for b in bets
            if b.card_level or (knowledge and not values_only(b.needs))]


@lru_cache(maxsize=256)
def infinite_card_counts(conditions: tuple, tableau: Tableau, knowledge: Knowledge = NOTHING) -> list[int]:
    """Line counts in the infinite deck (total 52**6, or its share that agrees with ``knowledge``),
    exactly: on d full decks each count is a polynomial in d of degree at most 6 whose d**6
    coefficient is the limit (see engine.infinite_deck); it is the sixth finite difference at
    d = 1..7 over 6!."""
    needs = union(c.needs() for c in conditions)
    by_decks = [detail_counts(conditions, needs, Shoe.decks(d), tableau, knowledge) for d in range(1, 8)]
    leading = [sum((-1) ** (6 - k) * math.comb(6, k) * by_decks[k][i] for k in range(7)) for i in range(len(conditions))]
    assert all(x % math.factorial(6) == 0 for x in leading), "line counts are integer polynomials in d"
    return [x // math.factorial(6) for x in leading]


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
    return [(name, label, settled_counts((cond,), cond.needs(), dist)[0]) for name, label, cond in OUTCOMES]
