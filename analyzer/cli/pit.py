"""Commands of the pit: history, roads, results, replay, protect and serve."""

from __future__ import annotations

import re
import shlex

import click

from .common import (
    listed, Named, checked_rules, CONTEXT, ENDED_BY_SIGNAL, LazyModule, RECEIVED, Stopped, cards, cli, domain_errors, emit,
    errors, ignore_stop_signals, narrowed, output_options, par, rendering, replays, rulefile, secrets,
    shoe_options, tables_kept, userfiles, views, web, writable, written,
)


db_option = click.option("--db", "db", metavar="URL", help="The pit's database: sqlite:///PATH (default: a file in "
                         "the user's data directory) or postgresql://USER@HOST/NAME.")


@cli.command(context_settings=CONTEXT)
@click.argument("table", required=False)
@click.option("--shoe", "shoe_number", type=click.IntRange(min=1), metavar="N", help="One shoe of TABLE: its events.")
@db_option
@output_options
@domain_errors
def history(table, shoe_number, db, fmt, exact):
    """The pit's tables, a TABLE's shoes, or one shoe's events (--shoe), as kept in the database:
    each with the cards left and the bets positive after it."""
    emit(views.pit.history(tables_kept.Store(db, create=False), table, shoe_number), fmt, exact)


@cli.command(context_settings=CONTEXT)
@click.argument("coups", metavar="COUPS", required=False)
@click.option("--table", metavar="NAME", help="The roads of a shoe kept in the database (--db) at this table instead of COUPS.")
@click.option("--shoe-number", "shoe_number", type=click.IntRange(min=1), metavar="N",
              help="The shoe of --table (default: its last).")
@db_option
@click.option("--rules", metavar="NAME|FILE", help="Rule set whose tableau dealt COUPS (default standard).")
@click.option("--decks", type=click.IntRange(1, 24), metavar="N", help="The decks each shoe of COUPS started with "
              "(default 8): a card dealt more often than they hold is refused, by its line.")
@click.option("--format", "fmt", default="board", show_default=True, type=Named(["board", "json"]),
              help="board: the roads drawn in the terminal (coloured where it allows); json: every shoe's roads as data.")
@domain_errors
def roads(coups, table, shoe_number, db, rules, decks, fmt):
    """The scoreboard of each shoe: bead plate, big road, big eye boy, small road, cockroach pig,
    the tallies and the Banker and Player ask.

    COUPS is a file of coups as `replay` reads it (several shoes allowed); --table draws a shoe kept
    in the pit's database. The rules each road follows, and where the public descriptions differ
    (ties before the first win, a run past six rows, a tail blocked by another), are in
    docs/guides/live-page.md."""
    if (coups is None) == (table is None):
        raise click.ClickException("give COUPS (a file of coups) or --table (a shoe kept in the database), one of them")
    if table is not None:
        if rules is not None or decks is not None:
            raise click.ClickException(f"a kept shoe is drawn by its table's own rules and decks: leave out "
                                       f"{'--rules' if rules is not None else '--decks'}")
        tableau, shoes = views.pit.kept_shoes(tables_kept.Store(db, create=False), table, shoe_number)
    else:
        if shoe_number is not None or db is not None:
            raise click.ClickException(f"{'--shoe-number' if shoe_number is not None else '--db'} goes with --table")
        shoes = replays.parse_coups(userfiles.read_text(coups, "coup file"), coups)
        tableau = checked_rules(rules or "standard").tableau
        try:  # each coup as replay checks it: one the tableau could not deal, or a card not left, by its line
            for _ in replays.steps(cards.Shoe.decks(decks or 8), shoes, tableau):
                pass
        except errors.BaccaratError as error:
            raise click.ClickException(f"{coups}, {error}" if str(error).startswith("line ") else f"{coups}: {error}")
    data = views.roads.shoes_roads(tableau, shoes)
    if fmt == "json":
        click.echo(rendering.to_json_text(data))
        return
    click.echo(views.roads.board(data, lambda text, colour: click.style(text, fg=colour, bold=True)))


