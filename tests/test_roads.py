"""The scoreboard (analyzer/pit/roads.py) against the rules as the public descriptions state them, and
against a second implementation written apart here (cells kept in a dictionary by position, the
derived roads read off it the way the descriptions tell a reader to look, the coups dealt by the
tests' own dealer), on thousands of shoes: real shuffled shoes, and sequences built to hold ties
at the start, runs past six rows and tails that block each other."""

import json
import random
from itertools import groupby

import pytest

from analyzer.game.cards import parse_card
from analyzer.pit.roads import Result, roads, shoe_roads
from analyzer.game.tableau import PUNTO_BANCO
from dealer import deal

ROWS = 6
OFFSETS = {"big_eye_boy": 1, "small_road": 2, "cockroach_pig": 3}


# -- the second implementation -----------------------------------------------------------------

def board(results):
    """(cells, ties, order): the big road as a dictionary (column, row) -> winner, the ties counted
    on each position, and the positions in the order written."""
    wins = [r for r in results if r != "T"]
    cells, order, ties = {}, [], {}
    column = -1
    for winner, run in groupby(wins):
        column += 1
        for row, _ in enumerate(run):
            cells[column, row] = winner
            order.append((column, row))
    # ties: each after its win; those before the first win on the first cell
    position = -1
    for r in results:
        if r == "T":
            key = order[max(position, 0)] if order else None
            if key is not None:
                ties[key] = ties.get(key, 0) + 1
        else:
            position += 1
    return cells, ties, order


def height(cells, column):
    return sum(1 for (c, _) in cells if c == column)


def marks(cells, order, k):
    """The derived road of offset k, read as the descriptions say: it begins at the second row of
    column k (else the top of column k + 1); a new column compares the heights of the two columns
    before it (k apart); else look k columns left on the same row: a cell there is red; none there
    and none above it either is red; none there but one above it is blue."""
    begin = (k, 1) if (k, 1) in cells else (k + 1, 0)
    if begin not in order:
        return []
    out = []
    for column, row in order[order.index(begin):]:
        if row == 0:
            out.append("R" if height(cells, column - 1) == height(cells, column - 1 - k) else "B")
        elif (column - k, row) in cells:
            out.append("R")
        elif (column - k, row - 1) not in cells:
            out.append("R")
        else:
            out.append("B")
    return out


def as_columns(sequence):
    return [list(run) for _, run in groupby(sequence)]


def drawn(heights):
    """Where a road's runs are drawn: a grid filled as a dealer's pen would, column by column; down
    while the cell below is free and on the grid, then right for good."""
    grid = {}
    places = []
    first = -1
    for number, size in enumerate(heights):
        first = next(c for c in range(first + 1, first + 1000) if (0, c) not in grid)
        row, col, going_right = 0, first, False
        for index in range(size):
            if index > 0:
                if going_right or row == ROWS - 1 or (row + 1, col) in grid:
                    going_right = True
                    col = next(c for c in range(col + 1, col + 1000) if (row, c) not in grid)
                else:
                    row += 1
            grid[row, col] = number
            places.append({"row": row, "col": col, "column": number, "index": index})
    return places


def expected(results):
    """The scoreboard of ``results`` (letters B, P, T) by the second implementation."""
    cells, ties, order = board(results)
    big = [[{"result": cells[c, r], "ties": ties.get((c, r), 0)} for r in range(height(cells, c))]
           for c in range(len({c for c, _ in cells}))]
    derived = {name: as_columns(marks(cells, order, k)) for name, k in OFFSETS.items()}
    out = {"big_road": big, **derived, "big_road_grid": drawn([len(c) for c in big])}
    out["derived_grids"] = {name: drawn([len(c) for c in columns]) for name, columns in derived.items()}
    ask = {}
    for side, letter in (("banker", "B"), ("player", "P")):
        more = board(results + [letter])
        ask[side] = {}
        for name, k in OFFSETS.items():
            before, after = marks(cells, order, k), marks(more[0], more[2], k)
            ask[side][name] = after[-1] if len(after) > len(before) else None
    out["ask"] = ask
    return out


