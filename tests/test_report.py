"""`baccarat report`: the folder's files agree with the exact views and with each other, the
Markdown tables are well formed, the charts carry the tables' figures, the folder is written
atomically and never over a user's files, and the HTML renders in headless Chromium."""

import base64
import csv
import io
import json
import os
import re
import shutil
import xml.etree.ElementTree as ET
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from analyzer import Shoe, analyse, get_rules, report
from analyzer.bets.bet import MAIN_BETS
from analyzer.cli import cli
from analyzer.render import data_number, percent
from analyzer.report import document
from analyzer.report.markdown import as_markdown

ROOT = Path(__file__).resolve().parent.parent


def run(*args):
    return CliRunner().invoke(cli, list(args))


@pytest.fixture(scope="module")
def standard(tmp_path_factory):
    """One report written through the command line, shared by the checks below."""
    out = tmp_path_factory.mktemp("report") / "par"
    result = run("report", "--decks", "8", "-o", str(out))
    assert result.exit_code == 0, result.output
    assert "Computing the report" in result.output  # the progress bar (stderr)
    assert result.stdout == (f"Wrote {out}/: report.md, report.html, report.pdf, report.xlsx, report.json, "
                             "11 tables (CSV), 3 charts (SVG)\n")
    return out


def load(folder):
    return json.loads((folder / "report.json").read_text())


def test_the_folder_holds_every_file_the_json_names(standard):
    data = load(standard)
    assert data["generator"] == "baccarat report" and data["command"] == f"baccarat report --rules standard --decks 8 -o {standard}"
    assert sorted(p.name for p in (standard / "tables").iterdir()) == sorted(f"{name}.csv" for name in data["tables"])
    assert sorted(f"charts/{p.name}" for p in (standard / "charts").iterdir()) == sorted(c["file"] for c in data["charts"].values())
    assert {p.name for p in standard.iterdir()} == {"report.md", "report.html", "report.json", "report.pdf", "report.xlsx",
                                                    "tables", "charts"}


def test_json_is_exact_and_equals_the_engine(standard):
    tables = load(standard)["tables"]
    bets = {b["bet"]: b for b in tables["house-edge-standard"]["bets"]}
    # Wizard of Odds, Baccarat (8 decks): Banker 1.0579%, Player 1.2351%, Tie 14.3596%
    assert [percent(Fraction(bets[b]["house_edge"])) for b in ("banker", "player", "tie")] == ["1.0579%", "1.2351%", "14.3596%"]
    for result in analyse(get_rules("standard"), Shoe.decks(8)):
        row = bets[result.bet.id]
        assert Fraction(row["house_edge"]) == result.house_edge and Fraction(row["variance"]) == result.variance
    outcomes = tables["outcomes-punto-banco"]
    # the published 8-deck counts (Wizard of Odds): Banker 2,292,252,566,437,888, Tie 475,627,426,473,216
    assert outcomes["outcomes"]["banker"]["combinations"] == 2292252566437888
    assert outcomes["outcomes"]["tie"]["combinations"] == 475627426473216
    assert sum(outcomes["outcomes"][k]["combinations"] for k in ("banker", "player", "tie")) == outcomes["total"]


def test_edge_by_decks_equals_each_shoe_and_the_limit(standard):
    table = load(standard)["tables"]["edge-by-decks-standard"]
    assert table["decks"] == [1, 2, 4, 6, 8, "infinite"]
    for row in table["bets"]:
        for decks, edge in zip([1, 2, 4, 6, 8], row["house_edge"]):
            assert Fraction(edge) == {r.bet.id: r for r in analyse(get_rules("standard"), Shoe.decks(decks))}[row["bet"]].house_edge
    limit = {row["bet"]: Fraction(row["house_edge"][-1]) for row in table["bets"]}
    assert limit["player_pair"] == Fraction(1, 13)  # 11:1 on a pair that comes 1 time in 13: edge 1 - 12/13


def test_csv_holds_every_exact_value_of_the_json(standard):
    rows = list(csv.DictReader(io.StringIO((standard / "tables" / "house-edge-standard.csv").read_text())))
    bets = {b["name"]: b for b in load(standard)["tables"]["house-edge-standard"]["bets"]}
    main = [r for r in rows if not r["bet"].startswith("·")]
    assert [r["bet"] for r in main] == list(bets)
    for r in main:
        assert r["house edge (exact)"] == bets[r["bet"]]["house_edge"]
        assert r["house edge"] == data_number(Fraction(r["house edge (exact)"]), "percent")


