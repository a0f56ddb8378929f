"""The parsers of user text, fuzzed with hypothesis: every input a result or a one-line
BaccaratError, never another exception. Payout expressions are also checked against an
evaluation of the same generated expression written here (a second route)."""

import json
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer.bets.amounts import MAX_PAYOUT, parse_amount
from analyzer.game.cards import BaccaratError, Shoe, shoe_from_mapping
from analyzer.game.knowledge import Knowledge
from analyzer.bets.rulefile import parse_rules
from analyzer.base.userfiles import parse_json, parse_toml

FUZZ = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def one_line_or_result(call):
    """The call's result, or None where it refused with a one-line BaccaratError."""
    try:
        return call()
    except BaccaratError as error:
        assert "\n" not in str(error) and str(error), repr(str(error))
        return None


# Payouts ----------------------------------------------------------------------------------------

PAYOUT_TEXT = st.lists(st.sampled_from(list("0123456789 .:/%+-*()Jxfor_;é\t") + ["for", "push", "J", "1e9"]),
                       max_size=30).map("".join)


@FUZZ
@given(PAYOUT_TEXT)
def test_any_payout_text_is_a_payout_or_one_line_error(text):
    value = one_line_or_result(lambda: parse_amount(text, "f.toml", "bets[1].lines[1].pays", {"J"}))
    if isinstance(value, Fraction):
        assert 0 <= value <= MAX_PAYOUT


@st.composite
def linear(draw, depth=0):
    """(text, value as {symbol or None: Fraction}) of a random expression in J and numbers that
    stays linear: products and quotients by a number only."""
    if depth > 3 or draw(st.booleans()):
        if draw(st.booleans()):
            return "J", {"J": Fraction(1)}
        n = draw(st.integers(0, 999))
        cents = draw(st.sampled_from(["", ".5", ".25", "%"]))
        value = Fraction(n) + (Fraction(cents) if cents.startswith(".") else 0)
        return f"{n}{cents}", {None: value / 100 if cents == "%" else value}
    op = draw(st.sampled_from("+*/"))
    left, lv = draw(linear(depth + 1))
    if op == "+":
        right, rv = draw(linear(depth + 1))
        return f"({left} + {right})", {k: lv.get(k, 0) + rv.get(k, 0) for k in set(lv) | set(rv)}
    n = draw(st.integers(1, 50))
    if op == "*":
        return f"({left} * {n})", {k: v * n for k, v in lv.items()}
    return f"({left} / {n})", {k: v / n for k, v in lv.items()}


@FUZZ
@given(linear())
def test_a_payout_expression_is_the_linear_form_it_writes(case):
    text, value = case
    text, value = f"{text} + J", value | {"J": value.get("J", 0) + 1}  # an expression: a meter in it
    parsed = parse_amount(text, "f", "k", {"J"})
    import sympy
    J = sympy.Symbol("J", nonnegative=True)
    expected = sum((sympy.Rational(v.numerator, v.denominator) * (J if k == "J" else 1) for k, v in value.items()),
                   sympy.Integer(0))
    assert sympy.simplify(sympy.sympify(parsed) - expected) == 0


# Rule files ---------------------------------------------------------------------------------------

FIELDS = ["winner", "player_total", "banker_total", "margin", "totals_sum", "winning_total", "losing_total",
          "player_pair", "natural", "player_1", "first_four", "nope", "all", "any", "not"]
VALUES = st.one_of(st.integers(-3, 20), st.booleans(), st.sampled_from(['"banker"', '"tie"', '"x"', "[1, 2]", "[]",
                                                                         "{ min = 4 }", "{ max = 2, min = 5 }",
                                                                         '{ rank = "K" }', '{ same_suit = true }',
                                                                         "{ winner = \"tie\" }", "[{ natural = true }]",
                                                                         "{}", '"J / 10"', '"5 for 1"']))
PAYS = st.sampled_from(["8", "0.95", '"3:2"', '"push"', '"J * 10% + 5"', '"5 for 1"', '"0 for 1"', "-1", '"J * J"', "1e999",
                        '"x"', "true", '"19/20"', "[8]"])


