"""The pit's two pages in headless Chromium, against the real server: the overview shows every
table, pushed as events are kept, readable from two metres (the cards left and the positive bets
large, above the fold, best first), a stale table looks stale; the clerk's page enters coups as
coups, says why one is refused, and shows the table as it is when another writer came first."""

import http.client
import json
import os
import signal
import subprocess
import sys

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