@cli.command(context_settings=CONTEXT)
@click.argument("wagers", metavar="[WAGERS]", required=False)
@click.option("--shoe", "coups", metavar="COUPS", multiple=True, callback=listed,
              help="The file of the coups WAGERS were placed on, as replay reads it (several shoes allowed), instead of "
                   "the pit's database; repeat, or comma-separated, for several files: their shoes together are the table's.")
@click.option("--rules", metavar="NAME|FILE", help="With --shoe: the table's rule set (default standard).")
@click.option("--decks", metavar="N", help="With --shoe: the decks each shoe started with (default 8).")
@click.option("--table", "table_names", metavar="NAME", multiple=True, callback=listed,
              help="A table's results (repeat, or comma-separated, for several; default: every table with wagers kept); with --shoe, the "
                   "name of the table the coups were dealt at.")
@db_option
@click.option("--since", metavar="TIME", help="The wagers kept at this time or later (a date, or a date and time: UTC "
              "unless it gives its offset, such as 2026-11-26T22:00+01:00).")
@click.option("--until", metavar="TIME", help="The wagers kept before this time.")
@click.option("--bets", "by_bet", is_flag=True, help="Each table's results bet by bet, after the table of tables.")
@click.option("--report", "out", metavar="DIR", help="Also write the results as a report folder a manager files "
              "(report.html, report.pdf, report.json, a CSV per table).")
@click.option("--force", is_flag=True, help="Replace the --report folder if it exists (only a folder holding a report).")
@click.option("--wide", is_flag=True, help="Every column of the terminal table (win less theoretical win).")
@output_options
@domain_errors
def results(wagers, coups, rules, decks, table_names, db, since, until, by_bet, out, force, wide, fmt, exact):
    """What each table took over a period, from the wagers kept in the pit's database (--db), or
    from a file of WAGERS and the files of the coups they were placed on (--shoe), as `protect`
    reads them: wagers, coups, handle, the house's win, its theoretical win (the sum of amount x
    house edge at each wager's moment, exact), hold and theoretical hold, and how unusual the
    difference is: the standard deviation of the win given the wagers (each coup's bets taken
    together, by their exact joint outcome distribution) and z, the difference in standard
    deviations. JSON and CSV: every figure exact (the SD and z rounded; the variance exact)."""
    computing = LazyModule("analyzer.pit.results")
    wagers_module = LazyModule("analyzer.pit.wagers")
    since_at, until_at = wagers_module.period(since, "--since"), wagers_module.period(until, "--until")
    if since_at and until_at and until_at <= since_at:
        raise click.ClickException(f"--until ({until_at}) is not after --since ({since_at}): no time between them")
    if by_bet and fmt == "csv":
        raise click.ClickException("--bets adds a table a table, and a CSV file holds one: with --format csv, use "
                                   "--report DIR (a CSV file a table)")
    if bool(coups) != (wagers is not None):
        raise click.ClickException("give WAGERS and --shoe COUPS (files), or neither (the wagers kept in the pit's "
                                   "database, --db)")
    if coups and (db or since or until or len(table_names) > 1):
        raise click.ClickException(f"{'--db' if db else '--since' if since else '--until' if until else 'a second --table'} "
                                   "goes with the pit's database, not with files of wagers and coups")
    if not coups and (rules or decks):
        raise click.ClickException(f"kept shoes are worked out by their tables' own rules and decks: leave out "
                                   f"{'--rules' if rules else '--decks'}")
    if out is not None:
        par.check_destination(out, force)
    table_names = list(dict.fromkeys(table_names))  # a table named twice is one table
    if coups:
        done = results_of_files(wagers, coups, rules, decks, table_names[0] if table_names else "")
        store = None
    else:
        store = tables_kept.Store(db, create=False)
        for name in table_names:
            store.table_id(name)  # no such table: said before anything is read
        done = computing.store_results(store, list(table_names) or None, since_at, until_at)
    if not done:
        raise click.ClickException("no wager is kept" + (" in that period" if since or until else "")
                                   + " (wagers are kept by the pit: POST /api/tables/NAME/wagers, or the clerk's page)")
    view = views.results.results_table(done, since_at, until_at)
    if out is not None:
        words = ["baccarat", "results"] + ([wagers] if wagers else []) + [w for name in table_names for w in ("--table", name)]
        words += [w for path in coups for w in ("--shoe", path)]
        for option, value in (("--rules", rules), ("--decks", decks),
                              ("--db", store.url if db else None), ("--since", since), ("--until", until), ("--report", out)):
            if value is not None:
                words += [option, value]
        par.write(par.files(LazyModule("analyzer.report.results").build(done, since_at, until_at, shlex.join(words))),
                  out, force)
    emit(narrowed(view, wide, fmt), fmt, exact)
    if by_bet and fmt != "json":
        for r in done:
            if r.table:
                click.echo()
                emit(views.results.bets_table(r), fmt, exact)


