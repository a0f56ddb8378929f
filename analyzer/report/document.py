"""The par sheet as a document: blocks - headings, text, tables and charts - built once from
the views, then rendered by each output format."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .. import __version__, views
from ..questions import parsheet
from ..bets.bet import MAIN_BETS, RuleSet
from ..game.cards import Shoe
from ..base.errors import RunFailed
from ..game.knowledge import Knowledge
from ..render import View
from ..bets.rulefile import BUILT_IN, get_rules
from ..game.tableau import Tableau
from ..views import edge as edge_views
from ..views import outcomes as outcome_views
from ..views import parsheet as parsheet_views
from ..views import removal as removal_views
from ..views import rules as rule_views
from ..views import solve as solve_views
from ..base.workers import Background, WorkerDied
from . import GENERATOR, charts
from .play import rules_of_play
from .request import Scope, tableaus

SIDE_BETS_CHARTED = 3  # by default, the side bets most sensitive to card removal
BARS_PER_CHART = 26  # a house-edge chart of more bets is split in parts, each a page at full size (labels 8 pt or more)


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
    labels: tuple | None = None  # the keys of the columns that name a row (None: the first column)

    @property
    def label_keys(self) -> tuple:
        """The keys of the columns that name a row - the bet, its pay line, the hands of a range:
        a table split into column groups repeats them in every group, so that a row is known
        in each."""
        if self.labels is not None:
            return self.labels
        return (self.view.columns[0].key,) if self.view.columns else ()

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
class SignOff:
    """The approvals: a line per role (prepared by, approved by) with the name given, or blank,
    and blank lines for the signature and the date, to be signed on paper."""

    roles: tuple  # (role, name or "")


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


@dataclass(frozen=True)
class Figures:
    """What a par sheet shows, computed: each tableau's outcomes, the comparison of rule sets,
    and per rule set (by name) its views and charts."""

    outcomes: list[View]
    comparison: View
    edges: dict[str, View]
    by_decks: dict[str, View]
    returns: dict[str, View]
    volatility: dict[str, tuple[View, View]]  # the spread of one hand; the ranges of sessions
    removals: dict[str, View]  # the effect of removal
    edge_charts: dict[str, list[Chart]]  # in parts of at most BARS_PER_CHART bets
    decks_charts: dict[str, Chart]
    eor_charts: dict[str, Chart]
    meters: tuple = ()  # a views.solve.meters view for each bet that pays a progressive meter


def build(scope: Scope, command: str | None = None, progress=None) -> Report:
    """The par sheet of ``scope``, every figure computed exactly. ``command`` is shown as the
    text that makes the report again (None: no such line); ``progress(n)`` is told of each n
    units of work done (request.steps counts them)."""
    names = [r.name for r in scope.rules]
    slugs = dict(zip(names, unique_slugs(names)))
    sheet = Sheet(scope, sheet_title(scope), command, slugs, compute(scope, slugs, progress or (lambda n: None)))
    return Report(sheet.title, sheet.blocks(), sheet.data(), sheet.front())


def sheet_title(scope: Scope) -> str:
    known = "; with known cards" if scope.knowledge else ""
    return f"Par sheet: {', '.join(r.name for r in scope.rules)}; shoe of {scope.shoe.describe()}{known}"


# Computing ----------------------------------------------------------------------------------


def compute(scope: Scope, slugs: dict[str, str], advance) -> Figures:
    """Every view and chart of the par sheet, ``advance`` told of the work as it is done. The
    effect of removal is a side job, computed meanwhile by a second process where it is costly."""
    rules, shoe, known = scope.rules, scope.shoe, scope.knowledge
    outcomes = [done(outcome_view(shoe, tableau, known), advance) for tableau in tableaus(scope)]
    edges = each(rules, lambda r: edge_views.edge(r, shoe, known), advance)  # the enumerations a worker then inherits
    with SideJob(lambda: each(rules, lambda r: removal_views.eor(r, shoe, knowledge=known, by_name=True)), scope) as job:
        by_decks = each(rules, lambda r: edge_views.by_decks(r, list(scope.deck_counts), known), advance)
        returns = each(rules, lambda r: parsheet_views.returns(r, shoe, known))
        volatility = each(rules, lambda r: parsheet_views.volatility(r, shoe, known), advance)
        comparison = done(edge_views.compare(compared_rules(rules, shoe), shared_only=True, knowledge=known,
                                             also={b.id for r in rules for b in r.bets}), advance)
        edge_charts = each(rules, lambda r: edge_chart(scope, r, slugs[r.name], edges[r.name]), advance)
        removals = job.result()  # a worker that died raises RunFailed: no report is written
        advance(13 * len(rules))
    bets = {r.name: chart_bets(r, removals[r.name], scope.side_bets) for r in rules}
    decks_charts = each(rules, lambda r: decks_chart(scope, r, slugs[r.name], by_decks[r.name], bets[r.name]), advance)
    eor_charts = each(rules, lambda r: eor_chart(scope, r, slugs[r.name], removals[r.name], bets[r.name]), advance)
    tableau = {r.name: r.tableau for r in rules}
    meters = tuple(solve_views.meters(name, bet, shoe, tableau[name], dict(scope.meters), known)
                   for name, bet in scope.progressives)
    return Figures(outcomes, comparison, edges, by_decks, returns, volatility, removals,
                   edge_charts, decks_charts, eor_charts, meters)


def each(rules, view, advance=None) -> dict:
    """Rule set name -> ``view(rule set)``, for each rule set; ``advance(1)`` after each."""
    return {r.name: done(view(r), advance) for r in rules}


def done(value, advance=None):
    """``value``, once ``advance(1)`` has been told of it."""
    if advance:
        advance(1)
    return value


def outcome_view(shoe: Shoe, tableau: Tableau, known: Knowledge) -> View:
    """The outcomes of one coup under a tableau, titled with the number of card sequences counted."""
    view = outcome_views.odds(shoe, tableau, known)
    agree = " that agree with the known cards" if known else ""
    return titled(view, f"Outcomes of one coup, tableau {tableau.name}: {view.data['total']:,} ordered 6-card "
                        f"sequences{agree}")


def titled(view: View, title: str) -> View:
    """The view, its title replaced."""
    view.title = title
    return view


def compared_rules(rules, shoe: Shoe) -> list[tuple]:
    """(label, rules, shoe) for the comparison: the report's rule sets, then each built-in rule
    set (but the catalogue and the live studio's game) not among them, labelled "(built-in)" where a name is taken.

    >>> [label for label, _, _ in compared_rules([get_rules("ez")], Shoe.decks(8))]
    ['ez', 'standard', 'commission-4', 'tie-9', 'no-commission', 'banker-stands-on-6']
    """
    names = {r.name for r in rules}
    built_in = [get_rules(n) for n in BUILT_IN if n not in ("catalog", "lightning")]  # other games
    return [(r.name, r, shoe) for r in rules] + [
        (f"{r.name} (built-in)" if r.name in names else r.name, r, shoe) for r in built_in if r not in rules]


class SideJob:
    """The effect of removal (``function``), the costliest section where a bet reads the cards
    themselves or cards are known: computed there by a second process while this one computes
    the others (see workers.Background); elsewhere here, when its result is asked for."""

    def __init__(self, function, scope: Scope):
        costly = bool(scope.knowledge) or any(b.needs.cards for r in scope.rules for b in r.bets)
        self.job = Background(function, worth_a_process=costly)

    def __enter__(self) -> SideJob:
        return self

    def __exit__(self, *exc):
        self.job.__exit__(*exc)

    def result(self):
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


def edge_chart(scope: Scope, rules: RuleSet, slug: str, edges: View) -> list[Chart]:
    """The house edge of each bet of a rule set (a views.edge.edge view), as bars: one chart, or
    for many bets charts of at most BARS_PER_CHART bets each, in the rule set's order, on one scale."""
    rows = edges.data["bets"]
    parts = balanced_parts(rows, BARS_PER_CHART)
    span = [b["house_edge"] for b in rows]
    out = []
    for n, part in enumerate(parts, 1):
        which = f" ({n} of {len(parts)})" if len(parts) > 1 else ""
        title = f"House edge by bet{which}: {rules.name}; {scope.shoe.describe()}"
        out.append(Chart(f"house-edge-{slug}" + (f"-{n}" if len(parts) > 1 else ""), title,
                         charts.edge_by_bet([b["name"] for b in part], [b["house_edge"] for b in part], title, span)))
    return out


def balanced_parts(items: list, most: int) -> list[list]:
    """``items`` in order, in as few parts of at most ``most`` as hold them, their sizes differing by
    one at most.

    >>> [len(p) for p in balanced_parts(list(range(92)), 26)], balanced_parts([1, 2], 26)
    ([23, 23, 23, 23], [[1, 2]])
    """
    count = max(1, -(-len(items) // most))
    size, extra = divmod(len(items), count)
    bounds = [n * size + min(n, extra) for n in range(count + 1)]
    return [items[a:b] for a, b in zip(bounds, bounds[1:])]


def decks_chart(scope: Scope, rules: RuleSet, slug: str, by_decks: View, bets: list[str]) -> Chart:
    """The house edge of ``bets`` against the number of decks (a views.edge.by_decks view), the
    infinite-deck limit last."""
    rows = {b["bet"]: b for b in by_decks.data["bets"]}
    labels = [str(d) for d in scope.deck_counts] + ["∞"]
    title = f"House edge by number of decks: {rules.name} (∞: the exact limit)"
    return Chart(f"edge-by-decks-{slug}", title,
                 charts.by_decks([(rows[b]["name"], labels, rows[b]["house_edge"]) for b in bets], title))


def eor_chart(scope: Scope, rules: RuleSet, slug: str, removals: View, bets: list[str]) -> Chart:
    """The effect on each of ``bets`` of removing one card of each rank (a views.removal.eor view)."""
    rows = {b["bet"]: b for b in removals.data["bets"]}
    names = {b.id: b.name for b in rules.bets}
    title = f"Effect of removing one card, per rank: {rules.name}; {scope.shoe.describe()}"
    return Chart(f"eor-{slug}", title,
                 charts.eor([(names[b], list(rows[b]["eor"]), list(rows[b]["eor"].values())) for b in bets], title))


# The document's sections ------------------------------------------------------------------------


@dataclass(frozen=True)
class Sheet:
    """A par sheet being written: what it covers, its title, the command that makes it again
    (None: none is shown), each rule set's part of the file names, and its figures. Each method
    from ``introduction`` on gives one section's blocks."""

    scope: Scope
    title: str
    command: str | None
    slugs: dict[str, str]  # rule set name -> its part of the file names: tables/eor-SLUG.csv
    figures: Figures

    def blocks(self) -> tuple:
        """Every block of the report, section by section."""
        sections = (self.introduction, self.rules, self.shoe, self.known_cards, self.outcomes, self.house_edge,
                    self.progressive_meters, self.return_tables, self.volatility, self.rule_sets_compared, self.by_decks,
                    self.effect_of_removal, self.how_computed, self.sign_off)
        return tuple(block for section in sections for block in section())

    def data(self) -> dict:
        """What report.json says beside the tables: the tool, the command, the title, the shoe,
        the known cards, the rule sets and the deck counts compared."""
        scope = self.scope
        command = {} if self.command is None else {"command": self.command}
        signed = {role.lower().replace(" ", "_"): name for role, name in scope.signers if name}
        return {"generator": GENERATOR, "version": __version__, **command, **signed, "title": self.title,
                "shoe": views.shoe_data(scope.shoe), **views.known_data(scope.knowledge),
                "rules": [r.name for r in scope.rules], "deck_counts": list(scope.deck_counts)}

    def front(self) -> tuple:
        """The (label, text) lines of a title page: the game, rules, tableau, shoe, tool and command."""
        scope, known = self.scope, self.scope.knowledge
        command = () if self.command is None else (("Command", self.command),)
        return (("Game", "Mini baccarat / punto banco"),
                *(("Rules", f"{r.name}: {r.description}\nSource: {r.source or '-'}") for r in scope.rules),
                ("Tableau", "; ".join(t.name for t in tableaus(scope))), ("Shoe", scope.shoe.describe()),
                *((("Known cards", known.describe()),) if known else ()),
                ("Made by", f"baccarat {__version__}"), *command,
                *((role, name) for role, name in scope.signers if name))

    def introduction(self) -> list:
        see = "how" if self.command is None else "how, and the command that makes this report again"
        return [Heading(1, self.title), para(
            "Exact probabilities and house edges of every bet, counted over every possible coup (see the last "
            f"section for {see}). Decimals are rounded from exact fractions; tables/*.csv and report.json hold every "
            "exact value.")]

    def rules(self) -> list:
        """Each rule set: its description and source, its rules of play in words, its bets' pay
        tables and its tableau."""
        return [Heading(2, "Rules"), *self.per_rule_set(lambda r, slug: [
            Heading(3, f"{r.name}: {r.description}"), para(f"Source: {r.source or '-'}"),
            para("Rules of play. ", rules_of_play(r, self.scope.shoe)),
            Table(f"rules-{slug}", titled(rule_views.rules_show(r), f"Bets and pay tables of {r.name}"), labels=("bet", "name")),
            Table(f"tableau-{slug}", rule_views.tableau_view(r.tableau), labels=("banker",))])]

    def shoe(self) -> list:
        return [Heading(2, "Shoe"), Table("shoe", rule_views.shoe_view(self.scope.shoe), labels=())]

    def known_cards(self) -> list:
        known = self.scope.knowledge
        if not known:
            return []
        return [Heading(2, "Known cards"), para(
            "Every figure of this report is conditional on what is known of the coming coup's cards (positions in "
            f"dealing order): {known.describe()}. Combinations count only the sequences that agree with it; the "
            "tables by number of decks assume the same knowledge on each full shoe.")]

    def outcomes(self) -> list:
        names = unique_slugs([t.name for t in tableaus(self.scope)])
        return [Heading(2, "Outcome distribution"), para(
            "Combinations are ordered sequences of six cards, N(N-1)...(N-5) for an N-card shoe: a coup that uses "
            "four or five cards counts the ways to draw the cards it leaves."),
            *(Table(f"outcomes-{name}", view, ("probability",), labels=("outcome",))
              for name, view in zip(names, self.figures.outcomes))]

    def house_edge(self) -> list:
        figures = self.figures
        return [Heading(2, "House edge"), para(
            "House edge = expected loss per unit bet, ties and pushes counted as bets; edge per resolved bet leaves "
            "pushes out; SD = standard deviation of one bet's result in units; rows marked · are a bet's pay lines."),
            *self.per_rule_set(lambda r, slug: [
                Heading(3, f"House edge: {r.name}"),
                Table(f"house-edge-{slug}", figures.edges[r.name], ("house_edge",), labels=("name",)),
                *figures.edge_charts[r.name]])]

    def progressive_meters(self) -> list:
        """Each bet that pays a progressive meter: its return as a function of the meter."""
        if not self.figures.meters:
            return []
        given = ", ".join(f"{name} = {value}" for name, value in self.scope.meters)
        return [Heading(2, "Progressive meters"), para(
            f"Some payouts are shares of a progressive meter. Every other table of this report takes the meter "
            f"given ({given}); here each such bet's EV is shown as a function of its meter (exact: it is linear in "
            "the meter), with the break-even value, at which the house edge is 0, and the house edge at shares of it: "
            "a meter a bet pays gives the bettor the edge above its break-even; a commission, below it."),
            *(Table(f"meter-{self.slugs[view.data['rules']]}-{view.data['bet']}", view, labels=("name", "meter", "note"))
              for view in self.figures.meters)]

    def return_tables(self) -> list:
        return [Heading(2, "Return tables"), para(
            "Each bet's pay lines as a return table: the combinations that settle the bet on each line (ordered "
            "6-card sequences, the first line that holds settling it), its probability, and return = pays x "
            "probability, pays being the units won per unit bet after any commission; the losing row is what no "
            "line settles. The combinations sum to the total and the returns to the bet's EV, exactly."),
            *self.per_rule_set(lambda r, slug: [
                Heading(3, f"Return tables: {r.name}"),
                Table(f"returns-{slug}", self.figures.returns[r.name], labels=("name", "event"))])]

    def volatility(self) -> list:
        def part(r: RuleSet, slug: str) -> list:
            spread, ranges = self.figures.volatility[r.name]
            return [Heading(3, f"Volatility: {r.name}"), Table(f"volatility-{slug}", spread, labels=("name",)),
                    Table(f"ranges-{slug}", ranges, labels=("name", "hands"))]

        return [Heading(2, "Volatility and ranges"), para(
            "How far the player's result strays from its expectation: the SD of one hand of one unit, the volatility "
            f"index (z x SD at {int(parsheet.VI_LEVEL * 100)}% confidence), the skewness, and the hold (the house's "
            "expected win per 100 units wagered). The ranges hold with 90, 95 and 99% confidence after 100 to "
            "1,000,000 independent hands: by the normal approximation where a session's result is nearly "
            f"symmetric (skewness at most {parsheet.SKEW_LIMIT}); where it is not (long shots over few hands), by the "
            "exact distribution of the hands' sum, whose ends hold with at least the confidence shown; 'normal, poor' "
            "marks a skewed session too long to count exactly."), *self.per_rule_set(part)]

    def rule_sets_compared(self) -> list:
        return [Heading(2, "Rule sets compared"), para(
            "The house edge of each bet under the report's rule sets and the built-in rule sets, on this shoe "
            "(the report's own bets, and the bets at least two of them share)."),
            Table("compare", self.figures.comparison, labels=("name",))]

    def by_decks(self) -> list:
        figures = self.figures
        return [Heading(2, "House edge by number of decks"), para(
            "Full shoes, and the infinite-deck limit: a cell's count on d decks is a polynomial of degree 6 in d, and "
            "the limit is its leading coefficient over 52^6 - exact, not a very large shoe. The charts show the main "
            "bets and the side bets chosen for the report."),
            *self.per_rule_set(lambda r, slug: [
                Heading(3, f"By number of decks: {r.name}"),
                Table(f"edge-by-decks-{slug}", figures.by_decks[r.name], labels=("name",)), figures.decks_charts[r.name]])]

    def effect_of_removal(self) -> list:
        figures = self.figures
        return [Heading(2, "Effect of removal"), para(
            "The exact change in a bet's EV (per unit bet; + helps the bettor) when one card of a rank leaves the "
            "shoe; zero = T, J, Q, K together; sum check = the effects times the cards left, summed: exactly 0."),
            *self.per_rule_set(lambda r, slug: [
                Heading(3, f"Effect of removal: {r.name}"), Table(f"eor-{slug}", figures.removals[r.name], labels=("name",)),
                figures.eor_charts[r.name]])]

    def how_computed(self) -> list:
        again = () if self.command is None else (" To make this report again: ", Code(self.command))
        return [
            Heading(2, "How this was computed"),
            para("Every probability is a ratio of exact integer counts: an enumeration of every way a coup "
                 "can be dealt from this shoe (no replacement), each weighted by its number of ordered card "
                 "sequences, gives one joint distribution of totals, third cards, naturals, pairs and suits; every "
                 "bet is a function of it. Fractions stay exact until a table rounds them (half to even)."),
            *([para("Bets across coups (" + ", ".join(sorted({b.id for r in self.scope.rules for b in r.bets
                                                               if b.series is not None})) + ") follow the coups "
                    "after they are placed; their figures are exact for independent coups, each with this shoe's "
                    "exact chances. A real shoe's coups are not independent and it ends at the cut card: `baccarat "
                    "simulate` deals real shoes and gives that figure with its 95% confidence interval.")]
              if any(b.series is not None for r in self.scope.rules for b in r.bets) else []),
            para("The effect of removal enumerates the shoe again with one card of each rank taken out. The "
                 "infinite-deck column interpolates the exact counts of 1 to 7 decks, which are polynomials of "
                 "degree 6 in the number of decks, and takes their leading coefficients."),
            para(f"Made by baccarat {__version__}.", *again),
        ]

    def sign_off(self) -> list:
        """The approvals: who prepared the sheet and who approved it (the names given, else blank
        lines), each with a blank line to sign and date."""
        return [Heading(2, "Sign-off"), SignOff(self.scope.signers)]

    def per_rule_set(self, part) -> list:
        """The blocks ``part(rule set, slug)`` gives for each rule set, in order."""
        return [block for r in self.scope.rules for block in part(r, self.slugs[r.name])]
