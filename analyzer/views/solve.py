"""The payout or commission that gives a bet a target house edge."""

from __future__ import annotations

from fractions import Fraction

from ..bets import symbolic
from ..bets.bet import RuleSet
from ..routes.counts import evaluate
from ..game.cards import Shoe
from ..game.engine import enumerate_coup
from ..base.errors import BaccaratError
from ..game.knowledge import NOTHING, Knowledge
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


METER_SHARES = (Fraction(1, 4), Fraction(1, 2), Fraction(1), Fraction(2), Fraction(4))  # of the break-even meter


def meters(rules_name: str, bet, shoe: Shoe, tableau, values: dict, knowledge: Knowledge = NOTHING) -> View:
    """A bet that pays a progressive meter (payout symbols): its EV as a function of each meter,
    the break-even meter (the others at their ``values``), and its house edge at the meter given
    and at shares of the break-even meter."""
    ev = symbolic.to_sympy(evaluate(bet, enumerate_coup(shoe, tableau, knowledge)).ev)
    symbols = sorted(symbolic.free_symbols(ev), key=str)
    rows = []
    for x in symbols:
        others = {y: symbolic.to_sympy(values[str(y)]) for y in symbols if y != x}
        line = ev.subs(others)
        in_commission = x in symbolic.free_symbols(bet.commission)
        try:
            even = symbolic.solve_linear(line, x, Fraction(0), is_commission=in_commission)
        except BaccaratError:  # no break-even value (it would be negative, or a commission of 100% or more)
            even = None
        given_value = values[str(x)]
        levels = [given_value] + [share * even for share in (METER_SHARES if even else ())
                                  if not in_commission or share * even < 1]  # a commission stays below 100%
        for level in sorted(set(levels)):
            edge = -symbolic.to_fraction(line.subs(x, symbolic.to_sympy(level)))
            rows.append({"bet": bet.id, "name": bet.name, "meter": str(x), "value": level, "house_edge": edge,
                         "note": "the meter given" if level == given_value else
                         "break-even" if level == even else f"{level / even} x break-even"})
    return View(
        title=(f"Progressive meter: {bet.name} ({rules_name}); shoe {shoe.describe()}{given(knowledge)}\n"
               f"EV per unit = {ev}"),
        columns=[Column("name", "bet"), Column("meter", "meter"), Column("value", "value", "number"),
                 Column("note", "at"), Column("house_edge", "house edge", "percent")],
        rows=rows,
        data={"rules": rules_name, "bet": bet.id, "ev": str(ev), "shoe": shoe_data(shoe), **known_data(knowledge),
              "rows": rows},
    )
