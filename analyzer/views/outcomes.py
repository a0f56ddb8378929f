"""The probability of each outcome of one coup."""

from __future__ import annotations

from fractions import Fraction

from ..routes.counts import outcome_counts
from ..game.cards import Shoe
from ..game.engine import enumerate_coup
from ..game.knowledge import NOTHING, Knowledge
from ..render import Column, View
from ..game.tableau import PUNTO_BANCO, Tableau
from . import given, known_data, shoe_data


def odds(shoe: Shoe, tableau: Tableau = PUNTO_BANCO, knowledge: Knowledge = NOTHING) -> View:
    """The probability of each main outcome of one coup (given ``knowledge`` of its cards)."""
    dist = enumerate_coup(shoe, tableau, knowledge)
    rows = [
        {"id": name, "outcome": label, "combinations": count, "probability": Fraction(count, dist.total)}
        for name, label, count in outcome_counts(dist)
    ]
    agree = " that agree with the known cards" if knowledge else ""
    return View(
        title=f"Outcomes of one coup: {shoe.describe()}; {dist.total:,} ordered 6-card sequences{agree}{given(knowledge)}",
        columns=[Column("outcome", "outcome"), Column("combinations", "combinations", "count"),
                 Column("probability", "probability", "percent")],
        rows=rows,
        data={
            "shoe": shoe_data(shoe),
            "tableau": tableau.name,
            **known_data(knowledge),
            "total": dist.total,
            "outcomes": {r["id"]: {"combinations": r["combinations"], "probability": r["probability"]} for r in rows},
        },
    )
