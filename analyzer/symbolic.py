"""Symbolic payouts (sympy, imported only here and only when a symbol is used).

A payout or commission may be a symbol; a bet's EV is then an exact expression in it. ``solve``
answers a designer's questions: the payout (or commission) that makes a bet break even, gives it
a target house edge, or makes its edge equal another bet's.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction


def symbol(name: str):
    """A payout symbol (non-negative)."""
    import sympy

    return sympy.Symbol(name, nonnegative=True)


def free_symbols(value) -> set:
    return set() if isinstance(value, (Fraction, int)) else set(value.free_symbols)


def to_sympy(value):
    import sympy

    return sympy.Rational(value.numerator, value.denominator) if isinstance(value, Fraction) else sympy.sympify(value)


def to_fraction(value) -> Fraction:
    """An exact sympy rational as a Fraction."""
    import sympy

    value = sympy.nsimplify(value) if not value.is_Rational else value
    return Fraction(int(value.p), int(value.q))


def with_symbol(bet, target: str, name: str = "x"):
    """The bet with one amount made the symbol ``name``: ``commission`` or a pay line by its label
    or number (1-based)."""
    from .cards import BaccaratError

    x = symbol(name)
    if target == "commission":
        return replace(bet, commission=x), x
    for i, ln in enumerate(bet.lines, 1):
        if target in (ln.label, str(i)):
            return replace(bet, lines=bet.lines[: i - 1] + (replace(ln, pays=x),) + bet.lines[i:]), x
    labels = ", ".join(f"{i} ({ln.label})" for i, ln in enumerate(bet.lines, 1))
    raise BaccaratError(f"bet {bet.id!r} has no pay line {target!r} (lines: {labels}; or 'commission')")


def solve_for(expression, x, value):
    """The x at which the exact ``expression`` equals ``value``; an error unless there is exactly one."""
    import sympy

    from .cards import BaccaratError

    roots = sympy.solve(sympy.Eq(to_sympy(expression), to_sympy(value)), x, dict=False)
    roots = [r for r in roots if r.is_real]
    if len(roots) != 1:
        raise BaccaratError(f"no single solution for {x} ({len(roots)} found)")
    return roots[0]
