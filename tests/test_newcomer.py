"""What a newcomer meets (issue 40): a mistyped name gets a "did you mean", a long list of names is
cut between names, Markdown is a format, `compare --bets`, `solve --vary 1` names its line, a long
job says how far it is in a log, rule-file errors count from one, and a pay table that pays the
bettor is warned of."""

import subprocess
import sys

import pytest
from click.testing import CliRunner

from analyzer.cli import common as cli_module
from analyzer.cli import cli


def run(*args):
    return CliRunner().invoke(cli, list(args))


@pytest.mark.parametrize("args, says", [
    (["edge", "--rules", "catalog", "--bets", "dragon7"], "rule set 'catalog' has no bet 'dragon7' (did you mean 'dragon_7'?)"),
    (["solve", "--rules", "catalog", "--bet", "Dragon_7"], "has no bet 'Dragon_7' (did you mean 'dragon_7'?)"),
    (["edge", "--rules", "standard", "--bets", "tie,dragon7"], "(bets: banker, player, tie, player_pair, banker_pair)"),
])
def test_a_mistyped_bet_gets_a_did_you_mean(args, says):
    result = run(*args)
    assert result.exit_code == 1 and says in result.output and result.output.count("\n") == 1, result.output


def test_a_long_list_of_bets_is_cut_between_names_and_says_how_many_more():
    result = run("edge", "--rules", "catalog", "--bets", "zzz")
    assert result.exit_code == 1 and "characters]" not in result.output
    from analyzer import get_rules

    more = len(get_rules("catalog").bets) - 12
    assert result.output.rstrip().endswith(f"panda_8 and {more} more)"), result.output


@pytest.mark.parametrize("when, says", [
    ("{ banker_totl = 7 }", "unknown outcome field 'banker_totl' (did you mean 'banker_total'?)"),
    ("{ player_1 = { rnk = \"K\" } }", "unknown card attribute 'rnk' (did you mean 'rank'?)"),
    ("{ player_hand = { evry = { colour = \"red\" } } }", "unknown group test 'evry' (did you mean 'every'?)"),
])
def test_a_mistyped_field_gets_a_did_you_mean_and_counts_from_one(tmp_path, when, says):
    path = tmp_path / "f.toml"
    path.write_text(f'name = "t"\n[[bets]]\nid = "a"\nlines = [{{ label = "x", when = {{ winner = "tie" }}, pays = 8 }}]\n'
                    f'[[bets]]\nid = "b"\nlines = [{{ label = "y", when = {{ winner = "tie" }}, pays = 8 }}, '
                    f'{{ label = "z", when = {when}, pays = 5 }}]\n')
    result = run("edge", "--rules", str(path))
    assert result.exit_code == 1 and result.output.startswith(f"Error: {path}: bets[2].lines[2].when") and says in result.output


def test_a_mistyped_key_gets_a_did_you_mean(tmp_path):
    path = tmp_path / "f.toml"
    path.write_text('name = "t"\n[[bets]]\nid = "a"\nlins = [{ label = "x", when = { winner = "tie" }, pays = 8 }]\n')
    assert run("edge", "--rules", str(path)).output == f"Error: {path}: bets[1].lins: unknown key (did you mean 'lines'?)\n"


@pytest.mark.parametrize("name", ["markdown", "md", "Markdown"])
def test_markdown_is_a_format(name):
    result = run("edge", "--format", name)
    assert result.exit_code == 0 and "\n| bet " in result.output and "|---" in result.output


def test_compare_takes_bets_and_each_rule_set_shows_those_it_has():
    result = run("compare", "--rules", "standard", "--rules", "catalog", "--bets", "tie,dragon_7", "--format", "csv")
    assert result.exit_code == 0
    rows = result.output.splitlines()
    assert [r.split(",")[0] for r in rows[1:]] == ["tie", "dragon_7"] and rows[2].split(",")[2] == ""  # not in standard
    refused = run("compare", "--rules", "standard", "--bets", "dragon7")
    assert refused.exit_code == 1 and "has no bet 'dragon7'" in refused.output


