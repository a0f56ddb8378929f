"""Payouts and commissions as a rule file writes them (and a Python pay line may): ``11``,
``0.95``, ``"19/20"``, ``"1:2"``, ``"push"``, ``"5%"`` for a commission, or a declared symbol;
never negative, at most MAX_PAYOUT, with at most MAX_DIGITS digits (``1e999999999`` is refused,
never made an integer)."""

from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction

from .cards import MAX_DIGITS
from .errors import BaccaratError
from .symbolic import symbol

MAX_PAYOUT = 10**12  # a trillion to one: beyond any bet dealt, and every table stays readable
NUMBER = re.compile(r"^([0-9]+(?:\.[0-9]+)?)(?:(%)|:([0-9]+(?:\.[0-9]+)?)|/([0-9]+))?$")


def parse_amount(value, context: str, path: str, symbols: set = frozenset(), percent: bool = False):
    """A payout or commission: a number 0 or more (``11``, ``0.95``, ``"19/20"``, ``"1:2"``,
    ``"5%"`` for a commission), ``"push"`` (a payout of 0), or one of the declared ``symbols``.

    >>> parse_amount("1:2", "f", "k"), parse_amount(Decimal("0.95"), "f", "k"), parse_amount("5%", "f", "k", percent=True)
    (Fraction(1, 2), Fraction(19, 20), Fraction(1, 20))
    """
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
        return bounded(Fraction(min(value, MAX_PAYOUT + 1)), bad, percent)  # 1e999999999 is never made an integer
    if isinstance(value, str):
        text = value.replace(" ", "")
        if text == "push" and not percent:
            return Fraction(0)
        if text.startswith("-"):
            raise BaccaratError(bad + f"negative {'commission' if percent else 'payout'} {value!r}")
        m = NUMBER.match(text)
        if m and sum(c.isdigit() for c in text) > MAX_DIGITS:
            raise BaccaratError(bad + f"more than {MAX_DIGITS} digits")
        if m and (percent or not m.group(2)):
            amount = Fraction(m.group(1))
            if m.group(2):
                return amount / 100
            if m.group(3) is not None or m.group(4) is not None:
                divisor = Fraction(m.group(3) or m.group(4))
                if divisor == 0:
                    raise BaccaratError(bad + f"{value!r} divides by zero")
                return bounded(amount / divisor, bad, percent)
            return bounded(amount, bad, percent)
        if text in symbols:
            return symbol(text)
    raise BaccaratError(
        bad + f"{value!r} is not a {'commission' if percent else 'payout'} (a number 0 or more such as 11, 0.95, "
        + ('"5%"' if percent else '"19/20", "1:2" or "push"') + ", or a name listed in symbols)"
    )


def bounded(amount: Fraction, bad: str, percent: bool = False) -> Fraction:
    """A payout no larger than MAX_PAYOUT (a commission is checked below 100% by its caller)."""
    if amount > MAX_PAYOUT:
        raise BaccaratError(bad + ("a commission must be below 100%" if percent else
                                   f"more than {MAX_PAYOUT:,} (a payout of at most a trillion to one)"))
    return amount
