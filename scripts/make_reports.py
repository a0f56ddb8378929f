"""Regenerate reports/: the 8-deck house-edge table of each built-in rule set, as Markdown.

Run: python scripts/make_reports.py    (tests/test_reports.py fails when these drift from the code)
"""

from pathlib import Path

from analyzer import views
from analyzer.cards import Shoe
from analyzer.render import render
from analyzer.rulefile import BUILT_IN, get_rules

REPORTS = Path(__file__).resolve().parent.parent / "reports"


def reports() -> dict[str, str]:
    """File name -> Markdown text of each report."""
    shoe = Shoe.decks(8)
    return {
        f"edge-{name}-8-decks.md": f"# House edge: {name}, 8 decks\n\n"
        f"Made by `python scripts/make_reports.py`; the same as `baccarat edge --rules {name} --format github --exact`.\n\n"
        + render(views.edge(get_rules(name), shoe), "github", show_exact=True) + "\n"
        for name in BUILT_IN
    }


if __name__ == "__main__":
    REPORTS.mkdir(exist_ok=True)
    for name, text in reports().items():
        (REPORTS / name).write_text(text)
        print(REPORTS / name)
