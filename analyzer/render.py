"""The one rendering path: a View (columns, rows of exact values, and a JSON object) in, text out.

Exact values stay Fractions and ints until here; decimals are made only for display, by
correctly rounded decimal arithmetic (never binary floats).
"""

from __future__ import annotations

import csv
import io
import itertools
import math
import re
import unicodedata
from html import escape
from dataclasses import dataclass, field, replace
from decimal import Decimal, localcontext
from fractions import Fraction
from functools import lru_cache

from .cards import MAX_DIGITS

EXACT_KINDS = ("percent", "fine", "permille", "number", "sci", "sd", "one_in", "units")  # rational columns


@dataclass(frozen=True)
class Column:
    key: str
    header: str
    kind: str = "text"  # text | count | percent | fine (6 places) | permille | number | sci | sd | one_in | units | money
    wide: bool = False  # a figure a narrow table leaves out (see narrow)


@dataclass
class View:
    title: str
    columns: list[Column]
    rows: list[dict]
    data: dict = field(default_factory=dict)  # the JSON object


def narrow(view: View) -> View:
    """The view without its wide columns (the rows and JSON object unchanged).

    >>> view = View("t", [Column("a", "A"), Column("b", "B", wide=True)], [{"a": 1, "b": 2}])
    >>> [c.header for c in narrow(view).columns]
    ['A']
    """
    return replace(view, columns=[c for c in view.columns if not c.wide])


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


CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]+")  # line breaks, tabs, escape sequences: never inside a cell


def one_line_text(text: str) -> str:
    r"""Text for one table cell: control characters (a line break, a carriage return, a
    terminal's escape sequence) each run become one space.

    >>> one_line_text("Banker\r\nwins\x1b[2J")
    'Banker wins [2J'
    """
    return CONTROL.sub(" ", text)


def cell_text(value, kind: str) -> str:
    """A value as a table cell of this kind shows it (percent, count, units...), exact values
    rounded only here."""
    if value is None:
        return ""
    if isinstance(value, float):  # an estimate or an approximation: formatted, never shown as "exact"
        return f"{value * 100:.4f}%" if kind == "percent" else f"{value:.2f}" if kind == "units" else f"{value:.4f}"
    if kind != "text" and not is_number(value):  # an expression in a payout symbol
        return f"sqrt({exact(value)})" if kind == "sd" else exact(value)
    if kind == "count":
        return f"{value:,}"
    if kind == "percent":
        return percent(value)
    if kind == "fine":
        return percent(value, 6)
    if kind == "permille":
        return decimal(Fraction(value) * 1000, 5) + "‰"
    if kind == "number":
        return decimal(value, 6)
    if kind == "sci":
        return scientific(value)
    if kind == "sd":
        return sqrt_decimal(value)
    if kind == "one_in":
        return decimal(value, 2)
    if kind == "units":
        return short_decimal(value, 6)
    if kind == "money":
        return money(value)
    return one_line_text(str(value))


def money(q) -> str:
    """An amount to the cent, thousands grouped, rounded exactly.

    >>> money(Fraction(-123456789, 100)), money(Fraction(1, 3)), money(-Fraction(1, 1000))
    ('-1,234,567.89', '0.33', '-0.00')
    """
    text = decimal(q, 2)
    sign, digits = ("-", text[1:]) if text.startswith("-") else ("", text)
    whole, cents = digits.split(".")
    return f"{sign}{int(whole):,}.{cents}"


def short_decimal(q, places: int) -> str:
    """q to at most ``places`` decimals, trailing zeros dropped: amounts in units.

    >>> short_decimal(Fraction(19, 20), 6), short_decimal(-1, 6), short_decimal(Fraction(1, 3), 6)
    ('0.95', '-1', '0.333333')
    """
    return trimmed(decimal(q, places))


def trimmed(text: str) -> str:
    """A decimal without trailing zeros after its point.

    >>> trimmed("1.2500"), trimmed("0.000"), trimmed("120")
    ('1.25', '0', '120')
    """
    return (text.rstrip("0").rstrip(".") or "0") if "." in text else text


def _exact_header(column: Column) -> str:
    return "variance (exact)" if column.kind == "sd" else f"{column.header} (exact)"


def table_cells(view: View, show_exact: bool):
    """Headers, rows of display strings and column alignments; with ``show_exact`` every rational
    column (or, if it is a collection of column keys, each of those) is followed by its exact value."""
    headers, getters, aligns = [], [], []
    for col in view.columns:
        headers.append(col.header)
        getters.append(lambda row, col=col: cell_text(row.get(col.key), col.kind))
        aligns.append("left" if col.kind == "text" else "right")
        if show_exact and col.kind in EXACT_KINDS and (show_exact is True or col.key in show_exact):
            headers.append(_exact_header(col))
            getters.append(lambda row, col=col: "" if row.get(col.key) is None else exact(row[col.key]))
            aligns.append("right")
    return headers, [[get(row) for get in getters] for row in view.rows], aligns


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


