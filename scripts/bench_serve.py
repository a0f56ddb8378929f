"""Time `baccarat serve`: one user tracking a shoe card by card and one designing a side bet
(the server's own time per update, and the round trip), then many users at once (127.0.0.1 only).

Run: python scripts/bench_serve.py [--cards 200] [--clients 50] [--requests 200]
Issue 19's aim: each update <= 50 ms server time on 8 decks for the catalogue.
"""

import argparse
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one BLAS thread: the machine has two cores
os.environ.setdefault("OMP_NUM_THREADS", "1")

CARDS = "A23456789TJQK" * 32  # a shoe's worth of ranks, in a fixed order
DRAGON = ('name = "mine"\n[[bets]]\nid = "dragon_7"\nname = "Dragon 7"\nlines = [{ label = "Banker wins with a '
          'three-card 7", when = { winner = "banker", banker_total = 7, banker_cards = 3 }, pays = %d }]\n')


def call(url: str, path: str, body: dict) -> tuple[float, float]:
    """(round trip, server time) in seconds."""
    request = urllib.request.Request(url + path, json.dumps(body).encode(), {"Content-Type": "application/json"})
    start = time.perf_counter()
    with urllib.request.urlopen(request, timeout=60) as response:
        data = json.load(response)
    return time.perf_counter() - start, data["server_ms"] / 1000


def tracked(url: str, cards: int, **body) -> list[tuple[float, float]]:
    """A shoe tracked card by card: an update after each card (the first, which compiles the
    rule set, left out)."""
    call(url, "api/now", {"decks": 8, "dealt": ""} | body)
    return [call(url, "api/now", {"decks": 8, "dealt": " ".join(CARDS[:k])} | body) for k in range(1, cards + 1)]


def designed(url: str, edits: int) -> list[tuple[float, float]]:
    """A designer typing: the payout edited again and again."""
    call(url, "api/design", {"rules_toml": DRAGON % 40})
    return [call(url, "api/design", {"rules_toml": DRAGON % (30 + k % 40)}) for k in range(edits)]


def loaded(url: str, clients: int, requests: int) -> tuple[list[tuple[float, float]], float]:
    def client(i: int):
        return [call(url, "api/now", {"rules": "catalog", "decks": 8, "dealt": " ".join(CARDS[i:i + k % 60])})
                for k in range(requests)]

    start = time.perf_counter()
    with ThreadPoolExecutor(clients) as pool:
        times = [t for result in pool.map(client, range(clients)) for t in result]
    return times, time.perf_counter() - start


def quantiles(values: list[float]) -> str:
    ordered = sorted(values)
    at = lambda q: ordered[min(len(ordered) - 1, int(len(ordered) * q))] * 1000  # noqa: E731
    return f"{at(0.5):.1f} ms | {at(0.99):.1f} ms"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=200, help="updates of the one-user runs")
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--requests", type=int, default=200, help="requests of each client")
    args = parser.parse_args()
    process = subprocess.Popen([sys.executable, "-m", "analyzer", "serve", "--rate", "100000"], stdout=subprocess.PIPE,
                               text=True)
    url = process.stdout.readline().split()[2]
    try:
        runs = {
            "tracker, catalogue (63 bets, 15 card-level: the default), 8 decks": tracked(url, args.cards, rules="catalog"),
            "tracker, catalogue without its card-level bets (48), 8 decks": tracked(
                url, args.cards, rules="catalog", card_level=False),
            "tracker, standard (5 bets), 8 decks": tracked(url, args.cards, rules="standard"),
            "designer, a one-line bet, 8 decks": designed(url, args.cards),
        }
        print("| one user, an update at a time | server p50 | server p99 | round trip p50 | round trip p99 |")
        print("|---|---|---|---|---|")
        for name, times in runs.items():
            print(f"| {name} ({len(times)} updates) | {quantiles([s for _, s in times])} | {quantiles([t for t, _ in times])} |")
        times, wall = loaded(url, args.clients, args.requests)
        print(f"\n{args.clients} clients x {args.requests} requests (tracker, catalogue, 8 decks) in {wall:.1f} s: "
              f"{len(times) / wall:.0f} requests/s; server p50 | p99: {quantiles([s for _, s in times])}; "
              f"latency p50 | p99: {quantiles([t for t, _ in times])}")
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=10)


if __name__ == "__main__":
    main()
