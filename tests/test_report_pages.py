"""The par sheet a regulator reads (issue 55), and the protection review filed beside it: every
page of a one-bet report, of the catalogue's and of a protection review drawn by pdfium and read
character by character. Nothing is printed outside the margins, no text is drawn over other text
(a cell's text spilling into the next), every word printed is a word of the report (none broken
inside, as "Player Natura / l 9" was), every column group of a split table repeats the columns
that name its rows, the catalogue's house-edge chart prints its labels at 8 pt or more, and the
rules of play are given in words that say exactly what the tableau says."""

import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from click.testing import CliRunner

from analyzer import report as par
from analyzer.bets.rulefile import BUILT_IN, get_rules
from analyzer.cli import cli
from analyzer.game.tableau import CASINO, STOOD, Tableau
from analyzer.render import table_cells
from analyzer.report import pdf
from analyzer.report.document import Chart, Heading, SignOff, Table, Text
from analyzer.report.play import banker_rule, player_rule, rules_of_play
from test_parsheet_pages import ONE_BET  # the one-bet rule file whose report the pages test reads
from test_protect import coup_file, dealt, ignorers, moments, wager_file

MADE = "2026-11-30"
MM = 72 / 25.4  # points
MARGIN = 16 * MM  # the PDF's margins on every side (the footer sits in the bottom one)
A4_FRAME = 595.27 - 2 * MARGIN - 2 * pdf.FRAME_PAD  # what an A4 page frame holds

# The columns that name a row in each table of these reports (by the table's name, without its
# rule set's part): a split table repeats them, in this order, in every column group.
LABELS = {"rules": ["id", "name"], "tableau": ["Banker total"], "shoe": [], "outcomes": ["outcome"],
          "house-edge": ["bet"], "returns": ["bet", "event"], "volatility": ["bet"], "ranges": ["bet", "hands"],
          "compare": ["bet"], "edge-by-decks": ["bet"], "eor": ["bet"], "players": ["player"],
          "sessions": ["table", "shoe", "coups"], "models": ["model"], "coups": ["table", "shoe", "coup"]}


def made(request: par.Request):
    """(the Report, its files) for ``request``, dated MADE."""
    report = par.build(par.scope(request), "baccarat report -o out")
    return report, par.files(report, "a4", MADE)


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    """The three reports every check below reads, each made once: a one-bet par sheet (signed by
    its preparer), the catalogue's, and a protection review written by `baccarat protect --report`
    (an edge sorter among bettors who ignore the cards, as tests/test_protect.py deals them), its
    Report kept as the command built it."""
    from analyzer.report import protect

    folder = tmp_path_factory.mktemp("pages")
    (folder / "one.toml").write_text(ONE_BET)
    shoes = dealt(2026, 6)
    sorter = [(name, i, "sorter", "player", 100 if cards[0][0] in "789" else 10, 4) for name, i, cards, _, _ in moments(shoes)]
    (folder / "coups.txt").write_text(coup_file(shoes))
    (folder / "wagers.csv").write_text(wager_file(sorter + ignorers(shoes, 3, 2)))
    built = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(protect, "build", lambda *args, build=protect.build: built.append(build(*args)) or built[-1])
        result = CliRunner().invoke(cli, ["protect", str(folder / "wagers.csv"), "--shoe", str(folder / "coups.txt"),
                                          "--decks", "2", "--report", str(folder / "review")])
    assert result.exit_code == 0, result.output
    return {"one bet": made(par.Request((str(folder / "one.toml"),), prepared_by="Jane Roe")),
            "catalog": made(par.Request(("catalog",))),
            "protect": (built[0], {"report.pdf": (folder / "review" / "report.pdf").read_bytes()})}


