"""The pit's tables as kept (store.py): their history, and a kept shoe replayed (replay.py)."""

from __future__ import annotations

from fractions import Fraction

from ..game.cards import Shoe
from ..base.errors import BaccaratError
from ..pit.store import Missing
from ..pit.table import kept_shoe
from ..render import Column, View, percent
from ..bets.rulefile import get_rules
from .replay import replay


def positive_text(figures: dict | None) -> str:
    """The bets positive after an event, best first, with their EVs: 'egalite_5 +1.23%'."""
    if not figures or not figures.get("positive"):
        return "-"
    ev = {row["bet"]: Fraction(row["ev"]) for row in figures.get("bets", []) if isinstance(row.get("ev"), str)}
    return ", ".join(f"{bet} {percent(ev[bet])}" if bet in ev else bet for bet in figures["positive"])


def event_result(kept: dict) -> str:
    """Who won the coup an event dealt (or corrected): 'Banker 8-5'; '' for other events."""
    from .replay import result_text

    last = (kept.get("figures") or {}).get("last")
    if kept["type"] not in ("coup", "correction") or not last:
        return ""
    return result_text(last["winner"], last["player_total"], last["banker_total"])


def cards_left(figures: dict | None):
    return None if not figures else figures.get("cards_left")


def history(store, table: str | None = None, shoe: int | None = None) -> View:
    """Every table (no ``table``), a table's shoes, or one shoe's events (a coup's with who won)."""
    if table is None:
        if shoe is not None:
            raise BaccaratError("{shoe_number} is one shoe of a table: name the table", names=("shoe_number",))
        rows = [{"table": t["name"], "rules": t["spec"]["rules"], "decks": t["spec"]["decks"], "event": t["event"],
                 "shoe": (t["figures"] or {}).get("shoe", 0), "left": cards_left(t["figures"]),
                 "positive": positive_text(t["figures"]), "at": t["at"] or t["created"]} for t in store.table_rows()]
        return View(f"Tables in {store.url}: {len(rows)}", [
            Column("table", "table"), Column("rules", "rules"), Column("decks", "decks", "count"),
            Column("event", "last event", "count"), Column("shoe", "shoe", "count"), Column("left", "cards left", "count"),
            Column("positive", "positive now (EV)"), Column("at", "last change (UTC)")], rows, {"tables": store.table_rows()})
    if shoe is not None:
        events = store.event_rows(table, shoe=shoe)
        if not events:
            raise Missing(f"table {table!r} has no shoe {shoe}")
        rows = [{"event": e["event"], "type": e["type"], "cards": " ".join(e["body"].get("cards", []))
                 + (f" +{e['body']['face_down']}" if e["body"].get("face_down") else "")
                 + (f"coup {e['body']['coup']}" if e["type"] == "void" and e["body"].get("coup") else ""),
                 "result": event_result(e),
                 "left": cards_left(e["figures"]), "positive": positive_text(e["figures"]), "at": e["at"]} for e in events]
        return View(f"Table {table}, shoe {shoe}: {len(rows)} events", [
            Column("event", "event", "count"), Column("type", "type"), Column("cards", "cards"), Column("result", "result"),
            Column("left", "cards left after", "count"), Column("positive", "positive after (EV)"),
            Column("at", "kept at (UTC)")], rows, {"table": table, "shoe": shoe, "events": events})
    rows = [{"shoe": s["shoe"], "events": f"{s['first']}-{s['last']}", "coups": s["coups"], "voids": s["voids"],
             "corrections": s["corrections"],
             "cut": "yes" if s["cuts"] else "no", "left": s["cards_left"], "from": s["since"], "to": s["until"]}
            for s in store.shoe_rows(table)]
    return View(f"Table {table}: {len(rows)} shoes", [
        Column("shoe", "shoe", "count"), Column("events", "events"), Column("coups", "coups", "count"),
        Column("voids", "voided", "count"),
        Column("corrections", "corrections", "count"), Column("cut", "cut card"), Column("left", "cards left", "count"),
        Column("from", "from (UTC)"), Column("to", "to (UTC)")], rows,
        {"table": table, "shoes": [{k: row[k] for k in row} for row in rows]})


def kept(store, table: str, shoe: int | None = None):
    """(the table's spec, the shoe as dealt) of a shoe kept at ``table`` (default: its last),
    refused where it has no such shoe, or no coup of it stands (none dealt yet, or every one
    voided)."""
    row = store.table(table)
    if shoe is None:
        shoe = (row["figures"] or {}).get("shoe", 0)
    events = store.event_rows(table, shoe=shoe)
    if not shoe or not events:
        raise Missing(f"table {table!r} has no shoe {shoe}" if shoe else f"table {table!r} has no shoe yet")
    dealt = kept_shoe(events, shoe)
    if not dealt.coups:
        voided = f" ({len(dealt.voided)} voided)" if dealt.voided else ""
        raise BaccaratError(f"table {table!r}, shoe {shoe}: no coup stands{voided}")
    return row["spec"], dealt


def kept_shoes(store, table: str, shoe: int | None = None):
    """(tableau, [ShoeDealt]) of a shoe kept at ``table`` (default: its last), for its roads."""
    spec, dealt = kept(store, table, shoe)
    return get_rules(spec["rules"]).tableau, [dealt]


def replay_kept(store, table: str, shoe: int | None = None) -> View:
    """A shoe kept at ``table`` (default: its last) replayed by the table's own rules and decks."""
    spec, dealt = kept(store, table, shoe)
    view = replay(get_rules(spec["rules"]), Shoe.decks(spec["decks"]), [dealt])
    view.title = f"Table {table}, shoe {dealt.name}. " + view.title
    return view
