"""Benchmark: the batch evaluator and the shoe simulator, against one-at-a-time enumeration.

Run: python scripts/bench_batch.py [--repeat N] [--shoes N]

- batch: every value-level bet of the catalogue (48 bets) on 50,000 shoe states taken from dealt 8-deck shoes
  (the cards left at each coup), exact integer results, in process; shoes per second;
- one at a time: the enumerator and every bet on a sample of the same states (cache cleared),
  the ratio to the batch rate;
- simulate: whole shoes of 8 decks, cut card 14 cards from the end, every coup evaluated
  exactly, on all cores; shoes and coups per second, and the time 100,000 shoes take at that
  rate (or really take, with --shoes 100000).
"""

import argparse
import os
import time

import numpy as np

from analyzer.routes.batch import compile_rules, evaluate_many
from analyzer.questions.analysis import enumerated
from analyzer.game.engine import _enumerate
from analyzer.bets.rulefile import get_rules
from analyzer.questions.simulate import Deal, deal_coups, remaining_counts, shuffled_shoe, simulate
from bench import median_seconds  # scripts/ is on the path when this runs as a script


def shoe_states(count: int, seed: int = 1) -> np.ndarray:
    """The cards left at each coup of dealt 8-deck shoes, until there are ``count`` states."""
    deal = Deal(8, 14, "face")
    cards = np.stack([shuffled_shoe(deal, seed, i) for i in range(count // 60)])
    states = remaining_counts(cards, deal_coups(deal, get_rules("catalog").tableau, cards))
    return states[:count]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--shoes", type=int, default=5000, help="shoes for the simulate measurement")
    args = parser.parse_args()
    rules = get_rules("catalog").value_level()  # the card-level bets: scripts/bench_cards.py
    start = time.perf_counter()
    compile_rules(rules)
    compile_time = time.perf_counter() - start
    states = shoe_states(50_000)
    evaluate_many(rules, states[:1000])  # warm up
    batch = median_seconds(lambda: evaluate_many(rules, states), args.repeat)
    batch_rate = len(states) / batch

    sample = states[:: len(states) // 200][:200]
    from analyzer.game.cards import Shoe

    shoes = [Shoe(tuple(map(tuple, s.tolist()))) for s in sample]

    def one_at_a_time():
        _enumerate.cache_clear()
        for shoe in shoes:
            enumerated(rules, shoe)

    single = median_seconds(one_at_a_time, max(3, args.repeat // 2)) / len(shoes)

    start = time.perf_counter()
    sim = simulate(rules, Deal(8, 14, "face"), args.shoes, 1)
    sim_time = time.perf_counter() - start
    shoes_per_second = args.shoes / sim_time

    print(f"cores: {os.cpu_count()}; rule set: catalog ({len(rules.bets)} bets); compile once: {compile_time:.2f} s")
    print(f"batch evaluator: {len(states):,} 8-deck shoe states in {batch:.3f} s (median of {args.repeat}): "
          f"{batch_rate:,.0f} states/s, {1e6 / batch_rate:.1f} us per state")
    print(f"one at a time (enumerator + every bet, cache cleared): {single * 1e3:.2f} ms per state, "
          f"{1 / single:,.0f} states/s; batch is {batch_rate * single:.0f}x faster")
    print(f"simulate: {args.shoes:,} shoes ({sim.tally.coups:,} coups) in {sim_time:.1f} s on {os.cpu_count()} workers: "
          f"{shoes_per_second:,.0f} shoes/s, {sim.tally.coups / sim_time:,.0f} coups/s; "
          f"100,000 shoes: {100_000 / shoes_per_second:.0f} s")


if __name__ == "__main__":
    main()