@lru_cache(maxsize=1)
def formats() -> tuple:
    """Every output format: tabulate's, then json and csv (tabulate is loaded only for them:
    its import takes longer than a whole 8-deck analysis)."""
    from tabulate import tabulate_formats  # tabulate loads only for its own formats (start-up)

    return tuple(tabulate_formats) + ("json", "csv")


def one_column_each(text: str) -> bool:
    r"""Every character of ``text`` is printable and one column wide on a terminal (no control
    character, line break, combining mark, or wide East Asian character), so that len() is its
    width: what simple_table assumes; anything else goes to tabulate.

    >>> one_column_each("· Banker wins 5‰"), one_column_each("a\rb"), one_column_each("中"), one_column_each("e\u0301")
    (True, False, False, False)
    """
    if text.isascii():
        return text.isprintable()
    return text.isprintable() and not any(unicodedata.combining(ch) or unicodedata.east_asian_width(ch) in "WF"
                                          for ch in text)


def simple_table(headers: list, rows: list, aligns: list) -> str:
    """tabulate's "simple" format, the default, written here so that a command need not load
    tabulate: columns two spaces apart, each as wide as its widest cell or its header and two
    spaces, a dashed rule under the headers, cells stripped, lines right-trimmed. For cells of
    one-column characters (one_column_each); the tests hold it equal to tabulate's on random tables.

    >>> print(simple_table(["bet", "P"], [["Tie", "9.5%"]], ["left", "right"]))
    bet       P
    -----  ----
    Tie    9.5%
    """
    widths = [max(len(h) + 2, *(len(row[i].strip()) for row in rows)) for i, h in enumerate(headers)]

    def line(cells, strip: bool) -> str:
        cells = [c.strip() for c in cells] if strip else cells
        return "  ".join(c.ljust(w) if a == "left" else c.rjust(w) for c, w, a in zip(cells, widths, aligns)).rstrip()

    return "\n".join([line(headers, False), "  ".join("-" * w for w in widths).rstrip()] + [line(r, True) for r in rows])


def render(view: View, fmt: str = "simple", show_exact: bool = False) -> str:
    """The view as text in ``fmt``: any tabulate format, ``json`` or ``csv``."""
    if fmt == "json":
        import json  # here: a table of text does not import it

        return json.dumps(to_json(view.data), indent=2)
    if fmt == "csv":
        return csv_table(view)
    headers, rows, aligns = table_cells(view, show_exact)
    if fmt == "simple" and rows and headers and all(map(one_column_each, itertools.chain(headers, *rows))):
        body = simple_table(headers, rows, aligns)
    else:
        from tabulate import tabulate  # only for its own formats: the simple table needs none (start-up)

        body = tabulate(rows, headers, tablefmt=fmt, disable_numparse=True, colalign=aligns)
    if not view.title:
        return body
    if fmt.startswith("html") or fmt == "unsafehtml":
        caption = "<br>".join(map(escape, view.title.splitlines()))
        return body.replace("<table>", f"<table>\n<caption>{caption}</caption>", 1)
    if fmt.startswith("latex"):
        return "\n".join(map(latex_text, view.title.splitlines())) + f"\n\n{body}"
    return f"{view.title}\n\n{body}"


LATEX_SPECIAL = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "$": r"\$", "&": r"\&", "#": r"\#",
                 "^": r"\^{}", "_": r"\_", "~": r"\textasciitilde{}", "%": r"\%"}


def latex_text(text: str) -> str:
    r"""Text typeset as itself in LaTeX: its special characters escaped (a "%" would start a
    comment).

    >>> print(latex_text("Banker 5% & Tie_9 {x}"))
    Banker 5\% \& Tie\_9 \{x\}
    """
    return "".join(LATEX_SPECIAL.get(ch, ch) for ch in text)


def data_number(value, kind: str) -> str:
    """A rational column's value as a plain decimal number for CSV: probabilities and edges as
    proportions (0.0105795, not 1.0579%), an SD as the root of its variance, 15 decimals correctly
    rounded, trailing zeros dropped; an expression in a payout symbol as itself.

    >>> data_number(Fraction(1, 80), "percent"), data_number(Fraction(1, 4), "sd"), data_number(Fraction(1, 3), "number")
    ('0.0125', '0.5', '0.333333333333333')
    """
    if not is_number(value):
        return f"sqrt({exact(value)})" if kind == "sd" else exact(value)
    return trimmed(sqrt_decimal(value, 15) if kind == "sd" else decimal(value, 15))


@dataclass(frozen=True)
class DataColumn:
    """A column of a table as data (CSV, a spreadsheet): ``role`` says how its values are written:
    plain (text, or an integer), decimal (a rational as a decimal number), exact (the same value
    as ``p/q``), or estimate (a float: a Monte Carlo estimate or an approximation)."""

    header: str
    key: str
    kind: str
    role: str


