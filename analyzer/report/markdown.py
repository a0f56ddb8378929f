"""The report as Markdown (report.md): pipe tables, each with a link to its exact values, and the
charts as images in charts/."""

from __future__ import annotations

import re

from ..render import EXACT_KINDS, View, markdown_cell, markdown_table
from .document import Chart, Code, Heading, Report, SignOff, Table, Text

BLANK, SHORT = "\\_" * 24, "\\_" * 12  # lines to write on (escaped: no emphasis)


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


def sign_off(block: SignOff) -> str:
    """For each role, the name given (or a line to write it on), and lines to sign and date."""
    return "\n\n".join(f"{markdown_cell(role)}: {markdown_cell(name) if name else BLANK}  \n"
                       f"Signature: {BLANK}  \nDate: {SHORT}" for role, name in block.roles)


BLOCKS = {Heading: heading, Text: text, Table: table, Chart: chart, SignOff: sign_off}


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
