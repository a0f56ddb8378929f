"""The pit's store: tables and their events in a database, SQLite by default, PostgreSQL by URL.

This module is the one room that knows SQL (through SQLAlchemy Core: one description of the
schema and one dialect-neutral statement each, for SQLite's and PostgreSQL's drivers alike). It
keeps what pit.py checks and computes; it checks nothing of baccarat itself.

- A table's events are numbered from 1. An event is kept in one transaction with the table's
  last event number, and only if that number is still the one the writer saw (``after``):
  otherwise Stale, and nothing is written (no silent overwrite). What is committed is there
  after a crash; what is not, is not (SQLite in WAL mode, synchronous FULL; PostgreSQL as it is).
- The schema has a version (table ``meta``); opening a database written by an older version
  migrates it, one small function a version; a newer one is refused, by name.
- Several servers may share one database. On PostgreSQL each kept event is announced in its
  own transaction (``NOTIFY baccarat_pit``, delivered at commit, to every server that listens:
  :meth:`Store.notices`), so the screens of every server hear of it within milliseconds; a
  server on SQLite (or one whose listening connection is down) looks at the tables' last events
  instead (:meth:`Store.last_events`).
"""

from __future__ import annotations

import json
import os
import time
from fractions import Fraction
from pathlib import Path

from ..base.errors import BaccaratError, did_you_mean

SCHEMA_VERSION = 4
MAX_LIST = 10_000  # events one call returns at most
CHANNEL = "baccarat_pit"  # PostgreSQL's channel of kept events: payload "NUMBER NAME"


class Stale(BaccaratError):
    """Another writer came first: the event was not kept. ``last`` is the table's last event."""

    def __init__(self, message: str, last: int):
        super().__init__(message)
        self.last = last


class Missing(BaccaratError):
    """No such table."""


def default_url() -> str:
    """A SQLite file in the user's data directory: $XDG_DATA_HOME/baccarat/pit.sqlite, else
    ~/.local/share/baccarat/pit.sqlite."""
    base = os.environ.get("XDG_DATA_HOME") or ""
    folder = (Path(base) if os.path.isabs(base) else Path.home() / ".local" / "share") / "baccarat"
    return f"sqlite:///{folder / 'pit.sqlite'}"


def engine_url(url: str) -> str:
    """The SQLAlchemy URL of a database URL as a user writes it: ``postgresql://...`` through
    psycopg (version 3), ``sqlite:///path`` as it is.

    >>> engine_url("postgresql://pit@db/casino"), engine_url("sqlite:///x.db")
    ('postgresql+psycopg://pit@db/casino', 'sqlite:///x.db')
    """
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    if url.startswith(("sqlite:///", "postgresql+psycopg://")):
        return url
    raise BaccaratError(f"a database URL is sqlite:///PATH or postgresql://USER@HOST/NAME (got {url[:80]!r})")


