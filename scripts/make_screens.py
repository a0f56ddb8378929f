"""The pictures the live-page guide shows: the board over a table and the pit's overview, as
Chromium renders them at 1920 x 1080 from a server on this machine (a throwaway database, real
shuffled shoes). Run: python scripts/make_screens.py  (writes docs/images/board.png and pit.png)."""

import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import http.client
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from analyzer.game.cards import RANKS, VALUES  # noqa: E402
from analyzer.pit.replay import cards_taken  # noqa: E402
from analyzer.game.tableau import PUNTO_BANCO  # noqa: E402


def call(port, method, path, body=None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    connection.request(method, path, None if body is None else json.dumps(body), {"Content-Type": "application/json"})
    answer = connection.getresponse()
    data = json.loads(answer.read())
    connection.close()
    return answer.status, data


WAGERS = [("banker", 100), ("player", 50), ("tie", 10), ("player_pair", 10), ("dragon_7", 25)]


def deal(port, name, seed, coups, wagers=False):
    """``coups`` coups of a shuffled 8-deck shoe (its burn first) dealt to ``name``; with
    ``wagers``, a few placed before each coup (so that its tile shows its results)."""
    rng = random.Random(seed)
    cards = [r + s for r in "A23456789TJQK" for s in "shdc"] * 8
    rng.shuffle(cards)
    after = call(port, "POST", f"/api/tables/{name}/events", {"type": "shoe", "after": 0})[1]["event"]
    burn = VALUES[RANKS.index(cards[0][0])] or 10
    after = call(port, "POST", f"/api/tables/{name}/events", {"type": "burn", "cards": [cards[0]], "face_down": burn,
                                                              "after": after})[1]["event"]
    at = 1 + burn
    for _ in range(coups):
        taken = cards_taken([VALUES[RANKS.index(c[0])] for c in cards[at:at + 6]], PUNTO_BANCO)
        if wagers:
            call(port, "POST", f"/api/tables/{name}/wagers", {"after": after, "wagers": [
                {"player": f"p{k}", "seat": k, "bet": bet, "amount": amount}
                for k, (bet, amount) in enumerate(WAGERS, 1) if rng.random() < 0.7]})
        after = call(port, "POST", f"/api/tables/{name}/events", {"type": "coup", "cards": cards[at:at + taken],
                                                                  "after": after})[1]["event"]
        at += taken


def main():
    from playwright.sync_api import sync_playwright

    folder = tempfile.mkdtemp(prefix="screens-")
    server = subprocess.Popen([sys.executable, "-m", "analyzer", "serve", "--port", "0", "--workers", "1", "--rate", "10000",
                               "--db", f"sqlite:///{folder}/pit.sqlite"], stdout=subprocess.PIPE, text=True, cwd=ROOT,
                              env=os.environ | {"XDG_CACHE_HOME": folder})
    port = int(server.stdout.readline().split(":")[2].split("/")[0])
    try:
        for i in range(1, 13):
            call(port, "POST", "/api/tables", {"name": f"bac-{i}", "rules": "catalog"} | ({"count": "dragon_7_jacobson"} if i == 1 else {}))
            deal(port, f"bac-{i}", i, 64 if i == 1 else 10 + 4 * i, wagers=i % 3 == 1)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"), args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1920, "height": 1080})
            page.goto(f"http://127.0.0.1:{port}/board/bac-1")
            page.wait_for_timeout(1500)
            page.screenshot(path=str(ROOT / "docs" / "images" / "board.png"))
            page.goto(f"http://127.0.0.1:{port}/pit?wall")
            page.wait_for_selector("article.tile .results:not([hidden])")  # the day's results, read after the tiles
            page.screenshot(path=str(ROOT / "docs" / "images" / "pit.png"))
            browser.close()
    finally:
        server.send_signal(signal.SIGINT)
        server.communicate(timeout=30)


if __name__ == "__main__":
    main()
