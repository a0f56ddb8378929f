"""Each table's results over a period as a report a table-games manager files (report.html,
report.pdf, report.xlsx, report.json, a CSV per table): the tables side by side, then each
table bet by bet, and how the figures are made. The same blocks and renderers as a par sheet
(document.py)."""

from __future__ import annotations

from .. import __version__
from ..pit.results import Results
from ..views import results as views
from . import GENERATOR
from .document import Code, Heading, Report, Table, Text, para, unique_slugs


def build(results: list[Results], since: str | None, until: str | None, command: str | None = None) -> Report:
    """The results as a Report: the table of tables, then a section a table."""
    period = views.period_text(since, until)
    tables = [r for r in results if r.table]
    title = f"Table results: {len(tables)} table{'s' * (len(tables) != 1)}, {period}"
    overview = views.results_table(results, since, until)
    blocks = [Heading(1, title), Table("tables", overview, labels=("table",))]
    for r, slug in zip(tables, unique_slugs([r.table for r in tables])):
        blocks += [Heading(2, f"Table {r.table}"),
                   para(f"Rules {r.rules}: {plural(r.wagers, 'wager')} on {plural(r.coups, 'coup')}."
                        + (f" {plural(r.pending, 'wager')} on the coming coup set aside." if r.pending else "")),
                   Table(f"bets-{slug}", views.bets_table(r), labels=("bet",))]
    blocks += [Heading(2, "How the figures are made"), para(METHOD)]
    if command:
        blocks += [Heading(2, "Made by"), Text((Code(command),))]
    front = (("Report", title), ("Period", period), ("Tables", ", ".join(r.table for r in tables)),
             ("Tool", f"baccarat {__version__}")) + ((("Command", command),) if command else ())
    data = {"generator": GENERATOR, "version": __version__, "kind": "Table results", "command": command,
            "results": overview.data}
    return Report(title, tuple(blocks), data, front)


def plural(n: int, word: str) -> str:
    """
    >>> plural(1, "wager"), plural(1_200, "coup")
    ('1 wager', '1,200 coups')
    """
    return f"{n:,} {word}{'s' * (n != 1)}"


METHOD = ("Win is the house's: what the wagers lost less what they were paid, a push nothing. The theoretical win "
          "is the sum of amount x house edge of each wager's bet on the shoe before its coup, every card dealt "
          "before it taken out (exact). Hold is win / handle. The SD is the standard deviation of the house's win "
          "given the wagers: each coup's wagers taken together - a Banker and a Player wager on one coup largely "
          "cancel - by their exact joint distribution on the shoe before the coup, the coups' variances summed. "
          "The coups need not be independent for that sum: win less theoretical win is a sum of differences each "
          "of mean zero given what was known before its coup, and such differences are uncorrelated. z is win "
          "less theoretical win in SDs; reading it as a normal deviate (|z| >= 2 about one period in 22, >= 3 one "
          "in 370) is the central-limit approximation, good over hundreds of coups, rough over a few coups of a "
          "bet paying 25 to 1 or more. Wagers on a coup not dealt yet are left out; a voided coup's wagers ride on "
          "the coup dealt in its place.")
