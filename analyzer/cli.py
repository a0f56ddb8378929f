"""The `baccarat` command line: parse options, call the core, render. No arithmetic here."""

from __future__ import annotations

import functools
import os
import re
import shlex
import signal
import sys
import textwrap
import threading
from contextlib import contextmanager, nullcontext, suppress

import click

from . import BUILT_IN, __version__
from .base import errors
from .base.errors import error_line
from .base.lazy import LazyModule
from . import report as par  # the package alone: what a report needs is loaded when it is made
from .base.signals import STOP_SIGNALS


# The core, each module imported at its first use (see LazyModule): the import graph of the CLI.
ap = LazyModule("analyzer.questions.advantage")
batches = LazyModule("analyzer.routes.batch")
cards = LazyModule("analyzer.game.cards")
checks = LazyModule("analyzer.questions.check")
chemin_game = LazyModule("analyzer.questions.chemin")
counting = LazyModule("analyzer.bets.counting")
known_cards = LazyModule("analyzer.game.knowledge")
plans_kept = LazyModule("analyzer.routes.plancache")
replays = LazyModule("analyzer.pit.replay")
tables_kept = LazyModule("analyzer.pit.store")
rendering = LazyModule("analyzer.render")
rulefile = LazyModule("analyzer.bets.rulefile")
shoes_dealt = LazyModule("analyzer.questions.simulate")
shoe_runs = LazyModule("analyzer.questions.runs")
secrets = LazyModule("secrets")  # a token only where the server listens beyond this machine
tableaus = LazyModule("analyzer.game.tableau")
userfiles = LazyModule("analyzer.base.userfiles")
views = LazyModule("analyzer.views")  # a package: views.edge is the module analyzer.views.edge
web = LazyModule("analyzer.web")  # a package: web.app, web.api

CONTEXT = {"help_option_names": ["-h", "--help"]}


class Stopped(BaseException):
    """The command was stopped by a signal (Ctrl-C, SIGTERM, SIGHUP): not an ``Exception``, so
    that nothing on the way up swallows it, and not a KeyboardInterrupt, so that click leaves it
    to :meth:`Baccarat.main`. The exit status is 128 + the signal's number, as a shell's."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


def domain_errors(command):
    """Turn the core's BaccaratError into click's ``Error: ...`` with exit status 1, the inputs
    it names called by this command's flags, and Ctrl-C into :class:`Stopped`."""

    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except errors.BaccaratError as exc:
            raise click.ClickException(exc.naming(flags(click.get_current_context().command))) from None
        except KeyboardInterrupt:
            raise Stopped(signal.SIGINT) from None

    return wrapper


def flags(command: click.Command) -> dict:
    """Each option's parameter name -> its long flag: ``{"shoe_file": "--shoe"}``."""
    return {p.name: max(p.opts, key=len) for p in command.params if isinstance(p, click.Option)}


RECEIVED = []  # the stop signals received while a command runs, in order
EARLY_SIGNALS = []  # those received before (see __main__), if any
ENDED_BY_SIGNAL = []  # a command that a stop signal ends as it should (serve): its signals stay ignored to the exit


@contextmanager
def stop_signals():
    """While a command runs, Ctrl-C, SIGTERM and SIGHUP stop it: Stopped is raised, the code on
    the way up (worker pools, staging folders: their clean-up holds signals) cleans up, and the
    command exits with one line. A signal is also remembered, so that a Stopped that Python had
    to drop (raised inside an import, say) still ends the command as stopped; and a second signal
    raises again, so the command can always be stopped."""

    def stop(signum, frame):
        RECEIVED.append(signum)
        raise Stopped(signum)

    def unraisable(report):  # a Stopped that Python could not raise (in a finaliser): remembered, not printed
        if not isinstance(report.exc_value, Stopped):
            hook(report)

    RECEIVED[:] = EARLY_SIGNALS
    in_main = threading.current_thread() is threading.main_thread()  # the only thread that may set handlers
    previous = {s: signal.signal(s, stop) for s in STOP_SIGNALS if in_main}
    hook, sys.unraisablehook = sys.unraisablehook, unraisable
    try:
        if RECEIVED:
            raise Stopped(RECEIVED[0])
        yield
    except BaseException:
        if not RECEIVED:
            restore(previous)
            sys.unraisablehook = hook
        raise
    if not ENDED_BY_SIGNAL:  # else a second Ctrl-C while Python shuts down would still kill the process
        restore(previous)
    sys.unraisablehook = hook
    if RECEIVED:  # the command finished, but a stop signal came and its Stopped was lost on the way
        raise Stopped(RECEIVED[0])


def restore(handlers: dict):
    for s, handler in handlers.items():
        signal.signal(s, handler)


def ignore_stop_signals():
    """The command is ending: a further Ctrl-C must not interrupt its last line."""
    if threading.current_thread() is threading.main_thread():
        for s in STOP_SIGNALS:
            signal.signal(s, signal.SIG_IGN)


