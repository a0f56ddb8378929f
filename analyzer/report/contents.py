"""Every file of a report folder, path -> bytes: report.md, report.html, report.json, report.pdf,
report.xlsx, a CSV per table and an SVG per chart."""

from __future__ import annotations

import os
from datetime import date, datetime, timezone

from .data import as_csv, as_json
from .document import Report
from .html import as_html
from .markdown import as_markdown
from .pdf import as_pdf
from .xlsx import as_xlsx


def files(report: Report, paper: str = "a4", made: str | None = None) -> dict[str, bytes]:
    """Path inside the report folder -> content, for every file of the report; the PDF on
    ``paper`` (a4 or letter); the PDF and the workbook dated ``made`` (default: today)."""
    made = made or today()
    return {"report.md": as_markdown(report).encode(), "report.html": as_html(report).encode(),
            "report.json": as_json(report).encode(), "report.pdf": as_pdf(report, paper, made),
            "report.xlsx": as_xlsx(report, made), **as_csv(report), **{c.file: c.svg for c in report.charts}}


def today() -> str:
    """The date a report is made, ISO: today, or the date of SOURCE_DATE_EPOCH when it is set
    (reproducible builds' convention: the same report, the same files)."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "")
    if epoch.isdigit():
        return datetime.fromtimestamp(int(epoch), timezone.utc).date().isoformat()
    return date.today().isoformat()
