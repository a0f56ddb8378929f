"""Rule-set files (TOML): parsed and validated into RuleSets; never evaluated as code.

A file names the rule set and lists its bets; it may extend another rule set (its bets are kept,
a bet with the same id is replaced, new ones are added) and give a drawing tableau::

    name = "my-table"
    description = "Banker 1:1 less 4%, Tie 9:1"
    source = "house rules, 2026"
    extends = "standard"

    [[bets]]
    id = "tie"
    name = "Tie"
    lines = [{ label = "Tie", when = { winner = "tie" }, pays = 9 }]

Every error names the file and the key, and the line where TOML gives it.
"""

from __future__ import annotations

import itertools
import os
import re
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

from .. import BUILT_IN  # the names of the rule files in rules/, in display order
from .amounts import parse_amount, parse_payout
from .bet import Bet, Line, RuleSet
from ..game.cards import BaccaratError
from .cardtests import Poker, parse_poker_rules
from .conditions import parse_condition
from .series import MAX_COUPS, SHOE_ENDS, Count, Series
from .counting import check_tags
from .overlay import check_lines, parse_multipliers
from ..base.errors import did_you_mean, expect, unknown
from ..game.tableau import PUNTO_BANCO, STOOD, Tableau, with_options
from ..base.userfiles import parse_toml, read_text

TOP_KEYS = {"name", "description", "source", "extends", "symbols", "tableau", "bets", "counts", "poker"}
BET_KEYS = {"id", "name", "source", "commission", "lines", "series", "fee", "multipliers"}
LINE_KEYS = {"label", "when", "pays"}
SERIES_LINE_KEYS = {"label", "count", "pays"}  # a bet across coups pays by the count it saw
SERIES_KEYS = {"counts", "ends", "most", "coups", "placed_after", "placed_after_run", "at_shoe_end"}
MAX_COUNT = MAX_COUPS  # the largest count a line of a bet across coups may name
TABLEAU_KEYS = {"name", "player_draws", "banker", "player_options", "banker_options"}
ID = re.compile(r"^[a-z][a-z0-9_]*$")
SYMBOL = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
MAX_LINES = 1000  # pay lines of a bet: the largest pay table dealt has a dozen; each line's cells are held at once
MAX_TESTS = 1000  # tests in one line's condition: each is a pass over the coup's cells


BUILT_IN_FOLDER = Path(__file__).with_name("rules")  # installed beside the modules (package data)


def builtin_text(name: str) -> str:
    """The text of a built-in rule file. (Read beside this module, as plancache reads the
    modules themselves: importlib.resources would cost a one-off command about 8 ms of imports.)"""
    return (BUILT_IN_FOLDER / f"{name}.toml").read_text(encoding="utf-8")


def get_rules(spec: str) -> RuleSet:
    """A rule set: a built-in name (see BUILT_IN) or the path of a TOML rule file. A name with a
    path separator or a dot is a file's (a missing one: "no such file", with the .toml file it
    may have meant); any other, a built-in rule set's (with the one it may have meant)."""
    spec = str(spec) if isinstance(spec, Path) else expect(spec, str, "a rule set is named by a built-in name or a file's path")
    if spec in BUILT_IN:
        return _builtin(spec)
    if not spec.strip():
        raise BaccaratError(f"no rule set given (the rule sets: {', '.join(BUILT_IN)}, or a .toml file)")
    if is_path(spec) or exists(Path(spec)):
        missing(Path(spec))
        return load_rules(spec)
    if exists(Path(spec + ".toml")):
        raise BaccaratError(f"unknown rule set {spec!r} (did you mean the file {spec + '.toml'!r}?)")
    raise BaccaratError(unknown("rule set", spec, BUILT_IN) + " - a built-in rule set, or a .toml file")


def is_path(spec: str) -> bool:
    """Whether a rule set's name is a file's path: it has a path separator or a dot."""
    return "/" in spec or "\\" in spec or "." in spec


