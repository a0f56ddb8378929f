"""Time each table's results (`baccarat results`, issue 53) on the protect benchmark's day: 20
tables x 8 eight-deck shoes dealt by the simulator (about 80 coups each), 7 seats a table, 3
wagers a seat a coup (about 270,000 wagers; scripts/bench_protect.py writes them), rules catalog.
The day is read from its files and every table's results computed by the library in a fresh
process - handle, win, theoretical win and the exact variance of each coup, its wagers taken
together - timed cold (nothing kept from an earlier run but the plans compiled on disk), then
asked again in the same process (what the pit's overview pays once a coup's figures are kept).

Run: python scripts/bench_results.py [--tables 20] [--shoes 8] [--runs 3]
Issue 53's aim: the day in <= 10 s.
"""

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).parent))

from bench_protect import day, read_day  # noqa: E402


def in_process(tables: int, folder: Path) -> tuple[float, float, int, str]:
    """Cold and again: seconds, seconds, peak memory (MB), the pit's total line."""
    from analyzer.pit.results import results

    start = time.perf_counter()
    deals, wagers = read_day(tables, folder)
    done = results(wagers, deals)
    cold = time.perf_counter() - start
    start = time.perf_counter()
    results(wagers, deals)
    again = time.perf_counter() - start
    total = done[-1]
    line = (f"{total.wagers:,} wagers, {total.coups:,} coups, handle {float(total.handle):,.0f}, win {float(total.win):,.0f}, "
            f"theoretical {float(total.theoretical):,.0f}, sd {total.sd:,.0f}, z {total.z:.2f}, bounded {total.bounded}")
    return cold, again, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024, line


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--shoes", type=int, default=8)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(*in_process(args.tables, Path(args.child)), sep="|")
        return
    folder = Path(tempfile.mkdtemp())
    wagers = day(args.tables, args.shoes, folder)
    print(f"{args.tables} tables x {args.shoes} shoes: {wagers:,} wagers")
    colds, agains = [], []
    for run in range(args.runs):
        out = subprocess.run([sys.executable, __file__, "--tables", str(args.tables), "--child", str(folder)],
                             check=True, capture_output=True, text=True).stdout.strip().split("|")
        colds.append(float(out[0]))
        agains.append(float(out[1]))
        print(f"run {run + 1}: {float(out[0]):.1f} s cold, {float(out[1]):.1f} s again, peak memory {out[2]} MB; {out[3]}")
    print(f"median {statistics.median(colds):.1f} s cold, {statistics.median(agains):.1f} s again, for {wagers:,} wagers")


if __name__ == "__main__":
    main()
