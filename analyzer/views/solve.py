"""The payout or commission that gives a bet a target house edge."""

from __future__ import annotations

from .. import symbolic
from ..bets import RuleSet, evaluate
from ..cards import Shoe
from ..engine import enumerate_coup
from ..errors import BaccaratError
from ..knowledge import NOTHING, Knowledge
from ..render import Column, View, is_number, percent
from . import given, known_data, shoe_data


def solve(rules: RuleSet, shoe: Shoe, bet_id: str, vary: str | None, target_edge, match: str | None,
          knowledge: Knowledge = NOTHING) -> View:
    """The payout or commission of a bet that gives it a target house edge (default 0: break even),
    or the house edge of another bet (``match``), given ``knowledge`` of the coup's cards."""
    bet = rules.bet(bet_id)
    dist = enumerate_coup(shoe, rules.tableau, knowledge)
    varied, x, what = symbolic.unknown(bet, vary)
    ev = evaluate(varied, dist).ev
    target = target_edge if match is None else evaluate(rules.bet(match), dist).house_edge
    if not is_number(target):
        raise BaccaratError(f"bet {match!r} has a symbolic payout; it cannot be matched")
    value = symbolic.solve_linear(ev, x, target, is_commission=vary == "commission")
    goal = f"the house edge of {match}" if match else f"a house edge of {percent(target)}"
    row = {"bet": bet.id, "vary": vary or str(x), "value": value, "house_edge": target,
           "ev_expression": str(ev), "question": f"{bet.name}: {what} for {goal}"}
    return View(
        title=f"Solve on {shoe.describe()}, rules {rules.name}: EV of {bet.name} = {ev}{given(knowledge)}",
        columns=[Column("question", "question"), Column("value", "value", "number"),
                 Column("house_edge", "house edge", "percent")],
        rows=[row],
        data={"rules": rules.name, "shoe": shoe_data(shoe), **known_data(knowledge), **row},
    )
