"""The coups a review reads, each with every wagered bet's exact EV before it and what it paid:
from a file of coups (as replay reads it) or from the pit's store, and the wagers kept there."""

from __future__ import annotations


from bisect import bisect_right
from dataclasses import dataclass, replace
from fractions import Fraction

from ..game.cards import Shoe
from ..base.errors import BaccaratError
from .replay import steps
from .wagers import MAX_WAGERS, Wager, period

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




# -- the coups of a file or of the pit's store -----------------------------------------------------


def deals_from_file(coups, rules, start: Shoe, table: str, name: str = "coup file", wanted: set | None = None) -> dict:
    """table name -> Deal, for one table's file of coups (as replay reads it): its text, or its
    lines (:func:`deals_from_files`)."""
    return deals_from_files([(name, coups)], rules, start, table, wanted)


def deals_from_files(files: list, rules, start: Shoe, table: str, wanted: set | None = None) -> dict:
    """table name -> Deal, for one table's files of coups ((name, its text or its lines) each, in
    order): their shoes together are the table's, each named once. Each file is read a shoe at a
    time (replay.read_shoes) and each shoe checked as it is read (replay.steps), all before any
    figure. ``wanted``: the shoes the wagers name - the others are kept by their name alone, their
    coups read, checked and let go, so that files of any length are read holding the wagered
    shoes and one shoe more (None, or "" among them, a wager naming no shoe: every shoe kept)."""
    from .replay import ShoeDealt, begun, read_shoes

    shoes, read_in = [], {}
    for name, coups in files:
        dealt = False
        for shoe in read_shoes(coups.split("\n") if isinstance(coups, str) else coups, name):
            if not begun(shoe):  # a file's last 'shoe ID' line, and nothing after it
                continue
            if shoe.name in read_in:
                raise BaccaratError(f"{name}: shoe {shoe.name!r} is dealt in {read_in[shoe.name]} too (a table's shoes "
                                    "are named once each: a 'shoe ID' line before each shoe's coups)")
            read_in[shoe.name] = name
            checked(shoe, start, rules.tableau, name)
            dealt = dealt or bool(shoe.coups)
            kept = wanted is None or "" in wanted or shoe.name in wanted
            shoes.append(shoe if kept else ShoeDealt(shoe.name))
        if not dealt:
            raise BaccaratError(f"{name}: no coup (one a line: its 4 to 6 cards in dealing order)")
    return {table: Deal(rules, start, shoes, " + ".join(name for name, _ in files))}


def checked(shoe, start: Shoe, tableau, name: str) -> None:
    """Refuse, by its line in the file ``name``, a coup of the shoe that the tableau could not
    deal, or a card not left (replay.steps)."""
    try:
        for _ in steps(start, [shoe], tableau):
            pass
    except BaccaratError as error:
        raise BaccaratError(f"{name}, {error}" if str(error).startswith("line ") else f"{name}: {error}") from None


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


