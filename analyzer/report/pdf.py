"""The par sheet as a print-ready PDF: a title page, then every block of the report - headings
(also as PDF bookmarks), text, tables and charts - on A4 or Letter pages numbered "page n of m".

Made with reportlab (a PDF writer in Python, kept since 2000; its layout engine splits long
tables over pages and repeats their header row), with the DejaVu Sans fonts that matplotlib
ships, embedded (every character of our tables, "‰" and "∞" included). Charts are the report's
own SVG, converted by svglib into reportlab drawings, so they stay vector and look the same; their
text, set in the same DejaVu Sans, stays text.

A table wider than the page is split into column groups, each repeating the columns that name
a row (the table's labels: the bet, its pay line, the hands of a range...). A text cell wider
than its column wraps between words - a text column is made as wide as its longest word, so that
no name is broken inside one; only a word wider than TEXT_SHARE of the page, or a number, breaks
where it must. Nothing is cut.
"""

from __future__ import annotations

import importlib.util
import io
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from xml.sax.saxutils import escape

from ..render import table_cells
from . import document

FONT, BOLD, MONO = "DejaVuSans", "DejaVuSans-Bold", "DejaVuSansMono"
TABLE_SIZE = 6.5  # points: the table font
PAD = 2.5  # points each side of a cell's text
TEXT_SHARE = 0.45  # the widest a text column may be, as a share of the frame, before its cells wrap
FRAME_PAD = 6  # points: the padding reportlab's page frame keeps inside the margins, each side


@lru_cache(maxsize=1)
def fonts() -> None:
    """Register the DejaVu fonts that matplotlib ships (found without importing matplotlib)."""
    from reportlab.pdfbase import pdfmetrics  # heavy: loaded only when a PDF is made
    from reportlab.pdfbase.ttfonts import TTFont

    for name, file in ((FONT, "DejaVuSans.ttf"), (BOLD, "DejaVuSans-Bold.ttf"), (MONO, "DejaVuSansMono.ttf")):
        pdfmetrics.registerFont(TTFont(name, str(font_file(file))))
    pdfmetrics.registerFontFamily(FONT, normal=FONT, bold=BOLD, italic=FONT, boldItalic=BOLD)


def font_file(name: str) -> Path:
    """One of the fonts matplotlib ships (found without importing matplotlib)."""
    return Path(importlib.util.find_spec("matplotlib").submodule_search_locations[0]) / "mpl-data" / "fonts" / "ttf" / name


@lru_cache(maxsize=1)
def chart_fonts() -> None:
    """The charts' font family, "DejaVu Sans", mapped for svglib to the registered DejaVu fonts,
    so it neither asks fontconfig nor falls back to Helvetica."""
    from svglib.fonts import get_global_font_map  # heavy: loaded only when a PDF is made

    fonts()
    fonts_of_svg = get_global_font_map()
    for weight, name, file in (("normal", FONT, "DejaVuSans.ttf"), ("bold", BOLD, "DejaVuSans-Bold.ttf")):
        fonts_of_svg.register_font("DejaVu Sans", str(font_file(file)), weight=weight, rlgFontName=name)