def ours(results):
    got = roads([Result(r) for r in results])
    got["big_road"] = [[{"result": c["result"], "ties": c["ties"]} for c in column] for column in got["big_road"]]
    return {k: got[k] for k in ("big_road", *OFFSETS, "big_road_grid", "derived_grids", "ask")}


# -- shoes to try -------------------------------------------------------------------------------

def streaky(rng, n):
    """A sequence that repeats its last winner often: runs past six rows, tails that block."""
    out, last = [], rng.choice("BP")
    for _ in range(n):
        roll = rng.random()
        if roll < 0.08:
            out.append("T")
            continue
        if roll > 0.85:
            last = "P" if last == "B" else "B"
        out.append(last)
    return out


def test_the_second_implementation_agrees_on_thousands_of_sequences():
    rng = random.Random(53)
    tried = blocked = tails = 0
    for n in range(1500):
        results = streaky(rng, rng.randrange(1, 90)) if n % 3 else [rng.choice("BBBPPPT") for _ in range(rng.randrange(1, 90))]
        if n % 7 == 0:
            results = ["T"] * rng.randrange(1, 4) + results  # ties at the start
        assert ours(results) == expected(results), results
        grid = expected(results)["big_road_grid"]
        tails += any(p["index"] >= ROWS for p in grid)
        blocked += any(p["index"] < ROWS - 1 and p["row"] < ROWS - 1 and p["col"] > min(
            q["col"] for q in grid if q["column"] == p["column"]) for p in grid)
        tried += 1
    assert tried == 1500 and tails > 200 and blocked > 20  # the cases the issue names were met, often


def test_real_shoes_dealt_by_the_tests_dealer():
    rng = random.Random(7)
    for _ in range(300):
        cards = [r + s for r in "A23456789TJQK" for s in "shdc"] * 8
        rng.shuffle(cards)
        coups, letters, pairs, naturals = [], [], [], 0
        at = 0
        while len(cards) - at > 14:
            coup = deal(cards[at:])
            hand = [coup["player_hand"][0], coup["banker_hand"][0], coup["player_hand"][1], coup["banker_hand"][1],
                    *coup["player_hand"][2:], *coup["banker_hand"][2:]]
            at += len(hand)
            coups.append([parse_card(c) for c in hand])
            letters.append({1: "P", -1: "B", 0: "T"}[coup["winner"]])
            pairs.append((coup["player_pair"], coup["banker_pair"]))
            naturals += coup["player_natural"] or coup["banker_natural"]
        got = shoe_roads(coups, PUNTO_BANCO)
        assert [b["result"] for b in got["bead_plate"]] == letters
        assert [(b["player_pair"], b["banker_pair"]) for b in got["bead_plate"]] == pairs
        assert got["tallies"] == {"banker": letters.count("B"), "player": letters.count("P"), "tie": letters.count("T"),
                                  "player_pair": sum(p for p, _ in pairs), "banker_pair": sum(b for _, b in pairs),
                                  "natural": naturals}
        stripped = ours(letters)
        assert stripped == expected(letters)
        # the pairs on the big road are the win's own coup's
        wins = [(l, p) for l, p in zip(letters, pairs) if l != "T"]
        cells = [c for column in got["big_road"] for c in column]
        assert [(c["player_pair"], c["banker_pair"]) for c in cells] == [p for _, p in wins]


# -- the rules as the public descriptions state them -----------------------------------------------

def test_ties_are_counted_on_the_win_before_them():
    # Wizard of Odds, "Baccarat Score Boards": "A green line through the previous Player or Banker
    # win indicates a tie"; two ties after one win are one cell with a count of 2
    got = roads([Result(x) for x in "BTTPT"])
    assert got["big_road"] == [[{"result": "B", "ties": 2, "player_pair": False, "banker_pair": False}],
                               [{"result": "P", "ties": 1, "player_pair": False, "banker_pair": False}]]
    # our choice: ties before the first win are on the first cell; a shoe of ties alone has no big road
    assert roads([Result(x) for x in "TTB"])["big_road"][0][0]["ties"] == 2
    assert roads([Result("T")])["big_road"] == [] and roads([Result("T")])["tallies"]["tie"] == 1


