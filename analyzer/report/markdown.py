"""The report as Markdown (report.md): pipe tables, each with a link to its exact values, and the
charts as images in charts/."""

from __future__ import annotations

import re

from ..render import EXACT_KINDS, View, markdown_cell, markdown_table
from .document import Chart, Code, Heading, Report, Table, Text


def as_markdown(report: Report) -> str:
    """The report as Markdown, block by block."""
    return "\n\n".join(BLOCKS[type(block)](block) for block in report.blocks) + "\n"


def heading(block: Heading) -> str:
    return "#" * block.level + " " + markdown_cell(block.text)


def text(block: Text) -> str:
    return "".join(markdown_code(x.text) if isinstance(x, Code) else markdown_cell(x) for x in block.parts)


def table(block: Table) -> str:
    """A table's caption in bold, the table, and a link to its CSV where it holds exact values."""
    exact = any(c.kind in EXACT_KINDS for c in block.view.columns)
    link = f"\n\nExact values: [{block.file}]({block.file})" if exact else ""
    return f"**{markdown_cell(caption(block.view))}**\n\n" + markdown_table(block.view, block.show_exact) + link


def chart(block: Chart) -> str:
    return f"![{markdown_cell(block.title)}]({block.file})"


BLOCKS = {Heading: heading, Text: text, Table: table, Chart: chart}


def markdown_code(text: str) -> str:
    """A Markdown code span holding ``text`` whatever backticks it has.

    >>> markdown_code("baccarat report -o a`b")
    '``baccarat report -o a`b``'
    """
    text = text.replace("\n", " ")
    fence = "`" * (max((len(run) for run in re.findall("`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def caption(view: View) -> str:
    """A table's title on one line, as the Markdown and HTML captions show it.

    >>> caption(View("Bets of ez\\nEZ baccarat", [], []))
    'Bets of ez; EZ baccarat'
    """
    return view.title.replace("\n", "; ")
