"""The par sheet as a document: blocks - headings, text, tables and charts - built once from
the views, then rendered by each output format."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .. import __version__, parsheet, views
from ..bets import MAIN_BETS, RuleSet
from ..cards import Shoe
from ..errors import RunFailed
from ..render import View
from ..rulefile import BUILT_IN, get_rules
from . import GENERATOR
from .request import Scope, tableaus

SIDE_BETS_CHARTED = 3  # by default, the side bets most sensitive to card removal


@dataclass(frozen=True)
class Heading:
    """A section's title: level 1 the report's, 2 a section, 3 a part of one (a rule set's)."""

    level: int
    text: str


@dataclass(frozen=True)
class Code:
    """A span of text shown as code (the command that makes the report again)."""

    text: str


@dataclass(frozen=True)
class Text:
    """A paragraph."""

    parts: tuple  # plain strings (user text included: escaped for each format) and Code spans


def para(*parts) -> Text:
    return Text(parts)


@dataclass(frozen=True)
class Table:
    """A table: a view of exact values, shown in every format and kept as data in tables/NAME.csv."""

    name: str  # tables/NAME.csv and the key in report.json
    view: View
    show_exact: tuple = ()  # columns whose exact fractions Markdown and HTML show too (CSV and JSON: all)

    @property
    def file(self) -> str:
        return f"tables/{self.name}.csv"


@dataclass(frozen=True)
class Chart:
    """A chart drawn from a table's values, as SVG, kept in charts/NAME.svg."""

    name: str
    title: str
    svg: bytes

    @property
    def file(self) -> str:
        return f"charts/{self.name}.svg"


@dataclass(frozen=True)
class Report:
    """The par sheet: its blocks in reading order, and what report.json and a title page say of it."""

    title: str
    blocks: tuple
    data: dict  # the parts of report.json that are not tables
    front: tuple = ()  # (label, text) lines of a title page: the game, rules, shoe, tool and command

    @property
    def tables(self) -> list[Table]:
        return [b for b in self.blocks if isinstance(b, Table)]

    @property
    def charts(self) -> list[Chart]:
        return [b for b in self.blocks if isinstance(b, Chart)]


def unique_slugs(names: list[str]) -> list[str]:
    """File-name-safe forms of ``names``, distinct even where two names reduce to the same form.

    >>> unique_slugs(["My Rules", "my-rules", "ez"])
    ['my-rules', 'my-rules-2', 'ez']
    """
    out = []
    for name in names:
        base = candidate = slug(name)
        n = 1
        while candidate in out:
            n += 1
            candidate = f"{base}-{n}"
        out.append(candidate)
    return out


def slug(text: str) -> str:
    """A file-name-safe form of a name.

    >>> slug("banker-stands-on-6"), slug("My rules (v2)")
    ('banker-stands-on-6', 'my-rules-v2')
    """
    return re.sub(r"[^a-z0-9_]+", "-", text.lower()).strip("-") or "rules"


def build(scope: Scope, command: str | None = None, progress=None) -> Report:
    """Every section of the par sheet, computed exactly; ``command`` is the text that makes it
    again (None: the report says none)."""
    from . import charts

    advance = progress or (lambda n: None)
    shoe, where, known = scope.shoe, scope.shoe.describe(), scope.knowledge
    key = dict(zip((r.name for r in scope.rules), unique_slugs([r.name for r in scope.rules])))  # file names
    title = f"Par sheet: {', '.join(r.name for r in scope.rules)}; shoe of {where}" + ("; with known cards" if known else "")
    outcomes = []
    for tableau in tableaus(scope):
        outcomes.append(views.odds(shoe, tableau, known))
        outcomes[-1].title = (f"Outcomes of one coup, tableau {tableau.name}: {outcomes[-1].data['total']:,} ordered 6-card "
                              "sequences" + (" that agree with the known cards" if known else ""))
        advance(1)
    edges = {}
    for r in scope.rules:
        edges[r.name] = views.edge(r, shoe, known)  # the shoe's enumerations, which a worker then inherits
        advance(1)
    with SideJob(lambda: {r.name: views.eor(r, shoe, knowledge=known) for r in scope.rules}, scope) as job:
        by_decks = {}
        for r in scope.rules:
            by_decks[r.name] = views.by_decks(r, list(scope.deck_counts), known)
            advance(1)
        returns = {r.name: views.returns(r, shoe, known) for r in scope.rules}
        spreads = {r.name: views.volatility(r, shoe, known) for r in scope.rules}
        advance(len(scope.rules))
        comparison = views.compare(compared_rules(scope.rules, shoe), shared_only=True, knowledge=known)
        advance(1)
        edge_charts = {r.name: edge_chart(f"house-edge-{key[r.name]}", f"House edge by bet: {r.name}; {where}",
                                          edges[r.name]) for r in scope.rules}
        removals = job.result()  # a worker that died raises RunFailed: no report is written
        advance(13 * len(scope.rules))
    charted = {r.name: chart_bets(r, removals[r.name], scope.side_bets) for r in scope.rules}

    def decks_chart(r):
        rows = {b["bet"]: b for b in by_decks[r.name].data["bets"]}
        labels = [str(d) for d in scope.deck_counts] + ["∞"]
        name = f"House edge by number of decks: {r.name} (∞: the exact limit)"
        return Chart(f"edge-by-decks-{key[r.name]}", name, charts.by_decks(
            [(rows[b]["name"], labels, rows[b]["house_edge"]) for b in charted[r.name]], name))

    def eor_chart(r):
        rows = {b["bet"]: b for b in removals[r.name].data["bets"]}
        names = {b.id: b.name for b in r.bets}
        name = f"Effect of removing one card, per rank: {r.name}; {where}"
        return Chart(f"eor-{key[r.name]}", name, charts.eor(
            [(names[b], list(rows[b]["eor"]), list(rows[b]["eor"].values())) for b in charted[r.name]], name))

    see = "how" if command is None else "how, and the command that makes this report again"
    blocks = [Heading(1, title), para(
        f"Exact probabilities and house edges of every bet, counted over every possible coup (see the last section "
        f"for {see}). Decimals are rounded from exact fractions; tables/*.csv and report.json hold every exact value.")]
    blocks.append(Heading(2, "Rules"))
    for r in scope.rules:
        bets = views.rules_show(r)
        bets.title = f"Bets and pay tables of {r.name}"
        blocks += [Heading(3, f"{r.name}: {r.description}"), para(f"Source: {r.source or '-'}"),
                   Table(f"rules-{key[r.name]}", bets), Table(f"tableau-{key[r.name]}", views.tableau_view(r.tableau))]
    blocks += [Heading(2, "Shoe"), Table("shoe", views.shoe_view(shoe))]
    if known:
        blocks += [Heading(2, "Known cards"), para(
            "Every figure of this report is conditional on what is known of the coming coup's cards (positions in "
            f"dealing order): {known.describe()}. Combinations count only the sequences that agree with it; the "
            "tables by number of decks assume the same knowledge on each full shoe.")]
    blocks += [Heading(2, "Outcome distribution"), para(
        "Combinations are ordered sequences of six cards, N(N-1)...(N-5) for an N-card shoe: a coup that uses four "
        "or five cards counts the ways to draw the cards it leaves.")]
    blocks += [Table(f"outcomes-{name}", view, ("probability",))
               for name, view in zip(unique_slugs([t.name for t in tableaus(scope)]), outcomes)]
    blocks += [Heading(2, "House edge"), para(
        "House edge = expected loss per unit bet, ties and pushes counted as bets; edge per resolved bet leaves "
        "pushes out; SD = standard deviation of one bet's result in units; rows marked · are a bet's pay lines.")]
    for r in scope.rules:
        blocks += [Heading(3, f"House edge: {r.name}"),
                   Table(f"house-edge-{key[r.name]}", edges[r.name], ("house_edge",)), edge_charts[r.name]]
        advance(1)
    blocks += [Heading(2, "Return tables"), para(
        "Each bet's pay lines as a return table: the combinations that settle the bet on each line (ordered 6-card "
        "sequences, the first line that holds settling it), its probability, and return = pays x probability, pays "
        "being the units won per unit bet after any commission; the losing row is what no line settles. The "
        "combinations sum to the total and the returns to the bet's EV, exactly.")]
    for r in scope.rules:
        blocks += [Heading(3, f"Return tables: {r.name}"), Table(f"returns-{key[r.name]}", returns[r.name])]
    blocks += [Heading(2, "Volatility and ranges"), para(
        "How far the player's result strays from its expectation: the SD of one hand of one unit, the volatility "
        f"index (z x SD at {int(parsheet.VI_LEVEL * 100)}% confidence), the skewness, and the hold (the house's "
        "expected win per 100 units wagered). The ranges hold with 90, 95 and 99% confidence after 100 to "
        "1,000,000 independent hands: by the normal approximation where a session's result is nearly "
        f"symmetric (skewness at most {parsheet.SKEW_LIMIT}); where it is not (long shots over few hands), by the "
        "exact distribution of the hands' sum, whose ends hold with at least the confidence shown; 'normal, poor' "
        "marks a skewed session too long to count exactly.")]
    for r in scope.rules:
        spread, ranges = spreads[r.name]
        blocks += [Heading(3, f"Volatility: {r.name}"), Table(f"volatility-{key[r.name]}", spread),
                   Table(f"ranges-{key[r.name]}", ranges)]
    blocks += [Heading(2, "Rule sets compared"), para(
        "The house edge of each bet under the report's rule sets and the built-in rule sets, on this shoe "
        "(the bets at least two of them share)."), Table("compare", comparison)]
    blocks += [Heading(2, "House edge by number of decks"), para(
        "Full shoes, and the infinite-deck limit: a cell's count on d decks is a polynomial of degree 6 in d, and the "
        "limit is its leading coefficient over 52^6 - exact, not a very large shoe. The charts show the main bets "
        "and the side bets chosen for the report.")]
    for r in scope.rules:
        blocks += [Heading(3, f"By number of decks: {r.name}"), Table(f"edge-by-decks-{key[r.name]}", by_decks[r.name]),
                   decks_chart(r)]
        advance(1)
    blocks += [Heading(2, "Effect of removal"), para(
        "The exact change in a bet's EV (per unit bet; + helps the bettor) when one card of a rank leaves the shoe; "
        "zero = T, J, Q, K together; sum check = the effects times the cards left, summed: exactly 0.")]
    for r in scope.rules:
        blocks += [Heading(3, f"Effect of removal: {r.name}"), Table(f"eor-{key[r.name]}", removals[r.name]), eor_chart(r)]
        advance(1)
    blocks += [Heading(2, "How this was computed"), *how_computed(command)]
    again = {} if command is None else {"command": command}  # a library user may give no command
    data = {"generator": GENERATOR, "version": __version__, **again, "title": title,
            "shoe": views.shoe_data(shoe), **views.known_data(known), "rules": [r.name for r in scope.rules],
            "deck_counts": list(scope.deck_counts)}
    front = (("Game", "Mini baccarat / punto banco"),
             *((f"Rules: {r.name}", f"{r.description}\nSource: {r.source or '-'}") for r in scope.rules),
             ("Tableau", "; ".join(t.name for t in tableaus(scope))), ("Shoe", where),
             *((("Known cards", known.describe()),) if known else ()),
             ("Made by", f"baccarat {__version__}"), *((("Command", command),) if again else ()))
    return Report(title, tuple(blocks), data, front)


def compared_rules(rules, shoe: Shoe) -> list[tuple]:
    """(label, rules, shoe) for the comparison: the report's rule sets, then each built-in rule
    set (but the catalogue) not among them, labelled "(built-in)" where a name is taken.

    >>> [label for label, _, _ in compared_rules([get_rules("ez")], Shoe.decks(8))]
    ['ez', 'standard', 'commission-4', 'tie-9', 'no-commission', 'banker-stands-on-6']
    """
    names = {r.name for r in rules}
    built_in = [get_rules(n) for n in BUILT_IN if n != "catalog"]
    return [(r.name, r, shoe) for r in rules] + [
        (f"{r.name} (built-in)" if r.name in names else r.name, r, shoe) for r in built_in if r not in rules]


def edge_chart(name: str, title: str, edges: View) -> Chart:
    """The house edge of each bet (a views.edge view) as bars."""
    from . import charts

    rows = edges.data["bets"]
    return Chart(name, title, charts.edge_by_bet([b["name"] for b in rows], [b["house_edge"] for b in rows], title))


class SideJob:
    """The effect of removal (``function``), the costliest section where a bet reads the cards
    themselves or cards are known: computed there by a second process while this one computes
    the others (see workers.Background); elsewhere here, when its result is asked for."""

    def __init__(self, function, scope: Scope):
        from ..workers import Background

        costly = bool(scope.knowledge) or any(b.needs.cards for r in scope.rules for b in r.bets)
        self.job = Background(function, worth_a_process=costly)

    def __enter__(self) -> SideJob:
        return self

    def __exit__(self, *exc):
        self.job.__exit__(*exc)

    def result(self):
        from ..workers import WorkerDied

        try:
            return self.job.result()
        except WorkerDied as died:
            raise RunFailed(f"{died} while computing the effect of removal: no report was written") from None


def chart_bets(rules: RuleSet, eor_view: View, side_bets) -> list[str]:
    """The bets a rule set's charts show: its main bets, then the chosen side bets (by default
    the SIDE_BETS_CHARTED most sensitive to card removal: largest sum of squared EoRs)."""
    ids = [b.id for b in rules.bets]
    main = [b for b in MAIN_BETS if b in ids]
    if side_bets is not None:
        return main + [b for b in side_bets if b in ids and b not in main]
    sensitivity = {row["bet"]: row["sum_of_squares"] for row in eor_view.data["bets"]}
    sides = sorted((b for b in ids if b not in main), key=lambda b: -sensitivity[b])
    return main + sides[:SIDE_BETS_CHARTED]


def how_computed(command: str | None) -> list:
    again = () if command is None else (" To make this report again: ", Code(command))
    return [
        para("Every probability is a ratio of exact integer counts: an enumeration of every way a coup "
             "can be dealt from this shoe (no replacement), each weighted by its number of ordered card "
             "sequences, gives one joint distribution of totals, third cards, naturals, pairs and suits; every "
             "bet is a function of it. Fractions stay exact until a table rounds them (half to even)."),
        para("The effect of removal enumerates the shoe again with one card of each rank taken out. The "
             "infinite-deck column interpolates the exact counts of 1 to 7 decks, which are polynomials of "
             "degree 6 in the number of decks, and takes their leading coefficients."),
        para(f"Made by baccarat {__version__}.", *again),
    ]