def test_the_dragon_tail_turns_right_and_a_later_run_turns_above_it():
    # "Should there be a streak of seven or more consecutive wins for either side, the notation extends
    # horizontally" (the scoreboards' dragon tail); "if a streak happens to bump into a dragon along the
    # bottom of the big road, it immediately turns right" (Wizard of Odds)
    got = roads([Result(x) for x in "B" * 9 + "P" * 7])
    places = [(p["row"], p["col"]) for p in got["big_road_grid"]]
    assert places[:9] == [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (5, 0), (5, 1), (5, 2), (5, 3)]
    assert places[9:] == [(0, 1), (1, 1), (2, 1), (3, 1), (4, 1), (4, 2), (4, 3)]
    assert [len(c) for c in got["big_road"]] == [9, 7]  # logically still two columns


def test_where_each_derived_road_starts():
    # sikwin / Wizard of Odds: big eye boy starts at the second row of the second column, or, where
    # that column has one cell, at the first row of the third; the small road one column further,
    # the cockroach pig two
    # BPP: the road starts at the second row of the second column; the column before has no second row but
    # has a first: blue
    assert roads([Result(x) for x in "BPP"])["big_eye_boy"] == [["B"]]
    assert roads([Result(x) for x in "BBPP"])["big_eye_boy"] == [["R"]]  # the column before has a second row: red
    assert roads([Result(x) for x in "BPPP"])["big_eye_boy"] == [["B"], ["R"]]  # third row: two empties make red
    assert roads([Result(x) for x in "BP"])["big_eye_boy"] == []
    assert roads([Result(x) for x in "BPB"])["big_eye_boy"] == [["R"]]  # the first row of the third column: 1 = 1, red
    assert roads([Result(x) for x in "BBPB"])["big_eye_boy"] == [["B"]]  # columns of 2 and 1: unequal, blue
    assert roads([Result(x) for x in "BPBP"])["small_road"] == [["R"]]
    assert roads([Result(x) for x in "BPBPB"])["cockroach_pig"] == [["R"]]
    assert roads([Result(x) for x in "BPBP"])["cockroach_pig"] == []


def test_a_dragon_tail_does_not_change_the_derived_roads():
    # the derived roads compare columns by their lengths: the same whether a run is drawn straight
    # down (6) or turned into a tail (7 and more)
    long = roads([Result(x) for x in "B" * 8 + "PPBP"])
    # columns 8, 2, 1, 1: P row 0 starts nothing (column 1, row 0); P row 1: column 0 has a second row: red;
    # B (column 2): columns 1 and 0 are 2 and 8 long: blue; P (column 3): columns 2 and 1, 1 and 2: blue
    assert long["big_eye_boy"] == [["R"], ["B", "B"]] == expected(list("B" * 8 + "PPBP"))["big_eye_boy"]


def test_ask_is_the_mark_the_next_cell_would_get():
    results = [Result(x) for x in "BBPPB"]
    got = roads(results)
    for side, letter in (("banker", "B"), ("player", "P")):
        after = roads(results + [Result(letter)])
        for name in OFFSETS:
            before_marks = sum(map(len, got[name]))
            after_marks = [m for column in after[name] for m in column]
            expected_mark = after_marks[-1] if len(after_marks) > before_marks else None
            assert got["ask"][side][name] == expected_mark


def test_the_json_of_a_shoe_is_as_the_issue_gives_it():
    got = roads([Result("T", natural=True), Result("B", banker_pair=True), Result("P")])
    text = json.loads(json.dumps(got))
    assert set(text) >= {"tallies", "bead_plate", "big_road", "big_eye_boy", "small_road", "cockroach_pig", "big_road_grid",
                         "ask"}
    assert text["bead_plate"][0] == {"result": "T", "player_pair": False, "banker_pair": False, "natural": True}
    assert text["big_road_grid"] == [{"row": 0, "col": 0, "column": 0, "index": 0}, {"row": 0, "col": 1, "column": 1, "index": 0}]
    # a Banker next would start a third column as long as the second (1 = 1): red; a Player next, the
    # second row of the second column beside a first column of one: blue
    assert text["ask"] == {"banker": {"big_eye_boy": "R", "small_road": None, "cockroach_pig": None},
                           "player": {"big_eye_boy": "B", "small_road": None, "cockroach_pig": None}}


