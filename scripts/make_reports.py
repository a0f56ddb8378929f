"""Regenerate reports/: the par sheet of each built-in rule set on an 8-deck shoe.

Run: python scripts/make_reports.py    (tests/test_reports.py fails when these drift from the code)

Each folder is what `baccarat report --rules NAME --decks 8 -o reports/NAME-8-decks` writes.
"""

import sys
from pathlib import Path

from analyzer import report
from analyzer.cli import report_command
from analyzer.bets.rulefile import BUILT_IN

ROOT = Path(__file__).resolve().parent.parent
REPORTS = ROOT / "reports"
MATPLOTLIB = "matplotlib-version.txt"  # the release that drew the committed charts


def folder(name: str) -> str:
    return f"reports/{name}-8-decks"


def contents(name: str) -> dict[str, bytes]:
    """Path inside the report folder -> bytes, for the built-in rule set ``name``."""
    request = report.Request((name,), decks="8")
    return report.files(report.build(report.scope(request), report_command(request, folder(name))))


def matplotlib_version() -> str:
    import matplotlib

    return matplotlib.__version__


def main():
    REPORTS.mkdir(exist_ok=True)
    for name in BUILT_IN:
        path = report.write(contents(name), ROOT / folder(name), force=True)
        print(path.relative_to(ROOT), file=sys.stderr)
    # the charts' bytes depend on matplotlib's release: the drift test compares them exactly under this one
    (REPORTS / MATPLOTLIB).write_text(matplotlib_version() + "\n")


if __name__ == "__main__":
    main()
