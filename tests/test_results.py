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

from analyzer.game.cards import Shoe
from analyzer.cli import cli
from analyzer.pit.results import coup_variance, results, store_results
from analyzer.bets.rulefile import get_rules
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
    # decimal amounts on a bet paying 19 to 20: the stakes' and the payouts' denominators together
    (["Ah", "Ad", "5s", "5h", "Kc", "9d", "3h", "8s", "8c"], {"banker": "12.50", "player": 10}),
    (["Ah", "Ad", "5s", "5h", "Kc", "9d", "3h", "8s", "2c"], {"banker": "2.50", "tie": 1, "player": "0.01"}),
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
    from analyzer.pit.table import place, record, table_spec
    from analyzer.pit.store import Store

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
    from analyzer.pit.protect import deals_from_store, on_standing_coups, wagers_from_store

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
    done = store_results(__import__("analyzer.pit.store", fromlist=["Store"]).Store(url))
    assert data["tables"][0]["win"] == str(done[0].win) and data["total"]["variance"] == str(done[-1].variance)
    assert data["tables"][0]["shown"]["handle"] == f"{float(done[0].handle):.2f}"
    rows = CliRunner().invoke(cli, ["results", "--db", url, "--table", "bac-10", "--format", "csv"]).output.splitlines()
    assert rows[0].startswith("table,wagers,coups,handle,handle (exact),win,win (exact)") and len(rows) == 2
    assert rows[1].startswith(f"bac-10,{done[1].wagers},{done[1].coups},")  # amounts as decimals, then exact
    for args, said in ((["--table", "bac-9"], "no table 'bac-9'"), (["--since", "yesterday"], "--since: a date"),
                       (["--since", "2099-01-01"], "no wager is kept in that period"),
                       (["--since", "2026-11-29", "--until", "2026-11-28"], "is not after --since"),
                       (["--bets", "--format", "csv"], "a CSV file holds one")):
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
    assert client.get("/api/results?since=2026-11-29&until=2026-11-28", headers=watch).status_code == 400
    twice = client.get("/api/results?table=bac-10&table=bac-10", headers=watch).get_json()
    assert [t["table"] for t in twice["tables"]] == ["bac-10"]
    pit.close()


def test_each_coups_variance_is_kept_in_the_store_and_read_again(tmp_path, monkeypatch):
    """Worked out once, kept in the pit's store: a fresh process reads it rather than work it out
    again; the server's tally process keeps the day's as it goes."""
    import multiprocessing

    from sqlalchemy import func, select

    from analyzer.pit import results as module
    from analyzer.web.serving import tally

    store, _ = pit_with_wagers(tmp_path, seed=3, tables=("bac-1",))
    kept = lambda: store.engine.connect().execute(select(func.count()).select_from(store.variances)).scalar()  # noqa: E731
    assert kept() == 0
    context = multiprocessing.get_context("forkserver")  # as the server starts it: the child holds no copy of our end
    theirs, ours = context.Pipe(duplex=False)
    process = context.Process(target=tally, args=(store.target, 0.2, 2**31, theirs), daemon=True)
    process.start()
    theirs.close()
    try:
        deadline = __import__("time").monotonic() + 60
        while kept() == 0 and __import__("time").monotonic() < deadline:
            __import__("time").sleep(0.2)
    finally:
        ours.close()  # the server's end closed, however the server ended: the tally ends
        process.join(timeout=10)
        ended = not process.is_alive()
        process.kill()
        process.join()
    assert ended
    assert kept() > 0  # the tally kept the coups whose wagers are on several bets
    from analyzer.web.pit import ANSWER, results_answer, today

    value, _ = store.answer(ANSWER.format(since=today()))  # and the day's results, as the screens ask for them
    assert json.loads(value) == json.loads(json.dumps(results_answer(store, ["bac-1"], today(), None, 10**6)))
    first = store_results(store)
    module.COUPS.clear(), module.SHOES.clear()
    monkeypatch.setattr(module, "coup_variance", lambda *a: pytest.fail("worked out again, not read"))
    assert [r.data() for r in store_results(store)] == [r.data() for r in first]
    store.close()


