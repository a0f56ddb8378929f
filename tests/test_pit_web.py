"""The pit's JSON API (web/pit.py through app.py): tables created, events posted with the last
number seen (409 with the table as it is when another writer came first), bad input a clear 4xx
that keeps nothing, the write token apart from the watch token; and through the real server
(waitress), a screen following a table gets each event within 250 ms and catches up by itself."""

import http.client
import json
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from analyzer.web.app import create_app
from analyzer.web.pit import Pit

COUPS = [["8c", "3c", "7h", "5c"], ["9s", "Kd", "Kh", "4c"], ["2c", "3d", "3h", "Ts", "9d", "4d"], ["Qs", "6h", "7c", "Jh"]]


@pytest.fixture
def client(tmp_path):
    pit = Pit(f"sqlite:///{tmp_path / 'pit.sqlite'}")
    app = create_app(pit=pit)
    yield app.test_client()
    pit.close()


def post(client, path, body, token=None):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    answer = client.post(path, data=json.dumps(body), headers=headers, content_type="application/json")
    return answer.status_code, answer.get_json()


def test_a_table_created_dealt_and_read(client):
    status, table = post(client, "/api/tables", {"name": "bac-7", "rules": "standard", "decks": 8})
    assert status == 201 and table["name"] == "bac-7" and table["event"] == 0 and table["bets"] == []
    assert post(client, "/api/tables/bac-7/events", {"type": "shoe", "after": 0})[0] == 200
    status, answer = post(client, "/api/tables/bac-7/events", {"type": "coup", "cards": COUPS[0], "after": 1})
    assert status == 200 and answer["event"] == 2
    table = client.get("/api/tables/bac-7").get_json()
    assert table["event"] == 2 and table["cards_left"] == 412 and table["last"]["winner"] == "banker"
    assert [b["bet"] for b in table["bets"]] == ["banker", "player", "tie", "player_pair", "banker_pair"]
    assert [t["name"] for t in client.get("/api/tables").get_json()["tables"]] == ["bac-7"]
    events = client.get("/api/tables/bac-7/events?after=1").get_json()["events"]
    assert [e["event"] for e in events] == [2] and events[0]["body"]["cards"] == COUPS[0]
    shoes = client.get("/api/tables/bac-7/shoes").get_json()["shoes"]
    assert [(s["shoe"], s["first"], s["last"], s["coups"]) for s in shoes] == [(1, 1, 2, 1)]
    replay = client.get("/api/tables/bac-7/shoes/1/replay").get_json()
    assert replay["coups"][0]["cards"] == COUPS[0]
    for shoe in (2, 99999999999999999999):  # no such shoe, however large its number: a 404, not a 500
        answer = client.get(f"/api/tables/bac-7/shoes/{shoe}/replay")
        assert answer.status_code == 404 and "shoe" in answer.get_json()["error"]


def test_a_second_writer_gets_409_with_the_table_and_nothing_is_lost(client):
    post(client, "/api/tables", {"name": "t"})
    post(client, "/api/tables/t/events", {"type": "shoe", "after": 0})
    assert post(client, "/api/tables/t/events", {"type": "coup", "cards": COUPS[0], "after": 1})[0] == 200
    status, answer = post(client, "/api/tables/t/events", {"type": "coup", "cards": COUPS[1], "after": 1})
    assert status == 409 and answer["event"] == 2 and answer["table"]["event"] == 2
    assert [e["event"] for e in client.get("/api/tables/t/events").get_json()["events"]] == [1, 2]


