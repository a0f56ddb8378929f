"""The JSON API described once, as OpenAPI 3.1: served at ``/api/openapi.json``, checked by the
tests against what the server answers (and fuzzed from it), rendered by the docs.

Exact values are strings: a fraction ``"p/q"`` (``"n"`` for an integer) or, where a payout is a
symbol, the expression in it. A figure as the command line shows it is the ``*_shown`` string
beside it.
"""

from __future__ import annotations

from .. import __version__
from ..game.cards import RANKS

EXACT = {"type": "string", "description": "an exact value: \"p/q\", an integer \"n\", or an expression in a payout "
                                          "symbol", "minLength": 1}
NULLABLE_EXACT = {"anyOf": [EXACT, {"type": "null"}]}
TEXT = {"type": "string"}


def obj(properties: dict, required=None, extra: bool = False) -> dict:
    """An object schema: these properties, all required unless ``required`` says which."""
    return {"type": "object", "properties": properties, "required": list(properties) if required is None else required,
            "additionalProperties": extra}


SHOE = obj({"cards": {"type": "integer", "minimum": 0},
            "ranks": obj({r: {"type": "integer", "minimum": 0} for r in RANKS}),
            "description": TEXT})
LINE = obj({"label": TEXT, "pays": EXACT, "probability": EXACT, "written": TEXT}, required=["label", "pays", "probability"])
BET = obj({"bet": TEXT, "name": TEXT, "pays": TEXT, "pays_brief": TEXT, "source": TEXT,
           "lines": {"type": "array", "items": LINE},
           **{key: EXACT for key in ("win", "push", "loss", "ev", "house_edge")},
           "house_edge_resolved": NULLABLE_EXACT, "variance": EXACT, "hits_one_in": NULLABLE_EXACT,
           "model": {"type": "string", "description": "for a bet across coups: the model its figures are exact under"},
           "fee": {**EXACT, "description": "a share of the stake paid on every coup, whatever the result"},
           "rtp": {**EXACT, "description": "return to player, per unit of stake and fee"},
           "multipliers": {"type": "string", "description": "the bet's multipliers in words"},
           "largest_payout": EXACT, "largest_chance": EXACT,
           "multiplied_share": {**EXACT, "description": "the share of the winnings paid on multiplied wins"},
           "patterns": {"type": "array", "description": "each multiplied line by how many of its counted cards are the same card",
                        "items": obj({"label": TEXT, "pattern": {"type": "array", "items": {"type": "integer"}},
                                      "words": TEXT, "probability": EXACT, "mean": EXACT, "return": EXACT})}},
          required=["bet", "name", "pays", "pays_brief", "source", "lines", "win", "push", "loss", "ev", "house_edge",
                    "house_edge_resolved", "variance", "hits_one_in"])
SHOWN = obj({key: TEXT for key in ("ev", "house_edge", "win", "push", "loss")})
COUNT = obj({"name": TEXT, "tags": {"type": "array", "items": {"type": "integer"}, "minItems": 10, "maxItems": 10},
             "running": {"type": "integer"}, "true": EXACT, "true_shown": TEXT})
NOW_RESPONSE = obj({
    "rules": TEXT, "description": TEXT, "tableau": TEXT, "shoe": SHOE,
    "known": {"type": "object", "additionalProperties": TEXT, "description": "what is known of each position"},
    "total": {"type": "integer", "minimum": 0}, "bets": {"type": "array", "items": BET},
    "dealt": {"type": "integer", "minimum": 0}, "positive": {"type": "array", "items": TEXT},
    "shown": {"type": "object", "additionalProperties": SHOWN},
    "count": {"anyOf": [COUNT, {"type": "null"}]}, "left_out": {"type": "array", "items": TEXT},
    "count_systems": {"type": "array", "items": TEXT}, "server_ms": {"type": "number", "minimum": 0}},
    required=["rules", "description", "tableau", "shoe", "total", "bets", "dealt", "positive", "shown", "count",
              "left_out", "count_systems", "server_ms"])
