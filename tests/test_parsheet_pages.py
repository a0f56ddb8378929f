"""A par sheet is what a regulator reads (issue 40): every page of a one-bet report and of the
catalogue's drawn as a picture and kept inside its frame; every chart's title within its chart;
no table header broken inside a word; the title page's labels whole; the PDF dated as its title
page; the comparison of rule sets with the file's own bets, and no empty column."""

import pytest

from analyzer import report as par
from analyzer.report import charts, pdf
from analyzer.report.document import Table

ONE_BET = """name = "lucky-seven-naturals"
description = "One side bet"
[[bets]]
id = "lucky_seven_naturals"
name = "Lucky Seven Naturals"
lines = [
  { label = "Banker wins with a three-card 7", when = { winner = "banker", banker_total = 7, banker_cards = 3 }, pays = 40 },
  { label = "natural tie", when = { winner = "tie", player_natural = true }, pays = 25 },
]
"""
MADE = "2026-11-26"


def made(rules: str):
    """(the Report, its files) for ``rules``, dated MADE."""
    scope = par.scope(par.Request((rules,)))
    report = par.build(scope, f"baccarat report --rules {rules} -o out")
    return report, par.files(report, "a4", MADE)


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    path = tmp_path_factory.mktemp("rules") / "lucky-seven-naturals.toml"
    path.write_text(ONE_BET)
    return {"one bet": made(str(path)), "catalog": made("catalog")}


def pages(content: bytes, dpi: int = 36):
    """Each page of a PDF as a greyscale picture (pdfium), with its size in points."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(content)
    try:
        for i in range(len(doc)):
            page = doc[i]
            yield page.render(scale=dpi / 72, grayscale=True).to_pil().convert("L"), page.get_size()
    finally:
        doc.close()


@pytest.mark.parametrize("which", ["one bet", "catalog"])
def test_every_page_keeps_inside_its_frame(reports, which):
    """Nothing is drawn in a page's side margins (a table or chart too wide for the frame, a title
    pushed out of it): the 16 mm margins of every page are blank, but for the footer's line."""
    _, files = reports[which]
    count = 0
    for picture, (width, height) in pages(files["report.pdf"]):
        count += 1
        scale = picture.width / width
        margin = int(12 / 25.4 * 72 * scale)  # 12 mm of the 16: a little room for anti-aliasing
        band = int((16 + 8) / 25.4 * 72 * scale)  # the footer's band at the foot of the page
        for left, right in ((0, margin), (picture.width - margin, picture.width)):
            strip = picture.crop((left, 0, right, picture.height - band))
            assert strip.getextrema()[0] > 200, f"{which}: page {count} draws in its {'left' if left == 0 else 'right'} margin"
    assert count >= 5


@pytest.mark.parametrize("which", ["one bet", "catalog"])
def test_no_table_header_is_broken_inside_a_word(reports, which):
    report, _ = reports[which]
    width = 595.27 - 2 * 16 * 72 / 25.4 - 2 * pdf.FRAME_PAD  # an A4 frame
    for block in report.blocks:
        if not isinstance(block, Table):
            continue
        for flowable in pdf.table(block, width):
            if not hasattr(flowable, "_cellvalues"):
                continue
            for cell, column in zip(flowable._cellvalues[0], flowable._colWidths):
                words = cell.text.split()
                cell.wrap(column - 2 * pdf.PAD, 10_000)
                shown = [w for line in cell.blPara.lines for w in line[1]]
                assert all(w in words for w in shown), f"{block.name}: header {cell.text!r} broken: {shown}"


def test_the_title_page_keeps_its_labels_whole_and_the_pdf_its_date(reports):
    report, files = reports["one bet"]
    assert [label for label, _ in report.front][:2] == ["Game", "Rules"]
    assert dict(report.front)["Rules"].startswith("lucky-seven-naturals: One side bet")
    assert b"/CreationDate (D:20261126000000+00'00')" in files["report.pdf"]


def test_rule_sets_compared_show_the_files_own_bets_and_no_empty_column(reports):
    report, _ = reports["one bet"]
    compare = next(b for b in report.blocks if isinstance(b, Table) and b.name == "compare").view
    assert "lucky_seven_naturals" in [row["bet"] for row in compare.data["bets"]]
    for column in compare.columns[1:]:
        assert any(row[column.key] is not None for row in compare.rows), column.header


@pytest.mark.parametrize("draw, args", [
    (charts.by_decks, ([("Lucky Seven Naturals", ["1", "2", "∞"], [0.1, 0.11, 0.12])],
                       "House edge by number of decks: lucky-seven-naturals (∞: the exact limit) on a long name")),
    (charts.eor, ([("Dragon Bonus Player (pay table 3), a long name", ["A", "2"], [0.001, -0.001])],
                  "Effect of removing one card, per rank: lucky-seven-naturals; 416 cards (8 decks)")),
    (charts.edge_by_bet, (["Banker"], [0.01], "House edge by bet: " + "a-very-long-rule-set-name-" * 5)),
    (charts.wager_sizes, ([0.01, -0.02], [10, 0], "P" * 80 + ": wager size against the EV before the coup", "EV")),
])
def test_every_chart_keeps_its_titles_within_the_chart(draw, args):
    """Each title and panel title drawn inside the figure (a one-panel figure is widened for a
    long title; a panel's title is shrunk to its panel)."""
    from matplotlib import rc_context
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    with rc_context(charts.RC):
        figure = draw.__wrapped__(*args)
        FigureCanvasAgg(figure)
        renderer = figure.canvas.get_renderer()
        titles = [figure._suptitle] if figure._suptitle else []
        titles += [ax.title for ax in figure.axes if ax.get_visible()]
        for text in titles:
            if not text.get_text():
                continue
            box = text.get_window_extent(renderer)
            assert box.x0 >= 0 and box.x1 <= figure.bbox.width + 0.5, (text.get_text(), box, figure.bbox.width)


@pytest.mark.parametrize("which", ["one bet", "catalog"])
def test_no_heading_sits_at_the_foot_of_a_page(reports, which):
    """A section's heading starts a page's last 72 points (an inch) only if what follows it is
    there too: its first paragraph is kept with the table or chart after it, as the heading is
    with the paragraph, so a heading never waits alone for its section on the next page."""
    import pypdfium2 as pdfium

    from analyzer.report.document import Heading

    report, files = reports[which]
    headings = [b.text for b in report.blocks[1:] if isinstance(b, Heading)]
    foot = (16 + 8) * 72 / 25.4  # the frame's bottom: the margin and the footer's band
    doc = pdfium.PdfDocument(files["report.pdf"])
    try:
        for n in range(1, len(doc)):  # the title page holds no section
            text = doc[n].get_textpage()
            body = text.get_text_range()
            for heading in headings:
                found = text.search(heading, match_case=True, match_whole_word=False).get_next()
                if not found or heading not in body.splitlines():
                    continue
                bottom = text.get_charbox(found[0])[1]
                below = [line for line in body[body.index(heading) + len(heading):].splitlines() if line.strip()]
                content = [line for line in below if " · baccarat " not in line and not line.startswith("page ")]
                assert bottom - foot > 72 or len(content) > 6, f"{which}: page {n + 1}: heading {heading!r} at its foot"
    finally:
        doc.close()
