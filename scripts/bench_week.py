"""Time `baccarat protect` on a week of one table: 60 eight-deck shoes dealt by the simulator to
the cut card (real shuffles, no burn; about 4,900 coups) and the week's wagers (about 12,000),
rules catalog. Regulars who ignore the cards sit for runs of coups, a few a shoe, betting the
Banker or the Player and now and then a side bet; ben counts Dragon 7 (Eliot Jacobson's count,
betting it at a true count of 4 or more) and cai, at a sixth of the shoes, sees whether the
first card is 7-9 (edge sorting) and bets the Player big when it is.

The week is written as the command line reads it - one file of its coups (`shoe ID` lines between
the shoes) and one of its wagers - and also as a file of coups a day (`--shoe` with a comma-
separated list): each is reviewed by `baccarat protect` in a fresh process, a few runs each,
timed from the command to its printed table, with the process's CPU time and peak memory (the
machine's load is printed: other work slows the runs); the two reviews' JSON must be the same.

Run: python scripts/bench_week.py [--shoes 60] [--runs 3] [--days 7]
Issue 55's aim: the week in <= 15 s on a 2-core machine.
"""

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

JACOBSON = [0, 0, 0, -1, -1, -1, -1, 2, 2, 0]  # A, 2..9, ten-value cards: Dragon 7's count
REGULARS = 24  # players who ignore the cards, a few of them at each shoe
SIDE_BETS = ["tie", "player_pair", "banker_pair", "dragon_7", "panda_8"]


def week(shoes: int, folder: Path, days: int) -> tuple[int, int]:
    """Write the week's coups (week.txt, and day1.txt... a file a day) and wagers (wagers.csv) into
    ``folder``; (coups, wagers)."""
    from analyzer.game.tableau import PUNTO_BANCO
    from analyzer.pit.replay import card_text
    from analyzer.questions.simulate import Deal, deal_coups, shuffled_shoe

    deal = Deal(decks=8, cut=14, burn="none")
    rng = random.Random(55)
    shoe_lines, wagers = [], ["shoe,coup,seat,player,bet,amount"]
    sorted_shoes = set(rng.sample(range(1, shoes + 1), max(1, shoes // 6)))  # cai's
    for s in range(1, shoes + 1):
        cards = shuffled_shoe(deal, 5500, s)[None, :]
        coups = deal_coups(deal, PUNTO_BANCO, cards)
        n = len(coups.start)
        lines = [f"shoe {s}"]
        sittings = []  # (player, seat, first coup, last coup)
        for seat, player in enumerate(rng.sample(range(1, REGULARS + 1), 4), 1):
            length = rng.randint(15, n)
            first = rng.randint(1, n - length + 1)
            sittings.append((f"r{player:02}", seat, first, first + length - 1))
        seen = [0] * 13
        for i in range(n):
            start, used = int(coups.start[i]), int(coups.used[i])
            kinds = [int(k) for k in cards[0, start:start + used]]
            lines.append(" ".join(card_text((k // 4, k % 4)) for k in kinds))
            coup = i + 1
            for player, seat, first, last in sittings:
                if first <= coup <= last:
                    if rng.random() < 0.75:
                        wagers.append(f"{s},{coup},{seat},{player},{rng.choice(['banker', 'player'])},"
                                      f"{rng.choice([25, 50, 100, 500])}")
                    if rng.random() < 0.2:
                        wagers.append(f"{s},{coup},{seat},{player},{rng.choice(SIDE_BETS)},{rng.choice([5, 10, 25])}")
            if 52 * sum(JACOBSON[min(r, 9)] * k for r, k in enumerate(seen)) >= 4 * (416 - start):
                wagers.append(f"{s},{coup},6,ben,dragon_7,100")
            if s in sorted_shoes:
                wagers.append(f"{s},{coup},7,cai,player,{500 if kinds[0] // 4 in (6, 7, 8) else 25}")
            for k in kinds:
                seen[k // 4] += 1
        shoe_lines.append(lines)
    (folder / "week.txt").write_text("".join(line + "\n" for lines in shoe_lines for line in lines))
    for d in range(days):
        part = shoe_lines[d * shoes // days:(d + 1) * shoes // days]
        (folder / f"day{d + 1}.txt").write_text("".join(line + "\n" for lines in part for line in lines))
    (folder / "wagers.csv").write_text("\n".join(wagers) + "\n")
    return sum(len(lines) - 1 for lines in shoe_lines), len(wagers) - 1


def timed(args: list[str]) -> tuple[float, float, int, str]:
    """Run `baccarat ARGS` in a fresh process: (seconds, its CPU seconds, its peak memory in MB,
    what it printed)."""
    cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", CHILD, *args], capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode:
        sys.exit(f"baccarat {' '.join(args)} failed: {done.stderr.strip() or done.stdout.strip()}")
    out, memory = done.stdout.rsplit("\n", 2)[:2]
    return elapsed, after.ru_utime + after.ru_stime - cpu.ru_utime - cpu.ru_stime, int(memory), out


# The command, then its peak memory (MB) on a line of its own: click's main, as the `baccarat`
# script runs it.
CHILD = """
import resource, sys
from analyzer.cli import cli
try:
    cli.main(sys.argv[1:], prog_name="baccarat", standalone_mode=False)
finally:
    print()
    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shoes", type=int, default=60)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--days", type=int, default=7, help="files of coups the week is also split into")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        bench(args, Path(name))


def bench(args, folder: Path) -> None:
    """Time the review of the week as `baccarat protect` prints it (its table), from one file of
    coups and from a file a day; then check the two reviews' JSON (every figure exact) the same."""
    started = time.perf_counter()
    coups, wagers = week(args.shoes, folder, args.days)
    print(f"a week of one table: {args.shoes} shoes, {coups:,} coups, {wagers:,} wagers; written in "
          f"{time.perf_counter() - started:.1f} s")
    common = ["protect", str(folder / "wagers.csv"), "--rules", "catalog"]
    files = {"one file": ["--shoe", str(folder / "week.txt")],
             f"{args.days} files": ["--shoe", ",".join(str(folder / f"day{d + 1}.txt") for d in range(args.days))]}
    print(f"load average before the runs: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores (other work slows them)")
    printed, reviews = set(), []
    for label, shoe_args in files.items():
        times = []
        for n in range(args.runs):
            elapsed, cpu, memory, out = timed(common + shoe_args)
            times.append(elapsed)
            printed.add(out)
            flagged = [line.split()[0] for line in out.splitlines() if "FLAG:" in line]
            print(f"{label}, run {n + 1}: {elapsed:.2f} s ({cpu:.2f} s of CPU), peak memory {memory} MB; "
                  f"flagged: {', '.join(flagged)}")
        print(f"{label}: median {statistics.median(times):.2f} s for {coups:,} coups and {wagers:,} wagers (aim: <= 15 s)")
        reviews.append(json.loads(timed(common + shoe_args + ["--format", "json"])[3]))
    print("one file and a file a day: the same table", len(printed) == 1, "and the same JSON", reviews[0] == reviews[1])


if __name__ == "__main__":
    main()
