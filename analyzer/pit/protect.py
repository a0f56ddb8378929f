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
from collections import defaultdict
from dataclasses import dataclass, field, replace
from decimal import Decimal
from fractions import Fraction

from ..base.errors import BaccaratError
from .wagers import Wager, period
from .wagers import name_of, parse_wagers  # noqa: F401  (read through protect by the command line, as before)
from .deals import CoupFigures, Deal, coup_figures, deals_from_file, deals_from_store, on_standing_coups, wagers_from_store  # noqa: F401
from .models import (DRAWS, EXACT_PLACEMENTS, Bank, Chance, Columns, Informed, Model, counting_chance, fit,  # noqa: F401
                     information_models, opportunities, placed_chance, placement_chance)

SAMPLES = 2_000
LEVEL = Fraction(1, 100)
GROUP = "7-9"
SHOWN_COUPS = 20  # coups behind a flag, shown per player


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

