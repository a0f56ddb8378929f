"""What a rule set holds: the built-in rule sets, a rule set's bets and tableau, and a shoe."""

from __future__ import annotations

from ..bets.bet import RuleSet
from ..game.cards import RANKS, Shoe
from ..render import Column, View, pay_table
from ..bets.rulefile import BUILT_IN, get_rules, tableau_grid
from ..game.tableau import Tableau
from . import shoe_data


def tableau_view(tableau: Tableau) -> View:
    """The Banker's drawing grid: D draw, S stand, by his two-card total and the Player's third
    card (or the Player stood)."""
    player = ", ".join(str(t) for t in range(10) if tableau.player_draws[t])
    chooses = [t for t in range(8) if tableau.player_options[t]]
    options = tableau.banker_option_cells()
    headers = [str(k) for k in range(10)] + ["stood"]
    return View(
        title=(f"Tableau {tableau.name}: the Player draws on {player}"
               + (f" (may choose on {', '.join(map(str, chooses))})" if chooses else "")
               + "; the Banker draws (D) or stands (S) by his total (rows) and the Player's third card (columns), "
               "or when the Player stood" + ("; * the Banker may choose (chemin de fer)" if options else "")),
        columns=[Column("banker", "Banker total")] + [Column(h, h) for h in headers],
        rows=[dict(zip(["banker"] + headers, row)) for row in tableau_grid(tableau)],
        data={"name": tableau.name, "player_draws": [t for t in range(10) if tableau.player_draws[t]],
              "banker": {str(t): "".join("DS"[not tableau.banker_draws[t][k]] for k in range(10))
                         + " " + "DS"[not tableau.banker_draws[t][10]] for t in range(8)}}
        | ({"player_options": chooses, "banker_options": [[t, "stood" if k == 10 else k] for t, k in options]}
           if chooses or options else {}),
    )


def shoe_view(shoe: Shoe) -> View:
    """The shoe's cards by rank."""
    return View(
        title=f"Shoe: {shoe.describe()}",
        columns=[Column(r, r, "count") for r in RANKS] + [Column("cards", "cards", "count")],
        rows=[dict(zip(RANKS, shoe.rank_counts())) | {"cards": shoe.size}],
        data=shoe_data(shoe),
    )


def rules_list() -> View:
    """The built-in rule sets."""
    rows = [{"name": name, "bets": len(r.bets), "tableau": r.tableau.name, "description": r.description}
            for name in BUILT_IN for r in [get_rules(name)]]
    return View(
        title="Built-in rule sets",
        columns=[Column("name", "name"), Column("bets", "bets", "count"), Column("tableau", "tableau"),
                 Column("description", "description")],
        rows=rows,
        data={"rules": rows},
    )


def favourable(returns: list, rules: RuleSet) -> list:
    """A warning for each bet whose pay table gives the bettor the edge on a full 8-deck shoe (a
    payout too high, most likely: a casino's bet keeps an edge on the full shoe), read off the
    bets' return tables on that shoe (``returns``: parsheet.returns' data; each total's return is
    the bet's EV)."""
    from ..questions.check import Finding
    from ..render import percent

    out = []
    for table in returns:
        ev = table["total"]["return"]
        if rules.bet(table["bet"]).numeric and ev > 0:
            out.append(Finding("warning", table["bet"], f"pays the bettor more than it takes on a full 8-deck shoe: EV "
                                                        f"+{percent(ev)} (a house edge of -{percent(ev)}); "
                                                        "is a payout too high?"))
    return out