class Page:
    """A page as pdfium reads it: its size, its characters with their boxes (loose: the font's
    whole height, so a box's height is the size the character is printed at), its text."""

    def __init__(self, page):
        self.width, self.height = page.get_size()
        text = page.get_textpage()
        self.text = text.get_text_range()
        every = [(text.get_text_range(i, 1), text.get_charbox(i, loose=True)) for i in range(text.count_chars())]
        self.chars = [(c, box) for c, box in every if c.strip()]
        self.picture = page.render(scale=0.5, grayscale=True).to_pil().convert("L")
        self.run, self.boxes = "".join(c for c, _ in every), [box for _, box in every]

    def box_of(self, words: str):
        """The box of the first character of ``words`` on the page (None: not there)."""
        at = self.run.find(words)
        return None if at < 0 else self.boxes[at]


def read_pages(content: bytes) -> list[Page]:
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(content)
    try:
        return [Page(doc[i]) for i in range(len(doc))]
    finally:
        doc.close()


@pytest.fixture(scope="module")
def pages(reports):
    return {which: read_pages(files["report.pdf"]) for which, (_, files) in reports.items()}


WHICH = ["one bet", "catalog", "protect"]


@pytest.mark.parametrize("which", WHICH)
def test_nothing_is_printed_outside_the_margins(pages, which):
    """Every character inside the page's margins (the footer's line in the bottom one), and no
    ink drawn in the side margins: no table, chart or title pushed out of the frame."""
    for n, page in enumerate(pages[which], 1):
        for char, (left, bottom, right, top) in page.chars:
            assert left >= MARGIN - 0.5 and right <= page.width - MARGIN + 0.5, f"{which}: page {n}: {char!r} at x {left:.1f}"
            assert top <= page.height - MARGIN + 0.5 and bottom >= 0.75 * MARGIN - 3, \
                f"{which}: page {n}: {char!r} at y {top:.1f}"
        picture = np.asarray(page.picture)
        side = int(12 * MM * picture.shape[1] / page.width)  # 12 mm of the 16: room for anti-aliasing
        assert picture[:, :side].min() > 200 and picture[:, -side:].min() > 200, f"{which}: page {n}: ink in a side margin"
    assert len(pages[which]) >= 4


def overlap(boxes: np.ndarray):
    """Two characters (their indices) whose boxes (left, bottom, right, top) overlap by more than
    a sliver - over a third of the narrower's width and half the lower's height: the loose boxes
    of lines set solid touch, a character drawn over another covers it - or None."""
    order = np.argsort(boxes[:, 1], kind="stable")
    b = boxes[order]
    wide, high = b[:, 2] - b[:, 0], b[:, 3] - b[:, 1]
    below_top = np.searchsorted(b[:, 1], b[:, 3], side="left")  # those starting below each one's top
    for i in range(len(b)):
        j = np.arange(i + 1, below_top[i])
        across = np.minimum(b[i, 2], b[j, 2]) - np.maximum(b[i, 0], b[j, 0])
        up = np.minimum(b[i, 3], b[j, 3]) - np.maximum(b[i, 1], b[j, 1])
        hit = j[(across > np.minimum(wide[i], wide[j]) / 3) & (up > np.minimum(high[i], high[j]) / 2)]
        if len(hit):
            return order[i], order[hit[0]]
    return None


@pytest.mark.parametrize("which", WHICH)
def test_no_text_is_drawn_over_other_text(pages, which):
    """No character is drawn over another: a cell's text that ran past its column into the next
    cell, or a label over a bar's, would be."""
    assert overlap(np.array([[0, 0, 5, 8], [3, 1, 8, 9.0]])) == (0, 1)  # the second character over the first
    assert overlap(np.array([[0, 0, 5, 8], [5, 0, 9, 8.0]])) is None  # side by side
    for n, page in enumerate(pages[which], 1):
        found = overlap(np.array([box for _, box in page.chars]).reshape(-1, 4))
        assert found is None, f"{which}: page {n}: {page.chars[found[0]][0]!r} over {page.chars[found[1]][0]!r}"


