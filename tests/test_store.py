"""The pit's store (store.py, pit.py): every test on SQLite and on a throwaway PostgreSQL server
(tests/postgres.py). Events numbered and committed before they are acknowledged; a stale writer
refused with nothing written; bad events refused with nothing written; the figures kept with
each event equal `now` and a fresh replay; an older database migrated; a writer killed with
SIGKILL loses nothing it acknowledged."""

import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time

import pytest
from click.testing import CliRunner

from analyzer.cli import cli
from analyzer.base.errors import BaccaratError
from analyzer.pit.table import record, table_spec
from analyzer.pit.store import SCHEMA_VERSION, Missing, Stale, Store

from postgres import binaries, throwaway_postgres


@pytest.fixture(scope="module")
def postgres():
    if binaries() is None:
        pytest.skip("PostgreSQL is not installed here (.ci/run installs Debian's package)")
    with throwaway_postgres() as database:
        yield database


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'pit.sqlite'}"
    return request.getfixturevalue("postgres")()


def dealt(store, name="bac-7", rules="standard", decks=8):
    store.create_table(table_spec({"name": name, "rules": rules, "decks": decks}))
    record(store, name, {"type": "shoe", "after": 0})
    record(store, name, {"type": "burn", "cards": ["7h"], "face_down": 7, "after": 1})
    return 2


COUPS = [["8c", "3c", "7h", "5c"], ["9s", "Kd", "Kh", "4c"], ["2c", "3d", "3h", "Ts", "9d", "4d"], ["Qs", "6h", "7c", "Jh"]]


def test_events_are_numbered_and_the_table_carries_the_figures_after_the_last(url):
    store = Store(url)
    after = dealt(store)
    for cards in COUPS:
        answer = record(store, "bac-7", {"type": "coup", "cards": cards, "after": after})
        after += 1
        assert answer["event"] == after
    table = store.table("bac-7")
    assert table["event"] == 6 and table["figures"]["cards_left"] == 416 - 8 - 18 and table["figures"]["shoe"] == 1
    now = CliRunner().invoke(cli, ["now", "--rules", "standard", "--dealt", ",".join(["7h"] + sum(COUPS, [])),
                                   "--format", "json"])
    assert table["figures"]["bets"] == json.loads(now.output)["bets"]  # the figures `now` gives, kept
    assert [e["event"] for e in store.event_rows("bac-7", after=3)] == [4, 5, 6]
    with pytest.raises(BaccaratError, match="already exists"):
        store.create_table(table_spec({"name": "bac-7"}))
    store.close()


def test_a_stale_writer_gets_the_current_event_and_nothing_is_lost(url):
    store = Store(url)
    after = dealt(store)
    record(store, "bac-7", {"type": "coup", "cards": COUPS[0], "after": after})
    with pytest.raises(Stale) as stale:
        record(store, "bac-7", {"type": "coup", "cards": COUPS[1], "after": after})  # a second clerk, one event behind
    assert stale.value.last == after + 1
    # many writers at once, each sending what it saw: exactly one wins each number
    results = []

    def clerk(cards):
        try:
            results.append(record(Store(url), "bac-7", {"type": "coup", "cards": cards, "after": after + 1})["event"])
        except Stale:
            results.append("stale")

    threads = [threading.Thread(target=clerk, args=(cards,)) for cards in COUPS[1:] * 2]
    [t.start() for t in threads]
    [t.join() for t in threads]
    assert sorted(map(str, results)) == ["4"] + ["stale"] * 5
    assert [e["event"] for e in store.event_rows("bac-7")] == [1, 2, 3, 4]


@pytest.mark.parametrize("event, says", [
    ({"type": "coup", "cards": ["9s", "Kd", "2h", "4c"]}, "the tableau deals 5 cards here, not 4"),
    ({"type": "coup", "cards": ["9s", "Kd", "Kh"]}, "a coup has 4 to 6 cards"),
    ({"type": "coup", "cards": ["9", "K", "K", "4"]}, "name their suits"),
    ({"type": "burn", "cards": ["5h"]}, "a burn comes before the shoe's first coup"),
    ({"type": "correction", "cards": ["9s", "Kd", "2h", "4c", "5h"], "extra": 1}, "no field 'extra'"),
    ({"type": "deal"}, "an event's type is one of"),
    ({"type": "coup", "cards": COUPS[1]}, "'after'"),
])
def test_bad_events_are_refused_and_nothing_is_kept(url, event, says):
    store = Store(url)
    dealt(store)
    record(store, "bac-7", {"type": "coup", "cards": COUPS[0], "after": 2})
    if "after" not in says:
        event = event | {"after": 3}
    with pytest.raises(BaccaratError, match=says):
        record(store, "bac-7", event)
    assert store.table("bac-7")["event"] == 3 and len(store.event_rows("bac-7")) == 3
    with pytest.raises(Missing):
        record(store, "bac-8", {"type": "shoe", "after": 0})


