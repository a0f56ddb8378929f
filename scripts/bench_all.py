"""Benchmark: the tool's speed figures (issue 37's, and issue 54's first shoes) for this tree and an earlier commit, side
by side, and the table written into docs/speed.md.

Run: python scripts/bench_all.py --before REF [--rounds N] [--no-write]

The earlier tree is unpacked with `git archive` into a temporary folder. Each figure is taken
from both trees in turn, the order alternating by round, each in a fresh interpreter with that
tree first on the path and one BLAS thread; the table gives the medians over the rounds and the
ratio now / before (for rates, before / now: above 1 is slower either way). This tree's cache of
compiled plans (plancache.py) is a fresh folder for the figures marked "cold" and a folder
warmed once for the others; the earlier tree has none. Each tree's modules are compiled to
bytecode once, outside the tree, as an installed package has them. Whole processes are timed by
wall clock (and peak memory, from a small parent, where a row gives MB). The two processes of a
tenth of a second (`--version`, `edge --decks 8`) are taken three times a round, first in it:
medians of 15 in 5 rounds, as issue 37 measured them.
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SETUP = r'''
import random, statistics, sys, time
import numpy as np
from analyzer import analyse, get_rules, make_shoe
from analyzer import batch  # (analyzer.routes.batch since issue 54; the old name still imports)
rng = random.Random(20261125)
R = "A23456789TJQK"
def shoe():
    while True:
        try:
            return make_shoe(8, ",".join(rng.choice(R) for _ in range(rng.randint(5, 300))))
        except Exception:
            pass
def ranks(n):
    out = []
    for _ in range(n):
        c = [32] * 13
        for _ in range(rng.randint(0, 300)):
            i = rng.choice([k for k in range(13) if c[k]]); c[i] -= 1
        out.append(c)
    return np.array(out, dtype=np.int64)
full = get_rules("catalog")
# the 52 value-level bets of the catalogue that issue 37 measured (later issues added more)
ISSUE_VALUE_IDS = set("""
    banker player tie player_pair banker_pair either_pair perfect_pair perfect_pair_250
    dragon_bonus_player dragon_bonus_banker dragon_7 panda_8 lucky_6 lucky_6_20 super_6 super_6_15
    egalite_0 egalite_1 egalite_2 egalite_3 egalite_4 egalite_5 egalite_6 egalite_7 egalite_8
    egalite_9 tie_group_0 tie_group_1_3 tie_group_4_5 tie_group_6_7 tie_group_8_9 big small cards_4
    cards_5 cards_6 player_natural_8 player_natural_9 banker_natural_8 banker_natural_9 tiger
    small_tiger big_tiger tiger_tie player_even player_odd banker_even banker_odd banker_streak_1
    banker_streak_2 banker_streak_3 banker_streak_4
