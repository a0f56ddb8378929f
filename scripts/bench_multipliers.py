"""Issue 56's figures: what a bet with multipliers costs.

1. one multiplied bet on a depleted 8-deck shoe (a new shoe each time: nothing kept from the last),
   its figures exact (analyse on the bet alone, after the process's first shoe compiled its plan);
2. a batch of shoes: the catalogue alone, and the catalogue with the lightning rule set's bets
   beside it (every EV worked out: Batch.ev_terms), shoes a second and their ratio.

Rounds interleaved, medians reported. Run: python scripts/bench_multipliers.py [--rounds 5] [--shoes 500]
"""

import argparse
import random
import statistics
import time
from dataclasses import replace

from analyzer import Shoe, analyse
from analyzer.bets.rulefile import get_rules
from analyzer.routes.batch import evaluate_many


def depleted(rng: random.Random) -> Shoe:
    """An 8-deck shoe with 20 to 300 cards taken at random (real cards: none taken twice)."""
    cards = [(r, s) for r in range(13) for s in range(4) for _ in range(8)]
    counts = [[8] * 4 for _ in range(13)]
    for r, s in rng.sample(cards, rng.randrange(20, 300)):
        counts[r][s] -= 1
    return Shoe(tuple(map(tuple, counts)))


def one_bet(rules, bet_id: str, rng) -> float:
    shoe = depleted(rng)
    alone = rules.only([bet_id])
    start = time.perf_counter()
    analyse(alone, shoe)[0].ev
    return (time.perf_counter() - start) * 1000


def batch_rate(rules, shoes) -> float:
    start = time.perf_counter()
    evaluate_many(rules, shoes).ev_terms()
    return len(shoes) / (time.perf_counter() - start)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--shoes", type=int, default=500)
    args = parser.parse_args()
    rng = random.Random(56)
    lightning, catalog = get_rules("lightning"), get_rules("catalog")
    ids = [b.id for b in lightning.bets]
    together = replace(catalog, name="catalog+lightning",
                       bets=catalog.bets + tuple(replace(b, id=f"lightning_{b.id}") for b in lightning.bets))
    for bet_id in ids:  # the first shoe of each: its plan compiled (40-120 ms, once a process)
        one_bet(lightning, bet_id, rng)
    shoes = [depleted(rng) for _ in range(args.shoes)]
    batch_rate(catalog, shoes[:50]), batch_rate(together, shoes[:50])  # the catalogue's plans compiled
    times = {bet_id: [] for bet_id in ids}
    rates = {"catalogue": [], "with lightning": []}
    for _ in range(args.rounds):
        for bet_id in ids:
            times[bet_id] += [one_bet(lightning, bet_id, rng) for _ in range(5)]
        rates["catalogue"].append(batch_rate(catalog, shoes))
        rates["with lightning"].append(batch_rate(together, shoes))
    print(f"one multiplied bet on a depleted 8-deck shoe, ms (median of {5 * args.rounds}; target <= 5):")
    for bet_id, ms in times.items():
        print(f"  {bet_id:14} {statistics.median(ms):6.2f}")
    alone, both = statistics.median(rates["catalogue"]), statistics.median(rates["with lightning"])
    print(f"batch of {args.shoes} shoes, shoes/s (median of {args.rounds}): catalogue {alone:,.0f}; "
          f"with the {len(ids)} lightning bets {both:,.0f}; ratio {alone / both:.2f}x (target <= 1.2x)")


if __name__ == "__main__":
    main()