def test_a_card_not_left_is_refused(url):
    store = Store(url)
    store.create_table(table_spec({"name": "one", "rules": "standard", "decks": 1}))
    record(store, "one", {"type": "shoe", "after": 0})
    record(store, "one", {"type": "burn", "cards": ["7h"], "face_down": 7, "after": 1})
    with pytest.raises(BaccaratError, match="cannot remove 7h: none left in the shoe"):
        record(store, "one", {"type": "coup", "cards": ["7h", "Kd", "2h", "Ks"], "after": 2})  # a natural 9, but 7h was burned
    assert store.table("one")["event"] == 2


def test_a_correction_is_kept_beside_the_coup_it_corrects_and_a_replay_agrees(url):
    store = Store(url)
    after = dealt(store, rules="catalog")
    for cards in COUPS[:2]:
        after = record(store, "bac-7", {"type": "coup", "cards": cards, "after": after})["event"]
    after = record(store, "bac-7", {"type": "correction", "cards": ["9s", "Kd", "Kh", "5c"], "after": after})["event"]
    after = record(store, "bac-7", {"type": "cut", "after": after})["event"]
    after = record(store, "bac-7", {"type": "coup", "cards": COUPS[2], "after": after})["event"]
    events = store.event_rows("bac-7")
    assert [e["type"] for e in events] == ["shoe", "burn", "coup", "coup", "correction", "cut", "coup"]
    assert events[-1]["figures"]["over"] is True and events[-1]["figures"]["bets"] == []  # the coup after the cut: the last
    with pytest.raises(BaccaratError, match="the shoe is over"):
        record(store, "bac-7", {"type": "coup", "cards": COUPS[3], "after": after})
    replayed = CliRunner().invoke(cli, ["replay", "--table", "bac-7", "--db", url, "--format", "json"])
    assert replayed.exit_code == 0, replayed.output
    coups = json.loads(replayed.output)["coups"]
    assert [c["cards"] for c in coups] == [COUPS[0], ["9s", "Kd", "Kh", "5c"], COUPS[2]]
    kept = [events[i]["figures"] for i in (1, 2, 5)]  # before each coup: after the burn, the first coup, the cut
    assert [c["bets"] for c in coups] == [f["bets"] for f in kept]


def test_history_lists_tables_shoes_and_events(url):
    store = Store(url)
    after = dealt(store)
    record(store, "bac-7", {"type": "coup", "cards": COUPS[0], "after": after})
    tables = CliRunner().invoke(cli, ["history", "--db", url])
    assert tables.exit_code == 0 and "bac-7" in tables.output and tables.output.startswith("Tables in ")
    shoes = CliRunner().invoke(cli, ["history", "bac-7", "--db", url])
    assert "1-3" in shoes.output
    events = CliRunner().invoke(cli, ["history", "bac-7", "--shoe", "1", "--db", url, "--format", "csv"])
    assert events.output.splitlines()[3].startswith("3,coup,8c 3c 7h 5c,Banker 8-5,404,")  # who won, as a replay says
    missing = CliRunner().invoke(cli, ["history", "bac-9", "--db", url])
    assert missing.exit_code == 1 and missing.output == "Error: no table 'bac-9' (did you mean 'bac-7'?)\n"
    assert CliRunner().invoke(cli, ["history", "craps-1", "--db", url]).output == "Error: no table 'craps-1'\n"


