"""The JSON API of `baccarat serve`: a request's fields read and checked, the library called,
the answer as JSON-ready data (exact values as "p/q" strings, and the decimals the command line
prints). No Flask here: app.py carries requests to these functions and their errors back."""

from __future__ import annotations

import json
import logging
import os
import re
import time
from dataclasses import dataclass
from fractions import Fraction

from ..routes import batch, cardcount
from ..routes import compiled as plans
from ..bets.bet import INDEPENDENT, MAIN_BETS, RuleSet
from ..routes.counts import pending_rows
from ..questions.check import check_bet
from ..game.cards import Shoe, check_playable, parse_dealt, shoe_from_mapping
from ..bets.counting import count_system, running_count, true_count
from ..base.recent import Recent
from ..base.errors import BaccaratError, error_line
from ..base.errors import unknown as unknown_name
from ..game.knowledge import NOTHING, Knowledge
from ..render import cell_text, decimal, pay_table, percent, to_json
from ..bets.rulefile import BUILT_IN, get_rules, parse_rules
from ..base.userfiles import parse_json, parse_toml
from ..views.edge import edge, now
from ..views.parsheet import returns
from ..views.rules import rules_list
from ..views.solve import solve


@dataclass(frozen=True)
class Limits:
    """What one request may ask of the server."""

    body: int = 256 * 1024  # bytes of a request: a rule file is a few kilobytes
    decks: int = 24  # decks in a shoe (as `baccarat simulate`): every update stays on the fast path
    dealt: int = 24 * 52  # cards in the dealt list
    rate: float = 20.0  # requests a second of one client, on average
    burst: int = 60  # and at most this many at once
    bets: int = 96  # bets of a rule set (the catalogue has 67) ...
    lines: int = 256  # ... and pay lines in all (the catalogue has 140): the work of one request
    card_decks: int = 8  # the largest shoe on which a card-level bet that does not compile is counted (seconds each)
    compile_rows: int = 4_000_000  # rows of card-level compilation one request may start (a few seconds here)
    suit_products: int = 400  # products of suit sets one request may count shoe by shoe (about 5 ms each: 2 s)


SHOWN = ("ev", "house_edge", "win", "push", "loss")  # the figures of a bet the page shows, as the CLI prints them


def rules_index() -> dict:
    """The built-in rule sets (what `baccarat rules list --format json` gives)."""
    return to_json(rules_list().data)


def tracker(request: dict, limits: Limits) -> dict:
    """Every bet's exact edge on the next coup of the shoe in play (what `baccarat now --format
    json` gives), the decimals the command line shows for them, and a counter's true count."""
    fields(request, {"rules", "rules_toml", "decks", "shoe_toml", "shoe_json", "dealt", "known", "count", "card_level"})
    rules = rule_set(request)
    shoe = start_shoe(request, limits)
    dealt = parse_dealt(re.sub(r"[ \t]+", ",", text(request, "dealt", "")))  # the page's "9 8 K": spaces part cards too
    if len(dealt) > limits.dealt:
        raise BaccaratError(f"dealt: at most {limits.dealt:,} cards")
    knowledge = Knowledge.parse(strings(request, "known"))
    chosen = rules if flag(request, "card_level", True) else value_level(rules)
    check_work(chosen, shoe, limits, knowledge)
    followed = {b.id for b in chosen.bets}
    left_out = [b.id for b in rules.bets if b.id not in followed]
    view = now(compiled(chosen), shoe, dealt, knowledge=knowledge)
    data = to_json(view.data)
    data["shown"] = {b["bet"]: {key: cell_text(b[key], "percent") for key in SHOWN} for b in view.data["bets"]}  # ~350 cells
    data |= {"count": counter(request, rules, dealt, data["shoe"]["cards"]), "left_out": left_out,
             "count_systems": [name for name, _ in rules.count_systems]}
    return data


def counter(request: dict, rules: RuleSet, dealt: list, cards_left: int) -> dict | None:
    """A counter's running and true count (per deck left) after the dealt cards, or None."""
    asked = text(request, "count", "").strip()
    if not asked:
        return None
    tags, name = count_system(rules, asked)
    running = running_count(tags, dealt)
    true = true_count(running, cards_left)
    return {"name": name, "tags": tags, "running": running, "true": to_json(true), "true_shown": f"{float(true):+.2f}"}


