"""The batch evaluator: the same exact numbers as the enumerator, shoe for shoe."""

import json
import os
import random
import subprocess
import sys

import numpy as np
import pytest
from click.testing import CliRunner

from analyzer.routes.basis import hand_classes_of
from analyzer.routes.batch import BLOCK, FEW_SHOES, evaluate_many
from analyzer.routes.compiled import FAST_CARDS, FLOAT_EXACT, analyse_one, compile_rules, hand_class_counts, plan_of
from analyzer.routes.shoefile import json_lines, parse_shoe_lines
from analyzer.questions.analysis import analyse, enumerated
from analyzer.game.cards import BaccaratError, Shoe
from analyzer.cli import cli
from analyzer.game.engine import falling, head_counts
from analyzer.bets.rulefile import get_rules, parse_rules

from test_engine import random_shoe

CATALOG = get_rules("catalog").value_level()  # the card-level bets: test_card_level_bets_in_a_batch
FLOAT_LIMIT = max(n for n in range(400, 500) if falling(n, 6) <= FLOAT_EXACT)  # 459 cards: above, the split path


def assert_same_as_enumerator(rules, shoes):
    """The polynomials, many shoes at once and one shoe at a time (analyse once compiled), give
    the enumerator's exact results."""
    compile_rules(rules)
    batch = evaluate_many(rules, shoes)
    for i, shoe in enumerate(shoes):
        expected = enumerated(rules, shoe)
        assert [r.sequences for r in analyse(rules, shoe)] == [r.sequences for r in expected], shoe.describe()
        got = batch.results(i)
        for b, (want, have) in enumerate(zip(expected, got)):
            assert have.line_probabilities == want.line_probabilities, (shoe.describe(), want.bet.id)
            assert have.loss == want.loss, (shoe.describe(), want.bet.id)
            assert batch.ev(i, b) == want.ev, (shoe.describe(), want.bet.id)
            assert bool(batch.positive()[i, b]) == (want.ev > 0)


def random_rank_shoes(rng, count, low, high):
    return [Shoe.from_ranks([rng.randint(low, high) for _ in range(13)]) for _ in range(count)]


def test_batch_equals_enumerator_on_hundreds_of_shoes():
    rng = random.Random(5)
    shoes = random_rank_shoes(rng, 60, 0, 3)  # small and depleted: 6 to 39 cards
    shoes = [s for s in shoes if s.size >= 6]
    shoes += random_rank_shoes(rng, 60, 20, 32)  # up to 8 decks
    shoes += [random_shoe(rng, rng.randint(6, 416)) for _ in range(60)]  # suits uneven
    shoes += random_rank_shoes(rng, 40, 33, 70)  # beyond 8 decks: the split (two-product) path
    assert any(s.size > FLOAT_LIMIT for s in shoes) and any(s.size <= FLOAT_LIMIT for s in shoes)
    assert len(shoes) >= 200
    assert_same_as_enumerator(CATALOG, shoes)


def test_card_level_bets_in_a_batch():
    # Each card-level bet takes its own columns, counted shoe by shoe at its card detail (the
    # counts themselves are checked against brute force in test_cards.py): the same results as
    # analyse on depleted shoes with uneven suits, beside the value-level bets.
    rng = random.Random(12)
    shoes = [Shoe.decks(1), Shoe.decks(2).without_cards([(12, 1), (12, 2), (0, 0), (9, None), (3, 3)])]
    shoes += [random_shoe(rng, rng.randint(8, 60)) for _ in range(3)]
    assert_same_as_enumerator(get_rules("catalog"), shoes)