def markdown_tables(text):
    """Each Markdown table of ``text`` as its list of lines."""
    tables, current = [], []
    for line in text.splitlines() + [""]:
        if line.startswith("|"):
            current.append(line)
        elif current:
            tables.append(current)
            current = []
    return tables


def cells_of(line):
    return re.split(r"(?<!\\)\|", line)[1:-1]


def check_markdown(folder):
    text = (folder / "report.md").read_text()
    tables = markdown_tables(text)
    assert tables
    for table in tables:
        widths = {len(cells_of(line)) for line in table}
        assert len(widths) == 1, table[0]  # every row has the header's columns: no stray pipe
        assert re.fullmatch(r"\|(:?-+:?\|)+", table[1]), table[1]
        assert all(line.endswith("|") and not line.endswith("\\|") for line in table)
    for target in re.findall(r"\]\(((?:tables|charts)/[^)]+)\)", text):
        assert (folder / target).is_file(), target
    return tables


def test_markdown_tables_render_in_any_viewer(standard):
    assert len(check_markdown(standard)) == 11


def test_committed_reports_are_well_formed_markdown():
    for folder in sorted(p for p in (ROOT / "reports").iterdir() if p.is_dir()):
        check_markdown(folder)


def test_a_pipe_in_a_bet_name_is_escaped(tmp_path):
    rules = tmp_path / "pipes.toml"
    rules.write_text('name = "pipes"\nextends = "standard"\n[[bets]]\nid = "tie"\nname = "Tie | any"\n'
                     'lines = [{ label = "tie | push", when = { winner = "tie" }, pays = 8 }]\n')
    result = run("report", "--rules", str(rules), "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    assert "Tie \\| any" in (tmp_path / "out" / "report.md").read_text()
    check_markdown(tmp_path / "out")


def svg_texts(svg: bytes) -> list[str]:
    """The text drawn on a chart: its SVG text elements (the charts keep text as text)."""
    return ["".join(e.itertext()) for e in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}text")]


def test_charts_show_the_figures_of_the_tables(standard):
    tables = load(standard)["tables"]
    edge_chart = svg_texts((standard / "charts" / "house-edge-standard.svg").read_bytes())
    for bet in tables["house-edge-standard"]["bets"]:
        assert bet["name"] in edge_chart and percent(Fraction(bet["house_edge"]), 2) in edge_chart
    decks_chart = svg_texts((standard / "charts" / "edge-by-decks-standard.svg").read_bytes())
    for bet in tables["edge-by-decks-standard"]["bets"]:  # all five: the 3 main bets and both pairs
        assert bet["name"] in decks_chart and percent(Fraction(bet["house_edge"][-1])) in decks_chart
    eor_chart = svg_texts((standard / "charts" / "eor-standard.svg").read_bytes())
    assert {"Banker", "Player", "Tie", "Player Pair", "Banker Pair", "exactly 0 for every rank"} <= set(eor_chart)


def test_html_is_self_contained(standard):
    page = (standard / "report.html").read_text()
    assert not re.search(r"""(src|href)=["']?(https?:|//|file:)""", page) and "<script" not in page and "<link" not in page
    images = re.findall(r'<img src="data:image/svg\+xml;base64,([^"]+)"', page)
    assert len(images) == page.count("<img") == 3
    for image, name in zip(images, ["house-edge", "edge-by-decks", "eor"]):
        assert base64.b64decode(image) == (standard / "charts" / f"{name}-standard.svg").read_bytes()
    assert page.count("<table") == 11


def test_several_rule_sets_and_chosen_side_bets(tmp_path):
    out = tmp_path / "two"
    result = run("report", "--rules", "standard", "--rules", "banker-stands-on-6", "--decks", "6",
                 "--side-bets", "banker_pair", "-o", str(out))
    assert result.exit_code == 0, result.output
    data = load(out)
    assert {"outcomes-punto-banco", "outcomes-banker-stands-on-6"} <= set(data["tables"])  # one per tableau
    assert data["tables"]["edge-by-decks-standard"]["decks"] == [1, 2, 4, 6, 8, "infinite"]
    assert [c["label"] for c in data["tables"]["compare"]["columns"]][:2] == ["standard", "banker-stands-on-6"]
    titles = svg_texts((out / "charts" / "eor-banker-stands-on-6.svg").read_bytes())
    assert "Banker Pair" in titles and "Player Pair" not in titles
    assert len(list((out / "charts").iterdir())) == 6


def test_default_side_bets_are_the_most_sensitive_to_removal():
    p = report.scope(report.Request(("catalog",)))
    rules = p.rules[0]
    from analyzer.views.removal import eor

    removal = eor(rules, p.shoe)
    chosen = document.chart_bets(rules, removal, None)
    sensitivity = sorted(((r["sum_of_squares"], r["bet"]) for r in removal.data["bets"]
                          if r["bet"] not in MAIN_BETS), reverse=True)
    assert chosen == ["banker", "player", "tie"] + [b for _, b in sensitivity[:3]]


def rule_file(folder, file_name, name, description="d", extra=""):
    path = folder / file_name
    path.write_text(f'name = {json.dumps(name)}\ndescription = {json.dumps(description)}\nextends = "standard"\n{extra}')
    return str(path)


def test_a_users_rule_set_keeps_its_own_column_beside_the_built_in_of_the_same_name(tmp_path):
    mine = rule_file(tmp_path, "ez.toml", "ez", "standard bets under the name ez")
    assert run("report", "--rules", mine, "-o", str(tmp_path / "out")).exit_code == 0
    table = load(tmp_path / "out")["tables"]["compare"]
    labels = [c["label"] for c in table["columns"]]
    assert labels[0] == "ez" and "ez (built-in)" in labels
    banker = next(b for b in table["bets"] if b["bet"] == "banker")["house_edge"]
    standard = analyse(get_rules("standard"), Shoe.decks(8))[0].house_edge
    assert Fraction(banker[0]) == standard != Fraction(banker[labels.index("ez (built-in)")])


def test_names_that_make_the_same_file_name_get_their_own_files(tmp_path):
    a = rule_file(tmp_path, "a.toml", "My Rules")
    b = rule_file(tmp_path, "b.toml", "my-rules", extra='[[bets]]\nid = "tie"\nlines = [{ when = { winner = "tie" }, pays = 9 }]\n')
    result = run("report", "--rules", a, "--rules", b, "-o", str(tmp_path / "out"))
    assert result.stdout.endswith("19 tables (CSV), 6 charts (SVG)\n")  # 8 per rule set, shoe, outcomes, compare
    tables = load(tmp_path / "out")["tables"]
    assert tables["house-edge-my-rules"]["rules"] == "My Rules" and tables["house-edge-my-rules-2"]["rules"] == "my-rules"


def test_user_text_cannot_restructure_the_markdown(tmp_path):
    hostile = rule_file(tmp_path, "h.toml", "nl\n# Injected](https://example.com/t.png) [",
                        "d\n<!-- hide the rest", 'source = "<img src=x onerror=alert(1)> `tick"\n')
    assert run("report", "--rules", hostile, "-o", str(tmp_path / "o`ut")).exit_code == 0
    text = (tmp_path / "o`ut" / "report.md").read_text()
    assert not re.search(r"^# Injected", text, re.M) and not re.search(r"(?<!\\)<", text)  # no raw HTML
    assert "](https://" not in text.replace("\\](https://", "")  # only escaped brackets before the address
    assert f"``baccarat report --rules {hostile} -o '{tmp_path}/o`ut'``" in text  # the command as one code span
    check_markdown(tmp_path / "o`ut")
    page = (tmp_path / "o`ut" / "report.html").read_text()
    assert "<img src=x" not in page and "&lt;img src=x onerror=alert(1)&gt;" in page


def test_side_bets_given_empty_or_twice(tmp_path):
    assert run("report", "--side-bets", "", "-o", str(tmp_path / "none")).exit_code == 0
    assert load(tmp_path / "none")["command"].endswith(f"--side-bets '' -o {tmp_path}/none")
    assert "Player Pair" not in svg_texts((tmp_path / "none" / "charts" / "eor-standard.svg").read_bytes())
    assert run("report", "--side-bets", "banker_pair,banker_pair", "-o", str(tmp_path / "twice")).exit_code == 0
    assert svg_texts((tmp_path / "twice" / "charts" / "eor-standard.svg").read_bytes()).count("Banker Pair") == 1


# Safety: bad input, existing folders, failures half-way ------------------------------------

def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


@pytest.mark.parametrize("args, message", [
    (["--rules", "nope"], "Error: unknown rule set 'nope' (rule sets: standard, commission-4, tie-9, no-commission, ez, "
                          "banker-stands-on-6, catalog, lightning) - a built-in rule set, or a .toml file"),
    (["--rules", "ez", "--rules", "ez"], "Error: rule set 'ez' is given twice"),
    (["--decks", "0"], "Error: the number of decks must be a whole number, 1 or more (got '0')"),
    (["--side-bets", "dragon_7"], "Error: --side-bets: no bet 'dragon_7' in standard (bets: banker, banker_pair, "
                                  "player, player_pair, tie)"),
    (["--remove", "Z"], "Error: unknown card 'Z' (a rank A, 2-9, T or 10, J, Q, K, optionally followed by a suit s, h, d, c)"),
])
def test_a_bad_option_fails_before_anything_is_written(tmp_path, args, message):
    result = run("report", *args, "-o", str(tmp_path / "out"))
    assert result.exit_code == 1 and result.output == message + "\n"
    assert list(tmp_path.iterdir()) == []


def test_a_symbolic_rule_set_is_refused(tmp_path):
    path = tmp_path / "sym.toml"
    path.write_text('name = "sym"\nsymbols = ["x"]\nextends = "standard"\n[[bets]]\nid = "tie"\n'
                    'lines = [{ when = { winner = "tie" }, pays = "x" }]\n')
    result = run("report", "--rules", str(path), "-o", str(tmp_path / "out"))
    assert result.output == ("Error: rule set 'sym': bet 'tie' pays x: a report needs its value, give it with --meter "
                             "x=AMOUNT (`baccarat solve` finds the break-even meter)\n")
    assert not (tmp_path / "out").exists()


def test_a_shoe_too_small_for_the_effect_of_removal_is_refused(tmp_path):
    shoe = tmp_path / "shoe.toml"
    shoe.write_text("[ranks]\nA = 3\nK = 3\n")
    result = run("report", "--shoe", str(shoe), "-o", str(tmp_path / "out"))
    assert result.output == "Error: a report needs a shoe of at least 7 cards for the effect of removal (this one has 6)\n"


def test_an_existing_folder_is_kept_without_force(tmp_path, standard):
    target = tmp_path / "mine"
    target.mkdir()
    (target / "notes.txt").write_text("mine")
    result = run("report", "-o", str(target))
    assert result.exit_code == 1 and result.output == f"Error: '{target}' exists; use --force to replace it\n"
    result = run("report", "-o", str(target), "--force")  # --force replaces only a report folder
    assert result.output == f"Error: '{target}' is not a baccarat report folder (no report.json of ours); not replacing it\n"
    assert [p.name for p in target.iterdir()] == ["notes.txt"] and leftovers(tmp_path) == []
    afile = tmp_path / "afile"
    afile.write_text("x")
    assert run("report", "-o", str(afile), "--force").output == f"Error: '{afile}' is not a folder; not replacing it\n"
    assert afile.read_text() == "x"
    missing = tmp_path / "no" / "such"
    assert run("report", "-o", str(missing)).output == f"Error: cannot write '{missing}': folder '{missing.parent}' does not exist\n"


def test_odd_destinations_fail_cleanly(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "inside").mkdir()
    for out in (".", "..", "inside/.."):
        assert run("report", "-o", out, "--force").output == \
            f"Error: '{out}' holds the current folder; give the report a folder of its own\n"
    assert run("report", "-o", "x" * 300).output.startswith("Error: cannot write 'xxx")
    assert run("report", "-o", "bad\udcff").output == "Error: the folder name 'bad\\udcff' is not UTF-8 text\n"
    long_name = "y" * 250  # a name the file system takes: the staging folder beside it must fit too
    assert run("report", "-o", long_name).exit_code == 0 and (tmp_path / long_name / "report.html").is_file()
    assert leftovers(tmp_path) == [] and leftovers(tmp_path / "inside") == []


def test_a_folder_that_cannot_be_made_fails_cleanly(tmp_path, monkeypatch):
    import tempfile

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(tempfile, "mkdtemp", refuse)
    assert run("report", "-o", str(tmp_path / "out")).output.endswith(
        f"Error: cannot write '{tmp_path / 'out'}': Permission denied\n")
    assert list(tmp_path.iterdir()) == []


def test_force_replaces_a_report_folder(tmp_path, standard):
    target = tmp_path / "par"
    shutil.copytree(standard, target)
    (target / "tables" / "stale.csv").write_text("from an older report")
    result = run("report", "--rules", "ez", "-o", str(target), "--force")
    assert result.exit_code == 0, result.output
    assert not (target / "tables" / "stale.csv").exists() and load(target)["rules"] == ["ez"]
    assert leftovers(tmp_path) == []
    assert run("report", "-o", str(tmp_path / "empty")).exit_code == 0  # and an empty folder may be replaced
    (tmp_path / "empty2").mkdir()
    assert run("report", "-o", str(tmp_path / "empty2"), "--force").exit_code == 0


def test_the_folder_gets_the_usual_permissions(tmp_path):
    old = os.umask(0o022)
    try:
        assert run("report", "-o", str(tmp_path / "out")).exit_code == 0
    finally:
        os.umask(old)
    assert (tmp_path / "out").stat().st_mode & 0o777 == 0o755


def failing_after(monkeypatch, calls: int):
    """Make the calls-th file write fail, as a full disk would."""
    real = Path.write_bytes
    count = {"n": 0}

    def write_bytes(self, data):
        count["n"] += 1
        if count["n"] == calls:
            raise OSError(28, "No space left on device")
        return real(self, data)

    monkeypatch.setattr(Path, "write_bytes", write_bytes)


def test_a_failure_half_way_leaves_nothing(tmp_path, monkeypatch):
    failing_after(monkeypatch, 5)
    result = run("report", "-o", str(tmp_path / "out"))
    assert result.output.endswith(f"Error: cannot write '{tmp_path / 'out'}': No space left on device\n")
    assert list(tmp_path.iterdir()) == []


def test_a_failure_half_way_keeps_the_old_report(tmp_path, standard, monkeypatch):
    target = tmp_path / "par"
    shutil.copytree(standard, target)
    before = {p: p.read_bytes() for p in target.rglob("*") if p.is_file()}
    failing_after(monkeypatch, 5)
    assert run("report", "--rules", "ez", "-o", str(target), "--force").exit_code == 1
    assert {p: p.read_bytes() for p in target.rglob("*") if p.is_file()} == before
    assert leftovers(tmp_path) == []


# The committed reports, and the HTML as a reader sees it ---------------------------------------

def pdf_text(content: bytes) -> list[str]:
    """The text of each page of a PDF, as pdfium extracts it."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(content)
    try:
        return [doc[i].get_textpage().get_text_range() for i in range(len(doc))]
    finally:
        doc.close()


def xlsx_cells(content: bytes) -> dict:
    """Sheet name -> rows of cell values, as openpyxl reads them."""
    import openpyxl

    book = openpyxl.load_workbook(io.BytesIO(content), read_only=True)
    try:
        return {sheet.title: [list(row) for row in sheet.iter_rows(values_only=True)] for sheet in book.worksheets}
    finally:
        book.close()


def undated(text: str) -> str:
    return re.sub(r"\d{4}-\d{2}-\d{2}", "DATE", text)


def readable(name: str, content: bytes):
    """A report file as compared for drift: the PDF by its text (not its font rendering) and the
    workbook by its cells, the date they carry left out; other files as they are."""
    if name.endswith(".pdf"):
        return [undated(page) for page in pdf_text(content)]
    if name.endswith(".xlsx"):
        return undated(repr(xlsx_cells(content)))
    return content


def chart_free(name: str, content: bytes) -> bytes:
    """A report file with its drawings left out, for a matplotlib release other than the one that
    drew the committed charts: charts are then compared by the text drawn on them (titles, names
    and every printed figure)."""
    if name.endswith((".pdf", ".xlsx")):
        return readable(name, content)
    if name.endswith(".svg"):
        return "\n".join(svg_texts(content)).encode()
    if name.endswith(".html"):
        return re.sub(rb"data:image/svg\+xml;base64,[^\"]+", b"CHART", content)
    return content


def test_committed_reports_match_the_code():
    import importlib.util

    import matplotlib

    spec = importlib.util.spec_from_file_location("make_reports", ROOT / "scripts" / "make_reports.py")
    make_reports = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make_reports)
    from analyzer.bets.rulefile import BUILT_IN

    assert sorted(p.name for p in (ROOT / "reports").iterdir()) == sorted(
        [f"{name}-8-decks" for name in BUILT_IN] + [make_reports.MATPLOTLIB])
    same_release = (ROOT / "reports" / make_reports.MATPLOTLIB).read_text().strip() == matplotlib.__version__
    compare = readable if same_release else chart_free  # exact, charts included
    for name in BUILT_IN:
        folder = ROOT / make_reports.folder(name)
        expected = make_reports.contents(name)
        assert sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()) == sorted(expected), name
        for path, content in expected.items():
            assert compare(path, (folder / path).read_bytes()) == compare(path, content), \
                f"{folder / path} is stale: run python scripts/make_reports.py"


def chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


def test_report_renders_in_headless_chromium(standard):
    browser = chromium()
    if browser is None:
        pytest.skip("no Chromium on this machine: install Debian's chromium (apt-get install chromium), as .ci/run does")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is in the test extra: pip install '.[test]'")
    screenshot = standard.parent / "report.png"
    with sync_api.sync_playwright() as p:
        chrome = p.chromium.launch(executable_path=browser, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--no-first-run"])
        try:
            page = chrome.new_page(viewport={"width": 1400, "height": 900})
            requests = []
            page.on("request", lambda r: requests.append(r.url))
            page.goto((standard / "report.html").as_uri())
            images = page.evaluate("[...document.images].map(i => [i.complete, i.naturalWidth, i.naturalHeight, "
                                   "i.getBoundingClientRect().width, i.alt])")
            tables = page.evaluate("[...document.querySelectorAll('table')].map(t => [t.id, t.rows.length, "
                                   "t.getBoundingClientRect().height])")
            heading = page.inner_text("h1")
            page.screenshot(path=str(screenshot), full_page=True)
        finally:
            chrome.close()
    assert heading == "Par sheet: standard; shoe of 416 cards (8 decks)"
    assert len(images) == 3
    for complete, width, height, shown, alt in images:  # a broken image has no natural size
        assert complete and width > 300 and height > 150 and shown > 300, alt
    assert len(tables) == 11 and all(rows > 1 and height > 20 for _, rows, height in tables), tables
    assert all(url.startswith(("file:", "data:")) for url in requests), requests  # nothing from the network
    png = screenshot.read_bytes()
    assert png.startswith(b"\x89PNG") and len(png) > 50_000
    print(f"screenshot: {screenshot}")


def test_a_report_made_without_a_command_line_says_none():
    # A library user may give no command: no "make it again" line, title-page entry or JSON key.
    # Its progress, told as the work is done, adds up to the steps the progress bar expects.
    scope, done = report.scope(report.Request(decks="1")), []
    made = report.build(scope, None, done.append)
    assert sum(done) == report.steps(scope)
    assert "command" not in made.data and "Command" not in dict(made.front)
    text = as_markdown(made)
    assert "To make this report again" not in text and "the command that makes" not in text


def test_the_sign_off_names_who_prepared_and_approved_the_sheet(tmp_path):
    out = tmp_path / "signed"
    result = run("report", "--decks", "1", "--prepared-by", "Jane Roe", "--approved-by", "Gaming Lab #7", "-o", str(out))
    assert result.exit_code == 0, result.output
    data = load(out)
    assert (data["prepared_by"], data["approved_by"]) == ("Jane Roe", "Gaming Lab #7")
    assert data["command"] == f"baccarat report --rules standard --decks 1 -o {out} --prepared-by 'Jane Roe' --approved-by 'Gaming Lab #7'"
    text = (out / "report.md").read_text()
    assert "## Sign-off\n\nPrepared by: Jane Roe  \nSignature: " + "\\_" * 24 + "  \nDate: " + "\\_" * 12 in text
    assert "Approved by: Gaming Lab #7  \n" in text
    assert '<span class="role">Approved by</span> name<span class="line">Gaming Lab #7</span>' in (out / "report.html").read_text()
    pages = pdf_text((out / "report.pdf").read_bytes())
    assert "Prepared by Jane Roe" in pages[0] and "Approved by Gaming Lab #7" in pages[0]  # the title page
    assert "Sign-off" in pages[-1] and "signature" in pages[-1]
    about = {row[0]: row[1] for row in xlsx_cells((out / "report.xlsx").read_bytes())["about"] if row and row[0]}
    assert (about["Prepared by"], about["Approved by"]) == ("Jane Roe", "Gaming Lab #7")


@pytest.mark.parametrize("name", ["", "  ", "Jane\nRoe"])
def test_a_sign_off_name_is_one_line_of_text(tmp_path, name):
    result = run("report", "--prepared-by", name, "-o", str(tmp_path / "out"))
    assert result.exit_code == 1 and result.output == f"Error: --prepared-by: give a name, on one line (got {name.strip()!r})\n"
    assert list(tmp_path.iterdir()) == []
