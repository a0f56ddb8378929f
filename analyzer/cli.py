"""The `baccarat` command line: parse options, call the core, render. No arithmetic here."""

from __future__ import annotations

import functools

import click

from . import __version__, views
from .cards import BaccaratError, make_shoe, parse_deck_list, parse_decks, parse_percent
from .render import FORMATS, render
from .rulefile import BUILT_IN, get_rules

CONTEXT = {"help_option_names": ["-h", "--help"]}


def domain_errors(command):
    """Turn the core's BaccaratError into click's one-line ``Error: ...`` and exit status 1."""

    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except BaccaratError as exc:
            raise click.ClickException(str(exc)) from None

    return wrapper


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


def output_options(command):
    for option in reversed([
        click.option("--format", "fmt", default="simple", metavar="FORMAT", show_default=True,
                     help="Any tabulate format (simple, github, grid, pipe, html, latex, ...), json or csv."),
        click.option("--exact/--decimal", default=False,
                     help="Add the exact fraction beside each decimal (JSON is always exact)."),
    ]):
        command = option(command)
    return command


def emit(view, fmt: str, show_exact: bool):
    if fmt not in FORMATS:
        raise BaccaratError(f"unknown format {fmt!r} (choose from json, csv, {', '.join(FORMATS[:-2])})")
    click.echo(render(view, fmt, show_exact))


@click.group("baccarat", context_settings=CONTEXT)
@click.version_option(__version__, "--version", prog_name="baccarat")
def cli():
    """Exact probabilities and house edges for mini baccarat / punto banco.

    Every figure is computed exactly from the shoe, with no simulation and no rounding until
    it is printed.
    """


@cli.command(context_settings=CONTEXT)
@shoe_options("Number of 52-card decks in the shoe (default 8).")
@output_options
@domain_errors
def odds(decks, remove, shoe_file, fmt, exact):
    """Probabilities of each outcome of one coup, with exact combination counts.

    Counts are ordered 6-card sequences, N(N-1)...(N-5) for an N-card shoe.
    """
    shoe = make_shoe(None if decks is None else parse_decks(decks), remove, shoe_file)
    emit(views.odds(shoe), fmt, exact)


@cli.command(context_settings=CONTEXT)
@click.option("--rules", default="standard", show_default=True, metavar="NAME|FILE",
              help=f"Rule set: {', '.join(BUILT_IN)}, or a .toml rule file.")
@shoe_options("Number of 52-card decks in the shoe (default 8).")
@output_options
@domain_errors
def edge(rules, decks, remove, shoe_file, fmt, exact):
    """House-edge table of every bet of a rule set."""
    rule_set = get_rules(rules)
    shoe = make_shoe(None if decks is None else parse_decks(decks), remove, shoe_file)
    emit(views.edge(rule_set, shoe), fmt, exact)


@cli.command(context_settings=CONTEXT)
@click.option("--rules", "rules", multiple=True, metavar="NAME|FILE",
              help=f"A rule set to compare; repeat for several (default standard): {', '.join(BUILT_IN)}, "
                   "or a .toml rule file (its tableau may differ).")
@shoe_options("Deck counts to compare, comma-separated, e.g. 1,2,4,6,8 (default 8).")
@output_options
@domain_errors
def compare(rules, decks, remove, shoe_file, fmt, exact):
    """House edge of each bet under several rule sets and/or deck counts, side by side."""
    rule_sets = [get_rules(name) for name in rules or ["standard"]]
    deck_counts = [None] if decks is None else parse_deck_list(decks)
    variants = [
        (label_of(r.name, d, len(rule_sets) > 1, len(deck_counts) > 1), r, make_shoe(d, remove, shoe_file))
        for r in rule_sets
        for d in deck_counts
    ]
    emit(views.compare(variants), fmt, exact)


def label_of(rules_name: str, decks, by_rules: bool, by_decks: bool) -> str:
    """A column heading naming what varies: the rule set, the deck count or both."""
    deck_text = f"{decks} deck{'s' * (decks != 1)}" if decks else "shoe"
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
    emit(views.rules_list(), fmt, exact)


@rules.command("show", context_settings=CONTEXT)
@click.argument("name")
@output_options
@domain_errors
def rules_show(name, fmt, exact):
    """Show a rule set's bets, pay tables and drawing tableau (NAME: built-in name or .toml file)."""
    emit(views.rules_show(get_rules(name)), fmt, exact)


@cli.command(context_settings=CONTEXT)
@click.option("--rules", default="standard", show_default=True, metavar="NAME|FILE",
              help="Rule set holding the bet.")
@click.option("--bet", "bet_id", required=True, metavar="ID", help="The bet whose payout or commission to find.")
@click.option("--vary", metavar="LINE", help="What to solve for: a pay line (label or number from 1) or "
              "'commission'. Default: the bet's one payout symbol, or its only pay line.")
@click.option("--edge", "edge_pct", default="0", show_default=True, metavar="PERCENT",
              help="Target house edge in per cent (exact decimal, e.g. 1.2351); 0 is break-even.")
@click.option("--match", metavar="ID", help="Instead of --edge, make the house edge equal this bet's.")
@shoe_options("Number of 52-card decks in the shoe (default 8).")
@output_options
@domain_errors
def solve(rules, bet_id, vary, edge_pct, match, decks, remove, shoe_file, fmt, exact):
    """Find, exactly, the payout or commission that gives a bet a target house edge.

    Examples: the Tie payout that breaks even (--bet tie); the commission that makes Banker's
    edge equal Player's (--bet banker --vary commission --match player).
    """
    shoe = make_shoe(None if decks is None else parse_decks(decks), remove, shoe_file)
    emit(views.solve(get_rules(rules), shoe, bet_id, vary, parse_percent(edge_pct), match), fmt, exact)