""".split())
value = full.only([b.id for b in full.value_level().bets if b.id in ISSUE_VALUE_IDS])  # (d1e88e9: 48, no streaks)
def median_ms(rules, count):
    ts = []
    for _ in range(count):
        s = shoe(); t = time.perf_counter(); analyse(rules, s); ts.append(time.perf_counter() - t)
    return statistics.median(ts) * 1000
'''

# `.series`: a Batch works out the exact EVs of its bets across coups when first asked for them
# (a simulation asks only their signs and floats); the batch figures include them, as before.
IN_PROCESS = {
    "value batch": ("value-level catalogue (the 52 bets issue 37 measured), `evaluate_many` in process, states/s", "/s", True,
                    "shoes = ranks(3000); batch.compile_rules(value); batch.evaluate_many(value, shoes[:200])\n"
                    "t = time.perf_counter(); getattr(batch.evaluate_many(value, shoes), 'series', None); print(len(shoes) / (time.perf_counter() - t))"),
    "value one": ("one analysis, value-level catalogue (issue 37's 52 bets), compiled, ms", "ms", False,
                  "batch.compile_rules(value); analyse(value, shoe()); print(median_ms(value, 60))"),
    "all one": ("`analyse()` of the whole catalogue on a never-seen shoe, after 8 shoes, ms", "ms", False,
                "[analyse(full, shoe()) for _ in range(9)]; print(median_ms(full, 20))"),
    "first shoes": ("`analyse()` of the whole catalogue, a process's shoes 3 to 9 (plans on disk), median ms", "ms", False,
                    "analyse(full, shoe()); analyse(full, shoe()); print(median_ms(full, 7))"),
    "card one": ("the slowest card-level bet alone on a never-seen shoe, after 8 shoes, ms", "ms", False,
                 "out = []\n"
                 "for bet in [b for b in full.bets if b.card_level]:\n"
                 "    r = full.only([bet.id]); [analyse(r, shoe()) for _ in range(9)]; out.append(median_ms(r, 10))\n"
                 "print(max(out))"),
    "all batch": ("whole catalogue, `evaluate_many` in process, states/s", "/s", True,
                  "shoes = ranks(600); batch.compile_rules(full); batch.evaluate_many(full, shoes[:40])\n"
                  "t = time.perf_counter(); batch.evaluate_many(full, shoes).series; print(len(shoes) / (time.perf_counter() - t))"),
}

PROCESS = {  # name: (what, arguments, cache: "warm" or "cold", unit)
    "version": ("`baccarat --version`, whole process, ms", ["--version"], "warm", "ms"),
    "edge": ("`edge --decks 8`, whole process, ms", ["edge", "--decks", "8"], "warm", "ms"),
    "edge catalog": ("`edge --rules catalog`, whole process, ms (plans on disk)", ["edge", "--rules", "catalog"], "warm", "ms"),
    "edge catalog cold": ("the same, nothing on disk, ms", ["edge", "--rules", "catalog"], "cold", "ms"),
    "known red": ("`edge --rules catalog --known 1=red`, whole process, ms / MB", ["edge", "--rules", "catalog", "--known", "1=red"], "warm", "MB"),
    "eor": ("`eor --rules catalog`, whole process, ms", ["eor", "--rules", "catalog"], "warm", "ms"),
    "batch 10k": ("`batch` of 10,000 shoes, the catalogue, whole process, ms / MB", ["batch", "{shoes}"], "warm", "MB"),
    "simulate": ("`simulate` with its defaults (the catalogue, 8 decks), 300 shoes on 2 workers, shoes/s",
                 ["simulate", "--shoes", "300", "--workers", "2"], "warm", "shoes"),
}
TARGETS = {"first shoes": "≤ 2 (issue 54)", "value batch": "≥ 35,700 (0.9x d1e88e9 without the streaks)", "value one": "≤ 0.35", "version": "≤ 50",
           "edge": "≤ 150", "all one": "≤ 2, aim ≤ 1", "card one": "≤ 0.5", "all batch": "≥ 10,000",
           "simulate": "≥ 600", "batch 10k": "≤ 2 s, ≤ 150 MB", "edge catalog": "≤ 300", "edge catalog cold": "≤ 800",
           "known red": "≤ 1 s, ≤ 200 MB", "eor": "≤ 500"}
RATES = {"value batch", "all batch", "simulate"}


def unpack(ref: str, into: Path) -> Path:
    archive = into / "tree.tar"
    with open(archive, "wb") as f:
        subprocess.run(["git", "-C", str(ROOT), "archive", ref], stdout=f, check=True)
    with tarfile.open(archive) as t:
        t.extractall(into / "tree", filter="data")
    return into / "tree"


PYC = {}  # tree -> a folder for its compiled bytecode (as an installed package has it), outside the tree


def environment(tree: Path, cache: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    return env | {"PYTHONPATH": str(tree), "PYTHONPYCACHEPREFIX": str(PYC[tree]), "OMP_NUM_THREADS": "1",
                  "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "XDG_CACHE_HOME": str(cache)}


SHORT = ("version", "edge")  # processes of a tenth of a second: the medians of 15 (3 a round)
SHORT_REPEATS = 3


def whole_process(tree: Path, args: list, cache: Path) -> tuple[float, float] | None:
    """(seconds, peak MB) of one `python -m analyzer ...` process, measured from a small parent."""
    code = ("import resource, subprocess, sys, time; t = time.perf_counter(); "
            "r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL); "
            "print(r.returncode, time.perf_counter() - t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024)")
    out = subprocess.run([sys.executable, "-c", code, sys.executable, "-m", "analyzer", *args], cwd=tree,
                         env=environment(tree, cache), capture_output=True, text=True, timeout=600).stdout.split()
    return (float(out[1]), float(out[2])) if out and out[0] == "0" else None


def in_process(tree: Path, snippet: str, cache: Path) -> float | None:
    result = subprocess.run([sys.executable, "-c", SETUP + snippet], cwd=tree, env=environment(tree, cache),
                            capture_output=True, text=True, timeout=900)
    try:
        return float(result.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return None


def measure(name: str, tree: Path, caches: dict, shoes_file: Path):
    if name in IN_PROCESS:
        return in_process(tree, IN_PROCESS[name][3], caches["warm"])
    _, args, cache, unit = PROCESS[name]
    args = [a.format(shoes=shoes_file) for a in args]
    folder = caches["warm"]
    if cache == "cold":
        folder = Path(tempfile.mkdtemp(prefix="cold-", dir=caches["root"]))
    timed = whole_process(tree, args, folder)
    if timed is None:
        return None
    seconds, mb = timed
    if unit == "shoes":
        return 300 / seconds
    return (seconds * 1000, mb) if unit == "MB" else seconds * 1000


def shown(name: str, value) -> str:
    if value is None:
        return "-"
    if isinstance(value, tuple):
        return f"{value[0]:,.0f} ms, {value[1]:,.0f} MB"
    if name in RATES:
        return f"{value:,.0f}"
    return f"{value:,.2f}" if value < 10 else f"{value:,.0f}"


def median(values):
    values = [v for v in values if v is not None]
    if not values:
        return None
    if isinstance(values[0], tuple):
        return tuple(statistics.median(v[i] for v in values) for i in range(2))
    return statistics.median(values)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--before", required=True, help="the earlier commit")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--only", default="", help="comma-separated figure names (default: all)")
    ap.add_argument("--no-write", action="store_true", help="print the table, leave docs/speed.md as it is")
    a = ap.parse_args()
    names = [n for n in [*IN_PROCESS, *PROCESS] if not a.only or n in a.only.split(",")]
    short = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", a.before], capture_output=True, text=True,
                           check=True).stdout.strip()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        trees = {"before": unpack(a.before, tmp), "now": ROOT}
        PYC.update({tree: tmp / f"pyc-{which}" for which, tree in trees.items()})
        for tree in trees.values():  # compile each tree's modules once, as an install does
            whole_process(tree, ["--help"], tmp / "unused")
        caches = {"root": tmp, "warm": tmp / "warm"}
        shoes_file = tmp / "shoes.txt"
        import random
        rng = random.Random(37)
        lines = []
        for _ in range(10_000):
            counts = [32] * 13
            for _ in range(rng.randint(0, 300)):
                i = rng.choice([k for k in range(13) if counts[k]])
                counts[i] -= 1
            lines.append(",".join(map(str, counts)))
        shoes_file.write_text("\n".join(lines) + "\n")
        whole_process(ROOT, ["edge", "--rules", "catalog"], caches["warm"])  # warm this tree's plans
        for name in names:
            if name in IN_PROCESS:
                in_process(ROOT, IN_PROCESS[name][3], caches["warm"])
        values = {n: {"before": [], "now": []} for n in names}
        start = time.perf_counter()
        quick = [n for n in names if n in SHORT]
        for r in range(a.rounds):
            for name in quick + [n for n in names if n not in SHORT]:  # the short processes first
                for _ in range(SHORT_REPEATS if name in SHORT else 1):
                    for which in (("before", "now") if r % 2 == 0 else ("now", "before")):
                        values[name][which].append(measure(name, trees[which], caches, shoes_file))
            print(f"round {r + 1} done after {time.perf_counter() - start:.0f} s", file=sys.stderr)
    rows = [f"| what | {short} | now | now / before | target |", "|---|---|---|---|---|"]
    for name in names:
        before, now = median(values[name]["before"]), median(values[name]["now"])
        ratio = "-"
        if before is not None and now is not None:
            b, n = (before[0], now[0]) if isinstance(before, tuple) else (before, now)
            ratio = f"{(b / n if name in RATES else n / b):.2f}x"
        what = IN_PROCESS[name][0] if name in IN_PROCESS else PROCESS[name][0]
        rows.append(f"| {what} | {shown(name, before)} | {shown(name, now)} | {ratio} | {TARGETS.get(name, '')} |")
    table = "\n".join(rows)
    print(table)
    if not a.no_write:
        page = ROOT / "docs" / "speed.md"
        text = page.read_text()
        marked = re.compile(r"(<!-- bench_all -->\n).*?(<!-- /bench_all -->)", re.S)
        stamp = (f"Measured by `python scripts/bench_all.py --before {short} --rounds {a.rounds}` on "
                 f"{time.strftime('%Y-%m-%d')}: medians of {a.rounds} interleaved rounds; the ratio is above 1 "
                 "where now is slower.\n\n")
        page.write_text(marked.sub(lambda m: m.group(1) + stamp + table + "\n" + m.group(2), text))


if __name__ == "__main__":
    main()