class Baccarat(click.Group):
    """The command group, with one way out for every failure: ``Error: ...`` on one line and
    exit status 1 for bad input or a failed run; click's own usage errors (usage line, hint,
    error; exit status 2); 128 + the signal's number when stopped by a signal; and, for a defect
    of ours, one line naming it instead of a traceback (BACCARAT_DEBUG=1 shows the traceback)."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        try:
            self.answered(args, prog_name, complete_var, **extra)
        except Stopped as stopped:  # a second signal came while the first (or an error) was being answered
            ignore_stop_signals()
            signum = RECEIVED[0] if RECEIVED else stopped.signum
            fail(STOP_SIGNALS[signum], 128 + signum)

    def answered(self, args, prog_name, complete_var, **extra):
        """The command run, and every way it can end turned into its exit."""
        try:
            with stop_signals():
                status = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
            sys.exit(status if isinstance(status, int) else 0)  # click returns an Exit's status (--help)
        except click.exceptions.UsageError as exc:
            if not isinstance(exc, getattr(click.exceptions, "NoArgsIsHelpError", ())):  # the help, whole, as asked
                exc.message = error_line(exc.message)
            exc.show()
            sys.exit(exc.exit_code)
        except click.ClickException as exc:
            fail(error_line(exc.format_message()))
        except click.exceptions.Abort:
            fail("aborted")
        except Stopped as stopped:
            ignore_stop_signals()
            signum = RECEIVED[0] if RECEIVED else stopped.signum
            fail(STOP_SIGNALS[signum], 128 + signum)
        except RecursionError:
            fail("input nested too deeply")
        except MemoryError:
            fail("out of memory")
        except UnicodeEncodeError as exc:
            fail(f"the output has a character ({exc.object[exc.start:exc.end]!r}) that {exc.encoding} cannot "
                 "encode: set PYTHONIOENCODING=utf-8")
        except OSError as exc:  # writing the output: a full disk, a closed pipe
            fail(error_line(f"cannot write the output: {exc.strerror or exc}"))
        except Exception as exc:  # a defect of ours: still one line, and how to see more
            if RECEIVED:  # a Stopped turned into another error on its way up (inside an import, say)
                ignore_stop_signals()
                fail(STOP_SIGNALS[RECEIVED[0]], 128 + RECEIVED[0])
            if os.environ.get("BACCARAT_DEBUG"):
                raise
            fail(error_line(f"internal error, please report it: {type(exc).__name__}: {exc} "
                          "(BACCARAT_DEBUG=1 shows the traceback)"))


def fail(message: str, status: int = 1):
    click.echo(f"Error: {message}", err=True)
    sys.exit(status)


def shoe_options(decks_help: str):
    def decorate(command):
        for option in reversed([
            click.option("--decks", "decks", metavar="N", help=decks_help),
            click.option("--remove", default="", metavar="CARDS",
                         help="Cards to take out, comma-separated: a rank (A, 2-9, T or 10, J, Q, K) takes one "
                              "from the suit with most left; rank+suit (Ah, 10s, Td) takes that card."),
            click.option("--shoe", "shoe_file", metavar="FILE", help="A TOML or JSON shoe file: counts per rank "
                         "(table 'ranks') or per card (table 'cards'). Replaces --decks."),
        ]):
            command = option(command)
        return command

    return decorate


known_option = click.option(
    "--known", "known", multiple=True, metavar="POS=CARDS",
    help="What is known of a card of the coming coup, by its place in dealing order (1 Player, 2 Banker, 3 Player, "
         "4 Banker, 5 and 6 the fifth and sixth cards out): a rank (8, K), a card (Ah), ranks or point values "
         "(6,7,8,9 or 6-9; 0 = T, J, Q, K), a colour (red, black) or a suit (hearts). Repeat for several places; "
         "results are conditional on it.")


def check_format(ctx, param, fmt: str) -> str:
    """Refuse an unknown --format before any work is done."""
    fmt = MARKDOWN.get(fmt.lower(), fmt) if isinstance(fmt, str) else fmt
    if fmt != "simple" and fmt not in rendering.formats():
        raise click.ClickException(f"unknown format {fmt!r} (choose from json, csv, markdown, "
                                   f"{', '.join(rendering.formats()[:-2])})")
    return fmt


MARKDOWN = {"markdown": "github", "md": "github"}  # a Markdown table: GitHub's pipe tables


format_option = click.option("--format", "fmt", default="simple", metavar="FORMAT", show_default=True, callback=check_format,
                             help="Any tabulate format (simple, github, grid, pipe, html, latex, ...), markdown (or md: a GitHub table), "
                                  "json or csv.")


def output_options(command):
    for option in reversed([
        format_option,
        click.option("--exact/--decimal", default=False,
                     help="Add the exact fraction beside each decimal (JSON is always exact)."),
    ]):
        command = option(command)
    return command


def emit(view, fmt: str, show_exact: bool):
    click.echo(rendering.render(view, fmt, show_exact))


wide_option = click.option("--wide", is_flag=True, help="Every column of the terminal table: EV, edge per resolved bet, "
                           "SD and hits 1 in beside the rest (wider than 100 columns; the other formats always have them).")


TERMINAL = 100  # columns: what the terminal table of edge and now aims to fit


def narrowed(view, wide: bool, fmt: str):
    """The view as a terminal shows it (the simple format): without its wide columns unless
    asked, saying how to see them, its title wrapped to TERMINAL columns. Other formats are
    documents or data: they keep every column."""
    dropped = [c.header for c in view.columns if c.wide]
    if wide or not dropped or fmt != "simple":
        return view
    view = rendering.narrow(view)
    lines = [textwrap.fill(line, TERMINAL, break_long_words=False, break_on_hyphens=False)
             for line in view.title.splitlines()]
    view.title = "\n".join(lines + ([f"{', '.join(dropped)}: add --wide"] if view.rows else []))
    return view


EDGE_VIEWS = ("edge", "returns", "volatility", "ranges")


@click.group("baccarat", cls=Baccarat, context_settings=CONTEXT)
@click.version_option(__version__, "--version", prog_name="baccarat")
def cli():
    """Exact probabilities and house edges for mini baccarat / punto banco.

    Every figure is computed exactly from the shoe, with no simulation and no rounding until
    it is printed.
    """


@cli.command(context_settings=CONTEXT)
@shoe_options("Number of 52-card decks in the shoe (default 8).")
@known_option
@output_options
@domain_errors
def odds(decks, remove, shoe_file, known, fmt, exact):
    """Probabilities of each outcome of one coup, with exact combination counts.

    Counts are ordered 6-card sequences, N(N-1)...(N-5) for an N-card shoe (with --known, those
    that agree with the known cards).
    """
    knowledge = known_cards.Knowledge.parse(known)
    shoe = cards.make_shoe(decks, remove, shoe_file)
    emit(views.outcomes.odds(shoe, knowledge=knowledge), fmt, exact)


@cli.command(context_settings=CONTEXT)
@click.option("--rules", default="standard", show_default=True, metavar="NAME|FILE",
              help=f"Rule set: {', '.join(BUILT_IN)}, or a .toml rule file.")
@click.option("--view", "view", type=click.Choice(EDGE_VIEWS), default="edge", show_default=True,
              help="edge: the house-edge table; returns: each bet's return table (pay lines, combinations, "
                   "probability, return); volatility: SD, volatility index, skewness and hold; ranges: the player's "
                   "result after 100 to 1,000,000 hands at 90, 95 and 99%.")
@click.option("--bets", "bet_ids", default="", metavar="IDS", help="Only these bets, comma-separated (default: all).")
@shoe_options("Number of 52-card decks in the shoe (default 8).")
@known_option
@wide_option
@output_options
@domain_errors
def edge(rules, view, bet_ids, decks, remove, shoe_file, known, wide, fmt, exact):
    """House-edge table of every bet of a rule set, or their return tables, volatility or ranges."""
    knowledge = known_cards.Knowledge.parse(known)
    rule_set = rulefile.get_rules(rules)
    if bet_ids:
        ids = [b.strip() for b in bet_ids.split(",") if b.strip()]
        if not ids:
            raise click.ClickException("--bets: no bet id given")
        rule_set = rule_set.only(ids)
    shoe = cards.make_shoe(decks, remove, shoe_file)
    if rules not in BUILT_IN:  # a rule file: what `rules check` finds, on stderr (the built-ins are tested to have none)
        for finding in checks.check_rules(rule_set):
            click.echo(finding.line(), err=True)
    if view == "edge":
        emit(narrowed(views.edge.edge(rule_set, shoe, knowledge), wide, fmt), fmt, exact)
    elif view == "returns":
        emit(views.parsheet.returns(rule_set, shoe, knowledge), fmt, exact)
    else:
        spread, ranges = views.parsheet.volatility(rule_set, shoe, knowledge)
        emit(spread if view == "volatility" else ranges, fmt, exact)


@cli.command(context_settings=CONTEXT)
@click.option("--rules", "rules", multiple=True, metavar="NAME|FILE",
              help=f"A rule set to compare; repeat for several (default standard): {', '.join(BUILT_IN)}, "
                   "or a .toml rule file (its tableau may differ).")
@shoe_options("Deck counts to compare, comma-separated, e.g. 1,2,4,6,8 (default 8).")
@click.option("--bets", "bet_ids", default="", metavar="IDS",
              help="Compare only these bets, comma-separated (default: every bet); each rule set shows those it has.")
@known_option
@output_options
@domain_errors
def compare(rules, decks, remove, shoe_file, bet_ids, known, fmt, exact):
    """House edge of each bet under several rule sets and/or deck counts, side by side."""
    knowledge = known_cards.Knowledge.parse(known)
    rule_sets = [rulefile.get_rules(name) for name in rules or ["standard"]]
    if bet_ids.strip():
        wanted = [b.strip() for b in bet_ids.split(",") if b.strip()]
        for bet_id in wanted:  # a bet no rule set has: refused, by the first rule set's words
            if not any(bet_id in {b.id for b in r.bets} for r in rule_sets):
                rule_sets[0].bet(bet_id)
        rule_sets = [r.only([b for b in wanted if b in {x.id for x in r.bets}]) for r in rule_sets]
    deck_counts = [None] if decks is None else cards.parse_deck_list(decks)
    variants = [
        (label_of(r.name, d, len(rule_sets) > 1, len(deck_counts) > 1), r, cards.make_shoe(d, remove, shoe_file))
        for r in rule_sets
        for d in deck_counts
    ]
    emit(views.edge.compare(variants, knowledge=knowledge), fmt, exact)


def label_of(rules_name: str, decks, by_rules: bool, by_decks: bool) -> str:
    """A column heading naming what varies: the rule set, the deck count or both."""
    deck_text = views.edge.deck_label(decks) if decks else "shoe"
    if by_rules and by_decks:
        return f"{rules_name}, {deck_text}"
    return deck_text if by_decks else rules_name


@cli.group(context_settings=CONTEXT)
def rules():
    """The built-in rule sets, and what a rule set holds."""


@rules.command("list", context_settings=CONTEXT)
@output_options
@domain_errors
def rules_list(fmt, exact):
    """List the built-in rule sets."""
    view = views.rules.rules_list()
    view.title += " (use a name or a .toml file with --rules)"
    emit(view, fmt, exact)


@rules.command("show", context_settings=CONTEXT)
@click.argument("name")
@output_options
@domain_errors
def rules_show(name, fmt, exact):
    """Show a rule set's bets, pay tables and drawing tableau (NAME: built-in name or .toml file)."""
    emit(views.rules.rules_show(rulefile.get_rules(name)), fmt, exact)


