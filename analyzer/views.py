"""The questions a user asks, answered as Views (exact rows plus the JSON object) for render()."""

from __future__ import annotations

from fractions import Fraction

from .bets import BetResult, RuleSet, analyse, evaluate, outcome_counts, payout_text
from .cards import RANKS, BaccaratError, Shoe
from .engine import enumerate_coup
from .render import Column, View
from .rulefile import BUILT_IN, get_rules, tableau_grid
from .tableau import PUNTO_BANCO, STOOD


def shoe_data(shoe: Shoe) -> dict:
    return {"cards": shoe.size, "ranks": dict(zip(RANKS, shoe.rank_counts())), "description": shoe.describe()}


def odds(shoe: Shoe) -> View:
    """The probability of each main outcome of one coup."""
    dist = enumerate_coup(shoe, PUNTO_BANCO)
    rows = [
        {"id": name, "outcome": label, "combinations": count, "probability": Fraction(count, dist.total)}
        for name, label, count in outcome_counts(dist)
    ]
    return View(
        title=f"Outcomes of one coup: {shoe.describe()}; {dist.total:,} ordered 6-card sequences",
        columns=[Column("outcome", "outcome"), Column("combinations", "combinations", "count"),
                 Column("probability", "probability", "percent")],
        rows=rows,
        data={
            "shoe": shoe_data(shoe),
            "tableau": PUNTO_BANCO.name,
            "total": dist.total,
            "outcomes": {r["id"]: {"combinations": r["combinations"], "probability": r["probability"]} for r in rows},
        },
    )


def bet_row(result: BetResult) -> dict:
    """Every figure of a bet's house-edge table, exact."""
    bet = result.bet
    return {
        "bet": bet.id,
        "name": bet.name,
        "pays": bet.pay_table(),
        "pays_brief": bet.pay_table(brief=True),
        "source": bet.source,
        "lines": [
            {"label": ln.label, "pays": ln.pays, "probability": p}
            for ln, p in zip(bet.lines, result.line_probabilities)
        ],
        "win": result.win,
        "push": result.push,
        "loss": result.loss,
        "ev": result.ev,
        "house_edge": result.house_edge,
        "house_edge_resolved": result.house_edge_resolved,
        "variance": result.variance,
        "hits_one_in": result.hits_one_in,
    }


EDGE_COLUMNS = [
    Column("name", "bet"),
    Column("pays_brief", "pays"),
    Column("win", "win", "percent"),
    Column("push", "push", "percent"),
    Column("loss", "loss", "percent"),
    Column("ev", "EV", "percent"),
    Column("house_edge", "house edge", "percent"),
    Column("house_edge_resolved", "edge per resolved bet", "percent"),
    Column("variance", "SD", "sd"),
    Column("hits_one_in", "hits 1 in", "one_in"),
]


def line_rows(row: dict) -> list[dict]:
    """One row per pay line of a bet that has several: its payout and its share of win or push."""
    if len(row["lines"]) < 2:
        return []
    return [{"name": f"· {ln['label']}", "pays_brief": payout_text(ln["pays"]),
             ("push" if ln["pays"] == 0 else "win"): ln["probability"]} for ln in row["lines"]]


def edge(rules: RuleSet, shoe: Shoe) -> View:
    """The house-edge table of every bet of ``rules`` on ``shoe``; a bet with several pay lines
    is followed by one row per line."""
    rows = [bet_row(r) for r in analyse(rules, shoe)]
    return View(
        title=f"House edge: rules {rules.name} ({rules.description}); shoe {shoe.describe()}",
        columns=EDGE_COLUMNS,
        rows=[shown for row in rows for shown in [row] + line_rows(row)],
        data={"rules": rules.name, "description": rules.description, "tableau": rules.tableau.name,
              "shoe": shoe_data(shoe), "bets": rows},
    )


def compare(variants: list[tuple[str, RuleSet, Shoe]]) -> View:
    """The house edge of each bet under several (label, rules, shoe) variants, side by side."""
    edges = [{r.bet.id: r for r in analyse(rules, shoe)} for _, rules, shoe in variants]
    bets = list({r.bet.id: r.bet for by_id in edges for r in by_id.values()}.values())
    rows = [
        {"bet": bet.id, "name": bet.name,
         **{f"v{i}": (by_id[bet.id].house_edge if bet.id in by_id else None) for i, by_id in enumerate(edges)}}
        for bet in bets
    ]
    return View(
        title="House edge compared (ties and pushes counted as bets)",
        columns=[Column("name", "bet")] + [Column(f"v{i}", label, "percent") for i, (label, _, _) in enumerate(variants)],
        rows=rows,
        data={
            "columns": [{"label": label, "rules": rules.name, "shoe": shoe_data(shoe)} for label, rules, shoe in variants],
            "bets": [{"bet": row["bet"], "name": row["name"],
                      "house_edge": [row[f"v{i}"] for i in range(len(variants))]} for row in rows],
        },
    )