def designer(request: dict, limits: Limits) -> dict:
    """A bet of a rule file as its designer sees it: the return table, the house edge, the
    payout of each line that breaks even, and the catalogue's bets beside it."""
    fields(request, {"rules_toml", "bet", "decks"})
    rules = uploaded_rules(text(request, "rules_toml"))
    bet = rules.first_own if request.get("bet") is None else rules.bet(text(request, "bet"))  # a pasted file: its own bet
    shoe = Shoe.decks(decks(request, limits))
    check_work(rules.only([bet.id]), shoe, limits)
    table = returns(rules.only([bet.id]), shoe).data["bets"][0]
    rows = [returns_row(row) for row in table["lines"] + [table["total"]]]
    house_edge = -table["total"]["return"]
    return {"rules": rules.name, "bets": [b.id for b in rules.bets], "own": list(rules.own),
            "bet": {"id": bet.id, "name": bet.name, "pays": pay_table(bet)},
            "warnings": [finding.line() for finding in check_bet(bet, rules)],
            **({"model": INDEPENDENT} if bet.series is not None else {}),
            "returns": rows, "house_edge": to_json(house_edge), "house_edge_shown": cell_text(house_edge, "percent"),
            "break_even": [break_even(rules, shoe, bet.id, i, ln.label) if bet.multipliers is None else
                           {"line": ln.label, "error": "a bet with multipliers breaks even by its multipliers' chances or "
                                                       "its fee, not a payout (baccarat solve --vary)"}
                           for i, ln in enumerate(bet.lines, 1)],
            "catalogue": catalogue(shoe)}


def returns_row(row: dict) -> dict:
    """A row of a return table, exact and as the command line shows it."""
    shown = {"pays_text": "" if row.get("pays") is None else cell_text(row["pays"], "units"),
             "probability_shown": cell_text(row["probability"], "percent"), "return_shown": cell_text(row["return"], "number")}
    return to_json(row) | shown


def break_even(rules: RuleSet, shoe: Shoe, bet_id: str, line: int, label: str) -> dict:
    """The payout of pay line ``line`` (from 1) at which the bet breaks even, or why there is none."""
    try:
        value = solve(rules, shoe, bet_id, str(line), Fraction(0), None).data["value"]
    except BaccaratError as error:
        return {"line": label, "error": str(error)}
    return {"line": label, "pays": to_json(value), "pays_text": f"{decimal(value, 4)}:1"}


CATALOGUE_CACHE: dict = {}


def catalogue(shoe: Shoe) -> list[dict]:
    """The catalogue's bets on ``shoe`` by house edge, lowest first (kept per shoe: it is the
    same for every design on that shoe)."""
    if shoe not in CATALOGUE_CACHE:
        bets = [{"bet": b["bet"], "name": b["name"], "house_edge": b["house_edge"]}
                for b in edge(get_rules("catalog"), shoe).data["bets"] if b["bet"] not in MAIN_BETS]
        bets.sort(key=lambda b: b["house_edge"])
        CATALOGUE_CACHE[shoe] = [to_json(b) | {"house_edge_shown": percent(b["house_edge"])} for b in bets]
    return CATALOGUE_CACHE[shoe]


# What a request holds ---------------------------------------------------------------------

def fields(request: dict, allowed: set):
    """The request is a JSON object with only ``allowed`` fields."""
    if not isinstance(request, dict):
        raise BaccaratError("the request must be a JSON object")
    unknown = sorted(set(request) - allowed)
    if unknown:
        raise BaccaratError(unknown_name("field", unknown[0], sorted(allowed)))


def text(request: dict, key: str, default: str | None = None) -> str:
    value = request.get(key, default)
    if not isinstance(value, str):
        raise BaccaratError(f"{key}: must be text" if key in request else f"{key}: missing")
    return value


def flag(request: dict, key: str, default: bool = False) -> bool:
    value = request.get(key, default)
    if not isinstance(value, bool):
        raise BaccaratError(f"{key}: must be true or false")
    return value


