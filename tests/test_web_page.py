"""The page of `baccarat serve` in headless Chromium, against the real server: a coup dealt by
clicking shows every house edge `baccarat now` prints; typed cards, undo and a new shoe; the
positive bets highlighted; the designer follows an edit to the house edge `baccarat edge`
prints and points at a TOML error's line; nothing is fetched from elsewhere."""

import json
import os
import signal
import subprocess
import sys
from fractions import Fraction

import pytest

from analyzer import get_rules
from analyzer.render import percent

from test_report import chromium
from test_web import DRAGON, cli_json  # DRAGON: the page's own example rule file, as the API tests send it


@pytest.fixture(scope="module")
def server():
    """`baccarat serve --port 0` in a process of its own; its URL. Ctrl-C ends it cleanly."""
    process = subprocess.Popen([sys.executable, "-m", "analyzer", "serve", "--port", "0"], stdout=subprocess.PIPE,
                               text=True, env=os.environ | {"PYTHONUNBUFFERED": "1"})
    try:
        line = process.stdout.readline()
        assert line.startswith("Serving on http://127.0.0.1:"), line
        yield line.split()[2]
    finally:
        process.send_signal(signal.SIGINT)
        process.communicate(timeout=10)
    assert process.returncode == 0


@pytest.fixture(scope="module")
def browser():
    path = chromium()
    if path is None:
        pytest.skip("no Chromium on this machine: install Debian's chromium (apt-get install chromium), as .ci/run does")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is in the test extra: pip install '.[test]'")
    with sync_api.sync_playwright() as p:
        chrome = p.chromium.launch(executable_path=path, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--no-first-run"])
        try:
            yield chrome
        finally:
            chrome.close()


@pytest.fixture
def page(browser, server):
    """The page, fresh (a new context: no saved shoe), its first answer shown; every request it
    makes goes to the server, nowhere else."""
    tab = browser.new_page(viewport={"width": 1400, "height": 900})
    tab.set_default_timeout(10_000)
    requests, errors = [], []
    tab.on("request", lambda r: requests.append(r.url))
    tab.on("pageerror", lambda e: errors.append(str(e)))
    tab.goto(server)
    settled(tab, 0)
    yield tab
    tab.close()
    assert all(url.startswith((server, "data:", "blob:")) for url in requests), requests
    assert errors == []


def settled(page, dealt: int):
    """Wait for the tracker to show the server's answer for ``dealt`` cards."""
    page.wait_for_selector(f"#now-results[data-state=ready][data-dealt='{dealt}']")


def shown(page, column: str) -> dict:
    return page.eval_on_selector_all("#bets tbody tr", f"rows => Object.fromEntries(rows.map(r => "
                                     f"[r.dataset.bet, r.querySelector('.{column}').textContent]))")


def check_screenshot(page, path):
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(path))
    png = path.read_bytes()
    assert png.startswith(b"\x89PNG") and len(png) > 20_000
    print(f"screenshot: {path}")


def test_a_coup_dealt_by_clicking_shows_what_baccarat_now_prints(page, tmp_path):
    for rank in "98K3":
        page.click(f"#card-{rank}")
    settled(page, 4)
    bets = cli_json("now", "--decks", "8", "--dealt", "9,8,K,3")["bets"]
    assert shown(page, "house-edge") == {b["bet"]: percent(Fraction(b["house_edge"])) for b in bets}
    assert shown(page, "ev") == {b["bet"]: percent(Fraction(b["ev"])) for b in bets}
    assert page.inner_text("#cards-left") == "412"
    ranks = page.eval_on_selector_all("#ranks td", "cells => cells.map(c => [c.dataset.rank, c.textContent])")
    assert dict(ranks) == {r: "31" if r in "983K" else "32" for r in "A23456789TJQK"}
    assert page.eval_on_selector_all("#dealt li", "cards => cards.map(c => c.textContent)") == ["9", "8", "K", "3"]
    check_screenshot(page, tmp_path / "tracker.png")


def test_typed_cards_undo_and_a_new_shoe(page):
    page.fill("#deal-input", "5 5")
    page.press("#deal-input", "Enter")
    settled(page, 2)
    assert page.inner_text("#cards-left") == "414" and page.locator("#dealt li").count() == 2
    page.click("#undo")
    settled(page, 1)
    assert page.inner_text("#cards-left") == "415"
    page.fill("#deal-input", "5 X")  # not a card: said under the box, nothing dealt
    page.press("#deal-input", "Enter")
    assert page.inner_text("#deal-error").startswith('"X" is not a card')
    assert page.locator("#dealt li").count() == 1
    page.click("#new-shoe")
    settled(page, 0)
    assert page.inner_text("#cards-left") == "416" and page.locator("#dealt li").count() == 0
    page.click("#restore")
    settled(page, 1)