def missing(path: Path) -> None:
    """A one-line "no such file" where nothing is at ``path`` (a link to nothing, or a loop of
    links, is left to the reading, which says what it is), with the .toml file meant if any."""
    try:
        there = os.path.lexists(path)
    except (OSError, ValueError):
        there = False
    if not there:
        raise BaccaratError(f"no such file: {str(path)!r}" + near_file(path))


def near_file(path: Path) -> str:
    """' (did you mean 'x.toml'?)' for a missing rule file: its .toml namesake, else the regular
    .toml file of its folder with the closest name, if one is close.

    >>> near_file(Path("no-such-folder/x.tml"))
    ''
    """
    from difflib import get_close_matches

    stem = path.with_suffix(".toml") if path.suffix != ".toml" else None
    if stem is not None and stem.is_file():
        return f" (did you mean {str(stem)!r}?)"
    try:
        stems = sorted(p.stem for p in itertools.islice(path.parent.iterdir(), 10_000) if p.suffix == ".toml" and p.is_file())
    except (OSError, ValueError):
        return ""
    close = get_close_matches(path.stem, stems, 1, 0.6)  # by the names before .toml: the suffix is alike in all
    return f" (did you mean {str(path.parent / (close[0] + '.toml'))!r}?)" if close else ""


def exists(path: Path) -> bool:
    """Whether a path names something; a name too long for the system names nothing."""
    try:
        return path.exists()
    except (OSError, ValueError):
        return False


@lru_cache(maxsize=None)
def _builtin(name: str) -> RuleSet:
    return parse_rules(builtin_text(name), f"built-in rule set {name!r}", base_dir=None)


def load_rules(path) -> RuleSet:
    """A rule set from a TOML file."""
    if not str(expect(path, (str, Path), "a rule file is a path")).strip():
        raise BaccaratError("no rule file given (an empty path)")
    path = Path(path)
    text = read_text(path, "rule file")
    return parse_rules(text, f"{path}", base_dir=path.parent)


def parse_rules(text: str, context: str = "rule set", base_dir: Path | None = None, depth: int = 0) -> RuleSet:
    """A rule set from TOML text; ``context`` names it in errors."""
    expect(base_dir, (Path, type(None)), "base_dir is the folder of the rule file (a Path) or None")
    expect(depth, int, "depth is a whole number")
    data = parse_toml(expect(text, str, "a rule set's text is TOML"), context, parse_float=Decimal)  # decimals exactly as written, never binary floats
    check_keys(data, TOP_KEYS, context, "")
    name = text_field(data, "name", context, required=True)
    base = None
    if "extends" in data:
        parent = text_field(data, "extends", context)
        if depth > 8:
            raise BaccaratError(f"{context}: extends: too deep (a cycle?)")
        if parent in BUILT_IN:
            base = _builtin(parent)
        elif base_dir is not None and (is_path(parent) or exists(base_dir / parent)):
            parent_path = base_dir / parent
            try:
                missing(parent_path)
            except BaccaratError as exc:
                raise BaccaratError(f"{context}: extends: {exc}") from None
            try:
                parent_text = read_text(parent_path, "rule file")
            except BaccaratError as exc:
                raise BaccaratError(f"{context}: extends: {exc}") from None
            base = parse_rules(parent_text, str(parent_path), parent_path.parent, depth + 1)
        else:
            raise BaccaratError(f"{context}: extends: {unknown('rule set', parent, BUILT_IN)} - a built-in rule set, "
                                "or a .toml file beside this one")
    bets_data = data.get("bets", [])
    if not isinstance(bets_data, list) or not all(isinstance(b, dict) for b in bets_data):
        raise BaccaratError(f"{context}: bets: must be an array of tables ([[bets]])")
    symbols = data.get("symbols", [])
    if not isinstance(symbols, list) or not all(isinstance(x, str) and SYMBOL.match(x) and x != "push" for x in symbols):
        raise BaccaratError(f"{context}: symbols: must be a list of names such as \"x\" (letters, digits, _)")
    poker = parse_poker_rules(data["poker"], context) if "poker" in data else (base.poker if base else Poker())
    bets = {b.id: b for b in (base.bets if base else ())}
    seen = set()
    for i, bet_data in enumerate(bets_data):
        bet = parse_bet(bet_data, context, f"bets[{i + 1}]", set(symbols), poker)  # counted from 1, as a person counts
        if bet.id in seen:
            raise BaccaratError(f"{context}: bets[{i + 1}].id: bet {bet.id!r} is defined twice")
        seen.add(bet.id)
        bets[bet.id] = bet
    if not bets:
        raise BaccaratError(f"{context}: bets: a rule set needs at least one bet")
    tableau = parse_tableau(data["tableau"], context) if "tableau" in data else (base.tableau if base else PUNTO_BANCO)
    count_systems = dict(base.count_systems if base else ()) | parse_counts(data.get("counts", {}), context)
    return RuleSet(
        name=name,
        description=text_field(data, "description", context) or (f"based on {data['extends']}" if base else ""),
        bets=tuple(bets.values()),
        tableau=tableau,
        source=text_field(data, "source", context),
        count_systems=tuple(count_systems.items()),
        poker=poker,
        own=tuple(bet_data["id"] for bet_data in bets_data),
    )


