"""Soak: a pit of tables dealt by feeds and followed by screens, through `baccarat serve`, on this
machine only (127.0.0.1), bounded in time.

Run: python scripts/soak_pit.py [--minutes 10] [--tables 20] [--screens 100] [--overviews 20] [--interval 3]
     [--wagers 0] [--db URL]

Each table's feed deals real 8-deck shoes (shuffled, seeded) a coup every --interval seconds,
each coup sent with the last event number it saw; the screens follow the tables' streams (each
screen one table, in turn), the overviews the pit's stream (every table). Reported: the delay
from each event's acknowledgement to each screen's receipt, table screens and overviews apart
(p50, p99, max; the target is p99 <= 250 ms), the HTTP process's CPU after the warm-up (the
target: under half a core), the server's memory (its process and its workers, resident) after
the warm-up and at the end (the target: at most 10 % growth), what one screen receives a minute,
and at the end every kept coup's figures against a fresh replay of its shoe (all equal).

With ``--wagers N``, each feed places N wagers (catalogue bets, 5 to 500) before each coup, as a
table system would, and each overview also asks for the day's results every 15 s, as the page
does (GET /api/results): reported, those requests' times, and the CPU of the server's every
process (the tally process, which works out each coup's variance as the day goes, among them).
"""

import argparse
import http.client
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analyzer.pit.replay import cards_taken  # noqa: E402  (how many cards a coup takes, by the tableau)
from analyzer.game.cards import VALUES, RANKS  # noqa: E402
from analyzer.game.tableau import PUNTO_BANCO  # noqa: E402

SUITS = "shdc"
BETS = ["banker", "player", "tie", "player_pair", "banker_pair", "dragon_7", "panda_8", "either_pair", "perfect_pair"]
AMOUNTS = [5, 10, 25, 100, 500]
RESULTS_EVERY = 15  # seconds between two asks of an overview for the day's results (pit.js: RESULTS_MS)


class Results(threading.Thread):
    """An overview's asks for the day's results, every RESULTS_EVERY seconds: how long each took."""

    def __init__(self, port, until, seed):
        super().__init__(daemon=True)
        self.port, self.until, self.times, self.failed = port, until, [], []
        self.offset = random.Random(seed).random() * RESULTS_EVERY

    def run(self):
        time.sleep(self.offset)
        since = time.strftime("%Y-%m-%dT00:00:00Z", time.gmtime())
        while time.monotonic() < self.until:
            start = time.monotonic()
            status, answer = call(self.port, "GET", f"/api/results?since={since}", timeout=120)
            (self.times if status == 200 else self.failed).append(time.monotonic() - start)
            time.sleep(max(0.0, RESULTS_EVERY - (time.monotonic() - start)))


def call(port, method, path, body=None, timeout=30):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    connection.request(method, path, body=None if body is None else json.dumps(body),
                       headers={"Content-Type": "application/json"})
    answer = connection.getresponse()
    data = json.loads(answer.read())
    connection.close()
    return answer.status, data


def resident_mb(pid: int, alone: bool = False) -> float:
    """Resident memory of a process and its children (``alone``: of the process alone), from /proc."""
    total = 0
    for child in [pid] + ([] if alone else children(pid)):
        try:
            with open(f"/proc/{child}/status") as f:
                total += next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
        except (OSError, StopIteration):
            pass
    return total / 1024