def rules_list() -> View:
    """The built-in rule sets."""
    rows = [{"name": name, "bets": len(r.bets), "tableau": r.tableau.name, "description": r.description}
            for name in BUILT_IN for r in [get_rules(name)]]
    return View(
        title="Built-in rule sets (use a name or a .toml file with --rules)",
        columns=[Column("name", "name"), Column("bets", "bets", "count"), Column("tableau", "tableau"),
                 Column("description", "description")],
        rows=rows,
        data={"rules": rows},
    )


def rules_show(rules: RuleSet) -> View:
    """A rule set's bets and pay tables, and its drawing tableau."""
    tableau = rules.tableau
    player = ", ".join(str(t) for t in range(10) if tableau.player_draws[t])
    grid = "\n".join(f"  {row[0]}: {' '.join(row[1:11])}  | {row[11]}" for row in tableau_grid(tableau))
    rows = [{"bet": b.id, "name": b.name, "pays": b.pay_table(), "source": b.source} for b in rules.bets]
    return View(
        title=(f"Rule set {rules.name}: {rules.description}\nSource: {rules.source or '-'}\n"
               f"Tableau: {tableau.name}; Player draws on {player}; Banker draws (D) or stands (S)\n"
               f"  by Banker total, against the Player's third card 0-9 | when the Player stood:\n{grid}"),
        columns=[Column("bet", "id"), Column("name", "name"), Column("pays", "pays")],
        rows=rows,
        data={"name": rules.name, "description": rules.description, "source": rules.source,
              "tableau": {"name": tableau.name, "player_draws": [t for t in range(10) if tableau.player_draws[t]],
                          "banker": {str(t): "".join("D" if tableau.banker_draws[t][k] else "S" for k in range(10))
                                     + " " + ("D" if tableau.banker_draws[t][STOOD] else "S") for t in range(8)}},
              "bets": [{"bet": b.id, "name": b.name, "pays": b.pay_table(), "source": b.source,
                        "commission": b.commission,
                        "lines": [{"label": ln.label, "pays": ln.pays} for ln in b.lines]} for b in rules.bets]},
    )


def solve(rules: RuleSet, shoe: Shoe, bet_id: str, vary: str | None, target_edge, match: str | None) -> View:
    """The payout or commission of a bet that gives it a target house edge (default 0: break even),
    or the house edge of another bet (``match``)."""
    from . import symbolic

    bet = rules.bet(bet_id)
    dist = enumerate_coup(shoe, rules.tableau)
    symbols = set().union(*(symbolic.free_symbols(a) for a in [bet.commission] + [ln.pays for ln in bet.lines]))
    if vary is None and len(symbols) == 1:
        (x,) = symbols
        varied, vary = bet, str(x)
    elif vary is None and len(bet.lines) == 1:
        vary = bet.lines[0].label
        varied, x = symbolic.with_symbol(bet, vary)
    elif vary is None:
        raise BaccaratError(f"bet {bet.id!r} has several pay lines: say which to solve for with --vary "
                            f"(a line's label or number, or 'commission')")
    else:
        varied, x = symbolic.with_symbol(bet, vary)
    ev = evaluate(varied, dist).ev
    if match is not None:
        target = evaluate(rules.bet(match), dist).house_edge
        if symbolic.free_symbols(target):
            raise BaccaratError(f"bet {match!r} has a symbolic payout; it cannot be matched")
    else:
        target = target_edge
    value = symbolic.solve_for(-ev, x, target)
    exact_value = symbolic.to_fraction(value)
    goal = f"the house edge of {match}" if match else f"a house edge of {target * 100}%"
    what = vary if vary == "commission" or varied is bet else f"payout of '{vary}'"
    row = {"bet": bet.id, "vary": vary, "value": exact_value, "house_edge": target,
           "ev_expression": str(ev), "question": f"{bet.name}: {what} for {goal}"}
    return View(
        title=f"Solve on {shoe.describe()}, rules {rules.name}: EV of {bet.name} = {ev}",
        columns=[Column("question", "question"), Column("value", "value", "number"),
                 Column("house_edge", "house edge", "percent")],
        rows=[row],
        data={"rules": rules.name, "shoe": shoe_data(shoe), **row},
    )