def parse_counts(data, context: str) -> dict:
    """Named count systems: name -> 10 integer tags for A, 2..9 and the ten-value cards."""
    if not isinstance(data, dict):
        raise BaccaratError(f"{context}: counts: must be a table of name = [10 integer tags]")
    for name, tags in data.items():
        if not isinstance(tags, list) or len(tags) != 10 or not all(type(t) is int for t in tags):
            raise BaccaratError(f"{context}: counts.{name}: must be 10 integers, for A, 2..9 and T (every ten-value card)")
        check_tags(tags, f"{context}: counts.{name}")
        if printable_line(name, f"{context}: counts") != name:
            raise BaccaratError(f"{context}: counts.{name!r}: a count's name is one line with no spaces at its ends")
    return {name: tuple(tags) for name, tags in data.items()}


def check_keys(table: dict, allowed: set, context: str, path: str):
    unknown = sorted(set(table) - allowed)
    if unknown:
        key = f"{path}.{unknown[0]}" if path else unknown[0]
        raise BaccaratError(f"{context}: {key}: unknown key" + (did_you_mean(unknown[0], sorted(allowed)) or
                                                                 f" (expected one of {', '.join(sorted(allowed))})"))


def text_field(table: dict, key: str, context: str, path: str = "", required: bool = False) -> str:
    full = f"{path}.{key}" if path else key
    if key not in table:
        if required:
            raise BaccaratError(f"{context}: {full}: missing")
        return ""
    if not isinstance(table[key], str) or not table[key].strip():
        raise BaccaratError(f"{context}: {full}: must be a non-empty string")
    return printable_line(table[key], f"{context}: {full}")


def printable_line(text: str, context: str) -> str:
    r"""A name, label or description as one line: runs of white space (line breaks, tabs) become
    one space; other control characters (a terminal's escape sequences) are refused.

    >>> printable_line("Banker\r\n  wins\t", "f")
    'Banker wins'
    """
    line = " ".join(text.split())
    if not line.isprintable():
        raise BaccaratError(f"{context}: control characters are not allowed")
    return line


def parse_bet(data: dict, context: str, path: str, symbols: set = frozenset(), poker: Poker = Poker()) -> Bet:
    check_keys(data, BET_KEYS, context, path)
    bet_id = text_field(data, "id", context, path, required=True)
    if not ID.match(bet_id):
        raise BaccaratError(f"{context}: {path}.id: {bet_id!r} is not a snake_case id (a-z, 0-9, _)")
    lines = data.get("lines")
    if lines is None and isinstance(data.get("series"), dict) and "lines" in data["series"]:
        parse_series(data["series"], context, f"{path}.series", poker)  # says where the lines belong
    if not isinstance(lines, list) or not lines or not all(isinstance(ln, dict) for ln in lines):
        raise BaccaratError(f"{context}: {path}.lines: must be a non-empty array of tables")
    if len(lines) > MAX_LINES:
        raise BaccaratError(f"{context}: {path}.lines: {len(lines):,} pay lines (at most {MAX_LINES:,} a bet)")
    commission = Fraction(0)
    if "commission" in data:
        commission = parse_amount(data["commission"], context, f"{path}.commission", symbols, percent=True)
        if not is_symbolic(commission) and commission >= 1:
            raise BaccaratError(f"{context}: {path}.commission: must be less than 100%")
    series = parse_series(data["series"], context, f"{path}.series", poker) if "series" in data else None
    read = parse_line if series is None else parse_count_line
    lines = tuple(read(ln, context, f"{path}.lines[{j}]", symbols, poker) for j, ln in enumerate(lines, 1))
    fee, multipliers = parse_overlay(data, context, path, lines, series, commission)
    return Bet(
        id=bet_id,
        name=text_field(data, "name", context, path) or bet_id,
        lines=lines,
        commission=commission,
        source=text_field(data, "source", context, path),
        series=series,
        fee=fee,
        multipliers=multipliers,
    )


