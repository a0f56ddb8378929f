"""Compiled plans kept on disk (plancache.py): the same figures whether a plan is compiled, read
back, damaged, stale or unwritable; and analyse() on the compiled route from a rule set's second
shoe on, equal to the enumerator."""

import os
import random
import subprocess
import sys

import numpy as np
import pytest
from click.testing import CliRunner

from analyzer.routes import plancache
from analyzer.questions.analysis import analyse, enumerated
from analyzer.routes import choose
from analyzer.routes.choose import FEW_ANALYSES, plan_for_one
from analyzer.routes.batch import compile_rules, evaluate_many, plan_of
from analyzer.routes.cardcount import compile_lines, layout_of, stored_or_compiled
from analyzer.game.cards import Shoe
from analyzer.cli import cli
from analyzer.bets.rulefile import get_rules, parse_rules

CATALOG = get_rules("catalog")
MAJESTIC = CATALOG.bet("majestic_match")


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """An empty cache folder of this test's own."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    return tmp_path / "baccarat"


def fresh_rules(text: str = ""):
    """A rule set no other test compiled (its compilations are of this test alone)."""
    return parse_rules('name = "t"\n[[bets]]\nid = "m"\nlines = [\n'
                       '{ label = "suited", when = { banker_suited = true, banker_1 = { rank = ["K", "Q", "J"] } }, pays = 30 },\n'
                       '{ label = "tie", when = { winner = "tie" }, pays = 8 },\n]\n' + text, "t.toml", None)


def forget():
    """Forget every compilation held in this process, as a new process starts."""
    import analyzer.routes.compiled as batch
    import analyzer.routes.cardcount as cardcount
    import analyzer.routes.choose as choose
    batch._plan.cache_clear()
    batch._PLANS.clear()
    choose._USES.clear()
    cardcount.COMPILED.clear()


def test_a_compilation_read_back_counts_as_the_one_compiled(cache):
    from analyzer.game.knowledge import NOTHING
    layout = layout_of(MAJESTIC.needs, NOTHING, CATALOG.tableau)
    made = stored_or_compiled((MAJESTIC.conditions,), layout, CATALOG.tableau, NOTHING, False, "m")
    assert len(list(cache.glob("cards-*.npz"))) == 1
    read = stored_or_compiled((MAJESTIC.conditions,), layout, CATALOG.tableau, NOTHING, False, "m")
    assert read is not made  # from the file
    rng = random.Random(3)
    for _ in range(5):
        n = [rng.randint(0, 8) for _ in range(52)]
        assert read.counts(n) == made.counts(n) == compile_lines((MAJESTIC.conditions,), layout, CATALOG.tableau).counts(n)


@pytest.mark.parametrize("damage", ["truncate", "garbage", "empty", "wrong arrays"])
def test_a_damaged_file_is_compiled_again_and_replaced(cache, damage):
    rules = fresh_rules()
    shoe = Shoe.decks(2).remove("K", "Qs", "5")
    expected = [r.ev for r in enumerated(rules, shoe)]
    compile_rules(rules)
    files = sorted(cache.glob("*.npz"))
    assert files
    for path in files:
        data = path.read_bytes()
        if damage == "truncate":
            path.write_bytes(data[: len(data) // 2])
        elif damage == "garbage":
            path.write_bytes(bytes(reversed(data)))
        elif damage == "empty":
            path.write_bytes(b"")
        else:
            np.savez(path, nothing=np.zeros(3))
    forget()
    again = fresh_rules()
    assert [r.ev for r in evaluate_many(again, [shoe] * 40).results(0)] == expected
    assert [r.ev for r in analyse(again, shoe)] == expected


def test_an_unwritable_cache_is_only_slower(tmp_path, monkeypatch):
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))  # .../file/baccarat cannot be made
    rules = fresh_rules()
    shoe = Shoe.decks(1).remove("Kd")
    assert [r.ev for r in evaluate_many(rules, [shoe] * 40).results(0)] == [r.ev for r in enumerated(rules, shoe)]


def test_a_change_of_code_or_question_names_another_file():
    plancache.code_digest.cache_clear()
    first = plancache.key("cards", MAJESTIC.conditions)
    assert first == plancache.key("cards", MAJESTIC.conditions)
    assert first != plancache.key("cards", CATALOG.bet("colour_match").conditions)
    digest = plancache.code_digest
    try:
        plancache.code_digest = lambda: "another version of the code"
        assert plancache.key("cards", MAJESTIC.conditions) != first
    finally:
        plancache.code_digest = digest
    assert plancache.key("cards", object()) is None  # no canonical text: never stored


def test_the_canonical_text_is_the_same_in_another_process():
    # sets of strings iterate in an order that changes with the hash seed: the text must not
    code = ("from analyzer.routes import plancache; from analyzer.bets.rulefile import get_rules; "
            "print(plancache.key('plan', *[b.conditions for b in get_rules('catalog').bets]))")
    keys = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                           env=os.environ | {"PYTHONHASHSEED": seed}).stdout for seed in ("1", "2", "3")}
    assert len(keys) == 1


def test_the_cache_is_trimmed_to_its_size_least_recently_used_first(cache):
    cache.mkdir(parents=True)
    names = [f"x-{i:040x}" for i in range(5)]
    for i, name in enumerate(names):
        plancache.store(name, {"a": np.zeros(1000)})
        os.utime(cache / f"{name}.npz", (i, i))
    assert plancache.load(names[0])["a"].shape == (1000,)  # used now
    plancache.trim(cache, limit=3 * (cache / f"{names[1]}.npz").stat().st_size)
    assert sorted(p.name for p in cache.glob("*.npz")) == [f"{names[i]}.npz" for i in (0, 3, 4)]


def test_writes_keep_the_cache_within_its_size_without_a_look_at_every_write(cache, monkeypatch):
    """The folder is looked at on a process's first write, then when what it held and what was
    written since may pass the limit: it never holds more than the limit and one file."""
    size = len(np.zeros(1000).tobytes())
    monkeypatch.setattr(plancache, "MAX_BYTES", 4 * size)
    monkeypatch.setattr(plancache, "_WRITTEN", {})
    looks = []
    monkeypatch.setattr(plancache, "trim", lambda folder, limit=None, trim=plancache.trim: looks.append(1) or trim(folder, 4 * size))
    for i in range(12):
        plancache.store(f"x-{i:040x}", {"a": np.zeros(1000)})
        assert sum(p.stat().st_size for p in cache.glob("*.npz")) <= 5 * size + 5 * 1000
    assert 3 <= len(looks) < 12  # not at every write


def test_analyse_takes_the_compiled_route_after_a_few_shoes_and_agrees(cache):
    forget()
    rules = fresh_rules()
    shoes = [Shoe.decks(1).remove(*random.Random(i).sample("A23456789TJQK", 4)) for i in range(FEW_ANALYSES + 3)]
    for shoe in shoes[:FEW_ANALYSES]:  # the first few: the enumerator
        assert [r.ev for r in analyse(rules, shoe)] == [r.ev for r in enumerated(rules, shoe)]
    assert not plan_of(rules).compiled
    for shoe in shoes[FEW_ANALYSES:]:
        assert [r.ev for r in analyse(rules, shoe)] == [r.ev for r in enumerated(rules, shoe)]
        assert plan_of(rules).compiled  # compiled (and kept on disk) at the next
    forget()  # as another process (issue 54): the plan kept on disk is read at the second shoe
    again = fresh_rules()
    assert choose.kept_on_disk(again)
    files = sorted(cache.glob("*.npz"))
    assert plan_for_one(again) is None  # a one-off question: the enumerator, as before
    assert plan_for_one(again) is not None and sorted(cache.glob("*.npz")) == files  # read, nothing compiled anew
    assert [r.ev for r in analyse(again, shoes[0])] == [r.ev for r in enumerated(again, shoes[0])]
    forget()
    other = fresh_rules('[[bets]]\nid = "x"\nlines = [{ label = "t", when = { winner = "tie" }, pays = 9 }]\n')
    assert not choose.kept_on_disk(other) and plan_for_one(other) is None  # another rule set: nothing kept


def test_a_value_level_rule_set_is_left_to_its_lean_plan(cache):
    forget()
    standard = get_rules("standard")
    compile_rules(standard)  # marked as kept whole
    forget()
    assert not choose.kept_on_disk(standard)  # lean.py answers it without numpy


def test_threads_that_analyse_as_the_compiled_route_is_first_loaded(cache):
    # A fresh interpreter: batch.py is not loaded until a rule set is compiled (or asked for), and a
    # module is in sys.modules before its body has run; threads that reach the compiled route while
    # another imports it must wait for it, not read a half-loaded module (a review found 15-23
    # errors of 36 so).
    code = ("import random, threading\nfrom analyzer.questions import analysis\nfrom analyzer.game.cards import Shoe\n"
            "from analyzer.bets.rulefile import get_rules\nrules = get_rules('standard')\nerrors, done = [], []\n"
            "def work(i):\n    rng = random.Random(i)\n    for _ in range(6):\n        try:\n"
            "            analysis.analyse(rules, Shoe.decks(8).remove(*rng.sample('A23456789TJQK', 3))); done.append(1)\n"
            "        except Exception as e:\n            errors.append(repr(e))\n"
            "threads = [threading.Thread(target=work, args=(i,)) for i in range(6)]\n"
            "[t.start() for t in threads]; [t.join() for t in threads]\nprint(len(done), errors[:1])")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                            env=os.environ | {"XDG_CACHE_HOME": str(cache.parent)})
    assert result.stdout.split("\n")[0] == "36 []"


def test_cache_info_and_clear(cache):
    compile_rules(fresh_rules())
    info = CliRunner().invoke(cli, ["cache", "info"])
    files = len(list(cache.glob("*.npz")) + list(cache.glob("*.bin")))  # the arrays, and the mark that says the rule set is kept whole
    assert info.exit_code == 0 and info.output.startswith(f"{cache}: {files} files of compiled plans, ")
    cleared = CliRunner().invoke(cli, ["cache", "clear"])
    assert cleared.exit_code == 0 and cleared.output.startswith(f"Removed {files} files of compiled plans (")
    assert not list(cache.glob("*"))
    assert CliRunner().invoke(cli, ["cache", "clear"]).output.startswith("Removed 0 files")


def test_another_compilation_put_in_place_is_a_miss(cache):
    # found by a hostile review: files swapped among their names were read as their own
    rules = fresh_rules()
    shoe = Shoe.decks(2).remove("K", "Qs", "5")
    expected = [r.ev for r in enumerated(rules, shoe)]
    compile_rules(rules)
    files = sorted(cache.glob("*.npz"))
    contents = [p.read_bytes() for p in files]
    for path, data in zip(files, contents[1:] + contents[:1]):  # each file holds the next one's arrays
        path.write_bytes(data)
    forget()
    again = fresh_rules()
    assert [r.ev for r in evaluate_many(again, [shoe] * 40).results(0)] == expected
    assert [r.ev for r in analyse(again, shoe)] == expected


def test_only_files_named_as_the_cache_names_them_are_counted_trimmed_or_cleared(cache):
    forget()
    compile_rules(fresh_rules())
    ours = sorted(p.name for p in [*cache.glob("*.npz"), *cache.glob("*.bin")])  # arrays, and the rule set's mark
    (cache / "my_results.npz").write_bytes(b"a user's own file")
    (cache / "sub.npz").mkdir()
    assert ours and plancache.contents()[1] == len(ours)
    assert all(oct((cache / name).stat().st_mode)[-3:] == "644" for name in ours)  # a shared cache can read them
    plancache.trim(cache, limit=0)
    assert sorted(p.name for p in cache.glob("*.npz")) == ["my_results.npz", "sub.npz"] and not list(cache.glob("*.bin"))
    forget()
    compile_rules(fresh_rules())
    assert plancache.clear()[1] == len(ours)
    assert sorted(p.name for p in cache.glob("*.npz")) == ["my_results.npz", "sub.npz"]