def test_the_days_results_are_read_from_the_tally_while_it_keeps_them(tmp_path):
    """The overview's question (every table, since midnight) is answered from what the tally kept,
    while it is fresh; any other question, or a stale answer, is worked out by the server."""
    from analyzer.web.app import create_app
    from analyzer.web.pit import ANSWER, Pit, today

    store, _ = pit_with_wagers(tmp_path, seed=5, tables=("bac-1",))
    store.keep_answer(ANSWER.format(since=today()), json.dumps({"tables": [], "since": today(), "until": None, "kept": 1}))
    pit = Pit(store.url)
    client = create_app(pit=pit).test_client()
    assert client.get(f"/api/results?since={today()}").get_json()["kept"] == 1
    worked = client.get(f"/api/results?since={today()}&table=bac-1").get_json()
    assert "kept" not in worked and worked["tables"][0]["wagers"] > 0
    with store.writer.begin() as connection:  # the tally stopped a while ago: its answer is not read
        connection.execute(store.answers.update().values(at="2000-01-01T00:00:00Z"))
    assert "kept" not in client.get(f"/api/results?since={today()}").get_json()
    pit.close()
    store.close()


def test_many_bets_on_one_coup_and_bets_that_read_too_much_together():
    from analyzer.questions.analysis import analyse

    shoe = Shoe.decks(8)
    # 40 bets on one coup: their settlements past what int64 codes hold, compared as rows
    bets = [b.id for b in CATALOG.bets if not b.card_level and b.series is None][:40]
    evs = {r.bet.id: r for r in analyse(CATALOG.only(bets), shoe)}
    mean, variance, exact = coup_variance(CATALOG, shoe, {b: Fraction(1) for b in bets})
    assert exact and mean == sum(evs[b].ev for b in bets) and 0 < variance < len(bets) * sum(evs[b].variance for b in bets)
    # a bet on five-card poker hands beside the Banker: too much detail to enumerate together, refused
    # before any walk (no gigabytes), the variance an exact upper bound
    start = __import__("time").perf_counter()
    mean, bound, exact = coup_variance(CATALOG, shoe, {"banker": Fraction(25), "jackpot_baccarat": Fraction(5)})
    assert __import__("time").perf_counter() - start < 30 and not exact
    banker, jackpot = (next(r for r in analyse(CATALOG.only(["banker", "jackpot_baccarat"]), shoe) if r.bet.id == b)
                       for b in ("banker", "jackpot_baccarat"))
    assert mean == 25 * banker.ev + 5 * jackpot.ev and bound == 2 * (625 * banker.variance + 25 * jackpot.variance)


def test_wagers_on_bets_across_coups_are_set_aside_until_settled_and_where_closed(tmp_path):
    """A bet across coups (Banker Streak) is settled by the coups after it: while its shoe is in
    play its wagers are set aside; one placed where its rules close it (the pit takes it) is set
    aside too, and the other tables' results stand."""
    from analyzer.pit.table import place, record, table_spec
    from analyzer.pit.store import Store

    store = Store(f"sqlite:///{tmp_path / 'pit.sqlite'}")
    store.create_table(table_spec({"name": "bac-1", "rules": "catalog", "decks": 8, "burn": "none"}))
    after = record(store, "bac-1", {"type": "shoe", "after": 0})["event"]
    coups = dealt(21, 1, decks=8)[0][1][:6]
    for k, (cards, _) in enumerate(coups):
        wagers = [{"player": "ann", "seat": 1, "bet": "banker", "amount": 25}]
        if k in (0, 3):  # coup 1: the streak's rules close it there; coup 4: open or closed as the coups before say
            wagers.append({"player": "bo", "seat": 2, "bet": "banker_streak_1", "amount": 10})
        place(store, "bac-1", {"after": after, "wagers": wagers})
        after = record(store, "bac-1", {"type": "coup", "cards": cards, "after": after})["event"]
    live = store_results(store)[0]
    assert live.wagers == 6 and live.closed + live.unsettled == 2 and live.closed >= 1 and live.outside == 0
    assert live.win == -sum(25 * paid("banker", o) for _, o in coups)
    after = record(store, "bac-1", {"type": "close", "after": after})["event"]  # the shoe is over
    over = store_results(store)[0]
    assert over.closed == live.closed and over.unsettled == 0 and over.outside == 2 - over.closed
    assert over.wagers == 6 + over.outside
    store.close()


