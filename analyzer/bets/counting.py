"""Count systems: the tags a counter gives each rank, and how well they track a bet.

Glossary
--------
tags          a count system: an integer per rank A..9 and one for the zero class (T, J, Q, K),
              in TAG_RANKS order.
running count the sum of the tags of the cards seen; true count: per deck left unseen.
imbalance     the running count after the whole shoe: 0 for a balanced count.
BC            betting correlation: the count-weighted correlation of the tags with a bet's exact
              effects of removal (eor.py).
slope         the change in a bet's EV per unit of true count, by weighted least squares.

A rule set may name count systems (``[counts]`` in a rule file): :func:`count_system` finds one
by name, or reads ten tags written out.
"""

from __future__ import annotations

import math
import re
from decimal import Decimal, localcontext
from fractions import Fraction

from ..game.cards import Shoe
from ..base.errors import BaccaratError

TAG_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T")  # T stands for the zero class
MAX_TAG = 1000  # a count's tags are single digits in practice; this keeps every figure printable
LEVELS = (1, 2, 3, 4, 5, 6)  # the levels derived unless others are asked for
MAX_LEVEL = 20  # published counts go to level 8 or so; past 20 a count is no longer one a player keeps


def count_system(rules, text: str) -> tuple[list[int], str]:
    """(tags, name) of a count: one the rule set names, or ten integer tags written out.

    >>> from analyzer.bets.rulefile import get_rules
    >>> count_system(get_rules("catalog"), "dragon_7_jacobson")
    ([0, 0, 0, -1, -1, -1, -1, 2, 2, 0], 'dragon_7_jacobson')
    >>> count_system(get_rules("standard"), "1,1,1,1,1,1,1,1,1,1")
    ([1, 1, 1, 1, 1, 1, 1, 1, 1, 1], 'given')
    """
    named = dict(rules.count_systems)
    return (list(named[text]), text) if text in named else (parse_tags(text), "given")


def running_count(tags, dealt) -> int:
    """The running count after the dealt (rank index, suit) cards: the sum of their tags, T, J,
    Q and K all taking the zero class's.

    >>> running_count([0, 0, 0, -1, -1, -1, -1, 2, 2, 0], [(8, None), (7, 1), (4, None), (12, 0)])
    3
    """
    return sum(tags[min(rank, 9)] for rank, _ in dealt)


def true_count(running: int, unseen: int) -> Fraction:
    """The running count per deck left unseen: 52 x running / unseen cards.

    >>> true_count(3, 390)
    Fraction(2, 5)
    """
    return Fraction(52 * running, unseen)


def tag_weights(shoe: Shoe) -> list[int]:
    """Cards of each tag class (A..9, zero) in the shoe."""
    ranks = shoe.rank_counts()
    return list(ranks[:9]) + [sum(ranks[9:])]


def weighted(tags, eors, weights) -> list[tuple]:
    """(weight, tag, EoR) of each tag class present in the shoe."""
    return [(w, t, e) for w, t, e in zip(weights, tags, eors) if w and e is not None]


def betting_correlation(tags, eors, weights) -> Fraction:
    """The count-weighted correlation of tags with EoRs. Its exact form has a square root, so it
    is rounded to 30 significant digits (decimal arithmetic) and returned as a Fraction."""
    pairs = weighted(tags, eors, weights)
    total = sum(w for w, _, _ in pairs)
    mean_t = Fraction(sum(w * t for w, t, _ in pairs), total)
    mean_e = sum((w * e for w, _, e in pairs), Fraction(0)) / total
    cov = sum((w * (t - mean_t) * (e - mean_e) for w, t, e in pairs), Fraction(0))
    var_t = sum((w * (t - mean_t) ** 2 for w, t, _ in pairs), Fraction(0))
    var_e = sum((w * (e - mean_e) ** 2 for w, _, e in pairs), Fraction(0))
    if not var_t or not var_e:
        return Fraction(0)
    with localcontext() as ctx:
        ctx.prec = 30
        product = var_t * var_e
        root = (Decimal(product.numerator) / Decimal(product.denominator)).sqrt()
        return cov / Fraction(root)


def imbalance(tags, weights) -> int:
    """The running count after the whole shoe: 0 for a balanced count."""
    return sum(w * t for w, t in zip(weights, tags))


def derive_tags(eors, weights, levels=LEVELS) -> list[dict]:
    """Integer tag sets from EoRs: for each level L (1 to MAX_LEVEL), tag = round(L * EoR / max
    |EoR|) (halves away from zero), then balanced (see :func:`balance`), with its betting
    correlation and imbalance. The level is the largest tag's size before balancing."""
    levels = check_levels(levels)
    top = max((abs(e) for e in eors if e is not None), default=0)
    out = []
    for level in levels:
        scaled = [None if e is None or not top else level * e / top for e in eors]
        tags = balance([0 if x is None else round_half_away(x) for x in scaled], scaled, weights)
        out.append({"level": level, "tags": tags, "bc": betting_correlation(tags, eors, weights),
                    "imbalance": imbalance(tags, weights)})
    return out