def rules_check(rules: RuleSet) -> tuple[View, bool]:
    """(view, whether an error was found): every finding of check.py, one line each in the
    title, then the return table of each bet without an error on 8 decks."""
    from ..game.cards import Shoe
    from ..questions.check import Finding, check_rules, unnamed
    from ..base.errors import BaccaratError
    from .parsheet import returns

    findings = check_rules(rules)
    errors = sum(f.level == "error" for f in findings)
    warnings = len(findings) - errors
    failed = {f.bet for f in findings if f.level == "error"}
    ok = [b.id for b in rules.bets if b.id not in failed]
    try:
        table = returns(rules.only(ok), Shoe.decks(8)) if ok else None
    except BaccaratError:  # a bet too detailed to count on 8 decks: found by trying each, said, the others shown
        for bet in [rules.bet(b) for b in ok]:
            try:
                returns(rules.only([bet.id]), Shoe.decks(8))
            except BaccaratError as error:
                findings.append(Finding("warning", bet.id, f"no return table on 8 decks: {unnamed(str(error), bet)}"))
                ok.remove(bet.id)
        table = returns(rules.only(ok), Shoe.decks(8)) if ok else None
    table = table or View("", [Column("bet", "bet")], [], {})
    findings += favourable(table.data.get("bets", []), rules)
    warnings = len(findings) - errors
    summary = (f"Check of rules {rules.name}: {errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)}"
               + (" (an error: the file is not fit to use)" if errors else ""))
    title = "\n".join([summary, *(f.line() for f in findings), table.title])
    data = {"rules": rules.name, "errors": errors, "warnings": warnings,
            "findings": [{"level": f.level, "bet": f.bet, "message": f.message} for f in findings], "returns": table.data}
    return View(title, table.columns, table.rows, data), bool(errors)


def rules_show(rules: RuleSet) -> View:
    """A rule set's bets and pay tables, and its drawing tableau."""
    tableau = rules.tableau
    player = ", ".join(str(t) for t in range(10) if tableau.player_draws[t])
    options = any(tableau.player_options) or tableau.banker_option_cells()
    width = 2 if options else 1
    grid = "\n".join(f"  {row[0]}: {' '.join(c.ljust(width) for c in row[1:11])}{' ' * (3 - width)}| {row[11]}" for row in tableau_grid(tableau))
    chooses = [str(t) for t in range(8) if tableau.player_options[t]]
    player += f" (may choose on {', '.join(chooses)})" if chooses else ""
    rows = [{"bet": b.id, "name": b.name, "pays": pay_table(b), "source": b.source} for b in rules.bets]
    return View(
        title=(f"Rule set {rules.name}: {rules.description}\nSource: {rules.source or '-'}\n"
               f"Tableau: {tableau.name}; Player draws on {player}; Banker draws (D) or stands (S)\n"
               f"  by Banker total, against the Player's third card 0-9 | when the Player stood"
               + ("; * the Banker may choose (chemin de fer)" if options else "") + f":\n{grid}"),
        columns=[Column("bet", "id"), Column("name", "name"), Column("pays", "pays"), Column("source", "source")],
        rows=rows,
        data={"name": rules.name, "description": rules.description, "source": rules.source,
              "tableau": tableau_view(tableau).data,
              "bets": [{"bet": b.id, "name": b.name, "pays": pay_table(b), "source": b.source,
                        "commission": b.commission,
                        "lines": [{"label": ln.label, "pays": ln.pays} for ln in b.lines]} | overlay_data(b)
                       for b in rules.bets]},
    )


def overlay_data(bet) -> dict:
    """A bet's fee and multiplier table, exact, where it has them ({} otherwise)."""
    out = {"fee": bet.fee} if bet.fee else {}
    table = bet.multipliers
    if table is not None:
        out["multipliers"] = ({"spot": [{"multiplier": m, "chance": p} for m, p in table.value]} if table.spot else {
            "cards": table.cards if isinstance(table.cards, str) else list(table.cards),
            "count": [{"cards": k, "chance": p} for k, p in table.count],
            "value": [{"multiplier": m, "chance": p} for m, p in table.value]}) | (
            {"lines": [bet.lines[i].label for i in table.lines]} if table.lines is not None else {})
    return out
