"""A value-level rule set's plan for one shoe in Python integers (lean.py): the same results as the
enumerator and as real cards dealt, kept the second time a process asks, read without numpy, and
never a wrong figure when its file is damaged, foreign or cannot be written."""

import os
import random
import subprocess
import sys
from collections import Counter
from itertools import permutations

import pytest

from analyzer.routes import lean, plancache
from analyzer.questions.analysis import analyse, enumerated
from analyzer.routes.batch import multisets as batch_multisets, plan_of
from analyzer.game.cards import RANKS, Shoe
from analyzer.bets.rulefile import get_rules, parse_rules
from dealer import deal

RULES = parse_rules('''name = "t"
[[bets]]
id = "suited"
lines = [ { label = "suited", when = { player_suited = true }, pays = 3 } ]
[[bets]]
id = "big"
lines = [ { label = "by four", when = { winner = "banker", margin = [4, 5, 6, 7, 8, 9] }, pays = 2 },
          { label = "eight", when = { player_third = 8 }, pays = 5 } ]
[[bets]]
id = "pair"
lines = [ { label = "pair", when = { banker_pair = true }, pays = 11 } ]
''', "t.toml", None)  # a class line (suited), value lines (margin, third card), a pair
MIXED = parse_rules('''name = "m"
[[bets]]
id = "mixed"
lines = [ { label = "pair and win", when = { player_pair = true, winner = "player" }, pays = 20 } ]
''', "m.toml", None)  # a line that reads values and hand classes at once: the enumerator's


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """An empty cache folder of this test's own, and nothing found in this process."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    lean._KEPT.clear()
    yield tmp_path / "baccarat"
    lean._KEPT.clear()


def shoe_of(cards):
    """The shoe of these physical cards (rank + suit, such as 'Th')."""
    counts = [[0] * 4 for _ in RANKS]
    for card in cards:
        counts[RANKS.index(card[0])]["cdhs".index(card[1])] += 1
    return Shoe(counts)


def figures(results):
    return [(r.bet.id, r.sequences, r.total) for r in results]


def uneven_shoes(rng, count):
    """Shoes of 1 to 30 decks with random cards gone (suits uneven), and a few of 6 to 12 cards."""
    for _ in range(count):
        shoe = Shoe.decks(rng.choice([1, 2, 8, 30]))  # 30 decks: past int64's monomials (1,290 cards)
        gone = Counter(rng.choice(RANKS) + rng.choice("cdhs") for _ in range(rng.randrange(40)))
        yield shoe.remove(*[card for card, n in gone.items() for _ in range(min(n, shoe.size // 52))])
    for size in (6, 7, 12):
        yield shoe_of(rng.sample([r + s for r in RANKS for s in "cdhs"], size))


def test_the_lean_plan_equals_the_enumerator():
    rng = random.Random(37)
    for rules in (get_rules("standard"), get_rules("ez"), get_rules("banker-stands-on-6"), RULES):
        plan = lean.lean_of(plan_of(rules))
        read = lean.Lean.from_bytes(plan.to_bytes(), len(rules.bets))  # as a later process reads it
        for shoe in uneven_shoes(rng, 6):
            assert figures(read.results(rules, shoe)) == figures(plan.results(rules, shoe)) == figures(enumerated(rules, shoe))


def test_the_lean_plan_equals_real_cards_dealt():
    # every ordered 6-card sequence of nine real cards, suits uneven, dealt by the tests' own dealer
    cards = ["Ah", "Ad", "5h", "Th", "Kh", "Ks", "8c", "3h", "3d"]
    tally = Counter()
    for sequence in permutations(cards, 6):
        coup = deal(sequence)
        tally["suited"] += coup["player_suited"]
        tally["by four"] += coup["winner"] == -1 and coup["banker_total"] - coup["player_total"] >= 4
        tally["eight"] += not (coup["winner"] == -1 and coup["banker_total"] - coup["player_total"] >= 4) \
            and coup["player_third"] == 8
        tally["pair"] += coup["banker_pair"]
    shoe = shoe_of(cards)
    results = lean.lean_of(plan_of(RULES)).results(RULES, shoe)
    assert [r.sequences for r in results] == [(tally["suited"],), (tally["by four"], tally["eight"]), (tally["pair"],)]
    assert {r.total for r in results} == {9 * 8 * 7 * 6 * 5 * 4}
    assert tally["suited"] and tally["by four"] and tally["eight"] and tally["pair"]  # every line is dealt


def test_the_monomials_are_in_the_order_of_the_batch_columns():
    assert lean.multisets() is batch_multisets() and len(lean.multisets()) == 5005
    assert lean.multisets() == sorted(lean.multisets(), key=lambda m: (m[-1], m.count(m[-1]), m[::-1]))
    v = [5, 0, 3, 9, 1, 2, 7, 4, 6, 8]
    for m, value in zip(lean.multisets(), lean.falling_monomials(v)):
        expected = 1
        for x in set(m):
            for c in range(m.count(x)):
                expected *= v[x] - c
        assert value == expected


def test_the_plan_is_kept_the_second_time_and_then_answers(cache):
    rules, shoe = get_rules("standard"), Shoe.decks(6).remove("9h", "Ks")
    assert lean.analyse(rules, shoe) is None  # first: marked only (a rule file asked once never compiles)
    assert [p.name[:5] for p in cache.iterdir()] == ["seen-"]
    lean._KEPT.clear()  # a new process
    assert figures(lean.analyse(rules, shoe)) == figures(enumerated(rules, shoe))  # second: compiled and kept
    assert len(list(cache.glob("lean-*.bin"))) == 1 and not list(cache.glob("seen-*"))  # the mark gone
    lean._KEPT.clear()
    assert figures(lean.analyse(rules, Shoe.decks(2))) == figures(enumerated(rules, Shoe.decks(2)))  # read back
    assert figures(analyse(rules, shoe)) == figures(enumerated(rules, shoe))  # the front door takes it


def test_a_plan_mixing_values_and_hand_classes_is_left_to_the_enumerator_once_for_all(cache):
    for _ in range(3):
        lean._KEPT.clear()
        assert lean.analyse(MIXED, Shoe.decks(8)) is None
    assert plancache.load_bytes(plancache.key("lean", MIXED)) == lean.ENUMERATOR  # not compiled at every process
    assert figures(analyse(MIXED, Shoe.decks(8))) == figures(enumerated(MIXED, Shoe.decks(8)))
    assert lean.analyse(get_rules("catalog"), Shoe.decks(8)) is None  # card-level bets: not asked of disk at all
    assert lean.analyse(get_rules("standard"), shoe_of(["Ah", "2h", "3h", "4h", "5h"])) is None  # 5 cards


@pytest.mark.parametrize("damage", ["truncate", "flip", "foreign", "other rules"])
def test_a_damaged_or_foreign_plan_is_never_a_wrong_figure(cache, damage):
    rules, other, shoe = get_rules("standard"), get_rules("ez"), Shoe.decks(8).remove("Ah")
    for kept in (rules, other):
        for _ in range(2):
            lean._KEPT.clear()
            lean.analyse(kept, shoe)
    path = plancache.path_of(plancache.key("lean", rules), bytes)
    data = path.read_bytes()
    if damage == "truncate":
        path.write_bytes(data[: len(data) // 2])
    elif damage == "flip":
        path.write_bytes(data[:-9] + bytes([data[-9] ^ 1]) + data[-8:])
    elif damage == "foreign":
        path.write_bytes(b"not a plan at all")
    else:  # another rule set's plan, whole and well formed, put in its place
        path.write_bytes(plancache.path_of(plancache.key("lean", other), bytes).read_bytes())
    lean._KEPT.clear()
    assert figures(lean.analyse(rules, shoe)) == figures(enumerated(rules, shoe))  # compiled again
    lean._KEPT.clear()
    assert figures(lean.analyse(rules, shoe)) == figures(enumerated(rules, shoe))  # and kept again


def test_a_plan_for_the_wrong_number_of_bets_does_not_read():
    plan = lean.lean_of(plan_of(RULES))
    with pytest.raises(ValueError):
        lean.Lean.from_bytes(plan.to_bytes(), len(RULES.bets) + 1)
    with pytest.raises(ValueError):
        lean.Lean.from_bytes(plan.to_bytes()[:-4], len(RULES.bets))


def test_an_unwritable_cache_is_only_the_enumerator(tmp_path, monkeypatch):
    blocked = tmp_path / "file"
    blocked.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))  # .../file/baccarat cannot be made
    rules, shoe = get_rules("standard"), Shoe.decks(8)
    for _ in range(3):
        lean._KEPT.clear()
        assert lean.analyse(rules, shoe) is None  # never marked, so never compiled
    assert figures(analyse(rules, shoe)) == figures(enumerated(rules, shoe))
    lean._KEPT.clear()


def test_a_value_level_question_asked_again_loads_no_numpy(tmp_path):
    # edge of the standard rules: the first run by the enumerator (no card-level counting, no
    # compiled route of many shoes), the second compiles the lean plan, and from the third on
    # neither numpy nor the engine is loaded; the table is the same every time
    code = ("import sys; from analyzer.cli import cli\ntry: cli(['edge', '--decks', '8'])\nexcept SystemExit: pass\n"
            "print(sorted({'numpy', 'analyzer.game.engine', 'analyzer.routes.compiled', 'analyzer.routes.cardcount', 'analyzer.routes.closedforms',"
            " 'importlib.resources'} & set(sys.modules)))")
    env = os.environ | {"XDG_CACHE_HOME": str(tmp_path)}
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env).stdout
            for _ in range(3)]
    loaded = [run.strip().splitlines()[-1] for run in runs]
    assert "analyzer.routes.compiled" not in loaded[0] and "analyzer.routes.cardcount" not in loaded[0] and "'numpy'" in loaded[0]
    assert "'analyzer.routes.compiled'" in loaded[1]
    assert loaded[2] == "[]"
    tables = {run.rsplit("\n", 2)[0] for run in runs}
    assert len(tables) == 1 and "Banker" in tables.pop()


def test_a_compilation_that_could_not_be_kept_is_not_tried_again(cache, monkeypatch):
    rules, shoe = get_rules("standard"), Shoe.decks(8)
    lean.analyse(rules, shoe)  # marked
    lean._KEPT.clear()
    real = plancache.store_bytes
    monkeypatch.setattr(plancache, "store_bytes", lambda name, data: name.startswith("seen-") and real(name, data))  # a full disk
    assert figures(lean.analyse(rules, shoe)) == figures(enumerated(rules, shoe))  # compiled, not kept
    monkeypatch.setattr(lean, "lean_of", lambda plan: pytest.fail("compiled again"))
    for _ in range(2):
        lean._KEPT.clear()
        assert lean.analyse(rules, shoe) is None


def test_no_home_folder_is_no_cache(monkeypatch):
    from pathlib import Path

    def no_home():
        raise RuntimeError("Could not determine home directory.")
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setattr(Path, "home", staticmethod(no_home))
    lean._KEPT.clear()
    rules, shoe = get_rules("standard"), Shoe.decks(8)
    assert lean.analyse(rules, shoe) is None and figures(analyse(rules, shoe)) == figures(enumerated(rules, shoe))
    assert plancache.load(plancache.key("values", 1)) is None and not plancache.stored("x") and not plancache.store_bytes("x", b"")
    with pytest.raises(plancache.NoFolder, match="set XDG_CACHE_HOME"):
        plancache.contents()
    lean._KEPT.clear()


def test_the_plans_a_process_holds_are_bounded(cache, monkeypatch):
    from dataclasses import replace
    monkeypatch.setattr(lean, "found", lambda rules: None)  # none on disk: each rule set still holds its entry
    standard, shoe = get_rules("standard"), Shoe.decks(8)
    for _ in range(1_000):
        lean.analyse(replace(standard), shoe)  # a new RuleSet each time, as a server parsing its files again
    assert len(lean._KEPT.values) <= 200