def results_of_files(wagers: str, coups: tuple, rules: str | None, decks: str | None, table: str) -> list:
    """Each table's results from a file of wagers and the files of the coups they were placed on
    (one table's, as `protect` reads them): every shoe of the files as dealt whole. The table is
    named by the file of coups where there is one (else "table")."""
    from pathlib import Path

    unnamed = (Path(coups[0]).stem if len(coups) == 1 else "") or "table"
    placed, deals = wagers_and_deals_of_files(wagers, coups, rules, decks, table, unnamed)
    return LazyModule("analyzer.pit.results").results(placed, deals)


def wagers_and_deals_of_files(wagers: str, coups: tuple, rules: str | None, decks: str | None, table: str,
                              unnamed: str = "") -> tuple[list, dict]:
    """(wagers, table -> Deal) from a file of wagers and one table's files of coups (their shoes
    together, each file read a shoe at a time, only the shoes wagered on kept whole): the wagers
    of one table (``table``, else the one they name, else ``unnamed``), each given its table,
    and its shoe where the files hold one."""
    reviewing = LazyModule("analyzer.pit.protect")
    placed = reviewing.parse_wagers(userfiles.read_text(wagers, "wager file", userfiles.LARGE_FILE), wagers)
    names = sorted({w.table for w in placed if w.table})
    if len(names) > 1:
        raise click.ClickException(f"the wagers name {len(names)} tables ({', '.join(names[:3])}...), and one file of "
                                   "coups is one table's: give each table's wagers with its own coups")
    name = table or (names[0] if names else unnamed)
    if names and table and names != [table]:
        raise click.ClickException(f"the wagers name table {names[0]!r}, not {table!r}")
    files = [(path, replays.file_lines(path, "coup file")) for path in coups]  # each opened when its turn comes
    deals = LazyModule("analyzer.pit.deals").deals_from_files(files, checked_rules(rules or "standard"),
                                                               cards.make_shoe(decks), name, {w.shoe for w in placed})
    only = deals[name].shoes
    return [reviewing.with_defaults(w, name, only[0].name if len(only) == 1 else "") for w in placed], deals


@cli.command(context_settings=CONTEXT)
@click.argument("coups", metavar="COUPS", required=False)
@click.option("--rules", metavar="NAME|FILE", help="Rule set whose bets to replay (default standard; a kept shoe: its "
              "table's own).")
@click.option("--table", metavar="NAME", help="Replay a shoe kept in the database (--db) at this table instead of COUPS.")
@click.option("--shoe-number", "shoe_number", type=click.IntRange(min=1), metavar="N",
              help="The shoe of --table (default: its last), or the Nth shoe of COUPS (default: all of them).")
@db_option
@click.option("--xlsx", "xlsx_file", metavar="FILE", help="Also write the replay as a workbook: the coups, and every "
              "bet's exact EV before every coup.")
