"""Benchmark: known cards and the value of information (issue 13).
Run: python scripts/bench_advantage.py [--repeat N]

Whole processes, 8 decks, standard rules, interleaved run by run (every command sees the same
machine load), medians and ranges:

- `advantage --sort 6-9 --positions 1,2,3,4`: one information model, four sorted places;
- `advantage --best-sort --positions 1,2,3,4`: all 511 splits at four places;
- `advantage --by-position`: the exact card at each place 1-6;
- `edge --known 1=6-9` beside plain `edge`: what knowing a card costs a house-edge table;
- `edge --rules catalog --known 1=red`: every bet, card-level ones included, given a colour.
"""

import argparse
import os
import statistics
import sys
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")  # one BLAS thread: the processes here never oversubscribe

sys.path.insert(0, str(Path(__file__).parent))
from bench_cards import baccarat_command, interleaved  # noqa: E402

COMMANDS = {
    "advantage --sort 6-9 --positions 1,2,3,4": ["advantage", "--sort", "6-9", "--positions", "1,2,3,4"],
    "advantage --best-sort --positions 1,2,3,4": ["advantage", "--best-sort", "--positions", "1,2,3,4"],
    "advantage --by-position": ["advantage", "--by-position"],
    "edge": ["edge"],
    "edge --known 1=6-9": ["edge", "--known", "1=6-9"],
    "edge --rules catalog --known 1=red": ["edge", "--rules", "catalog", "--known", "1=red"],
}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    base = baccarat_command()
    times = interleaved({name: base + words for name, words in COMMANDS.items()}, args.repeat)
    for name, runs in times.items():
        print(f"`baccarat {name}`: {statistics.median(runs):.2f} s median of {len(runs)} "
              f"(range {min(runs):.2f}-{max(runs):.2f})")


if __name__ == "__main__":
    main()