@lru_cache(maxsize=1)
def styles() -> dict:
    from reportlab.lib.styles import ParagraphStyle  # heavy: loaded only when a PDF is made

    fonts()
    body = ParagraphStyle("body", fontName=FONT, fontSize=9, leading=12, spaceAfter=5)
    return {
        "body": body,
        "title": ParagraphStyle("title", parent=body, fontName=BOLD, fontSize=22, leading=28, spaceAfter=14),
        "subtitle": ParagraphStyle("subtitle", parent=body, fontSize=12, leading=16, spaceAfter=18),
        "h1": ParagraphStyle("h1", parent=body, fontName=BOLD, fontSize=15, leading=19, spaceBefore=6, spaceAfter=8,
                             keepWithNext=True),
        "h2": ParagraphStyle("h2", parent=body, fontName=BOLD, fontSize=13, leading=17, spaceBefore=12, spaceAfter=6,
                             keepWithNext=True),
        "h3": ParagraphStyle("h3", parent=body, fontName=BOLD, fontSize=10.5, leading=14, spaceBefore=9, spaceAfter=4,
                             keepWithNext=True),
        "caption": ParagraphStyle("caption", parent=body, fontName=BOLD, fontSize=7.5, leading=9.5, spaceBefore=4,
                                  spaceAfter=3, keepWithNext=True),
        "label": ParagraphStyle("label", parent=body, fontName=BOLD, fontSize=9, leading=12, spaceAfter=0),
        # a table's cells: a line holds what fits its column (no space squeezed to fit one more word)
        "cell": ParagraphStyle("cell", parent=body, fontSize=TABLE_SIZE, leading=TABLE_SIZE + 1.5, spaceAfter=0,
                               spaceShrinkage=0),
        "figure": ParagraphStyle("figure", parent=body, fontSize=TABLE_SIZE, leading=TABLE_SIZE + 1.5, spaceAfter=0,
                                 spaceShrinkage=0, wordWrap="CJK", alignment=2),  # a number too wide: broken anywhere
        "word": ParagraphStyle("word", parent=body, fontSize=TABLE_SIZE, leading=TABLE_SIZE + 1.5, spaceAfter=0,
                               spaceShrinkage=0, wordWrap="CJK"),  # text with a word wider than its column can be
        "head": ParagraphStyle("head", parent=body, fontName=BOLD, fontSize=TABLE_SIZE, leading=TABLE_SIZE + 1.5,
                               spaceAfter=0, spaceShrinkage=0),
        "lead": ParagraphStyle("lead", parent=body, keepWithNext=True),  # a section's first paragraph: kept with what follows
        "under": ParagraphStyle("under", parent=body, fontSize=7, leading=9, textColor="#666666", spaceAfter=0),
    }


def as_pdf(report, paper: str = "a4", made: str = "") -> bytes:
    """The report (a document.Report) as PDF bytes, on ``paper`` (a4 or letter), dated ``made``."""
    from reportlab.lib.pagesizes import A4, LETTER  # heavy: loaded only when a PDF is made
    from reportlab.lib.units import mm
    from reportlab.platypus import PageBreak

    fonts()
    size = {"a4": A4, "letter": LETTER}[paper]
    margin = 16 * mm
    width = size[0] - 2 * margin - 2 * FRAME_PAD  # what the frame holds, inside the margins
    height = size[1] - 2 * margin - 8 * mm - 2 * FRAME_PAD  # and above the footer's band
    story = title_page(report, made) + [PageBreak()]
    previous = None
    for block in report.blocks[1:]:  # the first heading is the title page's
        story += flowables(block, width, height, lead=isinstance(previous, document.Heading))
        previous = block
    out = io.BytesIO()
    footer = f"{report.title} · baccarat {report.data.get('version', '')}"
    doc = document_class()(out, pagesize=size, leftMargin=margin, rightMargin=margin, topMargin=margin,
                           bottomMargin=margin + 8 * mm, title=report.title, author="baccarat",
                           subject=report.data.get("kind", "Par sheet"), creator=f"baccarat {report.data.get('version', '')}", invariant=1)
    doc.build(story, canvasmaker=numbered_canvas(footer, margin, made))
    return out.getvalue()


def flowables(block, width: float, height: float, lead: bool = False) -> list:
    """A block of the report as reportlab flowables, in a frame ``width`` by ``height`` points; a
    paragraph that opens a section (``lead``) kept on the page of what follows it, as its heading
    is, so that no heading and its first words sit alone at the foot of a page."""
    if isinstance(block, document.Heading):
        return [heading(block)]
    if isinstance(block, document.Text):
        return [paragraph(block.parts, "lead" if lead else "body")]
    if isinstance(block, document.Table):
        return table(block, width)
    if isinstance(block, document.Chart):
        return [chart(block, width, height)]
    if isinstance(block, document.SignOff):
        return [sign_off(block)]
    return []


def title_page(report, made: str) -> list:
    from reportlab.lib.units import mm  # heavy: loaded only when a PDF is made
    from reportlab.platypus import Paragraph, Spacer, Table, TableStyle

    s = styles()
    rows = [(label, value) for label, value in report.front] + [("Date", made)]
    grid = Table([[Paragraph(escape(label), s["label"]), Paragraph(text(value), s["body"])] for label, value in rows],
                 colWidths=[32 * mm, None], hAlign="LEFT")
    grid.setStyle(TableStyle([("VALIGN", (0, 0), (-1, -1), "TOP"), ("BOTTOMPADDING", (0, 0), (-1, -1), 4)]))
    return [Spacer(1, 60), Paragraph(escape(report.data.get("kind", "Par sheet")), s["title"]), Paragraph(escape(report.title), s["subtitle"]), grid]


