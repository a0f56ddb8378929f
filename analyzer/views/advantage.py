"""What a bettor who sees something of the cards before betting wins."""

from __future__ import annotations

from ..questions.advantage import values_text
from ..bets.bet import RuleSet
from ..game.cards import Shoe
from ..game.knowledge import NOTHING, POSITION_NAMES, Knowledge
from ..render import Column, View, percent
from . import given, known_data, shoe_data


def advantage(rules: RuleSet, shoe: Shoe, result, knowledge: Knowledge = NOTHING) -> View:
    """One row per state the bettor may see: its probability, each bet's EV given it, the best
    bet and whether he bets; the title and JSON give his advantage per coup dealt."""
    info, bets = result.info, result.bets
    rows = []
    for state in result.states:
        best = bets[state.best]
        rows.append({"seen": info.state_name(state.groups), "probability": state.probability,
                     **{f"ev {b.id}": ev for b, ev in zip(bets, state.evs)},
                     "best": best.id, "ev": state.evs[state.best], "bets": "yes" if state.evs[state.best] > 0 else "no",
                     "groups": state.groups})
    return View(
        title=(f"Advantage of a bettor who sees {info.describe()} before betting: {percent(result.advantage)} per coup "
               f"dealt (he bets on {percent(result.betting_share, 2)} of coups)\nrules {rules.name}; shoe "
               f"{shoe.describe()}; bets {', '.join(b.id for b in bets)}; he stakes 1 unit on the best bet when its EV "
               f"is positive{given(knowledge)}"),
        columns=[Column("seen", "seen"), Column("probability", "probability", "percent")]
        + [Column(f"ev {b.id}", f"EV {b.id}", "percent") for b in bets]
        + [Column("best", "best bet"), Column("ev", "its EV", "percent"), Column("bets", "bets?")],
        rows=rows,
        data={"rules": rules.name, "shoe": shoe_data(shoe), **known_data(knowledge), "total": result.total,
              "information": {"positions": list(info.positions), "groups": [list(g) for g in info.groups]},
              "bets": [b.id for b in bets], "advantage": result.advantage, "betting_share": result.betting_share,
              "states": [{"seen": {str(p): list(info.groups[g]) for p, g in zip(info.positions, r["groups"])},
                          "probability": r["probability"], "best_bet": r["best"], "ev": r["ev"], "bets": r["bets"] == "yes",
                          "evs": {b.id: r[f"ev {b.id}"] for b in bets}} for r in rows]},
    )


def best_sort(rules: RuleSet, shoe: Shoe, ranking, bets, positions, knowledge: Knowledge = NOTHING, shown: int = 10) -> View:
    """The best split of the point values for edge sorting at ``positions``, and the runners-up."""
    rows = [{"rank": i + 1, "sort": values_text(group), "advantage": result.advantage, "share": result.betting_share,
             "group": list(group)} for i, (group, result) in enumerate(ranking[:shown])]
    best = rows[0]
    context = ", ".join(map(str, positions))
    return View(
        title=(f"Best sort at card{'s' * (len(positions) > 1)} {context}: {best['sort']} against the rest, advantage "
               f"{percent(best['advantage'])} per coup dealt ({len(ranking)} splits of the ten point values tried)\n"
               f"rules {rules.name}; shoe {shoe.describe()}; bets {', '.join(b.id for b in bets)}{given(knowledge)}"),
        columns=[Column("rank", "rank", "count"), Column("sort", "sorted group"), Column("advantage", "advantage", "percent"),
                 Column("share", "coups bet", "percent")],
        rows=rows,
        data={"rules": rules.name, "shoe": shoe_data(shoe), **known_data(knowledge), "positions": list(positions),
              "bets": [b.id for b in bets], "sort": best["group"], "advantage": best["advantage"],
              "ranking": [{"sort": r["group"], "advantage": r["advantage"], "betting_share": r["share"]} for r in rows]},
    )


def by_position(rules: RuleSet, shoe: Shoe, results, bets, knowledge: Knowledge = NOTHING) -> View:
    """The advantage of knowing the exact point value of one card, for each position."""
    rows = [{"position": p, "card": POSITION_NAMES[p - 1], "advantage": r.advantage, "share": r.betting_share}
            for p, r in results]
    return View(
        title=(f"What an exposed card is worth: the advantage of knowing its exact point value before betting, by "
               f"position\nrules {rules.name}; shoe {shoe.describe()}; bets {', '.join(b.id for b in bets)}{given(knowledge)}"),
        columns=[Column("position", "position", "count"), Column("card", "card"), Column("advantage", "advantage", "percent"),
                 Column("share", "coups bet", "percent")],
        rows=rows,
        data={"rules": rules.name, "shoe": shoe_data(shoe), **known_data(knowledge), "bets": [b.id for b in bets],
              "positions": [{"position": r["position"], "card": r["card"], "advantage": r["advantage"],
                             "betting_share": r["share"]} for r in rows]},
    )
