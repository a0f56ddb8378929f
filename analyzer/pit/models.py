"""The chances a review gives (Chance, one per model: the placements' own test, a count, a peek
or a group of ranks) and the models of an advantage beside the wagers' own: a count (the simulator's bank of
shoes dealt to the cut card, Bank), and information - a peek at cards, or knowing a group of
ranks (Informed): what each would have told a player before each coup."""

from __future__ import annotations


import math
from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

from ..game.cards import COLOURS, RANKS, SUIT_COLOUR, Shoe
from ..base.errors import BaccaratError
from .replay import card_text
from .deals import CoupFigures

EXACT_PLACEMENTS = 100_000
DRAWS = 4_000_000  # random draws held at once by the sampled test (32 MB)

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