def strings(request: dict, key: str) -> list[str]:
    value = request.get(key, [])
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        raise BaccaratError(f"{key}: must be a list of texts")
    return [x for x in value if x.strip()]


def decks(request: dict, limits: Limits) -> int:
    value = request.get("decks", 8)
    if type(value) is not int or not 1 <= value <= limits.decks:
        raise BaccaratError(f"decks: a whole number from 1 to {limits.decks} (got {value!r})")
    return value


def rule_set(request: dict) -> RuleSet:
    """The built-in rule set named, or the rule file sent (never a path on the server)."""
    if "rules_toml" in request:
        if "rules" in request:
            raise BaccaratError("give rules or rules_toml, not both")
        return uploaded_rules(text(request, "rules_toml"))
    name = text(request, "rules", "standard")
    if name not in BUILT_IN:
        raise BaccaratError(unknown_name("rule set", name, BUILT_IN) + " - a built-in rule set, or send a rule file")
    return get_rules(name)


def start_shoe(request: dict, limits: Limits) -> Shoe:
    """The shoe the coup is dealt from before the dealt cards: full decks, or a shoe file sent."""
    files = [key for key in ("shoe_toml", "shoe_json") if key in request]
    if len(files) + ("decks" in request) > 1:
        raise BaccaratError("give one of decks, shoe_toml or shoe_json")
    if not files:
        return Shoe.decks(decks(request, limits))
    context = "shoe file"
    source = text(request, files[0])
    shoe = shoe_from_mapping(parse_json(source, context) if files[0] == "shoe_json" else parse_toml(source, context),
                             context)
    if shoe.size > 52 * limits.decks:
        raise BaccaratError(f"{context}: at most {52 * limits.decks:,} cards ({limits.decks} decks)")
    return check_playable(shoe)


def check_work(rules: RuleSet, shoe: Shoe, limits: Limits, knowledge: Knowledge = NOTHING):
    """The work a request asks is bounded before it starts: so many bets and pay lines, card-level
    bets that do not compile to polynomials (counted shoe by shoe by the enumeration) only on
    shoes small enough to count them in a fraction of a second, those counted by the suits and
    colours of whole hands within limits.suit_products products of suit sets, and the card-level
    compilations it would start (pending_work) within limits.compile_rows rows."""
    if len(rules.bets) > limits.bets or sum(len(b.lines) for b in rules.bets) > limits.lines:
        raise BaccaratError(f"rule set {rules.name!r}: at most {limits.bets} bets and {limits.lines} pay lines in all here")
    walked = [b.id for b in rules.bets if b.card_level and not cardcount.fits(b.needs, rules.tableau)]
    if walked and shoe.size > 52 * limits.card_decks:
        raise BaccaratError(f"bet {walked[0]!r} reads too much card detail to compile and is counted here on shoes "
                            f"of at most {limits.card_decks} decks ({52 * limits.card_decks} cards); this one has {shoe.size}")
    slow = batch.suits_shoe_by_shoe(rules) if not knowledge else []
    products = sum(p for _, p in slow)
    if products > limits.suit_products:
        raise BaccaratError(f"rule set {rules.name!r}: its bets of suits too detailed to compile ("
                            f"{', '.join(f'{name!r}' for name, _ in slow)}) count {products:,} products of "
                            f"suit sets a shoe, at most {limits.suit_products:,} a request here: send fewer of them")
    rows = sum(rows for _, rows in pending_work(rules, knowledge))
    if rows > limits.compile_rows:
        raise BaccaratError(f"rule set {rules.name!r}: its card-level bets{' with these known cards' if knowledge else ''} "
                            f"need {rows:,} rows of compilation, at most {limits.compile_rows:,} a request here: send "
                            "fewer card-level bets, leave them out (card_level false) or know fewer cards")


def pending_work(rules: RuleSet, knowledge: Knowledge) -> list[tuple]:
    """(the bets' conditions, rows) of each card-level compilation a tracker request for ``rules``
    and ``knowledge`` would start now (counts.pending_rows, counted before any walk): the
    polynomials for many shoes (compiled(): numeric payouts, the rule set not compiled yet), and
    those analysis.analyse compiles for the known cards (or, with a payout symbol, for none)."""
    numeric = bool(rules.bets) and all(b.numeric for b in rules.bets)
    pending = []
    if numeric and plans.compiled_plan(rules) is None:
        pending += pending_rows(rules.bets, rules.tableau, many=True)
    if knowledge or not numeric:
        pending += pending_rows(rules.bets, rules.tableau, knowledge)
    return pending


