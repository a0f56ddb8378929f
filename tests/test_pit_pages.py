"""The pit's two pages in headless Chromium, against the real server: the overview shows every
table, pushed as events are kept, readable from two metres (the cards left and the positive bets
large, above the fold, best first), a stale table looks stale; the clerk's page enters coups as
coups, says why one is refused, and shows the table as it is when another writer came first."""

import http.client
import json
import math
import os
import signal
import subprocess
import sys
import time
import urllib.parse
from datetime import datetime
from decimal import ROUND_HALF_UP, Decimal

import pytest

from test_web_page import browser  # noqa: F401  (the fixture: headless Chromium, or a skip saying why)

# One deck, a real shoe's first coups: no bet is positive after the third, the Player after the fourth
# (+0.1101%: `baccarat now --decks 1 --rules standard --dealt` with these cards says so).
SHOE = [["8s", "Jd", "5h", "Th", "6h", "5d"], ["7c", "6d", "8d", "Jc", "9d"], ["Td", "2c", "7d", "8h", "As"],
        ["3h", "Kh", "9s", "Js", "6s", "6c"]]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("pit")
    process = subprocess.Popen([sys.executable, "-m", "analyzer", "serve", "--port", "0", "--workers", "1", "--rate", "1000",
                                "--db", f"sqlite:///{folder / 'pit.sqlite'}"], stdout=subprocess.PIPE, text=True,
                               env=os.environ | {"PYTHONUNBUFFERED": "1"})
    try:
        line = process.stdout.readline()
        yield int(line.split(":")[2].split("/")[0])
    finally:
        process.send_signal(signal.SIGINT)
        process.communicate(timeout=30)


