"""The questions a user asks, answered as Views (exact rows plus the JSON object) for render()."""

from __future__ import annotations

from fractions import Fraction

from .bets import BetResult, RuleSet, analyse, outcome_counts
from .cards import RANKS, Shoe
from .engine import enumerate_coup
from .render import Column, View
from .tableau import PUNTO_BANCO


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
    Column("pays", "pays"),
    Column("win", "win", "percent"),
    Column("push", "push", "percent"),
    Column("loss", "loss", "percent"),
    Column("ev", "EV", "percent"),
    Column("house_edge", "house edge", "percent"),
    Column("house_edge_resolved", "edge per resolved bet", "percent"),
    Column("variance", "SD", "sd"),
    Column("hits_one_in", "hits 1 in", "one_in"),
]


def edge(rules: RuleSet, shoe: Shoe) -> View:
    """The house-edge table of every bet of ``rules`` on ``shoe``."""
    rows = [bet_row(r) for r in analyse(rules, shoe)]
    return View(
        title=f"House edge: rules {rules.name} ({rules.description}); shoe {shoe.describe()}",
        columns=EDGE_COLUMNS,
        rows=rows,
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
