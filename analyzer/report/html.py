"""The report as one self-contained HTML page (report.html): a list of its sections, the tables
as HTML tables, the charts as SVG images embedded in the page, so that it needs no other file."""

from __future__ import annotations

import base64
from html import escape

from .. import __version__
from ..render import html_table
from . import GENERATOR
from .document import Chart, Code, Heading, Report, SignOff, Table, Text
from .markdown import caption

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 80em; padding: 0 1em; color: #222; }
h1 { font-size: 1.6em; } h2 { border-bottom: 1px solid #ccc; margin-top: 2em; } h3 { margin-top: 1.5em; }
.scroll { overflow-x: auto; margin: 0.5em 0 1em; }
table { border-collapse: collapse; font-size: 0.85em; }
p.caption { font-weight: bold; font-size: 0.9em; margin: 1em 0 0.3em; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.5em; white-space: nowrap; }
th { background: #f0f0f0; } td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
tbody tr:nth-child(even) { background: #fafafa; }
figure { margin: 1em 0; } figure img { max-width: 100%; height: auto; }
code { background: #f4f4f4; padding: 0.1em 0.3em; }
nav ul { columns: 2; }
.sign-off p { margin: 1.6em 0 0.4em; } .sign-off .role { display: inline-block; width: 8em; font-weight: bold; }
.sign-off .line { display: inline-block; min-width: 14em; min-height: 1.2em; vertical-align: bottom;
                  border-bottom: 1px solid #222; margin: 0 1.5em 0 0.3em; }
.sign-off .line.date { min-width: 7em; }
"""


def as_html(report: Report) -> str:
    """The report as an HTML page, its headings numbered (s1, s2, ...) for the list of sections."""
    body, sections, n = [], [], 0
    for block in report.blocks:
        if isinstance(block, Heading):
            n += 1
            if block.level == 2:
                sections.append(f'<li><a href="#s{n}">{escape(block.text)}</a></li>')
            body.append(f'<h{block.level} id="s{n}">{escape(block.text)}</h{block.level}>')
        else:
            body.append(BLOCKS[type(block)](block))
    return page(report.title, body[0], sections, body[1:])


def page(title: str, heading: str, sections: list[str], body: list[str]) -> str:
    """The HTML page: the report's heading, the list of its sections, then the rest of its body."""
    nav = "<nav><ul>\n" + "\n".join(sections) + "\n</ul></nav>"
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f'<meta name="generator" content="{GENERATOR} {__version__}">\n<title>{escape(title)}</title>\n'
            f"<style>{STYLE}</style>\n</head>\n<body>\n{heading}\n{nav}\n" + "\n".join(body) + "\n</body>\n</html>\n")


def text(block: Text) -> str:
    return "<p>" + "".join(f"<code>{escape(x.text)}</code>" if isinstance(x, Code) else escape(x)
                           for x in block.parts) + "</p>"


def table(block: Table) -> str:
    """A table's caption, then the table (labelled by it) in a box that scrolls sideways."""
    grid = html_table(block.view, block.show_exact).replace(
        "<table>", f'<table id="table-{block.name}" aria-labelledby="caption-{block.name}">', 1)
    return (f'<p class="caption" id="caption-{block.name}">{escape(caption(block.view))}</p>\n'
            f'<div class="scroll">\n{grid}\n</div>')


def chart(block: Chart) -> str:
    data = base64.b64encode(block.svg).decode("ascii")
    return (f'<figure id="chart-{block.name}"><img src="data:image/svg+xml;base64,{data}" '
            f'alt="{escape(block.title)}"></figure>')


def sign_off(block: SignOff) -> str:
    """For each role, the name given on a line (or the line left blank), and lines to sign and date."""
    return '<div class="sign-off">\n' + "\n".join(
        f'<p><span class="role">{escape(role)}</span> name<span class="line">{escape(name)}</span> '
        'signature<span class="line"></span> date<span class="line date"></span></p>' for role, name in block.roles) + "\n</div>"


BLOCKS = {Text: text, Table: table, Chart: chart, SignOff: sign_off}
