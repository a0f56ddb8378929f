"""Soak `baccarat serve` on 127.0.0.1: minutes of mixed traffic, then a verdict.

The traffic a pit gives a server, at once: tracker pages (each its own shoe, card by card, the
catalogue on 8 decks), a designer editing a bet, a script polling the rule sets, bad requests
(not JSON, unknown fields, bad cards, a body past the limit, a wrong method, a missing page),
and abandoned connections (one that sends half a request and goes; one that sends a heavy
request and goes while it computes, whose worker the server must stop and replace).

Checked: no answer but the intended ones (200 for good requests, the 4xx each bad one is meant to
get); resident memory of the server and every process below it flat after the warm-up (the
median of the last minute within 10 % of the median of the minute after warm-up); as many
workers at the end as at the start (none lost unreplaced); a clean stop. Bounded: 127.0.0.1
only, ``--minutes``, each request 60 s at most. Linux (/proc) only.

Run: python scripts/soak_serve.py [--minutes 10] [--trackers 12]
"""

import argparse
import collections
import http.client
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
RANKS = "A23456789TJQK"
DRAGON = ('name = "mine"\n[[bets]]\nid = "dragon_7"\nname = "Dragon 7"\nlines = [{ label = "Banker wins with a '
          'three-card 7", when = { winner = "banker", banker_total = 7, banker_cards = 3 }, pays = %d }]\n')
BAD = [  # (method, path, body, the status it is meant to get)
    ("POST", "/api/now", b"not json", 400),
    ("POST", "/api/now", b'{"decks": 8, "colour": "red"}', 400),
    ("POST", "/api/now", b'{"dealt": "Z Z"}', 400),
    ("POST", "/api/now", b'{"decks": 99}', 400),
    ("POST", "/api/design", b'{"rules_toml": "[[bets]\\nid ="}', 400),
    ("POST", "/api/now", b'{"dealt": "' + b"A " * 150_000 + b'"}', 413),
    ("GET", "/api/now", None, 405),
    ("GET", "/api/nowhere", None, 404),
]


def descendants(pid: int) -> set[int]:
    out, todo = set(), [pid]
    while todo:
        parent = todo.pop()
        try:
            with open(f"/proc/{parent}/task/{parent}/children") as children:
                found = {int(c) for c in children.read().split()}
        except OSError:
            continue
        todo += found - out
        out |= found
    return out


def resident(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, IndexError):
        return 0


def workers(pid: int) -> set[int]:
    """The server's worker processes: its fork server's children."""
    forks = [p for p in children_of(pid) if b"forkserver" in open(f"/proc/{p}/cmdline", "rb").read()]
    return set().union(*(children_of(p) for p in forks))