@pytest.mark.parametrize("n", [1, 2])
def test_shoes_of_one_or_two_coups(n):
    results = ["P", "B"][:n]
    assert ours(results) == expected(results)


# -- baccarat roads ----------------------------------------------------------------------------------

def run(*args):
    from click.testing import CliRunner

    from analyzer.cli import cli

    return CliRunner().invoke(cli, ["roads", *args])


def test_the_command_draws_and_gives_json_equal_to_the_library(tmp_path):
    from analyzer.pit.replay import parse_coups

    text = open("examples/roads_coups.txt").read()
    result = run("examples/roads_coups.txt", "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    shoe = parse_coups(text, "f")[0]
    assert data["shoes"][0] == json.loads(json.dumps({"shoe": "1", **shoe_roads([c.cards for c in shoe.coups], PUNTO_BANCO)}))
    drawn = run("examples/roads_coups.txt")
    assert drawn.exit_code == 0 and drawn.output.startswith("Shoe 1: 24 coups; Banker 11, Player 11, Tie 2;")
    assert "\x1b[" not in drawn.output and not any(line != line.rstrip() for line in drawn.output.splitlines())
    # several shoes: one board each
    two = tmp_path / "two.txt"
    two.write_text("8c 3c 7h 5c\nshoe 2\n9s Kd Kh 4c\n")
    assert [s["shoe"] for s in json.loads(run(str(two), "--format", "json").output)["shoes"]] == ["1", "2"]


@pytest.mark.parametrize("args, says", [
    ([], "Error: give COUPS (a file of coups) or --table"),
    (["nope.txt"], "Error: "),
    (["BAD", "--table", "t"], "Error: give COUPS (a file of coups) or --table"),
    (["GOOD", "--shoe-number", "2"], "Error: --shoe-number goes with --table"),
    (["ILLEGAL"], "Error: ILLEGAL, line 1: the tableau deals 5 cards here, not 4"),
    (["EMPTY"], "Error: no coup to draw the roads of"),
    (["REPEATED", "--decks", "1"], "Error: REPEATED, line 2: "),  # a card dealt more often than one deck holds
])
def test_bad_input_is_one_line(tmp_path, args, says):
    files = {"GOOD": "8c 3c 7h 5c\n", "ILLEGAL": "9h Kd 3c Ts\n", "EMPTY": "# nothing\n", "BAD": "x\n",
             "REPEATED": "9c 8d 9h Kc\n9c 8d 9h Kc\n"}
    paths = []
    for a in args:
        if a in files:
            (tmp_path / a).write_text(files[a])
            paths.append(str(tmp_path / a))
        else:
            paths.append(a)
    result = run(*paths)
    output = result.output.replace(str(tmp_path) + "/", "")
    assert result.exit_code != 0 and output.startswith(says) and len(output.strip().splitlines()) == 1, output


def test_a_kept_shoe_by_its_table(tmp_path):
    from analyzer.pit.table import record, table_spec
    from analyzer.pit.store import Store

    url = f"sqlite:///{tmp_path / 'pit.sqlite'}"
    store = Store(url)
    store.create_table(table_spec({"name": "bac-1", "rules": "standard", "burn": "none"}))
    record(store, "bac-1", {"type": "shoe", "after": 0})
    record(store, "bac-1", {"type": "coup", "cards": ["8c", "3c", "7h", "5c"], "after": 1})
    record(store, "bac-1", {"type": "coup", "cards": ["9s", "Kd", "Kh", "4c"], "after": 2})
    record(store, "bac-1", {"type": "void", "after": 3})
    store.close()
    data = json.loads(run("--table", "bac-1", "--db", url, "--format", "json").output)
    assert [b["result"] for b in data["shoes"][0]["bead_plate"]] == ["B"]  # the voided coup struck out
    assert run("--table", "bac-1", "--db", url, "--rules", "ez").output.startswith("Error: a kept shoe is drawn by its")
