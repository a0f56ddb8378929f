"""A pit's tables as sequences of events, without storage: what a table is, what may happen at
it, and what it stands at after its events (store.py keeps them; the pages and the API show them).

Glossary
--------
table     a name and how it deals: a rule set, decks, the cut card's place (cards behind it), the
          burn rule, and a count system to show (optional)
event     what happens at a table, numbered from 1 in order: ``shoe`` (a new shoe, full),
          ``burn`` (the cards turned up and how many go face down), ``coup`` (its 4 to 6 cards in
          dealing order), ``correction`` (the last coup's cards as they really were: the coup
          it corrects stays in the history), ``void`` (a coup struck out, the shoe's last or
          one named by its number in the shoe: entered twice, or never dealt; it stays in the
          history, its cards count as never dealt, and the figures after the void follow from
          the coups that stand), ``cut`` (the cut card came out), ``close`` (the table closes: no
          coup is dealt nor wager taken until a new shoe opens it again; the pages leave it out)
state     what the events leave: the shoe being dealt (its number), the cards seen in it, the
          cards burned face down, its coups, whether the cut card has come out
wager     a bet placed on the coming coup by a player (at a seat): kept with the exact EV it had
          then, taken from the figures after the table's last event (protect.py reviews them)
figures   every bet's exact figures for the next coup (as `now --format json` gives them), the
          cards left, the bets with positive expectation, the table's count (running and true):
          a pure function of the state, computed once per event and kept beside it

An event is JSON such as ``{"type": "coup", "cards": ["2h", "Kd", "3c", "Ts", "9s", "7d"]}``; it is checked
against the state before it (a coup the tableau could not deal, a card not left, a burn after a
coup...) and refused with a BaccaratError saying why, before anything is kept.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache

from .. import BUILT_IN
from ..game.cards import VALUES, Shoe
from ..base.errors import BaccaratError, did_you_mean, listing
from .replay import Coup, ShoeDealt, card_text, check_dealt, result_of
from .roads import board, result_of_coup
from ..game.tableau import Tableau

EVENT_TYPES = ("shoe", "burn", "coup", "correction", "void", "cut", "close")
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,39}")  # a table's name: in a URL as it is
BURN_RULES = ("face", "none")  # or a number of cards
MAX_EVENT = 2_000  # bytes of one event's JSON
MAX_SHOE_EVENTS = 1_000  # events of one shoe (about 80 coups, their corrections, the burn and the cut)
MAX_WAGERS = 200  # wagers one request places (seven seats, every bet of the catalogue, and some)
MAX_WAGER_BODY = 40_000  # bytes of that request's JSON


@dataclass(frozen=True)
class TableSpec:
    """How a table deals (see the module notes): the rule set and decks its figures are taken
    from; the burn rule its burn events are held to (``face``: one card turned up and as many
    burned face down as its value, ten for T, J, Q, K; a number: that many face down, none
    turned; ``none``: no burn); the cut card's place and the count system, for the pages to
    show (the cut card's coming out is an event of its own)."""

    name: str
    rules: str = "catalog"
    decks: int = 8
    cut: int = 14
    burn: str = "face"
    count: str | None = None

    def data(self) -> dict:
        return {"name": self.name, "rules": self.rules, "decks": self.decks, "cut": self.cut, "burn": self.burn,
                "count": self.count}


def table_spec(data) -> TableSpec:
    """A TableSpec from JSON (``{"name": "bac-7", "rules": "catalog", "decks": 8}`` at least a
    name), each field checked.

    >>> table_spec({"name": "bac-7", "decks": 6})
    TableSpec(name='bac-7', rules='catalog', decks=6, cut=14, burn='face', count=None)
    """
    if not isinstance(data, dict):
        raise BaccaratError("a table is a JSON object with its name, rules, decks, cut, burn and count")
    unknown = sorted(set(data) - {"name", "rules", "decks", "cut", "burn", "count"})
    if unknown:
        raise BaccaratError(f"a table has no field {unknown[0]!r} (fields: name, rules, decks, cut, burn, count)")
    name = data.get("name")
    if not isinstance(name, str) or not NAME.fullmatch(name):
        raise BaccaratError("a table's name is 1 to 40 letters, digits, '-', '_' or '.', starting with a letter or digit "
                            f"(got {name!r})")
    rules = data.get("rules", "catalog")
    if rules not in BUILT_IN:
        raise BaccaratError(f"a table's rules are a built-in rule set ({', '.join(BUILT_IN)}; got {str(rules)[:40]!r})")
    decks, cut = data.get("decks", 8), data.get("cut", 14)
    if type(decks) is not int or not 1 <= decks <= 24:
        raise BaccaratError(f"a table's decks are a whole number from 1 to 24 (got {decks!r})")
    if type(cut) is not int or not 0 <= cut <= 52 * decks - 6:
        raise BaccaratError(f"a table's cut is the cards behind the cut card, 0 to {52 * decks - 6} (got {cut!r})")
    burn = data.get("burn", "face")
    if not (burn in BURN_RULES or isinstance(burn, str) and burn.isascii() and burn.isdigit() and int(burn) <= 20):
        raise BaccaratError(f"a table's burn is face, none, or a number of cards up to 20 (got {str(burn)[:40]!r})")
    count = data.get("count")
    if count is not None:
        from ..bets.rulefile import get_rules

        names = [name for name, _ in get_rules(rules).count_systems]
        if count not in names:
            raise BaccaratError(f"a table's count is a count system of its rule set ({', '.join(names) or 'none'}; "
                                f"got {str(count)[:40]!r})")
    return TableSpec(name, rules, decks, cut, str(burn), count)


@dataclass(frozen=True)
class Event:
    """One event, checked: its type, its cards (rank, suit) and face-down count for a burn, the
    coup a void strikes out (its number in the shoe; 0: the last, as sent)."""

    type: str
    cards: tuple = ()
    face_down: int = 0
    coup: int = 0

    def data(self) -> dict:
        out = {"type": self.type}
        if self.type in ("burn", "coup", "correction"):
            out["cards"] = [card_text(c) for c in self.cards]
        if self.type == "burn":
            out["face_down"] = self.face_down
        if self.type == "void" and self.coup:
            out["coup"] = self.coup
        return out


def event_of(data) -> Event:
    """An Event from its JSON (``after`` aside), or a BaccaratError saying what is wrong.

    >>> event_of({"type": "coup", "cards": ["2h", "Kd", "3c", "Ts", "9s", "7d"]}).cards
    ((1, 1), (12, 2), (2, 3), (9, 0), (8, 0), (6, 2))
    """
    from ..game.cards import parse_card

    if not isinstance(data, dict):
        raise BaccaratError("an event is a JSON object with its type")
    kind = data.get("type")
    if kind not in EVENT_TYPES:
        raise BaccaratError(f"an event's type is one of {', '.join(EVENT_TYPES)} (got {kind!r})")
    allowed = {"type", "after"} | ({"cards"} if kind in ("burn", "coup", "correction") else set()) \
        | ({"face_down"} if kind == "burn" else set()) | ({"coup"} if kind == "void" else set())
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise BaccaratError(f"a {kind} event has no field {unknown[0]!r}")
    cards = ()
    if "cards" in allowed:
        written = data.get("cards", [])
        if not isinstance(written, list) or len(written) > 20 or not all(isinstance(c, str) and len(c) <= 3 for c in written):
            raise BaccaratError(f"a {kind} event's cards are a list of cards such as [\"9h\", \"Kd\"]")
        if len(written) > 6:
            raise BaccaratError(f"a {kind} has 4 to 6 cards (got {len(written)})" if kind != "burn" else
                                f"a burn turns up at most 6 cards (got {len(written)})")
        cards = tuple(parse_card(c) for c in written)
        if any(suit is None for _, suit in cards):
            raise BaccaratError(f"a {kind} event's cards name their suits (\"9h\", not \"9\"): the table's shoe is real cards")
    face_down = data.get("face_down", 0)
    if type(face_down) is not int or not 0 <= face_down <= 20:
        raise BaccaratError(f"a burn's face_down is a whole number from 0 to 20 (got {face_down!r})")
    if kind in ("coup", "correction") and not 4 <= len(cards) <= 6:
        raise BaccaratError(f"a {kind} has 4 to 6 cards (got {len(cards)})")
    if kind == "burn" and not cards and not face_down:
        raise BaccaratError("a burn turns up at least one card or burns some face down")
    coup = data.get("coup", 0)
    if kind == "void" and "coup" in data and (type(coup) is not int or not 1 <= coup <= MAX_SHOE_EVENTS):
        raise BaccaratError(f"a void's coup is the coup's number in the shoe, from 1 (got {str(coup)[:20]!r})")
    return Event(kind, cards, face_down, coup)


@dataclass(frozen=True)
class State:
    """What a table's events leave (see the module notes); ``shoe`` 0 before the first shoe."""

    shoe: int = 0
    burned: tuple = ()
    face_down: int = 0
    coups: tuple = ()  # each coup's cards
    cut: int | None = None  # the coups dealt when the cut card came out (None: not yet)
    closed: bool = False  # the table closed (until a new shoe)

    def seen(self) -> list:
        return list(self.burned) + [card for coup in self.coups for card in coup]


def apply(state: State, event: Event, start: Shoe, tableau: Tableau, burn: str = "face") -> State:
    """The state after ``event``, or a BaccaratError saying why the table cannot take it (its
    ``burn`` rule: see TableSpec)."""
    if event.type == "shoe":
        return State(shoe=state.shoe + 1)
    if state.closed:
        raise BaccaratError(f"the table is closed: a new shoe opens it again (got a {event.type})")
    if event.type == "close":
        return replace(state, closed=True)
    if state.shoe == 0:
        raise BaccaratError(f"no shoe yet: a table's first event is a shoe (got a {event.type})")
    if event.type == "burn":
        if state.coups or state.burned or state.face_down:
            raise BaccaratError("a burn comes before the shoe's first coup, once")
        check_burn(event, burn)
        left = without(start, event.cards)
        if left.size < event.face_down:
            raise BaccaratError(f"the burn takes {event.face_down} cards face down, {left.size} are left")
        return replace(state, burned=event.cards, face_down=event.face_down)
    if event.type == "cut":
        if state.cut is not None:
            raise BaccaratError("the cut card came out once already in this shoe")
        return replace(state, cut=len(state.coups))
    if event.type == "void":
        number = voided(state, event)
        cut = state.cut - 1 if state.cut is not None and number <= state.cut else state.cut
        return replace(state, coups=state.coups[:number - 1] + state.coups[number:], cut=cut)
    coups = state.coups
    if event.type == "correction":
        if not coups:
            raise BaccaratError("no coup in this shoe to correct")
        coups = coups[:-1]
    elif state.cut is not None and len(coups) > state.cut:
        raise BaccaratError("the shoe is over: the coup after the cut card was its last (a new shoe comes next)")
    check_dealt(event.cards, tableau, f"this {event.type}")
    before = without(start, list(state.burned) + [c for coup in coups for c in coup])
    left = before.size - state.face_down
    if left < 6:
        raise BaccaratError(f"the shoe is over: {left} cards are left, and a coup is dealt from 6 at least")
    without(before, event.cards)
    return replace(state, coups=coups + (event.cards,))


def voided(state: State, event: Event) -> int:
    """The number in the shoe of the coup a void strikes out (its own, else the last), or a
    BaccaratError where the shoe has no such coup. Striking a coup out gives its cards back to
    the shoe: every coup after it was dealt from as many cards or more, so each stays legal."""
    if not state.coups:
        raise BaccaratError("no coup in this shoe to void")
    number = event.coup or len(state.coups)
    if number > len(state.coups):
        raise BaccaratError(f"this shoe has {len(state.coups)} coup{'s' * (len(state.coups) != 1)}: no coup {number} to void")
    return number


def check_burn(event: Event, burn: str) -> None:
    """Refuse a burn the table's burn rule does not deal."""
    if burn == "none":
        raise BaccaratError("this table burns no cards (its burn rule is none)")
    if burn == "face":
        if len(event.cards) != 1:
            raise BaccaratError("this table burns by the face of one card: turn up one card (its burn rule is face)")
        value = VALUES[event.cards[0][0]] or 10
        if event.face_down != value:
            raise BaccaratError(f"a burn by the face of {card_text(event.cards[0])} puts {value} cards face down "
                                f"(got {event.face_down})")
    elif event.cards or event.face_down != int(burn):
        raise BaccaratError(f"this table burns {burn} cards face down, none turned up (got {len(event.cards)} up, "
                            f"{event.face_down} down)")


def without(shoe: Shoe, cards) -> Shoe:
    return shoe.without_cards(list(cards))


def figures(state: State, start: Shoe, rules, spec: TableSpec | None = None) -> dict:
    """The figures after ``state``: the cards left (face-down burns counted), the scoreboard
    (roads.board), the last coup's result and the run it makes (with its chance in a shoe of the
    table's ``spec``), every bet's
    figures for the next coup (``bets``, as `now --format json` gives them) and those with
    positive expectation, sorted by EV; none once the shoe is over (the coup after the cut card
    dealt, or fewer than 6 cards left)."""
    from ..questions.analysis import analyse, bet_row, is_positive

    out = {"shoe": state.shoe, "coups": len(state.coups), "cut": state.cut is not None}
    if state.closed:
        return out | {"closed": True, "over": True, "cards_left": None, "bets": [], "positive": []}
    if state.shoe == 0:
        return out | {"cards_left": None, "bets": [], "positive": []}
    shoe = without(start, state.seen())
    out["cards_left"] = shoe.size - state.face_down
    out["board"] = board([result_of_coup(coup, rules.tableau) for coup in state.coups])
    if state.coups:
        winner, player, banker = result_of(state.coups[-1], rules.tableau)
        out["last"] = {"cards": [card_text(c) for c in state.coups[-1]], "winner": winner, "player_total": player,
                       "banker_total": banker}
        out["run"] = current_run(state, rules.tableau, spec)
    if spec is not None and spec.count:
        out["table_count"] = count_figures(rules, spec.count, state.seen(), shoe.size)
    if state.cut is not None and len(state.coups) > state.cut or out["cards_left"] < 6:
        return out | {"over": True, "bets": [], "positive": []}
    bets = [bet_row(result) for result in analyse(rules, shoe)]  # the rows `now --format json` gives
    positive = sorted(((row["ev"], row["bet"]) for row in bets if is_positive(row["ev"])), reverse=True)
    return out | {"over": False, "bets": bets, "positive": [bet for _, bet in positive]}


def count_figures(rules, system: str, seen, unseen: int) -> dict:
    """The table's count after the cards ``seen`` (face-down burns are not seen): the running
    count, and the true count per deck of the ``unseen`` cards, exact and as shown (one place).

    >>> from analyzer.bets.rulefile import get_rules
    >>> from analyzer.game.cards import parse_card
    >>> count_figures(get_rules("catalog"), "dragon_7_jacobson", [parse_card("8h"), parse_card("9c")], 390)
    {'system': 'dragon_7_jacobson', 'running': 4, 'true': Fraction(8, 15), 'true_shown': '+0.5'}
    """
    from ..bets.counting import running_count, true_count
    from ..base.numbers import decimal

    tags = dict(rules.count_systems)[system]
    running = running_count(tags, seen)
    true = true_count(running, unseen) if unseen else Fraction(0)
    return {"system": system, "running": running, "true": true, "true_shown": ("+" if true >= 0 else "") + decimal(true, 1)}


UNUSUAL = Fraction(1, 100)  # a run whose chance in a shoe is below this is shown as unusual


def current_run(state: State, tableau: Tableau, spec: TableSpec | None) -> dict:
    """The run the shoe's last coups make (the same result, a tie ending a run of wins), and the
    exact chance that a shoe of the table's decks, cut and burn holds a run that long or longer
    (runs.py, independent coups), from four coups on."""
    results = [result_of(coup, tableau)[0] for coup in state.coups]
    length = 1
    while length < len(results) and results[-1 - length] == results[-1]:
        length += 1
    out = {"result": results[-1], "length": length}
    if length >= 4 and spec is not None:
        chance = run_chance(tableau, spec.decks, spec.cut, spec.burn, results[-1], length)
        out |= {"chance_in_a_shoe": chance, "unusual": chance < UNUSUAL}
    return out


@lru_cache(maxsize=512)
def run_chance(tableau: Tableau, decks: int, cut: int, burn: str, result: str, length: int) -> Fraction:
    """P(a shoe dealt to its cut card holds a run of ``length`` or more ``result`` coups)."""
    from ..questions.runs import burn_law, no_run_chance

    shoe = Shoe.decks(decks)
    return 1 - no_run_chance(laws(tableau, decks), burn_law(shoe, burn), shoe.size, cut, result, length, False)


@lru_cache(maxsize=16)
def laws(tableau: Tableau, decks: int):
    from ..questions.runs import coup_law

    return coup_law(Shoe.decks(decks), tableau)



def record(store, name: str, data) -> dict:
    """Check an event sent to table ``name`` (JSON with ``after``, the last event number the
    writer saw) and keep it, with the figures after it, in ``store`` (store.Store): returns
    ``{"event": its number, "figures": ..., "type", "shoe", "body", "at"}`` (the event as kept) and
    the table's ``spec`` and ``created``. Stale (store.py) if ``after`` is not the table's
    last event; a BaccaratError, and nothing kept, if the event is not one the table can take."""
    from ..base.numbers import to_json
    from ..bets.rulefile import get_rules
    from .store import Stale, now_text

    if not isinstance(data, dict) or type(data.get("after")) is not int or data["after"] < 0:
        raise BaccaratError("an event carries 'after': the number of the last event the writer saw (0 before the first)")
    if len(json.dumps(data)) > MAX_EVENT:
        raise BaccaratError(f"an event is at most {MAX_EVENT:,} bytes of JSON")
    event = event_of(data)
    row = store.table(name)
    if data["after"] > row["event"]:
        ahead = str(data["after"]) if data["after"] < 10**15 else f"{str(data['after'])[:15]}..."
        raise Stale(f"table {name!r} is at event {row['event']}: no event {ahead} has been kept there yet (read the "
                    "table again, and send its last event)", row["event"])
    if data["after"] != row["event"]:
        raise Stale(f"table {name!r} is at event {row['event']}, not {data['after']}: another writer came first", row["event"])
    spec = TableSpec(**row["spec"])
    rules, start = get_rules(spec.rules), Shoe.decks(spec.decks)
    shoe = (row["figures"] or {}).get("shoe", 0)
    kept = store.shoe_events(name, shoe, MAX_SHOE_EVENTS + 1)  # shoe 0: a close before the first shoe, if any
    if len(kept) >= MAX_SHOE_EVENTS and event.type != "shoe":
        raise BaccaratError(f"a shoe holds at most {MAX_SHOE_EVENTS:,} events: a new shoe comes next")
    state = fold_shoe(shoe, [event_of(body) for body in kept], start, rules.tableau, spec.burn)
    if event.type == "void" and not state.closed:  # kept with the coup it strikes out, whichever was meant
        event = replace(event, coup=voided(state, event))
    state = apply(state, event, start, rules.tableau, spec.burn)
    after = to_json(figures(state, start, rules, spec))
    at = now_text()
    number = store.append(name, data["after"], event.type, state.shoe, event.data(), after, at)
    return {"event": number, "figures": after, "type": event.type, "shoe": state.shoe, "body": event.data(), "at": at,
            "spec": row["spec"], "created": row["created"]}


def fold_shoe(shoe: int, events, start: Shoe, tableau: Tableau, burn: str = "face") -> State:
    """The state after the events of shoe number ``shoe`` (its own 'shoe' event first; shoe 0:
    none yet, and no events)."""
    state = State(shoe=max(shoe - 1, 0))
    for event in events:
        state = apply(state, event, start, tableau, burn)
    return state


def place(store, name: str, data) -> dict:
    """Check wagers sent to table ``name`` for its coming coup (JSON: ``after``, the table's last
    event the sender saw, and ``wagers``, each with ``player``, ``bet``, ``amount`` and ``seat``)
    and keep them all, each with the exact EV its bet had then (from the figures after that
    event), in one transaction: returns the shoe, the coup, the wagers' ids and their EVs. Stale
    (store.py), nothing kept, if the table has moved on; a BaccaratError naming the wager, nothing
    kept, if one is not a wager the table can take."""
    from .wagers import amount_text, wager_of
    from .store import Stale

    if not isinstance(data, dict) or type(data.get("after")) is not int or data["after"] < 0:
        raise BaccaratError("wagers carry 'after': the number of the table's last event the sender saw")
    if len(json.dumps(data)) > MAX_WAGER_BODY:
        raise BaccaratError(f"wagers are sent at most {MAX_WAGER_BODY:,} bytes of JSON at a time")
    items = data.get("wagers")
    if not isinstance(items, list) or not 1 <= len(items) <= MAX_WAGERS:
        raise BaccaratError(f"'wagers' is a list of 1 to {MAX_WAGERS} wagers, each with player, bet, amount and seat")
    row = store.table(name)
    figures = row["figures"] or {}
    if not figures.get("shoe") or figures.get("over", True) or not figures.get("bets"):
        raise BaccaratError(f"table {name!r} has no coup coming (no shoe in play, or its shoe is over): no wager is taken")
    if data["after"] != row["event"]:
        raise Stale(f"table {name!r} is at event {row['event']}, not {data['after']}: the coup has been dealt, or "
                    "corrected, since", row["event"])
    evs = {b["bet"]: Fraction(b["ev"]) for b in figures["bets"]}
    shoe, coup = figures["shoe"], figures["coups"] + 1
    rows = []
    for i, item in enumerate(items, 1):
        if not isinstance(item, dict) or "coup" in item or "table" in item or "shoe" in item:
            raise BaccaratError(f"wager {i}: a wager is a record with player, bet, amount and seat (the table, shoe and "
                                "coup are the table's coming coup)")
        wager = wager_of(item | {"coup": coup}, f"wager {i}", i, name, str(shoe))
        if wager.bet not in evs:
            raise BaccaratError(f"wager {i}: table {name!r} deals no bet {wager.bet!r}"
                                + (did_you_mean(wager.bet, evs) or f" (bets: {listing(evs)})"))
        rows.append({"seat": wager.seat, "player": wager.player, "bet": wager.bet, "amount": amount_text(wager.amount),
                     "ev": str(evs[wager.bet])})
    ids = store.add_wagers(name, data["after"], shoe, coup, rows)
    return {"shoe": shoe, "coup": coup, "wagers": ids, "ev": {r["bet"]: r["ev"] for r in rows}}



def kept_shoe(events: list[dict], number: int) -> ShoeDealt:
    """A kept shoe's events as a file of coups would give them: the burn, the coups that stand
    (a correction in the place of the coup it corrects, a voided coup struck out, and listed in
    ``voided``), and where the cut card came out. Each coup's ``line`` is the event that dealt
    it as it stands, its ``first`` the event that first dealt it (a wager kept after that event
    was on a later coup)."""
    dealt = ShoeDealt(str(number))
    for e in events:
        event = event_of(e["body"])
        if event.type == "burn":
            dealt.burned, dealt.face_down = list(event.cards), event.face_down
        elif event.type == "cut":
            dealt.cut = len(dealt.coups)
        elif event.type == "void":
            at = event.coup or len(dealt.coups)
            coup = dealt.coups.pop(at - 1)
            dealt.voided.append({"coup": at, "cards": [card_text(c) for c in coup.cards], "dealt": coup.first,
                                 "void": e["event"]})
            if dealt.cut is not None and at <= dealt.cut:
                dealt.cut -= 1
        elif event.type in ("coup", "correction"):
            after_cut, first = dealt.cut is not None, e["event"]
            if event.type == "correction":  # in the place of the coup it corrects
                corrected = dealt.coups.pop()
                after_cut, first = corrected.after_cut, corrected.first
            dealt.coups.append(Coup(event.cards, e["event"], after_cut, first))
    return dealt
