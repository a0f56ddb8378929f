"""Game protection: who played with an advantage, from the cards dealt and the wagers placed.

Glossary
--------
wager         a bet placed on one coup: table, shoe, coup (its number in the shoe, from 1), seat,
              player (an id or a name), bet (its id in the table's rules) and amount.
EV            a wager's exact expectation per unit staked, from the shoe before its coup (the cards
              left less those seen: `now`'s figure at that moment). House edge = -EV.
theoretical   the house's theoretical win: the sum of amount x house edge at the moment of each
              wager (exact).
realized      the house's realized win: the sum of amount x (-net) the wagers were paid (exact).
session       a player's wagers at one table in one shoe. His opportunities in it are every coup
              from his first wager to his last, on each bet he wagered in it (amount 0 where he
              did not bet): how wager size follows EV (correlation and slope) is measured over them.
bundle        a player's wagers at one coup, at every seat he plays: they move together.
chance        the chance that the same wagers, played on shoes whose cards fell otherwise, would
              have had an expected win at least as high as his (the sum of amount x the model's
              figure). Counting's test (``dealt``): his wagers in each shoe kept as they were - the
              same coups, bets and amounts - against the EVs of a shoe dealt by the simulator in its
              place (BANK_SHOES of them, from the table's start shoe): his pattern of play stays
              whole (his breaks, his raises, every coup he played), only the cards under it change.
              (Moving his wagers about the shoe instead would match the slow drift of a shoe's EV by
              chance: a player who raised his stake half-way would look like a counter.) The
              information models' test (``within``): in each
              session (his first coup to his last in a shoe) the bundles between the first and the
              last each placed at a coup drawn at random strictly between them (the innovation is
              of mean 0 at every coup to whoever does not see the card: see model). Counted
              exactly when the placements number at most EXACT_PLACEMENTS (a Fraction), else
              estimated from ``samples`` random placements as (hits + 1) / (samples + 1), with
              its standard error. Sums within 1e-9 of the largest values count as "at least as
              high": ties favour the player. The chance shown is adjusted for the tests weighed
              (the union bound: see flag), min(1, tests x chance).
model         what a player's wagers follow. A counter follows the EV of the shoe before the
              coup (``counting``). A player who knows something he should not follows the EV
              given something of the coup's first card (``--known 1=...`` in the tool's terms):
              the card itself (a flashed card), its colour (where a bet he played reads suits),
              or whether it is of a group of ranks (7-9 by default: the cards edge sorting sets
              apart). An information model is tested on what only it knows, its innovation: the
              EV given what it sees of the first card less the EV, both on the table's full shoe
              (exact; one function of the first card for the whole table), less its expectation
              given the shoe before the coup (the cards left weigh what the first card may be) -
              so of mean 0 at every coup to whoever does not see the card, a counter included.
              The model named is the flagged information model with the smallest chance (then
              the largest correlation of amount with what only it knows), else counting; for it
              the exact EV of each of his wagers given what it sees is worked out too
              (``--known``'s figure on the shoe before the coup).
flag          a player is flagged when an adjusted chance is at most ``level``: counting's test
              weighed at level / 2, each information model's at level / (2 x the models tried).
              By the union bound, a player whose wagers ignore the cards is flagged with a chance
              of at most ``level``, where the null hypothesis holds (below).

The null hypothesis is that the cards had no say in a player's wagers: for counting, that his
wagers would have been the same on any shoe (the simulator's shoes are then as likely as the one
dealt); for the information models, which coups of a session got his bundles. The bank's shoes
are dealt with no burn, to a cut card 14 cards from the end, from a shoe of whole decks; a shoe
whose EVs ran high all along makes every player at it look a little lucky, so false flags, as
rare as the level says for each player, come together at such a shoe. Placements are drawn with
replacement, which a session's distinct coups vary less than (conservative).
"""

from __future__ import annotations

import math
import re
import zlib
from bisect import bisect_right
from collections import defaultdict
from dataclasses import dataclass, field, replace
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from functools import lru_cache

from ..game.cards import COLOURS, RANKS, SUIT_COLOUR, SUITS, Shoe
from ..base.errors import BaccaratError
from .replay import ShoeDealt, card_text, steps
from .wagers import MAX_WAGERS, Wager, period
from .wagers import name_of, parse_wagers  # noqa: F401  (read through protect by the command line, as before)

EXACT_PLACEMENTS = 100_000
DRAWS = 4_000_000  # random draws held at once by the sampled test (32 MB)
SAMPLES = 2_000
LEVEL = Fraction(1, 100)
GROUP = "7-9"
SHOWN_COUPS = 20  # coups behind a flag, shown per player


def wagers_from_store(store, tables: list[str] | None = None, since: str | None = None,
                      until: str | None = None, most: int = MAX_WAGERS, players: list[str] | None = None,
                      shoe: int | None = None) -> list[Wager]:
    """The wagers kept in the pit's store (of ``tables``, else of all), each named by its id in
    errors (each is reviewed by the EV its kept shoe gives: the one it was kept with, unless a
    correction changed a coup before it since)."""
    out = []
    for row in store.wager_rows(tables, period(since, "since"), period(until, "until"), players, shoe):
        if len(out) >= most:
            raise BaccaratError(f"more than {most:,} wagers kept: review fewer tables, or a shorter period, at a time")
        out.append(Wager(row["id"], row["table"], str(row["shoe"]), row["coup"], row["seat"], row["player"], row["bet"],
                         Fraction(row["amount"]), f"wager {row['id']} of table {row['table']!r}", row["after"]))
    return out


