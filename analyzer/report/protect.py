"""A game-protection review as a report a surveillance director files (report.html, report.pdf,
report.xlsx, report.json, a CSV per table and an SVG per chart): the players, then for each
flagged player his sessions, the models of his wagers, wager size against EV, his cumulative
theoretical and realized win, and the coups behind the flag. The same blocks and renderers as a
par sheet (document.py)."""

from __future__ import annotations

from .. import __version__
from ..pit.protect import Review, model_short, model_title
from ..render import percent
from ..views import protect as views
from . import GENERATOR, charts
from .document import Chart, Code, Heading, Report, Table, Text, para, unique_slugs

MAX_PLAYERS = 40  # flagged players given a section of their own (the table lists every player)


def build(review: Review, group: str, command: str | None = None) -> Report:
    """The review as a Report: every player in one table, each flagged player in a section."""
    players = views.protect(review, group)
    flagged = [r for r in review.players if r.flagged]
    title = f"Game protection review: {len(review.players)} players, {len(flagged)} flagged"
    blocks = [Heading(1, title), Table("players", players, labels=("player",))]
    if not flagged:
        blocks.append(para(f"No player was flagged at the {percent(review.level, 2)} level."))
    slugs = unique_slugs([r.player for r in flagged[:MAX_PLAYERS]])
    for r, slug in zip(flagged, slugs):
        blocks += player_section(r, slug, group)
    if len(flagged) > MAX_PLAYERS:
        blocks.append(para(f"{len(flagged) - MAX_PLAYERS} more flagged players are in the players table; review them "
                           "with a smaller set of wagers."))
    blocks += [Heading(2, "How to read this review"), para(method(review, group))]
    if command:
        blocks += [Heading(2, "Made by"), Text((Code(command),))]
    front = (("Review", title), ("Tables", ", ".join(f"{t or 'the coups’ table'} (rules {rules})"
                                                    for t, rules in review.tables.items())),
             ("Level", percent(review.level, 2)), ("Tool", f"baccarat {__version__}")) + (
        (("Command", command),) if command else ())
    data = {"generator": GENERATOR, "version": __version__, "kind": "Game protection review", "command": command,
            "review": players.data}
    return Report(title, tuple(blocks), data, front)


def player_section(r, slug: str, group: str) -> list:
    fitted = next(m for m in r.models if m.name == r.fits)
    amounts, evs = fitted.points
    theoretical, realized = views.cumulative(r)
    scatter_title = (f"{r.player}: wager size against the EV before the coup" if r.fits == "counting" else
                     f"{r.player}: wager size against what the first card tells ({model_short(r.fits, group)})")
    win_title = f"{r.player}: the house's cumulative win"
    return [
        Heading(2, f"Player {r.player}"),
        para(f"Flagged: his wagers follow {model_title(r.fits, group)}; the correlation of their size with "
             f"{'it' if r.fits == 'counting' else 'what only that model knows'} is "
             f"{correlation_text(fitted.correlation if r.fits == 'counting' else fitted.beyond)}. {r.wagered:,} wagers; "
             f"the house's theoretical win {float(r.theoretical):,.2f}, its realized win {float(r.realized):,.2f}."),
        Table(f"sessions-{slug}", views.sessions_view(r), labels=("table", "shoe", "coups")),
        Table(f"models-{slug}", views.models_view(r, group), labels=("model",)),
        Chart(f"sizes-{slug}", scatter_title, charts.wager_sizes(evs, amounts, scatter_title, (
            "EV of the bet at that coup (% of a unit)" if r.fits == "counting" else
            "what the first card adds to the bet's EV, on a full shoe (% of a unit)"))),
        Chart(f"win-{slug}", win_title, charts.cumulative_win(theoretical, realized, win_title)),
        Table(f"coups-{slug}", views.coups_view(r, group), labels=("table", "shoe", "coup")),
    ]


def correlation_text(value) -> str:
    return "-" if value is None else f"{value:.3f}"


def method(review: Review, group: str) -> str:
    return (f"Each wager's EV is exact: every bet's figure from the shoe before its coup, less every card seen "
            f"(the figure `baccarat now` gives at that moment). Win is the house's: theoretical, the sum of amount "
            f"x house edge at each wager; realized, what the wagers were paid. A player's chance is that of the same "
            f"wagers, on shoes whose cards fell otherwise, expecting as much as his did. For counting, his wagers in "
            f"each shoe are kept as they were and played on shoes dealt by the simulator in its place: his pattern "
            f"of play stays, only the cards under it change. An information model (the EV given the coup's "
            f"first card, its colour, or whether it is {group}) is tested on what only it knows - the EV given what "
            f"it sees of the first card less the EV, on the table's full shoe, less its expectation given the cards "
            f"left - with his wagers at one coup (a bundle) each placed at a random coup of his session. Counted "
            f"exactly where the placements are few, else from {review.samples:,} random placements (then with its "
            f"standard error). Each chance is shown times the tests it is weighed against - counting's test has half "
            f"the level, the information models share the other half - and a player is flagged where it is at most "
            f"the level: one whose wagers ignore the cards is then flagged with a chance of at most the level, where "
            f"the tests' assumption holds (that the cards had no say in where his wagers fell). Counting means he "
            f"follows the shoe; information means he follows something of the coup's own cards, which no count "
            f"gives - look on video for a flashed or marked card, or sorted card backs.")