def parse_overlay(data: dict, context: str, path: str, lines: tuple, series, commission) -> tuple:
    """(fee, multipliers) of a bet: ``fee = "20%"`` and a ``[bets.multipliers]`` table
    (overlay.parse_multipliers). A bet with either is paid in numbers (solve varies its fee or a
    chance of its multipliers, not a symbol) and settles on one coup (a fee is paid each coup)."""
    fee, multipliers = Fraction(0), None
    if "fee" not in data and "multipliers" not in data:
        return fee, multipliers
    what = "multipliers" if "multipliers" in data else "fee"
    if series is not None:
        raise BaccaratError(f"{context}: {path}.{what}: a fee and multipliers are for a bet on one coup, not a bet across coups")
    if is_symbolic(commission) or any(is_symbolic(ln.pays) for ln in lines):
        raise BaccaratError(f"{context}: {path}.{what}: a bet with a fee or multipliers is paid in numbers, not symbols "
                            "(solve varies its fee or a chance of its multipliers)")
    if "fee" in data:
        if str(data["fee"]).strip().startswith("-"):
            raise BaccaratError(f"{context}: {path}.fee: a fee is from 0 to less than 100% of the stake (got {data['fee']})")
        fee = parse_amount(data["fee"], context, f"{path}.fee", percent=True)
        if fee >= 1:
            raise BaccaratError(f"{context}: {path}.fee: must be less than 100% of the stake")
    if "multipliers" in data:
        multipliers = parse_multipliers(data["multipliers"], context, f"{path}.multipliers", [ln.label for ln in lines])
        check_lines(tuple(ln.condition for ln in lines), multipliers, context, f"{path}.multipliers")
    return fee, multipliers


def parse_series(data, context: str, path: str, poker: Poker = Poker()) -> Series:
    """What a bet across coups follows (series.Series): ``counts`` (required) and ``ends``
    conditions on one coup, ``most`` and ``coups`` limits, the placement (``placed_after``, a
    condition on the coup before; ``placed_after_run``, a run of counted coups) and
    ``at_shoe_end`` ("continues" into the next shoe, "settles" by the count so far, or "push")."""
    if not isinstance(data, dict):
        raise BaccaratError(f"{context}: {path}: must be a table (counts, ends, most, coups, placed_after, "
                            "placed_after_run, at_shoe_end)")
    if "lines" in data:
        raise BaccaratError(f"{context}: {path}.lines: the pay lines belong to the bet: write lines = [...] before "
                            f"the [{path.split('[')[0]}.series] table (in TOML, keys after a table's header are that table's)")
    check_keys(data, SERIES_KEYS, context, path)
    if "counts" not in data:
        raise BaccaratError(f"{context}: {path}.counts: missing (the coup that adds one to what the bet saw, "
                            "e.g. counts = { winner = \"banker\" })")

    def whole(key, low, high):
        if key not in data:
            return None
        value = data[key]
        if type(value) is not int or not low <= value <= high:
            raise BaccaratError(f"{context}: {path}.{key}: must be a whole number from {low} to {high} (got {value!r})")
        return value

    def condition(key):
        return bounded_condition(data[key], context, f"{path}.{key}", poker) if key in data else None

    most, coups = whole("most", 1, MAX_COUNT), whole("coups", 1, MAX_COUPS)
    ends = condition("ends")
    if ends is None and most is None and coups is None:
        raise BaccaratError(f"{context}: {path}: nothing ends this bet: give ends (the coup that ends it, e.g. "
                            "ends = { winner = [\"player\", \"tie\"] }), most (the count at which it ends) or coups")
    shoe_end = data.get("at_shoe_end", "continues")
    if shoe_end not in SHOE_ENDS:
        raise BaccaratError(f"{context}: {path}.at_shoe_end: must be one of {', '.join(SHOE_ENDS)} (got {shoe_end!r})")
    return Series(counts=condition("counts"), ends=ends, most=most, coups=coups, placed_after=condition("placed_after"),
                  placed_after_run=whole("placed_after_run", 1, MAX_COUNT), shoe_end=shoe_end)