@pytest.mark.parametrize("path, body, status, says", [
    ("/api/tables/t/events", {"type": "coup", "cards": ["9s", "Kd", "2h", "4c"], "after": 1}, 400, "the tableau deals 5 cards"),
    ("/api/tables/t/events", {"type": "coup", "cards": ["9x", "Kd", "2h", "4c"], "after": 1}, 400, "unknown card '9x'"),
    ("/api/tables/t/events", {"type": "burn", "cards": [], "face_down": 0, "after": 1}, 400, "a burn turns up"),
    ("/api/tables/t/events", {"type": "coup", "cards": COUPS[0], "after": 7}, 409, "no event 7 has been kept there yet"),
    ("/api/tables/t/events", {"type": "coup", "cards": COUPS[0], "after": 10**30}, 409, "no event 100000000000000... has"),
    ("/api/tables/t/events", {"type": "coup", "cards": COUPS[0]}, 400, "'after'"),
    ("/api/tables/nope/events", {"type": "shoe", "after": 0}, 404, "no table 'nope'"),
    ("/api/tables", {"name": "t"}, 400, "already exists"),
    ("/api/tables", {"name": "x y"}, 400, "a table's name"),
    ("/api/tables", {"name": "u", "rules": "my.toml"}, 400, "built-in rule set"),
    ("/api/tables", {"name": "u", "decks": 99}, 400, "decks"),
])
def test_bad_input_is_a_clear_4xx_and_keeps_nothing(client, path, body, status, says):
    post(client, "/api/tables", {"name": "t"})
    post(client, "/api/tables/t/events", {"type": "shoe", "after": 0})
    got, answer = post(client, path, body)
    assert got == status and says in answer["error"], answer
    assert client.get("/api/tables/t").get_json()["event"] == 1
    too_big = client.post("/api/tables/t/events", data=b"{" + b" " * 300_000 + b"}", content_type="application/json")
    assert too_big.status_code == 413


def test_the_write_token_writes_and_the_watch_token_watches(tmp_path):
    pit = Pit(f"sqlite:///{tmp_path / 'pit.sqlite'}")
    client = create_app(token="watching-1234", write_token="writing-5678", pit=pit).test_client()
    try:
        assert post(client, "/api/tables", {"name": "t"}, "watching-1234")[0] == 403
        assert post(client, "/api/tables", {"name": "t"})[0] == 401
        assert post(client, "/api/tables", {"name": "t"}, "writing-5678")[0] == 201
        for token in ("watching-1234", "writing-5678"):
            assert client.get("/api/tables/t", headers={"Authorization": f"Bearer {token}"}).status_code == 200
        assert client.get("/api/tables/t").status_code == 401
    finally:
        pit.close()


