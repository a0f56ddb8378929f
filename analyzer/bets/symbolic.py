"""Symbolic payouts (sympy, imported only here and only when a symbol is used).

A payout or commission may be a symbol; a bet's EV is then an exact expression in it. ``solve``
answers a designer's questions: the payout (or commission) that makes a bet break even, gives it
a target house edge, or makes its edge equal another bet's.
"""

from __future__ import annotations

import itertools
from dataclasses import replace
from fractions import Fraction

from ..base.errors import BaccaratError
from ..base.numbers import decimal, percent


def symbol(name: str):
    """A payout symbol (non-negative)."""
    import sympy  # heavy: about a second to import, only for symbolic payouts

    return sympy.Symbol(name, nonnegative=True)


def free_symbols(value) -> set:
    return set() if isinstance(value, (Fraction, int)) else set(value.free_symbols)


def to_sympy(value):
    import sympy  # heavy: about a second to import, only for symbolic payouts

    return sympy.Rational(value.numerator, value.denominator) if isinstance(value, Fraction) else sympy.sympify(value)


def to_fraction(value) -> Fraction:
    """An exact sympy rational as a Fraction."""
    return Fraction(int(value.p), int(value.q))


def fresh_symbol(taken: set):
    """A payout symbol whose name is not among ``taken`` (x, then u, v, w, x1, x2, ...: there is
    always one, however many symbols a rule file declares).

    >>> fresh_symbol({symbol(n) for n in ["x", "u", "v", "w"] + [f"x{i}" for i in range(1, 200)]})
    x200
    """
    names = {str(t) for t in taken}
    candidates = itertools.chain(["x", "u", "v", "w"], (f"x{i}" for i in itertools.count(1)))
    return symbol(next(name for name in candidates if name not in names))


def amounts(bet) -> list:
    """The bet's commission and payouts: what may be symbolic."""
    return [bet.commission] + [ln.pays for ln in bet.lines]


def with_symbol(bet, target: str):
    """The bet with one amount made a fresh symbol: ``commission``, or a pay line by its label or
    number (1-based)."""
    x = fresh_symbol(set().union(*map(free_symbols, amounts(bet))))
    if target == "commission":
        return replace(bet, commission=x), x
    line = line_named(bet, target)
    if line is not None:
        i = bet.lines.index(line) + 1
        return replace(bet, lines=bet.lines[: i - 1] + (replace(line, pays=x),) + bet.lines[i:]), x
    labels = ", ".join(f"{i} ({ln.label})" for i, ln in enumerate(bet.lines, 1))
    raise BaccaratError(f"bet {bet.id!r} has no pay line {target!r} (lines: {labels}; or 'commission')")


def line_named(bet, target: str):
    """The pay line ``target`` names: by its label, or by its number from 1; None if none."""
    for i, ln in enumerate(bet.lines, 1):
        if target in (ln.label, str(i)):
            return ln
    return None


def unknown(bet, vary: str | None):
    """(the bet with its unknown, the unknown, what it is) for ``solve``: the named line or
    commission, else the bet's one payout symbol, else its only pay line."""
    symbols = set().union(*map(free_symbols, amounts(bet)))
    if vary is not None:
        varied, x = with_symbol(bet, vary)
        return varied, x, vary if vary == "commission" else f"payout of '{line_named(bet, vary).label}'"
    if len(symbols) == 1:
        (x,) = symbols
        return bet, x, str(x)
    if len(bet.lines) == 1 and not symbols:
        varied, x = with_symbol(bet, "1")
        return varied, x, f"payout of '{bet.lines[0].label}'"
    raise BaccaratError("bet {bet} has several pay lines or symbols: say which to solve for with {vary} "
                        "(a line's label or number, or 'commission')", names=("vary",), bet=repr(bet.id))


def solve_linear(ev, x, target: Fraction, is_commission: bool) -> Fraction:
    """The x at which the house edge -ev equals ``target``: ev is linear in x, so x is rational."""
    import sympy  # heavy: about a second to import, only for symbolic payouts

    ev = sympy.expand(to_sympy(ev))
    others = ev.free_symbols - {x}
    if others:
        names = sorted(map(str, others))
        listed = ", ".join(names[:10]) + (f" and {len(names) - 10} more" if len(names) > 10 else "")
        raise BaccaratError(f"the EV also depends on {listed}: give it a value first")
    slope, intercept = ev.diff(x), ev.subs(x, 0)
    if not slope.free_symbols and slope == 0:
        raise BaccaratError(f"the EV does not depend on {x}: that pay line never settles the bet on this shoe")
    if slope.free_symbols:
        raise BaccaratError(f"the EV is not linear in {x}: {ev}")
    value = (-target - to_fraction(intercept)) / to_fraction(slope)
    if is_commission and not 0 <= value < 1:
        raise BaccaratError(f"no commission from 0 to 100% does it (it would take {percent(value)})")
    if not is_commission and value < 0:
        raise BaccaratError(f"no payout does it (it would take a negative payout, {decimal(value, 6)})")
    return value
