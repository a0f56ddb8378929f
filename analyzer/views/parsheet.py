"""Par-sheet tables: each bet's return table, its volatility, and the ranges of a session's result."""

from __future__ import annotations

import math
from fractions import Fraction

from ..questions import parsheet as ps
from ..bets.bet import RuleSet
from ..routes.counts import evaluate
from ..game.cards import Shoe
from ..game.engine import enumerate_coup
from ..base.errors import BaccaratError
from ..game.knowledge import NOTHING, Knowledge
from ..render import Column, View
from . import given, known_data, shoe_data
from .edge import model_note


RETURN_COLUMNS = [
    Column("name", "bet"),
    Column("event", "event"),
    Column("pays", "pays", "units"),
    Column("combinations", "combinations", "count"),
    Column("probability", "probability", "number"),
    Column("return", "return", "number"),
]


def returns(rules: RuleSet, shoe: Shoe, knowledge: Knowledge = NOTHING) -> View:
    """The return table of every bet of ``rules``: a row per pay line (net pays, combinations,
    probability, return), the losing row and a total row whose return is the bet's EV."""
    dist = enumerate_coup(shoe, rules.tableau, knowledge)
    bets, rows = [], []
    for bet in rules.bets:
        result = evaluate(bet, dist)
        lines = [{"event": r.event, "pays": r.pays, "combinations": r.combinations, "probability": r.probability,
                  "return": r.ret} for r in ps.return_table(result)]
        total = {"event": "total", "combinations": result.total if bet.series is None else None,
                 "probability": Fraction(1), "return": result.ev}
        bets.append({"bet": bet.id, "name": bet.name, "lines": lines, "total": total})
        rows += [{"bet": bet.id, "name": bet.name, **ln} for ln in lines + [total]]
    return View(
        title=(f"Return tables: rules {rules.name}; shoe {shoe.describe()}{given(knowledge)}\n"
               "pays: units won per unit bet (commission paid; -1: the bet loses); return = pays x probability; "
               "the total's return is the EV" + model_note(rules.bets)
               + ("\nA bet with a fee: each row's pays less the fee, paid whatever the result. A multiplied line: a row "
                  "per pattern of its counted cards (how many are the same card), paid at its average multiplier"
                  if any(bet.overlaid for bet in rules.bets) else "")),
        columns=RETURN_COLUMNS,
        rows=rows,
        data={"rules": rules.name, "shoe": shoe_data(shoe), **known_data(knowledge), "total": dist.total, "bets": bets},
    )


def volatility(rules: RuleSet, shoe: Shoe, knowledge: Knowledge = NOTHING) -> tuple[View, View]:
    """Two tables for every bet of ``rules``: its spread (SD, volatility index, skewness, hold
    per 100 units wagered) and the ranges of the player's result after 100 to 1,000,000 hands."""
    dist = enumerate_coup(shoe, rules.tableau, knowledge)
    summary, ranges, data = [], [], []
    for bet in rules.bets:
        if not bet.numeric:
            raise BaccaratError(f"bet {bet.id!r} has a symbolic payout: its ranges need numbers")
        v = ps.volatility(evaluate(bet, dist))
        summary.append({"bet": bet.id, "name": bet.name, "sd": v.variance, "vi": v.volatility_index,
                        "skewness": v.skewness, "hold": v.hold_per_100, "normal_from": v.hands_for_normal()})
        by_hands = {}
        for r in v.ranges:
            by_hands.setdefault(r.hands, []).append(r)
        for hands, rs in by_hands.items():
            row = {"bet": bet.id, "name": bet.name, "hands": hands, "mean": float(v.ev * hands),
                   "spread": math.sqrt(v.variance * hands), "method": rs[0].method}
            for r in rs:
                key = level_key(r.level)
                row[f"low{key}"], row[f"high{key}"] = float(r.low), float(r.high)
            r95 = next((r for r in rs if r.level == Fraction(95, 100)), None)
            if r95 is not None:  # the house's hold after these hands, per cent of the amount wagered
                row["hold_low"], row["hold_high"] = -float(r95.high) / hands, -float(r95.low) / hands
            ranges.append(row)
        data.append({"bet": bet.id, "name": bet.name, "ev": v.ev, "variance": v.variance, "sd": v.sd,
                     "volatility_index": v.volatility_index, "skewness": v.skewness,
                     "hold_per_100": v.hold_per_100, "normal_from_hands": v.hands_for_normal(),
                     "ranges": [{"hands": r.hands, "level": r.level, "low": r.low, "high": r.high, "method": r.method,
                                 **({"coverage": r.coverage} if r.coverage is not None else {})} for r in v.ranges]})
    context = f"rules {rules.name}; shoe {shoe.describe()}{given(knowledge)}"
    vi = f"{int(ps.VI_LEVEL * 100)}%"
    spread = View(
        title=(f"Volatility: {context}\nSD per hand of one unit; volatility index = z({vi}) x SD = {ps.z(ps.VI_LEVEL):.4f} "
               f"x SD; skewness of one hand's result (N hands: / sqrt(N)); hold = the house's expected win per "
               f"100 units wagered; normal from = the hands from which a session's skewness is at most {ps.SKEW_LIMIT}"),
        columns=[Column("name", "bet"), Column("sd", "SD", "sd"), Column("vi", f"volatility index ({vi})", "units"),
                 Column("skewness", "skewness", "units"), Column("hold", "hold per 100", "number"),
                 Column("normal_from", "normal from (hands)", "count")],
        rows=summary,
        data={"rules": rules.name, "shoe": shoe_data(shoe), **known_data(knowledge), "bets": data},
    )
    levels = [f"{int(level * 100)}%" for level in ps.LEVELS]
    table = View(
        title=(f"Ranges of the player's result after N hands of one unit (units won; the house's is the opposite): "
               f"{context}\nThe range holds with the confidence shown. normal: mean +- z x SD x sqrt(N); exact: the "
               "exact distribution of the N hands' sum, where the normal approximation is poor (a session's "
               f"skewness above {ps.SKEW_LIMIT}); normal, poor: too costly to count exactly, read with care. "
               "hold 95%: the house's win per unit wagered after N hands, 95% range"),
        columns=[Column("name", "bet"), Column("hands", "hands", "count"), Column("method", "method"),
                 Column("mean", "mean", "units"),
                 Column("spread", "SD", "units")]
                + [Column(f"{end}{level_key(level)}", f"{name} {end}", "units")
                   for level, name in zip(ps.LEVELS, levels) for end in ("low", "high")]
                + [Column("hold_low", "hold 95% low", "percent"), Column("hold_high", "hold 95% high", "percent")],
        rows=ranges,
        data={"rules": rules.name, "shoe": shoe_data(shoe), **known_data(knowledge), "levels": list(ps.LEVELS),
              "hands": list(ps.HANDS)},
    )
    return spread, table


def level_key(level: Fraction) -> str:
    return str(int(level * 100))