NOW_REQUEST = obj({
    "rules": {"type": "string", "description": "a built-in rule set (GET /api/rules); default standard"},
    "rules_toml": {"type": "string", "description": "a rule file's text, instead of rules"},
    "decks": {"type": "integer", "minimum": 1, "maximum": 24, "description": "full decks (default 8)"},
    "shoe_toml": {"type": "string", "description": "a shoe file's text (TOML), instead of decks"},
    "shoe_json": {"type": "string", "description": "a shoe file's text (JSON), instead of decks"},
    "dealt": {"type": "string", "description": "the cards dealt so far, e.g. \"9 8 K Ah\""},
    "known": {"type": "array", "items": TEXT, "description": "POS=CARDS items, as --known writes them"},
    "count": {"type": "string", "description": "a count system: its name in the rule set, or 10 tags"},
    "card_level": {"type": "boolean", "description": "follow the card-level bets too (default true)"}}, required=[])
RETURN_ROW = obj({"event": TEXT, "pays": NULLABLE_EXACT, "combinations": {"type": ["integer", "null"]},
                  "probability": EXACT, "return": EXACT, "pays_text": TEXT, "probability_shown": TEXT,
                  "return_shown": TEXT}, required=["event", "probability", "return", "pays_text", "probability_shown",
                                                   "return_shown"])
BREAK_EVEN = {"anyOf": [obj({"line": TEXT, "pays": EXACT, "pays_text": TEXT}), obj({"line": TEXT, "error": TEXT})]}
DESIGN_RESPONSE = obj({
    "rules": TEXT, "bets": {"type": "array", "items": TEXT}, "bet": obj({"id": TEXT, "name": TEXT, "pays": TEXT}),
    "own": {"type": "array", "items": TEXT, "description": "the bets the file itself defines (not those it extends)"},
    "warnings": {"type": "array", "items": TEXT}, "model": TEXT,
    "returns": {"type": "array", "items": RETURN_ROW}, "house_edge": EXACT, "house_edge_shown": TEXT,
    "break_even": {"type": "array", "items": BREAK_EVEN},
    "catalogue": {"type": "array", "items": obj({"bet": TEXT, "name": TEXT, "house_edge": EXACT,
                                                 "house_edge_shown": TEXT})},
    "server_ms": {"type": "number", "minimum": 0}},
    required=["rules", "bets", "bet", "warnings", "returns", "house_edge", "house_edge_shown", "break_even",
              "catalogue", "server_ms"])
DESIGN_REQUEST = obj({"rules_toml": {"type": "string", "description": "the rule file's text"},
                      "bet": {"type": "string", "description": "the bet's id (default: the file's first bet)"},
                      "decks": {"type": "integer", "minimum": 1, "maximum": 24}}, required=["rules_toml"])
RULES_RESPONSE = obj({"rules": {"type": "array", "items": obj({"name": TEXT, "bets": {"type": "integer", "minimum": 1},
                                                               "tableau": TEXT, "description": TEXT})}})
ERROR = obj({"error": {"type": "string", "minLength": 1, "description": "one line"},
             "line": {"type": ["integer", "null"], "description": "the rule file's line the error is on, if known"}},
            required=["error"])


def error(description: str) -> dict:
    return {"description": description, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}


def answer(schema: str, description: str) -> dict:
    return {"description": description, "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{schema}"}}}}


def posted(schema: str) -> dict:
    return {"required": True, "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{schema}"}}}}


REFUSALS = {"400": error("bad input: one line saying what and where"),
            "401": error("the server has an access token (`baccarat serve --token`) and the request lacks it"),
            "403": error("a write from another site (its Origin or Referer is not this server's): refused whatever "
                         "the token"),
            "413": error("the request is larger than the server takes"),
            "415": error("a write's body is not JSON (Content-Type: application/json)"),
            "429": error("too many requests from this client: wait a moment (Retry-After)"),
            "503": error("the computation passed the server's time limit (`baccarat serve --time-limit`) or a worker's "
                         "memory limit (`--memory`), and was stopped; or the server is stopping (Retry-After)")}


TABLE_SPEC = {"name": {"type": "string", "pattern": "^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$"},
              "rules": {"type": "string", "description": "a built-in rule set (default catalog)"},
              "decks": {"type": "integer", "minimum": 1, "maximum": 24, "description": "default 8"},
              "cut": {"type": "integer", "minimum": 0, "description": "cards behind the cut card (default 14)"},
              "burn": {"type": "string", "description": "face, none, or a number of cards (default face)"},
              "count": {"type": ["string", "null"], "description": "a count system of the rule set to show"}}