def text(value: str) -> str:
    """User text made safe for a Paragraph (its markup escaped), line breaks kept."""
    return "<br/>".join(escape(line) for line in str(value).splitlines()) or "-"


def heading(block):
    from reportlab.platypus import Paragraph  # heavy: loaded only when a PDF is made

    return Paragraph(escape(block.text), styles()[f"h{min(block.level, 3)}"])


def paragraph(parts, style: str = "body"):
    from reportlab.platypus import Paragraph  # heavy: loaded only when a PDF is made

    return Paragraph("".join(f'<font face="{MONO}">{escape(x.text)}</font>' if isinstance(x, document.Code)
                             else escape(x) for x in parts), styles()[style])


def table(block, width: float) -> list:
    """A caption, then the table in as many column groups as the page width needs, each opening
    with the table's label columns."""
    from reportlab.pdfbase.pdfmetrics import stringWidth  # heavy: loaded only when a PDF is made
    from reportlab.platypus import Paragraph

    s = styles()
    headers, rows, aligns = table_cells(block.view, block.show_exact)
    if not headers:
        return []
    measure = lambda t, font=FONT: stringWidth(t, font, TABLE_SIZE) + 2 * PAD  # noqa: E731
    widths, words = [], []
    for i, header in enumerate(headers):  # as wide as the widest cell and the longest word, within a cap
        data = max((measure(row[i]) for row in rows), default=0)
        word = max(measure(w, BOLD) for w in header.split() or [""]) + 1  # a point to spare: no word broken by rounding
        if aligns[i] == "left":  # text wraps between words: its longest word (within a share of the page) fits
            word = max(word, min(max((measure(w) for row in rows for w in row[i].split()), default=0) + 1,
                                 width * TEXT_SHARE))
        cap = width * TEXT_SHARE if aligns[i] == "left" else width / 2
        widths.append(max(min(max(data, word), cap), word, 4 * PAD))
        words.append(word)
    texts = [a == "left" for a in aligns]
    narrow = narrowed(widths, texts, width, words)
    labels = label_columns(block)
    out = [Paragraph(text(block.view.title), s["caption"])]
    groups = column_groups(narrow, width, labels)
    for n, group in enumerate(groups):
        if len(groups) > 1:
            shown = [headers[i] for i in group if i not in labels] or [headers[i] for i in group]
            out.append(Paragraph(f"({n + 1} of {len(groups)}: columns {escape(', '.join(shown))})", s["caption"]))
        out.append(table_part(headers, rows, aligns, widened(narrow, widths, texts, group, width), group))
    return out


def label_columns(block) -> list[int]:
    """The positions, among the table's shown columns (render.table_cells: an exact column may
    follow a decimal one), of the columns that name a row (the block's label_keys)."""
    columns = block.view.columns
    before = lambda n: len(table_cells(replace(block.view, columns=columns[:n], rows=[]), block.show_exact)[0])  # noqa: E731
    return sorted(before(n) for n, col in enumerate(columns) if col.key in block.label_keys)


def narrowed(widths: list[float], text: list[bool], width: float, words: list[float] | None = None) -> list[float]:
    """Widths for a table wider than ``width``: its text columns narrowed first (their cells
    wrap), each down to no less than a tenth of the page and its longest word (``words``: of its
    header, and of a text column's cells: no name is broken inside a word), before any column
    group is split off.

    >>> narrowed([300, 200, 100], [True, True, False], 500)
    [237.5, 162.5, 100]
    >>> [round(w, 1) for w in narrowed([300, 200, 100], [True, True, False], 500, [0, 190, 0])]
    [203.8, 196.2, 100]
    >>> narrowed([100, 100], [True, False], 500)
    [100, 100]
    """
    floors = [max(width / 10, word) for word in (words or [0] * len(widths))]
    room = sum(w - f for w, t, f in zip(widths, text, floors) if t and w > f)
    excess = sum(widths) - width
    if excess <= 0 or room <= 0:
        return widths
    take = min(1.0, excess / room)
    return [w - (w - f) * take if t and w > f else w for w, t, f in zip(widths, text, floors)]


