"""Time `baccarat serve` on 127.0.0.1: one user tracking a shoe card by card and one designing a
side bet (the server's own time per update, and the round trip); then 50 tracker clients at once.

Each of the many clients tracks a shoe of its own (8 decks, shuffled with its own seed), card by
card, as the page does: after each card it sends the whole list dealt so far, on a kept-alive
connection, and takes the next shoe at the end of one. Two ways of loading the server:

- closed: every client sends its next update as soon as it has the last answer (no pause), so
  the server is saturated: its throughput, and the latency of 50 clients queued at once;
- open: the clients together send ``--rates`` updates a second on a fixed timetable, whatever
  the server does; latency is counted from when a request was due, so a queue behind a slow
  answer is counted too (no coordinated omission).

Run: python scripts/bench_serve.py [--clients 50] [--seconds 20] [--rates 200,300] [--before DIR]
(DIR: another checkout, served by its own code in the same rounds, interleaved with this one).
Issue 31's aims: >= 300 requests/s and p99 <= 150 ms, 50 clients, the catalogue, 8 decks.
The load is bounded: 127.0.0.1 only, ``--seconds`` a round, every request 60 s at most.
"""

import argparse
import asyncio
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import time
import urllib.request

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one BLAS thread: the machine has two cores
os.environ.setdefault("OMP_NUM_THREADS", "1")

RANKS = "A23456789TJQK"
CARDS = RANKS * 32  # a shoe's worth of ranks, in a fixed order (the one-user runs)
DRAGON = ('name = "mine"\n[[bets]]\nid = "dragon_7"\nname = "Dragon 7"\nlines = [{ label = "Banker wins with a '
          'three-card 7", when = { winner = "banker", banker_total = 7, banker_cards = 3 }, pays = %d }]\n')


def start(checkout: str | None) -> tuple[subprocess.Popen, str]:
    """`baccarat serve` of this checkout (or of ``checkout``), the rate limit out of the way."""
    env = os.environ | {"PYTHONUNBUFFERED": "1"} | ({"PYTHONPATH": checkout} if checkout else {})
    process = subprocess.Popen([sys.executable, "-m", "analyzer", "serve", "--rate", "100000"],
                               stdout=subprocess.PIPE, text=True, env=env, cwd=checkout or None)
    line = process.stdout.readline()
    if not line.startswith("Serving on "):
        process.kill()
        raise SystemExit(f"the server did not start: {line!r}")
    return process, line.split()[2]


def stop(process: subprocess.Popen):
    process.send_signal(signal.SIGINT)
    process.wait(timeout=20)


# One user at a time ------------------------------------------------------------------------

def call(url: str, path: str, body: dict) -> tuple[float, float]:
    """(round trip, server time) in seconds."""
    request = urllib.request.Request(url + path, json.dumps(body).encode(), {"Content-Type": "application/json"})
    begin = time.perf_counter()
    with urllib.request.urlopen(request, timeout=60) as response:
        data = json.load(response)
    return time.perf_counter() - begin, data["server_ms"] / 1000


def tracked(url: str, cards: int, **body) -> list[tuple[float, float]]:
    """A shoe tracked card by card: an update after each card (the first, which may compile the
    rule set, left out)."""
    call(url, "api/now", {"decks": 8, "dealt": ""} | body)
    return [call(url, "api/now", {"decks": 8, "dealt": " ".join(CARDS[:k])} | body) for k in range(1, cards + 1)]


def designed(url: str, edits: int) -> list[tuple[float, float]]:
    """A designer typing: the payout edited again and again."""
    call(url, "api/design", {"rules_toml": DRAGON % 40})
    return [call(url, "api/design", {"rules_toml": DRAGON % (30 + k % 40)}) for k in range(edits)]


# Many users at once ------------------------------------------------------------------------

class Client:
    """A tracker page's traffic on one kept-alive HTTP/1.1 connection: its own shoes, card by card."""

    def __init__(self, url: str, seed: int):
        host, port = url.split("//")[1].rstrip("/").rsplit(":", 1)
        self.host, self.port, self.random = host, int(port), random.Random(seed)
        self.shoe, self.dealt, self.reader, self.writer = [], 0, None, None

    def next_body(self) -> bytes:
        if self.dealt >= len(self.shoe) - 6:  # the cut card: a new shoe
            self.shoe = list(RANKS * 32)
            self.random.shuffle(self.shoe)
            self.dealt = 0
        self.dealt += 1
        return json.dumps({"rules": "catalog", "decks": 8, "dealt": " ".join(self.shoe[:self.dealt])}).encode()

    def close(self):
        if self.writer is not None:
            self.writer.close()

    async def request(self) -> float:
        """One update; the server's time (seconds). A failure is an exception."""
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        body = self.next_body()
        self.writer.write(b"POST /api/now HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\n"
                          b"Content-Length: %d\r\n\r\n%s" % (self.host.encode(), len(body), body))
        head = await self.reader.readuntil(b"\r\n\r\n")
        status = head.split(b" ", 2)[1]
        length = int(head.lower().split(b"content-length:")[1].split(b"\r\n")[0])
        answer = await self.reader.readexactly(length)
        if head.startswith(b"HTTP/1.0") or b"connection: close" in head.lower():  # werkzeug's server, before
            self.close()
            self.writer = None
        if status != b"200":
            raise RuntimeError(f"status {status.decode()}: {answer[:200]!r}")
        at = answer.rfind(b'"server_ms":')  # the last field: the answer is not parsed whole (client CPU)
        return float(answer[at + 12:].split(b"}")[0]) / 1000


