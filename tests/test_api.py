"""The library as a notebook uses it: cards as written, rule sets by name, plain records, and
every mistake a BaccaratError that names the call's own parameters (the CLI names its flags)."""

import ast
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from analyzer import (BaccaratError, Bet, Knowledge, Shoe, Tableau, analyse, enumerate_coup, enumerated, evaluate,
                      get_rules, line, load_rules, load_shoe, make_shoe, parse_rules, records, where)
from analyzer.cli import cli
from analyzer.questions.simulate import Deal

ANALYZER = Path(__file__).resolve().parent.parent / "analyzer"
ONE_DECK = Shoe.decks(1)


def test_remove_takes_cards_as_written():
    five = ONE_DECK.remove("5")
    assert five.rank_counts()[4] == 3 and five.size == 51  # the rank 5, not the sixth rank
    assert ONE_DECK.remove(5) == five and ONE_DECK.remove(" 5 ") == five
    assert ONE_DECK.remove("Ah").counts[0] == (1, 0, 1, 1)
    assert ONE_DECK.remove("10") == ONE_DECK.remove("T") == ONE_DECK.remove(10) != ONE_DECK.remove("K")
    assert ONE_DECK.remove("5,K", "Ah") == ONE_DECK.remove("5").remove("K").remove("Ah")
    assert ONE_DECK.remove("5", "5", "5", "5").rank_counts()[4] == 0
    with pytest.raises(BaccaratError, match="cannot remove 5: none left"):
        ONE_DECK.remove(*["5"] * 5)


def test_without_card_is_by_index():
    assert ONE_DECK.without_card(4) == ONE_DECK.remove("5")
    assert ONE_DECK.without_card(0, 1) == ONE_DECK.remove("Ah")


BAD_CALLS = {
    "remove(None)": lambda: ONE_DECK.remove(None),
    "remove(True)": lambda: ONE_DECK.remove(True),
    "remove(5.0)": lambda: ONE_DECK.remove(5.0),
    "remove(1)": lambda: ONE_DECK.remove(1),  # an ace is "A"
    "remove('Z')": lambda: ONE_DECK.remove("Z"),
    "without_card(13)": lambda: ONE_DECK.without_card(13),
    "without_card(0, 4)": lambda: ONE_DECK.without_card(0, 4),
    "decks('8')": lambda: Shoe.decks("8"),
    "from_ranks(5)": lambda: Shoe.from_ranks(5),
    "Shoe(5)": lambda: Shoe(5),
    "analyse(None, shoe)": lambda: analyse(None, ONE_DECK),
    "analyse('nope', shoe)": lambda: analyse("nope", ONE_DECK),
    "analyse(rules, None)": lambda: analyse("standard", None),
    "analyse(rules, 8)": lambda: analyse("standard", 8),
    "analyse(knowledge=5)": lambda: analyse("standard", ONE_DECK, 5),
    "Knowledge.parse(None)": lambda: Knowledge.parse(None),
    "Knowledge().at(1, None)": lambda: Knowledge().at(1, None),
    "Knowledge().at(7, '9')": lambda: Knowledge().at(7, "9"),
    "get_rules(None)": lambda: get_rules(None),
    "get_rules(5)": lambda: get_rules(5),
    "parse_rules(None)": lambda: parse_rules(None),
    "enumerate_coup(None)": lambda: enumerate_coup(None),
    "enumerate_coup(shoe, None)": lambda: enumerate_coup(ONE_DECK, None),
    "evaluate('tie', dist)": lambda: evaluate("tie", enumerate_coup(ONE_DECK)),
    "records(None)": lambda: records(None),
    "records([1])": lambda: records([1]),
    "load_shoe(None)": lambda: load_shoe(None),
    "make_shoe(remove=5)": lambda: make_shoe(remove=5),
    "line('a', ...)": lambda: line("a", "x", winner="banker"),
    "where(winner='nobody')": lambda: where(winner="nobody"),
    "line('1e99999999', ...)": lambda: line("1e99999999", "x", winner="tie"),  # refused at once, never made an integer
    "line(-5, ...)": lambda: line(-5, "x", winner="tie"),
    "line(True, ...)": lambda: line(True, "x", winner="tie"),
    "line(10**100, ...)": lambda: line(10**100, "x", winner="tie"),
    "Knowledge.parse(['1=9', None])": lambda: Knowledge.parse(["1=9", None]),
    "Knowledge.parse([b'1=9'])": lambda: Knowledge.parse([b"1=9"]),
    "Knowledge().at(1.0, '9')": lambda: Knowledge().at(1.0, "9"),
    "Knowledge().at(True, '9')": lambda: Knowledge().at(True, "9"),
    "Knowledge(5)": lambda: Knowledge(5),
    "Knowledge(('a' * 52, ...))": lambda: Knowledge(("a" * 52,) + (None,) * 5),
    "parse_rules(text, base_dir='/tmp')": lambda: parse_rules("name = 'x'\nextends = 'y.toml'", base_dir="/tmp"),
    "load_rules(None)": lambda: load_rules(None),
    "load_rules('')": lambda: load_rules(""),
    "get_rules('a\\0b.toml')": lambda: get_rules("a\0b.toml"),
    "without_cards('5K')": lambda: ONE_DECK.without_cards("5K"),
    "without_cards([(0,)])": lambda: ONE_DECK.without_cards([(0,)]),
    "Bet(lines=None)": lambda: Bet("x", "x", None),
    "Bet(commission='5%')": lambda: Bet("x", "x", (line(1, "x", winner="tie"),), commission="5%"),
    "Tableau('x', 5, 5)": lambda: Tableau("x", 5, 5),
}