def call(port, method, path, body=None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request(method, path, body=None if body is None else json.dumps(body), headers={"Content-Type": "application/json"})
    answer = connection.getresponse()
    data = json.loads(answer.read())
    connection.close()
    return answer.status, data


def table(port, name, decks=1, coups=()):
    assert call(port, "POST", "/api/tables", {"name": name, "rules": "standard", "decks": decks, "burn": "none"})[0] == 201
    after = call(port, "POST", f"/api/tables/{name}/events", {"type": "shoe", "after": 0})[1]["event"]
    for cards in coups:
        status, answer = call(port, "POST", f"/api/tables/{name}/events", {"type": "coup", "cards": cards, "after": after})
        assert status == 200, answer
        after = answer["event"]
    return after


def size_of(page, selector) -> float:
    return page.eval_on_selector(selector, "e => parseFloat(getComputedStyle(e).fontSize)")


def test_the_overview_shows_every_table_as_it_changes_readable_from_two_metres(browser, server, tmp_path):  # noqa: F811
    table(server, "bac-1", coups=SHOE[:3])
    table(server, "bac-2", decks=8)
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.set_default_timeout(10_000)
    page.goto(f"http://127.0.0.1:{server}/pit")
    page.wait_for_selector("article.tile >> text=bac-2")
    tiles = page.locator("article.tile")
    assert tiles.count() == 2
    one = tiles.filter(has_text="bac-1")
    assert one.locator(".number").inner_text() == "36"
    assert one.locator(".positive li").count() == 0 and one.locator(".none").is_visible()
    assert size_of(page, "article.tile .number") >= 48  # the cards left: readable from two metres
    # a coup dealt through the API reaches the page by itself
    status, answer = call(server, "POST", "/api/tables/bac-1/events", {"type": "coup", "cards": SHOE[3], "after": 4})
    assert status == 200, answer
    page.wait_for_function("document.querySelector('article.tile .number').textContent === '30'")
    positive = one.locator(".positive li")
    positive.first.wait_for()
    names = positive.all_inner_texts()
    assert names == ["Player\n+0.1101%"], names
    assert size_of(page, "article.tile .positive li") >= 24
    box = positive.first.bounding_box()
    assert box["y"] + box["height"] <= 800  # above the fold
    evs = [float(text.split("\n")[-1].rstrip("%").replace("+", "")) for text in names]
    assert evs == sorted(evs, reverse=True)  # best first
    page.screenshot(path=str(tmp_path / "pit.png"))
    assert (tmp_path / "pit.png").stat().st_size > 10_000
    page.close()


def test_a_table_with_no_news_looks_stale(browser, server):  # noqa: F811
    table(server, "quiet", decks=8)
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.clock.install()
    page.goto(f"http://127.0.0.1:{server}/pit")
    page.wait_for_selector("article.tile >> text=quiet")
    tile = page.locator("article.tile").filter(has_text="quiet")
    assert "is-stale" not in (tile.get_attribute("class") or "")
    page.clock.fast_forward("06:00")
    page.wait_for_function("[...document.querySelectorAll('article.tile')].some(t => t.classList.contains('is-stale'))")
    assert tile.locator(".stale").is_visible()
    page.close()


def test_the_clerk_enters_coups_as_coups(browser, server):  # noqa: F811
    after = table(server, "clerk-1", decks=8)
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.set_default_timeout(10_000)
    page.route("**/events?*stream=1*", lambda route: route.abort())  # this page hears of no other writer
    page.goto(f"http://127.0.0.1:{server}/table/clerk-1")
    page.wait_for_function("document.getElementById('left').textContent === '416'")
    page.fill("#cards", "8c 3c 7h 5c")
    page.press("#cards", "Enter")
    page.wait_for_function("document.getElementById('left').textContent === '412'")
    assert call(server, "GET", "/api/tables/clerk-1")[1]["event"] == after + 1
    assert page.input_value("#cards") == ""
    page.fill("#cards", "As Ah Ad Ac 2s 2h 2d")  # seven cards: refused, and why
    page.press("#cards", "Enter")
    page.wait_for_function("document.getElementById('message').textContent.includes('a coup has 4 to 6 cards (got 7)')")
    assert call(server, "GET", "/api/tables/clerk-1")[1]["event"] == after + 1  # nothing kept
    call(server, "POST", "/api/tables/clerk-1/events", {"type": "coup", "cards": ["9s", "Kd", "Kh", "4c"], "after": after + 1})
    page.fill("#cards", "Qs 6h 7c Jh")  # another writer came first (the feed dealt 9s Kd Kh 4c)
    page.click("#deal")
    page.wait_for_function("document.getElementById('message').textContent.includes('another writer came first')")
    page.wait_for_function("document.getElementById('left').textContent === '408'")
    assert call(server, "GET", "/api/tables/clerk-1")[1]["event"] == after + 2  # nothing lost, nothing overwritten
    page.close()
    follower = browser.new_page(viewport={"width": 1280, "height": 800})  # a page that follows the stream stays in step
    follower.goto(f"http://127.0.0.1:{server}/table/clerk-1")
    follower.wait_for_function("document.getElementById('left').textContent === '408'")
    call(server, "POST", "/api/tables/clerk-1/events", {"type": "coup", "cards": ["Qs", "6h", "7c", "Jh"], "after": after + 2})
    follower.wait_for_function("document.getElementById('left').textContent === '404'")
    assert "Player 7-6" in follower.inner_text("#last")
    follower.close()


# -- the pit hardened: another site's page, a clerk who is not heard ------------------------------

ATTACK = """<!doctype html><html><body><iframe name="sink"></iframe><script>
const T = "http://127.0.0.1:PORT";
async function attack() {
  const out = {};
  const body = JSON.stringify({ type: "shoe", after: AFTER });
  try {  // the trick that worked: no-cors, text/plain (a "simple" request: no preflight)
    out.nocors = (await fetch(T + "/api/tables/target/events", { method: "POST", mode: "no-cors",
      headers: { "Content-Type": "text/plain" }, body })).type;
  } catch (e) { out.nocors = "failed"; }
  try {
    out.create = (await fetch(T + "/api/tables", { method: "POST", mode: "no-cors", body: '{"name": "evil"}' })).type;
  } catch (e) { out.create = "failed"; }
  try {  // JSON: the browser asks first (a preflight), and sends only where the server allows
    out.json = (await fetch(T + "/api/tables/target/events", { method: "POST",
      headers: { "Content-Type": "application/json" }, body })).status;
  } catch (e) { out.json = "failed"; }
  await new Promise((done) => {  // a form posted to the pit, its answer in a frame
    const form = document.createElement("form");
    form.method = "POST"; form.action = T + "/api/tables/target/events"; form.enctype = "text/plain"; form.target = "sink";
    const input = document.createElement("input");
    input.name = '{"type": "shoe", "after": AFTER, "x": "'; input.value = '"}';
    form.append(input); document.body.append(form);
    document.querySelector("iframe").onload = done;
    form.submit();
  });
  out.form = "sent";
  window.results = out;
}
attack();
</script></body></html>"""


def test_a_page_on_another_port_writes_nothing_to_the_pit(browser, server):  # noqa: F811
    import http.server
    import socketserver
    import threading

    after = table(server, "target")
    page_html = ATTACK.replace("PORT", str(server)).replace("AFTER", str(after)).encode()
    seen = []

    class Attacker(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(page_html)

        def log_message(self, *args):
            seen.append(args)

    with socketserver.TCPServer(("127.0.0.1", 0), Attacker) as other:
        threading.Thread(target=other.serve_forever, daemon=True).start()
        page = browser.new_page()
        page.set_default_timeout(15_000)
        page.goto(f"http://127.0.0.1:{other.server_address[1]}/attack.html")
        page.wait_for_function("window.results !== undefined")
        results = page.evaluate("window.results")
        page.close()
        other.shutdown()
    # the no-cors requests were sent (an opaque answer is an answer), the form too
    assert results["nocors"] == "opaque" and results["create"] == "opaque" and results["form"] == "sent", results
    assert results["json"] == "failed", results  # no CORS: the preflight is not answered as allowed
    state = call(server, "GET", "/api/tables/target")[1]
    assert state["event"] == after  # nothing kept
    assert "evil" not in [t["name"] for t in call(server, "GET", "/api/tables")[1]["tables"]]


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(port, db):
    process = subprocess.Popen([sys.executable, "-m", "analyzer", "serve", "--port", str(port), "--workers", "1",
                                "--rate", "1000", "--db", db], stdout=subprocess.PIPE, text=True,
                               env=os.environ | {"PYTHONUNBUFFERED": "1"})
    assert "Serving on" in process.stdout.readline()
    return process


def test_the_clerk_page_says_when_it_is_not_heard_and_catches_up(browser, tmp_path):  # noqa: F811
    port, db = free_port(), f"sqlite:///{tmp_path / 'pit.sqlite'}"
    process = start(port, db)
    try:
        after = table(port, "clerk-2", decks=8, coups=SHOE[:2])
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.set_default_timeout(15_000)
        requests = []
        page.on("request", lambda r: requests.append(r.url))
        page.goto(f"http://127.0.0.1:{port}/table/clerk-2")
        page.wait_for_function("document.getElementById('left').textContent === '405'")
        waited = time.monotonic() + 15  # the stream opens just after the table is read: on a busy machine, a moment later
        while not any("/events?" in u for u in requests) and time.monotonic() < waited:
            page.wait_for_timeout(50)
        reads = [u for u in requests if u.endswith("/api/tables/clerk-2")]
        streams = [u for u in requests if "/events?" in u]
        assert len(reads) == 1 and len(streams) == 1 and f"after={after}&" in streams[0]  # no replay of the history
        process.send_signal(signal.SIGINT)
        process.communicate(timeout=30)
        # the stream is down: the figures are greyed, marked stale with the last event's time
        page.wait_for_function("document.getElementById('state').classList.contains('is-stale')")
        assert f"last event {after}" in page.inner_text("#staleness")
        page.fill("#cards", SHOE[2] and " ".join(SHOE[2]))
        page.press("#cards", "Enter")
        page.wait_for_function("!document.getElementById('unheard').hidden")
        assert "Not heard" in page.inner_text("#unheard")
        assert page.input_value("#cards") == " ".join(SHOE[2])  # the coup stays
        page.screenshot(path=str(tmp_path / "unheard.png"))
        process = start(port, db)
        page.wait_for_function("!document.getElementById('state').classList.contains('is-stale')")
        assert "caught up" in page.inner_text("#staleness")
        assert page.locator("#unheard").is_visible()  # until a write succeeds
        page.press("#cards", "Enter")
        page.wait_for_function("document.getElementById('unheard').hidden")
        page.wait_for_function(f"document.getElementById('shoe-line').textContent.includes('event {after + 1}')")
        assert page.input_value("#cards") == ""
        # a coup voided from the page, with a confirmation
        page.once("dialog", lambda dialog: dialog.accept())
        page.click("#void")
        page.wait_for_function(f"document.getElementById('shoe-line').textContent.includes('event {after + 2}')")
        assert page.inner_text("#left") == "405"
        kept = call(port, "GET", f"/api/tables/clerk-2/events?after={after}")[1]["events"]
        assert [e["type"] for e in kept] == ["coup", "void"]
        page.close()
    finally:
        process.send_signal(signal.SIGINT)
        process.communicate(timeout=30)


def test_a_coup_refused_as_stale_is_set_aside_not_resent(browser, server):  # noqa: F811
    after = table(server, "clerk-3", decks=8)
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.set_default_timeout(10_000)
    page.route("**/events?*stream=1*", lambda route: route.abort())  # this page hears of no other writer
    page.goto(f"http://127.0.0.1:{server}/table/clerk-3")
    page.wait_for_function("document.getElementById('left').textContent === '416'")
    call(server, "POST", "/api/tables/clerk-3/events", {"type": "coup", "cards": SHOE[0], "after": after})
    page.fill("#cards", " ".join(SHOE[1]))
    page.press("#cards", "Enter")
    page.wait_for_function("!document.getElementById('refused').hidden")
    assert page.inner_text("#refused-cards") == " ".join(SHOE[1]) and page.input_value("#cards") == ""
    assert page.inner_text("#left") == "410"  # the table as it is
    page.press("#cards", "Enter")  # Enter on the empty input sends nothing
    page.wait_for_function("document.getElementById('message').textContent.includes('enter the coup')")
    assert call(server, "GET", "/api/tables/clerk-3")[1]["event"] == after + 1
    page.click("#resend")
    page.wait_for_function("document.getElementById('refused').hidden")
    assert call(server, "GET", "/api/tables/clerk-3")[1]["event"] == after + 2
    page.close()


# -- the screens a casino hangs: the board, the overview of a 20-table pit ------------------------------

def deal_real_shoe(port, name, seed, coups, wagers=()):
    """``coups`` coups of a shuffled 8-deck shoe (its burn first) dealt to table ``name``, each
    with ``wagers`` placed before it."""
    import random

    from analyzer.game.cards import RANKS, VALUES
    from analyzer.pit.replay import cards_taken
    from analyzer.game.tableau import PUNTO_BANCO

    rng = random.Random(seed)
    cards = [r + s for r in "A23456789TJQK" for s in "shdc"] * 8
    rng.shuffle(cards)
    after = call(port, "GET", f"/api/tables/{name}")[1]["event"]
    after = call(port, "POST", f"/api/tables/{name}/events", {"type": "shoe", "after": after})[1]["event"]
    burn = VALUES[RANKS.index(cards[0][0])] or 10
    after = call(port, "POST", f"/api/tables/{name}/events", {"type": "burn", "cards": [cards[0]], "face_down": burn,
                                                              "after": after})[1]["event"]
    at = 1 + burn
    for _ in range(coups):
        taken = cards_taken([VALUES[RANKS.index(c[0])] for c in cards[at:at + 6]], PUNTO_BANCO)
        if wagers:
            status, answer = call(port, "POST", f"/api/tables/{name}/wagers", {"after": after, "wagers": list(wagers)})
            assert status == 201, answer
        status, answer = call(port, "POST", f"/api/tables/{name}/events", {"type": "coup", "cards": cards[at:at + taken],
                                                                           "after": after})
        assert status == 200, answer
        after, at = answer["event"], at + taken
    return after


FITS = """() => {
  const out = { overflow: [], small: [], width: innerWidth, height: innerHeight,
    scroll: [document.documentElement.scrollWidth, document.documentElement.scrollHeight] };
  for (const node of document.querySelectorAll("body *")) {
    const r = node.getBoundingClientRect();
    if (!r.width || !r.height || getComputedStyle(node).visibility === "hidden") continue;
    if (node.closest("dialog")) continue;
    if (r.right > innerWidth + 1 || r.bottom > innerHeight + 1) out.overflow.push(node.tagName + "." + node.className + " " + (node.textContent || "").slice(0, 30));
    const own = [...node.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim());
    if ((own || node.tagName === "text") && parseFloat(getComputedStyle(node).fontSize) < 20 && !node.closest("svg"))
      out.small.push(node.tagName + "." + node.className + " " + node.textContent.trim().slice(0, 30) + " " + getComputedStyle(node).fontSize);
  }
  return out;
}"""


@pytest.mark.parametrize("width, height", [(1920, 1080), (3840, 2160)])
def test_the_board_over_a_table_reads_from_across_the_room(browser, server, tmp_path, width, height):  # noqa: F811
    name = f"board-{width}"
    assert call(server, "POST", "/api/tables", {"name": name, "rules": "catalog", "count": "dragon_7_jacobson"})[0] == 201
    deal_real_shoe(server, name, 0, 60)
    state = call(server, "GET", f"/api/tables/{name}")[1]
    page = browser.new_page(viewport={"width": width, "height": height})
    page.set_default_timeout(15_000)
    page.goto(f"http://127.0.0.1:{server}/board/{name}")
    page.wait_for_function(f"document.getElementById('left').textContent === '{state['cards_left']}'")
    page.wait_for_timeout(300)
    fits = page.evaluate(FITS)
    assert fits["scroll"] == [width, height], fits  # nothing scrolls on a wall screen
    assert not fits["overflow"] and not fits["small"], fits  # nothing clipped; nothing below 20 px
    for selector in ("#left", ".tallies dd", "#last", "#count", ".positive li"):
        assert size_of(page, selector) >= 28, selector  # the figures a manager reads
    # every coup on the bead plate, every big-road cell drawn, the tallies as the roads count them
    assert page.locator("#bead svg > g[transform]").count() == 60
    columns = page.evaluate("(() => { const b = document.getElementById('big'); return Math.floor(b.clientWidth / Math.floor(b.clientHeight / 6)); })()")
    last = max(c for _, c, _, _ in state["board"]["big_road"])
    shown = [cell for cell in state["board"]["big_road"] if cell[1] > last - columns]  # a long big road: its last columns
    assert page.locator("#big svg > g[transform]").count() == len(shown) > 0
    assert [int(x) for x in page.locator(".tallies dd").all_inner_texts()] == \
        [state["board"]["tallies"][k] for k in ("banker", "player", "tie", "player_pair", "banker_pair", "natural")]
    assert page.locator("#ask-banker svg").count() == 3 and page.locator("#ask-player svg").count() == 3
    # the pace of the shoe: its coups an hour, from its first event to its last, beside the time since the last
    shoe = call(server, "GET", f"/api/tables/{name}/shoes")[1]["shoes"][-1]
    seconds = (datetime.fromisoformat(shoe["until"].replace("Z", "+00:00")) -
               datetime.fromisoformat(shoe["since"].replace("Z", "+00:00"))).total_seconds()
    if seconds:  # (times are kept to the second: 60 coups take several here)
        page.wait_for_function("/^[\\d,]+ coups an hour · last event \\d+:\\d\\d ago$/.test(document.getElementById('since').textContent)")
        assert int(page.locator("#since").inner_text().split()[0].replace(",", "")) == round(60 * 3600 / seconds)
    page.screenshot(path=str(tmp_path / f"board-{width}.png"))
    page.close()


def test_a_twenty_table_pit_fits_one_screen_in_natural_order(browser, tmp_path):  # noqa: F811
    port, db = free_port(), f"sqlite:///{tmp_path / 'pit.sqlite'}"
    process = start(port, db)
    try:
        page = browser.new_page(viewport={"width": 1920, "height": 1080})
        page.set_default_timeout(15_000)
        page.goto(f"http://127.0.0.1:{port}/pit")
        page.wait_for_selector("#empty:not([hidden])")  # the empty pit says so, and offers to create a table
        page.click("#create-first")
        page.fill("#create-form input[name=name]", "bac-1")
        page.click("#create-form button[type=submit]")
        page.wait_for_selector("article.tile >> text=bac-1")
        for i in range(2, 21):
            assert call(port, "POST", "/api/tables", {"name": f"bac-{i}", "rules": "catalog"})[0] == 201
        wagers = [{"player": "ann", "seat": 1, "bet": "banker", "amount": 100},
                  {"player": "bo", "seat": 2, "bet": "player", "amount": 50},
                  {"player": "cy", "seat": 3, "bet": "tie", "amount": 25}, {"player": "cy", "seat": 3, "bet": "dragon_7", "amount": 10}]
        for i in (1, 2, 10, 20):
            deal_real_shoe(port, f"bac-{i}", i, 30 + i, wagers if i in (2, 20) else ())
        page.wait_for_function("document.querySelectorAll('article.tile').length === 20")
        page.wait_for_timeout(500)
        names = page.locator("article.tile h2").all_inner_texts()
        assert names == [f"bac-{i}" for i in range(1, 21)]  # bac-2 before bac-10
        page.wait_for_function("document.querySelectorAll('article.tile .results:not([hidden])').length === 2")
        whole = lambda text: (lambda x, n: ("+" if n and x > 0 else "-" if n and x < 0 else "") + f"{n:,}")(  # noqa: E731
            Decimal(text), int(abs(Decimal(text)).to_integral_value(rounding=ROUND_HALF_UP)))  # halves away from zero
        # the tile shows the day's results as the page asks for them (every 15 s: the tally's, every 10 s): once the
        # dealing is over, the line comes to what the API answers for every table since the page's midnight
        since = urllib.parse.quote(page.evaluate("localMidnight()"))
        final = call(port, "GET", f"/api/tables/bac-20/results?since={since}")[1]["tables"][0]  # worked out now, whole
        deadline, line, expected = time.monotonic() + 60, None, None
        while time.monotonic() < deadline:
            shown = next(t for t in call(port, "GET", f"/api/results?since={since}")[1]["tables"] if t["table"] == "bac-20")
            z = math.trunc(float(shown["z"]) * 10) / 10  # cut, not rounded: a z shown 2.0 is 2 or more
            expected = f"win {whole(shown['shown']['win'])} · theo {whole(shown['shown']['theoretical'])} · z {z:+.1f}"
            line = page.locator("article.tile").filter(has_text="bac-20").locator(".results").inner_text()
            if line == expected and shown["wagers"] == final["wagers"]:
                break
            time.sleep(1)
        assert line == expected and shown == final, (line, expected)
        assert page.locator("article.tile .results").evaluate_all("(ns) => ns.every((n) => n.scrollWidth <= n.clientWidth)")
        for wall in (False, True):
            if wall:
                page.goto(f"http://127.0.0.1:{port}/pit?wall")
                page.wait_for_function("document.querySelectorAll('article.tile').length === 20")
                page.wait_for_timeout(500)
                assert not page.locator("#new-table").is_visible() and not page.locator("article.tile .close").first.is_visible()
            fits = page.evaluate(FITS)
            assert fits["scroll"] == [1920, 1080] and not fits["overflow"] and not fits["small"], fits
            overflowing = page.evaluate("""[...document.querySelectorAll('article.tile *')].filter((n) => {
                const t = n.closest('article').getBoundingClientRect(), r = n.getBoundingClientRect();
                return r.width && (r.right > t.right + 1 || r.bottom > t.bottom + 1 || r.left < t.left - 1);
              }).map((n) => n.className + ' ' + n.textContent.slice(0, 20))""")
            assert not overflowing, overflowing  # nothing runs out of its tile
            page.screenshot(path=str(tmp_path / f"pit-wall-{wall}.png"))
            if os.environ.get("BACCARAT_SHOTS"):
                page.screenshot(path=f"{os.environ['BACCARAT_SHOTS']}/pit-wall-{wall}.png")
        # a tile shows the big road's last columns and the tallies beside the cards left
        state = call(port, "GET", "/api/tables/bac-20")[1]
        tile = page.locator("article.tile").filter(has_text="bac-20")
        assert tile.locator(".tally .b").inner_text() == f"B {state['board']['tallies']['banker']}"
        assert tile.locator(".mini-road svg > g[transform]").count() > 0
        # a table closed from the overview leaves it
        page.goto(f"http://127.0.0.1:{port}/pit")
        page.wait_for_function("document.querySelectorAll('article.tile').length === 20")
        page.once("dialog", lambda dialog: dialog.accept())
        page.locator("article.tile").filter(has_text="bac-7").locator(".close").click()
        page.wait_for_function("document.querySelectorAll('article.tile').length === 19")
        assert call(port, "GET", "/api/tables/bac-7")[1]["closed"]
        page.close()
    finally:
        process.send_signal(signal.SIGINT)
        process.communicate(timeout=30)


def test_a_write_whose_answer_is_lost_is_never_kept_twice_and_a_close_is_heard(browser, server):  # noqa: F811
    after = table(server, "clerk-4", decks=8)
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.set_default_timeout(10_000)
    page.goto(f"http://127.0.0.1:{server}/table/clerk-4")
    page.wait_for_function("document.getElementById('left').textContent === '416'")

    def lost(route):  # the coup reaches the server and is kept; its answer never reaches the page
        route.fetch()
        route.abort()

    page.route("**/api/tables/clerk-4/events", lost)
    page.fill("#cards", " ".join(SHOE[0]).upper())  # as a clerk may type it: the server keeps 8s Jd ...
    page.press("#cards", "Enter")
    # the stream shows the coup kept: the page says so and clears the input, so Enter cannot send it twice
    page.wait_for_function("document.getElementById('message').textContent.includes('the answer was lost')")
    assert page.input_value("#cards") == "" and page.locator("#unheard").is_hidden()
    page.unroute("**/api/tables/clerk-4/events")
    page.press("#cards", "Enter")
    page.wait_for_function("document.getElementById('message').textContent.includes('enter the coup')")
    kept = call(server, "GET", f"/api/tables/clerk-4/events?after={after}")[1]["events"]
    assert [e["type"] for e in kept] == ["coup"]  # once
    # a table closed elsewhere: the open page hears it and says so
    call(server, "POST", "/api/tables/clerk-4/events", {"type": "close", "after": after + 1})
    page.wait_for_function("document.getElementById('shoe-line').textContent.includes('table closed')")
    assert "closed" in page.inner_text("#no-shoe")
    page.close()
