"""Each table's results over a period, from the wagers kept: what the tables took, and whether
that is unusual.

Glossary (a table-games manager's words)
----------------------------------------
handle        the sum wagered.
win           the house's win: what the wagers lost less what they were paid (a push: 0), exact.
theoretical   the house's theoretical win: the sum of amount x house edge of each wager's bet on
              the shoe before its coup (the figure ``baccarat now`` gives then), exact.
hold          win / handle; theoretical hold: theoretical / handle.
variance      of the house's win given the wagers: the sum over the coups of each coup's exact
              variance, all the coup's wagers taken together (the Banker and the Player wagered
              on one coup cancel, a pair bet rides with them) by their joint outcome
              distribution on the shoe before the coup - the cells of the enumerator
              (engine.enumerate_coup), or for bets that read single cards the enumeration at the
              detail they read together (engine.enumerate_cards).
sd, z         the standard deviation (the variance's square root, rounded) and the difference
              win - theoretical in standard deviations.

What is exact, and what is a model. Win, theoretical win, hold and each coup's variance are
exact. ``win - theoretical`` is the sum over the coups of W_c - E[W_c | what was known before
coup c]: martingale differences, uncorrelated whatever the players did and however the shoe
ran, so the variance of the sum is the expectation of the sum of the coups' conditional
variances - no independence between coups is assumed; the sum over the coups as they were dealt
is its estimate (exact for the shoes as dealt). Reading z as a normal deviate (a z of 3 about one
period in 370, either side) is the central-limit approximation, good over hundreds of coups and
poor for a few coups of a bet paying 25 to 1 or more. A wager on a bet across coups (series.py)
counts in the handle, win and theoretical win; its variance, which spans coups, is left out of
the sum (``outside`` says how many). Where the bets of a coup read too much of the cards to be
enumerated together, that coup's variance is replaced by an exact upper bound, k x the sum of
(amount^2 x variance) over its k bets (Cauchy-Schwarz), and ``bounded`` counts those coups.

Wagers on a coup not dealt yet are set aside (``pending``), and so are those on a bet across
coups whose shoe is still in play (``unsettled``: the coups that settle them are to come) or
placed where its rules close it (``closed``: such a wager is refused by a review, taken by a pit),
and those on a bet with multipliers (``multiplied``: what it won rides on the multipliers drawn for
its coup, which the pit does not keep; its exact EV is on every screen all the same);
a voided coup's wagers ride on the coup dealt in its place, as in game protection
(protect.on_standing_coups).
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction

from ..base.errors import BaccaratError
from ..base.recent import Recent

Z_UNUSUAL = 2  # |z| at least this: the tile and the table mark the difference as unusual


@dataclass
class Results:
    """One table's results over a period (``table`` "" for the pit's tables taken together)."""

    table: str
    wagers: int = 0
    coups: int = 0
    handle: Fraction = Fraction(0)
    win: Fraction = Fraction(0)
    theoretical: Fraction = Fraction(0)
    variance: Fraction = Fraction(0)
    bounded: int = 0  # coups whose variance is an upper bound (their bets read too much at once)
    outside: int = 0  # wagers on bets across coups: in the win and the theoretical win, not the variance
    pending: int = 0  # wagers on coups not dealt yet, set aside
    unsettled: int = 0  # wagers on bets across coups in a shoe still in play, not settled yet: set aside
    closed: int = 0  # wagers on a bet across coups before a coup its rules let it be placed at: set aside
    multiplied: int = 0  # wagers on a bet with multipliers: set aside, the multipliers drawn are not kept
    rules: str = ""
    bets: dict = field(default_factory=dict)  # bet -> [wagers, handle, win, theoretical]

    @property
    def hold(self) -> Fraction | None:
        return self.win / self.handle if self.handle else None

    @property
    def theoretical_hold(self) -> Fraction | None:
        return self.theoretical / self.handle if self.handle else None

    @property
    def sd(self) -> float:
        """The standard deviation of the house's win, rounded (the variance is exact)."""
        return math.sqrt(self.variance)

    @property
    def z(self) -> float | None:
        """(win - theoretical) / sd; None where nothing varies."""
        return float((self.win - self.theoretical) / Fraction(self.sd)) if self.variance else None

    def add(self, other: Results) -> None:
        for name in ("wagers", "coups", "handle", "win", "theoretical", "variance", "bounded", "outside", "pending",
                     "unsettled", "closed", "multiplied"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for bet, figures in other.bets.items():
            mine = self.bets.setdefault(bet, [0, Fraction(0), Fraction(0), Fraction(0)])
            for i, value in enumerate(figures):
                mine[i] += value

    def data(self) -> dict:
        """The results as JSON-ready figures: exact ones as Fractions (strings once rendered), the
        standard deviation and z rounded (the variance is exact)."""
        return {"table": self.table, "rules": self.rules, "wagers": self.wagers, "coups": self.coups,
                "handle": self.handle, "win": self.win, "theoretical": self.theoretical, "hold": self.hold,
                "theoretical_hold": self.theoretical_hold, "difference": self.win - self.theoretical,
                "variance": self.variance, "sd": f"{self.sd:.2f}",
                "z": None if self.z is None else f"{self.z:.2f}", "bounded": self.bounded, "outside": self.outside,
                "pending": self.pending, "unsettled": self.unsettled, "closed": self.closed, "multiplied": self.multiplied,
                "bets": [{"bet": bet, "wagers": n, "handle": handle, "win": win, "theoretical": theo}
                         for bet, (n, handle, win, theo) in sorted(self.bets.items())]}


# -- one coup -------------------------------------------------------------------------------------


def coup_variance(rules, before, amounts: dict) -> tuple[Fraction, Fraction, bool]:
    """(mean, variance, exact) of the net the coup pays the wagers (per bet id: the amount on it,
    every bet on one coup), on the shoe ``before`` the coup: the bets' pay lines settled together
    in each cell of the coup's joint distribution. The house's win is minus this net, of the same
    variance. Where the bets read too much of the cards to be enumerated together (TooMuchDetail)
    the mean is their EVs' and the variance an exact upper bound, with ``exact`` False.

    >>> from analyzer.questions.analysis import analyse
    >>> from analyzer.game.cards import Shoe
    >>> from analyzer.bets.rulefile import get_rules
    >>> standard, shoe = get_rules("standard"), Shoe.decks(8)
    >>> mean, variance, exact = coup_variance(standard, shoe, {"banker": 1, "player": 1})
    >>> banker, player = analyse(standard, shoe)[:2]
    >>> exact, mean == banker.ev + player.ev
    (True, True)

    One unit on each of Banker and Player nets -0.05 when the Banker wins, 0 otherwise:

    >>> variance == Fraction(1, 400) * banker.win * (1 - banker.win)
    True
    """
    from ..game import engine
    from ..routes.counts import WALK_CLASSES, live_classes_count
    from ..game.layout import Detail, union

    bets = [rules.bet(b) for b in amounts]
    needs = union(b.needs for b in bets)
    if any(b.multipliers is not None for b in bets):  # their nets ride on multipliers: each bet's own law
        return bounded(rules, before, amounts)
    try:
        if needs.cards:
            detail = Detail.of(needs)
            if detail.tableau and live_classes_count(before, detail) > WALK_CLASSES:  # refused before any walk
                raise engine.TooMuchDetail("the bets read too much of the cards together")
            dist = engine.enumerate_cards(before, rules.tableau, detail)
        else:
            dist = engine.enumerate_coup(before, rules.tableau)
    except (engine.TooMuchDetail, MemoryError):
        return bounded(rules, before, amounts)
    signatures, counts = joint_counts(bets, dist)
    # Each bet's net per unit is nets[k] / d (Bet.integer_nets); a stake a = p / q on it nets
    # a * nets[k] / d, an integer times 1 / scale once scale is a multiple of q * d for every bet.
    scale = math.lcm(*(Fraction(amounts[b.id]).denominator * b.integer_nets[0] for b in bets))
    columns = []  # for each bet, its net in each of its settlements (the last: no line holds), times scale
    for bet in bets:
        d, nets = bet.integer_nets
        stake = Fraction(amounts[bet.id]) * scale / d
        assert stake.denominator == 1, "scale is a multiple of the stake's denominator times d"
        stake = int(stake)
        columns.append([stake * n for n in nets] + [-stake * d])
    whole = [sum(column[k] for column, k in zip(columns, row)) for row in signatures]  # the coup's net, times scale
    first = sum(w * c for w, c in zip(whole, counts))
    second = sum(w * w * c for w, c in zip(whole, counts))
    total = dist.total
    fees = sum((Fraction(amounts[b.id]) * b.fee for b in bets), Fraction(0))  # paid whatever the result: the mean alone
    return Fraction(first, scale * total) - fees, Fraction(second * total - first * first, (scale * total) ** 2), True


def bounded(rules, before, amounts: dict) -> tuple[Fraction, Fraction, bool]:
    """(mean, an upper bound of the variance, False) where the bets cannot be enumerated
    together: the mean is their EVs' sum, the bound k x the sum of amount^2 x variance over the
    k bets (Cauchy-Schwarz: (sum of a_i x_i)^2 <= k sum of (a_i x_i)^2), exact."""
    from ..questions.analysis import analyse
    from .deals import only

    results = {r.bet.id: r for r in analyse(only(rules, list(amounts)), before)}
    mean = sum((Fraction(a) * results[b].ev for b, a in amounts.items()), Fraction(0))
    bound = len(amounts) * sum((Fraction(a) ** 2 * results[b].variance for b, a in amounts.items()), Fraction(0))
    return mean, bound, False


SPLIT = 1 << 26  # sequences counted as hi * SPLIT + lo: float64 sums of each are exact (see joint_counts)
MAX_CODES = 1 << 20  # signatures counted by bincount up to this many codes, by sorting beyond


def joint_counts(bets: list, dist) -> tuple[list[tuple], list[int]]:
    """The signatures of ``dist``'s cells (for each bet, the index of the line that settles it,
    len(lines) where none does) that occur, and the sequences of each: the joint distribution of
    the bets' settlements. Each bet's settlement in each cell is worked out once a layout
    (layout.memo).

    Sequences are summed by code (the settlements in mixed radix) with numpy's bincount, whose
    weights are float64: each count is split as hi * 2**26 + lo, and both sums are exact, being
    below 2**53 - lo < 2**26 over at most 2**27 cells, hi below 2**63 / 2**26 = 2**37 in all.
    Shoes beyond int64 (object counts), and more codes than MAX_CODES, are summed by sorting
    instead; codes past 2**62 (some 35 bets on one coup) by comparing the settlements as rows."""
    import numpy as np

    from ..bets.conditions import settled_masks
    from ..game.layout import memo

    def settlement(bet):
        def compute():
            settled = np.full(len(dist.sequences), len(bet.lines), np.int64)
            for k, hit in enumerate(memo(dist.fields, ("settled", bet.conditions),
                                         lambda: settled_masks(bet.conditions, dist.fields))):
                settled[hit] = k
            return settled
        return memo(dist.fields, ("settlement", bet.conditions), compute)

    size = math.prod(len(bet.lines) + 1 for bet in bets)
    sequences = dist.sequences
    if size >= 2**62:  # codes past int64: the settlements compared as rows
        rows, inverse = np.unique(np.stack([settlement(bet) for bet in bets], axis=1), axis=0, return_inverse=True)
        sums = np.zeros(len(rows), sequences.dtype)
        np.add.at(sums, inverse.reshape(-1), sequences)
        return [tuple(map(int, row)) for row in rows], [int(c) for c in sums]
    code = np.zeros(len(dist.sequences), np.int64)
    for bet in bets:
        code = code * (len(bet.lines) + 1) + settlement(bet)
    if sequences.dtype != object and size <= MAX_CODES and len(code) < SPLIT * 2:
        hi, lo = np.divmod(sequences, SPLIT)
        sums = np.bincount(code, hi, size).astype(np.int64) * SPLIT + np.bincount(code, lo, size).astype(np.int64)
        found = np.flatnonzero(sums)
        sums = sums[found]
    else:
        found, inverse = np.unique(code, return_inverse=True)
        sums = np.zeros(len(found), sequences.dtype)
        np.add.at(sums, inverse, sequences)
    signatures = []
    for number in found.tolist():
        row = []
        for bet in reversed(bets):
            number, k = divmod(number, len(bet.lines) + 1)
            row.append(k)
        signatures.append(tuple(reversed(row)))
    return signatures, [int(c) for c in sums]


# Each coup's (mean, variance, exact), kept: the overview asks for the shift's results again and
# again, and a coup's figures do not change (the key holds the shoe before it and its wagers).
COUPS = Recent(40_000, size=lambda value: 1)  # a day of a 20-table pit is some 13,000 coups; an entry a few hundred bytes


KEY_VERSION = "variance 2"  # changed whenever the way a coup's variance is worked out changes: none kept before is read


def coup_key(table: str, before, amounts: dict) -> str:
    """A coup's key among the variances kept: its table (its name, when it was made and its rule
    set, or for wagers read from files the rule set), the shoe before the coup, the amount on
    each bet, and KEY_VERSION.

    >>> from analyzer.game.cards import Shoe
    >>> len(coup_key("bac-7|2026-11-28T08:00:00Z", Shoe.decks(8), {"tie": Fraction(5)}))
    64
    """
    import hashlib

    text = f"{KEY_VERSION}|{table}|{before.counts}|{sorted((bet, str(amount)) for bet, amount in amounts.items())}"
    return hashlib.sha256(text.encode()).hexdigest()


def joint_variances(rules, table: str, coups: list, store=None) -> list[tuple[Fraction, Fraction, bool]]:
    """:func:`coup_variance` of each of ``coups`` ((shoe before, amounts) each): those kept in
    this process or in the pit's ``store`` read, the others worked out and kept in both."""
    keys = [coup_key(table, before, amounts) for before, amounts in coups]
    found = {key: COUPS.get(key) for key in keys}
    missing = [key for key, value in found.items() if value is None]
    if missing and store is not None:
        found |= store.kept_variances(missing)
    made = {}
    for key, (before, amounts) in zip(keys, coups):
        if found.get(key) is None:
            found[key] = made[key] = coup_variance(rules, before, amounts)
    if made and store is not None:
        store.keep_variances(made)
    for key in keys:
        COUPS.put(key, found[key])
    return [found[key] for key in keys]


# -- a period's wagers ----------------------------------------------------------------------------


def results(wagers: list, deals: dict, store=None, made: dict | None = None, live=frozenset()) -> list[Results]:
    """Each table's results from ``wagers`` (protect.Wager, each on its coup as the shoe stands)
    and the tables' coups (``deals``, table -> protect.Deal), tables by name; then, where there
    are several, their sum (table ""). With the pit's ``store`` (and ``made``, each table's
    creation time), each coup's variance is kept there once worked out. ``live``: the (table,
    shoe) still in play, whose wagers on bets across coups are not settled yet (set aside)."""
    from .protect import check_wager

    by_table = defaultdict(list)
    for w in wagers:
        by_table[w.table].append(w)
    out = []
    for table in sorted(by_table, key=natural):
        deal = deals[table]
        placed = by_table[table]
        dealt = {(s.name, i + 1) for s in deal.shoes for i in range(len(s.coups))}
        due = [w for w in placed if (w.shoe, w.coup) in dealt]
        bet_ids = {b.id for b in deal.rules.bets}
        for w in due:
            check_wager(w, deals, {table: bet_ids})
        done = Results(table, pending=len(placed) - len(due), rules=deal.rules.name)
        if due:
            key = f"{table}|{made[table]}|{deal.rules.name}" if store is not None and made else \
                f"{table}|{deal.rules.name}|{id(deal.rules)}"
            figures = kept_figures(table, key, deal, sorted({w.bet for w in due}), {(w.shoe, w.coup) for w in due})
            table_of_coups(done, due, figures, deal.rules, key, store, {s for t, s in live if t == table})
        out.append(done)
    if len(out) > 1:
        total = Results("", rules="")
        for r in out:
            total.add(r)
        out.append(total)
    return out


# Each coup's figures (its bets' EVs, variances and nets), kept: a shoe in play is asked for again at
# every coup, and its earlier coups' figures do not change (the key holds the shoe before the coup,
# its cards and the bets asked). A bet across coups is settled by the coups after it: never kept.
FIGURES = Recent(150_000, size=lambda figures: len(figures.ev))  # bets' figures, some 500 bytes each: 75 MB at most (a 20-table day)


def kept_figures(table: str, key: str, deal, bets: list[str], wanted: set) -> dict:
    """protect.coup_figures of the ``wanted`` coups, those worked out before read from FIGURES."""
    from .deals import coup_figures
    from .replay import steps

    if any(deal.rules.bet(b).series is not None for b in bets):
        return coup_figures(table, deal, bets, wanted)
    keys = {(m.shoe, m.number): (key, tuple(bets), m.before.counts, tuple(m.coup.cards))
            for m in steps(deal.start, deal.shoes, deal.rules.tableau) if (m.shoe, m.number) in wanted}
    found = {coup: FIGURES.get(k) for coup, k in keys.items()}
    missing = {coup for coup, figures in found.items() if figures is None}
    if missing:
        for coup, figures in coup_figures(table, deal, bets, missing).items():
            found[coup] = FIGURES.put(keys[coup], figures)
    return found


def table_of_coups(done: Results, wagers: list, figures: dict, rules, table: str = "", store=None,
                   live=frozenset()) -> None:
    """Add each coup's wagers to ``done``: handle, win, theoretical win, and the coup's variance
    (the amounts on each bet summed first: one product a bet and coup, not one a wager)."""
    by_coup = defaultdict(list)
    for w in wagers:
        by_coup[w.shoe, w.coup].append(w)
    joint = []  # (shoe before, amounts) of the coups whose wagers are on several bets: their law taken together
    sums = defaultdict(lambda: [0, 0, 0, 0])  # bet -> wagers, handle, win, theoretical: summed a bet at a time
    for key, coup_wagers in by_coup.items():
        coup = figures[key]
        amounts, counts = defaultdict(int), defaultdict(int)
        for w in coup_wagers:
            if rules.bet(w.bet).multipliers is not None:  # what it won rides on multipliers the pit does not keep
                done.multiplied += 1
                continue
            if w.bet in coup.closed:  # a bet across coups its rules do not let be placed here (the pit took it)
                done.closed += 1
                continue
            if coup.variance[w.bet] is None and w.shoe in live:  # a bet across coups, its shoe in play: not settled yet
                done.unsettled += 1
                continue
            amounts[w.bet] += w.amount
            counts[w.bet] += 1
        if not amounts:
            continue
        done.coups += 1
        varied = {}
        for bet, amount in amounts.items():
            mine = sums[bet]
            mine[0] += counts[bet]
            mine[1] += amount
            mine[2] -= amount * coup.net[bet]
            mine[3] -= amount * coup.ev[bet]
            if coup.variance[bet] is None:  # a bet across coups: its variance spans coups
                done.outside += counts[bet]
            elif amount:
                varied[bet] = amount
        if len(varied) == 1:
            (bet, amount), = varied.items()
            done.variance += amount * amount * coup.variance[bet]
        elif varied:
            joint.append((coup.before, varied))
    for bet, (n, handle, win, theo) in sums.items():
        done.wagers += n
        done.handle += handle
        done.win += win
        done.theoretical += theo
        mine = done.bets.setdefault(bet, [0, Fraction(0), Fraction(0), Fraction(0)])
        mine[0] += n
        mine[1] += handle
        mine[2] += win
        mine[3] += theo
    for _, variance, exact in joint_variances(rules, table, joint, store):
        done.variance += variance
        done.bounded += not exact


def store_results(store, tables: list[str] | None = None, since: str | None = None,
                  until: str | None = None, most: int | None = None) -> list[Results]:
    """:func:`results` of the wagers kept in the pit's store (of ``tables``, else of every table
    with wagers kept; kept at ``since`` or later and before ``until``): each table's wagers on
    the coups as its shoes stand, at most ``most`` wagers in all (MAX_WAGERS). A table asked for
    with no wager kept gets its (empty) results.

    Worked out a shoe at a time, each shoe's results kept (SHOES) until a coup or a wager of it
    is kept: the overview asking again every few seconds pays for the shoes in play alone."""
    from .wagers import MAX_WAGERS

    marks = store.wager_marks(tables, since, until)
    if sum(count for count, _ in marks.values()) > (most or MAX_WAGERS):
        raise BaccaratError(f"more than {most or MAX_WAGERS:,} wagers kept: ask for fewer tables, or a shorter period, "
                            "at a time")
    names = sorted({name for name, _ in marks}, key=natural)
    events = store.shoe_marks(names) if names else {}
    tables_now = {name: store.table(name) for name in names}
    out = []
    for name in names:
        done = None
        for (table, shoe), mark in sorted(marks.items()):
            if table == name:
                key = (store.target, name, shoe, events.get((name, shoe)), mark, since, until,
                       in_play(tables_now[name], shoe))
                part = SHOES.kept(key, lambda: shoe_results(store, name, shoe, since, until, tables_now[name]))
                if done is None:
                    done = Results(name, rules=part.rules)
                done.add(part)
        out.append(done)
    for name in tables or []:
        if name not in names:
            out.append(Results(name, rules=store.table(name)["spec"]["rules"]))
    out.sort(key=lambda r: natural(r.table))
    if len(names) > 1:
        total = Results("")
        for r in out:
            total.add(r)
        out.append(total)
    return out


SHOES = Recent(2_000, size=lambda value: 1)  # (store, table, shoe, its last event, its wagers' mark, period) -> Results


def shoe_results(store, name: str, shoe: int, since: str | None, until: str | None, table: dict) -> Results:
    """One shoe's results (a table's wagers on it in the period); ``table`` the table as the store
    gives it now."""
    from .deals import deals_from_store, on_standing_coups, wagers_from_store

    wagers = wagers_from_store(store, [name], since, until, shoe=shoe)
    deals = deals_from_store(store, [name], {(name, str(shoe))})
    live = {(name, str(shoe))} if in_play(table, shoe) else set()
    return results(on_standing_coups(wagers, deals), deals, store, {name: table["created"]}, live)[0]


def in_play(table: dict, shoe: int) -> bool:
    """Whether shoe number ``shoe`` is the table's shoe in play (not over, not closed)."""
    figures = table["figures"] or {}
    return figures.get("shoe") == shoe and figures.get("over") is False


def natural(name: str) -> tuple:
    """A table's name as people sort them: bac-2 before bac-10.

    >>> sorted(["bac-10", "bac-2", "Bac-1"], key=natural)
    ['Bac-1', 'bac-2', 'bac-10']
    """
    import re

    return tuple((0, int(part), "") if part.isdigit() else (1, 0, part.lower())
                 for part in re.split(r"(\d+)", name) if part)