UPLOADED = Recent(32, size=lambda rules: 1)  # the last rule files sent, parsed: the next update costs nothing


def uploaded_rules(source: str) -> RuleSet:
    """A rule file's text, parsed (``extends`` may name built-in rule sets only: no file on the
    server is read)."""
    return UPLOADED.kept(source, lambda: parse_rules(source, "rule file"))


VALUE_LEVEL = Recent(32, size=lambda pair: 1)  # id(rules) -> (rules, its bets but the card-level ones)


def value_level(rules: RuleSet) -> RuleSet:
    """The bets a tracker follows when asked to leave the card-level ones out (``card_level``:
    false), or all where nothing else is left. The same object for the same rule set each time,
    so that its compiled polynomials are found."""
    known, part = VALUE_LEVEL.kept(id(rules), lambda: (rules, rules.value_level()))
    part = part if known is rules else rules.value_level()  # the cache keeps it alive: its id is its own
    return part if part.bets else rules


def compiled(rules: RuleSet) -> RuleSet:
    """The rule set compiled to polynomials (batch.compile_rules; its card-level bets by
    cardcount on first use), once: every later update of a shoe costs a few matrix products,
    not an enumeration."""
    if rules.bets and all(b.numeric for b in rules.bets) and plans.compiled_plan(rules) is None:
        batch.compile_rules(rules)
    return rules


TOML_LINE = re.compile(r"\(at line (\d+), column \d+\)")


def toml_line(message: str) -> int | None:
    """The line of a rule file that a TOML syntax error names, if it names one.

    >>> toml_line("rule file: Expected '=' after a key in a key/value pair (at line 3, column 5)")
    3
    """
    found = TOML_LINE.search(message)
    return int(found.group(1)) if found else None


def answer(path: str, data: bytes, limits: Limits) -> tuple[int, bytes]:
    """The answer to a POST of ``data`` to ``path`` (a key of COMPUTED): its HTTP status and its
    JSON text, with the server's time in milliseconds beside the figures. A request's own fault
    is a 400 with one line (and ``line``, for a rule file's TOML syntax error); running out of the
    memory a worker may hold is a 503; a defect of ours is a 500 with one line (logged too), never
    a traceback. This is all the work a worker process of the server does."""
    start = time.perf_counter()
    try:
        value = COMPUTED[path](request_object(data), limits)
    except BaccaratError as error:
        message = error_line(str(error))
        return 400, dumps({"error": message, "line": toml_line(message)})
    except MemoryError:
        return 503, dumps({"error": "the request needs more memory than a worker of this server may hold: ask less of it "
                                    "(fewer bets, a smaller shoe, fewer known cards)"})
    except Exception as error:  # one line on the server's terminal too; BACCARAT_DEBUG=1 logs the traceback
        logging.getLogger("analyzer.web").error("internal error, please report it: %s: %s", type(error).__name__, error,
                                                exc_info=bool(os.environ.get("BACCARAT_DEBUG")))
        return 500, dumps({"error": f"internal error, please report it: {type(error).__name__}"})
    return 200, dumps(value | {"server_ms": round((time.perf_counter() - start) * 1000, 2)})


def request_object(data: bytes) -> dict:
    """A request's body, read as a shoe file's JSON is (nesting, duplicate keys and long numbers
    refused: userfiles.parse_json); a BaccaratError when it is not a JSON object."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise BaccaratError("the request must be JSON text in UTF-8") from None
    value = parse_json(text, "request")
    if not isinstance(value, dict):
        raise BaccaratError("the request must be a JSON object")
    return value


def dumps(value) -> bytes:
    """JSON text as Flask's jsonify writes it (compact, ASCII, keys in their order, a newline)."""
    return (json.dumps(value, separators=(",", ":")) + "\n").encode()


COMPUTED = {"/api/now": tracker, "/api/design": designer}  # the requests that compute: a worker process answers them
