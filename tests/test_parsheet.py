"""Par sheets: return tables sum exactly to the total and the EV and match published tables;
the ranges after N hands agree with closed forms and with sessions dealt from real cards; the
PDF holds the exact counts and prints inside its margins on A4 and Letter; the workbook holds
the exact values."""

import io
import math
import random
from fractions import Fraction
from statistics import NormalDist

import pytest
from click.testing import CliRunner

from analyzer import Shoe, get_rules, report
from analyzer.questions import parsheet
from analyzer.views import parsheet as parsheet_views
from analyzer.routes.counts import evaluate
from analyzer.cli import cli, report_command
from analyzer.game.engine import enumerate_coup
from tests.dealer import deal
from tests.test_report import pdf_text, xlsx_cells


def run(*args):
    return CliRunner().invoke(cli, list(args))


# Return tables ------------------------------------------------------------------------------

@pytest.mark.parametrize("name, decks", [("standard", 8), ("no-commission", 6), ("ez", 1), ("catalog", 2)])
def test_return_tables_sum_to_the_total_and_the_ev(name, decks):
    rules = get_rules(name)
    shoe = Shoe.decks(decks)
    dist = enumerate_coup(shoe, rules.tableau)
    table = {b["bet"]: b for b in parsheet_views.returns(rules, shoe).data["bets"]}
    for bet in rules.bets:
        result = evaluate(bet, dist)
        lines = table[bet.id]["lines"]
        if bet.series is None:
            assert sum(ln["combinations"] for ln in lines) == dist.total == table[bet.id]["total"]["combinations"]
        else:  # a bet across coups: chances under independent coups, no combinations of one coup's cards
            assert {ln["combinations"] for ln in lines} == {None} and table[bet.id]["total"]["combinations"] is None
        assert sum(ln["return"] for ln in lines) == result.ev == table[bet.id]["total"]["return"]
        assert sum(ln["probability"] for ln in lines) == 1
        assert lines[-1]["event"] == "loses" and lines[-1]["pays"] == -1
        assert all(ln["return"] == ln["pays"] * ln["probability"] for ln in lines)


def test_the_no_commission_return_table_is_the_published_one():
    # Wizard of Odds, Commission Free Baccarat, "Nepal Baccarat - Six Decks" (baccarat appendix 6):
    # Banker win except with 6: 355,773,521,203,200; with 6: 47,322,230,031,360; tie 83,552,962,932,288;
    # Player win 392,220,492,728,832; total 878,869,206,895,680; return -0.014548.
    bet = parsheet_views.returns(get_rules("no-commission"), Shoe.decks(6)).data["bets"][0]
    assert [(ln["pays"], ln["combinations"]) for ln in bet["lines"]] == [
        (Fraction(1, 2), 47322230031360), (1, 355773521203200), (0, 83552962932288), (-1, 392220492728832)]
    assert bet["total"]["combinations"] == 878869206895680
    assert round(float(bet["total"]["return"]), 6) == -0.014548
    # The same page's eight-deck table prints "Banker win, except with six points 2023020261982210": a
    # spreadsheet's 15 significant digits. The exact count is 2,292,252,566,437,888 - 269,232,304,455,680.
    eight = parsheet_views.returns(get_rules("no-commission"), Shoe.decks(8)).data["bets"][0]["lines"]
    assert eight[1]["combinations"] == 2023020261982208 == 2292252566437888 - 269232304455680
    assert eight[0]["combinations"] == 269232304455680


def test_edge_returns_view_through_the_cli():
    result = run("edge", "--view", "returns", "--bets", "tie", "--decks", "8")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-3:] == [
        "Tie    Tie           8    475,627,426,473,216       0.095156   0.761248",
        "Tie    loses        -1  4,522,770,849,030,144       0.904844  -0.904844",
        "Tie    total            4,998,398,275,503,360       1.000000  -0.143596"]
    csv_text = run("edge", "--view", "returns", "--bets", "banker", "--format", "csv").output
    assert csv_text.splitlines()[1] == ("banker,Banker,Banker wins,0.95,19/20,2292252566437888,0.458597422632763,"
                                        "8954111587648/19524993263685,0.435667551501125,42532030041328/97624966318425")
    assert run("edge", "--bets", " , ").output == "Error: --bets: no bet id given\n"
    assert "no bet 'nope'" in run("edge", "--view", "ranges", "--bets", "nope").output


# Volatility and ranges ----------------------------------------------------------------------

def tie_result(decks=8):
    return evaluate(get_rules("standard").bet("tie"), enumerate_coup(Shoe.decks(decks)))


