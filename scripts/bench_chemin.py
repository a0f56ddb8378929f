"""Time `baccarat chemin`: every information model on 8 decks (the free game and the casino
rules) and the commission tables, each the whole command, interleaved, medians.

Run: python scripts/bench_chemin.py [--runs 3]
Issue 17's aims: every model on 8 decks <= 10 s; the commission table <= 60 s.
"""

import argparse
import os
import shutil
import statistics
import subprocess
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one BLAS thread: the machine has two cores
os.environ.setdefault("OMP_NUM_THREADS", "1")

CASES = {
    "model A (infinite deck), free game": ["--infinite"],
    "model B2, 8 decks, free game": ["--decks", "8"],
    "model B3, 8 decks, free game": ["--decks", "8", "--model", "B3"],
    "model B3, 8 decks, casino rules": ["--decks", "8", "--model", "B3", "--casino"],
    "model B3, 8 decks, free game, 5% commission": ["--decks", "8", "--model", "B3", "--commission", "5"],
    "commission table, model A": ["--infinite", "--by-commission"],
    "commission table, model B2, 8 decks": ["--decks", "8", "--by-commission"],
    "commission table, model B3, 8 decks": ["--decks", "8", "--model", "B3", "--by-commission"],
    "commission table, model B3, 8 decks, casino rules": ["--decks", "8", "--model", "B3", "--casino", "--by-commission"],
}


def timed(args) -> float:
    start = time.perf_counter()
    subprocess.run([shutil.which("baccarat"), "chemin", *args], check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    runs = parser.parse_args().runs
    times = {name: [] for name in CASES}
    for _ in range(runs):  # interleaved: each round runs every case once
        for name, args in CASES.items():
            times[name].append(timed(args))
    print(f"| the whole `baccarat chemin` process | median of {runs} | slowest |\n|---|---|---|")
    for name, values in times.items():
        print(f"| {name} | {statistics.median(values):.2f} s | {max(values):.2f} s |")


if __name__ == "__main__":
    main()
