"""`baccarat replay` and the file of coups (replay.py): each coup's figures are `now`'s before it,
each coup dealt by an independent dealer (tests/dealer.py) is accepted and read as it dealt,
and a coup the tableau could not deal, or a card not left, is refused by its line."""

import json
import random

import pytest
from click.testing import CliRunner

from analyzer.questions.analysis import analyse
from analyzer.game.cards import BaccaratError, Shoe
from analyzer.cli import cli
from analyzer.pit.replay import dealt_file, parse_coups, result_of, steps
from analyzer.bets.rulefile import get_rules
from analyzer.game.tableau import PUNTO_BANCO

from dealer import deal

RANKS, SUITS = "A23456789TJQK", "shdc"


def run(*args):
    return CliRunner().invoke(cli, list(args))


def dealt_shoe(seed: int, decks: int = 1, cut: int = 14):
    """A shoe shuffled and dealt by the independent dealer to its cut card: (lines of the file,
    [(winner, player total, banker total)])."""
    rng = random.Random(seed)
    cards = [r + s for r in RANKS for s in SUITS] * decks
    rng.shuffle(cards)
    lines, results, at = [f"burn {cards[0]} +3"], [], 4
    while len(cards) - at > cut:
        outcome = deal(cards[at:at + 6])
        taken = outcome["cards"]
        lines.append(" ".join(cards[at:at + taken]) if rng.random() < 0.5 else ", ".join(cards[at:at + taken]))
        results.append(({1: "player", -1: "banker", 0: "tie"}[outcome["winner"]], outcome["player_total"], outcome["banker_total"]))
        at += taken
    return lines, results


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_coup_the_dealer_deals_is_read_as_it_dealt(seed):
    lines, results = dealt_shoe(seed)
    shoes = parse_coups("\n".join(lines), "f")
    found = [result_of(step.coup.cards, PUNTO_BANCO) for step in steps(Shoe.decks(1), shoes, PUNTO_BANCO)]
    assert found == results and len(found) > 5


def test_each_coups_figures_are_nows_before_it(tmp_path):
    lines, _ = dealt_shoe(4, decks=2)
    assert len(lines) > 9
    path = tmp_path / "coups.txt"
    path.write_text("\n".join(lines[:9]) + "\n")
    out = run("replay", str(path), "--rules", "catalog", "--decks", "2", "--format", "json")
    assert out.exit_code == 0, out.output
    coups = json.loads(out.output)["coups"]
    assert [c["cards"] for c in coups] == [line.replace(",", "").split() for line in lines[1:9]]
    seen = lines[0].split()[1:2]  # the card turned by the burn; the three face down are not seen
    for i in (0, 3, 7):
        now = run("now", "--rules", "catalog", "--decks", "2", "--dealt", ",".join(seen + sum((c["cards"] for c in coups[:i]), [])),
                  "--format", "json")
        assert coups[i]["bets"] == json.loads(now.output)["bets"]
        assert coups[i]["cards_left"] == 104 - 4 - sum(len(c["cards"]) for c in coups[:i])
    left = Shoe.decks(2).remove(*seen, *sum((c["cards"] for c in coups[:5]), []))
    positive = sorted(r.bet.id for r in analyse(get_rules("catalog"), left) if r.ev > 0)
    assert sorted(coups[5]["positive"]) == positive


def test_a_table_of_coups_and_the_csv():
    out = run("replay", "examples/coups.txt", "--rules", "standard")
    assert out.exit_code == 0, out.output
    assert out.output.splitlines()[0].startswith("Replay of 7 coups: shoe 416 cards (8 decks) at the start; rules standard")
    csv_out = run("replay", "examples/coups.txt", "--format", "csv")
    assert csv_out.output.splitlines()[0] == "coup,cards,cards left,result,positive before it (EV)"