def test_a_database_of_the_first_version_is_migrated_and_a_newer_refused(tmp_path):
    path = tmp_path / "old.sqlite"
    with sqlite3.connect(path) as old:  # version 1 as it was written: no index of a shoe's events
        old.executescript(
            "CREATE TABLE meta (key VARCHAR(40) PRIMARY KEY, value VARCHAR(200) NOT NULL);"
            "INSERT INTO meta VALUES ('schema_version', '1');"
            "CREATE TABLE tables (id INTEGER PRIMARY KEY, name VARCHAR(40) NOT NULL UNIQUE, spec TEXT NOT NULL, "
            "created VARCHAR(32) NOT NULL, last_event INTEGER NOT NULL);"
            "CREATE TABLE events (table_id INTEGER NOT NULL REFERENCES tables(id), number INTEGER NOT NULL, "
            "type VARCHAR(12) NOT NULL, shoe INTEGER NOT NULL, body TEXT NOT NULL, figures TEXT NOT NULL, "
            "at VARCHAR(32) NOT NULL, PRIMARY KEY (table_id, number));"
            "INSERT INTO tables VALUES (1, 'old', '{\"name\": \"old\", \"rules\": \"standard\", \"decks\": 8, \"cut\": 14, "
            "\"burn\": \"face\", \"count\": null}', '2026-01-01T00:00:00Z', 1);"
            "INSERT INTO events VALUES (1, 1, 'shoe', 1, '{\"type\": \"shoe\"}', '{\"shoe\": 1, \"cards_left\": 416}', "
            "'2026-01-01T00:00:00Z');")
    store = Store(f"sqlite:///{path}")
    assert record(store, "old", {"type": "coup", "cards": COUPS[0], "after": 1})["event"] == 2  # its events go on
    store.close()
    with sqlite3.connect(path) as migrated:
        assert migrated.execute("SELECT value FROM meta").fetchone() == (str(SCHEMA_VERSION),)
        indexes = {r[1] for r in migrated.execute("SELECT * FROM sqlite_master WHERE type = 'index'")}
        assert {"events_by_shoe", "wagers_by_table", "wagers_by_player"} <= indexes  # versions 2 and 3
        assert migrated.execute("SELECT count(*) FROM wagers").fetchone() == (0,)
        migrated.execute("UPDATE meta SET value = '99'")
    with pytest.raises(BaccaratError, match="written by a newer baccarat \\(schema 99"):
        Store(f"sqlite:///{path}")


WRITER = r"""
import sys
from analyzer.pit.store import Store
from analyzer.pit.table import record, table_spec
store = Store(sys.argv[1])
store.create_table(table_spec({"name": "t", "rules": "standard", "decks": 8}))
after = record(store, "t", {"type": "shoe", "after": 0})["event"]
ranks = "A23456789TJQK"
import itertools, random
cards = [r + s for r in ranks for s in "shdc"] * 8
random.Random(1).shuffle(cards)
at = 0
while True:
    for n in (4, 5, 6):
        try:
            after = record(store, "t", {"type": "coup", "cards": cards[at:at + n], "after": after})["event"]
        except Exception:
            continue
        print(after, flush=True)  # acknowledged
        at += n
        break
    else:
        raise SystemExit("no coup")
"""


def test_a_writer_killed_mid_shoe_loses_nothing_it_acknowledged(url):
    process = subprocess.Popen([sys.executable, "-c", WRITER, url], stdout=subprocess.PIPE, text=True)
    acknowledged = []
    deadline = time.monotonic() + 60
    while len(acknowledged) < 12 and time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        acknowledged.append(int(line))
    os.kill(process.pid, signal.SIGKILL)
    process.wait(timeout=10)
    assert len(acknowledged) >= 12, acknowledged
    store = Store(url)
    numbers = [e["event"] for e in store.event_rows("t")]
    assert numbers == list(range(1, len(numbers) + 1)) and set(acknowledged) <= set(numbers)
    assert store.table("t")["event"] == numbers[-1]  # the table's last event is its last kept: nothing half-written
    after = numbers[-1]
    assert record(store, "t", {"type": "shoe", "after": after})["event"] == after + 1  # and it goes on


def test_the_burn_rule_of_a_table_is_kept(url):
    store = Store(url)
    for name, burn in (("face", "face"), ("none", "none"), ("three", "3")):
        store.create_table(table_spec({"name": name, "rules": "standard", "burn": burn}))
        record(store, name, {"type": "shoe", "after": 0})
    with pytest.raises(BaccaratError, match="a burn by the face of Kh puts 10 cards face down \\(got 9\\)"):
        record(store, "face", {"type": "burn", "cards": ["Kh"], "face_down": 9, "after": 1})
    assert record(store, "face", {"type": "burn", "cards": ["Kh"], "face_down": 10, "after": 1})["event"] == 2
    with pytest.raises(BaccaratError, match="burns no cards"):
        record(store, "none", {"type": "burn", "cards": ["Kh"], "face_down": 10, "after": 1})
    with pytest.raises(BaccaratError, match="burns 3 cards face down, none turned up"):
        record(store, "three", {"type": "burn", "cards": ["2h"], "face_down": 3, "after": 1})
    assert record(store, "three", {"type": "burn", "face_down": 3, "after": 1})["figures"]["cards_left"] == 413


@pytest.mark.parametrize("spec, says", [({"name": "t", "rules": "/etc/passwd"}, "built-in rule set"),
                                        ({"name": "t", "rules": "catalog", "count": "hi-lo"}, "count system of its rule set"),
                                        ({"name": "t", "burn": "\u00b2"}, "a table's burn is face, none, or a number")])
def test_a_table_s_settings_are_checked(spec, says):
    with pytest.raises(BaccaratError, match=says):
        table_spec(spec)


