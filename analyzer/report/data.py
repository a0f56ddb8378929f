"""The report as data: report.json, every table's exact values (Fractions as ``"p/q"``) with the
rules, shoe and command; and tables/NAME.csv, each table's columns as data (ids, decimal
numbers, exact values)."""

from __future__ import annotations

import json

from ..render import render, to_json
from .document import Report


def as_json(report: Report) -> str:
    """report.json: the report's data, its tables' exact values, and its charts' titles and files."""
    tables = {b.name: b.view.data for b in report.tables}
    charts = {b.name: {"title": b.title, "file": b.file} for b in report.charts}
    return json.dumps(to_json(report.data | {"tables": tables, "charts": charts}), indent=2, ensure_ascii=False) + "\n"


def as_csv(report: Report) -> dict[str, bytes]:
    """tables/NAME.csv -> its content, for every table of the report."""
    return {b.file: (render(b.view, "csv", show_exact=True) + "\n").encode() for b in report.tables}
