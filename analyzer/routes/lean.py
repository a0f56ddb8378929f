"""One shoe's value-level bets in Python integers, from the rule set's compiled plan kept on disk:
a one-off question (``baccarat edge --decks 8``) answered without loading numpy or the engine.

A rule set whose bets read only point values and the classes of the hands' first two cards
(pairs, suited: the standard rules, EZ, most value-level rule files) has the compiled plan
compiled.RulePlan: each value line a polynomial in the ten value counts, the sum of c[mu] F[mu](v)
over the 5,005 falling monomials of degree six (see compiled.py), and each class line a closed form
in the 52 card counts (:func:`hand_classes_of`). For one shoe that is a few thousand products
per basis line: about a millisecond in Python integers for the standard rules, exact at any
size, where importing numpy alone costs 45-85 ms on a small machine (and the enumeration 10 ms
more). So the plan's integers are kept on disk (plancache.py, as bytes: reading them needs no
numpy) and :func:`analyse` evaluates them here.

When a plan is kept: the *second* time a process analyses a rule set one-off, a first analysis
leaving only a mark (``seen-...``, removed once the plan is kept). Compiling takes 0.1-0.4 s
(compiled.RulePlan.polynomials); a rule file edited and analysed once at each edit never pays it, a
question asked again pays it once, and never twice: the mark says when a compilation has begun,
so a plan that could not be kept (a full disk, a process stopped) is not compiled again. Every
path that does not reach (knowledge of the cards, card-level bets, lines mixing values and hand
classes, payouts that are symbols, fewer than six cards, a cache that cannot be read or
written) is the enumerator's, with the same results (the tests hold them equal).

>>> len(multisets()), multisets(2)[:4]
(5005, [(0, 0), (0, 1), (1, 1), (0, 2)])
"""

from __future__ import annotations

import json
import math
import sys
from array import array
from operator import mul

from . import plancache
from .basis import DEGREE, falling_monomials, hand_classes_of, multisets  # noqa: F401  (hand_classes_of: read through lean)
from ..bets.bet import BetResult, RuleSet, result_of
from ..game.cards import Shoe
from ..base.recent import Recent

TYPECODE = "h"  # the basis coefficients on disk, little-endian: each 0 to 6! orders (compiled.value_terms)
MOST = 720


class Lean:
    """A rule set's plan for one shoe in Python integers: the basis lines' coefficients on the
    5,005 monomials, every value line as an integer combination of them, the hand-class pairs
    (cp * 4 + cb) each class line holds for, and each bet's columns (value lines, then class lines)."""

    def __init__(self, basis: list, value_sums: list, class_rows: list, line_columns: list):
        self.basis, self.value_sums, self.class_rows, self.line_columns = basis, value_sums, class_rows, line_columns

    def results(self, rules: RuleSet, shoe: Shoe) -> list[BetResult]:
        """Every bet of ``rules`` (the rule set this plan was compiled from) on ``shoe`` (six cards
        or more), exact: the line counts on the ordered 6-card basis, as compiled.analyse_one finds them."""
        monomials = falling_monomials(shoe.value_counts())
        basis = [sum(map(mul, row, monomials)) for row in self.basis]
        lines = [sum(m * basis[r] for r, m in terms) for terms in self.value_sums]
        if self.class_rows:
            classes = hand_classes_of(shoe.counts)
            lines += [sum(map(classes.__getitem__, row)) for row in self.class_rows]
        total = math.perm(shoe.size, DEGREE)
        return [result_of(bet, [lines[k] for k in columns], total) for bet, columns in zip(rules.bets, self.line_columns)]

    def to_bytes(self) -> bytes:
        header = {"rows": len(self.basis), "value_sums": self.value_sums, "class_rows": self.class_rows,
                  "line_columns": self.line_columns}
        if any(not 0 <= c <= MOST for row in self.basis for c in row):
            raise ValueError("a coefficient out of range")
        flat = array(TYPECODE, (c for row in self.basis for c in row))
        if sys.byteorder == "big":
            flat.byteswap()
        return json.dumps(header, separators=(",", ":")).encode() + b"\n" + flat.tobytes()

    @classmethod
    def from_bytes(cls, data: bytes, bets: int) -> Lean:
        """The plan written by to_bytes, checked to fit a rule set of ``bets`` bets (ValueError if not)."""
        text, _, packed = data.partition(b"\n")
        header = json.loads(text)
        flat = array(TYPECODE)
        flat.frombytes(packed)
        if sys.byteorder == "big":
            flat.byteswap()
        rows, width = header["rows"], len(multisets())
        if len(flat) != rows * width or (flat and not 0 <= min(flat) <= max(flat) <= MOST):
            raise ValueError("the basis is not rows of 5,005 coefficients from 0 to 720")
        basis = [flat[r * width:(r + 1) * width].tolist() for r in range(rows)]
        value_sums = [[(int(r), int(m)) for r, m in terms] for terms in header["value_sums"]]
        class_rows = [[int(x) for x in row] for row in header["class_rows"]]
        columns = len(value_sums) + len(class_rows)
        line_columns = [[int(k) for k in these] for these in header["line_columns"]]
        if len(line_columns) != bets or any(not 0 <= k < columns for these in line_columns for k in these) \
                or any(not 0 <= r < rows for terms in value_sums for r, _ in terms) \
                or any(not 0 <= x < 16 for row in class_rows for x in row):
            raise ValueError("the plan does not fit the rule set")
        return cls(basis, value_sums, class_rows, line_columns)