def schema():
    """(metadata, meta, tables, events, wagers, variances, answers): the schema of SCHEMA_VERSION, in one place."""
    from sqlalchemy import Column, ForeignKey, Index, Integer, MetaData, String, Table, Text

    metadata = MetaData()
    meta = Table("meta", metadata, Column("key", String(40), primary_key=True), Column("value", String(200), nullable=False))
    tables = Table("tables", metadata,
                   Column("id", Integer, primary_key=True, autoincrement=True),
                   Column("name", String(40), nullable=False, unique=True),
                   Column("spec", Text, nullable=False),  # the TableSpec as JSON
                   Column("created", String(32), nullable=False),
                   Column("last_event", Integer, nullable=False))
    events = Table("events", metadata,
                   Column("table_id", Integer, ForeignKey("tables.id"), primary_key=True),
                   Column("number", Integer, primary_key=True, autoincrement=False),
                   Column("type", String(12), nullable=False),
                   Column("shoe", Integer, nullable=False),
                   Column("body", Text, nullable=False),  # the event as kept (JSON)
                   Column("figures", Text, nullable=False),  # the figures after it (JSON)
                   Column("at", String(32), nullable=False))
    Index("events_by_shoe", events.c.table_id, events.c.shoe)  # version 2
    wagers = Table("wagers", metadata,  # version 3: the wagers placed, each with its exact EV when placed
                   Column("id", Integer, primary_key=True, autoincrement=True),
                   Column("table_id", Integer, ForeignKey("tables.id"), nullable=False),
                   Column("shoe", Integer, nullable=False),
                   Column("coup", Integer, nullable=False),  # the coup's number in its shoe, from 1
                   Column("after", Integer, nullable=False),  # the table's last event when it was placed
                   Column("seat", String(80), nullable=False),
                   Column("player", String(80), nullable=False),
                   Column("bet", String(80), nullable=False),
                   Column("amount", String(40), nullable=False),  # exact, as a decimal
                   Column("ev", Text, nullable=False),  # exact, "p/q"
                   Column("at", String(32), nullable=False))
    Index("wagers_by_table", wagers.c.table_id, wagers.c.shoe, wagers.c.coup)
    Index("wagers_by_player", wagers.c.player)
    variances = Table("variances", metadata,  # version 4: each coup's wagers' exact mean and variance, once worked out
                      Column("key", String(64), primary_key=True),  # results.coup_key: the table, the shoe before, the amounts
                      Column("mean", Text, nullable=False),  # exact, "p/q"
                      Column("variance", Text, nullable=False),
                      Column("exact", Integer, nullable=False))  # 0: the variance is an upper bound
    answers = Table("answers", metadata,  # version 4: what a server worked out for its screens, kept for the others
                    Column("key", String(200), primary_key=True),
                    Column("value", Text, nullable=False),  # JSON
                    Column("at", String(32), nullable=False))
    return metadata, meta, tables, events, wagers, variances, answers


def now_text() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


