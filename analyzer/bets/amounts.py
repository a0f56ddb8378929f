"""Payouts and commissions as a rule file writes them (and a Python pay line may): ``11``,
``0.95``, ``"19/20"``, ``"1:2"``, ``"push"``, ``"5 for 1"`` (the stake included: 4 to 1),
``"5%"`` for a commission, a declared symbol, or an expression of symbols and numbers for a
progressive meter (``"J / 10"``, ``"J * 10% + 50"``); never negative, at most MAX_PAYOUT, with
at most MAX_DIGITS digits (``1e999999999`` is refused, never made an integer).

An expression is parsed here, token by token, into a linear form (a number per symbol and a
constant) and only then made a sympy expression: it is never evaluated as Python. It may add,
subtract, multiply by a number, divide by a number and use brackets; a product or quotient of
two symbols (not linear: no break-even meter could be solved) is refused, as is a payout that
would fall below 0 for some meter (a coefficient or constant below 0).
"""

from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction

from ..base.numbers import MAX_DIGITS
from ..base.errors import BaccaratError
from .symbolic import symbol

MAX_PAYOUT = 10**12  # a trillion to one: beyond any bet dealt, and every table stays readable
MAX_EXPRESSION = 200  # characters of a payout expression: a share of a meter and a few numbers
NUMBER = re.compile(r"^([0-9]+(?:\.[0-9]+)?)(?:(%)|:([0-9]+(?:\.[0-9]+)?)|/([0-9]+))?$")
FOR_ONE = re.compile(r"^([0-9]+(?:\.[0-9]+)?)for([0-9]+(?:\.[0-9]+)?)$")  # "5 for 1", spaces removed
TOKEN = re.compile(r"\s*(?:([0-9]+(?:\.[0-9]+)?%?)|([A-Za-z_][A-Za-z0-9_]*)|(.))")


def parse_amount(value, context: str, path: str, symbols: set = frozenset(), percent: bool = False):
    """A payout or commission: a number 0 or more (``11``, ``0.95``, ``"19/20"``, ``"1:2"``,
    ``"5%"`` for a commission), ``"push"`` (a payout of 0), ``"n for 1"``, one of the declared
    ``symbols``, or an expression in them.

    >>> parse_amount("1:2", "f", "k"), parse_amount(Decimal("0.95"), "f", "k"), parse_amount("5%", "f", "k", percent=True)
    (Fraction(1, 2), Fraction(19, 20), Fraction(1, 20))
    >>> parse_amount("5 for 1", "f", "k"), parse_amount("J * 10% + 50", "f", "k", {"J"})
    (Fraction(4, 1), J/10 + 50)
    """
    return parse_payout(value, context, path, symbols, percent)[0]


def parse_payout(value, context: str, path: str, symbols: set = frozenset(), percent: bool = False):
    """(amount, as written): the amount as :func:`parse_amount` reads it, and the text to show it
    by where the casino's form is not the to-one ratio (``"5 for 1"``), else ''."""
    bad = f"{context}: {path}: "
    if isinstance(value, bool):
        raise BaccaratError(bad + f"{value!r} is not a number")
    if isinstance(value, (int, Decimal)):
        if isinstance(value, Decimal) and not value.is_finite():
            raise BaccaratError(bad + f"{str(value)!r} is not a finite number")
        if value < 0:
            raise BaccaratError(bad + f"negative {'commission' if percent else 'payout'} {str(value)}")
        if isinstance(value, Decimal) and value.as_tuple().exponent < -MAX_DIGITS:
            raise BaccaratError(bad + f"more than {MAX_DIGITS} decimal places")
        return bounded(Fraction(min(value, MAX_PAYOUT + 1)), bad, percent), ""  # 1e999999999 is never made an integer
    if isinstance(value, str):
        text = value.replace(" ", "")
        if sum(c.isdigit() for c in text) > MAX_DIGITS:
            raise BaccaratError(bad + f"more than {MAX_DIGITS} digits")
        if len(text) > MAX_EXPRESSION:
            raise BaccaratError(bad + f"{len(text):,} characters (a payout is at most {MAX_EXPRESSION})")
        if text == "push" and not percent:
            return Fraction(0), ""
        if text.startswith("-"):
            raise BaccaratError(bad + f"negative {'commission' if percent else 'payout'} {value!r}")
        m = NUMBER.match(text)
        if m and (percent or not m.group(2)):
            amount = Fraction(m.group(1))
            if m.group(2):
                return amount / 100, ""
            if m.group(3) is not None or m.group(4) is not None:
                divisor = Fraction(m.group(3) or m.group(4))
                if divisor == 0:
                    raise BaccaratError(bad + f"{value!r} divides by zero")
                return bounded(amount / divisor, bad, percent), ""
            return bounded(amount, bad, percent), ""
        m = FOR_ONE.match(text) if not percent else None
        if m:
            back, stake = Fraction(m.group(1)), Fraction(m.group(2))
            if stake == 0:
                raise BaccaratError(bad + f"{value!r}: \"n for m\" needs a stake m above 0")
            if back < stake:
                raise BaccaratError(bad + f"{value!r} returns less than the stake (\"n for 1\" gives back n units, "
                                    "the stake included: n must be 1 or more; a line that loses is left out)")
            return bounded(back / stake - 1, bad), f"{format_number(back)} for {format_number(stake)}"
        if text in symbols:
            return symbol(text), ""
        if not percent and any(c in text for c in "+-*/()") and any(c.isalpha() for c in text):
            return expression(value, bad, symbols), ""
    raise BaccaratError(
        bad + f"{value!r} is not a {'commission' if percent else 'payout'} (a number 0 or more such as 11, 0.95, "
        + ('"5%"' if percent else '"19/20", "1:2", "5 for 1" or "push"') + ", a name listed in symbols"
        + ("" if percent else ", or an expression in them such as \"J / 10 + 50\"") + ")"
    )