async def closed_loop(url: str, clients: int, seconds: float) -> tuple[list[float], list[float], float]:
    """Each client sends its next update as soon as it has the last one: (latencies, server times, wall)."""
    latencies, server = [], []
    end = time.perf_counter() + seconds

    async def run(client: Client):
        while time.perf_counter() < end:
            begin = time.perf_counter()
            server.append(await asyncio.wait_for(client.request(), 60))
            latencies.append(time.perf_counter() - begin)
        client.close()

    begin = time.perf_counter()
    await asyncio.gather(*(run(Client(url, seed)) for seed in range(clients)))
    return latencies, server, time.perf_counter() - begin


async def open_loop(url: str, clients: int, seconds: float, rate: float) -> tuple[list[float], list[float], float]:
    """The clients send ``rate`` updates a second in all, each on its own timetable; a latency runs
    from when the request was due."""
    latencies, server = [], []
    every = clients / rate
    begin = time.perf_counter()

    async def run(client: Client, offset: float):
        due = begin + offset
        while due < begin + seconds:
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            server.append(await asyncio.wait_for(client.request(), 60))
            latencies.append(time.perf_counter() - due)
            due += every
        client.close()

    await asyncio.gather(*(run(Client(url, seed), seed * every / clients) for seed in range(clients)))
    return latencies, server, time.perf_counter() - begin


def loaded(url: str, clients: int, seconds: float, rate: float | None) -> dict:
    """One round of load, after a warm-up of every client's first shoe state."""
    asyncio.run(closed_loop(url, clients, 2))
    latencies, server, wall = asyncio.run(open_loop(url, clients, seconds, rate) if rate else
                                          closed_loop(url, clients, seconds))
    return {"requests/s": len(latencies) / wall, "p50": quantile(latencies, 0.5), "p99": quantile(latencies, 0.99),
            "server p50": quantile(server, 0.5), "server p99": quantile(server, 0.99), "requests": len(latencies)}


def checkout_loads(checkout: str | None, load: str) -> bool:
    """The checkout before is loaded in a closed loop only: far below an open loop's rate, its
    clients would take minutes to send what was due."""
    return checkout is None or load == "closed loop"


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] * 1000


def quantiles(values: list[float]) -> str:
    return f"{quantile(values, 0.5):.1f} ms | {quantile(values, 0.99):.1f} ms"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=100, help="updates of the one-user runs")
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20, help="length of a round of load")
    parser.add_argument("--rates", default="200,300", help="requests a second in all, open loop (comma-separated)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of each load, interleaved")
    parser.add_argument("--before", metavar="DIR", help="another checkout, loaded in the same rounds")
    args = parser.parse_args()

    process, url = start(None)
    try:
        runs = {
            "tracker, catalogue (92 bets, 23 card-level: the default), 8 decks": tracked(url, args.cards, rules="catalog"),
            "tracker, catalogue without its card-level bets, 8 decks": tracked(url, args.cards, rules="catalog",
                                                                            card_level=False),
            "tracker, standard (5 bets), 8 decks": tracked(url, args.cards, rules="standard"),
            "designer, a one-line bet, 8 decks": designed(url, args.cards),
        }
    finally:
        stop(process)
    print("| one user, an update at a time | server p50 | server p99 | round trip p50 | round trip p99 |")
    print("|---|---|---|---|---|")
    for name, times in runs.items():
        print(f"| {name} ({len(times)} updates) | {quantiles([s for _, s in times])} | {quantiles([t for t, _ in times])} |")

    servers = {"this checkout": None} | ({f"before ({args.before})": args.before} if args.before else {})
    loads = {"closed loop": None} | {f"open loop, {rate:g}/s": rate for rate in map(float, args.rates.split(","))}
    runs = [(s, l) for s in servers for l in loads if checkout_loads(servers[s], l)]
    results = {run: [] for run in runs}
    for _ in range(args.rounds):
        for server_name, checkout in servers.items():
            process, url = start(checkout)
            try:
                for load_name, rate in loads.items():
                    if (server_name, load_name) in results:
                        results[server_name, load_name].append(loaded(url, args.clients, args.seconds, rate))
            finally:
                stop(process)
    print(f"\n{args.clients} tracker clients (catalogue, 8 decks, a shoe each), {args.rounds} rounds of "
          f"{args.seconds:g} s, medians of the rounds:\n")
    print("| server | load | requests/s | latency p50 | latency p99 | server p50 | server p99 |")
    print("|---|---|---|---|---|---|---|")
    for (server_name, load_name), rounds in results.items():
        m = {key: statistics.median(r[key] for r in rounds) for key in rounds[0]}
        print(f"| {server_name} | {load_name} | {m['requests/s']:.0f} | {m['p50']:.0f} ms | {m['p99']:.0f} ms | "
              f"{m['server p50']:.1f} ms | {m['server p99']:.1f} ms |")


if __name__ == "__main__":
    main()