def children(pid: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                        out += [int(entry)] + children(int(entry))
            except (OSError, ValueError, IndexError):
                pass
    return out


class Feed(threading.Thread):
    """A table's feed: shoes dealt a coup every ``interval`` seconds until ``until``."""

    def __init__(self, port, name, seed, interval, until, acknowledged, wagers=0):
        super().__init__(daemon=True)
        self.port, self.name, self.rng, self.interval, self.until = port, name, random.Random(seed), interval, until
        self.acknowledged, self.errors, self.after, self.wagers = acknowledged, [], 0, wagers

    def wager(self):
        """``wagers`` wagers on the coming coup (a 409 when the table moved on is the feed's own race: counted)."""
        items = [{"player": f"{self.name}-s{k}", "seat": k, "bet": self.rng.choice(BETS), "amount": self.rng.choice(AMOUNTS)}
                 for k in range(1, self.wagers + 1)]
        status, answer = call(self.port, "POST", f"/api/tables/{self.name}/wagers", {"after": self.after, "wagers": items})
        if status != 201:
            self.errors.append((status, answer))

    def send(self, event):
        status, answer = call(self.port, "POST", f"/api/tables/{self.name}/events", event | {"after": self.after})
        if status != 200:
            self.errors.append((status, answer))
            return False
        self.after = answer["event"]
        self.acknowledged[(self.name, self.after)] = time.monotonic()
        return True

    def run(self):
        time.sleep(self.rng.random() * self.interval)
        while time.monotonic() < self.until:
            cards = [r + s for r in RANKS for s in SUITS] * 8
            self.rng.shuffle(cards)
            self.send({"type": "shoe"})
            burn = VALUES[RANKS.index(cards[0][0])] or 10
            self.send({"type": "burn", "cards": [cards[0]], "face_down": burn})
            at = 1 + burn
            while len(cards) - at > 14 and time.monotonic() < self.until:
                values = [VALUES[RANKS.index(c[0])] for c in cards[at:at + 6]]
                taken = cards_taken(values, PUNTO_BANCO)
                start = time.monotonic()
                if self.wagers:
                    self.wager()
                self.send({"type": "coup", "cards": cards[at:at + taken]})
                at += taken
                time.sleep(max(0.0, self.interval - (time.monotonic() - start)))
            if time.monotonic() < self.until:
                self.send({"type": "cut"})
                values = [VALUES[RANKS.index(c[0])] for c in cards[at:at + 6]]
                self.send({"type": "coup", "cards": cards[at:at + cards_taken(values, PUNTO_BANCO)]})


class Screen(threading.Thread):
    """A screen following a table's stream (or, ``name`` None, the pit's overview): when each
    (table, event) arrived, and the bytes it received after ``counted`` (the warm-up's end)."""

    def __init__(self, port, name, until, counted):
        super().__init__(daemon=True)
        self.port, self.table, self.until, self.counted, self.arrived, self.bytes = port, name, until, counted, {}, 0

    def run(self):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        path = "/api/pit/stream" if self.table is None else f"/api/tables/{self.table}/events?after=0"
        connection.request("GET", path, headers={"Accept": "text/event-stream"})
        answer = connection.getresponse()
        while time.monotonic() < self.until + 2:
            line = answer.fp.readline()
            if not line:
                return
            if time.monotonic() > self.counted:
                self.bytes += len(line)
            if self.table is not None and line.startswith(b"id: "):
                self.arrived[(self.table, int(line[4:]))] = time.monotonic()
            elif self.table is None and line.startswith(b"data: {"):
                tile = json.loads(line[6:])
                self.arrived.setdefault((tile["name"], tile["event"]), time.monotonic())
        connection.close()


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) a process has used, from /proc."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def tree_cpu(pid: int) -> float:
    """The CPU time of a process and of every process below it (those alive now)."""
    total, todo = 0.0, [pid]
    while todo:
        p = todo.pop()
        try:
            total += cpu_seconds(p)
            todo += children(p)
        except OSError:
            pass
    return total


