"""The one rendering path: a View (columns, rows of exact values, and a JSON object) in, text out.

Exact values stay Fractions and ints until here; decimals are made only for display, by
correctly rounded decimal arithmetic (never binary floats).
"""

from __future__ import annotations

import csv
import io
import itertools
import re
import unicodedata
from html import escape
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import lru_cache

from .base.numbers import decimal, exact, is_number, percent, scientific, sqrt_decimal, to_json
from .base.numbers import fixed_point, pay_table, payout_text, percent_text, rounded, to_json_text  # noqa: F401  (read through render by the views)

EXACT_KINDS = ("percent", "fine", "permille", "number", "sci", "sd", "one_in", "units", "money", "sd_money")  # rational columns
SD_KINDS = ("sd", "sd_money")  # columns that hold a variance and show its square root


@dataclass(frozen=True)
class Column:
    key: str
    header: str
    kind: str = "text"  # text | count | percent | fine (6 places) | permille | number | sci | sd | one_in | units | money | sd_money
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
        return f"sqrt({exact(value)})" if kind in SD_KINDS else exact(value)
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
    if kind == "sd_money":  # a variance of amounts: its square root to the cent, thousands grouped
        whole, _, cents = sqrt_decimal(value, 2).partition(".")
        return f"{int(whole):,}.{cents}"
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
    return "variance (exact)" if column.kind in SD_KINDS else f"{column.header} (exact)"


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
        return f"sqrt({exact(value)})" if kind in SD_KINDS else exact(value)
    return trimmed(sqrt_decimal(value, 15) if kind in SD_KINDS else decimal(value, 15))


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