@pytest.mark.parametrize("call", BAD_CALLS)
def test_every_mistake_is_a_baccarat_error(call):
    with pytest.raises(BaccaratError):
        BAD_CALLS[call]()


def test_a_known_list_is_taken_as_a_tuple():
    assert Knowledge(([True] * 52,) + (None,) * 5) == Knowledge(((True,) * 52,) + (None,) * 5)


def test_analyse_takes_a_rule_set_by_name_and_known_cards_as_text(tmp_path):
    path = tmp_path / "ez.toml"
    path.write_text('name = "mine"\nextends = "ez"\n')
    assert [r.ev for r in analyse(path, Shoe.decks(8))] == [r.ev for r in analyse("ez", Shoe.decks(8))]
    shoe = Shoe.decks(2).remove("5", "Ah")
    by_name, by_object = analyse("ez", shoe), analyse(get_rules("ez"), shoe)
    assert [r.ev for r in by_name] == [r.ev for r in by_object] == [r.ev for r in enumerated("ez", shoe)]
    known = [r.ev for r in analyse("standard", shoe, Knowledge.parse(["1=6-9", "5=0"]))]
    assert [r.ev for r in analyse("standard", shoe, ["1=6-9", "5=0"])] == known
    assert [r.ev for r in analyse("standard", shoe, "1=6-9")] == [r.ev for r in analyse("standard", shoe, ["1=6-9"])]


def test_records_are_plain_and_exact():
    results = analyse("standard", Shoe.decks(8))
    rows = records(results)
    assert [row["bet"] for row in rows] == ["banker", "player", "tie", "player_pair", "banker_pair"]
    for row, result in zip(rows, results):
        assert row["house_edge"] == -row["ev"] == result.house_edge and isinstance(row["ev"], Fraction)
        assert row["win"] + row["push"] + row["loss"] == 1
        assert sum(row["sequences"]) + row["loss"] * row["total"] == row["total"] == 4998398275503360
    assert rows[0]["name"] == "Banker" and rows[2]["hits_one_in"] == 1 / rows[2]["win"]


def test_records_make_a_data_frame():
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame(records(analyse("standard", Shoe.decks(8)))).set_index("bet")
    assert frame.loc["tie", "ev"] == analyse("standard", Shoe.decks(8))[2].ev  # the exact Fraction, kept
    assert list(frame.index) == ["banker", "player", "tie", "player_pair", "banker_pair"]


def test_errors_name_parameters_in_the_library_and_flags_on_the_command_line():
    with pytest.raises(BaccaratError) as caught:
        make_shoe(decks=2, shoe_file="x.toml")
    assert str(caught.value) == "give decks or shoe_file, not both"
    with pytest.raises(BaccaratError, match="^burn is face, none or a number of cards"):
        Deal(8, 14, "two")
    runner = CliRunner()
    assert runner.invoke(cli, ["simulate", "--burn", "two"]).output.startswith("Error: --burn is face, none or a number")
    assert runner.invoke(cli, ["count", "--bet", "banker", "--tags", "1,2"]).output.startswith("Error: --tags takes 10 integers")
    assert runner.invoke(cli, ["simulate", "--count", "1,2", "--bet", "banker"]).output.startswith("Error: --count takes 10")
    # what the user wrote is shown as written, even where it looks like a name the message fills in
    assert runner.invoke(cli, ["simulate", "--burn", "{burn}"]).output == (
        "Error: --burn is face, none or a number of cards (got '{burn}')\n")
    assert runner.invoke(cli, ["count", "--bet", "banker", "--tags", "{tags}"]).output == (
        "Error: --tags takes 10 integers, A,2,...,9,T (T for all ten-value cards); got '{tags}'\n")


def library_modules():
    return [p for p in ANALYZER.rglob("*.py") if p.relative_to(ANALYZER).parts[0] not in ("cli", "__main__.py")]


def test_the_library_knows_nothing_of_the_command_line():
    for path in library_modules():
        tree = ast.parse(path.read_text())
        imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
        imported |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
        assert "click" not in imported and "cli" not in imported, path
        for node in ast.walk(tree):  # no flag in the text of an error the library raises
            if isinstance(node, ast.Raise) and node.exc is not None:
                texts = [n.value for n in ast.walk(node.exc) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
                assert not any("--" in t for t in texts), (path, node.lineno, texts)
