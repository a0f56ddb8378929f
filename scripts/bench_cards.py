"""Benchmark: bets on single cards (issues 12 and 29). Run: python scripts/bench_cards.py [--repeat N] [--before DIR]

Before and after in one run, interleaved, on 8-deck shoes with a random number of random cards
gone (suits uneven; each shoe new to every cache of shoes):

- in process, each card-level bet of the catalogue alone on one shoe: *before*, the enumeration at
  its card detail (counts.walked_counts, the route every card-level bet took until issue 29; its
  caches emptied), *after*, its compiled polynomials (cardcount.py; compiled once beforehand, as
  a rule set is); medians and ratios, and the same on the full shoe;
- in process, the whole catalogue on one shoe, exact results: before, the value-level bets by
  the enumerator and the card-level ones by the enumeration at their detail; after, the rule set
  compiled (value-level and card-level polynomials, analysis.analyse); and the value-level bets
  alone by both;
- the compilation of the catalogue's card-level bets (once a process): time and peak memory;
- batch (evaluate_many): shoe states a second for each card-level bet alone and for the whole
  catalogue, states taken from dealt shoes; before, the enumeration a state at a time;
- whole processes, interleaved: `edge --rules catalog`, `edge --rules catalog --known 1=red`,
  `eor --rules catalog`, the same with --known 1=red, and `report --rules catalog --known 1=red`:
  median wall time and peak memory; with --before DIR, the same commands run from DIR (a checkout
  of the code before, run with this Python) beside them (the two that took minutes before, only
  with --slow).

One BLAS thread throughout (OMP_NUM_THREADS=1): nothing here oversubscribes the two cores.
"""

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from analyzer.routes import cardcount
from analyzer.game import engine  # noqa: E402
from analyzer.questions.analysis import analyse, enumerated  # noqa: E402
from analyzer.routes.batch import compile_rules, evaluate_many  # noqa: E402
from analyzer.routes.counts import walked_counts  # noqa: E402
from analyzer.game.cards import Shoe  # noqa: E402
from analyzer.bets.rulefile import get_rules  # noqa: E402

sys.path.insert(0, str(Path(__file__).parent))
from bench_batch import shoe_states  # noqa: E402

CATALOG = get_rules("catalog")
CARD_BETS = [bet for bet in CATALOG.bets if bet.card_level]


