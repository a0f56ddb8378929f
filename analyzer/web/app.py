"""The Flask application of `baccarat serve`: the page, the JSON API, and the limits that keep
one client from taking the server (request size, shoe size, request rate, access token).

Flask because the work is synchronous and CPU-bound (an exact enumeration or a matrix product a
request): a plain WSGI application fits it, with no event loop to keep free; Flask is small, well
kept, and its test client drives the API without a socket. The requests that compute are
answered by api.answer: in this process, or by the server's worker processes (serving.Pool).

Every answer is JSON: 200 with the data, or 4xx with ``{"error": "one line"}`` (and ``"line"``
for a rule file's TOML syntax error); a defect of ours is a 500 with one line, never a traceback.
"""

from __future__ import annotations

import hmac
import ipaddress
import os
import socket
import threading
import time
from html import escape
from importlib import resources
from urllib.parse import urlsplit

from flask import Blueprint, Flask, Response, current_app, jsonify, request
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from ..base.errors import BaccaratError, error_line
from . import api, openapi
from .pit import status_of as pit_status

STATIC = resources.files(__package__) / "static"


def create_app(limits: api.Limits = api.Limits(), token: str | None = None, pool=None, pit=None,
               write_token: str | None = None, hosts: Hosts | None = None) -> Flask:
    """The application, answering within ``limits``; with ``token``, only to those who have it:
    the page at ``/?token=TOKEN`` (which then carries it), the API with ``Authorization: Bearer
    TOKEN``; anything else under /api/ or the page without it is a 401. The page's script and style
    are not secret and stay free. With a ``pool`` (serving.Pool), its workers compute the answers;
    without, this process does. With a ``pit`` (web.pit.Pit), the pit's tables are served under
    /api/tables; with ``write_token``, only that token may write to them (create a table, post
    an event), and it may watch too.

    Whatever the tokens, nothing is written from another site (same_site): a request whose
    ``Host`` is not one of ``hosts`` (default: this machine's loopback names) is a 421, a write
    whose ``Origin`` (else ``Referer``) is another origin a 403, a write whose body is not
    ``application/json`` a 415 (a page elsewhere can send text/plain or a form without asking).

    Its parts: the guards every request passes (:func:`guard`), then three blueprints - the
    pages (:func:`pages`), the computations (:func:`computing`), the pit's tables
    (:func:`tables`) - and the errors as one line (:func:`errors`)."""
    app = Flask(__name__, static_folder=str(STATIC), static_url_path="/static")
    app.config["BODY_LIMIT"] = limits.body  # checked by body() itself: werkzeug cuts a chunked body short silently
    app.json.sort_keys = False
    guard(app, limits, token, write_token, hosts or Hosts.serving("127.0.0.1"))
    app.register_blueprint(pages(token))
    app.register_blueprint(computing(limits, pool))
    app.register_blueprint(tables(pit))
    errors(app, limits)
    return app


def guard(app: Flask, limits: api.Limits, token: str | None, write_token: str | None, hosts: Hosts) -> None:
    """What every request passes before it is answered: the same site (Host, Origin, JSON), the
    tokens, and the rate of the API's POSTs."""
    throttle = Throttle(limits.rate, limits.burst)

    @app.before_request
    def same_site():
        refused = refusal(request.headers.get("Host"), request.method, request.headers.get("Origin"),
                          request.headers.get("Referer"), request.mimetype if request.url_rule else None, hosts)
        return failure(*refused) if refused else None

    @app.before_request
    def with_token():
        return token_refusal(token, write_token)

    @app.before_request
    def within_rate():  # the work is in the API's POSTs: the page, its files and the rule-set list are free
        if request.method == "POST" and not throttle.allow(request.remote_addr or ""):
            response = failure(429, "too many requests: wait a moment")
            response[0].headers["Retry-After"] = str(max(1, round(1 / limits.rate)))
            return response
        return None


def token_refusal(token: str | None, write_token: str | None):
    """None where the request carries the token it needs (none where the server has none; the
    write token to write where there is one), else a 401 (a 403 for a watcher who writes)."""
    writes = request.method == "POST" and request.path.startswith("/api/tables")
    needed = [write_token] if writes and write_token is not None else [t for t in (token, write_token) if t]
    if not needed or request.path.startswith("/static/"):
        return None
    page = request.path in ("/", "/pit", "/protect") or request.path.startswith(("/table/", "/board/"))
    streamed = request.method == "GET" and request.path.startswith(("/api/tables/", "/api/pit/"))  # EventSource sends no header
    given = request.args.get("token", "") if page or streamed and "token" in request.args else \
        bearer(request.headers.get("Authorization", ""))
    if any(hmac.compare_digest(given.encode(), t.encode()) for t in needed):
        return None
    message = ("this server needs its access token: open the address it printed when it started (with ?token=)"
               if page else "this server needs its access token: send Authorization: Bearer TOKEN")
    if writes and write_token is not None:
        message = "writing to a table needs this server's write token: send Authorization: Bearer WRITE_TOKEN"
    watcher = writes and any(hmac.compare_digest(given.encode(), t.encode()) for t in (token,) if t)
    response = failure(403 if watcher else 401, message)
    response[0].headers["WWW-Authenticate"] = "Bearer"
    return response