def children_of(pid: int) -> set[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as children:
            return {int(c) for c in children.read().split()}
    except OSError:
        return set()


class Traffic:
    def __init__(self, port: int, end: float):
        self.port, self.end = port, end
        self.statuses = collections.Counter()  # (kind, status) -> count
        self.wrong = []  # (kind, status, what) of answers that were not the intended ones
        self.lock = threading.Lock()

    def note(self, kind: str, status: int, expected: int, detail: bytes = b""):
        with self.lock:
            self.statuses[kind, status] += 1
            if status != expected:
                self.wrong.append((kind, status, detail[:200]))

    def request(self, connection, method: str, path: str, body: bytes | None) -> tuple[int, bytes]:
        connection.request(method, path, body, {"Content-Type": "application/json"} if body is not None else {})
        response = connection.getresponse()
        return response.status, response.read()

    def connection(self):
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)

    def tracker(self, seed: int, every: float):
        rng, connection = random.Random(seed), self.connection()
        shoe, dealt = [], 0
        while time.monotonic() < self.end:
            if dealt >= len(shoe) - 6:
                shoe, dealt = list(RANKS * 32), 0
                rng.shuffle(shoe)
            dealt += 1
            body = json.dumps({"rules": "catalog", "decks": 8, "dealt": " ".join(shoe[:dealt])}).encode()
            status, answer = self.request(connection, "POST", "/api/now", body)
            self.note("tracker", status, 200, answer)
            time.sleep(rng.uniform(0, 2 * every))

    def designer(self):
        rng, connection = random.Random(-1), self.connection()
        while time.monotonic() < self.end:
            status, answer = self.request(connection, "POST", "/api/design",
                                          json.dumps({"rules_toml": DRAGON % rng.randint(20, 60)}).encode())
            self.note("designer", status, 200, answer)
            time.sleep(rng.uniform(0.1, 0.6))

    def poller(self):
        connection = self.connection()
        while time.monotonic() < self.end:
            for path in ("/api/rules", "/api/openapi.json", "/"):
                status, answer = self.request(connection, "GET", path, None)
                self.note("poller", status, 200, answer)
            time.sleep(1)

    def bad(self):
        rng = random.Random(-2)
        while time.monotonic() < self.end:
            method, path, body, expected = rng.choice(BAD)
            connection = self.connection()  # a fresh one: a 413 closes it
            try:
                status, answer = self.request(connection, method, path, body)
            except (ConnectionError, http.client.HTTPException) as error:  # a body past the limit may be cut off
                status, answer = (expected, b"") if expected == 413 else (0, str(error).encode())
            finally:
                connection.close()
            self.note("bad request", status, expected, answer)
            time.sleep(rng.uniform(0.05, 0.4))

    def abandoner(self):
        """Half a request, then gone; a heavy request, then gone while it computes."""
        rng = random.Random(-3)
        heavy = json.dumps({"rules": "catalog", "known": ["1=red", str(rng.choice(RANKS)) + "=black"]}).encode()
        while time.monotonic() < self.end:
            with socket.create_connection(("127.0.0.1", self.port)) as gone:
                gone.sendall(b"POST /api/now HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Len")
            with socket.create_connection(("127.0.0.1", self.port)) as gone:
                gone.sendall(b"POST /api/now HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s" % (len(heavy), heavy))
                time.sleep(0.2)
            with self.lock:
                self.statuses["abandoned", 0] += 2
            time.sleep(rng.uniform(5, 15))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10)
    parser.add_argument("--trackers", type=int, default=12)
    parser.add_argument("--every", type=float, default=0.5, help="a tracker's mean pause between updates (s)")
    parser.add_argument("--warm-up", type=float, default=2, help="minutes before memory is compared")
    args = parser.parse_args()
    process = subprocess.Popen([sys.executable, "-m", "analyzer", "serve", "--rate", "100000"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=os.environ | {"PYTHONUNBUFFERED": "1"})
    url = process.stdout.readline().split()[2]
    port = int(url.rsplit(":", 1)[1].rstrip("/"))
    start = time.monotonic()
    traffic = Traffic(port, start + args.minutes * 60)
    at_start = workers(process.pid)
    threads = [threading.Thread(target=traffic.tracker, args=(seed, args.every)) for seed in range(args.trackers)]
    threads += [threading.Thread(target=f) for f in (traffic.designer, traffic.poller, traffic.bad, traffic.abandoner)]
    for thread in threads:
        thread.daemon = True
        thread.start()
    samples = []  # (minutes, resident bytes of the server and all below it, workers)
    seen = set(at_start)  # every worker seen: those beyond the first were replacements
    try:
        while any(t.is_alive() for t in threads):
            time.sleep(5)
            pids = {process.pid} | descendants(process.pid)
            now = workers(process.pid)
            seen |= now
            samples.append(((time.monotonic() - start) / 60, sum(resident(p) for p in pids), len(now)))
            print(f"{samples[-1][0]:5.1f} min: {samples[-1][1] / 2**20:6.0f} MB, {samples[-1][2]} workers, "
                  f"{sum(traffic.statuses.values()):,} requests", flush=True)
        for thread in threads:
            thread.join(timeout=70)
        at_end = workers(process.pid)
    finally:
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=30)
    warm = [m for t, m, _ in samples if args.warm_up <= t < args.warm_up + 1]
    last = [m for t, m, _ in samples if t >= samples[-1][0] - 1]
    growth = statistics.median(last) / statistics.median(warm) - 1
    print("\n| traffic | status | answers |\n|---|---|---|")
    for (kind, status), count in sorted(traffic.statuses.items()):
        print(f"| {kind} | {status or 'none (gone)'} | {count:,} |")
    print(f"\n{args.minutes:g} minutes, {sum(traffic.statuses.values()):,} requests; resident memory after warm-up "
          f"{statistics.median(warm) / 2**20:.0f} MB, in the last minute {statistics.median(last) / 2**20:.0f} MB "
          f"({growth:+.1%}), peak {max(m for _, m, _ in samples) / 2**20:.0f} MB; workers {len(at_start)} at the start, "
          f"{len(at_end)} at the end, {min(w for _, _, w in samples)} at the fewest, at least {len(seen) - len(at_start)} "
          f"replaced (sampled every 5 s); server exit {process.returncode} "
          f"({out.strip()!r}); its messages: {len(err.splitlines())} lines")
    for line in sorted(set(err.splitlines()))[:5]:
        print("  server said:", line)
    problems = [f"{len(traffic.wrong)} unintended answers, e.g. {traffic.wrong[:3]}"] * bool(traffic.wrong)
    problems += [f"memory grew {growth:.1%}"] * (growth > 0.10)
    problems += [f"workers {len(at_start)} -> {len(at_end)}"] * (len(at_end) != len(at_start))
    problems += [f"exit status {process.returncode}"] * (process.returncode != 0)
    print("verdict:", "; ".join(problems) or "passed")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