def format_number(x: Fraction) -> str:
    """A number as written: 5, or 2.5.

    >>> format_number(Fraction(5)), format_number(Fraction(5, 2))
    ('5', '2.5')
    """
    return str(x.numerator) if x.denominator == 1 else str(Decimal(x.numerator) / Decimal(x.denominator))


def bounded(amount: Fraction, bad: str, percent: bool = False) -> Fraction:
    """A payout no larger than MAX_PAYOUT (a commission is checked below 100% by its caller)."""
    if amount > MAX_PAYOUT:
        raise BaccaratError(bad + ("a commission must be below 100%" if percent else
                                   f"more than {MAX_PAYOUT:,} (a payout of at most a trillion to one)"))
    return amount


def expression(text: str, bad: str, symbols: set):
    """A payout expression's value: a linear form in the declared symbols, read by recursive
    descent (:class:`Reader`), then checked (no coefficient or constant below 0, none above
    MAX_PAYOUT) and made a sympy expression (a Fraction when no symbol is left).

    >>> expression("(J + 100) / 2", "", {"J"}), expression("2 * (3 + 1)", "", set())
    (J/2 + 50, Fraction(8, 1))
    """
    form = Reader(text, bad, symbols).whole()
    for name, coefficient in form.items():
        if coefficient < 0:
            raise BaccaratError(bad + f"{text!r} falls below 0 for some "
                                + (f"value of {name}" if name else "meter") + " (every number in a payout's "
                                "expression, and its constant, is 0 or more)")
        bounded(coefficient, bad + f"{text!r}: ")
    constant = form.pop(None, Fraction(0))
    form = {k: v for k, v in form.items() if v != 0}
    if not form:
        return constant
    import sympy  # heavy: only for symbolic payouts

    return sympy.Add(sympy.Rational(constant.numerator, constant.denominator),
                     *(sympy.Rational(v.numerator, v.denominator) * symbol(k) for k, v in sorted(form.items())))


class Reader:
    """Recursive descent over a payout expression: sum := product (+|- product)*; product := atom
    (*|/ atom)*; atom := number | number% | symbol | (sum). Each value is a linear form, a dict
    symbol -> coefficient (None: the constant), in Fractions."""

    def __init__(self, text: str, bad: str, symbols: set):
        self.text, self.bad, self.symbols = text, bad, symbols
        self.tokens = [m.groups() for m in TOKEN.finditer(text) if m.group(0).strip()]
        self.at = 0

    def fail(self, message: str):
        raise BaccaratError(self.bad + f"{self.text!r}{message}")

    def peek(self) -> tuple:
        return self.tokens[self.at] if self.at < len(self.tokens) else (None, None, None)

    def whole(self) -> dict:
        form = self.total()
        if self.at < len(self.tokens):
            self.fail(f" has {''.join(t for t in self.tokens[self.at] if t)!r} where an operator (+, -, *, /) or the "
                      "end was expected")
        return form

    def atom(self) -> dict:
        number, name, op = self.peek()
        self.at += 1
        if number is not None:
            return {None: Fraction(number.rstrip("%")) / (100 if number.endswith("%") else 1)}
        if name is not None:
            if name not in self.symbols:
                listed = ", ".join(sorted(self.symbols)) or "none is declared"
                self.fail(f": unknown symbol {name!r} (symbols: {listed}; list it in symbols)")
            return {name: Fraction(1)}
        if op == "(":
            inner = self.total()
            if self.peek()[2] != ")":
                self.fail(": a bracket is not closed")
            self.at += 1
            return inner
        what = "ends too soon" if op is None else f"has {op!r} where a number, a symbol or a bracket was expected"
        self.fail(f" {what} (an expression adds, subtracts, multiplies and divides numbers and symbols: \"J / 10 + 50\")")

    def product(self) -> dict:
        value = self.atom()
        while self.peek()[2] in ("*", "/"):
            op = self.peek()[2]
            self.at += 1
            value = self.times(value, self.atom()) if op == "*" else self.divided(value, self.atom())
        return value

    def times(self, value: dict, other: dict) -> dict:
        if len(value) > 1 or None not in value:
            value, other = other, value
        if len(value) > 1 or None not in value:
            self.fail(": a symbol times a symbol (a payout is linear in its symbols: a number times each, plus a number)")
        return {k: v * value[None] for k, v in other.items()}

    def divided(self, value: dict, other: dict) -> dict:
        if len(other) > 1 or None not in other:
            self.fail(": divides by a symbol (a payout is linear in its symbols)")
        if other[None] == 0:
            self.fail(" divides by zero")
        return {k: v / other[None] for k, v in value.items()}

    def total(self) -> dict:
        value = self.product()
        while self.peek()[2] in ("+", "-"):
            sign = 1 if self.peek()[2] == "+" else -1
            self.at += 1
            for k, v in self.product().items():
                value[k] = value.get(k, Fraction(0)) + sign * v
        return value

