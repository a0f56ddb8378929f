"""Benchmark: every bet in the wild (issue 30). Run: python scripts/bench_wild.py [--repeat N] [--before DIR]

What the new kinds of bet cost, before and after in one run, interleaved, medians:

- in process, on 8-deck shoes with a random number of random cards gone: Banker Streak's EV on
  one shoe by the law of its count in Fractions (bets.result_of, what `edge` takes) and by the
  integer closed form (series.geometric_ev, what a batch takes), the coup's counts given;
- batch (evaluate_many), shoe states a second, states from dealt shoes: the catalogue without its
  four Banker Streak tables, and with them (what they add to every batch and simulation);
- runs of Banker wins, k = 1 to 20: the exact chain, and 10,000 real shoes simulated;
- whole processes: `edge --rules catalog`, `batch` of 2,000 dealt shoe states on the catalogue,
  and `rules check catalog` (every bet counted on 6 decks, then the return tables), this code and, with --before DIR (a checkout of the code before issue 30, run with
  this Python), the same commands from DIR beside them.

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

from analyzer.routes.batch import compile_rules, evaluate_many  # noqa: E402
from analyzer.bets.bet import result_of
from analyzer.bets.conditions import settled_masks  # noqa: E402
from analyzer.game.cards import Shoe  # noqa: E402
from analyzer.game.engine import enumerate_coup  # noqa: E402
from analyzer.bets.rulefile import get_rules  # noqa: E402
from analyzer.questions.runs import burn_law, coup_law, no_run_chance, simulated  # noqa: E402
from analyzer.bets.series import geometric_ev  # noqa: E402
from analyzer.questions.simulate import Deal  # noqa: E402

sys.path.insert(0, str(Path(__file__).parent))
from bench_batch import shoe_states  # noqa: E402
from bench_cards import depleted_shoe  # noqa: E402

CATALOG = get_rules("catalog")
STREAK = CATALOG.bet("banker_streak_1")
WITHOUT = CATALOG.only([b.id for b in CATALOG.bets if b.series is None])


def seconds(call) -> float:
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def median_ms(samples) -> str:
    return f"{1000 * statistics.median(samples):.3f} ms"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--before", metavar="DIR", help="a checkout of the code before issue 30")
    args = parser.parse_args()
    rng = random.Random(30)

    counts = []
    for _ in range(200):
        dist = enumerate_coup(depleted_shoe(rng))
        counts.append(([dist.count(m) for m in settled_masks(STREAK.conditions, dist.fields)], dist.total))
    by_law, by_form = [], []
    for _ in range(args.repeat):
        by_law.append(seconds(lambda: [result_of(STREAK, c, t).ev for c, t in counts]) / len(counts))
        by_form.append(seconds(lambda: [geometric_ev(STREAK, *c) for c, t in counts]) / len(counts))
    print(f"Banker Streak EV, one shoe, coup counts given: law in Fractions {median_ms(by_law)}, "
          f"closed form in integers {median_ms(by_form)} ({statistics.median(by_law) / statistics.median(by_form):.1f}x)")

    states = shoe_states(6000)
    compile_rules(CATALOG), compile_rules(WITHOUT)
    evaluate_many(CATALOG, states[:100]), evaluate_many(WITHOUT, states[:100])
    rates = {"without": [], "with": []}
    for _ in range(args.repeat):
        rates["without"].append(len(states) / seconds(lambda: evaluate_many(WITHOUT, states)))
        rates["with"].append(len(states) / seconds(lambda: evaluate_many(CATALOG, states)))
    a, b = statistics.median(rates["without"]), statistics.median(rates["with"])
    print(f"batch, catalogue: {a:,.0f} states/s without the four Banker Streak tables, {b:,.0f} with them "
          f"({b / a:.2f}x)")

    shoe = Shoe.decks(8)
    law, burn = coup_law(shoe), burn_law(shoe, "face")
    chain, real = [], []
    for _ in range(args.repeat):
        chain.append(seconds(lambda: [no_run_chance(law, burn, 416, 14, "banker", k, False) for k in range(1, 21)]))
        real.append(seconds(lambda: simulated(Deal(8), CATALOG.tableau, "banker", 20, 10_000, 1, False)))
    print(f"runs of Banker wins, k = 1..20: exact chain {statistics.median(chain):.2f} s; "
          f"10,000 real shoes {statistics.median(real):.2f} s")

    with tempfile.TemporaryDirectory() as tmp:
        lines = Path(tmp) / "states.txt"
        lines.write_text("\n".join(",".join(map(str, row)) for row in states[:2000].reshape(2000, -1).tolist()) + "\n")
        commands = {"edge --rules catalog": ["edge", "--rules", "catalog"],
                    "batch, 2,000 states, catalogue": ["batch", str(lines), "--rules", "catalog"],
                    "rules check catalog": ["rules", "check", "catalog"]}
        for label, words in commands.items():
            runs = {"after": []} | ({"before": []} if args.before and words[0] != "rules" else {})
            for _ in range(max(3, args.repeat // 2)):
                for who in runs:
                    cwd = args.before if who == "before" else None
                    env = dict(os.environ, PYTHONPATH=args.before) if who == "before" else os.environ
                    start = time.perf_counter()
                    subprocess.run([sys.executable, "-m", "analyzer", *words], cwd=cwd, env=env, check=True,
                                   capture_output=True)
                    runs[who].append(time.perf_counter() - start)
            shown = "; ".join(f"{who} {statistics.median(v):.2f} s" for who, v in runs.items())
            print(f"{label}: {shown}")


if __name__ == "__main__":
    main()