def test_solve_by_a_line_number_names_the_line():
    result = run("solve", "--rules", "catalog", "--bet", "dragon_7", "--vary", "1")
    assert result.exit_code == 0 and "payout of 'Banker wins with a three-card 7'" in result.output


def test_a_long_job_says_how_far_it_is_where_stderr_is_a_log(monkeypatch, capsys):
    """Without a terminal: the label, then a line each PROGRESS_EVERY seconds (0 here: at each step)."""
    monkeypatch.setattr(cli_module, "PROGRESS_EVERY", 0.0)
    with cli_module.progress_bar(400, "Dealing shoes") as advance:
        for _ in range(4):
            advance(100)
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == "Dealing shoes"
    assert lines[1].startswith("Dealing shoes: 100 of 400 (25%), ") and "about" in lines[1]
    assert len(lines) == 4  # no line once it is done: the answer follows


def test_simulate_in_a_log_prints_its_label_then_its_answer():
    process = subprocess.run([sys.executable, "-m", "analyzer", "simulate", "--shoes", "20", "--workers", "1",
                              "--bets", "tie"], capture_output=True, text=True, timeout=300)
    assert process.returncode == 0 and process.stderr == "Dealing shoes\n"


def test_rules_check_warns_of_a_pay_table_that_pays_the_bettor(tmp_path):
    path = tmp_path / "seven.toml"
    path.write_text('name = "t"\n[[bets]]\nid = "three_card_7"\nlines = [{ label = "Banker wins with a three-card 7", '
                    'when = { winner = "banker", banker_total = 7, banker_cards = 3 }, pays = 45 }]\n')
    result = run("rules", "check", str(path))
    assert result.exit_code == 0 and result.output.startswith("Check of rules t: 0 errors, 1 warning\n")
    assert "warning: bet 'three_card_7': pays the bettor more than it takes on a full 8-deck shoe: EV +3.6556%" in result.output
    fair = run("rules", "check", "catalog")
    assert "pays the bettor" not in fair.output


def docs_hooks():
    import importlib.util
    from pathlib import Path

    spec = importlib.util.spec_from_file_location("docs_hooks", Path(__file__).parent.parent / "docs" / "hooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_reference_page_shows_whole_summaries_and_no_click_internals():
    """The command-line reference as mkdocs-click renders it (a piece of its HTML): each command's
    summary whole, where mkdocs-click cuts it at its first line, and '-' where click 8.3 marks an
    option with no default 'Sentinel.UNSET'."""
    hooks = docs_hooks()
    html = ('<li><em><a href="#baccarat-report">report</a></em>: Write a par sheet: report.md, a self-contained '
            'report.html with charts, a print-ready</li>\n<tr><td><code>--decks</code></td><td>text</td><td>N</td>'
            '<td><code>Sentinel.UNSET</code></td></tr>')
    fixed = hooks.cli_reference(html)
    assert "Sentinel.UNSET" not in fixed and "<td>-</td>" in fixed
    assert "a print-ready report.pdf, a workbook report.xlsx, tables/*.csv and report.json with every exact value.</li>" in fixed
    whole = hooks.summaries()
    assert {"baccarat-edge", "baccarat-protect", "baccarat-rules-check", "baccarat-cache-clear"} <= set(whole)
    assert all(text.endswith((".", ")", "?")) for text in whole.values()), [t for t in whole.values() if t[-1:] not in ".)?"]
    hooks.on_shutdown()


def test_the_catalogues_page_lists_every_bet_with_its_edge():
    """The page docs/reference/catalogue.md is filled, when the site is built, with every bet of
    the catalogue, its house edge on 8 decks and its source (issue 41)."""
    from analyzer import get_rules

    table = docs_hooks().catalogue().splitlines()
    ids = [line.split("`")[1] for line in table[2:]]
    assert ids == [b.id for b in get_rules("catalog").bets] and len(ids) >= 90
    tiger = next(line for line in table if "`tiger_pair`" in line)
    assert "| 16.1217% |" in tiger and "SBOTOP" in tiger