def test_uploaded_files_are_read_and_sent(page, tmp_path):
    rules, shoe = tmp_path / "dragon.toml", tmp_path / "shoe.json"
    rules.write_text(DRAGON)
    shoe.write_text(json.dumps({"ranks": {rank: 4 for rank in "A23456789TJQK"} | {"9": 1}}))  # a deck less three 9s
    page.fill("#deal-input", "8 K")
    page.press("#deal-input", "Enter")
    settled(page, 2)
    page.set_input_files("#rules-file", str(rules))
    page.wait_for_function("document.querySelectorAll('#bets tbody tr').length === 1")
    page.set_input_files("#shoe-file", str(shoe))
    page.wait_for_function("document.querySelector('#cards-left').textContent === '47'")
    assert page.is_disabled("#rules") and page.is_disabled("#decks")
    bets = cli_json("now", "--rules", str(rules), "--shoe", str(shoe), "--dealt", "8,K")["bets"]
    assert shown(page, "house-edge") == {"dragon_7": percent(Fraction(bets[0]["house_edge"]))}
    page.click("#shoe-file-clear")
    page.wait_for_function("document.querySelector('#cards-left').textContent === '414'")


def test_the_positive_bets_are_highlighted(page):
    page.select_option("#rules", "catalog")
    page.fill("#deal-input", " ".join(["8 9"] * 16))
    page.press("#deal-input", "Enter")
    settled(page, 32)
    now = cli_json("now", "--rules", "catalog", "--decks", "8", "--dealt", ",".join(["8", "9"] * 16))
    positive = now["positive"]  # every bet followed, card-level ones too
    assert "dragon_7" in positive  # the 8s and 9s gone: Dragon 7 is worth betting (Jacobson's count)
    assert page.eval_on_selector_all("#bets tr.positive", "rows => rows.map(r => r.dataset.bet)") == positive
    assert page.eval_on_selector_all("#positive .chip", "chips => chips.map(c => c.dataset.bet)") == positive
    assert page.locator("#left-out").is_hidden()
    page.uncheck("#card-level")
    left_out = len([b for b in get_rules("catalog").bets if b.card_level])
    page.wait_for_selector("#left-out:not([hidden])")
    assert page.inner_text("#left-out").startswith(f"{left_out} card-level bets left out: tick")
    page.check("#card-level")
    page.wait_for_selector("#left-out[hidden]", state="attached")
    page.select_option("#count", "dragon_7_jacobson")
    # running count 16 x 2 + 16 x 2 = 64, with 384 cards (7 5/13 decks) left: 52 x 64 / 384 = 8.67 a deck
    page.wait_for_function("document.querySelector('#true-count').textContent === '+8.67'")
    page.fill("#known", "7=9")  # no seventh card in a coup: the error is shown under the box
    page.wait_for_selector("#known-error:not([hidden])")
    assert page.inner_text("#known-error").startswith("no card position '7'")


def test_a_network_error_says_so(page):
    page.route("**/api/now", lambda route: route.abort())
    page.click("#card-9")
    page.wait_for_selector("#now-error:not([hidden])")
    assert page.inner_text("#now-error").startswith("Network error: cannot reach the baccarat server")