@pytest.mark.parametrize("text, says", [
    ("9s Kd 2h 4c\n", "line 1: the tableau deals 5 cards here, not 4 (Player 1, Banker 4: the Player draws on 1)"),
    ("8c 3c 7h 5c 2d\n", "line 1: the tableau deals 4 cards here, not 5 (Player 5, Banker 8: a natural ends it)"),
    ("As Ah Ad Ac 2s 2h 2d\n", "line 1: a coup has 4 to 6 cards (got 7: As Ah Ad Ac 2s 2h 2d)"),
    ("8c 3c 7h 5c\n8c Kd Kh 4c\n", "line 2: cannot remove 8c: none left in the shoe"),
    ("8c 3c 7h 5c\nburn 7h\n", "line 2: a burn comes before the shoe's first coup, once"),
    ("burn +40\n", "'+N' gives the cards burned face down, 0 to 20 (got '+40')"),
    ("cut\ncut\n", "line 2: the cut card came out once already"),
    ("shoe a\n8c 3c 7h 5c\nshoe a\n", "line 3: shoe 'a' is named twice"),
    ("8c 3c 7x 5c\n", "line 1: unknown card '7x'"),
    ("# nothing\n", "the file holds no coup"),
    ("8c 3c 7h 5c\ncut\n9s Kd Kh 4c\n2c 3d 3h Ts 9d 4d\n", "line 4: the coup after the cut card was the shoe's last"),
    ("burn +\u00b2\n", "'+N' gives the cards burned face down"),
    ("8" * 300 + "\n", "line 1: longer than 200 characters"),
])
def test_bad_coups_are_refused_by_their_line(tmp_path, text, says):
    path = tmp_path / "bad.txt"
    path.write_text(text)
    out = run("replay", str(path), "--decks", "1")
    assert out.exit_code == 1 and out.output.count("\n") == 1 and says in out.output, out.output


def test_shoes_in_one_file_and_now_takes_the_last():
    text = "shoe a\nburn 5h\n8c 3c 7h 5c\nshoe b\n9s Kd Kh 4c\n2c 3d 3h Ts 9d 4d\n"
    shoes = parse_coups(text, "f")
    assert [(s.name, len(s.coups)) for s in shoes] == [("a", 1), ("b", 2)]
    seen = dealt_file(text, Shoe.decks(8), PUNTO_BANCO)
    assert len(seen) == 10  # shoe b's cards: a new shoe starts full
    assert dealt_file("5\nK\n", Shoe.decks(8), PUNTO_BANCO) == [(4, None), (12, None)]  # one card a line, as before
    with pytest.raises(BaccaratError, match="line 2: the tableau deals"):
        dealt_file("8c 3c 7h 5c\n9s Kd 2h 4c\n", Shoe.decks(8), PUNTO_BANCO)


def test_now_reads_a_file_of_coups_written_as_the_page_writes_them(tmp_path):
    path = tmp_path / "coups.txt"
    path.write_text("8c 3c 7h 5c\n9s Kd Kh 4c\n")
    by_file = run("now", "--dealt-file", str(path), "--format", "json")
    by_list = run("now", "--dealt", "8c,3c,7h,5c,9s,Kd,Kh,4c", "--format", "json")
    assert by_file.exit_code == 0 and json.loads(by_file.output) == json.loads(by_list.output)


def test_now_after_a_new_shoe_begins_takes_the_full_shoe(tmp_path):
    path = tmp_path / "coups.txt"
    path.write_text(open("examples/coups.txt").read() + "shoe 2\n")
    fresh = json.loads(run("now", "--dealt-file", str(path), "--format", "json").output)
    assert fresh["shoe"]["cards"] == 416 and fresh["dealt"] == 0


def test_a_coup_from_fewer_than_six_cards_is_refused(tmp_path):
    # ten cards (four 9s, six tens): two natural coups leave 2, and a third is refused by its line
    shoe = tmp_path / "shoe.toml"
    shoe.write_text("[ranks]\n9 = 4\nT = 6\n")
    path = tmp_path / "coups.txt"
    path.write_text("9s Ts 9h Th\n9d Td 9c Tc\n9s Ts 9h Th\n")
    out = run("replay", str(path), "--shoe", str(shoe))
    assert out.exit_code == 1 and out.output == "Error: line 3: 2 cards are left in the shoe: a coup is dealt from 6 at least\n"
    path.write_text("9s Ts 9h Th\n9d Td 9c Tc\n")
    assert run("replay", str(path), "--shoe", str(shoe)).exit_code == 0


