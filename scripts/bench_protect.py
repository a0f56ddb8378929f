"""Time `baccarat protect` on a day of a 20-table pit: 20 tables x 8 eight-deck shoes dealt by the
simulator to the cut card (about 80 coups each), 7 seats a table, 3 wagers a seat a coup (about
270,000 wagers), rules catalog. Most players ignore the cards; at each of three tables one seat
counts Dragon 7, and at one an edge sorter sees whether the first card is 7-9. The day is written
as the command line reads it (a file of coups and one of wagers a table), then reviewed whole by
the library in a fresh process - from the files, parsed, to every player's figures - timed, with
the process's peak memory.

Run: python scripts/bench_protect.py [--tables 20] [--shoes 8] [--runs 1]
Issue 39's aim: the day in <= 60 s, memory bounded.
"""

import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one BLAS thread: the machine has two cores
os.environ.setdefault("OMP_NUM_THREADS", "1")

JACOBSON = [0, 0, 0, -1, -1, -1, -1, 2, 2, 0]  # A, 2..9, ten-value cards: Dragon 7's count


def day(tables: int, shoes: int, folder: Path) -> int:
    """Write each table's coups and wagers into ``folder``; the number of wagers."""
    from analyzer.pit.replay import card_text
    from analyzer.questions.simulate import Deal, deal_coups, shuffled_shoe
    from analyzer.game.tableau import PUNTO_BANCO

    deal = Deal(decks=8, cut=14, burn="none")
    rng = random.Random(39)
    count = 0
    for t in range(1, tables + 1):
        lines, wagers = [], ["shoe,coup,seat,player,bet,amount"]
        for s in range(1, shoes + 1):
            cards = shuffled_shoe(deal, 1000 + t, s)[None, :]
            coups = deal_coups(deal, PUNTO_BANCO, cards)
            lines.append(f"shoe {s}")
            seen = [0] * 13
            for i in range(len(coups.start)):
                start, used = int(coups.start[i]), int(coups.used[i])
                kinds = [int(k) for k in cards[0, start:start + used]]
                lines.append(" ".join(card_text((k // 4, k % 4)) for k in kinds))
                true_count = 52 * sum(JACOBSON[min(r, 9)] * n for r, n in enumerate(seen)) / (416 - start)
                for seat in range(1, 8):
                    player = f"t{t}s{seat}"
                    if seat == 7 and t <= 3:  # the counter: a base bet, Dragon 7 big at a true count of 4 or more
                        bets = [("banker", 25), ("tie", 5), ("dragon_7", 100 if true_count >= 4 else 5)]
                    elif seat == 7 and t == 4:  # the edge sorter
                        bets = [("player", 500 if kinds[0] // 4 in (6, 7, 8) else 25), ("tie", 5), ("player_pair", 5)]
                    else:
                        bets = [(rng.choice(["banker", "player"]), rng.choice([25, 50, 100, 500])),
                                (rng.choice(["tie", "player_pair", "banker_pair", "dragon_7", "panda_8"]), rng.choice([5, 10, 25])),
                                (rng.choice(["either_pair", "perfect_pair", "big", "small"]), rng.choice([5, 10]))]
                    for bet, amount in bets:
                        wagers.append(f"{s},{i + 1},{seat},{player},{bet},{amount}")
                for k in kinds:
                    seen[k // 4] += 1
        (folder / f"t{t}.txt").write_text("\n".join(lines) + "\n")
        (folder / f"t{t}.csv").write_text("\n".join(wagers) + "\n")
        count += len(wagers) - 1
    return count


def read_day(tables: int, folder: Path) -> tuple[dict, list]:
    """The day as the library reads it from its files: (table -> its coups, every wager)."""
    from analyzer.game.cards import Shoe
    from analyzer.pit.protect import deals_from_file, parse_wagers, with_defaults
    from analyzer.bets.rulefile import get_rules

    rules, deals, wagers = get_rules("catalog"), {}, []
    for t in range(1, tables + 1):
        name = f"t{t}"
        deals |= deals_from_file((folder / f"{name}.txt").read_text(), rules, Shoe.decks(8), name)
        wagers += [with_defaults(w, name, "") for w in parse_wagers((folder / f"{name}.csv").read_text(), name)]
    return deals, wagers


def in_process(tables: int, folder: Path) -> tuple[float, int, list]:
    """The whole day reviewed at once by the library: seconds, peak memory (MB), flagged players."""
    from analyzer.pit.protect import review

    start = time.perf_counter()
    deals, wagers = read_day(tables, folder)
    result = review(wagers, deals)
    elapsed = time.perf_counter() - start
    flagged = [(r.player, r.fits) for r in result.players if r.flagged]
    return elapsed, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024, flagged


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--shoes", type=int, default=8)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        elapsed, memory, flagged = in_process(args.tables, Path(args.child))
        print(f"{elapsed:.2f} {memory} {flagged}")
        return
    folder = Path(tempfile.mkdtemp())
    started = time.perf_counter()
    wagers = day(args.tables, args.shoes, folder)
    print(f"{args.tables} tables x {args.shoes} shoes: {wagers:,} wagers written in {time.perf_counter() - started:.1f} s")
    times = []
    for run in range(args.runs):
        out = subprocess.run([sys.executable, __file__, "--tables", str(args.tables), "--child", str(folder)],
                             check=True, capture_output=True, text=True).stdout.split(" ", 2)
        times.append(float(out[0]))
        print(f"run {run + 1}: {out[0]} s, peak memory {out[1]} MB; flagged: {out[2].strip()}")
    print(f"median {statistics.median(times):.1f} s for {wagers:,} wagers")


if __name__ == "__main__":
    main()
