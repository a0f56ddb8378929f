"""Benchmark: the figures quoted in the docs (docs/speed.md). Run: python scripts/bench.py [--repeat N]

- full exact analysis of an 8-deck shoe (one enumeration + every bet of the catalogue),
  in process, cache cleared each time;
- the same through the Python-integer path (what shoes over 1023 cards use), for the ratio;
- the whole `baccarat edge --rules catalog` process (the largest built-in rule set), start to finish;
- peak memory (max RSS) of that process;
- the whole `baccarat eor --rules catalog` and `baccarat now --rules catalog --dealt ...` processes;
- the whole `baccarat chemin --infinite` and `baccarat chemin --decks 8` processes;
- the whole `baccarat report --decks 8` process for the standard rule set and for the catalogue
  (every table, three charts, all files written).
"""

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from analyzer.routes.counts import evaluate
from analyzer.game.cards import Shoe
from analyzer.game.engine import _enumerate, closed_form
from analyzer.bets.rulefile import BUILT_IN, get_rules
from analyzer.game.tableau import PUNTO_BANCO


def median_seconds(fn, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


RULES = [get_rules(name) for name in BUILT_IN]
BETS = {bet.id: bet for rules in RULES if rules.tableau == PUNTO_BANCO
        for bet in rules.value_level().bets}  # each distinct bet once; the card-level ones: bench_cards.py


def full_analysis(shoe, dtype):
    dist = closed_form(shoe, PUNTO_BANCO, dtype)
    return [evaluate(bet, dist) for bet in BETS.values()]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=21)
    args = parser.parse_args()
    shoe = Shoe.decks(8)
    full_analysis(shoe, np.int64)  # warm up imports and the tableau's cell grid
    fast = median_seconds(lambda: full_analysis(shoe, np.int64), args.repeat)
    walk_only = median_seconds(lambda: closed_form(shoe, PUNTO_BANCO, np.int64), args.repeat)
    exact = median_seconds(lambda: full_analysis(shoe, object), max(3, args.repeat // 4))
    _enumerate.cache_clear()

    baccarat = Path(sys.executable).with_name("baccarat")
    command = [str(baccarat), "edge", "--rules", "catalog"]
    if not baccarat.exists():
        command = [sys.executable, "-m", "analyzer"] + command[1:]
    process = median_seconds(lambda: subprocess.run(command, check=True, capture_output=True), args.repeat)
    eor_command = command[:-3] + ["eor", "--rules", "catalog"]
    eor_process = median_seconds(lambda: subprocess.run(eor_command, check=True, capture_output=True), args.repeat // 2)
    now_command = command[:-3] + ["now", "--rules", "catalog", "--dealt", "5,K,9,Q,3,8,8,A"]
    now_process = median_seconds(lambda: subprocess.run(now_command, check=True, capture_output=True), args.repeat)
    chemin_infinite = median_seconds(lambda: subprocess.run(command[:-3] + ["chemin", "--infinite"], check=True,
                                                            capture_output=True), 5)
    chemin_eight = median_seconds(lambda: subprocess.run(command[:-3] + ["chemin", "--decks", "8"], check=True,
                                                         capture_output=True), 5)
    with tempfile.TemporaryDirectory() as tmp:
        runs = iter(range(10**6))
        report = {name: median_seconds(lambda: subprocess.run(
            command[:-3] + ["report", "--rules", name, "--decks", "8", "-o", f"{tmp}/{name}-{next(runs)}"],
            check=True, capture_output=True), 5) for name in ("standard", "catalog")}
    rss = subprocess.run(
        [sys.executable, "-c", "import resource, subprocess, sys; subprocess.run(sys.argv[1:], capture_output=True);"
         "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"] + command,
        check=True, capture_output=True, text=True,
    ).stdout.strip()
    bets = len(BETS)
    print(f"8-deck full analysis, int64 path ({bets} bets):   {fast * 1000:7.2f} ms median (target <= 20 ms)")
    print(f"  of which the enumeration:                {walk_only * 1000:7.2f} ms")
    print(f"8-deck full analysis, Python-int path:     {exact * 1000:7.2f} ms median ({exact / fast:.1f}x slower)")
    print(f"`{' '.join(Path(c).name for c in command)}` whole process:          {process * 1000:7.2f} ms median (target <= 400 ms)")
    print(f"peak memory of that process:               {int(rss) / 1024:7.1f} MB (target <= 100 MB)")
    print(f"`eor --rules catalog` whole process:       {eor_process * 1000:7.2f} ms median (target <= 1 s)")
    print(f"`now --rules catalog --dealt ...` process: {now_process * 1000:7.2f} ms median (target <= 400 ms)")
    print(f"`chemin --infinite` whole process:         {chemin_infinite * 1000:7.2f} ms median (model A: instant)")
    print(f"`chemin --decks 8` whole process:          {chemin_eight * 1000:7.2f} ms median (model B; target < 10 s)")
    for name, seconds in report.items():
        print(f"`report --rules {name} --decks 8` process:{' ' * (9 - len(name))}{seconds * 1000:7.2f} ms median "
              "(target <= 10 s)")


if __name__ == "__main__":
    main()
