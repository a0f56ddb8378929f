"""What a user types (issue 55): a rule file that `rules check` calls unfit is refused by every
command that reads it, a name near a known one is named (one helper for every name), a missing
file is said to be missing, and a list option takes its items repeated or comma-separated."""

import json

import pytest
from click.testing import CliRunner

from analyzer.cli import cli

UNFIT = '''name = "unfit"
[[bets]]
id = "never"
name = "Never"
lines = [{ label = "impossible", when = { player_natural = true, player_cards = 3 }, pays = 1 }]
'''
DEAD_LINE = '''name = "dead-line"
[[bets]]
id = "dragon"
name = "Dragon"
lines = [
  { label = "Banker wins", when = { winner = "banker" }, pays = 1 },
  { label = "never", when = { player_natural = true, player_cards = 3 }, pays = 5 },
]
'''


def run(*args):
    return CliRunner().invoke(cli, list(args))


@pytest.fixture
def unfit(tmp_path):
    path = tmp_path / "unfit.toml"
    path.write_text(UNFIT)
    return str(path)


@pytest.mark.parametrize("command", [["edge"], ["eor"], ["now"], ["compare"], ["runs", "--shoes", "2"],
                                     ["solve", "--bet", "never"], ["report", "--output", "OUT"]])
def test_every_command_refuses_a_file_the_check_calls_unfit(unfit, tmp_path, command):
    args = [a.replace("OUT", str(tmp_path / "out")) for a in command]
    result = run(*args, "--rules", unfit)
    check = run("rules", "check", unfit)
    assert check.exit_code == 1 and result.exit_code == 1, result.output
    error = "bet 'never': no pay line can ever settle it: the bet always loses"
    assert f"error: {error}" in check.output and f"Error: rules unfit: {error}" in result.output  # the check's words
    assert result.output == f"Error: rules unfit: {error} - the file is not fit to use (baccarat rules check {unfit} says why)\n"
    assert not (tmp_path / "out").exists()  # one line (the warnings are the check's to say); nothing written


def test_a_files_warnings_are_said_on_stderr_and_it_runs(tmp_path):
    path = tmp_path / "dead.toml"
    path.write_text(DEAD_LINE)
    result = CliRunner().invoke(cli, ["edge", "--rules", str(path), "--format", "json"])
    assert result.exit_code == 0
    assert "warning: bet 'dragon': line 2 ('never') can never settle" in result.stderr
    assert json.loads(result.stdout)["bets"][0]["bet"] == "dragon"  # stdout holds the table alone


@pytest.mark.parametrize("args, meant", [
    (["solve", "--bet", "tye"], "'tie'"),
    (["edge", "--bets", "banekr"], "'banker'"),
    (["edge", "--rules", "standrad"], "'standard'"),
    (["edge", "--format", "jsn"], "'json'"),
    (["runs", "--result", "bnker"], "'banker'"),
    (["edge", "--view", "retrns"], "'returns'"),
])
def test_a_name_near_a_known_one_is_named(args, meant):
    result = run(*args)
    assert result.exit_code != 0 and f"(did you mean {meant}?)" in result.output, result.output


def test_a_missing_rule_file_is_a_missing_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("edge", "--rules", "natural9.tml")
    assert result.exit_code == 1 and result.output == "Error: no such file: 'natural9.tml'\n"
    (tmp_path / "natural9.toml").write_text(DEAD_LINE)
    result = run("edge", "--rules", "natural9.tml")
    assert result.output == "Error: no such file: 'natural9.tml' (did you mean 'natural9.toml'?)\n"
    assert run("edge", "--rules", "sub/x").output == "Error: no such file: 'sub/x'\n"  # a path, never a rule set's name


def test_a_list_option_takes_its_items_repeated_or_comma_separated():
    repeated = run("compare", "--rules", "ez", "--rules", "standard", "--format", "json")
    commas = run("compare", "--rules", "ez,standard", "--format", "json")
    assert repeated.exit_code == 0 and commas.output == repeated.output
    assert [c["rules"] for c in json.loads(commas.output)["columns"]] == ["ez", "standard"]


def test_a_table_name_near_a_kept_one_is_named(tmp_path):
    from analyzer.pit.store import Store
    from analyzer.pit.table import table_spec

    url = f"sqlite:///{tmp_path / 'pit.db'}"
    Store(url).create_table(table_spec({"name": "bac-7", "rules": "standard", "decks": 8}))
    result = run("history", "bac7", "--db", url)
    assert result.exit_code == 1 and result.output == "Error: no table 'bac7' (did you mean 'bac-7'?)\n"
    assert run("history", "zzz", "--db", url).output == "Error: no table 'zzz'\n"


def test_a_files_warnings_are_said_once_however_often_it_is_given(tmp_path):
    path = tmp_path / "dead.toml"
    path.write_text(DEAD_LINE)
    result = CliRunner().invoke(cli, ["compare", "--rules", str(path), "--rules", str(path)])
    assert result.exit_code == 0 and result.stderr.count("can never settle") == 1


@pytest.mark.parametrize("option", [["compare", "--rules"], ["results", "--db", "sqlite:///x.db", "--table"],
                                    ["serve", "--allowed-host"]])
@pytest.mark.parametrize("value", [",", " , ", ",,"])
def test_a_list_option_given_no_item_is_refused(option, value):
    result = run(*option, value)
    assert result.exit_code == 2 and "no item given" in result.output


def test_the_file_meant_is_named_with_its_folder(tmp_path, monkeypatch):
    import os

    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "it's"
    folder.mkdir()
    for name in ("alpha.toml", "alphb.toml"):
        (folder / name).write_text(DEAD_LINE)
    os.mkfifo(folder / "alphd.toml")
    result = run("edge", "--rules", "it's/alphc.toml")  # one name meant, with its folder; never the FIFO
    assert result.output in [f"Error: no such file: \"it's/alphc.toml\" (did you mean \"it's/{name}\"?)\n"
                             for name in ("alpha.toml", "alphb.toml")]
    assert run("edge", "--rules", "it's/zzz.toml").output == "Error: no such file: \"it's/zzz.toml\"\n"
    monkeypatch.chdir(folder)
    assert run("edge", "--rules", "alpha").output == "Error: unknown rule set 'alpha' (did you mean the file 'alpha.toml'?)\n"
    (folder / "e.toml").write_text('name = "e"\nextends = "alpah.toml"\n')
    assert run("edge", "--rules", "e.toml").output in [
        f"Error: e.toml: extends: no such file: 'alpah.toml' (did you mean '{name}'?)\n" for name in ("alpha.toml", "alphb.toml")]


def test_each_command_says_a_files_warnings_again(tmp_path):
    # the warnings said once a command, not once a process (a server or a test runs many commands)
    path = tmp_path / "dead.toml"
    path.write_text(DEAD_LINE)
    for _ in range(2):
        assert "can never settle" in CliRunner().invoke(cli, ["edge", "--rules", str(path)]).stderr