def depleted_shoe(rng: random.Random) -> Shoe:
    cards = [kind for kind in range(52) for _ in range(8)]
    rng.shuffle(cards)
    counts = [[0] * 4 for _ in range(13)]
    for kind in cards[rng.randrange(20, 300):]:
        counts[kind // 4][kind % 4] += 1
    return Shoe(tuple(map(tuple, counts)))


def forget_shoes():
    """Empty every cache of shoes: the enumerations, their layouts, the last shoes counted."""
    engine.CARD_CACHE.values.clear()
    engine.LAYOUTS.values.clear()
    engine._enumerate.cache_clear()
    for polynomials, _, _ in cardcount.COMPILED.values.values():
        polynomials.__dict__.pop("_last", None)


def seconds(call) -> float:
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def conditions(bet):
    return tuple(ln.condition for ln in bet.lines)


def per_bet(repeat: int, rng: random.Random):
    print("In process, one card-level bet on one shoe (8 decks, depleted, never seen), median of", repeat)
    print(f"  {'bet':24} {'before':>10} {'after':>9} {'ratio':>7} {'full shoe after':>16}")
    full = Shoe.decks(8)
    for bet in CARD_BETS:
        cardcount.compiled(bet.id, conditions(bet), bet.needs, CATALOG.tableau)
        before, after, whole = [], [], []
        for _ in range(repeat):
            shoe = depleted_shoe(rng)
            forget_shoes()
            before.append(seconds(lambda: walked_counts(conditions(bet), bet.needs, shoe, CATALOG.tableau)))
            forget_shoes()
            after.append(seconds(lambda: cardcount.line_counts(bet.id, conditions(bet), bet.needs, shoe.kind_counts(),
                                                               CATALOG.tableau)))
            forget_shoes()
            whole.append(seconds(lambda: cardcount.line_counts(bet.id, conditions(bet), bet.needs, full.kind_counts(),
                                                               CATALOG.tableau)))
        b, a = statistics.median(before), statistics.median(after)
        print(f"  {bet.id:24} {b * 1000:8.1f} ms {a * 1000:6.2f} ms {b / a:6.0f}x {statistics.median(whole) * 1000:13.2f} ms")


def whole_catalogue(repeat: int, rng: random.Random):
    value_level = CATALOG.value_level()
    compiled, compiled_values = get_rules("catalog"), get_rules("catalog").value_level()
    compile_rules(compiled), compile_rules(compiled_values)
    analyse(compiled, Shoe.decks(8))

    def before(shoe):
        enumerated(value_level, shoe)
        for bet in CARD_BETS:
            walked_counts(conditions(bet), bet.needs, shoe, CATALOG.tableau)

    times = {"before": [], "after": [], "values before": [], "values after": []}
    for _ in range(repeat):
        shoe = depleted_shoe(rng)
        for name, call in (("before", lambda: before(shoe)), ("after", lambda: analyse(compiled, shoe)),
                           ("values before", lambda: enumerated(value_level, shoe)),
                           ("values after", lambda: analyse(compiled_values, shoe))):
            forget_shoes()
            times[name].append(seconds(call))
    m = {name: statistics.median(t) for name, t in times.items()}
    print(f"In process, the whole catalogue ({len(CATALOG.bets)} bets, {len(CARD_BETS)} card-level) on one shoe, median of {repeat}:")
    print(f"  before (enumerations) {m['before'] * 1000:.1f} ms; after (compiled) {m['after'] * 1000:.2f} ms: "
          f"{m['before'] / m['after']:.0f}x")
    print(f"  its {len(value_level.bets)} value-level bets alone: enumerator {m['values before'] * 1000:.2f} ms, "
          f"compiled {m['values after'] * 1000:.2f} ms")


def compile_cost():
    code = ("import resource, time; from analyzer.bets.rulefile import get_rules; from analyzer.routes.counts import prepare;"
            "rules = get_rules('catalog'); start = time.perf_counter(); prepare(rules.bets, rules.tableau);"
            "print(time.perf_counter() - start, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)")
    runs = [subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout.split()
            for _ in range(3)]
    took, rss = statistics.median(float(r[0]) for r in runs), max(int(r[1]) for r in runs)
    print(f"Compiling the catalogue's card-level bets, once a process: {took * 1000:.0f} ms median of 3 "
          f"(peak memory of that process {rss / 1024:.0f} MB)")


def batch_rates(states: np.ndarray):
    print(f"Batch (evaluate_many), shoe states a second ({len(states):,} states from dealt 8-deck shoes):")
    print(f"  {'bets':24} {'before':>10} {'after':>12}")
    for bet in CARD_BETS + [None]:
        rules = CATALOG if bet is None else CATALOG.only([bet.id])
        evaluate_many(rules, states[:40])  # compiled once
        after = len(states) / seconds(lambda: evaluate_many(rules, states))
        few = 3
        forget_shoes()
        start, count = time.perf_counter(), 0
        for state in states[:few]:
            shoe = Shoe(tuple(map(tuple, state.tolist())))
            for b in (CARD_BETS if bet is None else [bet]):
                walked_counts(conditions(b), b.needs, shoe, CATALOG.tableau)
            count += 1
        before = count / (time.perf_counter() - start)
        print(f"  {'whole catalogue' if bet is None else bet.id:24} {before:10,.1f} {after:12,.0f}")


def peak_and_seconds(command, cwd, env) -> tuple[float, float]:
    """(wall seconds, peak memory in MB) of one whole process."""
    code = ("import resource, subprocess, sys, time; start = time.perf_counter();"
            "subprocess.run(sys.argv[1:], capture_output=True, check=True);"
            "print(time.perf_counter() - start, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    out = subprocess.run([sys.executable, "-c", code] + command, check=True, capture_output=True, text=True,
                         cwd=cwd, env=env).stdout.split()
    return float(out[0]), int(out[1]) / 1024


SLOW_BEFORE = ("eor --rules catalog --known 1=red", "report --rules catalog --known 1=red")  # minutes each before


def processes(repeat: int, before: str | None, slow: bool):
    report = Path(tempfile.mkdtemp()) / "report"
    commands = {
        "edge --rules catalog": ["edge", "--rules", "catalog"],
        "edge --rules catalog --known 1=red": ["edge", "--rules", "catalog", "--known", "1=red"],
        "eor --rules catalog": ["eor", "--rules", "catalog"],
        "eor --rules catalog --known 1=red": ["eor", "--rules", "catalog", "--known", "1=red"],
        "report --rules catalog --known 1=red": ["report", "--rules", "catalog", "--known", "1=red", "--output", str(report),
                                                 "--force"],
    }
    trees = {"after": str(Path(__file__).resolve().parent.parent)} | ({"before": str(Path(before).resolve())} if before else {})
    results = {(name, tree): [] for name in commands for tree in trees}
    for i in range(repeat):
        for name, args in commands.items():
            if name.startswith("report") and i >= max(1, repeat // 3):
                continue  # a report takes seconds: fewer runs
            for tree, path in trees.items():
                if tree == "before" and name in SLOW_BEFORE and not slow:
                    continue
                env = dict(os.environ, PYTHONPATH=path)
                results[(name, tree)].append(peak_and_seconds([sys.executable, "-m", "analyzer"] + args, path, env))
    print(f"Whole processes, median of {repeat} (reports: of {max(1, repeat // 3)}), interleaved:")
    for name in commands:
        row = []
        for tree in trees:
            runs = results[(name, tree)]
            if not runs:
                continue
            row.append(f"{tree} {statistics.median(t for t, _ in runs):.2f} s, {max(m for _, m in runs):.0f} MB")
        print(f"  `{name}`: " + "; ".join(row))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--before", metavar="DIR", help="a checkout of the code before, for the whole processes")
    parser.add_argument("--states", type=int, default=2000, help="shoe states for the batch rates")
    parser.add_argument("--slow", action="store_true", help=f"run {' and '.join(SLOW_BEFORE)} before too (minutes)")
    args = parser.parse_args()
    rng = random.Random(29)
    compile_cost()
    per_bet(args.repeat, rng)
    whole_catalogue(args.repeat, rng)
    batch_rates(shoe_states(args.states))
    processes(max(3, args.repeat // 2), args.before, args.slow)


if __name__ == "__main__":
    main()