def test_a_kept_shoe_is_replayed_by_its_table_s_own_rules(tmp_path):
    out = run("replay", "--table", "t", "--rules", "catalog", "--db", f"sqlite:///{tmp_path / 'x.sqlite'}")
    assert out.exit_code == 1 and out.output == "Error: a kept shoe is replayed by its table's own rules and decks: leave out --rules\n"
    assert run("replay", "examples/coups.txt", "--shoe-number", "2").output == "Error: --shoe-number 2: examples/coups.txt holds 1 shoe\n"
    assert run("replay", "examples/coups.txt", "--db", "sqlite:///x.db").output == "Error: --db goes with --table\n"


def test_a_replay_as_a_workbook(tmp_path):
    import openpyxl
    path = tmp_path / "replay.xlsx"
    out = run("replay", "examples/coups.txt", "--rules", "standard", "--xlsx", str(path), "--format", "json")
    assert out.exit_code == 0, out.output
    coups = json.loads(out.output)["coups"]
    book = openpyxl.load_workbook(path)
    rows = list(book["coups"].iter_rows(values_only=True))
    assert rows[0][:2] == ("coup", "cards") and len(rows) == 1 + len(coups)
    figures = list(book["figures"].iter_rows(values_only=True))[1:]
    assert len(figures) == 5 * len(coups)
    assert [(f[3], f[4]) for f in figures[:5]] == [(b["bet"], b["ev"]) for b in coups[0]["bets"]]
    assert not list(tmp_path.glob("*.writing"))
    refused = run("replay", "examples/coups.txt", "--xlsx", str(tmp_path / "no" / "such" / "x.xlsx"))
    assert refused.exit_code == 1 and refused.output.startswith("Error: --xlsx: cannot write")


# -- a file of coups of any length, read a shoe at a time (issue 55) ----------------------------------


def test_a_file_is_read_a_shoe_at_a_time():
    """read_shoes hands each shoe on as soon as its last line is read: given lines that break
    after the first shoe's and the next 'shoe' line, the first shoe comes whole - the reader never
    held more than a shoe - and a parse of the text as one (parse_coups) reads the same shoes."""
    from analyzer.pit.replay import read_shoes

    first, _ = dealt_shoe(21)
    second, _ = dealt_shoe(22)
    asked = []

    def lines():
        for line in ["shoe a", *first, "shoe b"]:
            asked.append(line)
            yield line + "\n"
        raise AssertionError("a line past the first shoe's end was read before the first shoe was handed on")

    shoes = read_shoes(lines(), "f")
    shoe = next(shoes)
    assert (shoe.name, len(shoe.coups), len(asked)) == ("a", len(first) - 1, len(first) + 2)
    whole = parse_coups("\n".join(["shoe a", *first, "shoe b", *second]), "f")
    assert [(s.name, s.coups, s.burned, s.face_down) for s in whole][:1] == [(shoe.name, shoe.coups, shoe.burned, shoe.face_down)]
    assert [s.name for s in whole] == ["a", "b"] and len(whole[1].coups) == len(second) - 1


def test_a_shoe_of_more_than_a_thousand_coups_is_refused_by_its_name(tmp_path):
    """The bound of 1,000 coups is a shoe's: two shoes of 600 coups each are read (1,200 coups in
    the file), one of 1,001 refused, naming it, before anything is worked out."""
    from analyzer.pit.replay import MAX_SHOE_COUPS, read_shoes

    coup = "8c 3c 7h 5c\n"
    shoes = list(read_shoes(iter(["shoe a\n", *[coup] * 600, "shoe b\n", *[coup] * 600]), "f"))
    assert [(s.name, len(s.coups)) for s in shoes] == [("a", 600), ("b", 600)] and MAX_SHOE_COUPS == 1_000
    path = tmp_path / "long.txt"
    path.write_text("shoe 1\n" + coup * 3 + "shoe long\n" + coup * 1_001)
    out = run("replay", str(path))
    assert out.exit_code == 1 and out.output == (
        f"Error: {path}, line 1006: shoe 'long' has more than 1,000 coups (an eight-deck shoe deals about 80: is a "
        "'shoe ID' line missing?)\n"), out.output


