"""The fee, or the chance of one entry of a bet's multiplier table, that gives it a target house
edge or return to player: what a designer of a live-studio game asks (issue 56).

Why it is exact. The counts of each multiplied line's patterns do not depend on the table
(routes/multipliers.py), so the EV is a function of the table alone: with the chance p of one
entry varied and the others scaled by (1 - p) / (1 - p0) to keep the sum 1, each E[m**b] is
linear in p, and E[M] for a pattern of r blocks a polynomial of degree at most r
(overlay.Multipliers.mean); a varied count of cards drawn, or a spot multiplier, is linear.
The EV polynomial is found exactly by Lagrange interpolation through r + 1 exact EVs, and its
roots in [0, 1] by sympy's exact real-root isolation: the smallest is given (and every other
named), a rational root as a fraction, an irrational one to 20 significant digits (no fraction
gives the target exactly) with a table beside it. The fee enters the EV as -fee: a linear equation, its root rational.
"""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal
from fractions import Fraction

from ..base.errors import BaccaratError
from ..base.numbers import decimal, percent
from ..bets.bet import BetResult
from ..bets.overlay import MultipliedResult, exact_key, number


def varied_entry(bet, vary: str) -> tuple[str, Fraction]:
    """("value" or "count", the entry's key) that ``vary`` names (``value.8``, ``count.3``)."""
    table = bet.multipliers
    part, _, key = vary.partition(".")
    if table is None or part not in ("value", "count", "spot") or not key:
        words = "fee" + (", value.M (a multiplier's chance) or count.K (the chance of K cards drawn)" if table else "")
        raise BaccaratError("bet {bet}: {vary} names what to solve for: " + words, names=("vary",), bet=repr(bet.id))
    x = exact_key(key)
    if x is None:
        raise BaccaratError("{vary} {given}: {key} is not a number (a plain decimal such as 8 or 1.5)",
                            names=("vary",), given=vary[:60], key=repr(key[:40]))
    if part == "spot" and not table.spot:
        raise BaccaratError(f"bet {bet.id!r} has card multipliers, not a spot multiplier: vary value.M or count.K")
    if table.spot and part == "count":
        raise BaccaratError(f"bet {bet.id!r} has a spot multiplier: vary one of its multipliers (value.M)")
    if part == "spot":
        part = "value"
    entries = dict(table.value if part == "value" else table.count)
    if x not in entries:
        listed = ", ".join(f"{part}.{number(k)}" for k in entries)
        raise BaccaratError(f"bet {bet.id!r}: its {part} table has no entry {number(x)} (entries: {listed})")
    if entries[x] == 1:
        raise BaccaratError("{vary} {given}: that entry holds every chance, there are no others to scale",
                            names=("vary",), given=vary)
    return part, x


def with_chance(bet, part: str, key: Fraction, p: Fraction):
    """``bet`` with the entry ``key`` of its ``part`` table at chance ``p``, the others scaled."""
    table = bet.multipliers
    entries = table.value if part == "value" else table.count
    p0 = dict(entries)[key]
    scaled = tuple((k, p if k == key else q * (1 - p) / (1 - p0)) for k, q in entries)
    return replace(bet, multipliers=replace(table, **{part: scaled}))


def ev_polynomial(result: BetResult, part: str, key: Fraction) -> list[Fraction]:
    """The EV as a polynomial in the varied chance (coefficients, constant first), exact."""
    bet = result.bet
    patterns = getattr(result, "patterns", ())
    degree = 1 if part == "count" or bet.multipliers.spot else max([len(p) for _, p, _ in patterns] + [1])
    points = [Fraction(i, degree) for i in range(degree + 1)]
    values = [MultipliedResult(with_chance(bet, part, key, p), result.sequences, result.total, patterns).ev for p in points]
    coefficients = [Fraction(0)] * (degree + 1)
    for i, (xi, yi) in enumerate(zip(points, values)):  # Lagrange: yi times the basis polynomial of xi
        basis, scale = [Fraction(1)], Fraction(1)
        for j, xj in enumerate(points):
            if j != i:
                basis = [a - xj * b for a, b in zip([Fraction(0)] + basis, basis + [Fraction(0)])]
                scale *= xi - xj
        for d, c in enumerate(basis):
            coefficients[d] += yi * c / scale
    return coefficients


def ev_goal(target: tuple, fee: Fraction) -> Fraction:
    """The EV per unit staked that a target ("edge", E) or ("rtp", R) asks (the fee held)."""
    kind, value = target
    return -value if kind == "edge" else value * (1 + fee) - 1 - fee


def solve_fee(result: BetResult, target: tuple) -> Fraction:
    """The fee giving ``target``: EV = X - fee, X the EV before the fee; the RTP (1 + X) / (1 + fee)."""
    bet = result.bet
    before = result.ev + bet.fee
    kind, value = target
    fee = before + value if kind == "edge" else (1 + before) / value - 1
    if not 0 <= fee < 1:
        raise BaccaratError(f"no fee from 0 to 100% of the stake does it (it would take {percent(fee)})")
    return fee


def solve_chance(result: BetResult, part: str, key: Fraction, target: tuple) -> dict:
    """The chance of the varied entry giving ``target``: {"value": Fraction or None, "decimal":
    text, "exact": bool, "polynomial": [...], "bet": the bet with that chance}."""
    import sympy  # heavy: only here

    bet = result.bet
    coefficients = ev_polynomial(result, part, key)
    coefficients[0] -= ev_goal(target, bet.fee)
    x = sympy.Symbol("p")
    poly = sympy.Poly(sum(sympy.Rational(c.numerator, c.denominator) * x**d for d, c in enumerate(coefficients)), x)
    if poly.is_zero:
        raise BaccaratError("every chance of it gives that target: the bet does not depend on it on this shoe")
    if poly.degree() == 0:
        raise BaccaratError("the EV does not depend on that chance on this shoe (no card is ever drawn, or its lines "
                            "never settle a multiplied win)")
    roots = sorted(set(r for r in poly.real_roots() if 0 <= r <= 1))
    if not roots:
        at = [ev_at(coefficients, target, bet.fee, p) for p in (0, 1)]
        raise BaccaratError(f"no chance from 0 to 1 does it: the {'house edge' if target[0] == 'edge' else 'return'} "
                            f"goes from {percent(at[0])} (at 0) to {percent(at[1])} (at 1)")
    shown = [str(sympy.N(r, 20)) for r in roots]
    root = roots[0]
    if root.is_Rational:
        value = Fraction(int(root.p), int(root.q))
        return {"value": value, "decimal": decimal(value, 20), "exact": True, "roots": shown,
                "bet": with_chance(bet, part, key, value), "polynomial": coefficients}
    near = Fraction(Decimal(shown[0]))
    return {"value": None, "decimal": shown[0], "exact": False, "roots": shown, "bet": with_chance(bet, part, key, near),
            "polynomial": coefficients}


def ev_at(coefficients: list, target: tuple, fee: Fraction, p) -> Fraction:
    """The house edge or RTP at chance p, from the polynomial less its goal."""
    ev = sum(c * Fraction(p) ** d for d, c in enumerate(coefficients)) + ev_goal(target, fee)
    return -ev if target[0] == "edge" else (1 + fee + ev) / (1 + fee)