def pages(token: str | None) -> Blueprint:
    """The pages a person opens: the shoe in play and the designer (/), the pit (/pit), a
    table's clerk page (/table/NAME), its board (/board/NAME), and the review (/protect)."""
    blueprint = Blueprint("pages", __name__)

    def served(name: str, base: str = ""):
        html = (STATIC / name).read_text(encoding="utf-8")
        given = request.args.get("token")
        if given is not None or token is not None:  # the page carries the token it was opened with to its own requests
            html = html.replace('<meta name="baccarat-token" content="">',
                                f'<meta name="baccarat-token" content="{escape(given or token or "", quote=True)}">')
        if base:
            html = html.replace('href="static/', f'href="{base}static/').replace('src="static/', f'src="{base}static/')
        return Response(html, mimetype="text/html")

    blueprint.add_url_rule("/", "page", lambda: served("index.html"))
    blueprint.add_url_rule("/pit", "pit_page", lambda: served("pit.html"))
    blueprint.add_url_rule("/protect", "protect_page", lambda: served("protect.html"))
    blueprint.add_url_rule("/table/<name>", "table_page", lambda name: served("table.html", "../"))
    blueprint.add_url_rule("/board/<name>", "board_page", lambda name: served("board.html", "../"))  # read-only
    return blueprint


def computing(limits: api.Limits, pool) -> Blueprint:
    """The API's questions of a shoe (/api/now, /api/design: computed in this process or by the
    pool's workers), the rule sets (/api/rules) and the API's description (/api/openapi.json)."""
    blueprint = Blueprint("computing", __name__)

    @blueprint.get("/api/openapi.json")
    def openapi_description():
        return jsonify(openapi.description())

    @blueprint.get("/api/rules")
    def rules():
        return jsonify(api.rules_index())

    @blueprint.post("/api/now")
    @blueprint.post("/api/design")
    def computed():
        data = body()
        if pool is None:
            status, payload = api.answer(request.path, data, limits)
        else:  # a client that has gone (waitress says so) has its computation stopped
            status, payload = pool.answer(request.path, data, request.environ.get("waitress.client_disconnected",
                                                                                  lambda: False))
        response = Response(payload, status, mimetype="application/json")
        if status == 503:
            response.headers["Retry-After"] = "10"
        return response

    return blueprint


