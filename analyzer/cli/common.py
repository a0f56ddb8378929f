"""What every command of `baccarat` shares: the group, stop signals, errors as one line, the
shoe and output options, rendering a view, progress, and writing files whole."""

from __future__ import annotations

import functools
import os
import shlex
import signal
import sys
import textwrap
import threading
from contextlib import contextmanager, suppress
from pathlib import Path

import click

from .. import BUILT_IN, __version__  # noqa: F401  (BUILT_IN: the rule sets the commands offer)
from ..base import errors
from ..base.errors import error_line
from ..base.lazy import LazyModule
from .. import report as par  # noqa: F401  the package alone: what a report needs is loaded when it is made
from ..base.signals import STOP_SIGNALS


# The core, each module imported at its first use (see LazyModule): the import graph of the CLI.
ap = LazyModule("analyzer.questions.advantage")
batches = LazyModule("analyzer.routes.batch")
shoefiles = LazyModule("analyzer.routes.shoefile")
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
        raise click.ClickException(errors.unknown("format", fmt, ["json", "csv", "markdown", *rendering.formats()[:-2]], most=100))
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


def listed(ctx, param, values) -> tuple:
    """A list option's items, however given: repeated (``--rules ez --rules standard``) or comma-
    separated (``--rules ez,standard``), as ``--bets`` takes them; a value that names a file is
    one item, commas and all."""
    out = []
    for value in values or ():
        items = [item.strip() for item in value.split(",")] if "," in value and not Path(value).exists() else [value]
        if not any(items):
            raise click.BadParameter(f"no item given in {value!r} (repeat the option, or separate items with commas)")
        out += [item for item in items if item]
    return tuple(out)


class Named(click.Choice):
    """click.Choice that names the choice a user likely meant (errors.did_you_mean), as every
    other name the tool is given."""

    def convert(self, value, param, ctx):
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter:
            self.fail(errors.unknown("value", value, self.choices, "choices"), param, ctx)


def checked_rules(spec: str):
    """The rule set a command reads (``--rules``): a built-in one, or a rule file checked as `rules
    check` checks it - its errors refuse it (exit 1, the check's own words), its warnings are
    said on stderr - so that no command computes with a file the check calls unfit."""
    rules = rulefile.get_rules(spec)
    if spec in BUILT_IN:
        return rules
    findings = checks.check_rules(rules)
    errors = [finding for finding in findings if finding.level == "error"]
    if errors:  # one line: the warnings of a file refused are the check's to say
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        raise click.ClickException(f"rules {rules.name}: bet {errors[0].bet!r}: {errors[0].message}{more} - the file is "
                                   f"not fit to use (baccarat rules check {shlex.quote(spec)} says why)")
    warned = click.get_current_context().meta.setdefault("warned rule files", set())  # this command's, not the process's
    if spec not in warned:  # a file given twice (compare) is warned of once
        warned.add(spec)
        for finding in findings:
            click.echo(finding.line(), err=True)
    return rules


def chosen_bets(rule_set, bet_ids: str, also=()):
    """The bets named in ``bet_ids`` (plus ``also``), or every bet when none is named."""
    if bet_ids.strip():
        return rule_set.only([b.strip() for b in bet_ids.split(",")] + list(also))
    return rule_set


