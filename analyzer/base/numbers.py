"""Exact numbers as text, for the library and its outputs alike: a Fraction rounded exactly to a
decimal or a percentage, in scientific notation, its square root; an exact value as "p/q"; data
made JSON-ready (Fractions as strings); a payout and a bet's pay table as a casino writes them.
Nothing here knows of a table, a page or a flag (render.py lays views out with these).
"""

from __future__ import annotations

import math
from decimal import Decimal, localcontext
from fractions import Fraction

MAX_DIGITS = 100  # digits of a number the user writes: far beyond any need, far below Python's 4,300



def exact(q) -> str:
    """An exact value as text: ``"p/q"``, or ``"n"`` for an integer.

    >>> exact(Fraction(-3, 4)), exact(Fraction(6, 3)), exact(7)
    ('-3/4', '2', '7')

    A symbolic value (a sympy expression in a payout symbol) is shown as its expression.
    """
    if type(q) is Fraction:
        return str(q)
    return str(Fraction(q)) if is_number(q) else str(q)


def is_number(value) -> bool:
    return isinstance(value, (Fraction, int))


def decimal(q, places: int) -> str:
    """q rounded half-even to ``places`` decimals, computed exactly.

    >>> decimal(Fraction(2, 3), 4), decimal(Fraction(-1, 8), 2), decimal(Fraction(-1, 1000), 2), decimal(10**30, 1)
    ('0.6667', '-0.12', '-0.00', '1000000000000000000000000000000.0')
    """
    q = q if isinstance(q, Fraction) else Fraction(q)
    return rounded(q.numerator, q.denominator, places)


def rounded(numerator: int, denominator: int, places: int) -> str:
    """numerator / denominator (denominator > 0) rounded half-even to ``places`` decimals, in
    integers alone: a table of a thousand cells makes no Fraction.

    >>> rounded(1, 8, 2), rounded(3, 8, 2), rounded(-3, 8, 2), rounded(2, 3, 0)
    ('0.12', '0.38', '-0.38', '1')
    """
    scaled, rest = divmod(abs(numerator) * 10**places, denominator)
    if 2 * rest > denominator or (2 * rest == denominator and scaled % 2):  # half to even, as round() does
        scaled += 1
    return fixed_point(scaled, places, negative=numerator < 0)


def fixed_point(scaled: int, places: int, negative: bool) -> str:
    """The integer ``scaled`` / 10**places written with ``places`` decimals."""
    digits = str(abs(scaled)).rjust(places + 1, "0")
    text = digits[: len(digits) - places] + ("." + digits[len(digits) - places :] if places else "")
    return ("-" if negative else "") + text


def percent(q, places: int = 4) -> str:
    """q as a percentage.

    >>> percent(Fraction(-1, 80))
    '-1.2500%'
    """
    q = q if isinstance(q, Fraction) else Fraction(q)
    return rounded(q.numerator * 100, q.denominator, places) + "%"


def scientific(q, digits: int = 4) -> str:
    """q in scientific notation, correctly rounded.

    >>> scientific(Fraction(1, 30000)), scientific(Fraction(0))
    ('3.3333E-5', '0')
    """
    q = Fraction(q)
    if q == 0:
        return "0"
    with localcontext() as ctx:
        ctx.prec = digits + 1
        return f"{Decimal(q.numerator) / Decimal(q.denominator):.{digits}E}".replace("E-0", "E-").replace("E+0", "E+")


def sqrt_decimal(q, places: int = 4) -> str:
    """The square root of a non-negative rational, rounded to ``places`` decimals.

    >>> sqrt_decimal(Fraction(2)), sqrt_decimal(Fraction(1, 4), 2), sqrt_decimal(Fraction(10**300))[:6]
    ('1.4142', '0.50', '100000')
    """
    q = Fraction(q)
    extra = 4  # guard digits: the floor of the root, then correctly rounded unless within 1e-4 of a half
    floor_root = math.isqrt(q.numerator * 10 ** (2 * (places + extra)) // q.denominator)
    return fixed_point(round(Fraction(floor_root, 10**extra)), places, negative=False)


def to_json_text(data) -> str:
    """Data as indented JSON text, exact values as strings (to_json)."""
    import json

    return json.dumps(to_json(data), indent=2)


def to_json(value):
    """JSON-ready: Fractions become ``"p/q"`` strings; ints stay JSON integers."""
    kind = type(value)  # the common kinds first, by type alone: a tracker's answer holds a thousand values
    if kind is str or kind is int or kind is bool or value is None or kind is float:
        return value
    if kind is Fraction:
        return str(value)
    if kind is dict:
        return {k: to_json(v) for k, v in value.items()}
    if kind is list:
        return [to_json(v) for v in value]
    if isinstance(value, Fraction):
        return exact(value)
    if not isinstance(value, (dict, list, tuple, str, int, float, bool, type(None))):
        return str(value)  # a sympy expression
    if isinstance(value, dict):
        return {k: to_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    return value


def pay_table(bet, brief: bool = False) -> str:
    """The pay lines in words, e.g. ``Banker wins 1:1; tie push; 5% commission``; ``brief``
    names only the number of lines of a bet that has several."""
    text = f"{len(bet.lines)} pay lines" if brief and len(bet.lines) > 1 else "; ".join(
        f"{ln.label} {ln.written or payout_text(ln.pays)}" for ln in bet.lines)
    text += f"; {percent_text(bet.commission)} commission" if bet.commission != 0 else ""
    text += f"; {percent_text(bet.fee)} fee" if getattr(bet, "fee", 0) else ""
    multipliers = getattr(bet, "multipliers", None)
    if multipliers is not None:
        text += "; multiplied" if brief else f"; multiplied: {multipliers.describe()}"
    return text


def payout_text(pays) -> str:
    """A payout as casinos write it.

    >>> [payout_text(Fraction(p)) for p in ("1/2", "0", "25", "3/2", "0.54", "19/20", "1/3", "7/11")]
    ['1:2', 'push', '25:1', '3:2', '0.54:1', '0.95:1', '1:3', '7/11:1']
    >>> payout_text(Fraction(1, 2**50))[:8]
    '0.000000'
    """
    if pays == 0:
        return "push"
    if not isinstance(pays, Fraction):  # a symbol, or an expression in one (bracketed)
        text = str(pays)
        return f"({text}):1" if any(c in text for c in " +-*/") else f"{text}:1"
    if pays.denominator <= 5:
        return f"{pays.numerator}:{pays.denominator}"
    d, twos, fives = pays.denominator, 0, 0
    while d % 2 == 0:
        d, twos = d // 2, twos + 1
    while d % 5 == 0:
        d, fives = d // 5, fives + 1
    if d == 1:  # a terminating decimal, as casinos write 0.54:1
        return f"{decimal(pays, max(twos, fives))}:1"
    return f"{pays}:1"


def percent_text(q) -> str:
    """A commission as a percentage.

    >>> percent_text(Fraction(1, 20)), percent_text(Fraction(1, 40)), percent_text(Fraction(9999, 10000)), percent_text(Fraction(1, 300))
    ('5%', '2.5%', '99.99%', '1/3%')
    """
    if not isinstance(q, Fraction):
        return f"100*{q}%"
    share = q * 100
    places = next((k for k in range(MAX_DIGITS) if (share * 10**k).denominator == 1), None)  # a terminating decimal
    return f"{share}%" if places is None else fixed_point(abs(share.numerator) * 10**places // share.denominator,
                                                          places, share < 0) + "%"
