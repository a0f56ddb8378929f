"""Benchmark: the figures quoted in the README. Run: python scripts/bench.py [--repeat N]

- full exact analysis of an 8-deck shoe (one enumeration + every bet of every built-in rule set),
  in process, cache cleared each time;
- the same through the Python-integer path (what shoes over 1023 cards use), for the ratio;
- the whole `baccarat edge` process, start to finish;
- peak memory (max RSS) of that process.
"""

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from analyzer.bets import RULE_SETS, evaluate
from analyzer.cards import Shoe
from analyzer.engine import _enumerate, walk
from analyzer.tableau import PUNTO_BANCO


def median_seconds(fn, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def full_analysis(shoe, dtype):
    dist = walk(shoe, PUNTO_BANCO, dtype)
    return [evaluate(bet, dist) for rules in RULE_SETS.values() for bet in rules.bets]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=21)
    args = parser.parse_args()
    shoe = Shoe.decks(8)
    full_analysis(shoe, np.int64)  # warm up imports and the tableau's cell grid
    fast = median_seconds(lambda: full_analysis(shoe, np.int64), args.repeat)
    walk_only = median_seconds(lambda: walk(shoe, PUNTO_BANCO, np.int64), args.repeat)
    exact = median_seconds(lambda: full_analysis(shoe, object), max(3, args.repeat // 4))
    _enumerate.cache_clear()

    baccarat = Path(sys.executable).with_name("baccarat")
    command = [str(baccarat), "edge"] if baccarat.exists() else [sys.executable, "-m", "analyzer", "edge"]
    process = median_seconds(lambda: subprocess.run(command, check=True, capture_output=True), args.repeat)
    rss = subprocess.run(
        [sys.executable, "-c", "import resource, subprocess, sys; subprocess.run(sys.argv[1:], capture_output=True);"
         "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"] + command,
        check=True, capture_output=True, text=True,
    ).stdout.strip()
    bets = sum(len(r.bets) for r in RULE_SETS.values())
    print(f"8-deck full analysis, int64 path ({bets} bets):   {fast * 1000:7.2f} ms median (target <= 20 ms)")
    print(f"  of which the enumeration:                {walk_only * 1000:7.2f} ms")
    print(f"8-deck full analysis, Python-int path:     {exact * 1000:7.2f} ms median ({exact / fast:.1f}x slower)")
    print(f"`{' '.join(Path(c).name for c in command)}` whole process:          {process * 1000:7.2f} ms median (target <= 400 ms)")
    print(f"peak memory of that process:               {int(rss) / 1024:7.1f} MB (target <= 100 MB)")


if __name__ == "__main__":
    main()