def data_columns(view: View) -> list[DataColumn]:
    """The view's columns as data: the bet's id (and the pay line's) first where rows name one, and
    every rational column followed by its exact value.

    >>> [c.header for c in data_columns(View("", [Column("p", "P", "percent")], [{"bet": "tie", "p": Fraction(1, 8)}]))]
    ['id', 'P', 'P (exact)']
    """
    keys = {col.key for col in view.columns}
    ids = [Column(key, header) for key, header in (("bet", "id"), ("line", "line"))
           if key not in keys and any(key in row for row in view.rows)]
    out = []
    for col in ids + view.columns:
        values = [row[col.key] for row in view.rows if row.get(col.key) is not None]
        if col.kind in EXACT_KINDS and values and all(isinstance(v, float) for v in values):
            out.append(DataColumn(col.header, col.key, col.kind, "estimate"))
        elif col.kind in EXACT_KINDS:
            out += [DataColumn(col.header, col.key, col.kind, "decimal"),
                    DataColumn(_exact_header(col), col.key, col.kind, "exact")]
        else:
            out.append(DataColumn(col.header, col.key, col.kind, "plain"))
    return out


def data_text(value, column: DataColumn) -> str:
    """A value as CSV writes it (see csv_table)."""
    if value is None:
        return ""
    if isinstance(value, float):
        return repr(value)
    if column.role == "decimal":
        return data_number(value, column.kind)
    if column.role == "exact":
        return exact(value)
    return str(value) if is_number(value) else one_line_text(str(value))


def csv_table(view: View) -> str:
    """The view as data: a header row, then one row per table row. Rows that name a bet (or a pay
    line) start with its id; counts are plain integers; every rational value is a decimal
    number (see :func:`data_number`) followed by its exact value (``p/q``) in a column of its
    own; text is one line; Monte Carlo estimates and approximations are floats as Python writes them."""
    columns = data_columns(view)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([c.header for c in columns])
    for row in view.rows:
        writer.writerow([data_text(row.get(c.key), c) for c in columns])
    return out.getvalue().rstrip("\n")


MARKDOWN_ACTIVE = re.compile(r"([\\`<>\[\]|])")  # what could end a table cell, open a link, code or HTML


def markdown_cell(text: str) -> str:
    r"""Text shown as itself in Markdown, in a table cell or a line: the characters that could
    end a cell, open a link, an image, code or HTML are escaped; line breaks become spaces.

    >>> print(markdown_cell("Banker wins 1:1 | push <b> [x](y)"))
    Banker wins 1:1 \| push \<b\> \[x\](y)
    """
    return MARKDOWN_ACTIVE.sub(r"\\\1", text.replace("\r", " ").replace("\n", " "))


def markdown_table(view: View, show_exact: bool = False) -> str:
    """The view's table as a Markdown pipe table, columns padded for reading as plain text.

    >>> print(markdown_table(View("", [Column("a", "bet"), Column("p", "P", "percent")], [{"a": "x|y", "p": Fraction(1, 8)}])))
    | bet  |        P |
    |:-----|---------:|
    | x\\|y | 12.5000% |
    """
    headers, rows, aligns = table_cells(view, show_exact)
    table = [[markdown_cell(c) for c in row] for row in [headers] + rows]
    widths = [max(3, *(len(row[i]) for row in table)) for i in range(len(headers))]
    pad = lambda text, i: text.ljust(widths[i]) if aligns[i] == "left" else text.rjust(widths[i])  # noqa: E731
    rule = "|" + "|".join(":" + "-" * (w + 1) if a == "left" else "-" * (w + 1) + ":" for w, a in zip(widths, aligns)) + "|"
    lines = ["| " + " | ".join(pad(c, i) for i, c in enumerate(row)) + " |" for row in table]
    return "\n".join([lines[0], rule] + lines[1:])


def html_table(view: View, show_exact: bool = False) -> str:
    """The view's table as an HTML table (text escaped; numbers right-aligned by class ``num``).

    >>> html_table(View("", [Column("a", "bet")], [{"a": "<b>"}]))
    '<table>\\n<thead><tr><th>bet</th></tr></thead>\\n<tbody>\\n<tr><td>&lt;b&gt;</td></tr>\\n</tbody>\\n</table>'
    """
    headers, rows, aligns = table_cells(view, show_exact)
    attr = ["" if a == "left" else ' class="num"' for a in aligns]
    head = "".join(f"<th{a}>{escape(h)}</th>" for h, a in zip(headers, attr))
    body = "\n".join("<tr>" + "".join(f"<td{a}>{escape(c)}</td>" for c, a in zip(row, attr)) + "</tr>" for row in rows)
    return f"<table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n{body}\n</tbody>\n</table>"


# Pay tables in words ------------------------------------------------------------------------

def pay_table(bet, brief: bool = False) -> str:
    """The pay lines in words, e.g. ``Banker wins 1:1; tie push; 5% commission``; ``brief``
    names only the number of lines of a bet that has several."""
    text = f"{len(bet.lines)} pay lines" if brief and len(bet.lines) > 1 else "; ".join(
        f"{ln.label} {ln.written or payout_text(ln.pays)}" for ln in bet.lines)
    return text + (f"; {percent_text(bet.commission)} commission" if bet.commission != 0 else "")


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