class Store:
    """A pit's tables and events in the database at ``url`` (default_url() if None)."""

    def __init__(self, url: str | None = None, create: bool = True):
        """Open (with ``create``, make where there is none) the database at ``url``."""
        from sqlalchemy import create_engine, event
        from sqlalchemy.engine import make_url

        target = engine_url(url or default_url())
        self.url = make_url(target).render_as_string(hide_password=True).replace("+psycopg", "")  # shown, never a password
        if target.startswith("sqlite:///"):
            path = Path(target[len("sqlite:///"):])
            if not create and not path.exists():
                raise BaccaratError(f"no database at {path} (`baccarat serve` makes one where it keeps the tables)")
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                raise BaccaratError(f"cannot make the folder of the database {path}: {error.strerror}") from None
        self.target = target  # with its password: never shown
        self.engine = create_engine(target, pool_pre_ping=not target.startswith("sqlite"))  # a file is always there
        if self.engine.dialect.name == "sqlite":
            @event.listens_for(self.engine, "connect")
            def sqlite_settings(connection, record):
                connection.isolation_level = None  # transactions begun below, DDL included (not by the driver)
                cursor = connection.cursor()
                for pragma in ("journal_mode=WAL", "synchronous=FULL", "foreign_keys=ON", "busy_timeout=10000"):
                    cursor.execute(f"PRAGMA {pragma}")
                cursor.close()

            @event.listens_for(self.engine, "begin")
            def sqlite_begin(connection):  # a writer takes the write lock at once: no reader's upgrade to fail
                connection.exec_driver_sql("BEGIN IMMEDIATE" if connection.get_execution_options().get("write") else "BEGIN")
        self.writer = self.engine.execution_options(write=True)
        self.metadata, self.meta, self.tables, self.events, self.wagers, self.variances, self.answers = schema()
        try:
            self.migrate()
        except BaccaratError:
            raise
        except Exception as error:  # noqa: BLE001 - the driver's own words, on one line
            raise BaccaratError(f"cannot open the database {self.url}: {str(error).splitlines()[0]}") from None

    def close(self):
        self.engine.dispose()

    # The schema's versions: migrate() runs these in turn from the database's version.
    def migrate(self):
        from sqlalchemy import inspect, select

        with self.writer.begin() as connection:  # one writer at a time: openers at once make the schema once
            if connection.dialect.name == "postgresql":
                connection.exec_driver_sql("SELECT pg_advisory_xact_lock(20261125)")
            found = set(inspect(connection).get_table_names())
            if "meta" not in found:
                if found:
                    raise BaccaratError(f"the database {self.url} holds other tables and none of baccarat's: not a pit's database")
                self.metadata.create_all(connection)
                connection.execute(self.meta.insert().values(key="schema_version", value=str(SCHEMA_VERSION)))
                return
            version = connection.execute(select(self.meta.c.value).where(self.meta.c.key == "schema_version")).scalar()
            if not (version or "").isdigit() or int(version) < 1 or not {"tables", "events"} <= found:
                raise BaccaratError(f"the database {self.url} is not a pit's database as baccarat writes it "
                                    f"(schema version {version!r}, tables {', '.join(sorted(found))})")
            version = int(version)
            if version > SCHEMA_VERSION:
                raise BaccaratError(f"the database {self.url} was written by a newer baccarat (schema {version}; this one "
                                    f"reads up to {SCHEMA_VERSION}): upgrade baccarat")
            for step in range(version, SCHEMA_VERSION):
                MIGRATIONS[step](self, connection)
                connection.execute(self.meta.update().where(self.meta.c.key == "schema_version").values(value=str(step + 1)))

    def migrate_1_to_2(self, connection):
        """Version 2: the events of a shoe found by index (history and replay read a shoe at a time)."""
        for index in self.events.indexes:
            index.create(connection, checkfirst=True)

    def migrate_2_to_3(self, connection):
        """Version 3: the wagers placed at the tables (protect.py)."""
        self.wagers.create(connection, checkfirst=True)
        for index in self.wagers.indexes:
            index.create(connection, checkfirst=True)

    def migrate_3_to_4(self, connection):
        """Version 4: each coup's wagers' variance, kept once worked out (results.py), and the
        answers a server's tally works out for the screens (the day's results)."""
        self.variances.create(connection, checkfirst=True)
        self.answers.create(connection, checkfirst=True)

    def keep_answer(self, key: str, value: str) -> None:
        """Keep ``value`` (JSON text) under ``key``, now, in place of what was there."""
        a = self.answers
        with self.writer.begin() as connection:
            connection.execute(a.delete().where(a.c.key == key))
            connection.execute(a.insert().values(key=key, value=value, at=now_text()))

    def answer(self, key: str) -> tuple[str, str] | None:
        """(value, when it was kept) of the answer kept under ``key``, or None."""
        from sqlalchemy import select

        a = self.answers
        with self.engine.connect() as connection:
            row = connection.execute(select(a.c.value, a.c.at).where(a.c.key == key)).first()
        return None if row is None else (row.value, row.at)

    def kept_variances(self, keys: list[str]) -> dict:
        """key -> (mean, variance, exact) of those of ``keys`` kept (results.coup_key), read in parts."""
        from sqlalchemy import select

        v, out = self.variances, {}
        with self.engine.connect() as connection:
            for start in range(0, len(keys), 500):
                for key, mean, variance, exact in connection.execute(
                        select(v.c.key, v.c.mean, v.c.variance, v.c.exact).where(v.c.key.in_(keys[start:start + 500]))):
                    out[key] = (Fraction(mean), Fraction(variance), bool(exact))
        return out

    def keep_variances(self, rows: dict) -> None:
        """Keep key -> (mean, variance, exact), in one transaction: a key kept already (another
        process worked it out too: the same figures) left as it is (INSERT ... ON CONFLICT DO
        NOTHING, in SQLite and PostgreSQL alike). They are a cache: where they cannot be written
        (a reader's role, a database that is read-only), nothing is kept and nothing is said."""
        from sqlalchemy.exc import SQLAlchemyError

        if self.engine.dialect.name == "postgresql":
            from sqlalchemy.dialects.postgresql import insert
        else:
            from sqlalchemy.dialects.sqlite import insert
        values = [{"key": k, "mean": str(m), "variance": str(v), "exact": int(e)} for k, (m, v, e) in rows.items()]
        try:
            with self.writer.begin() as connection:
                for start in range(0, len(values), 500):
                    connection.execute(insert(self.variances).on_conflict_do_nothing(), values[start:start + 500])
        except SQLAlchemyError:
            pass

    def add_wagers(self, name: str, after: int, shoe: int, coup: int, rows: list[dict]) -> list[int]:
        """Keep wagers on coup ``coup`` of shoe ``shoe`` of table ``name``, placed when its last event
        was ``after``, all in one transaction (each row: seat, player, bet, amount and ev as text);
        Stale, and nothing kept, if the table has moved on since."""
        from sqlalchemy import select

        t, w = self.tables, self.wagers
        with self.writer.begin() as connection:
            row = connection.execute(select(t.c.id, t.c.last_event).where(t.c.name == name)).first()
            if row is None:
                raise Missing(f"no table {name!r}" + self.meant(name))
            if row.last_event != after:
                raise Stale(f"table {name!r} is at event {row.last_event}, not {after}: the coup the wagers were placed "
                            "on has been dealt, or corrected, since", row.last_event)
            at = now_text()
            ids = []
            for r in rows:
                ids.append(connection.execute(w.insert().values(table_id=row.id, shoe=shoe, coup=coup, after=after,
                                                                at=at, **r)).inserted_primary_key[0])
        return ids

    def wager_query(self, select_what, tables, since, until, players=None, shoe=None):
        """A query of the wagers kept (of ``tables``, ``players``, the shoe numbered ``shoe``, kept
        at ``since`` or later and before ``until``, where given), selecting ``select_what``."""
        from sqlalchemy import select

        t, w = self.tables, self.wagers
        query = select(*select_what).select_from(w.join(t, t.c.id == w.c.table_id))
        if tables is not None:
            query = query.where(t.c.name.in_(tables))
        if shoe is not None:
            query = query.where(w.c.shoe == shoe)
        if players is not None:
            query = query.where(w.c.player.in_(players))
        if since is not None:
            query = query.where(w.c.at >= since)
        if until is not None:
            query = query.where(w.c.at < until)
        return query

    def wager_players(self, tables: list[str] | None = None, since: str | None = None,
                      until: str | None = None) -> list[tuple[str, int]]:
        """(player, wagers kept) of every player with wagers kept (as wager_rows picks them), by name."""
        from sqlalchemy import func

        w = self.wagers
        query = self.wager_query([w.c.player, func.count()], tables, since, until).group_by(w.c.player).order_by(w.c.player)
        with self.engine.connect() as connection:
            return [(player, count) for player, count in connection.execute(query)]

    def wager_marks(self, tables: list[str] | None = None, since: str | None = None,
                    until: str | None = None) -> dict:
        """(table, shoe) -> (wagers, the last one's id) of every shoe with wagers kept (as
        wager_rows picks them): what changes when a wager is kept there."""
        from sqlalchemy import func

        t, w = self.tables, self.wagers
        query = self.wager_query([t.c.name, w.c.shoe, func.count(), func.max(w.c.id)], tables, since, until) \
            .group_by(t.c.name, w.c.shoe)
        with self.engine.connect() as connection:
            return {(name, shoe): (count, last) for name, shoe, count, last in connection.execute(query)}

    def shoe_marks(self, tables: list[str]) -> dict:
        """(table, shoe) -> the shoe's last event number, for ``tables``: what changes when a coup
        of the shoe is dealt, corrected or voided."""
        from sqlalchemy import func, select

        t, e = self.tables, self.events
        query = (select(t.c.name, e.c.shoe, func.max(e.c.number)).select_from(e.join(t, t.c.id == e.c.table_id))
                 .where(t.c.name.in_(tables), e.c.shoe > 0).group_by(t.c.name, e.c.shoe))
        with self.engine.connect() as connection:
            return {(name, shoe): last for name, shoe, last in connection.execute(query)}

    def wager_rows(self, tables: list[str] | None = None, since: str | None = None, until: str | None = None,
                   players: list[str] | None = None, shoe: int | None = None):
        """The wagers kept (of ``tables``, else of every table; kept at ``since`` or later and before
        ``until``, ISO times in UTC, where given), in the order they were kept, each {table, shoe,
        coup, seat, player, bet, amount, ev, at, id, after}, read in parts of 10,000: a generator,
        so that a month of them is never all in memory here."""
        t, w = self.tables, self.wagers
        query = self.wager_query([w, t.c.name], tables, since, until, players, shoe)
        last = 0
        while True:
            part = query.where(w.c.id > last).order_by(w.c.id).limit(MAX_LIST)
            with self.engine.connect() as connection:
                rows = [dict(row._mapping) for row in connection.execute(part)]
            for row in rows:
                yield {"table": row["name"], "shoe": row["shoe"], "coup": row["coup"], "seat": row["seat"],
                       "player": row["player"], "bet": row["bet"], "amount": row["amount"], "ev": row["ev"],
                       "at": row["at"], "id": row["id"], "after": row["after"]}
            if len(rows) < MAX_LIST:
                return
            last = rows[-1]["id"]

    def create_table(self, spec) -> None:
        """Keep a new table (a pit.TableSpec); BaccaratError if the name is taken."""
        from sqlalchemy import select

        with self.writer.begin() as connection:
            if connection.execute(select(self.tables.c.id).where(self.tables.c.name == spec.name)).first():
                raise BaccaratError(f"table {spec.name!r} already exists")
            connection.execute(self.tables.insert().values(name=spec.name, spec=json.dumps(spec.data()), created=now_text(),
                                                           last_event=0))
            self.announce(connection, spec.name, 0)

    def marks(self) -> tuple:
        """What changes whenever anything is kept: each table's last event and the last wager's
        id, read with two light queries (what a cache of figures derived from them is keyed on)."""
        from sqlalchemy import func, select

        with self.engine.connect() as connection:
            events = tuple(connection.execute(select(self.tables.c.name, self.tables.c.last_event)
                                              .order_by(self.tables.c.name)).all())
            wager = connection.execute(select(func.max(self.wagers.c.id))).scalar()
        return tuple(map(tuple, events)), wager

    def table_rows(self) -> list[dict]:
        """Every table: its spec, its last event and the figures after it (None before any)."""
        from sqlalchemy import and_, select

        t, e = self.tables, self.events
        query = select(t.c.name, t.c.spec, t.c.last_event, t.c.created, e.c.figures, e.c.at).select_from(
            t.outerjoin(e, and_(e.c.table_id == t.c.id, e.c.number == t.c.last_event))).order_by(t.c.name)
        with self.engine.connect() as connection:
            return [self.table_row(row) for row in connection.execute(query)]

    def table(self, name: str) -> dict:
        """One table as table_rows gives it; Missing if there is none."""
        from sqlalchemy import and_, select

        t, e = self.tables, self.events
        query = select(t.c.name, t.c.spec, t.c.last_event, t.c.created, e.c.figures, e.c.at).select_from(
            t.outerjoin(e, and_(e.c.table_id == t.c.id, e.c.number == t.c.last_event))).where(t.c.name == name)
        with self.engine.connect() as connection:
            row = connection.execute(query).first()
        if row is None:
            raise Missing(f"no table {name!r}" + self.meant(name))
        return self.table_row(row)

    @staticmethod
    def table_row(row) -> dict:
        return {"name": row.name, "spec": json.loads(row.spec), "event": row.last_event, "created": row.created,
                "figures": json.loads(row.figures) if row.figures else None, "at": row.at}

    def shoe_rows(self, name: str) -> list[dict]:
        """A table's shoes: number, first and last event, coups (those that stand: a void strikes
        one out), voids, corrections, whether the cut card came out, first and last time, and the
        cards left after the last event."""
        from sqlalchemy import case, func, select

        table_id = self.table_id(name)
        e = self.events
        counted = lambda kind: func.sum(case((e.c.type == kind, 1), else_=0))  # noqa: E731
        query = (select(e.c.shoe, func.min(e.c.number).label("first"), func.max(e.c.number).label("last"),
                        (counted("coup") - counted("void")).label("coups"), counted("void").label("voids"),
                        counted("correction").label("corrections"),
                        counted("cut").label("cuts"), func.min(e.c.at).label("since"), func.max(e.c.at).label("until"))
                 .where(e.c.table_id == table_id, e.c.shoe > 0).group_by(e.c.shoe).order_by(e.c.shoe))
        with self.engine.connect() as connection:
            shoes = [dict(row._mapping) for row in connection.execute(query)]
            lasts = {row.number: json.loads(row.figures) for row in connection.execute(
                select(e.c.number, e.c.figures).where(e.c.table_id == table_id, e.c.number.in_([s["last"] for s in shoes])))}
        return [s | {"cards_left": lasts.get(s["last"], {}).get("cards_left")} for s in shoes]

    def event_rows(self, name: str, after: int = 0, shoe: int | None = None, limit: int = MAX_LIST,
                   figures: bool = True) -> list[dict]:
        """A table's events numbered above ``after`` (of one ``shoe`` if given), in order, at most
        ``limit`` of them: number, type, shoe, the event, the figures after it (None without
        ``figures``: some 70 KB of JSON an event not read), when it was kept."""
        from sqlalchemy import null, select

        table_id = self.table_id(name)
        e = self.events
        query = select(e.c.number, e.c.type, e.c.shoe, e.c.body, e.c.figures if figures else null().label("figures"),
                       e.c.at).where(e.c.table_id == table_id, e.c.number > after)
        if shoe is not None:
            query = query.where(e.c.shoe == shoe)
        query = query.order_by(e.c.number).limit(min(limit, MAX_LIST))
        with self.engine.connect() as connection:
            return [{"event": row.number, "type": row.type, "shoe": row.shoe, "body": json.loads(row.body),
                     "figures": json.loads(row.figures) if figures else None, "at": row.at}
                    for row in connection.execute(query)]

    def last_events(self) -> dict[str, int]:
        """Each table's last event number (one light query: what a screen's watch looks at)."""
        from sqlalchemy import select

        with self.engine.connect() as connection:
            return dict(connection.execute(select(self.tables.c.name, self.tables.c.last_event)).all())

    def shoe_events(self, name: str, shoe: int, limit: int) -> list[dict]:
        """The events of one shoe as kept (their JSON, not the figures after them), in order, at
        most ``limit``: what folding the shoe's state reads."""
        from sqlalchemy import select

        table_id = self.table_id(name)
        e = self.events
        query = select(e.c.body).where(e.c.table_id == table_id, e.c.shoe == shoe).order_by(e.c.number).limit(limit)
        with self.engine.connect() as connection:
            return [json.loads(body) for body, in connection.execute(query)]

    def event_texts(self, name: str, after: int = 0, limit: int = MAX_LIST) -> list[tuple]:
        """A table's events above ``after`` as kept: (number, type, shoe, the event's JSON text, the
        figures' JSON text, when), for a stream that sends them as they are, unparsed."""
        from sqlalchemy import select

        table_id = self.table_id(name)
        e = self.events
        query = (select(e.c.number, e.c.type, e.c.shoe, e.c.body, e.c.figures, e.c.at)
                 .where(e.c.table_id == table_id, e.c.number > after).order_by(e.c.number).limit(min(limit, MAX_LIST)))
        with self.engine.connect() as connection:
            return [tuple(row) for row in connection.execute(query)]

    def meant(self, name: str) -> str:
        """' (did you mean ...?)' for a table's name that is not kept (errors.did_you_mean)."""
        from sqlalchemy import select

        try:
            with self.engine.connect() as connection:
                names = [row.name for row in connection.execute(select(self.tables.c.name).limit(10_000))]
        except Exception:  # a name's hint is never worth an error of its own
            return ""
        return did_you_mean(name, names)

    def table_id(self, name: str) -> int:
        from sqlalchemy import select

        with self.engine.connect() as connection:
            found = connection.execute(select(self.tables.c.id).where(self.tables.c.name == name)).scalar_one_or_none()
        if found is None:
            raise Missing(f"no table {name!r}" + self.meant(name))
        return found

    def append(self, name: str, after: int, kind: str, shoe: int, body: dict, figures: dict, at: str | None = None) -> int:
        """Keep an event after event ``after`` of table ``name``, in one transaction, and return its
        number; Stale (nothing kept) if the table's last event is no longer ``after``. (SQLite
        refuses a reader's upgrade to writer while another writes: the transaction is tried again,
        and then reads the other's event, so the answer is Stale.)"""
        from sqlalchemy.exc import OperationalError

        for attempt in range(100):
            try:
                return self.try_append(name, after, kind, shoe, body, figures, at or now_text())
            except OperationalError as error:
                if "locked" not in str(error) or attempt == 99:
                    raise BaccaratError(f"cannot write to the database {self.url}: {str(error).splitlines()[0]}") from None
                time.sleep(0.01)

    def try_append(self, name: str, after: int, kind: str, shoe: int, body: dict, figures: dict, at: str) -> int:
        from sqlalchemy import select
        from sqlalchemy.exc import IntegrityError

        t = self.tables
        try:
            with self.writer.begin() as connection:
                row = connection.execute(select(t.c.id, t.c.last_event).where(t.c.name == name)).first()
                if row is None:
                    raise Missing(f"no table {name!r}" + self.meant(name))
                if row.last_event != after:
                    raise Stale(f"table {name!r} is at event {row.last_event}, not {after}: another writer came first",
                                row.last_event)
                moved = connection.execute(t.update().where(t.c.id == row.id, t.c.last_event == after)
                                           .values(last_event=after + 1))
                if moved.rowcount != 1:
                    raise Stale(f"table {name!r} moved past event {after}: another writer came first", after + 1)
                connection.execute(self.events.insert().values(table_id=row.id, number=after + 1, type=kind, shoe=shoe,
                                                               body=json.dumps(body), figures=json.dumps(figures),
                                                               at=at))
                self.announce(connection, name, after + 1)
        except IntegrityError:  # the same number kept by another writer at once
            raise Stale(f"table {name!r} moved past event {after}: another writer came first", after + 1) from None
        return after + 1

    @property
    def listens(self) -> bool:
        """Whether kept events are announced (PostgreSQL) for :meth:`notices` to hear."""
        return self.engine.dialect.name == "postgresql"

    def announce(self, connection, name: str, number: int):
        """Announce event ``number`` of table ``name`` at this transaction's commit (PostgreSQL)."""
        if connection.dialect.name == "postgresql":
            from sqlalchemy import text

            connection.execute(text("SELECT pg_notify(:channel, :payload)"), {"channel": CHANNEL, "payload": f"{number} {name}"})

    def notices(self, stop, ready=lambda: None):
        """(table, event number) of each event kept by any server, as PostgreSQL announces it at
        its commit, until ``stop()`` (looked at twice a second): a generator over a connection of
        its own, which calls ``ready()`` once it listens. A lost connection is the driver's
        error, for the caller to retry (and to look at the tables' last events meanwhile)."""
        import psycopg

        with psycopg.connect(self.target.replace("postgresql+psycopg://", "postgresql://", 1), autocommit=True) as listening:
            listening.execute(f"LISTEN {CHANNEL}")
            ready()
            while not stop():
                for notice in listening.notifies(timeout=0.5):
                    number, _, name = notice.payload.partition(" ")
                    if number.isdigit() and name:
                        yield name, int(number)


MIGRATIONS = {1: Store.migrate_1_to_2, 2: Store.migrate_2_to_3, 3: Store.migrate_3_to_4}