@click.option("--force", is_flag=True, help="Replace the --xlsx file if it exists.")
@shoe_options("Number of 52-card decks each shoe started with (default 8).")
@output_options
@domain_errors
def replay(coups, rules, table, shoe_number, db, xlsx_file, force, decks, remove, shoe_file, fmt, exact):
    """Every bet's exact EV before every coup of a shoe as dealt, each coup's result and the bets
    that were positive.

    COUPS, a file, has one coup a line, its cards in dealing order (Player, Banker, Player, Banker, then
    the third cards) separated by spaces or commas; 'burn CARDS +N' (cards turned up, N more
    face down), 'cut' (the cut card came out) and 'shoe ID' (a new shoe) on lines of their own;
    '#' begins a comment. A coup the tableau could not deal, or a card not left, is refused by
    its line. The JSON has a list 'coups', each with its 'cards' and its 'bets' as `now --format
    json` gives them before that coup. With --table (and --db), a shoe kept in the pit's
    database, by its table's own rules and decks: the figures the pages showed, computed again.
    """
    if (coups is None) == (table is None):
        raise click.ClickException("give COUPS (a file of coups) or --table (a shoe kept in the database), one of them")
    if table is not None:
        given = [flag for flag, value in (("--rules", rules), ("--decks", decks), ("--remove", remove), ("--shoe", shoe_file))
                 if value]
        if given:
            raise click.ClickException(f"a kept shoe is replayed by its table's own rules and decks: leave out {given[0]}")
        if xlsx_file is not None:
            writable(xlsx_file, None, (), force)
        view = views.pit.replay_kept(tables_kept.Store(db, create=False), table, shoe_number)
        written(xlsx_file, lambda: views.replay.workbook(view))
        emit(view, fmt, exact)
        return
    if db is not None:
        raise click.ClickException("--db goes with --table")
    if xlsx_file is not None:
        writable(xlsx_file, None, [p for p in (coups, shoe_file) if p and p != "-"], force)
    shoes = replayed_shoes(coups, shoe_number)
    shoe = cards.make_shoe(decks, remove, shoe_file)
    view = views.replay.replay(checked_rules(rules or "standard"), shoe, shoes)
    written(xlsx_file, lambda: views.replay.workbook(view))
    emit(view, fmt, exact)


REPLAY_COUPS = 1_000  # coups replayed at once: each with every bet's figures (about 170 KB of the catalogue's)


def replayed_shoes(coups: str, number: int | None) -> list:
    """The shoes of a coup file to replay, read a shoe at a time: all of them, or the ``number``-th;
    at most REPLAY_COUPS coups in all (a week's file: one shoe at a time, --shoe-number)."""
    shoes, held, read = [], 0, 0
    for shoe in replays.read_shoes(replays.file_lines(coups, "coup file"), coups):
        read += 1
        if number is not None and read != number:
            continue
        held += len(shoe.coups)
        if held > REPLAY_COUPS:
            raise click.ClickException(f"{coups} holds more than {REPLAY_COUPS:,} coups to replay: each is shown with every "
                                       "bet's figures; replay one shoe at a time (--shoe-number N)")
        shoes.append(shoe)
    if number is not None and not shoes:
        raise click.ClickException(f"--shoe-number {number}: {coups} holds {read} shoe{'s' * (read != 1)}")
    return shoes


@cli.command(context_settings=CONTEXT)
@click.argument("wagers", metavar="[WAGERS]", required=False)
@click.option("--shoe", "coups", metavar="COUPS", multiple=True, callback=listed,
              help="The file of the coups the wagers were placed on, as replay reads it (its 'shoe ID' lines name the "
                   "shoes the wagers' shoe column names); repeat, or comma-separated, for several files: their shoes "
                   "together are the table's.")
@click.option("--rules", metavar="NAME|FILE", help="The table's rule set (default standard; with --db: each table's own).")
@click.option("--decks", metavar="N", help="Number of 52-card decks each shoe started with (default 8).")
@click.option("--table", "table", metavar="NAME", help="The name of the table the coups were dealt at (default: the one "
              "the wagers name); with --db, the table to review (default: every table), or the table of the rows of "
              "WAGERS that name none.")
@db_option
@click.option("--since", metavar="TIME", help="With --db: the wagers kept at this time or later (a date, or a date "
              "and time, UTC).")
@click.option("--until", metavar="TIME", help="With --db: the wagers kept before this time.")
@click.option("--sessions", is_flag=True, help="One row a session (a player's wagers at a table in a shoe) instead of "
              "one a player.")