def lean_of(plan) -> Lean | None:
    """The Lean plan of a compiled.RulePlan whose lines are all value and class lines, or None."""
    if plan.card_bets or len(plan.column_cells) != plan.value_columns + len(plan.class_sets):
        return None
    polynomials = plan.polynomials
    basis = [[int(c) for c in row] for row in polynomials.basis.tolist()]  # float64 holding exact integers
    return Lean(basis, [list(terms) for terms in polynomials.value_sums], [list(row) for row in plan.one_shoe[2]],
                [list(columns) for columns in plan.line_columns])


def answers(rules: RuleSet) -> bool:
    """Whether a Lean plan can answer ``rules``: numeric payouts and no card-level bets (a plan
    with lines mixing values and hand classes is found out when compiled, and never kept)."""
    return all(bet.numeric and not bet.card_level for bet in rules.bets)


ENUMERATOR = b"enumerator"  # kept for a rule set whose lines no Lean plan counts: not compiled again
COMPILING = b"compiling"  # a mark once a process has begun to compile: a compilation not kept is not tried again
# id(rules) -> (rules, Lean or None): what this process found, by identity, within a million
# coefficients, a rule set counted as 5,000 more (at most 200 kept: a few tens of MB however
# many rule files a server is sent)
_KEPT = Recent(1_000_000, size=lambda hit: 5_000 + (0 if hit[1] is None else len(hit[1].basis) * len(multisets())))


def analyse(rules: RuleSet, shoe: Shoe) -> list[BetResult] | None:
    """Every bet of ``rules`` on ``shoe`` by its Lean plan (read from disk, or compiled and kept
    the second time a process asks: see the module notes), or None where the enumerator answers."""
    if shoe.size < DEGREE or not answers(rules):
        return None
    hit = _KEPT.get(id(rules))
    if hit is None or hit[0] is not rules:  # (the hit holds the rules: their id is their own while kept)
        hit = _KEPT.put(id(rules), (rules, found(rules)))
    return None if hit[1] is None else hit[1].results(rules, shoe)


def found(rules: RuleSet) -> Lean | None:
    """The Lean plan of ``rules`` kept on disk; else, where a process marked it before, compiled
    and kept; else None, and marked."""
    name = plancache.key("lean", rules)
    if name is None:
        return None
    damaged = plancache.stored(name, bytes)  # a file that will not read is compiled again at once
    data = plancache.load_bytes(name)
    if data == ENUMERATOR:
        return None
    if data:
        try:
            return Lean.from_bytes(data, len(rules.bets))
        except (ValueError, KeyError, TypeError, AttributeError):
            plancache.remove(plancache.path_of(name, bytes))
    mark = "seen-" + name.partition("-")[2]
    seen = plancache.load_bytes(mark)
    if seen is None and not damaged:  # the first time: a mark, nothing compiled
        plancache.store_bytes(mark, b"")
        return None
    if seen == COMPILING or not plancache.store_bytes(mark, COMPILING):
        return None  # a compilation was not kept before (a disk full, a process stopped), or nothing can be written here
    from . import compiled  # the compilation, with numpy: once, the second time a process asks

    lean = lean_of(compiled.plan_of(rules))
    try:
        kept = plancache.store_bytes(name, ENUMERATOR if lean is None else lean.to_bytes())
    except ValueError:  # a coefficient out of range (none is): the enumerator's
        kept = plancache.store_bytes(name, ENUMERATOR)
    if kept:
        plancache.remove(plancache.path_of(mark, bytes))
    return lean
