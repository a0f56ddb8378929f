"""Commands over many shoes, and the par sheet: batch, runs, simulate and report."""

from __future__ import annotations

import shlex
from contextlib import nullcontext

import click

from .common import (
    listed, Named, checked_rules, BUILT_IN, CONTEXT, batches, shoefiles, cards, chosen_bets, cli, counting, domain_errors, emit, format_option,
    known_option, output_options, par, progress_bar, rendering, rulefile, shoe_options, shoe_runs,
    shoes_dealt, userfiles, views,
)


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
    rule_set = chosen_bets(checked_rules(rules), bet_ids)  # an unknown id fails first
    shoes = shoefiles.parse_shoe_lines(userfiles.read_text(file, "shoe list", userfiles.LARGE_FILE))
    if not shoes:
        return
    slow = sum(sum(shoe) > batches.FAST_CARDS for shoe in shoes)
    label = f"Evaluating {len(shoes):,} shoes ({slow:,} above {batches.FAST_CARDS:,} cards: the slower exact path)"
    bar = progress_bar(len(shoes), label) if slow else nullcontext(None)  # the fast path needs none
    with bar as advance:
        for start in range(0, len(shoes), batches.BLOCK):
            block = shoes[start:start + batches.BLOCK]
            evaluated = batches.evaluate_many(rule_set, shoefiles.as_card_counts(block), advance)
            for text in shoefiles.json_lines(evaluated, block):
                click.echo(text)


@cli.command(context_settings=CONTEXT)
@click.option("--result", type=Named(("banker", "player", "tie")), default="banker", show_default=True,
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
    tableau = checked_rules(rules).tableau
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
    rule_set = checked_rules(rules)
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
@click.option("--rules", "rules", multiple=True, callback=listed, metavar="NAME|FILE",
              help=f"A rule set to report on; repeat, or comma-separated, for several (default standard): {', '.join(BUILT_IN)}, "
                   "or a .toml rule file.")
@shoe_options("Number of 52-card decks in the shoe (default 8).")
@click.option("--side-bets", metavar="IDS", help="Side bets to chart beside Banker, Player and Tie, comma-separated "
              "(default: the 3 most sensitive to card removal).")
@click.option("-o", "--output", "out", required=True, metavar="DIR", help="The report folder to write (must not exist).")
@click.option("--force", is_flag=True, help="Replace the report folder if it exists (only a folder holding a report).")
@click.option("--paper", type=Named(("a4", "letter")), default="a4", show_default=True,
              help="The PDF's page size.")
@click.option("--meter", "meters", multiple=True, metavar="NAME=AMOUNT",
              help="The value of a payout symbol, a progressive meter (e.g. J=250000); repeat for several. The "
                   "report shows the bet's return as a function of the meter, and every other figure at this value.")
@click.option("--prepared-by", metavar="NAME", help="Who prepared the par sheet: the sign-off shows the name "
              "(default: a blank line to write it on).")
@click.option("--approved-by", metavar="NAME", help="Who approved it, as --prepared-by.")
@known_option
@domain_errors
def report(rules, decks, remove, shoe_file, side_bets, out, force, paper, known, meters, prepared_by, approved_by):
    """Write a par sheet: report.md, a self-contained report.html with charts, a print-ready
    report.pdf, a workbook report.xlsx, tables/*.csv and report.json with every exact value.

    Contents: the rules and tableau, the shoe, the outcome distribution, every bet's house edge
    and SD, its return table, volatility and ranges after 100 to 1,000,000 hands, a comparison
    with the built-in rule sets, the house edge by number of decks (with the exact infinite-deck
    limit) and the effect of removal; the rules of play in words, and a sign-off with lines to sign.
    The folder appears whole or not at all.
    """
    request = par.Request(tuple(rules) or ("standard",), decks, remove, shoe_file, side_bets, known, paper, meters,
                          prepared_by, approved_by)
    for name in request.rules:
        checked_rules(name)  # a rule file `rules check` calls unfit: refused, its warnings said
    scope = par.scope(request)
    par.check_destination(out, force)
    signed = [w for option, name in (("--prepared-by", prepared_by), ("--approved-by", approved_by)) if name is not None
              for w in (option, name)]
    command = report_command(request, out) + "".join(f" {shlex.quote(w)}" for w in signed)
    with progress_bar(par.steps(scope), "Computing the report") as advance:
        contents = par.files(par.build(scope, command, advance), request.paper)
    path = par.write(contents, out, force)
    shown = str(path) if str(path).isprintable() else repr(str(path))  # no raw control character to the terminal
    click.echo(f"Wrote {shown}/: report.md, report.html, report.pdf, report.xlsx, report.json, "
               f"{sum(name.startswith('tables/') for name in contents)} tables (CSV), "
               f"{sum(name.startswith('charts/') for name in contents)} charts (SVG)")