def test_volatility_of_a_two_outcome_bet_is_its_closed_form():
    result = tie_result()
    p = result.win  # Tie 8:1: +8 with p, -1 otherwise
    v = parsheet.volatility(result, hands=(100_000,))
    assert v.variance == 81 * p * (1 - p)  # (8 - (-1))^2 p (1 - p)
    assert v.hold_per_100 == 100 * (1 - 9 * p)
    assert math.isclose(v.skewness, (1 - 2 * p) / math.sqrt(p * (1 - p)))  # a Bernoulli's skewness
    assert math.isclose(v.volatility_index, 1.6448536269514722 * math.sqrt(81 * p * (1 - p)))
    r95 = next(r for r in v.ranges if r.level == Fraction(95, 100))
    half = 1.959963984540054 * math.sqrt(100_000 * 81 * p * (1 - p))
    assert r95.method == "normal" and math.isclose(r95.high - r95.low, 2 * half)
    assert math.isclose((r95.high + r95.low) / 2, float(100_000 * (9 * p - 1)))


def binomial_cdf(n: int, p: Fraction, k: int) -> Fraction:
    """P(Binomial(n, p) <= k), exactly."""
    return sum((math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k + 1)), Fraction(0))


def test_the_exact_range_of_a_long_shot_is_the_binomial_quantile():
    """Tie over 100 hands: the result is 9 W - 100 with W ~ Binomial(100, p); its exact central
    range has ends at the binomial's quantiles, found here with Fractions."""
    result = tie_result()
    p = result.win
    v = parsheet.volatility(result, hands=(100,))
    assert abs(v.skewness) / 10 > parsheet.SKEW_LIMIT
    for r in v.ranges:
        assert r.method == "exact"
        tail = (1 - r.level) / 2
        low_w, high_w = (r.low + 100) / 9, (r.high + 100) / 9
        assert low_w.denominator == high_w.denominator == 1
        # the low end: P(W < low) <= tail < P(W < low + 1); the high end likewise from above
        assert binomial_cdf(100, p, int(low_w) - 1) <= tail < binomial_cdf(100, p, int(low_w))
        assert 1 - binomial_cdf(100, p, int(high_w)) <= tail < 1 - binomial_cdf(100, p, int(high_w) - 1)
        exact_coverage = binomial_cdf(100, p, int(high_w)) - binomial_cdf(100, p, int(low_w) - 1)
        assert exact_coverage >= r.level and math.isclose(r.coverage, exact_coverage, rel_tol=1e-12)


def test_the_session_distribution_of_a_three_outcome_bet_is_exact_to_its_bound():
    """Banker over 5 hands on one deck, against the exact multinomial sum with Fractions."""
    result = evaluate(get_rules("standard").bet("banker"), enumerate_coup(Shoe.decks(1)))
    d = parsheet.session_distribution(result, 5)
    scale, values, probs = parsheet.outcomes(result)
    exact = {0: Fraction(1)}
    for _ in range(5):
        step = {}
        for total, q in exact.items():
            for v, p in zip(values, probs):
                step[total + v] = step.get(total + v, 0) + q * p
        exact = step
    for i, q in enumerate(d.p):
        x = exact.get(d.low + i, Fraction(0))
        assert abs(Fraction(q) - x) <= d.error * x


def session_results(bet_pays, hands: int, sessions: int, seed: int):
    """Results of sessions of ``hands`` unit bets, each coup dealt by the test dealer from a freshly
    shuffled 8-deck shoe (the par sheet's model: every hand from the same shoe state)."""
    shoe = [r + s for r in "A23456789TJQK" for s in "shdc"] * 8
    rng = random.Random(seed)
    out = []
    for _ in range(sessions):
        total = Fraction(0)
        for _ in range(hands):
            total += bet_pays(deal(rng.sample(shoe, 6)))
        out.append(total)
    return out


def test_ranges_hold_as_often_as_they_say_on_dealt_sessions():
    """1,000 sessions of 100 Tie bets and of 100 Banker bets: the share inside each 95% range
    is 95% within 3.5 binomial standard errors (seeded, so the test is repeatable)."""
    dist = enumerate_coup(Shoe.decks(8))
    rules = get_rules("standard")
    bets = {"tie": lambda o: 8 if o["winner"] == 0 else -1,
            "banker": lambda o: Fraction(19, 20) if o["winner"] < 0 else 0 if o["winner"] == 0 else -1}
    for bet_id, pays in bets.items():
        v = parsheet.volatility(evaluate(rules.bet(bet_id), dist), hands=(100,), levels=(Fraction(95, 100),))
        (r,) = v.ranges
        results = session_results(pays, 100, 1000, seed=7)
        inside = sum(r.low <= x <= r.high for x in results) / len(results)
        coverage = r.coverage if r.coverage is not None else 0.95
        assert abs(inside - coverage) <= 3.5 * math.sqrt(coverage * (1 - coverage) / len(results)), (bet_id, inside)
        mean = sum(results) / len(results)
        assert abs(float(mean) - 100 * float(v.ev)) <= 4 * math.sqrt(100 * float(v.variance) / len(results))