@pytest.mark.parametrize("which", WHICH)
def test_every_cells_text_fits_its_column(reports, which):
    """As the PDF lays each table out: every cell's text, on one line or wrapped, fits within its
    column less the padding, so no cell's text is cut or runs into the next."""
    report, _ = reports[which]
    for block in report.tables:
        for part in pdf.table(block, A4_FRAME):
            if not hasattr(part, "_cellvalues"):
                continue
            for row in part._cellvalues:
                for cell, column in zip(row, part._colWidths):
                    room = column - 2 * pdf.PAD
                    if isinstance(cell, str):
                        assert pdf_width(cell) <= room + 0.01, (block.name, cell, room)
                        continue
                    cell.wrap(room, 10_000)
                    spare = [line[0] if isinstance(line, tuple) else line.extraSpace for line in cell.blPara.lines]
                    assert min(spare) >= -0.01, (block.name, cell.text, room)


def pdf_width(text: str) -> float:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    return stringWidth(text, pdf.FONT, pdf.TABLE_SIZE)


def report_words(report) -> set[str]:
    """Every word (a run of letters) the report's blocks hold: headings, paragraphs, the tables'
    titles, headers and cells, the charts' text, the title page, and the words the PDF adds itself."""
    texts = [report.title, "page of baccarat Date Par sheet columns of name signature date"]
    texts += [f"{label} {value}" for label, value in report.front]
    for block in report.blocks:
        if isinstance(block, Heading):
            texts.append(block.text)
        elif isinstance(block, Text):
            texts += [getattr(part, "text", part) for part in block.parts]
        elif isinstance(block, Table):
            headers, rows, _ = table_cells(block.view, block.show_exact)
            texts += [block.view.title, *headers, *(cell for row in rows for cell in row)]
        elif isinstance(block, Chart):
            texts += ["".join(e.itertext()) for e in ET.fromstring(block.svg).iter("{http://www.w3.org/2000/svg}text")]
        elif isinstance(block, SignOff):
            texts += [f"{role} {name}" for role, name in block.roles]
    return {w for t in texts for w in re.findall(r"[^\W\d_]+", t)}


@pytest.mark.parametrize("which", ["one bet", "catalog"])
def test_every_word_printed_is_a_word_of_the_report(reports, pages, which):
    """No name, label or header broken inside a word: every run of letters on every page is a
    word of the report (a name wraps between its words; only a number may break anywhere)."""
    report, _ = reports[which]
    words = report_words(report)
    for n, page in enumerate(pages[which], 1):
        broken = sorted(set(re.findall(r"[^\W\d_]+", page.text)) - words)
        assert not broken, f"{which}: page {n}: {broken[:10]} are not words of the report"


def test_the_effect_of_removal_shows_the_bets_names_and_keeps_their_ids_as_data(reports, pages):
    report, _ = reports["one bet"]
    eor = next(b for b in report.tables if b.name.startswith("eor-"))
    headers, rows, _ = table_cells(eor.view, eor.show_exact)
    assert headers[0] == "bet" and [row[0] for row in rows] == ["Lucky Seven Naturals", "P(Banker)", "P(Player)", "P(Tie)"]
    assert [b["bet"] for b in eor.view.data["bets"]] == ["lucky_seven_naturals"]
    csv = reports["one bet"][1][eor.file].decode().splitlines()
    assert csv[0].startswith("id,bet,EV,") and csv[1].startswith("lucky_seven_naturals,Lucky Seven Naturals,")
    id_pages = [n for n, page in enumerate(pages["one bet"], 1) if "lucky_seven_naturals" in page.text]
    rules_pages = [n for n, page in enumerate(pages["one bet"], 1) if "Bets and pay tables" in page.text]
    assert id_pages == rules_pages  # the id only where it is defined, beside the name


def groups_of(block, width: float = A4_FRAME) -> list[list[str]]:
    """The headers of each column group of a table as the PDF prints it (by default on an A4 page)."""
    return [[cell.text for cell in part._cellvalues[0]] for part in pdf.table(block, width)
            if hasattr(part, "_cellvalues")]