def parse_count_line(data: dict, context: str, path: str, symbols: set = frozenset(), poker: Poker = Poker()) -> Line:
    """A pay line of a bet across coups: ``count`` (a number, a list, or { min, max }) instead
    of ``when``."""
    if "when" in data:
        raise BaccaratError(f"{context}: {path}.when: a bet across coups pays by the count it saw: "
                            "write count = 4, count = [4, 5] or count = { min = 10 }, not when")
    label, pays, written = line_head(data, SERIES_LINE_KEYS, "count", context, path, symbols)
    return Line(pays, label, parse_count(data["count"], context, f"{path}.count"), written)


def line_head(data: dict, keys: set, test: str, context: str, path: str, symbols: set) -> tuple:
    """(label, payout, as written) of a pay line whose test is under ``test`` (when, or count),
    its keys checked and the test and payout present."""
    check_keys(data, keys, context, path)
    for key in (test, "pays"):
        if key not in data:
            raise BaccaratError(f"{context}: {path}.{key}: missing")
    label = text_field(data, "label", context, path) or f"line {path.rsplit('[', 1)[-1].rstrip(']')}"
    return (label, *parse_payout(data["pays"], context, f"{path}.pays", symbols))


def parse_count(value, context: str, path: str) -> Count:
    """A count test: ``4``, ``[4, 5]`` or ``{ min = 10 }`` (either end optional).

    >>> parse_count({"min": 10}, "f", "k"), parse_count([5, 4], "f", "k")
    (Count(ranges=((10, None),)), Count(ranges=((4, 4), (5, 5))))
    """
    def number(x, key):
        if type(x) is not int or not 0 <= x <= MAX_COUNT:
            raise BaccaratError(f"{context}: {key}: a count is a whole number from 0 to {MAX_COUNT} (got {x!r})")
        return x

    if isinstance(value, dict):
        check_keys(value, {"min", "max"}, context, path)
        if not value:
            raise BaccaratError(f"{context}: {path}: a range has min, max or both")
        low, high = number(value.get("min", 0), f"{path}.min"), value.get("max")
        high = None if high is None else number(high, f"{path}.max")
        if high is not None and high < low:
            raise BaccaratError(f"{context}: {path}: min {low} is above max {high}: the range matches nothing")
        return Count(((low, high),))
    values = value if isinstance(value, list) else [value]
    if not values:
        raise BaccaratError(f"{context}: {path}: an empty list matches nothing")
    return Count(tuple((x, x) for x in sorted({number(v, path) for v in values})))


def parse_line(data: dict, context: str, path: str, symbols: set = frozenset(), poker: Poker = Poker()) -> Line:
    if "count" in data:
        raise BaccaratError(f"{context}: {path}.count: a count is for a bet across coups: give the bet a series "
                            "table (series = { counts = ..., ends = ... })")
    label, pays, written = line_head(data, LINE_KEYS, "when", context, path, symbols)
    return Line(pays, label, bounded_condition(data["when"], context, f"{path}.when", poker), written)


def bounded_condition(table, context: str, path: str, poker: Poker):
    """A condition at ``path`` (a pay line's ``when``, a series' ``counts``...), at most MAX_TESTS
    tests in all."""
    condition = parse_condition(table, f"{context}: {path}", poker)
    if tests_in(condition) > MAX_TESTS:
        raise BaccaratError(f"{context}: {path}: more than {MAX_TESTS:,} tests in one condition")
    return condition