@rules.command("check", context_settings=CONTEXT)
@click.argument("name")
@output_options
@domain_errors
def rules_check(name, fmt, exact):
    """Check a rule file (NAME: a .toml file or built-in name): every pay line that can never settle
    on any shoe, every line shadowed by earlier lines, every bet that settles on nothing, then each
    bet's return table on 8 decks. Exit status 1 when it finds an error, 0 with warnings only."""
    view, failed = views.rules.rules_check(rulefile.get_rules(name))
    if fmt == "csv":  # a CSV holds the return tables alone: the findings go to stderr
        for finding in view.data["findings"]:
            click.echo(f"{finding['level']}: bet {finding['bet']!r}: {finding['message']}", err=True)
    emit(view, fmt, exact)
    if failed:
        sys.exit(1)


@cli.group(context_settings=CONTEXT)
def cache():
    """The compiled plans kept on disk (under $XDG_CACHE_HOME/baccarat, else ~/.cache/baccarat).

    A rule set's polynomials are compiled once and kept there, keyed by what was compiled and
    the package's code, so that later commands start at once. Removing them only makes the
    next command compile again.
    """


@cache.command("info", context_settings=CONTEXT)
@domain_errors
def cache_info():
    """Where the compiled plans are kept, how many, and their size."""
    folder, files, size = plans_kept.contents()
    click.echo(f"{folder}: {files:,} file{'s' * (files != 1)} of compiled plans, {size / 2**20:,.1f} MB "
               f"(at most {plans_kept.MAX_BYTES // 2**20:,} MB: the least recently used go first)")


@cache.command("clear", context_settings=CONTEXT)
@domain_errors
def cache_clear():
    """Remove every compiled plan kept on disk."""
    folder, files, size = plans_kept.clear()
    click.echo(f"Removed {files:,} file{'s' * (files != 1)} of compiled plans ({size / 2**20:,.1f} MB) from {folder}")


@cli.command(context_settings=CONTEXT)
@click.option("--rules", default="standard", show_default=True, metavar="NAME|FILE",
              help="Rule set holding the bet.")
@click.option("--bet", "bet_id", required=True, metavar="ID", help="The bet whose payout or commission to find.")
@click.option("--vary", metavar="LINE", help="What to solve for: a pay line (label or number from 1) or "
              "'commission'. Default: the bet's one payout symbol, or its only pay line.")
@click.option("--edge", "edge_pct", metavar="PERCENT",
              help="Target house edge in per cent (exact decimal, e.g. 1.2351); default 0, break-even.")
@click.option("--match", metavar="ID", help="Instead of --edge, make the house edge equal this bet's.")
@shoe_options("Number of 52-card decks in the shoe (default 8).")
@known_option
@output_options
@domain_errors
def solve(rules, bet_id, vary, edge_pct, match, decks, remove, shoe_file, known, fmt, exact):
    """Find, exactly, the payout or commission that gives a bet a target house edge.

    Examples: the Tie payout that breaks even (--bet tie); the commission that makes Banker's
    edge equal Player's (--bet banker --vary commission --match player).
    """
    if edge_pct is not None and match is not None:
        raise click.ClickException("give --edge or --match, not both")
    knowledge = known_cards.Knowledge.parse(known)
    shoe = cards.make_shoe(decks, remove, shoe_file)
    target = cards.parse_percent("0" if edge_pct is None else edge_pct)
    emit(views.solve.solve(rulefile.get_rules(rules), shoe, bet_id, vary, target, match, knowledge), fmt, exact)


@contextmanager
def progress_bar(length: int, label: str):
    """A progress bar with an ETA on stderr; yields the function that advances it. Where stderr is
    no terminal (a log, a pipe), the label, then a line every PROGRESS_EVERY seconds: how far, how
    long so far, about how long left."""
    if sys.stderr.isatty():
        with click.progressbar(length=length, label=label, file=sys.stderr, show_eta=True) as bar:
            yield bar.update
        return
    click.echo(label, err=True)
    yield progress_lines(length, label)