TABLE_REQUEST = obj(TABLE_SPEC, required=["name"])
LAST_COUP = obj({"cards": {"type": "array", "items": TEXT}, "winner": {"enum": ["player", "banker", "tie"]},
                 "player_total": {"type": "integer"}, "banker_total": {"type": "integer"}})
TABLE = obj({**TABLE_SPEC, "event": {"type": "integer", "minimum": 0, "description": "the last event's number"},
             "at": {"type": ["string", "null"], "description": "when the last event was kept (UTC)"},
             "shoe": {"type": "integer", "minimum": 0}, "cards_left": {"type": ["integer", "null"]},
             "coups": {"type": "integer", "minimum": 0}, "cut_out": {"type": "boolean", "description": "the cut card came out"},
             "over": {"type": "boolean", "description": "the shoe's last coup is dealt"},
             "last": {"anyOf": [LAST_COUP, {"type": "null"}]},
             "positive": {"type": "array", "items": TEXT, "description": "the bets with positive expectation, best first"},
             "bets": {"type": "array", "items": BET, "description": "the next coup's figures, as `now --format json`"},
             "closed": {"type": "boolean", "description": "the table is closed (until a new shoe)"},
             "board": {"type": ["object", "null"], "description": "the shoe's scoreboard as a screen draws it: tallies, "
                                                                    "bead plate, big road and derived roads where each cell is "
                                                                    "drawn, and the ask (`baccarat roads` explains each)"},
             "table_count": {"anyOf": [obj({"system": TEXT, "running": {"type": "integer"}, "true": TEXT, "true_shown": TEXT}),
                                       {"type": "null"}], "description": "the table's count system after the last event: "
                                                                         "running, and true (per deck unseen, exact)"}})
EVENT_EXAMPLE = {"type": "coup", "cards": ["2h", "Kd", "3c", "Ts", "9s", "7d"], "after": 41}  # a legal coup: tests post it
EVENT_REQUEST = obj({"type": {"enum": ["shoe", "burn", "coup", "correction", "void", "cut", "close"]},
                     "cards": {"type": "array", "items": TEXT, "maxItems": 6,
                               "description": "cards in dealing order (Player, Banker, Player, Banker, then the third cards)"},
                     "face_down": {"type": "integer", "minimum": 0, "maximum": 20, "description": "a burn's cards face down"},
                     "coup": {"type": "integer", "minimum": 1, "description": "a void's coup, by its number in the shoe "
                                                                             "(default: the last)"},
                     "after": {"type": "integer", "minimum": 0, "description": "the last event number the writer saw"}},
                    required=["type", "after"]) | {"examples": [EVENT_EXAMPLE, {"type": "void", "after": 42}]}
KEPT_EVENT = obj({"event": {"type": "integer"}, "type": TEXT, "shoe": {"type": "integer"},
                  "body": {"type": "object"}, "figures": {"type": "object"}, "at": TEXT})
NOT_FOUND = error("no such table (or this server keeps none)")
WAGER = obj({"player": TEXT, "bet": {"type": "string", "description": "a bet id of the table's rules"},
             "amount": {"type": ["string", "number"], "description": "positive, at most 4 decimal places"},
             "seat": {"type": ["string", "integer"]}}, required=["player", "bet", "amount"])
WAGERS_REQUEST = obj({"after": {"type": "integer", "minimum": 0, "description": "the table's last event the sender saw"},
                      "wagers": {"type": "array", "items": WAGER, "minItems": 1, "maxItems": 200}},
                     required=["after", "wagers"])
SHOE_ROW = obj({"shoe": {"type": "integer"}, "first": {"type": "integer"}, "last": {"type": "integer"},
                "coups": {"type": "integer", "description": "the coups that stand (a void strikes one out)"},
                "voids": {"type": "integer"}, "corrections": {"type": "integer"}, "cuts": {"type": "integer"},
                "since": TEXT, "until": TEXT, "cards_left": {"type": ["integer", "null"]}})

