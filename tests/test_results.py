"""Each table's results (results.py, `baccarat results`, /api/results): every figure against a
settlement written here from the wagers and the cards (tests/dealer.py deals, these lines pay),
each coup's variance against every ordered deal of small shoes with real suits."""

import json
import math
import random
from collections import Counter
from fractions import Fraction
from itertools import permutations

import pytest
from click.testing import CliRunner

from analyzer.cards import Shoe
from analyzer.cli import cli
from analyzer.results import coup_variance, results, store_results
from analyzer.rulefile import get_rules
from dealer import deal
from test_openapi import validate
from test_protect import RANKS, SUITS, dealt

RED = "hd"


def paid(bet: str, outcome: dict) -> Fraction:
    """What one unit on ``bet`` nets on a coup, as the rules printed on a layout say: Banker
    pays 19 to 20 (5% commission) and Player 1 to 1, both pushing on a tie; Tie 8 to 1; a pair
    11 to 1; Player Red (the Player's first two cards red) 2 to 1."""
    winner = {1: "player", -1: "banker", 0: "tie"}[outcome["winner"]]
    if bet in ("banker", "player"):
        return Fraction(0) if winner == "tie" else (Fraction(19, 20) if bet == "banker" else Fraction(1)) \
            if winner == bet else Fraction(-1)
    if bet == "tie":
        return Fraction(8) if winner == "tie" else Fraction(-1)
    if bet in ("player_pair", "banker_pair"):
        return Fraction(11) if outcome[bet] else Fraction(-1)
    if bet == "player_red":
        first, second = outcome["player_hand"][:2]
        return Fraction(2) if first[1] in RED and second[1] in RED else Fraction(-1)
    raise AssertionError(bet)


def brute(cards: list[str], amounts: dict) -> tuple[Fraction, Fraction]:
    """Mean and variance of the coup's net to the wagers, over every ordered deal of ``cards``."""
    first = second = 0
    count = 0
    for order in permutations(cards, 6):
        outcome = deal(order)
        net = sum(Fraction(a) * paid(b, outcome) for b, a in amounts.items())
        first += net
        second += net * net
        count += 1
    mean = first / count
    return mean, second / count - mean * mean


def shoe_of(cards: list[str]) -> Shoe:
    counts = [[0] * 4 for _ in RANKS]
    for card in cards:
        counts[RANKS.index(card[0])][SUITS.index(card[1])] += 1
    return Shoe(tuple(map(tuple, counts)))


CATALOG = get_rules("catalog")


@pytest.mark.parametrize("cards, amounts", [
    # the Banker and the Player on one coup largely cancel: their joint law, not their variances added
    (["Ah", "Ad", "5s", "5h", "Kc", "9d", "3h", "8s", "8c"], {"banker": 100, "player": 100}),
    (["Ah", "Ad", "5s", "5h", "Kc", "9d", "3h", "8s", "2c"], {"banker": 25, "player": 10, "tie": 5, "player_pair": 5}),
    (["7h", "7d", "7s", "6h", "Qc", "Qd", "4h", "9s", "Tc"], {"player": "12.50", "banker_pair": 5, "player_pair": 1}),
    # a bet that reads suits beside the others: the coup enumerated at the card detail they read together
    (["Ah", "2d", "5s", "5h", "Kc", "9d", "3h", "8s", "Jd"], {"banker": 10, "player_red": 5, "tie": 1}),
])
def test_a_coups_variance_is_its_wagers_joint_law_over_every_deal(cards, amounts):
    amounts = {b: Fraction(a) for b, a in amounts.items()}
    mean, variance, exact = coup_variance(CATALOG, shoe_of(cards), amounts)
    assert exact and (mean, variance) == brute(cards, amounts)
    alone = sum(a * a * coup_variance(CATALOG, shoe_of(cards), {b: a})[1] for b, a in amounts.items())
    assert alone != variance  # the joint law is not the variances added