def on_standing_coups(wagers: list[Wager], deals: dict) -> list[Wager]:
    """The pit's wagers each on its coup as the shoe's coups stand: a wager kept when the
    table's last event was ``after`` is on the first coup of its shoe first dealt after that
    event. Where no coup was voided this is the coup it was kept with; a voided coup's wagers
    stand for the next coup dealt (a misdeal's bets ride on the coup dealt again), and the
    wagers on later coups keep their coups though the numbers moved."""
    firsts = {(t, s.name): [c.first for c in s.coups] for t, d in deals.items() for s in d.shoes}
    out = []
    for w in wagers:
        first = firsts.get((w.table, w.shoe))
        out.append(w if w.after is None or first is None or None in first else
                   replace(w, coup=1 + bisect_right(first, w.after)))
    return out


# -- the coups, each with every wagered bet's exact EV before it and what it paid ----------------


@dataclass(frozen=True)
class Deal:
    """A table's coups as dealt: its rules, the shoe each shoe started as, and its shoes."""

    rules: object
    start: Shoe
    shoes: list
    source: str = ""  # where the coups come from, for errors: a file's name, or "table NAME"


@dataclass
class CoupFigures:
    """One coup of one table's shoe: its cards, the shoe before it, and for each bet wagered at
    the table: the exact EV before it, its variance, and the net it paid (units a unit staked)."""

    table: str
    shoe: str
    number: int
    line: int
    cards: tuple
    before: Shoe
    ev: dict
    variance: dict
    net: dict
    closed: frozenset = frozenset()  # bets across coups that their rules do not let be placed before this coup


def coup_figures(name: str, deal: Deal, bets: list[str], wanted: set | None = None) -> dict:
    """(shoe, coup number) -> CoupFigures for every coup of a table (of those ``wanted``, where
    given): the EVs of ``bets`` by the batch evaluator (every shoe state at once), their
    settlement by the simulator's (exact; every coup settled, bets across coups reading the coups
    after theirs)."""
    import numpy as np

    from ..routes.batch import evaluate_many
    from ..game.layout import coup_fields
    from ..questions.simulate import exact_nets, placed, settled_lines

    rules = only(deal.rules, bets)
    for bet in rules.bets:
        if not bet.numeric:
            raise BaccaratError(f"bet {bet.id!r} pays an amount that is not a number (a meter): it cannot be reviewed")
    moments = list(steps(deal.start, deal.shoes, rules.tableau))
    if not moments:
        return {}
    card_level = [b.id for b in rules.bets if b.card_level]
    for step in moments:
        if card_level and any(suit is None for _, suit in step.coup.cards):
            raise BaccaratError(f"{deal.source or f'table {name!r}'}, line {step.coup.line}: the coup gives a card "
                                "without its suit, and "
                                f"bet {card_level[0]!r} reads suits (write each card with its suit, such as 9h)")
    asked = [i for i, m in enumerate(moments) if wanted is None or (m.shoe, m.number) in wanted]
    batch = evaluate_many(rules, [moments[i].before for i in asked])
    kinds = np.array([places_of(m.coup.cards, rules.tableau) for m in moments], np.int64)
    shoe_index = {s: i for i, s in enumerate(dict.fromkeys(m.shoe for m in moments))}
    shoe_of = np.array([shoe_index[m.shoe] for m in moments])
    nets = exact_nets(rules, settled_lines(rules, kinds, shoe_of))
    fields = coup_fields(kinds)
    open_ = {bet.id: placed(bet, shoe_of, fields) for bet in rules.bets if bet.series is not None}
    out = {}
    for j, i in enumerate(asked):
        m, results = moments[i], batch.results(j)
        out[m.shoe, m.number] = CoupFigures(
            name, m.shoe, m.number, m.coup.line, m.coup.cards, m.before,
            {r.bet.id: r.ev for r in results},
            {r.bet.id: (r.variance if r.bet.series is None else None) for r in results},
            {bet.id: nets[i][b] for b, bet in enumerate(rules.bets)},
            frozenset(bet for bet, mask in open_.items() if not mask[i]))
    return out


_SUBSETS: dict = {}  # (id(rules), bets) -> (rules, the same rules with these bets alone), at most SUBSETS
SUBSETS = 256


def only(rules, bets) -> object:
    """``rules.only(bets)``, the same object each time it is asked again (a rule set's compiled plan
    is found by identity: batch.plan_of), so that the figures asked again and again of a table's
    bets - the overview's results every few seconds - compile its plan once."""
    key = (id(rules), tuple(sorted(bets)))
    kept = _SUBSETS.get(key)
    if kept is None or kept[0] is not rules:
        if len(_SUBSETS) >= SUBSETS:
            _SUBSETS.pop(next(iter(_SUBSETS)))
        kept = _SUBSETS[key] = (rules, rules.only(list(bets)))
    return kept[1]


def places_of(cards: tuple, tableau) -> list[int]:
    """A coup's cards in the layout's place order (Player 1, Banker 1, Player 2, Banker 2, Player
    3, Banker 3; -1 a card not dealt), each as its kind (rank x 4 + suit; suit 0 where the file
    gives none: only value-level bets are settled on such coups)."""
    from .replay import cards_taken
    from ..game.cards import VALUES

    kinds = [rank * 4 + (suit or 0) for rank, suit in cards]
    values = [VALUES[rank] for rank, _ in cards]
    head = kinds[:4]
    if len(kinds) == 4:
        return head + [-1, -1]
    player, banker = (values[0] + values[2]) % 10, (values[1] + values[3]) % 10
    player_drew = tableau.player_draws[player] and cards_taken(values, tableau) >= 5
    if len(kinds) == 6:
        return head + [kinds[4], kinds[5]]
    return head + ([kinds[4], -1] if player_drew else [-1, kinds[4]])