TABLE_RESULTS = obj({
    "table": TEXT, "rules": TEXT, "wagers": {"type": "integer"}, "coups": {"type": "integer"},
    "handle": EXACT, "win": {**EXACT, "description": "the house's win (exact)"},
    "theoretical": {**EXACT, "description": "the sum of amount x house edge at each wager's moment (exact)"},
    "hold": NULLABLE_EXACT, "theoretical_hold": NULLABLE_EXACT, "difference": EXACT,
    "variance": {**EXACT, "description": "of the house's win given the wagers, each coup's bets taken together (exact)"},
    "sd": {"type": "string", "description": "the variance's square root, to the cent"},
    "z": {"type": ["string", "null"], "description": "(win - theoretical) / sd, to two decimals"},
    "bounded": {"type": "integer", "description": "coups whose variance is an upper bound"},
    "outside": {"type": "integer", "description": "wagers on bets across coups: in the win, not the variance"},
    "pending": {"type": "integer", "description": "wagers on the coming coup, set aside"},
    "unsettled": {"type": "integer", "description": "wagers on bets across coups whose shoe is in play, set aside"},
    "closed": {"type": "integer", "description": "wagers on bets across coups where their rules close them, set aside"},
    "multiplied": {"type": "integer", "description": "wagers on bets with multipliers, set aside (the multipliers drawn are not kept)"},
    "bets": {"type": "array", "items": obj({"bet": TEXT, "wagers": {"type": "integer"}, "handle": EXACT, "win": EXACT,
                                            "theoretical": EXACT})},
    "shown": obj({key: {"type": ["string", "null"]} for key in ("handle", "win", "theoretical", "difference", "hold",
                                                                  "theoretical_hold")})})
RESULTS = obj({"since": {"type": ["string", "null"]}, "until": {"type": ["string", "null"]},
               "tables": {"type": "array", "items": TABLE_RESULTS}, "total": TABLE_RESULTS}, required=["tables"])


def table_paths() -> dict:
    """The pit's tables (web/pit.py): their paths in the description."""
    name = {"name": "name", "in": "path", "required": True, "schema": {"type": "string"}}
    period = [{"name": "since", "in": "query", "schema": TEXT,
               "description": "the wagers kept at this time or later (ISO: UTC, or with its offset)"},
              {"name": "until", "in": "query", "schema": TEXT, "description": "the wagers kept before this time"}]
    write = {k: REFUSALS[k] for k in ("400", "401", "413", "415", "429")} | {"403": error(
        "the request has the watch token (writing needs the write token), or comes from another site")}
    return {
        "/api/tables": {
            "get": {"summary": "Every table of the pit, with its figures", "operationId": "tables",
                    "responses": {"200": answer("Tables", "the tables"), "401": REFUSALS["401"], "404": NOT_FOUND}},
            "post": {"summary": "A new table", "operationId": "createTable", "requestBody": posted("TableRequest"),
                     "responses": {"201": answer("Table", "the table, before its first event"), "404": NOT_FOUND, **write}}},
        "/api/tables/{name}": {"get": {"summary": "A table: its last event and the figures after it",
                                       "operationId": "table", "parameters": [name],
                                       "responses": {"200": answer("Table", "the table"), "401": REFUSALS["401"],
                                                     "404": NOT_FOUND}}},
        "/api/tables/{name}/events": {
            "post": {"summary": "An event at a table: a shoe, burn, coup, correction or cut card", "operationId": "event",
                     "parameters": [name], "requestBody": posted("EventRequest"),
                     "responses": {"200": answer("EventAnswer", "kept: its number and the table after it"),
                                   "404": NOT_FOUND, "409": answer("Stale", "another writer came first: nothing kept"),
                                   **write}},
            "get": {"summary": "A table's events after a number; with Accept: text/event-stream, a stream of them as "
                               "they are kept (server-sent events, each with its number as id)",
                    "operationId": "events",
                    "parameters": [name, {"name": "after", "in": "query", "schema": {"type": "integer", "minimum": 0}},
                                   {"name": "stream", "in": "query", "schema": {"enum": ["0", "1"]}},
                                   {"name": "figures", "in": "query", "schema": {"enum": ["brief", "full"]},
                                    "description": "a stream's figures: in brief (default), or every bet's too"}],
                    "responses": {"200": {"description": "the events (JSON), or their stream",
                                          "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Events"}},
                                                      "text/event-stream": {"schema": {"type": "string"}}}},
                                  "400": REFUSALS["400"], "401": REFUSALS["401"], "404": NOT_FOUND,
                                  "503": error("every place for a screen is taken (`baccarat serve --screens`)")}}},
        "/api/tables/{name}/wagers": {
            "post": {"summary": "Wagers on a table's coming coup, each kept with its exact EV then (a table system's feed)",
                     "operationId": "wagers", "parameters": [name], "requestBody": posted("WagersRequest"),
                     "responses": {"201": answer("WagersAnswer", "kept, all of them: the shoe, the coup, their ids and "
                                                                 "their bets' EVs"),
                                   "404": NOT_FOUND, "409": answer("Stale", "the table has moved on since `after`: "
                                                                            "nothing kept"), **write}}},
    } | reading_paths(name, period)