@click.option("--level", default="1%", show_default=True, metavar="CHANCE",
              help="Flag a player whose adjusted chance (his chance times the tests weighed) is at most this: a player "
                   "whose wagers ignore the cards is then flagged this often at most, where the tests' assumptions "
                   "hold (see the guide). A per cent or a decimal fraction.")
@click.option("--samples", default=2000, show_default=True, type=click.IntRange(100, 1_000_000),
              help="Random placements of a player's wagers where they are too many to count exactly.")
@click.option("--seed", default=0, show_default=True, type=click.IntRange(0, 2**32 - 1), help="Seed of those placements.")
@click.option("--group", default="7-9", show_default=True, metavar="RANKS",
              help="The ranks an information model asks the coup's first card to be of (edge sorting's group).")
@click.option("--report", "out", metavar="DIR", help="Also write the review as a report folder a surveillance "
              "director files: report.html, report.pdf, report.xlsx, report.json, CSV tables and SVG charts.")
@click.option("--force", is_flag=True, help="Replace the --report folder if it exists (only a folder holding a report), "
              "and the --xlsx file.")
@click.option("--xlsx", "xlsx_file", metavar="FILE", help="Also write every wager with its exact EV as a workbook.")
@click.option("--wide", is_flag=True, help="Every column of the terminal table: the share wagered at positive EV and "
              "the amount added per +1% of EV beside the rest.")
@output_options
@domain_errors
def protect(wagers, coups, rules, decks, table, db, since, until, sessions, level, samples, seed, group, out, force,
            xlsx_file, wide, fmt, exact):
    """Who played with an advantage: each player's wagers reviewed against the exact EV each had
    when it was placed.

    WAGERS, a CSV file with a header line (or a JSON list of records), has a wager a line: its
    coup (its number in the shoe, from 1), player, bet (an id of the rules) and amount, and its
    table, shoe and seat where there are several. The coups are files (--shoe, as `replay` reads
    them, a shoe at a time) or the shoes kept in the pit's database (--db: each wager's table and
    shoe, by number); with --db and no WAGERS, the wagers kept there (--since, --until for a period). Per player:
    amount wagered, the house's theoretical and realized win, the share wagered at positive EV,
    how wager size follows EV (correlation, and the amount added per +1% of EV), the chance that
    his wagers placed at random coups of the same shoes would have expected as much, and for a
    flagged player the model his wagers follow: counting (the shoe before the coup) or
    information (something of the coup's first card). JSON: every figure exact.
    """
    reviewing = LazyModule("analyzer.pit.protect")
    chance = reviewing.parse_level(level)
    check_protect(wagers, coups, rules, decks, table, db, since, until, group, out, force, xlsx_file)
    if db is not None:
        store = tables_kept.Store(db, create=False)
        if table:
            store.table_id(table)  # no such table: said before anything is read
        if wagers:
            placed = reviewing.parse_wagers(userfiles.read_text(wagers, "wager file", userfiles.LARGE_FILE), wagers,
                                            table=table or "")
            deals = reviewing.deals_from_store(store, sorted({w.table for w in placed}),
                                               {(w.table, w.shoe) for w in placed})
        else:  # the wagers kept: a part of the players at a time (a month of them is never all in memory)
            placed = deals = None
            kept = sum(count for _, count in store.wager_players([table] if table else None, reviewing.period(
                since, "--since"), reviewing.period(until, "--until")))
            if xlsx_file is not None and kept > reviewing.PART_WAGERS:
                raise click.ClickException(f"--xlsx writes every wager, and {kept:,} wagers are reviewed a part at a "
                                           f"time (more than {reviewing.PART_WAGERS:,}): ask for one table, or a "
                                           "shorter period (--since, --until)")
    else:
        placed, deals = wagers_and_deals_of_files(wagers, coups, rules, decks, table)
    if placed is None:
        review = reviewing.review_store(store, [table] if table else None, since, until, chance, samples, seed, group)
    else:
        review = reviewing.review(placed, deals, chance, samples, seed, group)
    view = views.protect.sessions_table(review) if sessions else views.protect.protect(review, group)
    workbook = views.protect.workbook(review) if xlsx_file is not None else None  # made before anything is written
    if out is not None:
        command = shlex.join(protect_words(wagers, coups, rules, decks, table, store.url if db else None, level, samples,
                                           seed, group, out))
        par.write(par.files(LazyModule("analyzer.report.protect").build(review, group, command)), out, force)
    written(xlsx_file, lambda: workbook)
    emit(narrowed(view, wide, fmt), fmt, exact)