@st.composite
def rule_file(draw):
    """A rule file's text, from a small vocabulary of keys and values, right or wrong."""
    bets = []
    for i in range(draw(st.integers(1, 3))):
        tests = ", ".join(f"{draw(st.sampled_from(FIELDS))} = {draw(VALUES)}" for _ in range(draw(st.integers(0, 3))))
        series = draw(st.sampled_from(["", 'series = { counts = { winner = "banker" }, most = 3 }',
                                       "series = { counts = {}, coups = 0 }", 'series = { ends = {} }', "series = 3"]))
        key = "count" if series and draw(st.booleans()) else "when"
        test = draw(VALUES) if key == "count" else f"{{ {tests} }}"
        bets.append(f'[[bets]]\nid = "{draw(st.sampled_from(["b", "b2", "B", "b"]))}{i}"\n'
                    f'lines = [{{ label = "l", {key} = {test}, pays = {draw(PAYS)} }}]\n{series}\n')
    head = draw(st.sampled_from(['name = "f"\n', 'name = "f"\nsymbols = ["J"]\n', 'name = "f"\nextends = "standard"\n',
                                 'symbols = ["J"]\n', 'name = "f"\nextends = "nope"\n']))
    return head + "".join(bets)


@FUZZ
@given(rule_file())
def test_any_rule_file_is_a_rule_set_or_one_line_error(text):
    rules = one_line_or_result(lambda: parse_rules(text, "f.toml", None))
    if rules is not None:
        assert rules.bets and all(bet.lines for bet in rules.bets)


@FUZZ
@given(st.text(max_size=200))
def test_any_text_as_a_rule_file_is_a_rule_set_or_one_line_error(text):
    one_line_or_result(lambda: parse_rules(text, "f.toml", None))


# Shoe files, known cards ----------------------------------------------------------------------------

JSONISH = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(-5, 10**7), st.floats(allow_nan=True),
                                 st.sampled_from(["A", "Ah", "10", "T", "x", "Zs"])),
                       lambda inner: st.one_of(st.lists(inner, max_size=4),
                                               st.dictionaries(st.sampled_from(["ranks", "cards", "A", "Ah", "10", "K",
                                                                                "Kd", "1", "ace"]), inner, max_size=4)),
                       max_leaves=12)


@FUZZ
@given(JSONISH)
def test_any_shoe_mapping_is_a_shoe_or_one_line_error(data):
    shoe = one_line_or_result(lambda: shoe_from_mapping(data, "shoe file"))
    if shoe is not None:
        assert isinstance(shoe, Shoe) and shoe.size >= 0


@FUZZ
@given(st.text(max_size=120))
def test_any_shoe_file_text_is_parsed_or_refused_in_one_line(text):
    for parse in (lambda: shoe_from_mapping(parse_toml(text, "shoe file"), "shoe file"),
                  lambda: shoe_from_mapping(parse_json(text, "shoe file"), "shoe file")):
        one_line_or_result(parse)


@FUZZ
@given(st.lists(st.lists(st.sampled_from(list("0123456789=,-AKQJTshdcredblack ") + ["hearts", "10"]),
                         max_size=12).map("".join), max_size=4))
def test_any_known_cards_are_knowledge_or_one_line_error(items):
    known = one_line_or_result(lambda: Knowledge.parse(items))
    if known is not None:
        assert isinstance(known.describe(), str)


def test_the_fuzzers_reach_both_outcomes():
    # a fuzzer that only ever hit errors (or only results) would check half of what it claims
    assert parse_amount("J / 10 + 5", "f", "k", {"J"}) is not None
    with pytest.raises(BaccaratError):
        parse_amount("J J", "f", "k", {"J"})
    assert parse_rules('name = "f"\n[[bets]]\nid = "b"\nlines = [{ when = { winner = "tie" }, pays = 8 }]\n', "f", None)
    assert shoe_from_mapping(json.loads('{"ranks": {"A": 4}}')).size == 4


@FUZZ
@given(st.fractions(max_denominator=10**6), st.integers(0, 8))
def test_decimals_are_python_rounding_of_the_exact_value(q, places):
    """render.decimal and percent round in integers alone; Python's round() of the Fraction
    (half to even) is the second route."""
    from analyzer.render import decimal, fixed_point, percent
    assert decimal(q, places) == fixed_point(round(q * 10**places), places, negative=q < 0)
    assert percent(q, places) == fixed_point(round(q * 100 * 10**places), places, negative=q < 0) + "%"
