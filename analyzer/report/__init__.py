"""Par sheets: everything about one shoe and one or more rule sets, in one report folder.

A report is made in four steps, each in a module of its own:

request.py   what the user asked for, as given (Request), and what the par sheet covers (Scope):
             scope() reads and checks it all before any work, so that a bad input fails at once.
document.py  build(): every view and chart computed (compute), then laid out as the report's
             blocks, one method of Sheet per section, in a Report.
contents.py  files(): every file of the folder, path -> bytes, from one module per format:
             markdown.py, html.py, data.py (report.json and tables/*.csv), pdf.py and xlsx.py.
folder.py    write(): the folder written atomically.

>>> from analyzer import report
>>> scope = report.scope(report.Request(decks="6"))
>>> report.steps(scope)  # the units of work build() tells its progress callback of
21

then ``report.write(report.files(report.build(scope, command)), "par")``, where ``command`` is
the text the report gives as the way to make it again (the command line gives its own), or None.

Glossary
--------
report     a list of blocks - headings, text, tables and charts - built once from the views;
           each output format is a module with one function over those blocks.
table      a View: exact values in its rows and its JSON object, decimals made only when shown.
           Markdown and HTML show decimals (and the exact fractions where a table asks for
           them); ``tables/NAME.csv`` has each table as data (ids, decimal numbers, exact values);
           ``report.json`` has every table's exact values as ``"p/q"``.
chart      an SVG drawn from a table's own values (charts.py), in ``charts/NAME.svg`` and
           embedded in the HTML, so that the HTML needs nothing else to be read.
report.pdf the print-ready par sheet (pdf.py): a title page, then the same blocks, on A4 or Letter.
report.xlsx a workbook (xlsx.py): the rules and the command, then a sheet per table.
command    the text a report shows as the way to make it again: opaque to the library, which
           leaves the line out where there is none.
main bets  Banker, Player and Tie (bets.MAIN_BETS); every other bet is a side bet.

The folder is written atomically: built in a hidden folder beside the destination, then renamed
into place; an existing folder is replaced only when asked, and only if it is a report.

The names below are loaded when first used, so that ``import analyzer.report`` loads neither
numpy nor matplotlib.
"""

from ..base.lazy import exports

GENERATOR = "baccarat report"  # report.json's "generator": how a folder is known to be a report
__getattr__, __dir__, __all__ = exports(__name__, {
    "request": ("Request", "Scope", "scope", "steps"),
    "document": ("Report", "build"),
    "contents": ("files",),
    "folder": ("check_destination", "write"),
})
