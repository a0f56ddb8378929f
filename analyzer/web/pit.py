"""The pit's part of the JSON API: tables kept in the store, their events, and a stream of them
for screens. No Flask here (app.py carries requests to these functions); no SQL (store.py).

Every screen follows a table by its event numbers: it reads the table (its last ``event`` and
the figures after it), then ``GET /api/tables/NAME/events?after=N`` as a stream of server-sent
events, each the kept event with the figures computed once when it was kept; a screen that lost
its connection sends the last number it saw (``Last-Event-ID``, as browsers do) and catches up
by itself. The pit's overview (``/api/pit/stream``) gets a message a table each time the table
changes, built once from the figures of the table's last event and sent as the same bytes to
every overview screen.

One thread of this process hears of the events kept by any server: on PostgreSQL, the store's
announcements (LISTEN/NOTIFY: a few milliseconds after the commit, no query while nothing
happens), with a look at the tables' last numbers every SAFETY seconds in case one was missed;
on SQLite, or while the listening connection is down, that look every POLL seconds. An event
kept through this process wakes the screens at once.
"""

from __future__ import annotations

import json
import threading
import time

from ..base.recent import Recent
from ..base.errors import BaccaratError
from ..pit.table import record, table_spec
from ..render import to_json
from ..pit.store import Missing, Stale, Store

MOST_SHOES = 10**9  # a shoe's number asked of a table, at most

POLL = 0.1  # seconds between two looks at the tables' last events, while a screen follows one
SAFETY = 2.0  # the same, while PostgreSQL's announcements are heard
KEEPALIVE = 5.0  # seconds without an event before a stream sends a comment (waitress closes idle channels at 10)
BATCH = 100  # events a stream reads at once
SENT = 32 * 2**20  # bytes of server-sent messages kept for the screens that follow the same tables


class Hub:
    """Who has seen which event, for the screens that wait: ``wait`` returns once the table's
    last event is past ``after`` (True), at ``timeout`` (False), or when the hub stops. An event
    wakes the screens of its table and the overviews, no others (a condition a table, and one
    for the overviews, over one lock)."""

    def __init__(self, store: Store):
        self.store = store
        self.lock = threading.Lock()
        self.tables: dict[str, threading.Condition] = {}  # a table's screens wait on its own
        self.overviews = threading.Condition(self.lock)  # the pit's overviews wait on any table
        self.last: dict[str, int] = {}
        self.watchers = 0
        self.stopping = False
        self.poller: threading.Thread | None = None
        self.listening = False  # PostgreSQL's announcements are heard now

    def condition(self, name: str) -> threading.Condition:
        """Table ``name``'s condition (the lock held)."""
        found = self.tables.get(name)
        if found is None:
            found = self.tables[name] = threading.Condition(self.lock)
        return found

    def kept(self, name: str, number: int):
        """Event ``number`` of table ``name`` was kept (through this process, or announced by
        another): wake its screens and the overviews now. A table is known from its creation
        (number 0)."""
        self.merge({name: number})

    def refresh(self):
        """Learn every table's last event from the store (a screen's first look)."""
        self.merge(self.store.last_events())

    def merge(self, last: dict):
        with self.lock:
            newer = {name: number for name, number in last.items() if number > self.last.get(name, -1)}
            if newer:
                self.last.update(newer)
                for name in newer:
                    self.condition(name).notify_all()
                self.overviews.notify_all()

    def wait(self, name: str, after: int, timeout: float) -> bool:
        with self.lock:
            condition = self.condition(name)
        return self.until(lambda: self.last.get(name, 0) > after, timeout, condition)

    def wait_any(self, seen: dict, timeout: float) -> bool:
        """As ``wait``, for any table past the number in ``seen`` (or not in it)."""
        return self.until(lambda: any(number > seen.get(name, -1) for name, number in self.last.items()), timeout,
                          self.overviews)

    def until(self, changed, timeout: float, condition: threading.Condition) -> bool:
        """Wait, as a screen, on ``condition`` until ``changed()`` (True), ``timeout`` or the
        hub's stop (False); the watch of the store runs while anyone waits."""
        with self.lock:
            self.watchers += 1
            if self.poller is None:
                self.poller = threading.Thread(target=self.poll, name="pit-poller", daemon=True)
                self.poller.start()
            try:
                return condition.wait_for(lambda: self.stopping or changed(), timeout) and not self.stopping
            finally:
                self.watchers -= 1

    def poll(self):
        """Look at the tables' last events while screens wait (another process may keep events):
        every POLL seconds, or every SAFETY seconds while the store's announcements are heard."""
        if self.store.listens:
            threading.Thread(target=self.listen, name="pit-listener", daemon=True).start()
        looked = 0.0
        while not self.stopping:
            time.sleep(POLL)
            if not self.watchers or self.listening and time.monotonic() - looked < SAFETY:
                continue
            looked = time.monotonic()
            try:
                self.merge(self.store.last_events())
            except Exception:  # noqa: BLE001 - a database that is away for a moment: look again
                continue

    def listen(self):
        """Hear the events kept by every server (PostgreSQL's announcements) until the hub stops;
        listen again a second after a lost connection (the poll covers the gap)."""
        while not self.stopping:
            try:
                for name, number in self.store.notices(lambda: self.stopping, lambda: setattr(self, "listening", True)):
                    self.kept(name, number)
            except Exception:  # noqa: BLE001 - the database away for a moment: the poll looks meanwhile
                pass
            self.listening = False
            time.sleep(1.0)

    def stop(self):
        with self.lock:
            self.stopping = True
            for condition in [*self.tables.values(), self.overviews]:
                condition.notify_all()


