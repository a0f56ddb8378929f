"""Count systems for a bet: derived from its exact effects of removal, or given and evaluated."""

from __future__ import annotations

from ..bets.bet import RuleSet
from ..game.cards import Shoe
from ..bets.counting import LEVELS, TAG_RANKS, betting_correlation, check_levels, derive_tags, imbalance, linear_slope, tag_weights
from ..questions.eor import effect_of_removal
from ..base.errors import BaccaratError
from ..render import Column, View, is_number, percent
from . import shoe_data


def count(rules: RuleSet, shoe: Shoe, bet_id: str, tags=None, true_counts=(), label: str = "given",
          levels=LEVELS) -> View:
    """A count system for a bet: integer tag sets derived at ``levels`` (1 to 20), or a given one
    evaluated, with its betting correlation and the linear estimate of the EV at given true counts."""
    levels = check_levels(levels)  # before the work
    if not rules.bet(bet_id).numeric:
        raise BaccaratError(f"bet {bet_id!r} has a symbolic payout: a count needs numbers")
    removal = effect_of_removal(rules.only([bet_id]), shoe)  # the one bet counted for
    eors, weights = removal.tag_eors(bet_id), tag_weights(shoe)
    candidates = derive_tags(eors, weights, levels) if tags is None else [
        {"level": label, "tags": tags, "bc": betting_correlation(tags, eors, weights),
         "imbalance": imbalance(tags, weights)}]
    ev = removal.base[bet_id]
    rows = []
    for c in candidates:
        row = {"level": c["level"], **dict(zip(TAG_RANKS, c["tags"])), "bc": c["bc"], "imbalance": c["imbalance"]}
        if any(c["tags"]):
            row["slope"] = linear_slope(eors, c["tags"], weights, shoe.size)
            row.update({f"tc {tc}": ev + row["slope"] * tc for tc in true_counts})
        rows.append(row)
    return View(
        title=(f"Count for {bet_id} (rules {rules.name}; shoe {shoe.describe()}); EV now {percent(ev) if is_number(ev) else ev}\n"
               f"tags for A..9 and T (= T, J, Q, K); BC = betting correlation with the exact EoR; "
               f"imbalance = running count after the whole shoe; slope = EV change per unit of true count "
               f"(running count per deck left); tc X = linear estimate of the EV at true count X"),
        columns=[Column("level", "level")] + [Column(r, r, "count") for r in TAG_RANKS]
        + [Column("bc", "BC", "number"), Column("imbalance", "imbalance", "count"), Column("slope", "slope", "fine")]
        + [Column(f"tc {tc}", f"EV at tc {tc}", "percent") for tc in true_counts],
        rows=rows,
        data={"rules": rules.name, "shoe": shoe_data(shoe), "bet": bet_id, "ev": ev,
              "eor": dict(zip(TAG_RANKS, eors)),
              "counts": [{"level": r["level"], "tags": [r[t] for t in TAG_RANKS], "bc": r["bc"],
                          "imbalance": r["imbalance"], "slope": r.get("slope"),
                          "estimates": {str(tc): r.get(f"tc {tc}") for tc in true_counts}} for r in rows]},
    )