def reading_paths(name: dict, period: list) -> dict:
    """The pit's paths that read what is kept: the review, the results, a table's shoes and a
    shoe replayed."""
    return {
        "/api/protect": {
            "get": {"summary": "Who played with an advantage: the review of the wagers kept (`baccarat protect --db`)",
                    "operationId": "protect",
                    "parameters": [{"name": "table", "in": "query", "schema": {"type": "array", "items": TEXT},
                                    "style": "form", "explode": True, "description": "tables to review (default: all)"},
                                   {"name": "level", "in": "query", "schema": TEXT,
                                    "description": "flag a player whose chance is at most this (default 1%)"},
                                   {"name": "samples", "in": "query",
                                    "schema": {"type": "integer", "minimum": 100, "maximum": 20000}},
                                   {"name": "since", "in": "query", "schema": TEXT,
                                    "description": "the wagers kept at this time or later (ISO, UTC)"},
                                   {"name": "until", "in": "query", "schema": TEXT,
                                    "description": "the wagers kept before this time"}],
                    "responses": {"200": {"description": "what `baccarat protect --db --format json` gives",
                                          "content": {"application/json": {"schema": {"type": "object"}}}},
                                  "400": REFUSALS["400"], "401": REFUSALS["401"], "404": NOT_FOUND}}},
        "/api/results": {
            "get": {"summary": "What each table took over a period, from the wagers kept (`baccarat results --db`)",
                    "operationId": "results",
                    "parameters": [{"name": "table", "in": "query", "schema": {"type": "array", "items": TEXT},
                                    "style": "form", "explode": True, "description": "tables (default: every table)"},
                                   *period],
                    "responses": {"200": answer("Results", "each table's results, then the tables' total"),
                                  "400": REFUSALS["400"], "401": REFUSALS["401"], "404": NOT_FOUND}}},
        "/api/tables/{name}/results": {
            "get": {"summary": "What a table took over a period, from the wagers kept", "operationId": "tableResults",
                    "parameters": [name, *period],
                    "responses": {"200": answer("Results", "the table's results"), "400": REFUSALS["400"],
                                  "401": REFUSALS["401"], "404": NOT_FOUND}}},
        "/api/tables/{name}/shoes": {"get": {"summary": "A table's shoes", "operationId": "shoes", "parameters": [name],
                                             "responses": {"200": answer("Shoes", "each shoe's events, coups, corrections, "
                                                                                 "cut card and times"),
                                                           "401": REFUSALS["401"], "404": NOT_FOUND}}},
        "/api/tables/{name}/shoes/{shoe}/replay": {
            "get": {"summary": "A kept shoe replayed: every bet's figures before every coup", "operationId": "replay",
                    "parameters": [name, {"name": "shoe", "in": "path", "required": True,
                                          "schema": {"type": "integer", "minimum": 0}}],
                    "responses": {"200": {"description": "what `baccarat replay --table` gives as JSON",
                                          "content": {"application/json": {"schema": {"type": "object"}}}},
                                  "400": REFUSALS["400"], "401": REFUSALS["401"], "404": NOT_FOUND}}},
    }