REVIEW_COUPS = 1_000  # coups a review asked of the server may cover (a table's day, a few seconds)
REVIEW_WAGERS = 50_000  # wagers it may read for it
ANSWER = "results|{since}"  # the key of the day's results the tally keeps in the store
TALLY_STALE = 60.0  # seconds after which the tally's answer is not read (the tally stopped: worked out here)
RESULTS_FRESH = 10.0  # seconds the results worked out are answered again as they are (the overview asks every 15 s)
RESULTS_WAGERS = 50_000  # wagers the results asked of the HTTP process may cover (the command line reads any number)
TALLY_WAGERS = 300_000  # wagers the tally's day may cover (the protect benchmark's day of 20 tables: 275,000)


class Pit:
    """The pit's API over a store: each method returns (status, JSON-ready data)."""

    def __init__(self, url: str | None = None, screens: int = 200):
        self.store = Store(url)
        self.hub = Hub(self.store)
        self.screens = threading.BoundedSemaphore(screens)
        self.limit = screens
        self.sent = Recent(SENT, size=len)  # (table, event) -> its server-sent message
        self.computing = threading.Lock()  # one computation of results at a time
        self.results_kept = Recent(64, size=lambda value: 1)  # (tables, since, until) -> (store.marks(), answer, when)

    def close(self):
        self.hub.stop()
        self.store.close()

    def create(self, data) -> tuple[int, dict]:
        spec = table_spec(data)
        self.store.create_table(spec)
        self.hub.kept(spec.name, 0)
        return 201, self.state(spec.name)[1]

    def tables(self) -> tuple[int, dict]:
        return 200, {"tables": [table_state(row) for row in self.store.table_rows()]}

    def state(self, name: str) -> tuple[int, dict]:
        return 200, table_state(self.store.table(name))

    def post(self, name: str, data) -> tuple[int, dict]:
        """Keep an event (200: its number and the table after it), or 409 with the table as it is
        when another writer came first."""
        try:
            kept = record(self.store, name, data)
        except Stale as stale:
            return 409, {"error": str(stale), "event": stale.last, "table": self.state(name)[1]}
        number = kept["event"]
        row = {"name": name, "spec": kept["spec"], "event": number, "created": kept["created"], "figures": kept["figures"],
               "at": kept["at"]}
        self.tile(row)  # the screens' messages, built once from the figures at hand, before the screens wake
        body = json.dumps(kept["body"])
        for full in (False, True):
            figures = kept["figures"] if full else brief_figures(kept["figures"])
            self.sent.put((name, number, full), event_message(number, kept["type"], kept["shoe"], body,
                                                        json.dumps(figures, separators=(",", ":")), kept["at"]))
        self.hub.kept(name, number)
        return 200, {"event": number, "table": table_state(row)}

    def wager(self, name: str, data) -> tuple[int, dict]:
        """Keep wagers on a table's coming coup, each with its exact EV then (201: their ids, shoe,
        coup and EVs), or 409 with the table as it is when it has moved on since the sender saw it."""
        from ..pit.table import place

        try:
            return 201, place(self.store, name, data)
        except Stale as stale:
            return 409, {"error": str(stale), "event": stale.last, "table": self.state(name)[1]}

    def review(self, tables: list[str], level: str, samples: int, since: str | None = None,
               until: str | None = None) -> tuple[int, dict]:
        """The review of the wagers kept at ``tables`` (every table if none): protect.py's, as
        `baccarat protect --db` gives it in JSON; refused beyond REVIEW_COUPS coups (the command
        line reviews any number)."""
        from ..pit import protect
        from ..views.protect import protect as protect_view

        chance = protect.parse_level(level)
        for name in tables:
            self.store.table_id(name)  # Missing for a table that is not there
        placed = protect.wagers_from_store(self.store, tables or None, since, until, REVIEW_WAGERS)
        if not placed:
            return 200, to_json({"players": [], "level": chance, "tables": {}, "coups": 0, "pending": 0})
        deals = protect.deals_from_store(self.store, sorted({w.table for w in placed}), {(w.table, w.shoe) for w in placed})
        placed = protect.on_standing_coups(placed, deals)
        coups = sum(len(s.coups) for d in deals.values() for s in d.shoes)
        if coups > REVIEW_COUPS:
            raise BaccaratError(f"the review of {coups:,} coups is more than this server reviews in one request "
                                f"({REVIEW_COUPS:,}): ask for fewer tables, or a shorter period (the command line reviews any number)")
        review = protect.review(placed, deals, chance, samples, pending=True)
        return 200, to_json(protect_view(review, protect.GROUP).data)

    def results(self, tables: list[str], since: str | None = None, until: str | None = None) -> tuple[int, dict]:
        """Each table's results over a period (results.py), as `baccarat results --db` gives them
        in JSON: of ``tables``, else of every table (those without wagers too, so that a screen
        shows every tile). The day's results of every table are the server's tally's (kept in the
        store, worked out every few seconds by a process of its own: serving.tally), while it keeps
        them; any other period is worked out here, one at a time, a moment's answer given again
        (each coup's figures and variance kept: the shoes not in play are not worked out again)."""
        from ..pit.wagers import period

        since, until = period(since, "since"), period(until, "until")
        if since and until and until <= since:
            raise BaccaratError(f"until ({until}) is not after since ({since}): no time between them")
        tables = list(dict.fromkeys(tables))  # a table named twice is one table
        for name in tables:
            self.store.table_id(name)  # Missing for a table that is not there
        if not tables and until is None and since is not None:
            kept = self.store.answer(ANSWER.format(since=since))
            if kept is not None and seconds_since(kept[1]) < TALLY_STALE:
                return 200, json.loads(kept[0])
        key = (tuple(tables), since, until)
        with self.computing:
            kept = self.results_kept.get(key)
            if kept is not None and time.monotonic() - kept[2] < RESULTS_FRESH:  # worked out a moment ago
                return 200, kept[1]
            marks = self.store.marks()
            if kept is None or kept[0] != marks:  # something was kept since: worked out again
                kept = (marks, results_answer(self.store, tables or [name for name, _ in marks[0]], since, until,
                                              RESULTS_WAGERS))
            self.results_kept.put(key, (kept[0], kept[1], time.monotonic()))
        return 200, kept[1]

    def events(self, name: str, after: int) -> tuple[int, dict]:
        self.store.table_id(name)  # Missing for a table that is not there
        return 200, {"table": name, "events": self.store.event_rows(name, after=after, limit=BATCH * 10)}

    def shoes(self, name: str) -> tuple[int, dict]:
        """A table's shoes: their events, coups, corrections, cut card and times."""
        return 200, {"table": name, "shoes": self.store.shoe_rows(name)}

    def replay(self, name: str, shoe: int) -> tuple[int, dict]:
        from ..views.pit import replay_kept

        if shoe > MOST_SHOES:  # a number no table reaches (and past what the database's integers hold)
            raise Missing(f"table {name!r} has no shoe {shoe:,}")
        return 200, to_json(replay_kept(self.store, name, shoe).data)

    def stream(self, name: str, after: int, gone=lambda: False, full: bool = False):
        """The server-sent events of table ``name`` after event ``after``, then each as it is kept,
        until the client goes or the server stops (a generator of bytes). BaccaratError before
        the first byte for a table that is not there or when every screen's place is taken."""
        self.store.table_id(name)
        if not self.screens.acquire(blocking=False):
            raise Busy(f"this server follows at most {self.limit} screens at once: try again in a moment")

        def events():
            seen, quiet = after, time.monotonic()
            try:
                yield b"retry: 1000\n\n"
                while not self.hub.stopping and not gone():
                    messages = self.messages(name, seen, full)
                    for number, message in messages:
                        seen = number
                        yield message
                    if messages:
                        quiet = time.monotonic()
                        continue
                    if not self.hub.wait(name, seen, 1.0) and time.monotonic() - quiet > KEEPALIVE:
                        quiet = time.monotonic()
                        yield b": waiting\n\n"
            finally:
                self.screens.release()

        return events()


    def messages(self, name: str, after: int, full: bool = False) -> list[tuple[int, bytes]]:
        """The server-sent messages of table ``name``'s events after ``after`` (at most BATCH):
        each event with the figures kept with it, in brief (brief_figures: what a screen shows;
        every bet's figures are the table's, GET /api/tables/NAME) or, ``full``, whole (as kept,
        not parsed again). Each built once and kept for the table's other screens (SENT, bounded
        by bytes)."""
        out, number = [], after
        while len(out) < BATCH:
            message = self.sent.get((name, number + 1, full))
            if message is None:
                break
            number += 1
            out.append((number, message))
        known = self.hub.last.get(name)
        if known is not None and number >= known:  # nothing newer kept, as this process knows (kept, announced, polled)
            return out
        for number, kind, shoe, body, figures, at in self.store.event_texts(name, after=number, limit=BATCH - len(out)):
            if not full:
                figures = json.dumps(brief_figures(json.loads(figures)), separators=(",", ":"))
            out.append((number, self.sent.put((name, number, full), event_message(number, kind, shoe, body, figures, at))))
        return out

    def tile(self, row: dict) -> tuple[int, bytes]:
        """(event, message) of the overview for a table as ``row`` gives it (store.table), built
        once an event and kept for every overview screen."""
        key = (row["name"], row["event"], "tile")
        message = self.sent.get(key)
        if message is None:
            message = self.sent.put(key, f"event: table\ndata: {json.dumps(table_brief(row), separators=(',', ':'))}\n\n"
                                    .encode())
        return row["event"], message

    def tile_of(self, name: str, number: int) -> tuple[int, bytes] | None:
        """The overview's message for table ``name`` at event ``number`` (or later, read from
        the store when no screen has had it yet); None for a table that is gone."""
        message = self.sent.get((name, number, "tile"))
        if message is not None:
            return number, message
        try:
            return self.tile(self.store.table(name))
        except Missing:
            return None

    def pit_stream(self, gone=lambda: False):
        """Every table's brief state (table_brief), then each table's again whenever it changes,
        as server-sent events named "table", until the client goes or the server stops: each
        message built once for every screen (tile), a screen's work a lookup."""
        if not self.screens.acquire(blocking=False):
            raise Busy(f"this server follows at most {self.limit} screens at once: try again in a moment")

        def events():
            try:
                yield b"retry: 1000\n\n"
                self.hub.refresh()
                yield b"event: tables\ndata: " + json.dumps(sorted(self.hub.last)).encode() + b"\n\n"
                seen, quiet = {}, time.monotonic()
                while not self.hub.stopping and not gone():
                    changed = [(name, number) for name, number in list(self.hub.last.items()) if number > seen.get(name, -1)]
                    for name, number in changed:
                        tile = self.tile_of(name, number)
                        seen[name] = number if tile is None else max(number, tile[0])
                        if tile is not None:
                            yield tile[1]
                    if changed:
                        quiet = time.monotonic()
                    if not self.hub.wait_any(seen, 1.0) and time.monotonic() - quiet > KEEPALIVE:
                        quiet = time.monotonic()
                        yield b": waiting\n\n"
            finally:
                self.screens.release()

        return events()


