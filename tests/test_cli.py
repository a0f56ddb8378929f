"""The command line through CliRunner: output, the JSON contract, and exact error text."""

import csv
import io
import json
import os
import random
import string
import subprocess
import sys
from fractions import Fraction

import pytest
from click.testing import CliRunner
from tabulate import tabulate

from analyzer import __version__
from analyzer.cli import cli
from analyzer.render import simple_table


def run(*args):
    return CliRunner().invoke(cli, list(args))


def ok(*args):
    result = run(*args)
    assert result.exit_code == 0, result.output
    return result.output


def test_version_and_short_help():
    assert ok("--version") == f"baccarat, version {__version__}\n"
    assert ok("-h").startswith("Usage: baccarat [OPTIONS] COMMAND")
    for command in cli.commands:
        assert "-h, --help" in ok(command, "-h")


def test_the_version_from_the_entry_point_without_click_is_what_click_prints():
    # __main__ answers a lone --version before importing click: the same line, exit 0, and click not loaded
    code = "import sys; sys.argv = ['baccarat', '--version']; from analyzer.__main__ import main; main(); print('click' in sys.modules)"
    process = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert process.returncode == 0 and process.stdout == ok("--version") + "False\n"
    both = subprocess.run([sys.executable, "-m", "analyzer", "--version", "-h"], capture_output=True, text=True)
    assert both.returncode == 0 and both.stdout == ok("--version")  # anything more: click's own --version
    if os.path.exists("/dev/full"):  # an output that cannot be written: one line, as every command says it
        for args in (["--version"], ["--version", "-h"]):
            with open("/dev/full", "w") as full:
                failed = subprocess.run([sys.executable, "-m", "analyzer", *args], stdout=full, stderr=subprocess.PIPE, text=True)
            assert failed.returncode == 1 and failed.stderr == "Error: cannot write the output: No space left on device\n"


def test_every_command_has_help_text():
    for name, command in cli.commands.items():
        assert command.help and command.get_short_help_str(), name
        for param in command.params:
            if param.param_type_name == "argument":  # click arguments are described in the command's help
                assert param.name.upper() in command.help, (name, param.name)
            else:
                assert param.help or param.name == "help", (name, param.name)


def test_odds_json_contract():
    data = json.loads(ok("odds", "--decks", "8", "--remove", "5,5,K,Ah", "--format", "json"))
    n = 416 - 4
    assert data["total"] == n * (n - 1) * (n - 2) * (n - 3) * (n - 4) * (n - 5)
    assert data["shoe"]["cards"] == n and data["shoe"]["ranks"]["5"] == 30 and data["shoe"]["ranks"]["A"] == 31
    outcomes = data["outcomes"]
    assert {"banker", "player", "tie", "player_pair", "banker_pair"} <= set(outcomes)
    for o in outcomes.values():
        assert type(o["combinations"]) is int
        assert Fraction(o["probability"]) == Fraction(o["combinations"], data["total"])
    assert sum(outcomes[k]["combinations"] for k in ("banker", "player", "tie")) == data["total"]


def test_odds_json_eight_decks_published_counts():
    outcomes = json.loads(ok("odds", "--format", "json"))["outcomes"]
    # Wizard of Odds, Baccarat Appendix 1 (8 decks)
    assert outcomes["banker"]["combinations"] == 2_292_252_566_437_888
    assert outcomes["player"]["combinations"] == 2_230_518_282_592_256
    assert outcomes["tie"]["combinations"] == 475_627_426_473_216
    assert outcomes["player_pair"]["probability"] == "31/415"


def test_edge_json_contract():
    data = json.loads(ok("edge", "--rules", "ez", "--decks", "6", "--format", "json"))
    assert data["rules"] == "ez"
    assert [b["bet"] for b in data["bets"]] == ["banker", "player", "tie", "player_pair", "banker_pair"]
    for b in data["bets"]:
        ev = Fraction(b["ev"])
        assert Fraction(b["house_edge"]) == -ev
        assert Fraction(b["win"]) + Fraction(b["push"]) + Fraction(b["loss"]) == 1
        assert sum(Fraction(ln["probability"]) * Fraction(ln["pays"]) for ln in b["lines"]) - Fraction(b["loss"]) == ev
    pair = data["bets"][3]
    assert pair["ev"] == str(Fraction(12 * 23, 311) - 1)  # 12 (4d-1)/(52d-1) - 1, d = 6