# -- the review ------------------------------------------------------------------------------------


@dataclass
class Placed:
    """A wager with its exact figures at its moment."""

    wager: Wager
    coup: CoupFigures

    @property
    def ev(self) -> Fraction:
        return self.coup.ev[self.wager.bet]

    @property
    def net(self) -> Fraction:
        return self.coup.net[self.wager.bet]


@dataclass
class Chance:
    """The chance of one placement test (``test``: ``dealt`` or ``within``): exact (a Fraction,
    ``samples`` None) or estimated; ``factor`` the tests it is weighed against (the union bound):
    ``adjusted`` = min(1, factor x chance) is what is compared with the level."""

    value: float
    exact: Fraction | None = None
    samples: int | None = None
    error: float | None = None
    test: str = "within"
    factor: int = 1

    @property
    def adjusted(self) -> float:
        return min(1.0, self.factor * self.value)

    def text(self) -> str:
        """The adjusted chance to two significant figures: exact, or with its standard error.

        >>> Chance(0.0123, Fraction(123, 10000)).text(), Chance(0.025, None, 2000, 0.0035, factor=4).text()
        ('0.012 (exact)', '0.1 ± 0.014')
        """
        if self.exact is not None:
            return f"{min(1, self.factor * float(self.exact)):.2g} (exact)"
        return f"{self.adjusted:.2g} ± {self.factor * self.error:.2g}"

    def data(self) -> dict:
        return {"chance": self.exact if self.exact is not None else self.value, "test": self.test,
                "exact": self.exact is not None, "samples": self.samples, "standard_error": self.error,
                "tests_weighed": self.factor, "adjusted": self.adjusted}


@dataclass
class Model:
    """One model's fit to a player's wagers: the correlation of amount with its EV over his
    opportunities, the share of his amount at positive EV by it, and the chance of its test."""

    name: str
    correlation: float | None
    share_positive: Fraction
    expected_win: Fraction
    chance: Chance | None = None
    evs: list = field(default_factory=list)  # each wager's EV by the model, in the player's order
    points: tuple = ((), ())  # (amounts, EVs) over his opportunities, floats (for a chart)
    beyond: float | None = None  # an information model: the correlation of amount with its EV less the count's


@dataclass
class PlayerReview:
    player: str
    wagers: list
    sessions: list  # (table, shoe, first coup, last coup, wagers, amount, theoretical, realized)
    amount: Fraction
    theoretical: Fraction
    realized: Fraction
    share_positive: Fraction
    correlation: float | None
    slope: float | None
    chance: Chance
    models: list = field(default_factory=list)
    flagged: bool = False
    fits: str = ""

    count: int = 0  # his wagers (kept where the list of them is not: see review_store)

    @property
    def wagered(self) -> int:
        return self.count or len(self.wagers)


@dataclass
class Review:
    players: list
    level: Fraction
    samples: int
    tables: dict
    coups: int
    pending: int = 0  # wagers kept on a coup not dealt yet, set aside
    bets: tuple = ()  # the bets wagered (of the first table that deals each)


MODEL_NAMES = {"counting": "the EV of the shoe before the coup (counting)",
               "card": "the EV given the coup's first card (information)",
               "colour": "the EV given the first card's colour (information)"}
MODEL_SHORT = {"counting": "counting", "card": "first card", "colour": "first card's colour"}


def model_title(model: str, group: str = GROUP) -> str:
    """What a model's EV is, in words.

    >>> model_title("group", "7-9")
    'the EV given whether the first card is 7-9 (information)'
    """
    return MODEL_NAMES.get(model) or f"the EV given whether the first card is {group} (information)"


def model_short(model: str, group: str = GROUP) -> str:
    return MODEL_SHORT.get(model) or f"first card {group}"


def review(wagers: list[Wager], deals: dict, level: Fraction = LEVEL, samples: int = SAMPLES, seed: int = 0,
           group: str = GROUP, progress=None, pending: bool = False) -> Review:
    """Every player's review (see the module notes), players sorted by their chance. ``deals``:
    table name -> Deal. Every wager is checked against the coups and the rules first; a bad one
    is refused by its line."""
    if not 0 < level < 1:
        raise BaccaratError(f"the level is a chance between 0 and 1 (got {level})")
    if not 100 <= samples <= 1_000_000:
        raise BaccaratError(f"the placements sampled are 100 to 1,000,000 (got {samples:,})")
    needed = math.ceil(6 / level) - 1  # an information model's sampled chance, 1 / (samples + 1), weighed 6 times
    if samples < needed:
        raise BaccaratError("{samples} is " + f"{samples:,}: a sampled chance is at least 1 / {samples + 1:,}, and at "
                            f"the level {float(level):.4g} an information model flags only below 1 / {float(6 / level):,.0f} "
                            "(the level shared among the tests): give {samples} " + f"{needed:,} or more, or a "
                            "higher level", names=("samples",))
    by_table = defaultdict(set)
    ids = {t: frozenset(b.id for b in d.rules.bets) for t, d in deals.items()}
    waiting = 0
    if pending:  # kept wagers on a coup not dealt yet (the table's coming coup): set aside
        dealt = {(t, s.name): len(s.coups) for t, d in deals.items() for s in d.shoes}
        kept = [w for w in wagers if w.coup <= dealt.get((w.table, w.shoe), w.coup)]
        waiting, wagers = len(wagers) - len(kept), kept
        if not wagers:
            raise BaccaratError(f"every wager kept ({waiting:,}) is on a coup not dealt yet")
    for w in wagers:
        check_wager(w, deals, ids)
        by_table[w.table].add(w.bet)
    figures = {}
    for table, bets in by_table.items():
        for key, coup in coup_figures(table, deals[table], sorted(bets)).items():
            figures[(table,) + key] = coup
        if progress:
            progress(1)
    placed = [Placed(w, figures[w.table, w.shoe, w.coup]) for w in wagers]
    for p in placed:
        if p.wager.bet in p.coup.closed:
            raise BaccaratError(f"{p.wager.where}: bet {p.wager.bet!r} may not be placed before coup {p.wager.coup}: its "
                                "rules place it only after a coup or a run of coups that this one does not follow")
    by_player = defaultdict(list)
    for p in placed:
        by_player[p.wager.player].append(p)
    shoe_coups = defaultdict(list)  # (table, shoe) -> its coups in order
    for key in sorted(figures, key=lambda k: (k[0], k[1], k[2])):
        shoe_coups[key[:2]].append(figures[key])
    informed = Informed(deals, by_table, group)
    columns = Columns(shoe_coups, informed, Bank(deals, informed.rules, seed))
    players = [player_review(player, items, columns, level, samples, seed)
               for player, items in by_player.items()]
    players.sort(key=review_order)
    wagered = {}
    for table, ids in by_table.items():
        wagered |= {b.id: b for b in deals[table].rules.bets if b.id in ids and b.id not in wagered}
    return Review(players, level, samples, {t: d.rules.name for t, d in deals.items()}, len(figures), waiting,
                  tuple(wagered.values()))