def widened(widths: list[float], natural: list[float], text: list[bool], group: list[int], width: float) -> list[float]:
    """The widths of one column group: its text columns given back what narrowing took from them,
    as far as the room the group leaves in ``width`` goes (each in proportion to what it lost).

    >>> widened([100, 50, 50], [300, 50, 150], [True, False, True], [0, 1], 250)
    [200.0, 50, 50]
    >>> widened([100, 50], [300, 50], [True, False], [0, 1], 500)
    [300.0, 50]
    """
    lost = {i: natural[i] - widths[i] for i in group if text[i] and natural[i] > widths[i]}
    room = width - sum(widths[i] for i in group)
    if room <= 0 or not lost:
        return widths
    share = min(1.0, room / sum(lost.values()))
    return [w + lost[i] * share if i in lost else w for i, w in enumerate(widths)]


def column_groups(widths: list[float], width: float, labels=(0,)) -> list[list[int]]:
    """Columns in groups that each fit ``width`` (as far as the labels and one more column do),
    every group holding the ``labels`` (the columns that name a row), each column in table order.

    >>> column_groups([50, 40, 40, 40], 140)
    [[0, 1, 2], [0, 3]]
    >>> column_groups([50, 40], 140), column_groups([30, 30, 40, 40, 40], 130, [0, 1])
    ([[0, 1]], [[0, 1, 2], [0, 1, 3], [0, 1, 4]])
    >>> column_groups([30, 40, 40], 140, [])
    [[0, 1, 2]]
    """
    labels = sorted(labels)
    base = sum(widths[i] for i in labels)
    groups, current = [], []
    for i in (i for i in range(len(widths)) if i not in labels):
        if current and base + sum(widths[j] for j in current) + widths[i] > width:
            groups.append(current)
            current = []
        current.append(i)
    return [sorted(labels + group) for group in groups + [current]]


def table_part(headers, rows, aligns, widths, columns):
    from reportlab.lib import colors  # heavy: loaded only when a PDF is made
    from reportlab.pdfbase.pdfmetrics import stringWidth
    from reportlab.platypus import Paragraph, Table, TableStyle

    s = styles()

    def cell(value: str, i: int):
        room = widths[i] - 2 * PAD
        if stringWidth(value, FONT, TABLE_SIZE) <= room:
            return value
        if aligns[i] != "left":
            return Paragraph(escape(value), s["figure"])  # a long number or fraction: broken anywhere
        whole = all(stringWidth(w, FONT, TABLE_SIZE) <= room for w in value.split())
        return Paragraph(escape(value), s["cell" if whole else "word"])  # between words, where every word fits

    data = [[Paragraph(escape(headers[i]), s["head"]) for i in columns]]
    data += [[cell(row[i], i) for i in columns] for row in rows]
    part = Table(data, colWidths=[widths[i] for i in columns], repeatRows=1, hAlign="LEFT")
    style = [("FONT", (0, 0), (-1, -1), FONT, TABLE_SIZE), ("LEADING", (0, 0), (-1, -1), TABLE_SIZE + 1.5),
             ("LEFTPADDING", (0, 0), (-1, -1), PAD), ("RIGHTPADDING", (0, 0), (-1, -1), PAD),
             ("TOPPADDING", (0, 0), (-1, -1), 1), ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
             ("VALIGN", (0, 0), (-1, -1), "TOP"), ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#eeeeee")),
             ("LINEBELOW", (0, 0), (-1, 0), 0.6, colors.HexColor("#888888")),
             ("LINEBELOW", (0, 1), (-1, -1), 0.25, colors.HexColor("#dddddd"))]
    style += [("ALIGN", (n, 0), (n, -1), "RIGHT") for n, i in enumerate(columns) if aligns[i] != "left"]
    part.setStyle(TableStyle(style))
    return part


