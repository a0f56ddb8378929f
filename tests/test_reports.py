"""The committed reports/ are what the code produces now."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_committed_reports_match_the_code():
    spec = importlib.util.spec_from_file_location("make_reports", ROOT / "scripts" / "make_reports.py")
    make_reports = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make_reports)
    expected = make_reports.reports()
    assert sorted(p.name for p in (ROOT / "reports").glob("edge-*.md")) == sorted(expected)
    for name, text in expected.items():
        assert (ROOT / "reports" / name).read_text() == text, f"reports/{name} is stale: run scripts/make_reports.py"