def review_order(r: PlayerReview) -> tuple:
    """Flagged players first, then by their smallest adjusted chance, then by name."""
    return not r.flagged, min(m.chance.adjusted for m in r.models if m.chance), r.player


def check_wager(w: Wager, deals: dict, bet_ids: dict | None = None) -> None:
    """Refuse, by its line, a wager on a table, shoe or coup not dealt here, or on a bet its
    table's rules do not have."""
    where = f"{w.where}: "
    at = f" of table {w.table!r}" if w.table else ""
    deal = deals.get(w.table)
    if deal is None:
        raise BaccaratError(where + (f"table {w.table!r} has no coups here (tables: {', '.join(map(repr, deals))})"
                                     if w.table else "the wager names no table, and the coups are of several"))
    shoe = next((s for s in deal.shoes if s.name == w.shoe), None)
    if shoe is None and not w.shoe:
        raise BaccaratError(where + f"the wager names no shoe, and the coups{at} hold {len(deal.shoes)} shoes (add a "
                            "'shoe' column naming each wager's shoe, as the coups' 'shoe ID' lines do)")
    if shoe is None:
        raise BaccaratError(where + f"no shoe {w.shoe!r} was dealt{at} (shoes: {', '.join(repr(s.name) for s in deal.shoes)})")
    if w.coup > len(shoe.coups):
        raise BaccaratError(where + f"coup {w.coup} was not dealt (shoe {w.shoe!r}{at} has {len(shoe.coups)} coups)")
    if w.bet not in (bet_ids[w.table] if bet_ids else {b.id for b in deal.rules.bets}):
        try:
            deal.rules.bet(w.bet)
        except BaccaratError as error:
            raise BaccaratError(where + str(error).replace(" has no bet", f"{at} has no bet", 1)) from None


def player_review(player: str, placed: list, columns: Columns, level: Fraction, samples: int, seed: int) -> PlayerReview:
    informed = columns.informed
    amount = sum(p.wager.amount for p in placed)
    theoretical = -sum(p.wager.amount * p.ev for p in placed)
    realized = -sum(p.wager.amount * p.net for p in placed)
    positive = sum(p.wager.amount for p in placed if p.ev > 0)
    sessions = session_rows(placed)
    amounts, evs = opportunities(placed, columns.of("counting"))
    correlation, slope = fit(amounts, evs)
    rng_seed = [seed, zlib.crc32(repr(sorted((w.table, w.shoe, w.coup, w.bet, str(w.amount))
                                             for w in (p.wager for p in placed))).encode())]  # his wagers, not his name
    models = information_models(placed, columns, samples, rng_seed)
    chance = counting_chance(placed, columns.of("counting"), columns.bank, samples, rng_seed)
    chance.factor = 2  # counting's test has half the level (the union bound)...
    for m in models:
        m.chance.factor = 2 * len(models)  # ...the information models the other half
    out = PlayerReview(player, placed, sessions, amount, theoretical, realized, Fraction(positive, 1) / amount,
                       correlation, slope, chance, count=len(placed))
    counting = Model("counting", correlation, out.share_positive, -theoretical, chance, [p.ev for p in placed],
                     (amounts, evs))
    out.models = [counting] + models
    flagged = [m for m in out.models if m.chance.adjusted <= level]
    out.flagged = bool(flagged)
    information = [m for m in flagged if m.name != "counting"]
    if information:
        fitted = min(information, key=lambda m: (m.chance.adjusted, -(m.beyond or 0)))
        out.fits = fitted.name
        his = defaultdict(set)
        for p in placed:
            his[p.wager.table].add(p.wager.bet)
        fitted.evs = [informed.evs(fitted.name, p.coup, p.wager.bet, tuple(sorted(his[p.wager.table])))
                      for p in placed]  # exact: his wagers, his bets
        fitted.share_positive = sum(p.wager.amount for p, ev in zip(placed, fitted.evs) if ev > 0) / amount
        fitted.expected_win = sum(p.wager.amount * ev for p, ev in zip(placed, fitted.evs))
    elif flagged:
        out.fits = "counting"
    return out


