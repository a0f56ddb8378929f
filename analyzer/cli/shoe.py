"""Commands about one shoe: odds, edge, compare, rules, cache, solve, eor, count, now, advantage and chemin."""

from __future__ import annotations

import sys

import click

from .common import (
    listed, Named, checked_rules, BUILT_IN, CONTEXT, EDGE_VIEWS, ap, cards, check_unit, checks, chemin_game, cli, counting, domain_errors,
    emit, known_cards, known_option, narrowed, output_options, plans_kept, progress_bar, replays, rulefile,
    shoe_options, tableaus, userfiles, views, wide_option,
)


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
@click.option("--view", "view", type=Named(EDGE_VIEWS), default="edge", show_default=True,
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
    rule_set = checked_rules(rules)
    if bet_ids:
        ids = [b.strip() for b in bet_ids.split(",") if b.strip()]
        if not ids:
            raise click.ClickException("--bets: no bet id given")
        rule_set = rule_set.only(ids)
    shoe = cards.make_shoe(decks, remove, shoe_file)
    if view == "edge":
        emit(narrowed(views.edge.edge(rule_set, shoe, knowledge), wide, fmt), fmt, exact)
    elif view == "returns":
        emit(views.parsheet.returns(rule_set, shoe, knowledge), fmt, exact)
    else:
        spread, ranges = views.parsheet.volatility(rule_set, shoe, knowledge)
        emit(spread if view == "volatility" else ranges, fmt, exact)


@cli.command(context_settings=CONTEXT)
@click.option("--rules", "rules", multiple=True, callback=listed, metavar="NAME|FILE",
              help=f"A rule set to compare; repeat, or comma-separated, for several (default standard): {', '.join(BUILT_IN)}, "
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
    rule_sets = [checked_rules(name) for name in rules or ["standard"]]
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
    emit(views.rules.rules_show(rulefile.get_rules(name)), fmt, exact)  # (a file shown as it is: `rules check` judges it)


@rules.command("check", context_settings=CONTEXT)
@click.argument("name")
@output_options
@domain_errors
def rules_check(name, fmt, exact):
    """Check a rule file (NAME: a .toml file or built-in name): every pay line that can never settle
    on any shoe, every line shadowed by earlier lines, every bet that settles on nothing, then each
    bet's return table on 8 decks. Exit status 1 when it finds an error, 0 with warnings only."""
    view, failed = views.rules.rules_check(rulefile.get_rules(name))  # (the check itself: its findings are the view)
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
              "'commission'; for a bet with a fee or multipliers 'fee', or one chance of its multiplier table "
              "('value.8': the chance of x8, the others scaled; 'count.3': of 3 cards drawn). Default: the bet's one "
              "payout symbol, or its only pay line.")
@click.option("--edge", "edge_pct", metavar="PERCENT",
              help="Target house edge in per cent (exact decimal, e.g. 1.2351); default 0, break-even.")
@click.option("--match", metavar="ID", help="Instead of --edge, make the house edge equal this bet's.")
@click.option("--rtp", "rtp_pct", metavar="PERCENT",
              help="Instead of --edge, a target return to player in per cent of stake and fee (e.g. 98.76).")
@shoe_options("Number of 52-card decks in the shoe (default 8).")
@known_option
@output_options
@domain_errors
def solve(rules, bet_id, vary, edge_pct, match, rtp_pct, decks, remove, shoe_file, known, fmt, exact):
    """Find, exactly, the payout, commission, fee or multiplier chance that gives a bet a target.

    Examples: the Tie payout that breaks even (--bet tie); the commission that makes Banker's
    edge equal Player's (--bet banker --vary commission --match player); the chance of x8 that
    gives a lightning Player 98.76% (--rules lightning --bet player --vary value.8 --rtp 98.76).
    """
    if sum(x is not None for x in (edge_pct, match, rtp_pct)) > 1:
        raise click.ClickException("give one of --edge, --match and --rtp")
    knowledge = known_cards.Knowledge.parse(known)
    shoe = cards.make_shoe(decks, remove, shoe_file)
    target = cards.parse_percent("0" if edge_pct is None else edge_pct)
    rtp = None if rtp_pct is None else cards.parse_percent(rtp_pct)
    if rtp is not None and not 0 < rtp:
        raise click.ClickException(f"--rtp: a return to player is above 0% (got {rtp_pct})")
    emit(views.solve.solve(checked_rules(rules), shoe, bet_id, vary, target, match, knowledge, rtp), fmt, exact)


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
    rule_set = checked_rules(rules)
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
    rule_set = checked_rules(rules)
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
    rule_set = checked_rules(rules)
    seen = cards.parse_dealt(dealt)
    if dealt_file is not None:
        seen += replays.dealt_file(userfiles.read_text(dealt_file, "dealt file"), shoe, rule_set.tableau, dealt_file)
    view = views.edge.now(rule_set, shoe, seen, positive, knowledge)
    emit(narrowed(view, wide, fmt), fmt, exact)




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
    rule_set = checked_rules(rules)
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


@cli.command(context_settings=CONTEXT)
@click.option("--model", type=Named(("A", "B1", "B2", "B3", "B4"), case_sensitive=False),
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
        tableau = checked_rules(rules).tableau
        if not any(tableau.player_options) and not tableau.banker_option_cells():
            raise click.ClickException(f"the tableau of rules {rules!r} has no options to solve: mark them with "
                                      "tableau.player_options and tableau.banker_options")
    shoe = None if model == "A" else cards.make_shoe(decks, remove, shoe_file)
    played = chemin_game.game(shoe, tableau, model)
    if by_commission:
        emit(views.chemin.chemin_by_commission(played, chemin_game.commission_table(played)), fmt, exact)
    else:
        emit(views.chemin.chemin(chemin_game.solve(played, share)), fmt, exact)