def test_batch_at_the_float_boundary_and_beyond_int64():
    eight = Shoe.decks(8)
    at_limit = Shoe.from_ranks([FLOAT_LIMIT // 13 + (r < FLOAT_LIMIT % 13) for r in range(13)])
    past_limit = Shoe.from_ranks([(FLOAT_LIMIT + 1) // 13 + (r < (FLOAT_LIMIT + 1) % 13) for r in range(13)])
    huge = Shoe.from_ranks([(FAST_CARDS + 13) // 13] * 13)  # beyond int64: the enumerator, Python integers
    assert (at_limit.size, past_limit.size, huge.size > FAST_CARDS) == (FLOAT_LIMIT, FLOAT_LIMIT + 1, True)
    assert_same_as_enumerator(CATALOG, [eight, at_limit, past_limit, huge])


def test_numerators_in_int64_where_the_counts_themselves_bound_them():
    # The catalogue pays 6,000 to 1 (Grand Monkey): max(weight) x N(N-1)...(N-5) passes 2**63 on
    # 8 decks, so the counts bound the sums (batch.numerators_of); the int64 numerators are the
    # Python integers' exactly, and a huge weight on a line that holds often goes to Python integers.
    full = get_rules("catalog")
    rng = random.Random(9)
    shoes = [random_shoe(rng, rng.randint(300, 416)) for _ in range(FEW_SHOES)]
    batch = evaluate_many(full, shoes)
    assert batch.numerators.dtype == np.int64
    plan = batch.plan
    exact = batch.lines.astype(object) @ plan.weights - batch.total.astype(object)[:, None] * plan.scale[None, :]
    assert (batch.numerators.astype(object) == exact).all()
    tie = parse_rules('name = "t"\n[[bets]]\nid = "t"\nlines = [{ label = "no tie", when = { winner = ["banker", "player"] }, '
                      'pays = 5000 }]\n', "t.toml", None)
    assert evaluate_many(tie, shoes).numerators.dtype == object


@pytest.mark.parametrize("name", ["banker-stands-on-6", "ez", "standard", "commission-4"])
def test_batch_other_rule_sets_and_tableaux(name):
    rng = random.Random(name)
    assert_same_as_enumerator(get_rules(name), random_rank_shoes(rng, 12, 1, 32))


def test_a_line_mixing_pairs_and_totals_goes_through_the_enumerator():
    rules = parse_rules("""
        name = "mixed"
        [[bets]]
        id = "pair_and_win"
        name = "Player pair and Player wins"
        lines = [{ label = "pair and win", when = { player_pair = true, winner = "player" }, pays = 30 }]
        [[bets]]
        id = "player"
        name = "Player"
        lines = [{ label = "win", when = { winner = "player" }, pays = 1 }, { label = "tie", when = { winner = "tie" }, pays = "push" }]
    """, "test", None)
    plan = compile_rules(rules)
    assert len(plan.column_cells) - plan.value_columns - len(plan.class_sets) == 1  # one mixed line
    assert plan.polynomials.basis.shape[0] == 2
    assert_same_as_enumerator(rules, random_rank_shoes(random.Random(1), 6, 2, 12))


def test_hand_class_counts_equal_the_enumerators_head():
    rng = random.Random(9)
    shoes = [random_shoe(rng, rng.randint(6, 60), suits=rng.choice([(0,), (0, 1), range(4)])) for _ in range(20)]
    got = hand_class_counts(np.array([s.counts for s in shoes]))
    for shoe, h in zip(shoes, got):
        head = head_counts(shoe).sum((0, 1, 2, 3))  # [player class, banker class]
        assert (h == head * (shoe.size - 4) * (shoe.size - 5)).all()
        assert hand_classes_of(shoe.counts) == h.ravel().tolist()  # the one-shoe form, in Python integers


def test_one_shoe_on_every_path_at_its_smallest_and_largest_shoes():
    # analyse_one: float64 products up to FLOAT_LIMIT cards, two 26-bit halves up to FAST_CARDS,
    # beyond that (and below 6 cards) it declines and analyse takes the enumerator.
    rules = get_rules("ez")  # value lines, pair lines and a three-card-7 push
    plan = compile_rules(rules)
    rng = random.Random(14)
    sizes = [6, 7, FLOAT_LIMIT, FLOAT_LIMIT + 1, FAST_CARDS]
    for size in sizes:
        for _ in range(2):
            shoe = random_shoe(rng, size)
            assert [r.sequences for r in analyse_one(plan, shoe)] == [r.sequences for r in enumerated(rules, shoe)], size
    assert analyse_one(plan, random_shoe(rng, FAST_CARDS + 1)) is None
    assert analyse_one(plan, Shoe.from_ranks([1] * 5 + [0] * 8)) is None


def test_one_blas_thread_leaves_the_callers_setting_when_threads_overlap():
    # Every product runs on one BLAS thread; contexts entered from several threads at once
    # share one limit, and the last to leave restores what the caller had. (Each context saving
    # and restoring alone left 1 thread behind: seen from BLAS's default, in a fresh interpreter.)
    code = ("import threading; from threadpoolctl import threadpool_info\n"
            "from analyzer import Shoe, analyse, get_rules; from analyzer.routes.batch import compile_rules\n"
            "rules = get_rules('standard'); compile_rules(rules)\n"
            "blas = lambda: [i['num_threads'] for i in threadpool_info() if i['user_api'] == 'blas']\n"
            "before = blas()\n"
            "threads = [threading.Thread(target=lambda: [analyse(rules, Shoe.decks(8)) for _ in range(300)]) for _ in range(8)]\n"
            "[t.start() for t in threads]; [t.join() for t in threads]\nprint(json.dumps([before, blas()]))")
    env = {k: v for k, v in os.environ.items() if not k.endswith("_NUM_THREADS")}
    result = subprocess.run([sys.executable, "-c", "import json; " + code], capture_output=True, text=True, check=True, env=env)
    before, after = json.loads(result.stdout)
    assert before == after


def test_one_blas_thread_holds_in_whichever_thread_enters_it():
    # threadpoolctl lets only the first thread that set OpenBLAS's limit set it while it lives: a
    # context entered in another thread then ran its products on every BLAS thread (and a limit
    # taken in one thread and restored in another stayed). Seen inside the context, from a worker
    # thread after the main thread had used one.
    code = ("import json, threading; from threadpoolctl import threadpool_info\n"
            "from analyzer.routes.batch import one_blas_thread\n"
            "blas = lambda: [i['num_threads'] for i in threadpool_info() if i['user_api'] == 'blas']\n"
            "with one_blas_thread(): pass\n"
            "seen = []\n"
            "def work():\n    with one_blas_thread(): seen.append(blas())\n"
            "t = threading.Thread(target=work); t.start(); t.join()\nprint(json.dumps([blas(), seen[0]]))")
    env = {k: v for k, v in os.environ.items() if not k.endswith("_NUM_THREADS")} | {"OPENBLAS_NUM_THREADS": "2"}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    outside, inside = json.loads(result.stdout)
    assert outside == [2] and inside == [1]


def test_few_shoes_take_the_enumerator_until_the_rule_set_is_compiled():
    rules = get_rules("standard").only(["banker", "tie", "player_pair"])  # a new rule set: not compiled
    plan = plan_of(rules)
    shoes = random_rank_shoes(random.Random(3), FEW_SHOES - 1, 2, 30)
    batch = evaluate_many(rules, shoes)
    assert not plan.compiled  # the enumerator, shoe by shoe
    assert [batch.results(i)[0].sequences for i in range(len(shoes))] == [enumerated(rules, s)[0].sequences for s in shoes]
    evaluate_many(rules, shoes + shoes[:1])
    assert plan.compiled  # FEW_SHOES shoes: worth the polynomials


def test_value_lines_span_few_columns():
    plan = compile_rules(CATALOG)
    columns = plan.value_columns
    # 74 value-level columns (Banker Streak's "Player or tie" among them) span 56 polynomials: the
    # other lines are integer sums of those (36 of 50 before issue 41 added 24 bets; 3 Giving 8,
    # issue 42, one more of each)
    assert plan.polynomials.basis.shape == (56, 5005) and columns == 74


def test_shoe_forms_and_errors():
    ranks = [32] * 13
    by_rank, by_card = evaluate_many(CATALOG, [ranks]), evaluate_many(CATALOG, np.array([Shoe.decks(8).counts]))
    assert (by_rank.numerators == by_card.numerators).all()
    for bad, message in [([[1] * 12], "13 rank counts"), ([[-1] + [32] * 12], "shoe 1: card counts must be 0 or more"),
                         ([[0.5] * 13], "whole-number"), ([[0] * 12 + [5]], "shoe 1: a shoe needs at least 6 cards")]:
        with pytest.raises(BaccaratError, match=message):
            evaluate_many(CATALOG, bad)
    symbolic = parse_rules("""
        name = "x"
        symbols = ["k"]
        [[bets]]
        id = "tie"
        name = "Tie"
        lines = [{ label = "tie", when = { winner = "tie" }, pays = "k" }]
    """, "test", None)
    with pytest.raises(BaccaratError, match="symbolic payout"):
        evaluate_many(symbolic, [ranks])


def test_parse_shoe_lines_errors():
    assert parse_shoe_lines("\n# comment\n 1, 2,3,4,5,6,7,8,9,10,11,12,13 \n") == [list(range(1, 14))]
    for text, message in [("1,2,3", "line 1: expected 13 comma-separated counts"),
                          ("# c\n" + ",".join(["x"] * 13), "line 2: 'x' is not a card count"),
                          (",".join(["-1"] * 13), "'-1' is not a card count"),
                          (",".join(["0"] * 13), "line 1: a shoe needs at least 6 cards")]:
        with pytest.raises(BaccaratError, match=message):
            parse_shoe_lines(text)


def test_batch_command_writes_exact_json_lines(tmp_path):
    shoes = [[32] * 13, [4] * 13, [3, 0, 5, 2, 7, 1, 0, 4, 4, 9, 1, 2, 3]]
    path = tmp_path / "shoes.txt"
    path.write_text("# three shoes\n" + "\n".join(",".join(map(str, s)) for s in shoes) + "\n")
    result = CliRunner().invoke(cli, ["batch", str(path)])
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["shoe"] for line in lines] == shoes
    for line, counts in zip(lines, shoes):  # every bet, card-level ones too
        expected = {r.bet.id: str(r.ev) for r in enumerated(get_rules("catalog"), Shoe.from_ranks(counts))}
        assert {k: v["ev"] for k, v in line["bets"].items()} == expected
    assert result.stderr == ""
    piped = CliRunner().invoke(cli, ["batch", "-", "--rules", "standard"], input=path.read_text())
    assert [set(json.loads(line)["bets"]) for line in piped.output.splitlines()] == [{"banker", "player", "tie", "player_pair", "banker_pair"}] * 3


def test_json_lines_write_what_json_dumps_writes():
    # The batch writer formats by template, in groups, with numpy's gcd (int64) or Python's
    # (beyond FAST_CARDS cards): the same text as json.dumps of each shoe's exact EVs.
    rows = [[32] * 13, [1] * 13, [(FAST_CARDS + 13) // 13] * 13, [0] * 9 + [2] * 4, [5, 0, 3, 1, 0, 2, 9, 0, 4, 1, 0, 0, 2]]
    batch = evaluate_many(CATALOG, rows)
    lines = "\n".join(json_lines(batch, rows, group=2)).splitlines()
    assert len(lines) == len(rows)
    for i, text in enumerate(lines):
        assert text == json.dumps({"shoe": rows[i], "bets": {bet.id: {"ev": str(batch.ev(i, b))} for b, bet in enumerate(batch.bets)}})
    assert '"ev": "-1"' in lines[3]  # a shoe of ten-value cards and nines: an EV of exactly -1 is written "-1"


def test_batch_lines_by_card_for_bets_on_suits():
    one_deck = [1] * 52
    no_red_aces = [1, 0, 0, 1] + [1] * 48  # As, Ah, Ad, Ac, 2s, ...
    text = "\n".join(",".join(map(str, s)) for s in ([4] * 13, one_deck, no_red_aces))
    result = CliRunner().invoke(cli, ["batch", "-", "--bets", "colour_match,player"], input=text)
    assert result.exit_code == 0 and "Note" not in result.stderr, result.output
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["shoe"] for line in lines] == [[4] * 13, one_deck, no_red_aces]
    assert lines[0]["bets"] == lines[1]["bets"]  # 4 of each rank spread evenly is one deck
    shoe = Shoe(tuple(tuple(no_red_aces[4 * r:4 * r + 4]) for r in range(13)))
    expected = {r.bet.id: str(r.ev) for r in enumerated(get_rules("catalog").only(["player", "colour_match"]), shoe)}
    assert {k: v["ev"] for k, v in lines[2]["bets"].items()} == expected != lines[1]["bets"]


def test_batch_command_checks_everything_before_writing():
    result = CliRunner().invoke(cli, ["batch", "-"], input=",".join(["8"] * 13) + "\n1,2\n")
    assert result.exit_code == 1
    assert result.output == ("Error: line 2: expected 13 comma-separated counts (A,2,3,4,5,6,7,8,9,T,J,Q,K) "
                             "or 52 (As,Ah,Ad,Ac,2s,...,Kc), got 2\n")
    assert BLOCK >= 1000


def test_batch_command_reads_bytes_carefully(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"\xff\xfe32\n")
    result = CliRunner().invoke(cli, ["batch", str(bad)])
    assert result.exit_code == 1 and result.output == f"Error: cannot read shoe list '{bad}': not UTF-8 text\n"
    bom = CliRunner().invoke(cli, ["batch", "-", "--rules", "standard"], input="\ufeff" + ",".join(["4"] * 13) + "\n")
    assert bom.exit_code == 0 and json.loads(bom.output)["shoe"] == [4] * 13
    huge = CliRunner().invoke(cli, ["batch", "-"], input="# c\n" + ",".join(["2000000"] + ["1"] * 12) + "\n")
    assert huge.output == "Error: line 2: 2000000 cards of one rank is more than a shoe can hold (1,000,000 at most)\n"
    assert CliRunner().invoke(cli, ["batch", "-"], input="").output == ""