def pit_with_wagers(tmp_path, seed=7, tables=("bac-2", "bac-10"), shoes=1, decks=2):
    """A pit whose tables dealt shoes by the independent dealer, wagers placed before each coup
    (some on the coming coup, one voided coup); returns the store and, for each wager kept, what
    the test knows of it: table, coup's outcome, bet, amount, the EV the pit kept, and the coup's
    index in its shoe."""
    from analyzer.pit import place, record, table_spec
    from analyzer.store import Store

    store = Store(f"sqlite:///{tmp_path / 'pit.sqlite'}")
    rng = random.Random(seed)
    known = []
    for t, name in enumerate(tables):
        store.create_table(table_spec({"name": name, "rules": "standard", "decks": decks, "burn": "none"}))
        after = 0
        for _, coups in dealt(seed + t, shoes, decks=decks):
            after = record(store, name, {"type": "shoe", "after": after})["event"]
            for k, (cards, outcome) in enumerate(coups):
                wagers = [{"player": f"p{s}", "seat": s, "bet": rng.choice(["banker", "player", "tie", "player_pair",
                                                                             "banker_pair"]),
                           "amount": rng.choice(["5", "25", "100", "12.50"])} for s in range(rng.randint(0, 4))]
                if wagers:
                    kept = place(store, name, {"after": after, "wagers": wagers})
                    known += [(name, outcome, w["bet"], Fraction(w["amount"]), Fraction(kept["ev"][w["bet"]]), k)
                              for w in wagers]
                if k == 5:  # a misdeal: dealt, then voided - the wagers ride on the coup dealt again
                    after = record(store, name, {"type": "coup", "cards": coups[k + 1][0], "after": after})["event"]
                    after = record(store, name, {"type": "void", "after": after})["event"]
                after = record(store, name, {"type": "coup", "cards": cards, "after": after})["event"]
        place(store, name, {"after": after, "wagers": [{"player": "late", "bet": "tie", "amount": 5}]})
    return store, known


def test_a_shifts_results_against_a_settlement_written_apart(tmp_path):
    store, known = pit_with_wagers(tmp_path)
    done = store_results(store)
    assert [r.table for r in done] == ["bac-2", "bac-10", ""]  # natural order, the pit's total last
    for r in done:
        mine = [k for k in known if k[0] == r.table or not r.table]
        assert r.wagers == len(mine) and r.pending == (1 if r.table else 2)
        assert r.handle == sum(k[3] for k in mine)
        assert r.win == -sum(amount * paid(bet, outcome) for _, outcome, bet, amount, *_ in mine)
        assert r.theoretical == -sum(amount * ev for *_, amount, ev, _ in mine)  # the EV the pit kept at each wager
        assert r.hold == r.win / r.handle and r.theoretical_hold == r.theoretical / r.handle
        assert r.bounded == r.outside == 0
    # each coup's variance, on the shoe before it as the test takes the cards out itself
    for t, name in enumerate(("bac-2", "bac-10")):
        variance, shoe = Fraction(0), Shoe.decks(2)
        for k, (cards, _) in enumerate(dealt(7 + t, 1, decks=2)[0][1]):
            amounts = Counter()
            for table, *_, bet, amount, _, coup in known:
                if table == name and coup == k:
                    amounts[bet] += amount
            if amounts:
                variance += coup_variance(get_rules("standard"), shoe, dict(amounts))[1]
            shoe = shoe.without_cards([(RANKS.index(c[0]), SUITS.index(c[1])) for c in cards])
        table = next(r for r in done if r.table == name)
        assert table.variance == variance
        assert table.z == pytest.approx(float((table.win - table.theoretical) / Fraction(math.sqrt(variance))))
    total = done[-1]
    assert total.variance == done[0].variance + done[1].variance
    assert store_results(store, ["bac-10"])[0].data() == done[1].data()
    assert store_results(store, since="2099-01-01") == []
    store.close()


def test_results_of_a_file_of_wagers_equal_the_stores(tmp_path):
    """results() takes wagers and coups from files as game protection does: the same figures."""
    from analyzer.protect import deals_from_store, on_standing_coups, wagers_from_store

    store, _ = pit_with_wagers(tmp_path, seed=11, tables=("t1",))
    wagers = wagers_from_store(store)
    deals = deals_from_store(store)
    assert [r.data() for r in results(on_standing_coups(wagers, deals), deals)] == \
        [r.data() for r in store_results(store)]
    store.close()