def event_message(number: int, kind: str, shoe: int, body: str, figures: str, at: str) -> bytes:
    """The server-sent message of a table's event: its number as id, its type as the event's
    name, and the event with the figures after it (JSON texts, as kept or in brief)."""
    data = f'{{"event":{number},"type":{json.dumps(kind)},"shoe":{shoe},"body":{body},"figures":{figures},"at":{json.dumps(at)}}}'
    return f"id: {number}\nevent: {kind}\ndata: {data}\n\n".encode()


class Busy(BaccaratError):
    """Every place for a screen is taken."""


def table_state(row: dict) -> dict:
    """A table as the API gives it: its name and how it deals, its last event, the shoe, the
    cards left, the last coup, the figures for the next coup (``bets`` as `now --format json`
    gives them) with the positive bets sorted by EV, and the table's count (None without one)."""
    figures = row["figures"] or {}
    return {"name": row["name"], **{k: v for k, v in row["spec"].items() if k != "name"}, "event": row["event"],
            "at": row["at"], "shoe": figures.get("shoe", 0), "cards_left": figures.get("cards_left"),
            "coups": figures.get("coups", 0), "cut_out": figures.get("cut", False), "over": figures.get("over", False),
            "last": figures.get("last"), "positive": figures.get("positive", []), "bets": figures.get("bets", []),
            "table_count": figures.get("table_count"), "board": figures.get("board"), "closed": figures.get("closed", False)}