def session_rows(placed: list) -> list[dict]:
    groups = defaultdict(list)
    for p in placed:
        groups[p.wager.table, p.wager.shoe].append(p)
    rows = []
    for (table, shoe), items in groups.items():
        coups = [p.wager.coup for p in items]
        rows.append({"table": table, "shoe": shoe, "first_coup": min(coups), "last_coup": max(coups),
                     "wagers": len(items), "amount": sum(p.wager.amount for p in items),
                     "theoretical": -sum(p.wager.amount * p.ev for p in items),
                     "realized": -sum(p.wager.amount * p.net for p in items),
                     "seats": sorted({p.wager.seat for p in items if p.wager.seat})})
    return rows


def opportunities(placed: list, column_of) -> tuple[list[float], list[float]]:
    """(amounts, figures) over a player's opportunities (module notes: session), as floats for the
    statistics: the amount he placed on each bet of a session at each coup of it (0 where none),
    and the figure of a model there (``column_of(table, shoe, bet)``: one a coup of the shoe)."""
    staked = defaultdict(float)
    sessions = defaultdict(set)
    for p in placed:
        w = p.wager
        staked[w.table, w.shoe, w.coup, w.bet] += float(w.amount)
        sessions[w.table, w.shoe].add((w.coup, w.bet))
    amounts, figures = [], []
    for (table, shoe), items in sessions.items():
        first, last = min(c for c, _ in items), max(c for c, _ in items)
        for bet in sorted({b for _, b in items}):
            figures.extend(column_of(table, shoe, bet)[first - 1:last].tolist())
            amounts.extend(staked.get((table, shoe, n, bet), 0.0) for n in range(first, last + 1))
    return amounts, figures


class Columns:
    """Every coup's figure by each model, as floats for the statistics, a column per table, shoe
    and bet (one a coup of the shoe, in order), made once and shared by the players: the EV before
    the coup (``counting``), or an information model's innovation (:meth:`Informed.innovation`)."""

    def __init__(self, shoe_coups: dict, informed: Informed, bank: Bank | None = None):
        self.shoe_coups, self.informed, self.kept, self.bank = shoe_coups, informed, {}, bank

    def of(self, model: str):
        """``column_of(table, shoe, bet)`` for ``model``: the EV before each coup (counting), or
        an information model's innovation at each coup less its expectation given the shoe before
        the coup (the cards left weighing what the first card may be): what only the card tells,
        of mean 0 to anyone who does not see it, whatever he knows of the shoe (a counter)."""
        import numpy as np

        def column_of(table: str, shoe: str, bet: str):
            key = (model, table, shoe, bet)
            column = self.kept.get(key)
            if column is None:
                coups = self.shoe_coups[table, shoe]
                if model == "counting":
                    column = np.array([float(c.ev[bet]) for c in coups])
                else:
                    by_kind = self.informed.by_kind(model, table, bet)  # [rank, suit] innovation of each first card
                    seen = np.array([by_kind[r, s if s is not None else 0] for r, s in (c.cards[0] for c in coups)])
                    left = np.array([c.before.counts for c in coups], dtype=float)  # [coup, rank, suit]
                    expected = (left * by_kind[None]).sum(axis=(1, 2)) / left.sum(axis=(1, 2))
                    column = seen - expected
                self.kept[key] = column
            return column
        return column_of


def fit(amounts: list[float], evs: list[float]) -> tuple[float | None, float | None]:
    """(Pearson correlation of amount with EV, least-squares slope: amount per 1.00 of EV), None
    where either does not vary.

    >>> fit([0, 10, 0, 10], [-0.01, 0.02, -0.02, 0.01])[0] > 0.9
    True
    """
    n = len(amounts)
    if n < 2:
        return None, None
    ma, me = sum(amounts) / n, sum(evs) / n
    saa = sum((a - ma) ** 2 for a in amounts)
    see = sum((e - me) ** 2 for e in evs)
    sae = sum((a - ma) * (e - me) for a, e in zip(amounts, evs))
    if see <= 1e-30 * n:
        return None, None
    slope = sae / see
    return (sae / math.sqrt(saa * see) if saa > 0 else None), slope


def placement_chance(placed: list, column_of, samples: int, seed) -> Chance:
    """The information models' test (module notes: chance) under a model's figures (``column_of``:
    see :func:`opportunities`): his wagers at one coup (at every seat) are one bundle, and in each
    session (his first coup to his last in a shoe) the bundles between the first and the last are
    each placed at a coup drawn at random strictly between them, independently (the first and
    last make the session, and stay). Bundle k's value at each coup of the shoe is one row of
    V = A E^T (A: its amounts by bet, E: the figures by bet)."""
    import numpy as np

    sessions = defaultdict(lambda: defaultdict(lambda: defaultdict(float)))
    for p in placed:
        w = p.wager
        sessions[w.table, w.shoe][w.coup][w.bet] += float(w.amount)
    inner = []
    for (table, shoe), bundles in sessions.items():
        bets = sorted({b for bundle in bundles.values() for b in bundle})
        figures = np.stack([column_of(table, shoe, b) for b in bets], axis=1)  # [coup of the shoe, bet]
        amounts = np.array([[bundle.get(b, 0.0) for b in bets] for bundle in bundles.values()])
        values = amounts @ figures.T  # [bundle, coup of the shoe]
        coups = np.array(list(bundles)) - 1
        first, last = coups.min(), coups.max()
        between = coups[(coups > first) & (coups < last)]
        if len(between):
            rows = values[(coups > first) & (coups < last)][:, first + 1:last]
            inner.append((rows, float(rows[np.arange(len(between)), between - first - 1].sum())))
    return placed_chance(inner, samples, np.random.default_rng(seed), "within")


