"""The par sheet as an Excel workbook: an "about" sheet (the report's title, rules, shoe, tool,
date and the command that made it, and a list of the sheets), then one sheet per table.

Each table sheet has the table's caption, a frozen header row and its columns as data (as in
the CSV): probabilities, edges and returns as decimal numbers a formula can use (formatted as
percentages or decimals), their exact fractions as text beside them, counts as integers where
Excel holds them exactly (below 10**15: Excel keeps 15 significant digits) and as text in a
column that holds a larger one, so that 2,292,252,566,437,888 is never shown as
2,292,252,566,437,890 and a column is all numbers or all text.

Written with XlsxWriter (kept since 2013, write-only and fast, no dependencies of its own).
"""

from __future__ import annotations

import io
import math
import re
from datetime import datetime

from ..render import SD_KINDS, DataColumn, data_columns, exact, is_number, one_line_text
from .markdown import caption

EXCEL_DIGITS = 10**15  # integers below this Excel holds and shows exactly
FORMATS = {"percent": "0.0000%", "fine": "0.000000%", "permille": "0.00000", "number": "0.000000",
           "sci": "0.0000E+00", "sd": "0.0000", "one_in": "0.00", "units": "0.00####", "count": "#,##0"}
MAX_WIDTH = 60  # characters


def sheet_names(names: list[str]) -> list[str]:
    """Excel sheet names for tables: at most 31 characters, none of []:*?/\\, distinct
    (case aside), never "History".

    >>> sheet_names(["edge-by-decks-banker-stands-on-6", "edge-by-decks-banker-stands-on-6x", "a/b"])
    ['edge-by-decks-banker-stands-on-', 'edge-by-decks-banker-stands-o~2', 'a-b']
    """
    out, taken = [], {"history", "about"}
    for name in names:
        base = re.sub(r"[\[\]:*?/\\']", "-", name)[:31] or "table"
        candidate, n = base, 1
        while candidate.lower() in taken:
            n += 1
            candidate = f"{base[:31 - len(str(n)) - 1]}~{n}"
        taken.add(candidate.lower())
        out.append(candidate)
    return out


def cell_value(value, column: DataColumn, big: bool = False):
    """What a cell holds: a number where Excel holds it exactly or it is a decimal to compute
    with, else text; an integer as text in a ``big`` column (one that holds an integer of 16
    digits or more).

    >>> from fractions import Fraction
    >>> cell_value(2292252566437888, DataColumn("c", "c", "count", "plain"), True), cell_value(12, DataColumn("c", "c", "count", "plain"))
    ('2292252566437888', 12)
    >>> cell_value(Fraction(1, 4), DataColumn("p", "p", "percent", "decimal")), cell_value(Fraction(1, 4), DataColumn("p", "p", "percent", "exact"))
    (0.25, '1/4')
    >>> cell_value(Fraction(1, 4), DataColumn("sd", "sd", "sd", "decimal"))
    0.5
    """
    if value is None:
        return None
    if isinstance(value, float):
        return value
    if column.role == "exact":
        return exact(value)
    if column.role == "decimal":
        if not is_number(value):
            return exact(value)  # an expression in a payout symbol
        return math.sqrt(value) if column.kind in SD_KINDS else float(value)  # float(Fraction): correctly rounded
    if isinstance(value, bool) or not is_number(value):
        return one_line_text(str(value))
    return str(value) if big else value


def big_integers(rows: list[dict], key: str) -> bool:
    """Whether a column holds an integer that Excel cannot hold exactly."""
    return any(isinstance(row.get(key), int) and abs(row[key]) >= EXCEL_DIGITS for row in rows)


def as_xlsx(report, made: str = "") -> bytes:
    """The report (a document.Report) as .xlsx bytes, dated ``made``."""
    import xlsxwriter  # heavy: loaded only when a workbook is made

    out = io.BytesIO()
    book = xlsxwriter.Workbook(out, {"in_memory": True, "strings_to_numbers": False, "strings_to_formulas": False,
                                     "strings_to_urls": False})
    stamp = datetime.fromisoformat(made) if made else datetime(2000, 1, 1)
    book.set_properties({"title": report.title, "author": "baccarat", "created": stamp,
                         "comments": f"baccarat {report.data.get('version', '')}"})
    formats = add_formats(book)
    names = sheet_names([t.name for t in report.tables])
    about_sheet(book.add_worksheet("about"), report, made, names, formats)
    for name, block in zip(names, report.tables):
        table_sheet(book.add_worksheet(name), block, formats)
    book.close()
    return out.getvalue()


def add_formats(book) -> dict:
    """The workbook's cell formats by use (bold, title, wrap, head) and, under "numbers", by kind
    of number (FORMATS)."""
    return {"bold": book.add_format({"bold": True}), "title": book.add_format({"bold": True, "font_size": 14}),
            "wrap": book.add_format({"text_wrap": True, "valign": "top"}),
            "head": book.add_format({"bold": True, "bg_color": "#EEEEEE", "bottom": 1, "text_wrap": True,
                                     "valign": "top"}),
            "numbers": {kind: book.add_format({"num_format": f}) for kind, f in FORMATS.items()}}


def about_sheet(about, report, made: str, names: list[str], formats: dict) -> None:
    """The first sheet: the report's title, its title-page lines and date, then a link to each
    table's sheet with the table's caption."""
    about.write(0, 0, report.data.get("kind", "Par sheet"), formats["title"])
    about.write(1, 0, report.title)
    lines = list(report.front) + [("Date", made)]
    for row, (label, value) in enumerate(lines, start=3):
        about.write(row, 0, label, formats["bold"])
        about.write(row, 1, one_line_text(str(value).replace("\n", "; ")), formats["wrap"])
    sheets = 3 + len(lines) + 1  # the row of the list of sheets, after a blank one
    about.write(sheets, 0, "Sheets", formats["bold"])
    for row, (name, block) in enumerate(zip(names, report.tables), start=sheets + 1):
        about.write_url(row, 0, f"internal:'{name}'!A1", string=name)
        about.write(row, 1, one_line_text(caption(block.view)))
    about.set_column(0, 0, 34)
    about.set_column(1, 1, 110, formats["wrap"])


def table_sheet(sheet, block, formats: dict) -> None:
    """A table's sheet: its caption, a frozen header row, then its columns as data (cell_value),
    each column as wide as its longest text needs, within MAX_WIDTH."""
    columns = data_columns(block.view)
    sheet.write(0, 0, one_line_text(caption(block.view)), formats["bold"])
    for c, column in enumerate(columns):
        sheet.write(2, c, column.header, formats["head"])
    widths = [len(column.header) for column in columns]
    big = [big_integers(block.view.rows, column.key) for column in columns]
    for r, values in enumerate(block.view.rows, start=3):
        for c, column in enumerate(columns):
            value = cell_value(values.get(column.key), column, big[c])
            widths[c] = max(widths[c], write_cell(sheet, r, c, value, column.kind, formats["numbers"]))
    for c, w in enumerate(widths):
        sheet.set_column(c, c, min(MAX_WIDTH, w + 2))
    sheet.freeze_panes(3, 1 if columns and columns[0].role == "plain" else 0)


def write_cell(sheet, r: int, c: int, value, kind: str, numbers: dict) -> int:
    """Write one cell, text as text and a number in its kind's format; the width it needs (0: none)."""
    if value is None:
        return 0
    if isinstance(value, str):
        sheet.write_string(r, c, value)
        return len(value)
    sheet.write_number(r, c, value, numbers.get("count" if isinstance(value, int) else kind))
    return 12