def test_sixty_shoes_in_one_file_are_replayed_as_the_dealer_dealt_them(tmp_path):
    """A file of sixty two-deck shoes - more than 1,000 coups, and with its comments more than the
    1 MiB a file of coups once was held to - is read whole, a shoe at a time: replayed one shoe
    at a time (--shoe-number; the whole of it is more coups than a replay shows at once), each
    coup's result the independent dealer's."""
    lines, results = ["# sixty two-deck shoes"], []
    for seed in range(60):
        shoe, dealt = dealt_shoe(100 + seed, decks=2)
        lines += [f"shoe {seed + 1}", *shoe, "# " + "." * 190] + ["#" * 199] * 100  # padding: comments
        results.append(dealt)
    lines.append("# " + "x" * 100)
    path = tmp_path / "week.txt"
    path.write_text("\ufeff" + "\r\n".join(lines) + "\r\n")  # a byte-order mark and Windows line ends, as Notepad writes
    assert path.stat().st_size > 1 << 20 and sum(map(len, results)) > 1_000
    whole = run("replay", str(path), "--decks", "2")
    assert whole.exit_code == 1 and whole.output == (f"Error: {path} holds more than 1,000 coups to replay: each is shown "
                                                     "with every bet's figures; replay one shoe at a time (--shoe-number N)\n")
    for number in (1, 10, 20, 30, 40, 50, 60):
        out = run("replay", str(path), "--decks", "2", "--shoe-number", str(number), "--format", "json")
        assert out.exit_code == 0, out.output[:300]
        coups = json.loads(out.output)["coups"]
        assert [(c["result"]["winner"], c["result"]["player_total"], c["result"]["banker_total"]) for c in coups] \
            == results[number - 1]
        assert {c["shoe"] for c in coups} == {str(number)}
    assert run("replay", str(path), "--shoe-number", "61").output == f"Error: --shoe-number 61: {path} holds 60 shoes\n"


def test_a_replay_workbook_is_never_written_over_a_file_read_nor_over_one_there(tmp_path):
    lines, _ = dealt_shoe(7)
    coups = tmp_path / "coups.txt"
    coups.write_text("\n".join(lines) + "\n")
    before = coups.read_bytes()
    result = run("replay", str(coups), "--decks", "1", "--xlsx", str(coups))
    assert result.exit_code == 1 and "is one of the files read" in result.output and coups.read_bytes() == before
    there = tmp_path / "there.xlsx"
    there.write_bytes(b"mine")
    assert "exists: give --force" in run("replay", str(coups), "--decks", "1", "--xlsx", str(there)).output
    assert there.read_bytes() == b"mine"
    assert run("replay", str(coups), "--decks", "1", "--xlsx", str(there), "--force").exit_code == 0
    assert there.read_bytes()[:2] == b"PK"  # a workbook


@pytest.mark.parametrize("content, says", [
    (b"8c 3c 7h 5c\n" + b"# a comment\n" * 100_000 + b"\xff\xfe\n", "not UTF-8 text"),  # past the first MiB
    (b"8c 3c 7h 5c\n" + b"9" * 5_000_000 + b"\n", "line 2: longer than 200 characters"),
])
def test_a_file_that_cannot_be_read_is_refused_in_one_line(tmp_path, content, says):
    """A file is read a line at a time to its end, whatever its length: what cannot be read is
    said where it comes, in one line (a line of millions of characters is not read whole)."""
    path = tmp_path / "bad.txt"
    path.write_bytes(content)
    out = run("replay", str(path))
    assert out.exit_code == 1 and out.output.count("\n") == 1 and says in out.output, out.output
    folder = run("replay", str(tmp_path))
    assert folder.output == f"Error: cannot read coup file '{tmp_path}': a folder\n"