PROGRESS_EVERY = 10.0  # seconds between two progress lines where stderr is no terminal


def progress_lines(length: int, label: str):
    """``advance(n)`` for :func:`progress_bar` without a terminal: a line to stderr each
    PROGRESS_EVERY seconds, such as 'Dealing shoes: 1,200 of 10,000 (12%), 35 s so far, about 4 min
    left'."""
    import time

    start = time.monotonic()
    state = {"done": 0, "said": start}

    def advance(n: int) -> None:
        state["done"] += n
        now = time.monotonic()
        if now - state["said"] >= PROGRESS_EVERY and state["done"] < length:
            state["said"] = now
            done, spent = state["done"], now - start
            left = spent * (length - done) / done if done else None
            click.echo(f"{label}: {done:,} of {length:,} ({done / length:.0%}), {duration(spent)} so far"
                       + (f", about {duration(left)} left" if left is not None else ""), err=True)

    return advance


def duration(seconds: float) -> str:
    """'35 s', '4 min', '2 h 5 min'.

    >>> duration(35.2), duration(250), duration(7500)
    ('35 s', '4 min', '2 h 5 min')
    """
    if seconds < 100:
        return f"{seconds:.0f} s"
    if seconds < 6000:
        return f"{seconds / 60:.0f} min"
    return f"{int(seconds // 3600)} h {int(seconds % 3600 // 60)} min"


def check_unit(unit: str) -> str:
    if unit not in ("percent", "permille"):
        raise click.ClickException(f"unknown unit {unit!r} (percent or permille)")
    return unit


@cli.command(context_settings=CONTEXT)
@click.option("--rules", default="standard", show_default=True, metavar="NAME|FILE",
              help="Rule set whose bets to analyse.")
@shoe_options("Number of 52-card decks in the shoe (default 8).")
@click.option("--unit", default="percent", show_default=True, metavar="UNIT",
              help="Decimals of the effects in percent or permille (exact fractions with --exact or JSON).")
@click.option("--remove-pairs", is_flag=True,
              help="Instead: remove two cards, every pair of ranks, and compare with the linear estimate.")
@click.option("--bet", "bet_id", metavar="ID", help="With --remove-pairs: the bet (default: the first).")
@known_option
@output_options
@domain_errors
def eor(rules, decks, remove, shoe_file, unit, remove_pairs, bet_id, known, fmt, exact):
    """Effect of removal: the exact change in every bet's EV when one card of each rank leaves.

    Positive means better for the bettor. With suits uneven, a rank's effect is the average over
    its suits left, so that the effects weighted by the cards left sum to exactly zero.
    """
    knowledge = known_cards.Knowledge.parse(known)
    rule_set = rulefile.get_rules(rules)
    shoe = cards.make_shoe(decks, remove, shoe_file)
    unit = check_unit(unit)
    if remove_pairs and knowledge:
        raise click.ClickException("--remove-pairs does not take --known")
    if bet_id is not None and not remove_pairs:
        raise click.ClickException("--bet goes with --remove-pairs (without it, every bet is shown)")
    if remove_pairs:
        bet = rule_set.bet(bet_id).id if bet_id is not None else rule_set.bets[0].id  # checked before the bar
        if shoe.size < 8:
            raise click.ClickException(f"removing two cards leaves a coup's 6 only from 8 cards or more (the shoe has {shoe.size})")
        with progress_bar(13 + 91, "removing pairs of cards") as advance:
            view = views.removal.eor_pairs(rule_set, shoe, bet, unit, advance)
    else:
        view = views.removal.eor(rule_set, shoe, unit, knowledge=knowledge)
    emit(view, fmt, exact)


@cli.command(context_settings=CONTEXT)
@click.option("--rules", default="standard", show_default=True, metavar="NAME|FILE", help="Rule set holding the bet.")
@click.option("--bet", "bet_id", required=True, metavar="ID", help="The bet to count for.")
@click.option("--tags", metavar="TAGS", help="Evaluate this tag set: 10 integers for A,2,...,9,T (T: every "
              "ten-value card), e.g. 0,0,0,-1,-1,-1,-1,2,2,0, or the name of a count in the rule set's file. "
              "Default: derive tag sets from the exact EoR.")
@click.option("--true-count", "true_counts", default="", metavar="LIST",
              help="True counts (running count per deck left) at which to estimate the EV, e.g. 4,6,8.")
@click.option("--levels", metavar="LIST",
              help="The levels of the tag sets to derive (the largest tag's size), 1 to 20: e.g. 8, 1-20 or 1-6,8. "
                   "Default: 1-6.")
@shoe_options("Number of 52-card decks in the shoe (default 8).")
@output_options
@domain_errors
def count(rules, bet_id, tags, true_counts, levels, decks, remove, shoe_file, fmt, exact):
    """Count systems: derive integer tags from a bet's exact EoR, or evaluate given tags.

    Reports the betting correlation with the exact EoR, the imbalance, and the linear estimate
    of the EV at the given true counts.
    """
    rule_set = rulefile.get_rules(rules)
    shoe = cards.make_shoe(decks, remove, shoe_file)
    counts = [cards.parse_number(tc, "a true count") for tc in true_counts.split(",")] if true_counts.strip() else []
    tag_set, name = (None, "given") if tags is None else counting.count_system(rule_set, tags)
    if tags is not None and levels is not None:
        raise click.ClickException("--levels chooses the tag sets to derive: it takes no --tags")
    chosen = counting.LEVELS if levels is None else counting.parse_levels(levels)
    view = views.counting.count(rule_set, shoe, bet_id, tag_set, counts, name, chosen)
    emit(view, fmt, exact)


@cli.command(context_settings=CONTEXT)
@click.option("--rules", default="standard", show_default=True, metavar="NAME|FILE", help="Rule set to analyse.")
@click.option("--dealt", default="", metavar="CARDS", help="Cards already dealt from the shoe, comma-separated.")
@click.option("--dealt-file", metavar="FILE", help="A file of dealt cards: one card a line, or a file of coups as "
              "`replay` reads it (one coup a line, burn and cut marked): the cards seen in its last shoe.")