def tests_in(condition) -> int:
    """The field and card tests of a condition, within its all / any / not."""
    parts = getattr(condition, "parts", None)
    if parts is not None:
        return sum(map(tests_in, parts))
    inner = getattr(condition, "part", None)
    return tests_in(inner) if inner is not None else 1


def is_symbolic(value) -> bool:
    return not isinstance(value, Fraction)


def parse_tableau(data, context: str) -> Tableau:
    """A drawing tableau: the Player's drawing totals and the Banker's grid, one string per Banker
    total 0-7 of D (draw) or S (stand) for the Player's third card 0..9, then for 'Player stood'."""
    if not isinstance(data, dict):
        raise BaccaratError(f"{context}: tableau: must be a table")
    check_keys(data, TABLEAU_KEYS, context, "tableau")
    for key in ("player_draws", "banker"):
        if key not in data:
            raise BaccaratError(f"{context}: tableau.{key}: missing (a tableau must say what happens on every total)")
    draws = data["player_draws"]
    if not isinstance(draws, list) or not all(type(t) is int and 0 <= t <= 7 for t in draws):
        raise BaccaratError(f"{context}: tableau.player_draws: must list the Player's totals 0-7 on which he draws")
    banker = data["banker"]
    if not isinstance(banker, dict):
        raise BaccaratError(f"{context}: tableau.banker: must be a table of Banker totals 0-7")
    check_keys(banker, {str(t) for t in range(8)}, context, "tableau.banker")
    rows = []
    for total in range(8):
        row = banker.get(str(total))
        if row is None:
            raise BaccaratError(f"{context}: tableau.banker.{total}: missing (the Banker's play on {total} must be given)")
        cells = row.replace(" ", "").upper() if isinstance(row, str) else ""
        if len(cells) != 11 or set(cells) - {"D", "S"}:
            raise BaccaratError(
                f"{context}: tableau.banker.{total}: must be 11 letters D or S (Player's third card 0-9, then Player stood)"
            )
        rows.append(tuple(c == "D" for c in cells))
    rows += [(False,) * 11] * 2  # 8 and 9 are naturals: nobody draws
    name = text_field(data, "name", context, "tableau") or "custom"
    player, banker = parse_options(data, context)
    return with_options(Tableau(name, tuple(t in draws for t in range(10)), tuple(rows)), name, player, banker)


def parse_options(data: dict, context: str) -> tuple[set, set]:
    """The optional cells of a tableau (chemin de fer): ``player_options``, a list of the
    Player's totals 0-7, and ``banker_options``, a table from the Banker's totals 0-7 to lists
    of the Player's third cards 0-9 or "stood". The grid still says what is played there
    outside ``baccarat chemin``."""
    player = data.get("player_options", [])
    if not isinstance(player, list) or not all(type(t) is int and 0 <= t <= 7 for t in player):
        raise BaccaratError(f"{context}: tableau.player_options: must list the Player's totals 0-7 on which he may choose")
    banker = data.get("banker_options", {})
    if not isinstance(banker, dict):
        raise BaccaratError(f"{context}: tableau.banker_options: must be a table of Banker totals 0-7")
    check_keys(banker, {str(t) for t in range(8)}, context, "tableau.banker_options")
    cells = set()
    for total, thirds in banker.items():
        if not isinstance(thirds, list) or not all((type(k) is int and 0 <= k <= 9) or k == "stood" for k in thirds):
            raise BaccaratError(f"{context}: tableau.banker_options.{total}: must list the Player's third cards 0-9 "
                                "or \"stood\" where the Banker may choose")
        cells |= {(int(total), STOOD if k == "stood" else k) for k in thirds}
    return set(player), cells


def tableau_grid(tableau: Tableau) -> list[list[str]]:
    """The Banker's grid as rows of D/S (an optional cell marked *), for `rules show`."""
    return [[str(total)] + ["DS"[not tableau.banker_draws[total][k]] + "*" * tableau.banker_options[total][k]
                            for k in range(11)] for total in range(8)]