def test_the_designer_follows_an_edit(page, tmp_path):
    from playwright.sync_api import expect

    page.click("#tab-designer")
    page.wait_for_selector("#design-results[data-state=ready]")
    assert page.input_value("#toml") == DRAGON
    assert page.inner_text("#design-edge") == "7.6113%"  # Dragon 7 at 40:1 on 8 decks (Wizard of Odds: 7.61%)
    check_screenshot(page, tmp_path / "designer.png")

    rules = tmp_path / "dragon45.toml"
    rules.write_text(DRAGON.replace("pays = 40", "pays = 45"))
    edge = cli_json("edge", "--rules", str(rules), "--decks", "8")["bets"][0]["house_edge"]
    page.fill("#toml", rules.read_text())
    expect(page.locator("#design-edge")).to_have_text(percent(Fraction(edge)))
    assert page.locator("#catalogue tr.new-bet").count() == 1

    broken = DRAGON.replace('name = "Dragon 7"', 'name = "Dragon 7')  # line 6: a string never closed
    page.fill("#toml", broken)
    page.wait_for_selector("#design-error:not([hidden])")
    assert page.inner_text("#design-error").startswith("line 6 rule file: not valid TOML")
    assert page.eval_on_selector_all("#gutter span.error", "lines => lines.map(n => n.textContent)") == ["6"]
    check_screenshot(page, tmp_path / "designer-error.png")

    page.fill("#toml", DRAGON)
    page.wait_for_selector("#design-error[hidden]", state="attached")
    assert page.locator("#gutter span.error").count() == 0
    with page.expect_download() as download:
        page.click("#download")
    assert download.value.suggested_filename == "rules.toml"
    assert open(download.value.path()).read() == DRAGON


def test_a_pasted_file_opens_on_its_own_bet(page):
    # issue 55: a file that extends the standard rules opens on the bet it adds, not on Banker
    from playwright.sync_api import expect

    page.click("#tab-designer")
    page.wait_for_selector("#design-results[data-state=ready]")
    extended = 'name = "mine"\nextends = "standard"\n' + DRAGON.split("\n", 2)[2].replace('"dragon_7"', '"dragon_8"')
    page.fill("#toml", extended)
    expect(page.locator("#design-name")).to_have_text("Dragon 7 (dragon_8)")
    page.select_option("#design-bet", "banker")  # a bet it extends, chosen: kept while the file is edited
    expect(page.locator("#design-name")).to_have_text("Banker (banker)")
    page.fill("#toml", extended.replace("pays = 40", "pays = 45").replace('"dragon_8"', '"dragon_9"'))  # its own bet renamed
    expect(page.locator("#design-bet option[value=dragon_9]")).to_have_count(1)
    page.wait_for_timeout(600)
    expect(page.locator("#design-name")).to_have_text("Banker (banker)")
    page.fill("#toml", extended.replace('name = "mine"', 'name = "another"'))  # another file: its own bet again
    expect(page.locator("#design-name")).to_have_text("Dragon 7 (dragon_8)")


def test_cards_the_server_refuses_are_not_dealt(page):
    page.fill("#decks", "1")
    page.press("#decks", "Tab")
    page.fill("#deal-input", "A A A A")
    page.press("#deal-input", "Enter")
    page.wait_for_selector("#now-results[data-state=ready][data-dealt='4']")
    page.fill("#deal-input", "A")
    page.press("#deal-input", "Enter")
    page.wait_for_function("document.querySelector('#deal-error').textContent.includes('not dealt')")
    assert "cannot remove A: none left in the shoe" in page.text_content("#deal-error")
    assert page.locator("#dealt li").count() == 4 and page.text_content("#cards-left") == "48"
    page.wait_for_timeout(500)  # the decks typed above wait 300 ms to ask: the cards dealt since asked for them
    assert "(not dealt)" in page.text_content("#deal-error")


def test_a_renamed_bet_is_followed(page):
    page.click("#tab-designer")
    page.wait_for_selector("#design-results[data-state=ready]")
    page.fill("#toml", DRAGON.replace('id = "dragon_7"', 'id = "my_bet"'))
    page.wait_for_function("document.querySelector('#design-name').textContent.includes('my_bet')")
    assert page.is_hidden("#design-error")


def test_with_a_token_the_page_carries_it_to_every_request(browser):
    """`baccarat serve --token`: the page at the printed address works (its requests carry the
    token); without the token the page and the API answer 401."""
    process = subprocess.Popen([sys.executable, "-m", "analyzer", "serve", "--port", "0", "--token", "page-token-123"],
                               stdout=subprocess.PIPE, text=True, env=os.environ | {"PYTHONUNBUFFERED": "1"})
    try:
        address = process.stdout.readline().split()[2]
        assert address.endswith("/?token=page-token-123"), address
        tab = browser.new_page()
        tab.set_default_timeout(10_000)
        tab.goto(address)
        settled(tab, 0)
        tab.click("#card-9")
        settled(tab, 1)
        assert tab.inner_text("#cards-left") == "415"
        bare = address.split("?")[0]
        assert tab.goto(bare).status == 401
        tab.close()
    finally:
        process.send_signal(signal.SIGINT)
        process.communicate(timeout=10)
    assert process.returncode == 0
