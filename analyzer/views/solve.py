"""The payout or commission that gives a bet a target house edge."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal
from fractions import Fraction

from ..bets import symbolic
from ..bets.bet import RuleSet
from ..routes.counts import evaluate
from ..game.cards import Shoe
from ..game.engine import enumerate_coup
from ..base.errors import BaccaratError
from ..game.knowledge import NOTHING, Knowledge
from ..bets.overlay import number
from ..questions import targets
from ..render import Column, View, decimal, is_number, percent, percent_text
from . import given, known_data, shoe_data


def solve(rules: RuleSet, shoe: Shoe, bet_id: str, vary: str | None, target_edge, match: str | None,
          knowledge: Knowledge = NOTHING, rtp=None) -> View:
    """The payout or commission of a bet that gives it a target house edge (default 0: break even),
    or the house edge of another bet (``match``), or a return to player on stake and fee
    (``rtp``), given ``knowledge`` of the coup's cards; for a bet with a fee or multipliers, its
    fee or one chance of its multiplier table (targets.py)."""
    bet = rules.bet(bet_id)
    dist = enumerate_coup(shoe, rules.tableau, knowledge)
    if bet.multipliers is not None or vary == "fee":
        target = ("rtp", rtp) if rtp is not None else ("edge", target_edge if match is None
                                                           else evaluate(rules.bet(match), dist).house_edge)
        return overlay_solve(rules, shoe, bet, vary, target, evaluate(bet, dist), knowledge)
    if rtp is not None:  # the house edge per unit staked that gives this return on stake and fee
        target_edge = (1 + bet.fee) * (1 - rtp)
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


def overlay_solve(rules: RuleSet, shoe: Shoe, bet, vary: str | None, target: tuple, result, knowledge) -> View:
    """The fee (``vary`` "fee") or the chance of one entry of the multiplier table (``value.8``,
    ``count.3``) that gives ``target`` (("edge", E) or ("rtp", R)): exact where a fraction does
    it, else to 20 digits, said so."""
    goal = f"a house edge of {percent(target[1])}" if target[0] == "edge" else f"a return to player of {percent(target[1])}"
    if vary is None:
        raise BaccaratError("say what to solve for with {vary}: fee, or a chance of the multiplier table (value.8, count.3)",
                            names=("vary",))
    if vary == "fee":
        value = targets.solve_fee(result, target)
        varied = replace(bet, fee=value)
        row = {"question": f"{bet.name}: the fee for {goal}", "value": value, "decimal": decimal(value, 20), "exact": True}
    else:
        part, key = targets.varied_entry(bet, vary)
        found = targets.solve_chance(result, part, key, target)
        varied, value = found["bet"], found["value"]
        what = f"the chance of ×{number(key)}" if part == "value" else f"the chance of {number(key)} cards drawn"
        row = {"question": f"{bet.name}: {what} for {goal} (the others scaled)", "value": value if found["exact"] else None,
               "decimal": found["decimal"], "exact": found["exact"], "roots": found["roots"]}
    from ..bets.overlay import MultipliedResult

    check = (MultipliedResult(varied, result.sequences, result.total, result.patterns) if varied.multipliers is not None
             else replace(result, bet=varied))
    table = varied.multipliers
    row |= {"bet": bet.id, "vary": vary, "house_edge": check.house_edge,
            "rtp": (1 + varied.fee + check.ev) / (1 + varied.fee), "fee": varied.fee,
            "shown": shown(row["value"], vary == "fee") if row["exact"] else
            f"{row['decimal']} (irrational: no fraction gives it exactly)"}
    data_table = {} if table is None else {
        "value": [{"multiplier": m, "chance": p} for m, p in table.value],
        "count": [{"cards": k, "chance": p} for k, p in table.count]}
    note = "" if row["exact"] else "\nNo fraction gives the target exactly: the chance is shown to 20 digits, and the figures beside it are at that decimal."
    if len(row.get("roots", ())) > 1:
        note += f"\n{len(row['roots'])} chances from 0 to 1 give it: the smallest is shown; the others " + \
            ", ".join(r[:14] for r in row["roots"][1:])
    return View(
        title=f"Solve on {shoe.describe()}, rules {rules.name}: {bet.name}{given(knowledge)}{note}",
        columns=[Column("question", "question"), Column("shown", "value"),
                 Column("house_edge", "house edge", "percent"), Column("rtp", "return to player", "percent")],
        rows=[row],
        data={"rules": rules.name, "shoe": shoe_data(shoe), **known_data(knowledge), **row, "table": data_table},
    )


def shown(value: Fraction, is_fee: bool) -> str:
    """An exact solution as read: a fee in per cent, a chance as a decimal, each with its
    fraction where the decimal is not the whole of it.

    >>> shown(Fraction(1, 5), True), shown(Fraction(1, 3), False)
    ('20%', '0.333333333333 (exactly 1/3)')
    """
    text = percent_text(value) if is_fee and (value * 10**8).denominator == 1 else None
    if text:
        return text
    whole = decimal(value * 100 if is_fee else value, 12) + ("%" if is_fee else "")
    return whole if Fraction(Decimal(whole.rstrip("%"))) == (value * 100 if is_fee else value) else f"{whole} (exactly {value})"


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