def table_brief(row: dict) -> dict:
    """A table as the pit's overview shows it: table_state without every bet's figures, the
    positive bets with their EV (exact, and as the command line prints it), the current run."""
    state = table_state(row)
    state.pop("bets")
    state["board"] = board_tail(state["board"])
    brief = brief_figures(row["figures"] or {})
    state["positive_ev"] = brief["positive_ev"]
    run = brief.get("run")
    state["run"] = None if not run else (f"{run['result']} x{run['length']}" + (" (unusual)" if run.get("unusual") else ""))
    return state


TILE_COLUMNS = 24  # the big road's last drawn columns a tile of the overview shows at most


def board_tail(board: dict | None) -> dict | None:
    """A tile's part of the scoreboard: the tallies and the big road's last TILE_COLUMNS drawn
    columns (their columns counted from the first of them)."""
    if not board:
        return board
    cells = board["big_road"]
    first = max((c[1] for c in cells), default=0) - TILE_COLUMNS + 1
    return {"tallies": board["tallies"], "big_road": [[r, c - max(first, 0), m, t] for r, c, m, t in cells if c >= first]}


def brief_figures(figures: dict) -> dict:
    """The figures after an event as a screen shows them: all but every bet's figures, and the
    positive bets with their EV (exact, and as the command line prints it), best first."""
    from fractions import Fraction

    from ..render import percent

    by_id = {bet["bet"]: bet for bet in figures.get("bets", [])}
    out = {key: value for key, value in figures.items() if key != "bets"}
    out["positive_ev"] = [{"bet": b, "name": by_id[b]["name"], "ev": by_id[b]["ev"],
                           "ev_shown": ("+" if Fraction(by_id[b]["ev"]) > 0 else "") + percent(Fraction(by_id[b]["ev"]))}
                          for b in figures.get("positive", []) if b in by_id]
    return out