def tables(pit) -> Blueprint:
    """The pit's tables (/api/tables...): create, read, post events and wagers, follow a table or
    the pit as a stream, replay a shoe, the results and the review. A 404 where the server keeps
    no tables; the pit's own errors as one line, by their status."""
    blueprint = Blueprint("tables", __name__)

    def answer(call):
        if pit is None:
            return failure(404, "this server keeps no tables")
        try:
            status, data = call()
        except BaccaratError as error:
            return failure(pit_status(error), error_line(str(error)))
        return Response(api.dumps(data), status, mimetype="application/json")

    def streamed(make):
        if pit is None:
            return failure(404, "this server keeps no tables")
        try:
            events = make(request.environ.get("waitress.client_disconnected", lambda: False))
        except BaccaratError as error:
            return failure(pit_status(error), error_line(str(error)))
        return Response(events, 200, mimetype="text/event-stream",
                        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

    def period() -> tuple:
        return request.args.get("since"), request.args.get("until")

    rule = blueprint.add_url_rule
    rule("/api/tables", "create_table", lambda: answer(lambda: pit.create(api.request_object(body()))), methods=["POST"])
    rule("/api/tables", "list_tables", lambda: answer(lambda: pit.tables()))
    rule("/api/tables/<name>", "table_state", lambda name: answer(lambda: pit.state(name)))
    rule("/api/tables/<name>/events", "post_event", lambda name: answer(lambda: pit.post(name, api.request_object(body()))),
         methods=["POST"])
    rule("/api/tables/<name>/wagers", "place_wagers",
         lambda name: answer(lambda: pit.wager(name, api.request_object(body()))), methods=["POST"])
    rule("/api/results", "pit_results", lambda: answer(lambda: pit.results(request.args.getlist("table"), *period())))
    rule("/api/tables/<name>/results", "table_results", lambda name: answer(lambda: pit.results([name], *period())))
    rule("/api/tables/<name>/shoes", "table_shoes", lambda name: answer(lambda: pit.shoes(name)))
    rule("/api/tables/<name>/shoes/<int:shoe>/replay", "replay_shoe", lambda name, shoe: answer(lambda: pit.replay(name, shoe)))
    rule("/api/pit/stream", "pit_stream", lambda: streamed(lambda gone: pit.pit_stream(gone)))

    @blueprint.get("/api/protect")
    def protect_review():
        def review():
            samples = number_argument("samples", 2000)  # as the command line
            if not 100 <= samples <= 20_000:
                raise BaccaratError(f"samples: 100 to 20,000 random placements (got {samples:,})")
            return pit.review(request.args.getlist("table"), request.args.get("level", "1%"), samples, *period())
        return answer(review)

    @blueprint.get("/api/tables/<name>/events")
    def table_events(name):
        if not ("text/event-stream" in request.headers.get("Accept", "") or request.args.get("stream") == "1"):
            return answer(lambda: pit.events(name, number_argument("after")))
        return streamed(lambda gone: pit.stream(name, number_argument("after"), gone, request.args.get("figures") == "full"))

    return blueprint


def number_argument(name: str, default: int = 0) -> int:
    """A whole number from the query (``after`` from Last-Event-ID first, as a stream resumes)."""
    text = request.headers.get("Last-Event-ID") if name == "after" and request.headers.get("Last-Event-ID") else \
        request.args.get(name, str(default))
    if not text.isascii() or not text.isdigit() or len(text) > 12:
        raise BaccaratError(f"{name}: a whole number, 0 or more (got {text[:20]!r})")
    return int(text)


def errors(app: Flask, limits: api.Limits) -> None:
    """Every error as JSON with one line: an HTTP error by its status (a 405 with Allow), a
    defect of ours a 500 (BACCARAT_DEBUG=1 logs its traceback on the server's terminal)."""

    @app.errorhandler(HTTPException)
    def http_error(error):
        response = failure(error.code or 500, error.description if error.code != 413 else
                           f"the request is larger than {limits.body // 1024} KiB")
        allow = dict(error.get_headers()).get("Allow")  # a 405 says which methods there are (RFC 9110)
        if allow:
            response[0].headers["Allow"] = allow
        return response

    @app.errorhandler(Exception)
    def defect(error):  # one line on the server's terminal too
        app.logger.error("internal error, please report it: %s: %s", type(error).__name__, error,
                         exc_info=bool(os.environ.get("BACCARAT_DEBUG")))
        return failure(500, f"internal error, please report it: {type(error).__name__}")


WRITES = ("POST", "PUT", "PATCH", "DELETE")


class Hosts:
    """The names a server answers to in a request's ``Host``: the address it listens on (and
    ``localhost`` for a loopback address; on a wildcard address, any IP address and this
    machine's own names), and the names given (``--allowed-host``). Another name is a page that
    reached this server by a name it does not own (DNS rebinding) or a misdirected request.

    >>> Hosts.serving("127.0.0.1").allows("localhost:8000"), Hosts.serving("127.0.0.1").allows("evil.example")
    (True, False)
    >>> Hosts.serving("0.0.0.0", ("pit.casino.example",)).allows("[fe80::1]:80"), Hosts.serving("::1").allows("[::1]:1")
    (True, True)
    """

    def __init__(self, names, any_address: bool = False):
        self.names, self.any_address = frozenset(n.lower().strip("[]").rstrip(".") for n in names), any_address

    @classmethod
    def serving(cls, listen: str, allowed=()) -> Hosts:
        listen = listen.strip("[]").lower()
        names = {listen, *allowed}
        wildcard = listen in ("0.0.0.0", "::", "")
        if wildcard or is_loopback(listen):
            names |= {"localhost", "127.0.0.1", "::1"}
        if wildcard:
            names |= {socket.gethostname(), socket.getfqdn()}
        return cls(names, wildcard)

    def allows(self, host: str | None) -> bool:
        name = host_name(host or "")
        if not name:
            return False
        if name in self.names:
            return True
        return self.any_address and is_address(name)


def host_name(host: str) -> str:
    """The name of a ``Host`` header, without its port, lowercase ('' if it is not one).

    >>> host_name("Pit.Example:8080"), host_name("[::1]:80"), host_name("a b")
    ('pit.example', '::1', '')
    """
    host = host.strip().lower()
    if host.startswith("["):
        name, bracket, rest = host[1:].partition("]")
        return name if bracket and (not rest or rest[1:].isdigit() and rest[0] == ":") and is_address(name) else ""
    name, _, port = host.partition(":")
    if port and not port.isdigit() or not name or any(c.isspace() or c in "/@?#\\" for c in name):
        return ""
    return name.rstrip(".")


def is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def is_loopback(name: str) -> bool:
    return name == "localhost" or is_address(name) and ipaddress.ip_address(name).is_loopback


def refusal(host, method, origin, referer, mimetype, hosts: Hosts) -> tuple[int, str] | None:
    """(status, why) where a request is refused as coming from another site, else None: a
    ``Host`` this server does not answer to (421); a write (POST, PUT, PATCH, DELETE) from
    another origin, by its ``Origin`` or, where a browser sends none, its ``Referer`` (403),
    or whose body is not JSON (415; ``mimetype`` None where no route takes the request, which is
    then a 404 or 405). A client that is not a browser sends neither header and is let through
    to the token check.

    >>> hosts = Hosts.serving("127.0.0.1")
    >>> refusal("127.0.0.1:8000", "POST", "http://127.0.0.1:9000", None, "application/json", hosts)[0]
    403
    >>> refusal("127.0.0.1:8000", "POST", "http://127.0.0.1:8000", None, "text/plain", hosts)[0]
    415
    >>> refusal("127.0.0.1:8000", "POST", "http://127.0.0.1:8000", None, "application/json", hosts) is None
    True
    """
    if not hosts.allows(host):
        return 421, (("a request names its Host" if host is None else f"this server does not answer to the host {host[:60]!r}")
                     + ": open it by the address it printed (or start it with --allowed-host NAME)")
    if method not in WRITES:
        return None
    source = origin if origin is not None else referer
    if source is not None and not same_origin(source, host):
        return 403, (f"a write from another site ({str(source)[:60]!r}) is refused: this server takes writes from its "
                     "own pages, or from a client that is not a browser")
    if mimetype is not None and mimetype != "application/json":
        return 415, f"a write's body is JSON (Content-Type: application/json), not {mimetype or 'none'}"
    return None


def same_origin(source: str, host: str) -> bool:
    """Whether an ``Origin`` or ``Referer`` is this server's own origin (the host and port the
    request was sent to, over http or https).

    >>> same_origin("http://127.0.0.1:8000", "127.0.0.1:8000"), same_origin("null", "127.0.0.1:8000")
    (True, False)
    >>> same_origin("http://127.0.0.1:8000/pit", "127.0.0.1:8001"), same_origin("http://localhost:80", "localhost")
    (False, True)
    """
    try:
        parts = urlsplit(source.strip())
        port = parts.port
    except ValueError:
        return False
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return False
    name, _, given = host.strip().lower().rpartition(":") if not host.strip().endswith("]") else (host.strip().lower(), "", "")
    if not name or not given.isdigit():
        name, given = host.strip().lower(), ""
    default = 443 if parts.scheme == "https" else 80
    wanted = int(given) if given else default
    return parts.hostname.lower().rstrip(".") == name.strip("[]").rstrip(".") and (port or default) == wanted


def bearer(header: str) -> str:
    """The token of an ``Authorization: Bearer TOKEN`` header, else ''.

    >>> bearer("Bearer abc"), bearer("Basic abc"), bearer("")
    ('abc', '', '')
    """
    scheme, _, value = header.partition(" ")
    return value.strip() if scheme.lower() == "bearer" else ""


def body() -> bytes:
    """The request's body, at most the limit (api.answer reads it as JSON)."""
    limit = current_app.config["BODY_LIMIT"]
    data = request.stream.read(limit + 1)  # one check for a declared length and a chunked body alike
    if len(data) > limit:
        raise RequestEntityTooLarge()
    return data


def failure(status: int, message: str, **extra):
    return jsonify({"error": message} | extra), status


class Throttle:
    """A token bucket per client address: ``rate`` requests a second on average, ``burst`` at
    once. Thread-safe; past 10,000 clients it forgets those whose bucket is full again."""

    def __init__(self, rate: float, burst: int):
        self.rate, self.burst = rate, burst
        self.buckets: dict[str, tuple[float, float]] = {}  # address -> (tokens, when)
        self.lock = threading.Lock()

    def allow(self, address: str) -> bool:
        now = time.monotonic()
        with self.lock:
            tokens, when = self.buckets.get(address, (self.burst, now))
            tokens = min(self.burst, tokens + (now - when) * self.rate)
            if tokens < 1:
                self.buckets[address] = (tokens, now)
                return False
            self.buckets[address] = (tokens - 1, now)
            if len(self.buckets) > 10_000:  # memory stays bounded whoever calls
                self.buckets = {a: b for a, b in self.buckets.items() if b[0] + (now - b[1]) * self.rate < self.burst}
            return True