def test_edge_fits_100_columns_and_says_how_to_see_the_rest():
    narrow, wide = ok("edge").splitlines(), ok("edge", "--wide").splitlines()
    hint = "EV, edge per resolved bet, SD, hits 1 in: add --wide"
    assert narrow[:3] == ["House edge: rules standard (Punto banco: Banker 1:1 less 5% commission, Tie 8:1, pairs 11:1); "
                          "shoe", "416 cards (8 decks)", hint]  # the title wrapped at 100 columns
    assert max(map(len, narrow)) <= 100 < max(map(len, wide))
    assert narrow[4].split() == ["bet", "pays", "win", "push", "loss", "house", "edge"]
    assert "edge per resolved bet" in wide[2] and "hits 1 in" in wide[2] and hint not in wide
    for fmt in ("csv", "github", "html", "latex"):  # data and documents: every column, --wide or not
        assert ok("edge", "--format", fmt) == ok("edge", "--format", fmt, "--wide")
    rows = list(csv.reader(io.StringIO(ok("edge", "--format", "csv"))))
    assert rows[0][-5:] == ["edge per resolved bet (exact)", "SD", "variance (exact)", "hits 1 in", "hits 1 in (exact)"]
    now = ok("now", "--dealt", "5").splitlines()
    assert hint in now and max(map(len, now)) <= 100
    assert hint not in ok("now", "--dealt", "5", "--positive")  # no rows, nothing to widen


def test_edge_exact_columns():
    out = ok("edge", "--exact", "--wide")
    assert "house edge (exact)" in out and "variance (exact)" in out
    b, p, total = 2_292_252_566_437_888, 2_230_518_282_592_256, 4_998_398_275_503_360  # as in test_bets
    banker_edge = -(Fraction(19, 20) * b - p) / total
    assert f" 1.0579%  {banker_edge} " in out


def test_csv_output():
    rows = list(csv.reader(io.StringIO(ok("compare", "--decks", "1,8", "--format", "csv", "--exact"))))
    assert rows[0] == ["id", "bet", "1 deck", "1 deck (exact)", "8 decks", "8 decks (exact)"]
    banker = rows[1]
    assert banker[:2] == ["banker", "Banker"] and banker[4] == "0.010579057842472"  # data: a proportion, 15 decimals
    assert Fraction(banker[5]) == Fraction(114753351728, 10847218479825)


def test_compare_rules_and_decks_grid():
    data = json.loads(ok("compare", "--rules", "standard", "--rules", "tie-9", "--decks", "6,8", "--format", "json"))
    assert [c["label"] for c in data["columns"]] == ["standard, 6 decks", "standard, 8 decks", "tie-9, 6 decks", "tie-9, 8 decks"]
    tie = next(b for b in data["bets"] if b["bet"] == "tie")
    assert Fraction(tie["house_edge"][3]) < Fraction(tie["house_edge"][1])


def test_compare_shows_a_blank_where_a_rule_set_lacks_a_bet(tmp_path):
    short = tmp_path / "short.toml"
    short.write_text('name = "short"\n[[bets]]\nid = "banker"\nlines = [{ when = { winner = "banker" }, pays = 1 }]\n')
    data = json.loads(ok("compare", "--rules", str(short), "--rules", "standard", "--format", "json"))
    player = next(b for b in data["bets"] if b["bet"] == "player")
    assert player["house_edge"][0] is None
    # Wizard of Odds, Baccarat Appendix 1 (8 decks): Player edge = (Banker - Player) / total
    assert Fraction(player["house_edge"][1]) == Fraction(2_292_252_566_437_888 - 2_230_518_282_592_256, 4_998_398_275_503_360)


@pytest.mark.parametrize("fmt", ["github", "grid", "pipe", "html", "latex", "plain", "tsv"])
def test_tabulate_formats(fmt):
    assert "Banker" in ok("edge", "--format", fmt)


def test_the_default_table_is_tabulates_simple_format():
    # render.simple_table writes the default format without loading tabulate: the same text as
    # tabulate's on random tables (spaces at the ends, empty cells, wide and narrow columns).
    rng = random.Random(8)
    alphabet = string.ascii_letters + " %.-:·‰0123456789"
    for _ in range(2000):
        k, n = rng.randint(1, 6), rng.randint(1, 5)
        word = lambda: "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12)))  # noqa: E731
        headers, rows = [word() for _ in range(k)], [[word() for _ in range(k)] for _ in range(n)]
        aligns = [rng.choice(["left", "right"]) for _ in range(k)]
        assert simple_table(headers, rows, aligns) == tabulate(rows, headers, tablefmt="simple", disable_numparse=True,
                                                               colalign=aligns), (headers, rows, aligns)