def test_z_values():
    assert [round(parsheet.z(level), 6) for level in parsheet.LEVELS] == [1.644854, 1.959964, 2.575829]
    assert parsheet.z(Fraction(95, 100)) == NormalDist().inv_cdf(0.975)


def test_a_costly_skewed_session_is_marked_poor():
    result = tie_result()
    v = parsheet.volatility(result, hands=(100,), budget=0)
    assert {r.method for r in v.ranges} == {"normal, poor"}


# PDF and workbook ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def standard_report():
    request = report.Request(("standard",), decks="8")
    return report.build(report.scope(request), report_command(request, "par"))


@pytest.fixture(scope="module")
def standard_files(standard_report):
    return {paper: report.files(standard_report, paper, "2026-11-23") for paper in ("a4", "letter")}


@pytest.mark.parametrize("paper, size", [("a4", (595, 842)), ("letter", (612, 792))])
def test_pdf_holds_the_exact_counts_and_prints_inside_its_margins(standard_files, paper, size):
    import pypdfium2 as pdfium

    content = standard_files[paper]["report.pdf"]
    pages = pdf_text(content)
    text = "\n".join(pages)
    assert "2,292,252,566,437,888" in text and "475,627,426,473,216" in text  # Banker, Tie on 8 decks
    assert "Par sheet" in pages[0] and "Date" in pages[0] and "2026-11-23" in pages[0] and "baccarat report" in pages[0]
    assert "Source: Punto banco as dealt in most casinos" in pages[0]
    assert all(f"page {n} of {len(pages)}" in page for n, page in enumerate(pages, 1))
    for heading in ("Return tables", "Volatility and ranges", "House edge by number of decks", "Effect of removal"):
        assert heading in text
    assert "-0.010579" in text and "-0.143596" in text  # the return tables' totals: Banker's and Tie's EV
    assert "rank removed" in text and "14.36%" in text  # the charts' text stays text: an axis, a bar's label
    doc = pdfium.PdfDocument(content)
    try:
        for i in range(len(doc)):
            page = doc[i]
            assert tuple(round(x) for x in page.get_size()) == size
            pixels = page.render(scale=1).to_numpy()  # one pixel a point
            ink = pixels[:, :, :3].min(axis=2) < 250
            assert ink.any(), f"page {i + 1} is blank"
            band = 28  # 10 mm: nothing printed this close to an edge, so nothing is cut
            assert not ink[:band].any() and not ink[-band:].any(), f"page {i + 1}: ink at the top or bottom edge"
            assert not ink[:, :band].any() and not ink[:, -band:].any(), f"page {i + 1}: ink at a side edge"
    finally:
        doc.close()


def test_a_wide_table_is_split_into_column_groups_not_cut(standard_files):
    text = "\n".join(pdf_text(standard_files["a4"]["report.pdf"]))
    assert "(1 of 2: columns" in text  # the house-edge table with its exact column is wider than the page
    assert "114753351728/10847218479825" in text  # Banker's exact house edge, whole


def test_workbook_holds_the_exact_values(standard_files):
    cells = xlsx_cells(standard_files["a4"]["report.xlsx"])
    about = {row[0]: row[1] for row in cells["about"] if row and row[0]}
    assert about["Command"] == "baccarat report --rules standard --decks 8 -o par" and about["Date"] == "2026-11-23"
    assert set(cells) >= {"returns-standard", "ranges-standard", "house-edge-standard", "outcomes-punto-banco"}
    header, *rows = cells["returns-standard"][2:]
    assert header[:6] == ["id", "bet", "event", "pays", "pays (exact)", "combinations"]
    dist = enumerate_coup(Shoe.decks(8))
    for bet in get_rules("standard").bets:
        result = evaluate(bet, dist)
        mine = [dict(zip(header, row)) for row in rows if row[0] == bet.id]
        assert [int(r["combinations"]) for r in mine[:-1]] == [*result.sequences, result.total - sum(result.sequences)]
        total = mine[-1]
        assert Fraction(total["return (exact)"]) == result.ev
        assert math.isclose(total["return"], float(result.ev), rel_tol=1e-15)  # XlsxWriter writes 16 digits
        assert isinstance(total["combinations"], str)  # 4,998,398,275,503,360 is beyond Excel's 15 digits
    outcomes = cells["outcomes-punto-banco"]
    assert outcomes[3][:2] == ["Banker wins", "2292252566437888"]
    assert outcomes[3][2] == float(Fraction(2292252566437888, 4998398275503360))


def test_workbook_layout(standard_files):
    import openpyxl

    content = standard_files["a4"]["report.xlsx"]
    book = openpyxl.load_workbook(io.BytesIO(content))
    sheet = book["returns-standard"]
    assert sheet.freeze_panes == "B4"
    assert sheet.column_dimensions["A"].width > 5 and sheet.cell(4, 7).number_format == "0.000000"
    assert sheet.cell(4, 4).value == 0.95 and sheet.cell(4, 5).value == "19/20"