def delay_line(what, screens, acknowledged):
    delays = sorted(arrived - acknowledged[key] for s in screens for key, arrived in s.arrived.items() if key in acknowledged)
    if not delays:
        return f"{what}: nothing received"
    return (f"{what}: delay from acknowledgement p50 {statistics.median(delays) * 1000:.0f} ms, "
            f"p99 {delays[int(0.99 * (len(delays) - 1))] * 1000:.0f} ms, max {delays[-1] * 1000:.0f} ms ({len(delays)} deliveries)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--minutes", type=float, default=10)
    ap.add_argument("--tables", type=int, default=20)
    ap.add_argument("--screens", type=int, default=100)
    ap.add_argument("--overviews", type=int, default=20)
    ap.add_argument("--interval", type=float, default=3.0)
    ap.add_argument("--rules", default="catalog")
    ap.add_argument("--wagers", type=int, default=0, help="wagers placed before each coup at each table")
    ap.add_argument("--db", help="default: a SQLite file in a temporary folder")
    a = ap.parse_args()
    folder = tempfile.mkdtemp(prefix="soak-pit-")
    db = a.db or f"sqlite:///{folder}/pit.sqlite"
    server = subprocess.Popen([sys.executable, "-m", "analyzer", "serve", "--port", "0", "--rate", "100000",
                               "--db", db, "--screens", str(a.screens + a.overviews + 10)], stdout=subprocess.PIPE, text=True,
                              env=os.environ | {"XDG_CACHE_HOME": os.environ.get("XDG_CACHE_HOME", folder)})
    port = int(server.stdout.readline().split(":")[2].split("/")[0])
    try:
        names = [f"bac-{i + 1}" for i in range(a.tables)]
        for name in names:
            status, answer = call(port, "POST", "/api/tables", {"name": name, "rules": a.rules})
            assert status == 201, answer
        start = time.monotonic()
        until = start + a.minutes * 60
        acknowledged = {}
        warm = start + min(60, a.minutes * 60 / 3)
        screens = [Screen(port, names[i % len(names)], until, warm) for i in range(a.screens)]
        overviews = [Screen(port, None, until, warm) for _ in range(a.overviews)]
        [s.start() for s in screens + overviews]
        feeds = [Feed(port, name, i, a.interval, until, acknowledged, a.wagers) for i, name in enumerate(names)]
        [f.start() for f in feeds]
        askers = [Results(port, until, i) for i in range(a.overviews)] if a.wagers else []
        [r.start() for r in askers]
        memory, cpu = [], None
        while time.monotonic() < until:
            time.sleep(5)
            if time.monotonic() > warm:
                if cpu is None:
                    cpu = (time.monotonic(), cpu_seconds(server.pid), tree_cpu(server.pid))
                memory.append((resident_mb(server.pid), resident_mb(server.pid, alone=True)))
        cpu_end = (time.monotonic(), cpu_seconds(server.pid), tree_cpu(server.pid))
        [f.join() for f in feeds]
        [s.join(timeout=10) for s in screens + overviews]
        [r.join(timeout=130) for r in askers]
        missing = sum(1 for s in screens for key in acknowledged if key[0] == s.table and key not in s.arrived)
        print(f"soak: {a.tables} tables, a coup every {a.interval} s each, {a.screens} table screens and {a.overviews} "
              f"overview screens, {a.minutes} minutes; {len(acknowledged)} events kept, {sum(len(f.errors) for f in feeds)} refused")
        print(delay_line("table screens", screens, acknowledged) + f", {missing} not seen")
        # an overview shows each table's latest: an event overtaken by the next before it was sent is not missed
        print(delay_line("overview screens", overviews, acknowledged))
        if askers:
            asked = sorted(t for r in askers for t in r.times)
            wagered = sum(1 for f in feeds for e in f.errors if e[0] == 409)
            print(f"results asked {len(asked)} times by the overviews ({sum(len(r.failed) for r in askers)} failed): "
                  f"p50 {statistics.median(asked) * 1000:.0f} ms, p99 {asked[int(0.99 * (len(asked) - 1))] * 1000:.0f} ms, "
                  f"max {asked[-1] * 1000:.0f} ms; {wagered} wagers' posts refused as late" if asked else "results: never asked")
        if cpu is not None:
            seconds = cpu_end[0] - cpu[0]
            used = (cpu_end[1] - cpu[1]) / seconds
            print(f"the HTTP process after warm-up: {used:.3f} of a core on average over {seconds:.0f} s; the server's "
                  f"every process {(cpu_end[2] - cpu[2]) / seconds:.3f}")
            for what, group in (("a table screen", screens), ("an overview screen", overviews)):
                if group:
                    print(f"{what} receives {statistics.mean(s.bytes for s in group) / seconds * 60 / 1024:.1f} KB a minute")
            print(f"the process's CPU per screen: {used / max(1, a.screens + a.overviews) * 1000:.2f} ms a second "
                  f"(feeds included: an upper bound)")
        for i, what in enumerate(("the server and its workers", "the HTTP process alone")):
            if memory:
                first, last, peak = memory[0][i], memory[-1][i], max(m[i] for m in memory)
                print(f"memory of {what} after warm-up: {first:.0f} MB, at the end {last:.0f} MB "
                      f"({(last / first - 1) * 100:+.1f} %), peak {peak:.0f} MB")
        unequal = checked = 0
        for name in names:
            _, events = call(port, "GET", f"/api/tables/{name}/events?after=0")
            shoes = sorted({e["shoe"] for e in events["events"] if e["type"] == "coup"})
            for shoe in shoes:
                _, replay = call(port, "GET", f"/api/tables/{name}/shoes/{shoe}/replay", timeout=120)
                kept = [e for e in events["events"] if e["shoe"] == shoe]
                before = [kept[i - 1]["figures"]["bets"] for i, e in enumerate(kept) if e["type"] in ("coup", "correction")]
                for coup, figures in zip(replay["coups"], before):
                    checked += 1
                    unequal += coup["bets"] != figures
        print(f"replay: {checked} coups' figures compared with a fresh replay, {unequal} unequal")
    finally:
        server.send_signal(signal.SIGINT)
        server.communicate(timeout=60)


if __name__ == "__main__":
    main()