@pytest.mark.parametrize("which", ["one bet", "catalog", "protect"])
def test_every_column_group_repeats_the_columns_that_name_its_rows(reports, pages, which):
    """A table too wide for the page is split into column groups; each opens with the columns
    that name its rows (the bet, the pay line, the hands of a range...), so that no row of a
    later group reads "Banker" without its number of hands. Checked on the tables as laid out
    (on an A4 page, and in a frame a third as wide, which splits nearly every table) and on the
    pages as printed: the text after each group's caption starts with those headers."""
    report, _ = reports[which]
    split = 0
    for block in report.tables:
        labels = LABELS[next(k for k in sorted(LABELS, key=len, reverse=True) if block.name.startswith(k))]
        for width in (A4_FRAME, A4_FRAME / 3):
            groups = groups_of(block, width)
            for headers in groups:
                assert headers[:len(labels)] == labels, f"{block.name}: a group's headers {headers}"
            assert len(groups) > 1 or width == A4_FRAME or block.name.startswith(("shoe", "tableau", "models")), block.name
        split += len(groups_of(block)) > 1
    text = " ".join(re.sub(r"\s+", " ", page.text) for page in pages[which])
    captions = re.findall(r"\(\d+ of \d+: columns [^)]*\) (.{60})", text)
    for after in captions:
        assert any(after.startswith(" ".join(labels) + " ") for labels in LABELS.values() if labels), after
    if which == "one bet":
        assert split >= 2 and any(after.startswith("bet hands hold 95%") for after in captions)  # the ranges' second group


def test_the_catalogues_house_edge_chart_prints_every_label_at_8_points(reports, pages):
    """The catalogue's 92 bets in charts of at most 26 bars, on one scale, every character of
    each - names, values, ticks, titles - printed at 8 pt or more."""
    report, _ = reports["catalog"]
    charts = [b for b in report.charts if b.name.startswith("house-edge-")]
    bets = [b.name for b in get_rules("catalog").bets]
    assert [c.name for c in charts] == [f"house-edge-catalog-{n}" for n in range(1, 5)]
    shown = [t for c in charts for t in
             ("".join(e.itertext()) for e in ET.fromstring(c.svg).iter("{http://www.w3.org/2000/svg}text")) if t in bets]
    assert shown == bets
    printed = 0
    for page in pages["catalog"]:
        title = page.box_of("House edge by bet (")
        if title is None:
            continue
        top, bottom = title[3], page.box_of("House edge (% of the amount bet")[1]
        sizes = [t - b for _, (_, b, _, t) in page.chars if b >= bottom - 0.1 and t <= top + 0.1]
        assert len(sizes) > 200 and min(sizes) >= 7.95, (min(sizes), len(sizes))
        printed += 1
    assert printed == 4


# The rules of play in words ---------------------------------------------------------------------

def runs_of(text: str) -> set[int]:
    """The numbers a run of rules_of_play's words names: "0 to 2, 4, 6 or 7" -> {0, 1, 2, 4, 6, 7}."""
    out = set()
    for part in re.split(r", | or ", text):
        low, _, high = part.partition(" to ")
        out |= set(range(int(low), int(high or low) + 1))
    return out


def tableau_from_words(words: str) -> tuple[list[bool], list[list[bool]]]:
    """The drawing rules read back from their words (the Player's by total 0-7, the Banker's by
    total 0-7 and the Player's third card 0-9 or STOOD): a reader's route, sharing nothing with
    play.py but its phrasing."""
    player = re.search(r"the Player (?:draws a third card on ([\d, tor]+?))?(?: and )?(?:stands on ([\d, tor]+))?(?: \(|$)",
                       player_words := words.split("; ")[0])
    assert player, player_words
    draws = runs_of(player.group(1)) if player.group(1) else set()
    stood, drew = re.fullmatch(r"if the Player stood, the Banker (.*); if the Player drew, the Banker (.*?)"
                               r"(?:; the tableau lets.*)?", words.split("; ", 1)[1]).groups()
    banker = [[None] * 11 for _ in range(8)]
    for verb, totals in re.findall(r"(draws|stands) on ([\d, tor]+?)(?= and|$)", stood):
        for t in runs_of(totals):
            banker[t][STOOD] = verb == "draws"
    clauses = re.split(r", (?=on \d)|,? and (?=stands)", drew.removeprefix("draws "))
    for clause in clauses:
        if clause.startswith("stands on "):
            for t in runs_of(clause.removeprefix("stands on ")):
                banker[t][:10] = [False] * 10
            continue
        totals, rule = re.fullmatch(r"on ([\d, tor]+?) (whatever the Player's third card|unless it counts .*|when it counts .*)",
                                    clause).groups()
        thirds = (set(range(10)) if rule.startswith("whatever") else
                  set(range(10)) - runs_of(rule.removeprefix("unless it counts ")) if rule.startswith("unless") else
                  runs_of(rule.removeprefix("when it counts ")))
        for t in runs_of(totals):
            banker[t][:10] = [k in thirds for k in range(10)]
    return [t in draws for t in range(8)], banker