def check_protect(wagers, coups: tuple, rules, decks, table, db, since, until, group, out, force, xlsx_file) -> None:
    """protect's options that go together, and its names, period and files (``coups``: the files
    of coups, none with --db), checked before anything is read."""
    reviewing = LazyModule("analyzer.pit.protect")
    if (not coups) == (db is None):
        raise click.ClickException("give --shoe COUPS (a file of the coups) or --db (the shoes kept in the pit's "
                                   "database), one of them")
    if wagers is None and db is None:
        raise click.ClickException("give WAGERS, a file of wagers (or --db: the wagers kept in the pit's database)")
    if db is not None and (rules or decks):
        raise click.ClickException(f"kept shoes are reviewed by their tables' own rules and decks: leave out "
                                   f"{'--rules' if rules else '--decks'}")
    if (since or until) and (db is None or wagers):
        raise click.ClickException(f"{'--since' if since else '--until'} picks the wagers kept in the database (--db, "
                                   "without WAGERS)")
    reviewing.period(since, "--since"), reviewing.period(until, "--until")
    reviewing.parse_group(group)
    if out is not None:
        par.check_destination(out, force)
    if table:
        reviewing.name_of(table, "--table", "the table's name", "")  # a name as the files' names are held to
    if xlsx_file is not None:
        writable(xlsx_file, out, [p for p in (wagers, *coups) if p], force)  # written over none of the files read


def protect_words(wagers, coups: tuple, rules, decks, table, db, level, samples, seed, group, out) -> list[str]:
    """The command that made a protection report, as its report prints it."""
    words = ["baccarat", "protect"] + ([wagers] if wagers else []) + [w for path in coups for w in ("--shoe", path)]
    for option, value in (("--rules", rules), ("--decks", decks), ("--table", table),
                          ("--db", db), ("--level", level), ("--samples", str(samples)),
                          ("--seed", str(seed)), ("--group", group), ("--report", out)):
        if value is not None:
            words += [option, value]
    return words


LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")


def finite(ctx, param, value: float) -> float:
    if value != value:  # NaN passes a FloatRange
        raise click.BadParameter("not a number", ctx, param)
    return value


@cli.command(context_settings=CONTEXT)
@click.option("--host", default="127.0.0.1", show_default=True, metavar="ADDRESS",
              help="The address to listen on. The default serves this machine alone; another (0.0.0.0: every network "
                   "this machine is on) lets others reach the page, deliberately.")
@click.option("--port", default=0, show_default=True, type=click.IntRange(0, 65535),
              help="The port to listen on (0: a free one, printed when the server starts).")
@click.option("--rate", default=20.0, show_default=True, type=click.FloatRange(min=0.1, max=100_000), callback=finite,
              help="Requests a second one client may make, on average (bursts of three seconds' worth).")
@click.option("--token", metavar="TOKEN", help="An access token the page and the API require (8 to 128 letters, digits, "
              "- or _). Listening beyond this machine always requires one: without --token, one is made and printed.")
@click.option("--workers", default=0, show_default=True, type=click.IntRange(0, 64),
              help="Worker processes that compute the answers (0: one per core of this machine).")
@click.option("--time-limit", default=10.0, show_default=True, type=click.FloatRange(min=0.1, max=3600), callback=finite,
              metavar="SECONDS", help="The longest a request may compute: it is then stopped, its worker replaced, and "
                                      "the client answered 503.")