def sign_off(block):
    """The approvals: for each role, the name given (or a line to write it on) and lines to sign
    and date, captioned, kept together on one page."""
    from reportlab.lib import colors  # heavy: loaded only when a PDF is made
    from reportlab.lib.units import mm
    from reportlab.platypus import KeepTogether, Paragraph, Table, TableStyle

    s = styles()
    rows, style = [], [("VALIGN", (0, 0), (-1, -1), "BOTTOM"), ("LEFTPADDING", (0, 0), (-1, -1), 0),
                       ("RIGHTPADDING", (0, 0), (-1, -1), 0)]
    for n, (role, name) in enumerate(block.roles):  # columns: role, name, gap, signature, gap, date
        line, under = 2 * n, 2 * n + 1
        rows += [[Paragraph(escape(role), s["label"]), Paragraph(escape(name), s["body"]) if name else "", "", "", "", ""],
                 ["", Paragraph("name", s["under"]), "", Paragraph("signature", s["under"]), "", Paragraph("date", s["under"])]]
        style += [("LINEBELOW", (c, line), (c, line), 0.6, colors.black) for c in (1, 3, 5)]
        style += [("TOPPADDING", (0, line), (-1, line), 18), ("VALIGN", (0, under), (-1, under), "TOP"),
                  ("BOTTOMPADDING", (0, under), (-1, under), 6)]
    grid = Table(rows, colWidths=[28 * mm, 56 * mm, 6 * mm, 48 * mm, 6 * mm, 26 * mm], hAlign="LEFT")
    grid.setStyle(TableStyle(style))
    return KeepTogether([grid])


def chart(block, width: float, height: float):
    """The chart's SVG as a vector drawing, scaled down to fit the frame."""
    from svglib.svglib import svg2rlg  # heavy: loaded only when a PDF is made

    chart_fonts()
    drawing = svg2rlg(io.BytesIO(block.svg))
    factor = min(1.0, width / drawing.width, 0.9 * height / drawing.height)
    drawing.scale(factor, factor)
    drawing.width, drawing.height = drawing.width * factor, drawing.height * factor
    drawing.hAlign = "LEFT"
    return drawing


def numbered_canvas(footer: str, margin: float, made: str = ""):
    """A canvas class that writes "page n of m" and ``footer`` at the foot of every page but the
    first, once the number of pages is known, and dates the file ``made`` (ISO; the title page's
    date: the file is otherwise invariant, which would date it 2000-01-01)."""
    from reportlab.pdfgen.canvas import Canvas  # heavy: loaded only when a PDF is made

    class Numbered(Canvas):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self._pages = []
            if made:
                stamp = made.replace("-", "")
                self._doc.setDateFormatter(lambda *when: f"D:{stamp}000000+00'00'")

        def showPage(self):
            self._pages.append(dict(self.__dict__))
            self._startPage()

        def save(self):
            for number, state in enumerate(self._pages, 1):
                self.__dict__.update(state)
                self.setFont(FONT, 7)
                self.setFillGray(0.35)
                w = self._pagesize[0]
                self.drawRightString(w - margin, margin * 0.75, f"page {number} of {len(self._pages)}")
                if number > 1:
                    self.drawString(margin, margin * 0.75, shorten(footer, w - 2 * margin - 70))
                super().showPage()
            super().save()

    return Numbered


def shorten(line: str, width: float) -> str:
    """``line``, cut with an ellipsis to fit ``width`` points in the footer's font."""
    from reportlab.pdfbase.pdfmetrics import stringWidth  # heavy: loaded only when a PDF is made

    if stringWidth(line, FONT, 7) <= width:
        return line
    while line and stringWidth(line + "…", FONT, 7) > width:
        line = line[:-1]
    return line + "…"


def document_class():
    from reportlab.platypus import SimpleDocTemplate  # heavy: loaded only when a PDF is made

    class Document(SimpleDocTemplate):
        """A document whose level-2 and -3 headings become PDF bookmarks."""

        def afterFlowable(self, flowable):
            name = getattr(getattr(flowable, "style", None), "name", "")
            if name in ("h2", "h3"):
                self.marks = getattr(self, "marks", 0) + 1
                key = f"s{self.marks}"
                self.canv.bookmarkPage(key)
                self.canv.addOutlineEntry(flowable.getPlainText(), key, level=int(name[1]) - 2)

    return Document