def serve(tmp_path, *args):
    process = subprocess.Popen([sys.executable, "-m", "analyzer", "serve", "--port", "0", "--workers", "1",
                                "--db", f"sqlite:///{tmp_path / 'pit.sqlite'}", "--rate", "1000", *args],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    line = process.stdout.readline()
    port = int(line.split(":")[2].split("/")[0])
    return process, port


def call(port, method, path, body=None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request(method, path, body=None if body is None else json.dumps(body),
                       headers={"Content-Type": "application/json"})
    answer = connection.getresponse()
    data = json.loads(answer.read())
    connection.close()
    return answer.status, data


class Screen(threading.Thread):
    """A screen following a table's stream: each event's number and when it arrived."""

    def __init__(self, port, table, after=0, full=False):
        super().__init__(daemon=True)
        self.port, self.table, self.after, self.full = port, table, after, full
        self.seen = []

    def run(self):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        connection.request("GET", f"/api/tables/{self.table}/events?after={self.after}" + ("&figures=full" if self.full else ""),
                           headers={"Accept": "text/event-stream"})
        answer = connection.getresponse()
        self.status = answer.status
        event_id = None
        while True:
            line = answer.fp.readline()
            if not line:
                return
            line = line.decode().rstrip("\n")
            if line.startswith("id: "):
                event_id = int(line[4:])
            elif line.startswith("data: ") and event_id is not None:
                self.seen.append((event_id, time.monotonic(), json.loads(line[6:])))


def test_every_screen_gets_each_event_within_250_ms_and_catches_up(tmp_path):
    process, port = serve(tmp_path)
    try:
        assert call(port, "POST", "/api/tables", {"name": "bac-1", "rules": "catalog"})[0] == 201
        call(port, "POST", "/api/tables/bac-1/events", {"type": "shoe", "after": 0})
        screens = [Screen(port, "bac-1") for _ in range(5)]
        [s.start() for s in screens]
        time.sleep(0.5)
        delays = []
        for i, cards in enumerate(COUPS):
            status, answer = call(port, "POST", "/api/tables/bac-1/events", {"type": "coup", "cards": cards, "after": i + 1})
            acknowledged = time.monotonic()
            assert status == 200, answer
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline and not all(any(e == answer["event"] for e, _, _ in s.seen) for s in screens):
                time.sleep(0.005)
            delays += [at - acknowledged for s in screens for e, at, _ in s.seen if e == answer["event"]]
        assert len(delays) == 5 * len(COUPS) and max(delays) < 0.25, delays  # from its acknowledgement to every screen
        assert all([e for e, _, _ in s.seen] == [1, 2, 3, 4, 5] for s in screens)
        last = screens[0].seen[-1][2]  # the figures kept with it, in brief: every bet's are the table's
        assert last["figures"]["cards_left"] == 416 - 18 and "bets" not in last["figures"]
        assert [p["bet"] for p in last["figures"]["positive_ev"]] == last["figures"]["positive"]
        assert last["figures"]["positive"] == call(port, "GET", "/api/tables/bac-1")[1]["positive"]
        whole = Screen(port, "bac-1", after=4, full=True)  # ?figures=full: every bet's figures too
        whole.start()
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and not whole.seen:
            time.sleep(0.01)
        assert whole.seen[0][2]["figures"]["bets"] == call(port, "GET", "/api/tables/bac-1")[1]["bets"]
        late = Screen(port, "bac-1", after=3)  # a screen that lost its connection after event 3
        late.start()
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and len(late.seen) < 2:
            time.sleep(0.01)
        assert [e for e, _, _ in late.seen] == [4, 5]
    finally:
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=30)
    assert out.splitlines()[-1] == "Stopped."


def test_the_server_killed_mid_shoe_loses_no_acknowledged_event_and_screens_catch_up(tmp_path):
    # a feed dealing as fast as it can; the whole server (its workers too) killed with SIGKILL while it
    # writes; a new server on the same database: every event acknowledged is there, in order, whole,
    # and a screen that saw up to some event catches up from it
    process, port = serve(tmp_path)
    acknowledged = []
    try:
        call(port, "POST", "/api/tables", {"name": "t", "rules": "standard", "burn": "none"})
        after = call(port, "POST", "/api/tables/t/events", {"type": "shoe", "after": 0})[1]["event"]
        cards = [r + s for r in "A23456789TJQK" for s in "shdc"] * 8
        import random
        random.Random(3).shuffle(cards)
        from analyzer.pit.replay import cards_taken
        from analyzer.game.cards import RANKS, VALUES
        from analyzer.game.tableau import PUNTO_BANCO
        at = 0

        def feed():
            nonlocal after, at
            while True:
                taken = cards_taken([VALUES[RANKS.index(c[0])] for c in cards[at:at + 6]], PUNTO_BANCO)
                try:
                    status, answer = call(port, "POST", "/api/tables/t/events",
                                          {"type": "coup", "cards": cards[at:at + taken], "after": after})
                except OSError:
                    return
                if status != 200:
                    return
                after, at = answer["event"], at + taken
                acknowledged.append(after)

        writer = threading.Thread(target=feed, daemon=True)
        writer.start()
        deadline = time.monotonic() + 20
        while len(acknowledged) < 15 and time.monotonic() < deadline:
            time.sleep(0.01)
    finally:
        os.killpg(process.pid, signal.SIGKILL)  # the server, its fork server and its workers, at once
        process.wait(timeout=10)
    writer.join(timeout=20)
    assert len(acknowledged) >= 15
    again, port = serve(tmp_path)
    try:
        status, events = call(port, "GET", "/api/tables/t/events?after=0")
        numbers = [e["event"] for e in events["events"]]
        assert numbers == list(range(1, len(numbers) + 1)) and set(acknowledged) <= set(numbers)
        assert all(e["figures"]["cards_left"] is not None for e in events["events"])  # nothing half-written
        table = call(port, "GET", "/api/tables/t")[1]
        assert table["event"] == numbers[-1]
        screen = Screen(port, "t", after=acknowledged[5])  # it had seen up to the sixth acknowledged event
        screen.start()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and len(screen.seen) < len(numbers) - acknowledged[5]:
            time.sleep(0.01)
        assert [e for e, _, _ in screen.seen] == numbers[acknowledged[5]:]
        status, answer = call(port, "POST", "/api/tables/t/events", {"type": "shoe", "after": numbers[-1]})
        assert status == 200  # and the table goes on
    finally:
        again.send_signal(signal.SIGINT)
        again.communicate(timeout=30)