@click.option("--memory", default=1024, show_default=True, type=click.IntRange(512, 1 << 20), metavar="MB",
              help="The memory (address space) each worker may have: a request that needs more is answered 503 and "
                   "its worker replaced.")
@click.option("--write-token", metavar="TOKEN", help="The token that may write to the pit's tables (a clerk's page, a "
              "card-reading shoe's feed): 8 to 128 letters, digits, - or _. Beyond this machine one is made and printed "
              "where none is given; the access token then only watches.")
@click.option("--allowed-host", "allowed_hosts", multiple=True, callback=listed, metavar="NAME",
              help="A name this server answers to besides the address it listens on (a DNS name of this machine, a "
                   "proxy's); repeat, or comma-separated, for more. A request for any other host is refused (421): a page that reached the "
                   "server by a name it does not own cannot use it.")
@db_option
@click.option("--screens", default=200, show_default=True, type=click.IntRange(1, 2000),
              help="Screens that may follow the pit's tables at once (each holds a connection and a thread).")
@domain_errors
def serve(host, port, rate, token, workers, time_limit, memory, write_token, allowed_hosts, db, screens):
    """A web page on this machine: the shoe in play and a side-bet designer.

    Track a shoe card by card and see every bet's exact edge after each card; edit a side bet's
    pay table and see its return table and house edge as you type. The page calls the same
    library as the command line (a JSON API: see docs/reference/api.md). The answers are computed by worker
    processes, one per core, each request within a time limit and each worker within a memory
    limit. Ctrl-C or SIGTERM stops the server and its workers.
    """
    if not host.strip():
        raise click.ClickException("--host needs an address, such as 127.0.0.1 (this machine) or 0.0.0.0 (every network)")
    if token is not None and not re.fullmatch(r"[A-Za-z0-9_-]{8,128}", token):
        raise click.ClickException("--token: 8 to 128 letters, digits, - or _ (it goes into the page's address)")
    for given, flag in ((token, "--token"), (write_token, "--write-token")):
        if given is not None and not re.fullmatch(r"[A-Za-z0-9_-]{8,128}", given):
            raise click.ClickException(f"{flag}: 8 to 128 letters, digits, - or _ (it goes into the page's address)")
    for name in allowed_hosts:
        if not (re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9.-]{0,252}", name) or web.app.is_address(name.strip("[]"))):
            raise click.ClickException(f"--allowed-host: a host name or address, such as pit.casino.example (got {name[:60]!r})")
    if token is None and host not in LOCAL_HOSTS:
        token = secrets.token_urlsafe(18)
    if write_token is None and host not in LOCAL_HOSTS:
        write_token = secrets.token_urlsafe(18)
    limits = web.api.Limits(rate=rate, burst=max(1, int(3 * rate)))
    try:
        server = web.serving.Server(host, port, limits, token, web.serving.Settings(workers, time_limit, memory * 2**20),
                                    db=db, write_token=write_token, screens=screens,
                                    allowed_hosts=tuple(allowed_hosts))
    except OSError as exc:
        raise click.ClickException(f"cannot listen on {host} port {port}: {exc.strerror or exc}") from None
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"Serving on http://{shown}:{server.port}/{'?token=' + token if token else ''} (Ctrl-C to stop)")
    if write_token is not None:
        click.echo(f"Writing to tables: http://{shown}:{server.port}/?token={write_token} (the clerk's address; "
                   "Authorization: Bearer with this token for a feed)")
    if host not in LOCAL_HOSTS:
        click.echo(f"Note: listening on {host}: whoever can reach this machine and has the address with its token can "
                   "use the page; the traffic is not encrypted (put a TLS proxy in front: see docs/guides/live-page.md)", err=True)
    try:
        if RECEIVED:  # a stop signal whose Stopped Python had to drop (in a finaliser) while the server started
            raise Stopped(RECEIVED[0])
        server.run()  # until a stop signal: the way a server is meant to end, not a failure
        ignore_stop_signals()  # a second Ctrl-C while it closes, or while Python exits, changes nothing
        ENDED_BY_SIGNAL.append(True)
        RECEIVED.clear()
        click.echo("Stopped.")
    finally:
        server.close()