def test_the_command_and_the_api_give_the_results(tmp_path):
    from analyzer.web.app import create_app
    from analyzer.web.pit import Pit

    store, _ = pit_with_wagers(tmp_path)
    url = store.url
    store.close()
    shown = CliRunner().invoke(cli, ["results", "--db", url, "--bets"])
    assert shown.exit_code == 0, shown.output
    assert "bac-2" in shown.output and "all tables" in shown.output and "bet by bet" in shown.output
    data = json.loads(CliRunner().invoke(cli, ["results", "--db", url, "--format", "json"]).output)
    assert [t["table"] for t in data["tables"]] == ["bac-2", "bac-10"]
    done = store_results(__import__("analyzer.store", fromlist=["Store"]).Store(url))
    assert data["tables"][0]["win"] == str(done[0].win) and data["total"]["variance"] == str(done[-1].variance)
    assert data["tables"][0]["shown"]["handle"] == f"{float(done[0].handle):.2f}"
    rows = CliRunner().invoke(cli, ["results", "--db", url, "--table", "bac-10", "--format", "csv"]).output.splitlines()
    assert rows[0].startswith("table,wagers,coups,handle,win") and rows[1].startswith("bac-10,") and len(rows) == 2
    for args, said in ((["--table", "bac-9"], "no table 'bac-9'"), (["--since", "yesterday"], "--since: a date"),
                       (["--since", "2099-01-01"], "no wager is kept in that period")):
        refused = CliRunner().invoke(cli, ["results", "--db", url, *args])
        assert refused.exit_code == 1 and refused.output.startswith("Error: ") and said in refused.output, refused.output
    report = tmp_path / "shift"
    made = CliRunner().invoke(cli, ["results", "--db", url, "--report", str(report)])
    assert made.exit_code == 0, made.output
    assert {"report.html", "report.pdf", "report.json"} <= {p.name for p in report.iterdir()}
    assert json.loads((report / "report.json").read_text())["results"]["total"]["win"] == data["total"]["win"]
    pit = Pit(url)
    client = create_app(token="watch-1234", write_token="write-5678", pit=pit).test_client()
    watch = {"Authorization": "Bearer watch-1234"}
    answer = client.get("/api/results", headers=watch)
    assert answer.status_code == 200 and answer.get_json()["total"]["win"] == data["total"]["win"]
    validate(answer.get_json(), "Results")
    one = client.get("/api/tables/bac-10/results?since=2020-01-01T00:00%2B01:00", headers=watch)
    assert one.status_code == 200 and [t["table"] for t in one.get_json()["tables"]] == ["bac-10"]
    validate(one.get_json(), "Results")
    assert client.get("/api/results").status_code == 401
    assert client.get("/api/tables/bac-9/results", headers=watch).status_code == 404
    assert client.get("/api/results?since=soon", headers=watch).status_code == 400
    pit.close()


def test_each_coups_variance_is_kept_in_the_store_and_read_again(tmp_path, monkeypatch):
    """Worked out once, kept in the pit's store: a fresh process reads it rather than work it out
    again; the server's tally process keeps the day's as it goes."""
    import multiprocessing

    from sqlalchemy import func, select

    from analyzer import results as module
    from analyzer.web.serving import tally

    store, _ = pit_with_wagers(tmp_path, seed=3, tables=("bac-1",))
    kept = lambda: store.engine.connect().execute(select(func.count()).select_from(store.variances)).scalar()  # noqa: E731
    assert kept() == 0
    process = multiprocessing.get_context("fork").Process(target=tally, args=(store.target, 0.2, 2**31), daemon=True)
    process.start()
    try:
        deadline = __import__("time").monotonic() + 60
        while kept() == 0 and __import__("time").monotonic() < deadline:
            __import__("time").sleep(0.2)
    finally:
        process.kill()
        process.join()
    assert kept() > 0  # the tally kept the coups whose wagers are on several bets
    first = store_results(store)
    module.COUPS.clear(), module.SHOES.clear()
    monkeypatch.setattr(module, "coup_variance", lambda *a: pytest.fail("worked out again, not read"))
    assert [r.data() for r in store_results(store)] == [r.data() for r in first]
    store.close()