TABLEAUS = {r.tableau.name: r.tableau for r in map(get_rules, BUILT_IN)} | {"chemin de fer": CASINO, "odd": Tableau(
    "odd", tuple(t in (0, 2, 4) for t in range(10)),
    tuple(tuple((t + k) % 3 == 0 for k in range(11)) for t in range(10)))}


@pytest.mark.parametrize("name", sorted(TABLEAUS))
def test_the_rules_of_play_say_in_words_exactly_what_the_tableau_says(name):
    tableau = TABLEAUS[name]
    player, banker = tableau_from_words(f"{player_rule(tableau)}; {banker_rule(tableau)}")
    assert player == [tableau.player_draws[t] for t in range(8)]
    assert banker == [[tableau.banker_draws[t][k] for k in range(11)] for t in range(8)]


def test_the_rules_of_play_of_punto_banco_read_as_a_rule_book_gives_them():
    # Wizard of Odds, Baccarat, "Banker's third card rule": Banker draws on 0-2; on 3 unless the Player's third
    # card is an 8; on 4 if it is 2-7; on 5 if 4-7; on 6 if 6-7; stands on 7. Player draws on 0-5.
    text = rules_of_play(get_rules("standard"), par.scope(par.Request(decks="6")).shoe)
    assert "shoe of 312 cards (6 decks)" in text
    assert "the Player draws a third card on 0 to 5 and stands on 6 or 7" in text
    assert ("if the Player drew, the Banker draws on 0 to 2 whatever the Player's third card, on 3 unless it counts 8, on 4 "
            "when it counts 2 to 7, on 5 when it counts 4 to 7, on 6 when it counts 6 or 7, and stands on 7") in text
    assert ("Banker: Banker wins 1:1, tie push, less a 5% commission on each win; Player: Player wins 1:1, tie push; "
            "Tie: Tie 8:1") in text


@pytest.mark.parametrize("which", ["one bet", "catalog"])
def test_the_rules_of_play_and_the_sign_off_are_in_every_format(reports, pages, which):
    report, files = reports[which]
    rules = report.data["rules"][0]
    markdown, html = files["report.md"].decode(), files["report.html"].decode()
    assert "Rules of play. The game is dealt from a shoe of 416 cards (8 decks)" in markdown
    assert "Rules of play. The game is dealt from a shoe of 416 cards (8 decks)" in html
    flat = " ".join(re.sub(r"\s+", " ", page.text) for page in pages[which])
    assert "Rules of play. The game is dealt from a shoe of 416 cards (8 decks)" in flat
    assert "on 3 unless it counts 8" in flat and rules in flat
    signer = "Jane Roe" if which == "one bet" else ""
    assert ("Prepared by: " + (signer or "\\_" * 24)) in markdown and "Approved by: " + "\\_" * 24 in markdown
    assert f'<span class="role">Prepared by</span> name<span class="line">{signer}</span>' in html
    last = re.sub(r"\s+", " ", pages[which][-1].text)
    assert f"Sign-off Prepared by {signer + ' ' if signer else ''}name signature date Approved by name signature date" in last
    assert (report.data.get("prepared_by"), report.data.get("approved_by")) == (signer or None, None)