@click.option("--positive", is_flag=True, help="Show only the bets with positive expectation.")
@shoe_options("Number of 52-card decks the shoe started with (default 8).")
@known_option
@wide_option
@output_options
@domain_errors
def now(rules, dealt, dealt_file, positive, decks, remove, shoe_file, known, wide, fmt, exact):
    """The exact edge of every bet on the next coup, given the cards already dealt.

    Only the cards matter: past outcomes (who won, streaks, patterns) carry no information
    beyond the cards they removed from the shoe. Give the starting shoe with --decks or --shoe
    and the cards seen with --dealt or --dealt-file (or give the remaining counts with --shoe).
    """
    knowledge = known_cards.Knowledge.parse(known)
    shoe = cards.make_shoe(decks, remove, shoe_file)
    rule_set = rulefile.get_rules(rules)
    seen = cards.parse_dealt(dealt)
    if dealt_file is not None:
        seen += replays.dealt_file(userfiles.read_text(dealt_file, "dealt file"), shoe, rule_set.tableau, dealt_file)
    view = views.edge.now(rule_set, shoe, seen, positive, knowledge)
    emit(narrowed(view, wide, fmt), fmt, exact)


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
@click.option("--format", "fmt", default="board", show_default=True, type=click.Choice(["board", "json"]),
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
        tableau = rulefile.get_rules(rules or "standard").tableau
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
@click.option("--shoe", "coups", metavar="COUPS", help="The file of the coups WAGERS were placed on, as replay reads it "
              "(several shoes allowed), instead of the pit's database.")
@click.option("--rules", metavar="NAME|FILE", help="With --shoe: the table's rule set (default standard).")
@click.option("--decks", metavar="N", help="With --shoe: the decks each shoe started with (default 8).")
@click.option("--table", "table_names", metavar="NAME", multiple=True,
              help="A table's results (repeat for several; default: every table with wagers kept); with --shoe, the "
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
    from a file of WAGERS and the file of the coups they were placed on (--shoe), as `protect`
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
    if (coups is None) != (wagers is None):
        raise click.ClickException("give WAGERS and --shoe COUPS (files), or neither (the wagers kept in the pit's "
                                   "database, --db)")
    if coups is not None and (db or since or until or len(table_names) > 1):
        raise click.ClickException(f"{'--db' if db else '--since' if since else '--until' if until else 'a second --table'} "
                                   "goes with the pit's database, not with files of wagers and coups")
    if coups is None and (rules or decks):
        raise click.ClickException(f"kept shoes are worked out by their tables' own rules and decks: leave out "
                                   f"{'--rules' if rules else '--decks'}")
    if out is not None:
        par.check_destination(out, force)
    table_names = list(dict.fromkeys(table_names))  # a table named twice is one table
    if coups is not None:
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
        for option, value in (("--shoe", coups), ("--rules", rules), ("--decks", decks),
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


def results_of_files(wagers: str, coups: str, rules: str | None, decks: str | None, table: str) -> list:
    """Each table's results from a file of wagers and the file of the coups they were placed on
    (one table's, as `protect` reads them): every shoe of the file as dealt whole."""
    reviewing = LazyModule("analyzer.pit.protect")
    placed = reviewing.parse_wagers(userfiles.read_text(wagers, "wager file", userfiles.LARGE_FILE), wagers)
    names = sorted({w.table for w in placed if w.table})
    if len(names) > 1:
        raise click.ClickException(f"the wagers name {len(names)} tables ({', '.join(names[:3])}...), and one file of "
                                   "coups is one table's: give each table's wagers with its own coups")
    from pathlib import Path

    name = table or (names[0] if names else Path(coups).stem or "table")  # a table without a name: its file's
    if names and table and names != [table]:
        raise click.ClickException(f"the wagers name table {names[0]!r}, not {table!r}")
    deals = reviewing.deals_from_file(userfiles.read_text(coups, "coup file"), rulefile.get_rules(rules or "standard"),
                                      cards.make_shoe(decks), name, coups)
    only = deals[name].shoes
    placed = [reviewing.with_defaults(w, name, only[0].name if len(only) == 1 else "") for w in placed]
    return LazyModule("analyzer.pit.results").results(placed, deals)

@cli.command(context_settings=CONTEXT)
@click.argument("coups", metavar="COUPS", required=False)
@click.option("--rules", metavar="NAME|FILE", help="Rule set whose bets to replay (default standard; a kept shoe: its "
              "table's own).")
@click.option("--table", metavar="NAME", help="Replay a shoe kept in the database (--db) at this table instead of COUPS.")
@click.option("--shoe-number", "shoe_number", type=click.IntRange(min=1), metavar="N",
              help="The shoe of --table (default: its last).")
@db_option
@click.option("--xlsx", "xlsx_file", metavar="FILE", help="Also write the replay as a workbook: the coups, and every "
              "bet's exact EV before every coup.")
@shoe_options("Number of 52-card decks each shoe started with (default 8).")
@output_options
@domain_errors
def replay(coups, rules, table, shoe_number, db, xlsx_file, decks, remove, shoe_file, fmt, exact):
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
        view = views.pit.replay_kept(tables_kept.Store(db, create=False), table, shoe_number)
        written(xlsx_file, lambda: views.replay.workbook(view))
        emit(view, fmt, exact)
        return
    if shoe_number is not None or db is not None:
        raise click.ClickException(f"{'--shoe-number' if shoe_number is not None else '--db'} goes with --table")
    shoes = replays.parse_coups(userfiles.read_text(coups, "coup file"), coups)
    shoe = cards.make_shoe(decks, remove, shoe_file)
    view = views.replay.replay(rulefile.get_rules(rules or "standard"), shoe, shoes)
    written(xlsx_file, lambda: views.replay.workbook(view))
    emit(view, fmt, exact)


def written(path: str | None, make) -> None:
    """Write a workbook (``make()``: its bytes) to ``path`` whole (a temporary file renamed into
    place), if asked."""
    if path is None:
        return
    data = make()
    temporary = f"{path}.writing"
    try:
        with open(temporary, "wb") as f:
            f.write(data)
        os.replace(temporary, path)
    except OSError as exc:
        with suppress(OSError):
            os.remove(temporary)
        raise click.ClickException(f"--xlsx: cannot write {path}: {exc.strerror or exc}") from None


@cli.command(context_settings=CONTEXT)
@click.argument("wagers", metavar="[WAGERS]", required=False)
@click.option("--shoe", "coups", metavar="COUPS", help="The file of the coups the wagers were placed on, as replay "
              "reads it (its 'shoe ID' lines name the shoes the wagers' shoe column names).")
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
    table, shoe and seat where there are several. The coups are a file (--shoe, as `replay` reads
    it) or the shoes kept in the pit's database (--db: each wager's table and shoe, by number);
    with --db and no WAGERS, the wagers kept there (--since, --until for a period). Per player:
    amount wagered, the house's theoretical and realized win, the share wagered at positive EV,
    how wager size follows EV (correlation, and the amount added per +1% of EV), the chance that
    his wagers placed at random coups of the same shoes would have expected as much, and for a
    flagged player the model his wagers follow: counting (the shoe before the coup) or
    information (something of the coup's first card). JSON: every figure exact.
    """
    reviewing = LazyModule("analyzer.pit.protect")
    chance = reviewing.parse_level(level)
    if (coups is None) == (db is None):
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
        writable(xlsx_file, out, [p for p in (wagers, coups) if p], force)
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
        placed = reviewing.parse_wagers(userfiles.read_text(wagers, "wager file", userfiles.LARGE_FILE), wagers)
        names = sorted({w.table for w in placed if w.table})
        if len(names) > 1:
            raise click.ClickException(f"the wagers name {len(names)} tables ({', '.join(names[:3])}...), and one file "
                                       "of coups is one table's: review each table with its own coups")
        name = table or (names[0] if names else "")
        if names and table and names != [table]:
            raise click.ClickException(f"the wagers name table {names[0]!r}, not {table!r}")
        deals = reviewing.deals_from_file(userfiles.read_text(coups, "coup file"), rulefile.get_rules(rules or "standard"),
                                          cards.make_shoe(decks), name, coups)
        only = deals[name].shoes
        placed = [reviewing.with_defaults(w, name, only[0].name if len(only) == 1 else "") for w in placed]
    if placed is None:
        review = reviewing.review_store(store, [table] if table else None, since, until, chance, samples, seed, group)
    else:
        review = reviewing.review(placed, deals, chance, samples, seed, group)
    view = views.protect.sessions_table(review) if sessions else views.protect.protect(review, group)
    workbook = views.protect.workbook(review) if xlsx_file is not None else None  # made before anything is written
    if out is not None:
        words = ["baccarat", "protect"] + ([wagers] if wagers else [])
        for option, value in (("--shoe", coups), ("--rules", rules), ("--decks", decks), ("--table", table),
                              ("--db", store.url if db else None), ("--level", level), ("--samples", str(samples)),
                              ("--seed", str(seed)), ("--group", group), ("--report", out)):
            if value is not None:
                words += [option, value]
        command = shlex.join(words)
        par.write(par.files(LazyModule("analyzer.report.protect").build(review, group, command)), out, force)
    written(xlsx_file, lambda: workbook)
    emit(narrowed(view, wide, fmt), fmt, exact)


def writable(path: str, folder: str | None, inputs=(), force: bool = False) -> None:
    """Refuse, before any work, a workbook that cannot be written where asked, that would be
    written inside the report folder (which is the report's alone) or over one of the ``inputs``,
    or over a file already there without ``force``."""
    from pathlib import Path

    target = Path(path).resolve()
    if folder is not None and target.is_relative_to(Path(folder).resolve()):
        raise click.ClickException(f"--xlsx: {path} is inside the --report folder {folder}: write it elsewhere")
    if any(target == Path(given).resolve() for given in inputs):
        raise click.ClickException(f"--xlsx: {path} is one of the files read: write the workbook elsewhere")
    if target.is_dir() or not os.access(target.parent, os.W_OK | os.X_OK):
        raise click.ClickException(f"--xlsx: cannot write {path} (not a file in a writable folder)")
    if target.exists() and not force:
        raise click.ClickException(f"--xlsx: {path} exists: give --force to replace it")


@cli.command(context_settings=CONTEXT)
@click.option("--rules", default="standard", show_default=True, metavar="NAME|FILE", help="Rule set holding the bets.")
@click.option("--bets", "bet_ids", default="", metavar="IDS",
              help="The bets he chooses among, comma-separated (default: the rule set's player, banker and tie).")
@click.option("--sort", "sort_values", metavar="VALUES",
              help="Edge sorting: at each of --positions he sees whether the card's point value is in this group, "
                   "e.g. 6,7,8,9 or 6-9.")
@click.option("--exact-card", is_flag=True, help="He sees the exact point value of the card at each of --positions.")
@click.option("--best-sort", is_flag=True, help="Try every split of the ten point values into two groups and show "
              "the sorts that give the largest advantage at --positions.")
@click.option("--by-position", is_flag=True, help="The advantage of seeing the exact point value of one card, for "
              "each position 1-6 (or each of --positions).")
@click.option("--positions", metavar="LIST", help="The cards he sees, by place in dealing order, comma-separated: "
              "1 Player, 2 Banker, 3 Player, 4 Banker, 5 and 6 the fifth and sixth cards out (default 1).")
@shoe_options("Number of 52-card decks in the shoe (default 8).")
@known_option
@output_options
@domain_errors
def advantage(rules, bet_ids, sort_values, exact_card, best_sort, by_position, positions, decks, remove, shoe_file,
              known, fmt, exact):
    """What a bettor who sees something of the cards before betting wins, exactly.

    He stakes one unit on the bet with the highest EV given what he sees, when that EV is
    positive, and does not bet otherwise. The advantage is his expected win per coup dealt.
    Give one of --sort, --exact-card, --best-sort or --by-position.
    """
    modes = [name for name, on in (("--sort", sort_values is not None), ("--exact-card", exact_card),
                                   ("--best-sort", best_sort), ("--by-position", by_position)) if on]
    if len(modes) != 1:
        raise click.ClickException("give one of --sort, --exact-card, --best-sort or --by-position"
                            + (f" (got {', '.join(modes)})" if modes else ""))
    places = known_cards.parse_positions(positions) if positions is not None else (tuple(range(1, 7)) if by_position else (1,))
    info = (ap.Information.sort(ap.parse_values(sort_values), places) if sort_values is not None
            else ap.Information.exact(places) if exact_card else None)
    knowledge = known_cards.Knowledge.parse(known)
    rule_set = rulefile.get_rules(rules)
    named = [b.strip() for b in bet_ids.split(",") if b.strip()]
    bets = tuple({b: rule_set.bet(b) for b in named}.values()) if named else ap.default_bets(rule_set)  # in the order asked
    shoe = cards.make_shoe(decks, remove, shoe_file)
    if by_position:
        results = ap.by_position(rule_set, shoe, bets, places, knowledge)
        view = views.advantage.by_position(rule_set, shoe, results, bets, knowledge)
    else:
        table = ap.count_table(rule_set, shoe, bets, places, knowledge)
        if best_sort:
            view = views.advantage.best_sort(rule_set, shoe, ap.best_sort(table), bets, places, knowledge)
        else:
            view = views.advantage.advantage(rule_set, shoe, ap.advantage(table, info), knowledge)
    emit(view, fmt, exact)


def chosen_bets(rule_set, bet_ids: str, also=()):
    """The bets named in ``bet_ids`` (plus ``also``), or every bet when none is named."""
    if bet_ids.strip():
        return rule_set.only([b.strip() for b in bet_ids.split(",")] + list(also))
    return rule_set


@cli.command(context_settings=CONTEXT)
@click.argument("file", metavar="FILE")
@click.option("--rules", default="catalog", show_default=True, metavar="NAME|FILE", help="Rule set whose bets to evaluate.")
@click.option("--bets", "bet_ids", default="", metavar="IDS",
              help="Evaluate only these bets, comma-separated (default: every bet).")
@domain_errors
def batch(file, rules, bet_ids):
    """Exact EV of every bet for many shoes, one per line of FILE.

    Each line of FILE holds 13 comma-separated counts by rank (A,2,...,9,T,J,Q,K; the suits
    spread evenly) or 52 by card (As,Ah,Ad,Ac,2s,...,Kc); lines starting with # are comments;
    - reads standard input.

    Writes one JSON object per line: {"shoe": [...], "bets": {id: {"ev": "p/q"}}}. Every line
    is read and checked before anything is written.
    """
    rule_set = chosen_bets(rulefile.get_rules(rules), bet_ids)  # an unknown id fails first
    shoes = batches.parse_shoe_lines(userfiles.read_text(file, "shoe list", userfiles.LARGE_FILE))
    if not shoes:
        return
    slow = sum(sum(shoe) > batches.FAST_CARDS for shoe in shoes)
    label = f"Evaluating {len(shoes):,} shoes ({slow:,} above {batches.FAST_CARDS:,} cards: the slower exact path)"
    bar = progress_bar(len(shoes), label) if slow else nullcontext(None)  # the fast path needs none
    with bar as advance:
        for start in range(0, len(shoes), batches.BLOCK):
            block = shoes[start:start + batches.BLOCK]
            evaluated = batches.evaluate_many(rule_set, batches.as_card_counts(block), advance)
            for text in batches.json_lines(evaluated, block):
                click.echo(text)


@cli.command(context_settings=CONTEXT)
@click.option("--result", type=click.Choice(("banker", "player", "tie")), default="banker", show_default=True,
              help="Whose wins make the runs.")
@click.option("--most", default=20, show_default=True, type=click.IntRange(1, 40), metavar="K",
              help="The longest run asked about (1 to 40).")
@click.option("--skip-ties", is_flag=True, help="Ties neither extend nor break a run of Banker or Player wins "
              "(as a bead road shows them); by default a tie ends one.")
@click.option("--rules", default="standard", show_default=True, metavar="NAME|FILE",
              help="Rule set whose tableau deals the coups.")
@click.option("--decks", default=8, show_default=True, type=int, help="Decks in the shoe (1 to 24).")
@click.option("--cut", default=14, show_default=True, type=int, metavar="CARDS",
              help="Cards behind the cut card: a coup starts only while more than this many are left.")
@click.option("--burn", default="face", show_default=True, metavar="RULE",
              help="face (turn the first card, burn its value face down; T/J/Q/K burn 10), none, or a number of cards.")
@click.option("--shoes", default=10_000, show_default=True, type=click.IntRange(0, 10_000_000),
              help="Real shoes to simulate beside the exact figures (0: none).")
@click.option("--seed", default=1, show_default=True, type=click.IntRange(0), help="Random seed: same seed, same shoes.")
@output_options
@domain_errors
def runs(result, most, skip_ties, rules, decks, cut, burn, shoes, seed, fmt, exact):
    """How often a shoe dealt to its cut card holds a run of k or more Banker wins (Player wins,
    ties): exact for independent coups, and over real shoes simulated with 95% intervals; the law
    of the longest run and the coups per shoe. How unusual is the run just seen?"""
    deal = shoes_dealt.Deal(decks, cut, burn)
    tableau = rulefile.get_rules(rules).tableau
    with progress_bar(most + shoes, "Counting runs") as advance:
        found = shoe_runs.runs(deal, result, most, shoes, seed, skip_ties, tableau, advance)
    emit(views.runs.runs_view(found, deal), fmt, exact)


@cli.command(context_settings=CONTEXT)
@click.option("--rules", default="catalog", show_default=True, metavar="NAME|FILE", help="Rule set whose bets to track.")
@click.option("--decks", default=8, show_default=True, type=int, help="Decks in each shoe (1 to 24).")
@click.option("--cut", default=14, show_default=True, type=int, metavar="CARDS",
              help="Cards behind the cut card: a coup starts only while more than this many are left.")
@click.option("--burn", default="face", show_default=True, metavar="RULE",
              help="face (turn the first card, burn its value face down; T/J/Q/K burn 10), none, or a number of cards.")
@click.option("--shoes", default=1000, show_default=True, type=click.IntRange(1), help="Shoes to deal.")
@click.option("--seed", default=1, show_default=True, type=click.IntRange(0), help="Random seed: same seed, same shoes.")
@click.option("--count", "tags", metavar="TAGS|NAME", help="A counter's tags (10 integers, A..9 and T) or a count named in the rule set.")
@click.option("--bet", "bet_id", metavar="ID", help="The bet the counter plays (with --count).")
@click.option("--trigger", default="4", show_default=True, metavar="TC",
              help="The counter bets when the true count (running count per deck unseen) is at least this.")
@click.option("--bets", "bet_ids", default="", metavar="IDS",
              help="Track only these bets, comma-separated (default: every bet).")
@click.option("--workers", type=click.IntRange(1, 64), metavar="N", help="Local worker processes, 1 to 64 (default: all cores).")
@click.option("--dask", "dask", metavar="ADDRESS", help="Run on the Dask cluster with this scheduler address instead.")
@format_option
@domain_errors
def simulate(rules, decks, cut, burn, shoes, seed, tags, bet_id, trigger, bet_ids, workers, dask, fmt):
    """Deal whole shoes and take every bet's exact EV at every coup.

    Per bet: the share of coups with positive EV, and the win per shoe of a bettor who bets one
    unit exactly when the EV is positive (perfect information), expected and realized; with
    --count, also a counter who bets --bet at true count >= --trigger. Same seed, same results,
    on any number of workers.
    """
    if dask is not None and not dask.strip():
        raise click.ClickException("--dask needs the scheduler's address, e.g. tcp://scheduler:8786")
    rule_set = rulefile.get_rules(rules)
    deal = shoes_dealt.Deal(decks, cut, burn)
    trigger = cards.parse_number(trigger, "a true count (--trigger)")
    counter = None
    if tags is not None:
        tag_set, name = counting.count_system(rule_set, tags)
        if bet_id is None:
            raise click.ClickException("--count needs --bet: the bet the counter plays")
        counter = shoes_dealt.Counter(rule_set.bet(bet_id).id, tuple(tag_set), trigger, name)
    elif bet_id is not None:
        raise click.ClickException("--bet is the counter's bet: give --count too")
    rule_set = chosen_bets(rule_set, bet_ids, [counter.bet_id] if counter else [])
    batches.compile_rules(rule_set)  # a symbolic payout fails before the bar
    with progress_bar(shoes, "Dealing shoes") as advance:
        sim = shoes_dealt.simulate(rule_set, deal, shoes, seed, counter, workers, dask, advance)
    click.echo(rendering.render(views.simulation.simulation(sim), fmt))


@cli.command(context_settings=CONTEXT)
@click.option("--model", type=click.Choice(("A", "B1", "B2", "B3", "B4"), case_sensitive=False),
              help="What each side knows: A the infinite deck, each side its total; from a finite shoe, B1 each side "
                   "its total, B2 (default) the Banker his two cards and the Player his total, B3 each side its two "
                   "cards, B4 the Player his two cards and the Banker his total.")
@click.option("--infinite", is_flag=True, help="Model A: an infinite deck (cards drawn with replacement).")
@click.option("--casino", is_flag=True, help="The casino rules: punto banco's tableau with three options (the "
              "Player's 5, the Banker's 3 against a 9 and 5 against a 4). Default: the free game.")
@click.option("--rules", "rules", metavar="NAME|FILE",
              help="Solve the options of this rule set's tableau (tableau.player_options, tableau.banker_options).")
@click.option("--commission", default="0", show_default=True, metavar="PCT",
              help="Share of the Banker's wins paid to the house, in per cent (e.g. 5): the game is then not zero-sum.")
@click.option("--by-commission", is_flag=True,
              help="A table of the equilibrium as the commission goes from 0 to 10%, with each commission where a "
                   "choice changes.")
@shoe_options("Number of 52-card decks in the shoe (default 8; models B1 to B4).")
@output_options
@domain_errors
def chemin(model, infinite, casino, rules, commission, by_commission, decks, remove, shoe_file, fmt, exact):
    """Chemin de fer solved exactly as a two-person game.

    The free game (default): the Player draws on 0-4, stands on 6-7 and chooses on 5; the Banker
    chooses at every cell. --casino: only the options of the casino tableau. Prints the Player's
    choices, the Banker's grid, the value of the game to the Banker and what punto banco's
    choices cost each side; --by-commission how they move as the commission goes from 0 to 10%.
    """
    share = cards.parse_percent(commission)
    model = (model or ("A" if infinite else "B2")).upper()
    if model == "A" and (decks is not None or remove or shoe_file is not None):
        raise click.ClickException("model A (--infinite) is the infinite deck: it takes no --decks, --remove or --shoe")
    if infinite and model != "A":
        raise click.ClickException(f"--infinite is model A: it cannot be model {model}")
    if casino and rules:
        raise click.ClickException("--casino and --rules both give a tableau: give one")
    if by_commission and share:
        raise click.ClickException("--by-commission goes from 0 to 10% itself: it takes no --commission")
    tableau = tableaus.CASINO if casino else tableaus.FREE
    if rules:
        tableau = rulefile.get_rules(rules).tableau
        if not any(tableau.player_options) and not tableau.banker_option_cells():
            raise click.ClickException(f"the tableau of rules {rules!r} has no options to solve: mark them with "
                                      "tableau.player_options and tableau.banker_options")
    shoe = None if model == "A" else cards.make_shoe(decks, remove, shoe_file)
    played = chemin_game.game(shoe, tableau, model)
    if by_commission:
        emit(views.chemin.chemin_by_commission(played, chemin_game.commission_table(played)), fmt, exact)
    else:
        emit(views.chemin.chemin(chemin_game.solve(played, share)), fmt, exact)


def report_command(request: par.Request, out: str) -> str:
    """The command line that writes the report of ``request`` to ``out`` again.

    >>> from analyzer.report import Request
    >>> report_command(Request(("standard", "my rules.toml"), decks="6", remove="5,5"), "par")
    "baccarat report --rules standard --rules 'my rules.toml' --decks 6 --remove 5,5 -o par"
    """
    words = ["baccarat", "report"] + [w for name in request.rules for w in ("--rules", name)]
    for option, value in (("--decks", request.decks), ("--shoe", request.shoe_file), ("--remove", request.remove)):
        if value:
            words += [option, value]
    if request.side_bets is not None:
        words += ["--side-bets", request.side_bets]
    for item in request.known:
        words += ["--known", item]
    for item in request.meters:
        words += ["--meter", item]
    if request.paper != "a4":
        words += ["--paper", request.paper]
    return shlex.join(words + ["-o", out])


@cli.command(context_settings=CONTEXT)
@click.option("--rules", "rules", multiple=True, metavar="NAME|FILE",
              help=f"A rule set to report on; repeat for several (default standard): {', '.join(BUILT_IN)}, "
                   "or a .toml rule file.")
@shoe_options("Number of 52-card decks in the shoe (default 8).")
@click.option("--side-bets", metavar="IDS", help="Side bets to chart beside Banker, Player and Tie, comma-separated "
              "(default: the 3 most sensitive to card removal).")
@click.option("-o", "--output", "out", required=True, metavar="DIR", help="The report folder to write (must not exist).")
@click.option("--force", is_flag=True, help="Replace the report folder if it exists (only a folder holding a report).")
@click.option("--paper", type=click.Choice(("a4", "letter")), default="a4", show_default=True,
              help="The PDF's page size.")
@click.option("--meter", "meters", multiple=True, metavar="NAME=AMOUNT",
              help="The value of a payout symbol, a progressive meter (e.g. J=250000); repeat for several. The "
                   "report shows the bet's return as a function of the meter, and every other figure at this value.")
@known_option
@domain_errors
def report(rules, decks, remove, shoe_file, side_bets, out, force, paper, known, meters):
    """Write a par sheet: report.md, a self-contained report.html with charts, a print-ready
    report.pdf, a workbook report.xlsx, tables/*.csv and report.json with every exact value.

    Contents: the rules and tableau, the shoe, the outcome distribution, every bet's house edge
    and SD, its return table, volatility and ranges after 100 to 1,000,000 hands, a comparison
    with the built-in rule sets, the house edge by number of decks (with the exact infinite-deck
    limit) and the effect of removal. The folder appears whole or not at all.
    """
    request = par.Request(tuple(rules) or ("standard",), decks, remove, shoe_file, side_bets, known, paper, meters)
    scope = par.scope(request)
    par.check_destination(out, force)
    with progress_bar(par.steps(scope), "Computing the report") as advance:
        contents = par.files(par.build(scope, report_command(request, out), advance), request.paper)
    path = par.write(contents, out, force)
    shown = str(path) if str(path).isprintable() else repr(str(path))  # no raw control character to the terminal
    click.echo(f"Wrote {shown}/: report.md, report.html, report.pdf, report.xlsx, report.json, "
               f"{sum(name.startswith('tables/') for name in contents)} tables (CSV), "
               f"{sum(name.startswith('charts/') for name in contents)} charts (SVG)")


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
@click.option("--allowed-host", "allowed_hosts", multiple=True, metavar="NAME",
              help="A name this server answers to besides the address it listens on (a DNS name of this machine, a "
                   "proxy's); repeat for more. A request for any other host is refused (421): a page that reached the "
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