def description() -> dict:
    """The OpenAPI 3.1 description of the JSON API."""
    return {
        "openapi": "3.1.0",
        "info": {"title": "baccarat live page API", "version": __version__,
                 "description": "Exact odds of the coming coup of a shoe in play, and a bet's design. Exact values are "
                                "strings \"p/q\"; the *_shown strings are the decimals the command line prints."},
        "paths": {
            "/api/rules": {"get": {"summary": "The built-in rule sets", "operationId": "rules",
                                   "responses": {"200": answer("Rules", "the built-in rule sets"),
                                                 "401": REFUSALS["401"]}}},
            "/api/now": {"post": {"summary": "Every bet's exact edge on the next coup of a shoe in play",
                                  "operationId": "now", "requestBody": posted("NowRequest"),
                                  "responses": {"200": answer("Now", "what `baccarat now --format json` gives, and the "
                                                                     "decimals shown"), **REFUSALS}}},
            "/api/design": {"post": {"summary": "A bet of a rule file as its designer sees it", "operationId": "design",
                                     "requestBody": posted("DesignRequest"),
                                     "responses": {"200": answer("Design", "the return table, house edge, break-even "
                                                                           "payouts and the catalogue beside it"),
                                                   **REFUSALS}}},
            **table_paths(),
        },
        "security": [{}, {"token": []}],  # none on this machine alone; the token where the server was given one
        "components": {"securitySchemes": {"token": {"type": "http", "scheme": "bearer",
                                                     "description": "the token `baccarat serve` printed"}},
                       "schemas": {"Rules": RULES_RESPONSE, "NowRequest": NOW_REQUEST, "Now": NOW_RESPONSE,
                                   "DesignRequest": DESIGN_REQUEST, "Design": DESIGN_RESPONSE, "Error": ERROR,
                                   "TableRequest": TABLE_REQUEST, "Table": TABLE,
                                   "Tables": obj({"tables": {"type": "array", "items": {"$ref": "#/components/schemas/Table"}}}),
                                   "EventRequest": EVENT_REQUEST,
                                   "EventAnswer": obj({"event": {"type": "integer"}, "table": {"$ref": "#/components/schemas/Table"}}),
                                   "Stale": obj({"error": TEXT, "event": {"type": "integer"},
                                                 "table": {"$ref": "#/components/schemas/Table"}}),
                                   "Events": obj({"table": TEXT, "events": {"type": "array", "items": KEPT_EVENT}}),
                                   "Shoes": obj({"table": TEXT, "shoes": {"type": "array", "items": SHOE_ROW}}),
                                   "WagersRequest": WAGERS_REQUEST, "Results": RESULTS,
                                   "WagersAnswer": obj({"shoe": {"type": "integer"}, "coup": {"type": "integer"},
                                                        "wagers": {"type": "array", "items": {"type": "integer"}},
                                                        "ev": {"type": "object", "additionalProperties": TEXT}})}},
    }


def markdown() -> str:
    """The description as Markdown, for the docs (docs/hooks.py puts it into the API page): each
    operation, its request's fields and its answers, each schema's fields with their types.

    >>> text = markdown()
    >>> "## POST /api/now" in text and "| `dealt` | string |  | the cards dealt so far" in text
    True
    """
    spec = description()
    schemas = spec["components"]["schemas"]
    out = [f"OpenAPI {spec['openapi']}, version {spec['info']['version']}. {spec['info']['description']}", ""]
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            out += [f"## {method.upper()} {path}", "", operation["summary"] + ".", ""]
            if "requestBody" in operation:
                name = operation["requestBody"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
                out += [f"Request: a JSON object ([{name}](#{name.lower()})).", ""]
            out += ["| status | answer |", "|---|---|"]
            for status, answer in operation["responses"].items():
                refs = [schema["$ref"].rsplit("/", 1)[1] for schema in
                        (content["schema"] for content in answer["content"].values()) if "$ref" in schema]
                shown = ", ".join(f"[{ref}](#{ref.lower()})" for ref in refs)
                kinds = " or ".join(f"`{kind}`" for kind in answer["content"] if kind != "application/json")
                out.append(f"| {status} | {cell(answer['description'])}" + (f" ({shown})" if shown else "")
                           + (f" ({kinds})" if kinds else "") + " |")
            out.append("")
    out += ["## Schemas", ""]
    for name, schema in schemas.items():
        out += [f"### {name}", "", "| field | type | required | description |", "|---|---|---|---|"]
        required = set(schema.get("required", []))
        for field, value in schema.get("properties", {}).items():
            out.append(f"| `{field}` | {type_of(value)} | {'yes' if field in required else ''} | "
                       f"{cell(value.get('description', ''))} |")
        out.append("")
    return "\n".join(out)


def type_of(schema: dict) -> str:
    """A schema's type in a few words.

    >>> type_of({"type": "array", "items": {"type": "string"}}), type_of(NULLABLE_EXACT)
    ('array of string', 'string or null')
    """
    if "anyOf" in schema:
        return " or ".join(dict.fromkeys(type_of(s) for s in schema["anyOf"]))
    kind = schema.get("type", "any")
    if isinstance(kind, list):
        return " or ".join(kind)
    if kind == "array":
        return f"array of {type_of(schema.get('items', {}))}"
    return kind


def cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")
