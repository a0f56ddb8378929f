"""Effects of removal: one card of each rank, and pairs of cards against the linear estimate."""

from __future__ import annotations

from ..bets.bet import RuleSet
from ..game.cards import RANKS, Shoe
from ..questions.eor import effect_of_removal, pair_removals
from ..game.knowledge import NOTHING, Knowledge
from ..render import Column, View
from . import given, known_data, shoe_data


def unit_kind(unit: str) -> str:
    """The column kind that shows effects of removal in ``unit`` (percent or permille)."""
    return "permille" if unit == "permille" else "fine"


OUTCOME_NAMES = {"banker": "Banker", "player": "Player", "tie": "Tie"}


def eor(rules: RuleSet, shoe: Shoe, unit: str = "percent", progress=None, knowledge: Knowledge = NOTHING,
        by_name: bool = False) -> View:
    """The exact effect of removing one card of each rank on every bet (and on P(banker/player/tie)),
    given ``knowledge`` of the coming coup's cards; each row shown by its bet's id (what a command
    takes), or ``by_name`` by its name (as a par sheet's other tables show it), the id kept as data."""
    removal = effect_of_removal(rules, shoe, progress, knowledge)
    kind = unit_kind(unit)
    across = {b.id for b in rules.bets if b.series is not None}
    bets, outcomes = removal_rows(removal, across), removal_rows(removal.outcomes)
    names = {b.id: b.name for b in rules.bets}
    for row in bets:
        row["name"] = names[row["bet"]]
    for row in outcomes:
        row["name"] = f"P({OUTCOME_NAMES.get(row['bet'], row['bet'])})"
        row["bet"] = f"P({row['bet']})"
    return View(
        title=(f"Effect of removing one card (change in EV per unit; + helps the bettor): rules {rules.name}; "
               f"shoe {shoe.describe()}\nzero = T/J/Q/K together; sum check = sum over ranks of cards left x EoR "
               f"(exactly 0)" + ("; none for bets across coups, whose EV is no linear function of one coup's chances"
                                 if across else "") + (given(knowledge) + "; each card's weight is also the chance of the known cards "
                                 "once it is gone" if knowledge else "")),
        columns=[Column("name" if by_name else "bet", "bet"), Column("ev", "EV", "percent")]
        + [Column(r, r, kind) for r in RANKS] + [Column("zero", "zero", kind),
                                                Column("sum_of_squares", "sum sq", "sci"),
                                                Column("sum_check", "sum check", "sci")],
        rows=bets + outcomes,
        data={
            "rules": rules.name, "shoe": shoe_data(shoe), **known_data(knowledge),
            "bets": [{"bet": r["bet"], "ev": r["ev"], "eor": {k: r[k] for k in RANKS}, "zero": r["zero"],
                      "sum_of_squares": r["sum_of_squares"], "sum_check": r["sum_check"]} for r in bets],
            "outcomes": [{"outcome": name, "probability": r["ev"], "eor": {k: r[k] for k in RANKS}, "zero": r["zero"]}
                         for name, r in zip(removal.outcomes.base, outcomes)],
        },
    )


def removal_rows(removal, across=frozenset()) -> list[dict]:
    """A row for each key of a Removal: its value now, the EoR of each rank, and the sums (no sum
    check for the bets ``across`` coups: the sum rule holds for a linear function of one coup's
    chances, as the EV of a bet on one coup is, not for theirs)."""
    return [{"bet": key, "ev": base, **{RANKS[r]: (None if e is None else e[key]) for r, e in enumerate(removal.by_rank)},
             "zero": removal.zero_class(key), "sum_of_squares": removal.sum_of_squares(key),
             "sum_check": None if key in across else removal.check_sum(key)} for key, base in removal.base.items()]


def eor_pairs(rules: RuleSet, shoe: Shoe, bet_id: str, unit: str = "percent", progress=None) -> View:
    """The exact effect of removing two cards, each pair of ranks, against the linear estimate."""
    rows = pair_removals(rules, shoe, bet_id, progress)
    kind = unit_kind(unit)
    return View(
        title=(f"Effect of removing two cards on {bet_id} (rules {rules.name}; shoe {shoe.describe()}): "
               f"exact, linear estimate EoR(r1) + EoR(r2), and the error of the estimate"),
        columns=[Column("ranks", "removed"), Column("exact", "exact change", kind),
                 Column("linear", "linear estimate", kind), Column("error", "error", kind)],
        rows=rows,
        data={"rules": rules.name, "shoe": shoe_data(shoe), "bet": bet_id, "pairs": rows},
    )