def balance(tags, scaled, weights, steps: int = 20) -> list[int]:
    """Nudge rounded tags one unit at a time until the count is balanced (imbalance 0), each time
    moving the tag whose rounding it strains least; gives up (leaving an imbalance, reported)
    when no single nudge brings the imbalance closer to 0.

    >>> balance([1, 0, -1], [Fraction(3, 4), Fraction(1, 10), Fraction(-1, 2)], [4, 4, 4])
    [1, 0, -1]
    >>> balance([1, 1, -1], [Fraction(3, 4), Fraction(1, 2), Fraction(-1, 2)], [4, 4, 4])
    [1, 0, -1]
    """
    tags = list(tags)
    for _ in range(steps):
        off = imbalance(tags, weights)
        if off == 0:
            break
        step = -1 if off > 0 else 1
        moves = [(abs(x - tags[i] - step) - abs(x - tags[i]), i) for i, x in enumerate(scaled)
                 if x is not None and weights[i] and abs(off + step * weights[i]) < abs(off)]
        if not moves:
            break
        tags[min(moves)[1]] += step
    return tags


def round_half_away(q: Fraction) -> int:
    """q rounded to an integer, halves away from zero.

    >>> round_half_away(Fraction(5, 2)), round_half_away(Fraction(-5, 2)), round_half_away(Fraction(7, 3))
    (3, -3, 2)
    """
    n = math.floor(abs(q) + Fraction(1, 2))
    return n if q >= 0 else -n


def linear_slope(eors, tags, weights, shoe_size: int) -> Fraction:
    """Change in EV per unit of true count (running count per deck left): the weighted least-squares
    regression of each card's EoR on the true count its removal gives, 52 tag / N."""
    pairs = weighted(tags, eors, weights)
    num = sum((w * t * e for w, t, e in pairs), Fraction(0))
    den = sum(w * t * t for w, t, _ in pairs)
    if not den:
        raise BaccaratError("the tags are all zero: no count to regress on")
    return Fraction(shoe_size, 52) * num / den


def check_levels(levels) -> tuple[int, ...]:
    """The levels, each a whole number from 1 to MAX_LEVEL, in the order given, each once."""
    levels = tuple(dict.fromkeys(levels))
    wrong = [level for level in levels if isinstance(level, bool) or not isinstance(level, int)
             or not 1 <= level <= MAX_LEVEL]
    if wrong or not levels:
        raise BaccaratError(f"a count's level is a whole number from 1 to {MAX_LEVEL} (got {wrong[0]!r})" if wrong
                            else "no level of tags asked for")
    return levels


def parse_levels(text: str) -> tuple[int, ...]:
    """Levels as a user writes them: single levels and ranges, comma-separated.

    >>> parse_levels("8"), parse_levels("1-3,8"), parse_levels(" 1 - 20 ")[-1]
    ((8,), (1, 2, 3, 8), 20)
    """
    levels = []
    for part in text.split(","):
        found = re.fullmatch(r"\s*([0-9]{1,3})\s*(?:-\s*([0-9]{1,3})\s*)?", part)  # ASCII digits, as every number read
        if not found:
            raise BaccaratError("{levels} takes levels from 1 to {most} and ranges of them, e.g. 8 or 1-6,8 "
                                "(got {got})", names=("levels",), got=repr(text), most=MAX_LEVEL)
        first, last = int(found[1]), int(found[2] or found[1])
        if not 1 <= first <= last <= MAX_LEVEL:
            raise BaccaratError("{levels}: {got} is no level or range of levels from 1 to {most}", names=("levels",),
                                got=repr(part.strip()), most=MAX_LEVEL)
        levels.extend(range(first, last + 1))
    return check_levels(levels)


def parse_tags(text: str) -> list[int]:
    """Ten integer tags A,2,...,9,T (T for the whole zero class).

    >>> parse_tags("0,0,0,-1,-1,-1,-1,2,2,0")
    [0, 0, 0, -1, -1, -1, -1, 2, 2, 0]
    """
    parts = [p.strip() for p in text.split(",")]
    try:
        tags = [int(p) for p in parts]
    except ValueError:
        tags = None
    if tags is None or len(tags) != 10:
        raise BaccaratError("{tags} takes 10 integers, A,2,...,9,T (T for all ten-value cards); got {got}",
                            names=("tags",), got=repr(text))
    check_tags(tags, "{tags}", names=("tags",))
    return tags



def check_tags(tags, context: str, names: tuple = ()):
    if any(abs(t) > MAX_TAG for t in tags):
        raise BaccaratError(f"{context}: a tag must be between -{MAX_TAG} and {MAX_TAG}", names)