def placed_chance(parts: list, samples: int, rng, test: str) -> Chance:
    """The chance that independent draws, one a row of each part's [row, place] values (a place
    drawn at random for each row), sum to at least the parts' observed sum: counted exactly over
    every draw where they are at most EXACT_PLACEMENTS, else from ``samples`` draws as (hits + 1) /
    (samples + 1). Sums within 1e-9 of the largest values of the observed count as reaching it."""
    import numpy as np

    observed = sum(seen for _, seen in parts)
    scale = sum(float(np.abs(rows).max(axis=1).sum()) for rows, _ in parts)
    bar = observed - 1e-9 * max(scale, 1e-300)
    placements = 1
    for rows, _ in parts:
        placements *= rows.shape[1] ** rows.shape[0]
        if placements > EXACT_PLACEMENTS:
            break
    if placements <= EXACT_PLACEMENTS:
        sums = np.zeros(1)
        for rows, _ in parts:
            for row in rows:
                sums = (sums[:, None] + row[None, :]).ravel()
        exact = Fraction(int((sums >= bar).sum()), len(sums))
        return Chance(float(exact), exact, test=test)
    totals = np.zeros(samples)
    chunk = max(1, DRAWS // samples)  # at most DRAWS draws in memory at once, whatever the samples
    for rows, _ in parts:
        count, width = rows.shape
        for start in range(0, count, chunk):
            part = np.arange(start, min(start + chunk, count))
            totals += rows[part[None, :], rng.integers(0, width, (samples, len(part)))].sum(axis=1)
    hits = int((totals >= bar).sum())
    p = (hits + 1) / (samples + 1)
    return Chance(p, None, samples, math.sqrt(p * (1 - p) / samples), test)


BANK_SHOES = 400  # shoes dealt by the simulator for counting's test, for each rule set and shoe reviewed


class Bank:
    """Shoes dealt by the simulator from the start shoe of each table (BANK_SHOES of them, to the
    cut card, as the table's shoes were dealt: no burn, the cut card 14 cards from the end), with
    every wagered bet's EV before each coup - what a shoe's EVs may have been, had its cards
    fallen otherwise. Shared by the tables dealt alike; made when first asked for."""

    def __init__(self, deals: dict, rules: dict, seed: int):
        self.deals, self.rules, self.seed, self.kept = deals, rules, seed, {}

    def evs(self, table: str):
        """([bet id] -> [bank shoe, coup] EVs as floats, NaN past a shoe's last coup)."""
        import numpy as np

        from ..routes.batch import evaluate_many
        from ..questions.simulate import Deal, deal_coups, first_coups, remaining_counts, shuffled_shoe

        rules, start = self.rules[table], self.deals[table].start
        key = (id(rules), start)
        if key not in self.kept:
            decks = start.size // 52
            if start != Shoe.decks(decks):
                raise BaccaratError(f"table {table!r}: counting's test deals shoes of whole decks, and this table's shoe "
                                    f"is {start.describe()}")
            deal = Deal(decks=decks, cut=min(14, 52 * decks - 10), burn="none")
            cards = np.stack([shuffled_shoe(deal, self.seed, i) for i in range(BANK_SHOES)])
            coups = deal_coups(deal, rules.tableau, cards)
            evs = evaluate_many(rules, remaining_counts(cards, coups)).ev_floats()
            starts = first_coups(coups.shoe)  # each coup's number in its shoe, from 0:
            index = np.arange(len(starts)) - np.flatnonzero(starts)[np.cumsum(starts) - 1]
            width = int(index.max()) + 1
            out = {}
            for b, bet in enumerate(rules.bets):
                grid = np.full((BANK_SHOES, width), np.nan)
                grid[coups.shoe, index] = evs[:, b]
                out[bet.id] = grid
            self.kept[key] = out
        return self.kept[key]


def counting_chance(placed: list, column_of, bank: Bank, samples: int, seed) -> Chance:
    """Counting's test (module notes: chance): each shoe he played, his wagers kept as they were
    - the same coups, bets and amounts - against the EVs of a shoe dealt by the simulator in its
    place (a bank shoe at random, each of his shoes independently): the chance that they would
    have expected as much. A coup past a bank shoe's last counts the EV of its first coup (where
    the real shoe went on longer)."""
    import numpy as np

    sessions = defaultdict(lambda: defaultdict(float))
    for p in placed:
        w = p.wager
        sessions[w.table, w.shoe][w.coup, w.bet] += float(w.amount)
    parts = []
    for (table, shoe), stakes in sessions.items():
        banked = bank.evs(table)
        observed = sum(a * float(column_of(table, shoe, bet)[coup - 1]) for (coup, bet), a in stakes.items())
        values = np.zeros(BANK_SHOES)
        for (coup, bet), a in stakes.items():
            grid = banked[bet]
            at = grid[:, coup - 1] if coup - 1 < grid.shape[1] else np.full(BANK_SHOES, np.nan)
            values += a * np.where(np.isnan(at), grid[:, 0], at)
        parts.append((values[None, :], observed))
    return placed_chance(parts, samples, np.random.default_rng(seed + [7]), "dealt")


def peeks(cards: tuple, group: str) -> dict:
    """model -> the knowledge (``POS=CARDS`` text) of the coup's first card each information model
    takes, for a coup whose first card is ``cards[0]``; a model that needs the suit is left out
    where the file gives none.

    >>> peeks(((7, 1), (0, 0)), "7-9")
    {'card': '1=8h', 'colour': '1=red', 'group': '1=7-9'}
    """
    return first_card_peeks(cards[0], group)


@lru_cache(maxsize=4096)
def first_card_peeks(card: tuple, group: str) -> dict:
    from ..game.knowledge import parse_kinds

    rank, suit = card
    out = {"card": f"1={card_text(card)}"}
    if suit is not None:
        out["colour"] = f"1={COLOURS[SUIT_COLOUR[suit]]}"
    out["group"] = f"1={group}" if parse_kinds(group)[rank * 4] else f"1={other_ranks(group)}"
    return out


def other_ranks(group: str) -> str:
    """The ranks not in a group, as a card list.

    >>> other_ranks("7-9")
    'A,2,3,4,5,6,T,J,Q,K'
    """
    from ..game.knowledge import parse_kinds

    kinds = parse_kinds(group)
    return ",".join(r for i, r in enumerate(RANKS) if not kinds[i * 4])


def information_models(placed: list, columns: Columns, samples: int, seed) -> list[Model]:
    """Each information model's test of a player's wagers, on what only it knows (module notes:
    model): the sum of amount x its innovation (:meth:`Informed.innovation`) against the same
    random placements, and the correlation of amount with the innovation over his opportunities."""
    needs_suits = any(columns.informed.deals[p.wager.table].rules.bet(p.wager.bet).card_level for p in placed)
    out = []
    for model in ("card", "colour", "group") if needs_suits else ("card", "group"):
        amounts, points = opportunities(placed, columns.of(model))
        beyond, _ = fit(amounts, points)
        chance = placement_chance(placed, columns.of(model), samples, seed + [len(out) + 1])
        out.append(Model(model, None, None, None, chance, [], (amounts, points), beyond))
    return out


class Informed:
    """What an information model knows of a coup, for the bets wagered at each table: the exact
    EV given what it sees of the coup's first card (:meth:`evs`: analysis.analyse with that
    knowledge, on the shoe before the coup), and its innovation (:meth:`innovation`)."""

    def __init__(self, deals: dict, table_bets: dict, group: str):
        self.deals = deals
        self.group = group
        self.kept = {}
        alike = defaultdict(set)  # tables dealt by the same rules from the same shoe share their figures
        for table, bets in table_bets.items():
            alike[deals[table].rules, deals[table].start] |= set(bets)
        families = list(alike)
        self.family = {t: families.index((deals[t].rules, deals[t].start)) for t in table_bets}
        self.rules = {t: deals[t].rules.only(sorted(alike[deals[t].rules, deals[t].start])) for t in table_bets}
        self.suits = {t: any(b.card_level for b in rules.bets) for t, rules in self.rules.items()}

    def reads_suits(self, table: str) -> bool:
        return self.suits[table]

    def known(self, model: str, table: str, cards: tuple) -> str | None:
        """What ``model`` knows of a coup with these cards, as ``--known`` takes it: the card's
        rank alone where no bet of the table reads suits (its EV is then the same whatever its
        suit, exactly: the ranks left are the same)."""
        known = peeks(cards, self.group).get(model)
        if model == "card" and known is not None and not self.reads_suits(table):
            known = known[:-1] if cards[0][1] is not None else known
        return known

    def evs(self, model: str, coup: CoupFigures, bet: str, bets: tuple = ()) -> Fraction:
        """The exact EV of ``bet`` on ``coup`` given what ``model`` sees of its first card (the
        EV before the coup where the model needs a suit the coup file does not give), worked out
        with ``bets`` (default: every bet wagered at the table; fewer bets, less work)."""
        from ..questions.analysis import analyse
        from ..game.knowledge import Knowledge

        key = ("ev", model, coup.table, coup.shoe, coup.number, bets)
        if key not in self.kept:
            known = self.known(model, coup.table, coup.cards)
            rules = self.deals[coup.table].rules.only(bets) if bets else self.rules[coup.table]
            self.kept[key] = coup.ev if known is None else {
                r.bet.id: r.ev for r in analyse(rules, coup.before, Knowledge.parse([known]))}
        return self.kept[key][bet]

    def by_kind(self, model: str, table: str, bet: str):
        """[rank, suit] the innovation (as a float) of each card the first card may be."""
        import numpy as np

        key = ("kinds", model, self.family[table], bet)
        if key not in self.kept:
            self.kept[key] = np.array([[float(self.innovation(model, table, ((r, s),), bet)) for s in range(4)]
                                       for r in range(13)])
        return self.kept[key]

    def innovation(self, model: str, table: str, cards: tuple, bet: str) -> Fraction:
        """What only the model knows of a coup, for ``bet``: the EV given what it sees of the first
        card, less the EV, both on the table's full shoe (exact; the same function of the first
        card at every coup of the table, so that the random placements test it as they test the
        count). Where the player's wagers ignore the card, they are no likelier to fall where it is
        high than anywhere else."""
        from ..questions.analysis import analyse
        from ..game.knowledge import Knowledge

        known = self.known(model, table, cards)
        if known is None:
            return Fraction(0)
        key = ("innovation", self.family[table], known)
        if key not in self.kept:
            rules, start = self.rules[table], self.deals[table].start
            before = {r.bet.id: r.ev for r in analyse(rules, start)}
            self.kept[key] = {r.bet.id: r.ev - before[r.bet.id] for r in analyse(rules, start, Knowledge.parse([known]))}
        return self.kept[key][bet]


# -- the coups of a file or of the pit's store -----------------------------------------------------


def deals_from_file(coups_text: str, rules, start: Shoe, table: str, name: str = "coup file") -> dict:
    """table name -> Deal, for one table's file of coups (as replay reads it)."""
    from .replay import parse_coups

    shoes = parse_coups(coups_text, name)
    if not any(s.coups for s in shoes):
        raise BaccaratError(f"{name}: no coup (one a line: its 4 to 6 cards in dealing order)")
    try:
        for _ in steps(start, shoes, rules.tableau):  # every coup checked before any figure
            pass
    except BaccaratError as error:
        raise BaccaratError(f"{name}, {error}" if str(error).startswith("line ") else f"{name}: {error}") from None
    return {table: Deal(rules, start, shoes, name)}


def deals_from_store(store, tables: list[str] | None = None, shoes: set | None = None) -> dict:
    """table name -> Deal, for the pit's tables kept in ``store`` (each by its own rules and decks):
    every shoe kept, or those of ``shoes`` ((table, shoe number) pairs)."""
    from ..bets.rulefile import get_rules
    from .table import kept_shoe

    out = {}
    names = tables or [row["name"] for row in store.table_rows()]
    for name in names:
        spec = store.table(name)["spec"]
        numbers = sorted({shoe for (_, shoe) in store.shoe_marks([name])  # (one light query: no figures read)
                          if shoes is None or (name, str(shoe)) in shoes})
        kept = [kept_shoe(store.event_rows(name, shoe=n, figures=False), n) for n in numbers]
        out[name] = Deal(get_rules(spec["rules"]), Shoe.decks(spec["decks"]), kept, f"table {name!r}")
    return out


def with_defaults(wager: Wager, table: str, shoe: str) -> Wager:
    """The wager, its table and shoe given where it names none."""

    return replace(wager, table=wager.table or table, shoe=wager.shoe or shoe)


def parse_level(text: str) -> Fraction:
    """A level of chance: a per cent or a decimal fraction, above 0 and below 1, such as 1% or
    0.01 (plain digits: no exponent, so no number is ever too large to read).

    >>> parse_level("1%"), parse_level("0.05")
    (Fraction(1, 100), Fraction(1, 20))
    """
    raw = str(text).strip()
    number = re.fullmatch(r"([0-9]{1,3}(?:\.[0-9]{1,12})?|\.[0-9]{1,12})(%?)", raw)
    if not number:
        raise BaccaratError(f"the level is a chance, such as 1% or 0.01 (got {raw[:40]!r})")
    value = Fraction(Decimal(number.group(1))) / (100 if number.group(2) else 1)
    if not 0 < value < 1:
        raise BaccaratError(f"the level is a chance above 0 and below 1, such as 1% or 0.01 (got {raw[:40]!r})")
    return value


def parse_group(text: str) -> str:
    """A group of ranks for the information model (``7-9``, ``6,7,8,9``, ``T-K``): whole ranks,
    some but not all of them."""
    from ..game.cards import whole_ranks
    from ..game.knowledge import parse_kinds

    kinds = parse_kinds(text)
    if not whole_ranks(kinds) or all(kinds):
        raise BaccaratError(f"the group is some of the ranks, each whole (such as 7-9 or 6,7,8,9), not {text[:40]!r}")
    return text


PART_WAGERS = 200_000  # wagers a review of the pit's store holds at once: more are reviewed a part of the players at a time


def review_store(store, tables: list[str] | None = None, since: str | None = None, until: str | None = None,
                 level: Fraction = LEVEL, samples: int = SAMPLES, seed: int = 0, group: str = GROUP,
                 part: int = PART_WAGERS) -> Review:
    """The review of the wagers kept in the pit's store (of ``tables``, in a period), a part of the
    players at a time - each part at most ``part`` wagers, or one player - so that a month of a pit
    is never all in memory: each player's figures are all of his wagers' (every table, every shoe),
    only the shoes his part wagered on are read, and a player not flagged keeps no list of his
    wagers. The same figures as reviewing them all at once (the tests check)."""
    players = store.wager_players(tables, period(since, "since"), period(until, "until"))
    if not players:
        raise BaccaratError("no wager is kept" + (f" at {', '.join(map(repr, tables))}" if tables else "")
                            + (" in that period" if since or until else ""))
    parts, current, size = [], [], 0
    for player, count in players:
        if current and size + count > part:
            parts.append(current)
            current, size = [], 0
        current.append(player)
        size += count
    parts.append(current)
    reviews, dealt, waiting = [], {}, 0
    for names in parts:
        wagers = wagers_from_store(store, tables, since, until, players=names)
        deals = deals_from_store(store, sorted({w.table for w in wagers}), {(w.table, w.shoe) for w in wagers})
        wagers = on_standing_coups(wagers, deals)
        coups = {(t, s.name): len(s.coups) for t, d in deals.items() for s in d.shoes}
        due = [w for w in wagers if w.coup <= coups.get((w.table, w.shoe), w.coup)]  # the coming coup's: set aside
        waiting += len(wagers) - len(due)
        if not due:
            continue
        done = review(due, deals, level, samples, seed, group)
        dealt |= coups
        if len(parts) > 1:
            for r in done.players:
                if not r.flagged:
                    r.wagers = []  # his figures are kept; his wagers, only where flagged
        reviews.append(done)
    if not reviews:
        raise BaccaratError(f"every wager kept ({waiting:,}) is on a coup not dealt yet")
    if len(reviews) == 1:
        reviews[0].pending = waiting
        return reviews[0]
    every = [r for done in reviews for r in done.players]
    every.sort(key=review_order)
    bets = {b.id: b for done in reviews for b in done.bets}
    return Review(every, level, samples, {t: n for done in reviews for t, n in done.tables.items()},
                  sum(dealt.values()), waiting, tuple(bets.values()))