def test_cells_that_are_not_one_column_each_go_to_tabulate():
    # A carriage return is a line break to tabulate, and a wide or combining character is two or
    # none columns wide (with wcwidth installed): those tables are tabulate's own.
    from analyzer.render import Column, View, render, table_cells

    for name in ["a\rb", "中文😀", "e\u0301e\u0301", "tab\there", "ok · 5‰"]:
        view = View("", [Column("bet", "bet"), Column("p", "P", "percent")], [{"bet": name, "p": Fraction(1, 8)}])
        headers, rows, aligns = table_cells(view, False)
        assert render(view) == tabulate(rows, headers, tablefmt="simple", disable_numparse=True, colalign=aligns)


def test_the_lazy_modules_of_the_command_line_are_ordinary_modules():
    # Loaded at first use by a plain import: an attribute of the package, and safe when many
    # threads ask at once (a fresh interpreter, so that nothing is loaded yet).
    code = ("import threading, analyzer.cli.common as c\nerrors = []\n"
            "def use():\n    try: c.views.edge.edge\n    except Exception as e: errors.append(e)\n"
            "threads = [threading.Thread(target=use) for _ in range(16)]\n[t.start() for t in threads]\n"
            "[t.join() for t in threads]\nimport analyzer\nprint(len(errors), analyzer.views.edge.edge.__name__)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.split() == ["0", "edge"]


def test_version_and_help_load_no_numpy():
    code = ("import sys; from analyzer.cli import cli\ntry: cli(['--help'])\nexcept SystemExit: pass\n"
            "print(sorted({'numpy', 'tabulate', 'analyzer.game.engine'} & set(sys.modules)))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip().splitlines()[-1] == "[]"


def test_a_value_level_question_loads_no_card_level_counting(tmp_path):
    # edge of the standard rules asked for the first time: the enumerator alone, none of the
    # card-level counting, the compiled route of many shoes or the resources machinery (about
    # 30 ms of a one-off command; asked again, test_lean: not even numpy); a card-level rule set
    # loads what it counts with, and with its compilations on disk (the second run) neither loads
    # numpy.ma (np.unique's import, 8 ms: the counting finds distinct classes without it)
    code = ("import sys; from analyzer.cli import cli\ntry: cli(['edge', '--decks', '8'{more}])\nexcept SystemExit: pass\n"
            "print(sorted({{'analyzer.routes.cardcount', 'analyzer.routes.closedforms', 'analyzer.routes.batch',"
            " 'importlib.resources', 'numpy.ma'}} & set(sys.modules)))")
    loaded = subprocess.run([sys.executable, "-c", code.format(more="")], capture_output=True, text=True, check=True,
                            env=os.environ | {"XDG_CACHE_HOME": str(tmp_path)})
    assert loaded.stdout.strip().splitlines()[-1] == "[]"
    for _ in range(2):
        card_level = subprocess.run([sys.executable, "-c", code.format(more=", '--rules', 'catalog'")],
                                    capture_output=True, text=True, check=True)
    assert "'analyzer.routes.cardcount'" in card_level.stdout.strip().splitlines()[-1]
    assert "'numpy.ma'" not in card_level.stdout.strip().splitlines()[-1]


def test_shoe_files(tmp_path):
    toml = tmp_path / "shoe.toml"
    toml.write_text("[ranks]\nA = 32\n2 = 32\n3 = 32\n4 = 32\n5 = 32\n6 = 32\n7 = 32\n8 = 32\n9 = 32\n"
                    "10 = 32\nJ = 32\nQ = 32\nK = 32\n")
    js = tmp_path / "shoe.json"
    js.write_text(json.dumps({"cards": {f"{r}{s}": 8 for r in "A23456789TJQK" for s in "shdc"}}))
    eight = ok("edge", "--format", "json")
    assert ok("edge", "--shoe", str(toml), "--format", "json") == eight
    assert ok("edge", "--shoe", str(js), "--format", "json") == eight
    removed = json.loads(ok("odds", "--shoe", str(js), "--remove", "Ah,Ah", "--format", "json"))
    assert removed["shoe"]["ranks"]["A"] == 30


def error(*args):
    result = run(*args)
    assert result.exit_code == 1, result.output
    assert result.output.count("\n") == 1, result.output
    return result.output.rstrip("\n")


def test_errors_are_one_line(tmp_path):
    bad_toml = tmp_path / "bad.toml"
    bad_toml.write_text("[ranks\nA = 1\n")
    bad_json = tmp_path / "bad.json"
    bad_json.write_text('{"ranks": {"A": -2}}')
    tiny = tmp_path / "tiny.toml"
    tiny.write_text("[ranks]\nA = 3\nK = 2\n")
    both = tmp_path / "both.toml"
    both.write_text("[ranks]\nA = 3\n[cards]\nKs = 2\n")
    binary = tmp_path / "bin.json"
    binary.write_bytes(b"\xff\xfe\x00")
    assert error("edge", "--decks", "0") == "Error: the number of decks must be a whole number, 1 or more (got '0')"
    assert error("edge", "--decks", "-3") == "Error: the number of decks must be a whole number, 1 or more (got '-3')"
    assert error("odds", "--decks", "2.5") == "Error: the number of decks must be a whole number, 1 or more (got '2.5')"
    assert error("compare", "--decks", "1,x") == "Error: the number of decks must be a whole number, 1 or more (got 'x')"
    assert error("odds", "--remove", "Z") == (
        "Error: unknown card 'Z' (a rank A, 2-9, T or 10, J, Q, K, optionally followed by a suit s, h, d, c)")
    assert error("odds", "--remove", "Ax") == (
        "Error: unknown card 'Ax' (a rank A, 2-9, T or 10, J, Q, K, optionally followed by a suit s, h, d, c)")
    assert error("odds", "--decks", "1", "--remove", ",".join(["A"] * 5)) == "Error: cannot remove A: none left in the shoe"
    assert error("odds", "--decks", "1", "--remove", "Ah,Ah") == "Error: cannot remove Ah: none left in the shoe"
    assert error("odds", "--decks", "1", "--remove", ",".join(["K"] * 53)) == "Error: cannot remove 53 cards from a shoe of 52"
    assert error("odds", "--shoe", str(tiny)) == "Error: a shoe needs at least 6 cards to deal a coup (this one has 5)"
    assert error("edge", "--rules", "macao") == (
        "Error: unknown rule set 'macao' (rule sets: standard, commission-4, tie-9, no-commission, ez, "
        "banker-stands-on-6, catalog, lightning) - a built-in rule set, or a .toml file")
    missing = tmp_path / "missing.toml"
    assert error("odds", "--shoe", str(missing)) == f"Error: cannot read shoe file '{missing}': No such file or directory"
    assert error("odds", "--shoe", str(bad_toml)).startswith(f"Error: shoe file '{bad_toml}': not valid TOML: ")
    assert error("odds", "--shoe", str(bad_json)) == (
        f"Error: shoe file '{bad_json}': count of 'A' must be a whole number, 0 or more")
    assert error("odds", "--shoe", str(both)) == f"Error: shoe file '{both}' must have exactly one table, 'ranks' or 'cards'"
    assert error("odds", "--shoe", str(binary)).startswith(f"Error: cannot read shoe file '{binary}': ")
    assert error("odds", "--shoe", str(tiny), "--decks", "2") == "Error: give --decks or --shoe, not both"
    assert error("odds", "--format", "yaml").startswith("Error: unknown format 'yaml' (formats: json, csv, ")


def test_sizes_and_names_beyond_reason(tmp_path):
    huge = tmp_path / "huge.json"
    huge.write_text('{"ranks": {"A": ' + "9" * 5000 + "}}")
    dup = tmp_path / "dup.json"
    dup.write_text('{"cards": {"Ah": 4, "ah": 8}}')
    blank = tmp_path / "blank.json"
    blank.write_text('{"ranks": {"": 4}}')
    assert error("odds", "--decks", "1" + "0" * 800) == "Error: a shoe of more than 1,000,000,000,000 cards is not supported"
    assert error("odds", "--shoe", str(huge))== f"Error: shoe file '{huge}': not valid JSON: a number too long to read"
    assert error("odds", "--shoe", str(dup)) == f"Error: shoe file '{dup}': 'ah' and 'Ah' name the same card"
    assert error("odds", "--shoe", str(blank)) == (
        f"Error: shoe file '{blank}': unknown card rank '' (use A, 2-9, T or 10, J, Q, K)")
    for decks in ("\u0663", "1_0", "+8", "1e3"):
        assert error("odds", "--decks", decks) == f"Error: the number of decks must be a whole number, 1 or more (got '{decks}')"
    assert error("solve", "--bet", "tie", "--edge", "5%%") == "Error: not a percentage: '5%%'"


def test_no_command_shows_the_whole_help():
    result = run()
    assert result.exit_code == 2 and result.output.startswith("Usage: baccarat [OPTIONS] COMMAND [ARGS]...\n\n  Exact")
    assert "\n  report " in result.output and "[1," not in result.output  # a line per command, nothing cut