def test_many_processes_opening_a_new_database_at_once_make_it_once(url):
    code = "import sys; from analyzer.pit.store import Store; Store(sys.argv[1]).close(); print('ok')"
    processes = [subprocess.Popen([sys.executable, "-c", code, url], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                 for _ in range(6)]
    outcomes = [p.communicate(timeout=120) for p in processes]
    assert [out for out, _ in outcomes] == ["ok\n"] * 6, [err[-300:] for _, err in outcomes]


def test_history_of_a_table_lists_every_shoe_whatever_the_events(url, monkeypatch):
    import analyzer.pit.store as store_module
    monkeypatch.setattr(store_module, "MAX_LIST", 3)  # a page of events smaller than the history
    store = Store(url)
    store.create_table(table_spec({"name": "t", "rules": "standard", "burn": "none"}))
    after = 0
    for _ in range(4):
        after = record(store, "t", {"type": "shoe", "after": after})["event"]
        after = record(store, "t", {"type": "coup", "cards": COUPS[0], "after": after})["event"]
    shoes = CliRunner().invoke(cli, ["history", "t", "--db", url, "--format", "csv"])
    assert [line.split(",")[0] for line in shoes.output.splitlines()[1:]] == ["1", "2", "3", "4"]


def test_what_a_database_is_not(tmp_path):
    missing = CliRunner().invoke(cli, ["history", "--db", f"sqlite:///{tmp_path / 'none.sqlite'}"])
    assert missing.exit_code == 1 and missing.output.startswith(f"Error: no database at {tmp_path / 'none.sqlite'}")
    assert not (tmp_path / "none.sqlite").exists()
    foreign = tmp_path / "foreign.sqlite"
    with sqlite3.connect(foreign) as other:
        other.execute("CREATE TABLE results (x INTEGER)")
    refused = CliRunner().invoke(cli, ["history", "--db", f"sqlite:///{foreign}"])
    assert refused.exit_code == 1 and "holds other tables and none of baccarat's" in refused.output
    with sqlite3.connect(foreign) as other:
        assert [r[0] for r in other.execute("SELECT name FROM sqlite_master WHERE type = 'table'")] == ["results"]


def test_a_password_in_a_database_url_is_never_shown(postgres):
    url = postgres().replace("postgres@", "postgres:s3cret@")
    store = Store(url)
    assert "s3cret" not in store.url and "***" in store.url
    assert "s3cret" not in CliRunner().invoke(cli, ["history", "--db", url]).output


def test_wagers_are_kept_with_their_ev_all_or_none_and_read_back_by_period(url):
    """Wagers on a table's coming coup (pit.place): each kept with the EV `now` gives then, all of
    a request or none, refused once the table has moved on; read back in order, by time."""
    from fractions import Fraction

    from analyzer.pit.table import place

    store = Store(url)
    after = dealt(store)
    before = json.loads(CliRunner().invoke(cli, ["now", "--rules", "standard", "--dealt", "7h", "--format",
                                                 "json"]).output)["bets"]
    kept = place(store, "bac-7", {"after": after, "wagers": [{"player": "ann", "bet": "tie", "amount": "12.50", "seat": 2},
                                                             {"player": "bob", "bet": "banker", "amount": 100}]})
    assert (kept["shoe"], kept["coup"]) == (1, 1)
    assert Fraction(kept["ev"]["tie"]) == Fraction(next(b["ev"] for b in before if b["bet"] == "tie"))
    with pytest.raises(BaccaratError, match="wager 2: amount -5 is not positive"):
        place(store, "bac-7", {"after": after, "wagers": [{"player": "cy", "bet": "tie", "amount": 5},
                                                          {"player": "cy", "bet": "tie", "amount": -5}]})
    record(store, "bac-7", {"type": "coup", "cards": COUPS[0], "after": after})
    with pytest.raises(Stale):
        place(store, "bac-7", {"after": after, "wagers": [{"player": "cy", "bet": "tie", "amount": 5}]})
    second = place(store, "bac-7", {"after": after + 1, "wagers": [{"player": "ann", "bet": "player", "amount": 7}]})
    assert second["coup"] == 2
    rows = list(store.wager_rows())
    assert [(r["player"], r["bet"], r["amount"], r["coup"]) for r in rows] == [
        ("ann", "tie", "12.5", 1), ("bob", "banker", "100", 1), ("ann", "player", "7", 2)]
    assert list(store.wager_rows(since="2999-01-01T00:00:00Z")) == []
    assert len(list(store.wager_rows(until="2999-01-01T00:00:00Z", tables=["bac-7"]))) == 3
    store.close()
    review = CliRunner().invoke(cli, ["protect", "--db", url, "--sessions", "--format", "csv"])
    assert review.exit_code == 0, review.output
    assert review.output.splitlines()[0].startswith("player,table,shoe,coups") and len(review.output.splitlines()) == 3