def test_results_of_files_of_wagers_and_coups():
    """`baccarat results WAGERS --shoe COUPS`, as `protect` reads them: the same figures as the
    library's from the same files, and one line for what does not go together."""
    from analyzer.pit.protect import deals_from_file, parse_wagers, with_defaults

    args = ["results", "examples/wagers.csv", "--shoe", "examples/pit_coups.txt", "--decks", "2", "--rules", "catalog"]
    data = json.loads(CliRunner().invoke(cli, args + ["--format", "json"]).output)
    deals = deals_from_file(open("examples/pit_coups.txt").read(), CATALOG, Shoe.decks(2), "pit_coups")
    wagers = [with_defaults(w, "pit_coups", "") for w in parse_wagers(open("examples/wagers.csv").read())]
    assert data["tables"][0]["win"] == str(results(wagers, deals)[0].win) and data["tables"][0]["table"] == "pit_coups"
    for extra, said in ((["--db", "sqlite:///x.sqlite"], "--db goes with the pit's database"),
                        (["--since", "2026-01-01"], "--since goes with"), (["--table", "a", "--table", "b"], "a second --table")):
        refused = CliRunner().invoke(cli, args + extra)
        assert refused.exit_code == 1 and refused.output.startswith("Error: ") and said in refused.output, refused.output
    alone = CliRunner().invoke(cli, ["results", "examples/wagers.csv"])
    assert alone.exit_code == 1 and "give WAGERS and --shoe COUPS" in alone.output


def test_a_weeks_results_from_files_of_coups_together_are_the_dealers(tmp_path):
    """`baccarat results WAGERS --shoe A --shoe B` - sixty two-deck shoes in two files, more than
    the 1,000 coups a file once held - gives the results of one file holding them both, and
    the handle and the win of a settlement written here from the dealer's deal."""
    shoes = dealt(56, 60)
    lines = {name: "".join(" ".join(cards) + "\n" for cards, _ in coups) for name, coups in shoes}
    (tmp_path / "a.txt").write_text("".join(f"shoe {name}\n{lines[name]}" for name, _ in shoes[:30]))
    (tmp_path / "b.txt").write_text("".join(f"shoe {name}\n{lines[name]}" for name, _ in shoes[30:]))
    (tmp_path / "week.txt").write_text("".join(f"shoe {name}\n{lines[name]}" for name, _ in shoes))
    rng, rows, settled = random.Random(56), [], []
    for name, coups in shoes:
        for k, (_, outcome) in enumerate(coups, 1):
            for seat in range(rng.randint(0, 2)):
                bet, amount = rng.choice(["banker", "player", "tie", "player_pair"]), rng.choice([5, 25, 100])
                rows.append(f"{name},{k},p{seat},{bet},{amount}")
                settled.append((amount, paid(bet, outcome)))
    (tmp_path / "wagers.csv").write_text("shoe,coup,player,bet,amount\n" + "\n".join(rows) + "\n")
    args = ["results", str(tmp_path / "wagers.csv"), "--decks", "2", "--table", "bac-1", "--format", "json"]
    split = CliRunner().invoke(cli, args + ["--shoe", str(tmp_path / "a.txt"), "--shoe", str(tmp_path / "b.txt")])
    whole = CliRunner().invoke(cli, args + ["--shoe", str(tmp_path / "week.txt")])
    assert split.exit_code == whole.exit_code == 0, split.output + whole.output
    assert json.loads(split.output) == json.loads(whole.output)
    table = json.loads(split.output)["tables"][0]
    assert sum(len(coups) for _, coups in shoes) > 1_000 and table["wagers"] == len(rows)
    assert Fraction(table["handle"]) == sum(amount for amount, _ in settled)
    assert Fraction(table["win"]) == -sum(amount * net for amount, net in settled)
