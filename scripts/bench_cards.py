"""Benchmark: bets on single cards (issue 12). Run: python scripts/bench_cards.py [--repeat N]

- the whole `baccarat edge --rules catalog` process (every card-level bet of the catalogue, 8
  decks) and `edge --rules standard`, interleaved run by run; peak memory (max RSS) of each;
- in process, a rule set without card-level bets: the 8-deck analysis of the catalogue's
  value-level bets (cache cleared), as fast as before card-level bets existed;
- in process, each card-level bet alone on an 8-deck shoe (its card-detail enumeration, cache
  cleared);
- the batch path for card-level bets: shoe states per second on states taken from dealt 8-deck
  shoes, for a colour bet (colour_match), a first-four-cards bet (lucky_nines, jackpot_baccarat)
  and the others.
"""

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")  # one BLAS thread: the processes here never oversubscribe

from analyzer.batch import evaluate_many  # noqa: E402
from analyzer.analysis import enumerated  # noqa: E402
from analyzer.bets import card_line_counts  # noqa: E402
from analyzer.cards import Shoe  # noqa: E402
from analyzer.engine import _enumerate, _enumerate_cards  # noqa: E402
from analyzer.rulefile import get_rules  # noqa: E402

sys.path.insert(0, str(Path(__file__).parent))
from bench_batch import shoe_states  # noqa: E402


def peak_rss_mb(command) -> float:
    out = subprocess.run(
        [sys.executable, "-c", "import resource, subprocess, sys; subprocess.run(sys.argv[1:], capture_output=True);"
         "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"] + command,
        check=True, capture_output=True, text=True).stdout
    return int(out) / 1024


def baccarat_command() -> list[str]:
    """The installed ``baccarat`` beside this Python, or ``python -m analyzer``."""
    baccarat = Path(sys.executable).with_name("baccarat")
    return [str(baccarat)] if baccarat.exists() else [sys.executable, "-m", "analyzer"]


def interleaved(commands: dict, repeat: int) -> dict:
    """Wall-clock seconds of each whole process, run in turn ``repeat`` times: every command sees
    the same machine load."""
    times = {name: [] for name in commands}
    for _ in range(repeat):
        for name, command in commands.items():
            start = time.perf_counter()
            subprocess.run(command, check=True, capture_output=True)
            times[name].append(time.perf_counter() - start)
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=11)
    args = parser.parse_args()
    base = baccarat_command()
    commands = {name: base + ["edge", "--rules", name] for name in ("catalog", "standard")}
    times = interleaved(commands, args.repeat)
    for name in commands:
        median = statistics.median(times[name])
        print(f"`edge --rules {name}` whole process: {median:.3f} s median of {args.repeat} "
              f"(range {min(times[name]):.3f}-{max(times[name]):.3f}); peak memory {peak_rss_mb(commands[name]):.0f} MB")

    catalog = get_rules("catalog")
    value_level = catalog.value_level()
    eight = Shoe.decks(8)

    def value_analysis():
        _enumerate.cache_clear()
        enumerated(value_level, eight)

    value_analysis()
    samples = []
    for _ in range(args.repeat * 3):
        start = time.perf_counter()
        value_analysis()
        samples.append(time.perf_counter() - start)
    print(f"in process, 8 decks, the catalogue's {len(value_level.bets)} value-level bets (cache cleared): "
          f"{statistics.median(samples) * 1000:.1f} ms median")

    print("in process, 8 decks, each card-level bet alone (cache cleared), median of 5:")
    for bet in catalog.bets:
        if bet.card_level:
            samples = []
            for _ in range(5):
                _enumerate_cards.cache_clear()
                start = time.perf_counter()
                card_line_counts(bet, eight, catalog.tableau)
                samples.append(time.perf_counter() - start)
            print(f"  {bet.id:24} {statistics.median(samples) * 1000:7.1f} ms")

    states = shoe_states(600)
    print("batch, card-level bets on 8-deck shoe states (cards left at each coup of dealt shoes):")
    for bet in catalog.bets:
        if bet.card_level:
            rules = catalog.only([bet.id])
            _enumerate_cards.cache_clear()
            count = 0
            start = time.perf_counter()
            while time.perf_counter() - start < 3 and count < len(states):
                evaluate_many(rules, states[count:count + 20])
                count += 20
            rate = count / (time.perf_counter() - start)
            print(f"  {bet.id:24} {rate:9,.0f} states/s")


if __name__ == "__main__":
    main()