def status_of(error: BaccaratError) -> int:
    """The HTTP status of an error of the pit's API."""
    return 404 if isinstance(error, Missing) else 503 if isinstance(error, Busy) else 400


def results_answer(store, names: list[str], since: str | None, until: str | None, most: int) -> dict:
    """The results of the tables ``names`` over the period (at most ``most`` wagers), as the API
    answers them (JSON-ready)."""
    from ..pit import results
    from ..views.results import results_table

    done = results.store_results(store, names, since, until, most) if names else []
    return to_json(results_table(done, since, until).data)


def today() -> str:
    """This machine's midnight, as the store keeps times (UTC)."""
    from ..pit.wagers import period

    midnight = time.strftime("%Y-%m-%dT00:00:00%z")
    return period(f"{midnight[:-2]}:{midnight[-2:]}", "since")


def today_results(store) -> None:
    """Work out today's results of every table and keep them in ``store`` as the screens' answer."""
    since = today()
    names = [name for name, _ in store.marks()[0]]
    store.keep_answer(ANSWER.format(since=since), json.dumps(results_answer(store, names, since, None, TALLY_WAGERS)))


def seconds_since(at: str) -> float:
    """Seconds since a time as the store keeps it (``2026-11-28T08:00:00Z``)."""
    from calendar import timegm

    return time.time() - timegm(time.strptime(at, "%Y-%m-%dT%H:%M:%SZ"))
