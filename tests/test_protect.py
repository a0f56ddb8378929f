"""`baccarat protect` (protect.py): tests that know the answer. Shoes are dealt by the independent
dealer (tests/dealer.py) to synthetic players: bettors who ignore the cards, a counter who bets a
side bet when its true count passes a threshold, a counter who bets exactly when the exact EV is
positive, a player who knows the first card's colour and one who knows its rank group (edge
sorting). Each wager's EV must be `now`'s at that state (or `--known`'s for the informed models),
each net the dealer's own settlement; the counters and the informed players flagged with the
model each follows; the bettors who ignore the cards flagged no more often than the level."""

import itertools
import json
import random
from fractions import Fraction

import pytest
from click.testing import CliRunner

from analyzer.questions.analysis import analyse
from analyzer.game.cards import BaccaratError, Shoe, parse_card
from analyzer.cli import cli
from analyzer.game.knowledge import Knowledge
from analyzer.pit.protect import Informed, deals_from_file, parse_wagers, review
from analyzer.bets.rulefile import load_rules

from dealer import deal

RANKS, SUITS = "A23456789TJQK", "shdc"
RULES = """
name = "protect-test"
description = "The standard bets, Dragon 7 and a colour bet"

[counts]
# Eliot Jacobson's count for Dragon 7 (tags for A, 2..9, and every ten-value card)
dragon_7_jacobson = [0, 0, 0, -1, -1, -1, -1, 2, 2, 0]

[[bets]]
id = "banker"
name = "Banker"
commission = "5%"
lines = [{ label = "Banker wins", when = { winner = "banker" }, pays = 1 }, { label = "tie", when = { winner = "tie" }, pays = "push" }]

[[bets]]
id = "player"
name = "Player"
lines = [{ label = "Player wins", when = { winner = "player" }, pays = 1 }, { label = "tie", when = { winner = "tie" }, pays = "push" }]

[[bets]]
id = "tie"
name = "Tie"
lines = [{ label = "Tie", when = { winner = "tie" }, pays = 8 }]

[[bets]]
id = "player_pair"
name = "Player Pair"
lines = [{ label = "Player pair", when = { player_pair = true }, pays = 11 }]

[[bets]]
id = "dragon_7"
name = "Dragon 7"
lines = [{ label = "Banker wins with a three-card 7", when = { winner = "banker", banker_total = 7, banker_cards = 3 }, pays = 40 }]

[[bets]]
id = "player_red"
name = "Player Red"
lines = [{ label = "the Player's two cards red", when = { player_1 = { colour = "red" }, player_2 = { colour = "red" } }, pays = 3 }]
"""
JACOBSON = [0, 0, 0, -1, -1, -1, -1, 2, 2, 0]  # A, 2..9, T; the same count, for the counter here


def true_count(before: Shoe, decks: int = 2) -> Fraction:
    """Jacobson's running count of the cards seen (those gone from a full shoe), per deck left."""
    seen = [full - left for full, left in zip(Shoe.decks(decks).rank_counts(), before.rank_counts())]
    return Fraction(52 * sum(JACOBSON[min(r, 9)] * n for r, n in enumerate(seen)), before.size)


@pytest.fixture(scope="module")
def rules(tmp_path_factory):
    path = tmp_path_factory.mktemp("rules") / "protect.toml"
    path.write_text(RULES)
    return load_rules(str(path))


def paid(bet: str, outcome: dict, cards: list) -> Fraction:
    """What a unit on ``bet`` won on a coup, settled from the dealer's outcome alone."""
    winner = outcome["winner"]
    if bet == "banker":
        return Fraction(0) if winner == 0 else Fraction(19, 20) if winner < 0 else Fraction(-1)
    if bet == "player":
        return Fraction(0) if winner == 0 else Fraction(1) if winner > 0 else Fraction(-1)
    if bet == "tie":
        return Fraction(8) if winner == 0 else Fraction(-1)
    if bet == "player_pair":
        return Fraction(11) if outcome["player_pair"] else Fraction(-1)
    if bet == "dragon_7":
        return Fraction(40) if winner < 0 and outcome["banker_total"] == 7 and outcome["banker_third"] >= 0 else Fraction(-1)
    if bet == "player_red":
        return Fraction(3) if all(c[1] in "hd" for c in outcome["player_hand"][:2]) else Fraction(-1)
    raise AssertionError(bet)


def dealt(seed: int, shoes: int, decks: int = 2, cut: int = 14):
    """Shoes shuffled and dealt by the independent dealer: [(shoe name, [(cards, outcome)])]."""
    rng = random.Random(seed)
    out = []
    for s in range(1, shoes + 1):
        cards = [r + x for r in RANKS for x in SUITS] * decks
        rng.shuffle(cards)
        at, coups = 0, []
        while len(cards) - at > cut:
            outcome = deal(cards[at:at + 6])
            coups.append((cards[at:at + outcome["cards"]], outcome))
            at += outcome["cards"]
        out.append((f"S{s}", coups))
    return out


def coup_file(shoes) -> str:
    return "".join(f"shoe {name}\n" + "".join(" ".join(c) + "\n" for c, _ in coups) for name, coups in shoes)


def moments(shoes, decks: int = 2):
    """(shoe, coup number, cards, outcome, shoe before it) for every coup, the shoe tracked here."""
    for name, coups in shoes:
        shoe = Shoe.decks(decks)
        for i, (cards, outcome) in enumerate(coups, 1):
            yield name, i, cards, outcome, shoe
            shoe = shoe.without_cards([parse_card(c) for c in cards])


def wager_file(rows) -> str:
    return "shoe,coup,player,bet,amount,seat\n" + "".join(f"{s},{c},{p},{b},{a},{seat}\n" for s, c, p, b, a, seat in rows)


def ignorers(shoes, seed: int, players: int, bets=("banker", "player", "tie", "player_pair")):
    """Bettors who ignore the cards: each coup with chance 0.3, a random bet and amount."""
    rng = random.Random(seed)
    rows = []
    for name, i, _, _, _ in moments(shoes):
        for p in range(players):
            if rng.random() < 0.3:
                rows.append((name, i, f"ignorer-{seed}-{p}", rng.choice(bets), rng.choice([5, 10, 25, 100]), p + 1))
    return rows


@pytest.fixture(scope="module")
def table(rules):
    """Six two-deck shoes, the five kinds of players, and the review of their wagers."""
    shoes = dealt(2026, 6)
    rows, evs = [], {}
    for name, i, cards, outcome, before in moments(shoes):
        ev = {r.bet.id: r.ev for r in analyse(rules, before)}
        evs[name, i] = ev
        if true_count(before) >= 4:
            rows.append((name, i, "counter", "dragon_7", 25, 7))
        for bet, value in ev.items():
            if value > 0 and bet != "player_red":
                rows.append((name, i, "perfect", bet, 50, 6))
        if cards[0][1] in "hd":
            rows.append((name, i, "colour", "player_red", 25, 5))
        rows.append((name, i, "colour", "banker", 10, 5))
        rows.append((name, i, "sorter", "player", 100 if cards[0][0] in "789" else 10, 4))
    rows += ignorers(shoes, 1, 3)
    wagers = parse_wagers(wager_file(rows), shoe="")
    deals = deals_from_file(coup_file(shoes), rules, Shoe.decks(2), "")
    return shoes, evs, wagers, deals, review(wagers, deals, Fraction(1, 100), samples=2000)


def test_every_wager_has_nows_ev_and_the_dealers_settlement(table):
    shoes, evs, wagers, deals, result = table
    outcomes = {(name, i): (cards, outcome) for name, i, cards, outcome, _ in moments(shoes)}
    checked = 0
    for player in result.players:
        for p in player.wagers:
            w = p.wager
            assert p.ev == evs[w.shoe, w.coup][w.bet]
            cards, outcome = outcomes[w.shoe, w.coup]
            assert p.net == paid(w.bet, outcome, cards), (w, cards)
            checked += 1
    assert checked == len(wagers)
    ann = next(r for r in result.players if r.player == "sorter")
    assert ann.theoretical == -sum(p.wager.amount * evs[p.wager.shoe, p.wager.coup]["player"] for p in ann.wagers)
    assert ann.realized == -sum(p.wager.amount * paid("player", outcomes[p.wager.shoe, p.wager.coup][1], None)
                                for p in ann.wagers)


def test_the_informed_models_evs_and_innovations_are_knowns(table, rules):
    """An information model's EV of a wager is `--known`'s on the shoe before the coup; its
    innovation, `--known`'s on the full shoe less the EV there."""
    from analyzer.pit.protect import coup_figures

    shoes, _, _, deals, _ = table
    bets = ["player", "player_red"]
    informed = Informed(deals, {"": set(bets)}, "7-9")
    figures = coup_figures("", deals[""], bets)
    full = {r.bet.id: r.ev for r in analyse(rules.only(bets), Shoe.decks(2))}
    for name, i, cards, _, before in list(moments(shoes))[::17]:
        for model, known in (("card", f"1={cards[0]}"), ("colour", "1=" + ("red" if cards[0][1] in "hd" else "black")),
                             ("group", "1=7-9" if cards[0][0] in "789" else "1=A,2,3,4,5,6,T,J,Q,K")):
            given = Knowledge.parse([known])
            expected = {r.bet.id: r.ev for r in analyse(rules.only(bets), before, given)}
            innovation = {r.bet.id: r.ev - full[r.bet.id] for r in analyse(rules.only(bets), Shoe.decks(2), given)}
            for bet in bets:
                assert informed.evs(model, figures[name, i], bet) == expected[bet]
                assert informed.innovation(model, "", tuple(map(parse_card, cards)), bet) == innovation[bet]


def test_counters_and_informed_players_are_flagged_with_their_model(table):
    result = table[4]
    by_name = {r.player: r for r in result.players}
    assert by_name["perfect"].flagged and by_name["perfect"].fits == "counting"
    assert by_name["perfect"].share_positive == 1
    assert by_name["counter"].flagged and by_name["counter"].fits == "counting"
    assert by_name["colour"].flagged and by_name["colour"].fits == "colour"
    assert by_name["sorter"].flagged and by_name["sorter"].fits == "group"
    assert by_name["sorter"].correlation is None or by_name["sorter"].correlation < 0.3  # nothing of it shows in the count
    assert [r.player for r in result.players[:4]] and all(r.flagged for r in result.players[:4])
    assert not any(r.flagged for r in result.players if r.player.startswith("ignorer"))


def sitters(shoes, seed: int, players: int):
    """Bettors who ignore the cards and sit for a run of coups (each coup of it, a flat bet), or
    play three seats at once at scattered coups: the patterns a test of independent wagers would
    take for skill."""
    rng = random.Random(seed)
    rows = []
    for name, coups in shoes:
        for p in range(players):
            if p % 2:
                length = rng.randint(5, len(coups) - 2)
                start = rng.randint(1, len(coups) - length + 1)
                rows += [(name, c, f"sitter-{seed}-{p}", "tie", 10, 1) for c in range(start, start + length)]
            else:
                for c in sorted(rng.sample(range(1, len(coups) + 1), rng.randint(4, 10))):
                    rows += [(name, c, f"seats-{seed}-{p}", "player", 25, seat) for seat in (2, 3, 4)]
    return rows


def test_bettors_who_ignore_the_cards_are_flagged_no_more_often_than_the_level(rules):
    """Over many seeds, 240 bettors who ignore the cards - scattered, sitting for a run, at three
    seats at once - reviewed at the 10% level: flagged at most as often as a binomial(240, 10%)
    exceeds with chance 1 in 1,000 (39)."""
    standard = rules.only(["banker", "player", "tie", "player_pair"])
    flagged = total = 0
    for seed in range(8):
        shoes = dealt(100 + seed, 2)
        rows = ignorers(shoes, seed, 20) + [(s, c, p, b, a, seat) for s, c, p, b, a, seat in sitters(shoes, seed, 10)]
        wagers = parse_wagers(wager_file(rows), shoe="")
        result = review(wagers, deals_from_file(coup_file(shoes), standard, Shoe.decks(2), ""), Fraction(1, 10),
                        samples=500, seed=seed)
        flagged += sum(r.flagged for r in result.players)
        total += len(result.players)
    assert total == 240
    assert flagged <= 39


def test_a_few_wagers_chances_are_counted_exactly(rules):
    """Three wagers on the Tie in a shoe of about 20 coups: the session is coups 3 to 12. Within
    it, the wager at coup 8 may fall at any coup strictly between 3 and 12 (the information
    models' test, here on the EVs); against the simulator's 400 shoes, the three wagers as they
    were (counting's). Few placements: both chances counted exactly, equal to counts here."""
    from analyzer.pit.protect import Columns, placement_chance

    shoes = dealt(7, 1)
    every = list(moments(shoes))
    evs = [{r.bet.id: r.ev for r in analyse(rules, before)}["tie"] for *_, before in every]
    stakes = {3: 10, 8: 25, 12: 30}
    rows = [("S1", coup, "three", "tie", amount, 1) for coup, amount in stakes.items()]
    wagers = parse_wagers(wager_file(rows), shoe="")
    deals = deals_from_file(coup_file(shoes), rules, Shoe.decks(2), "")
    result = review(wagers, deals)
    player = result.players[0]
    within = Fraction(sum(25 * evs[c - 1] >= 25 * evs[8 - 1] for c in range(4, 12)), 8)
    column_of = Columns({("", "S1"): _coups(deals)}, None).of("counting")
    assert placement_chance(player.wagers, column_of, 100, [0]).exact == within
    # counting's test: the same wagers on each of the bank's shoes, dealt by the simulator: 400 of
    # them, few enough to count
    from analyzer.pit.models import BANK_SHOES, Bank, Informed

    grid = Bank(deals, Informed(deals, {"": {"tie"}}, "7-9").rules, 0).evs("")["tie"]
    observed = sum(a * float(evs[c - 1]) for c, a in stakes.items())
    banked = [sum(a * grid[k, c - 1] for c, a in stakes.items()) for k in range(BANK_SHOES)]
    assert player.chance.test == "dealt" and player.chance.factor == 2
    assert player.chance.exact == Fraction(sum(x >= observed - 1e-9 for x in banked), BANK_SHOES)


def _coups(deals):
    from analyzer.pit.protect import coup_figures

    figures = coup_figures("", deals[""], ["tie"])
    return [figures["S1", n] for n in range(1, len(figures) + 1)]


def test_the_command_line_writes_the_review_report_and_workbook(tmp_path, rules):
    shoes = dealt(2026, 6)
    rows = [(name, i, "sorter", "player", 100 if cards[0][0] in "789" else 10, 4) for name, i, cards, _, _ in moments(shoes)]
    (tmp_path / "coups.txt").write_text(coup_file(shoes))
    (tmp_path / "wagers.csv").write_text(wager_file(rows + ignorers(shoes, 3, 2)))
    result = CliRunner().invoke(cli, ["protect", str(tmp_path / "wagers.csv"), "--shoe", str(tmp_path / "coups.txt"),
                                      "--decks", "2", "--report", str(tmp_path / "review"), "--xlsx",
                                      str(tmp_path / "wagers.xlsx"), "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    first = next(p for p in data["players"] if p["player"] == "sorter")
    assert first["flagged"] and first["model"] == "group"
    assert first["coups"] and all(Fraction(c["model_ev"]) > 0 for c in first["coups"])
    for name in ("report.html", "report.pdf", "report.xlsx", "report.json", "charts/sizes-sorter.svg",
                 "charts/win-sorter.svg", "tables/players.csv"):
        assert (tmp_path / "review" / name).stat().st_size > 0, name
    assert (tmp_path / "review" / "report.pdf").read_bytes().startswith(b"%PDF")
    assert (tmp_path / "wagers.xlsx").read_bytes().startswith(b"PK")
    text = CliRunner().invoke(cli, ["protect", str(tmp_path / "wagers.csv"), "--shoe", str(tmp_path / "coups.txt"),
                                    "--decks", "2"]).output
    assert "FLAG: first card 7-9" in text and "sorter" in text


@pytest.mark.parametrize("row, message", [
    ("S1,3,ann,dragon7,10,1", "wagers.csv, line 3: rule set 'standard' has no bet 'dragon7'"),
    ("S1,999,ann,tie,10,1", "wagers.csv, line 3: coup 999 was not dealt (shoe 'S1' has"),
    ("S1,3,ann,tie,-5,1", "wagers.csv, line 3: amount -5 is not positive"),
    ("S1,3,ann,tie,5000000000,1", "wagers.csv, line 3: amount 5000000000 is more than 1,000,000,000"),
    ("S1,3,ann,tie,ten,1", "wagers.csv, line 3: amount 'ten' is not a number"),
    ("S1,0,ann,tie,5,1", "wagers.csv, line 3: coup is the coup's number in its shoe, from 1"),
    ("S9,3,ann,tie,5,1", "wagers.csv, line 3: no shoe 'S9' was dealt (shoes: 'S1')"),
    ("S1,3,ann,tie", "wagers.csv, line 3: 4 values for 6 columns"),
    ("S1,3,ann,tie,1_000,1", "wagers.csv, line 3: amount '1_000' is not a number"),
    ("S1,3,ann,tie,\uff15,1", "wagers.csv, line 3: amount '\uff15' is not a number"),
    ("S1,3,ann,tie,0.00001,1", "wagers.csv, line 3: amount 0.00001 has more than 4 decimal places"),
    ("S1,3,=HYPERLINK(1),tie,5,1", "wagers.csv, line 3: player '=HYPERLINK(1)' begins as a spreadsheet formula does"),
])
def test_bad_wagers_are_refused_by_their_line(tmp_path, row, message):
    shoes = dealt(5, 1)
    (tmp_path / "coups.txt").write_text(coup_file(shoes))
    (tmp_path / "wagers.csv").write_text(wager_file([("S1", 1, "bob", "banker", 10, 2)]) + row + "\n")
    result = CliRunner().invoke(cli, ["protect", str(tmp_path / "wagers.csv"), "--shoe", str(tmp_path / "coups.txt"),
                                      "--decks", "2", "--report", str(tmp_path / "review")])
    assert result.exit_code == 1
    assert result.output.startswith("Error: ") and message in result.output, result.output
    assert len(result.output.strip().splitlines()) == 1
    assert not (tmp_path / "review").exists()  # nothing written half-way


def test_a_coup_file_that_is_not_the_wagers_shoe_is_refused(tmp_path):
    shoes = dealt(5, 1)
    (tmp_path / "coups.txt").write_text(coup_file(shoes))
    (tmp_path / "wagers.csv").write_text("coup,player,bet,amount\n3,ann,tie,10\n")
    runner = CliRunner()
    (tmp_path / "two.txt").write_text(coup_file(shoes + [("S2", shoes[0][1][:3])]))
    result = runner.invoke(cli, ["protect", str(tmp_path / "wagers.csv"), "--shoe", str(tmp_path / "two.txt"), "--decks", "2"])
    assert result.exit_code == 1 and "line 2: the wager names no shoe, and the coups hold 2 shoes" in result.output
    one = runner.invoke(cli, ["protect", str(tmp_path / "wagers.csv"), "--shoe", str(tmp_path / "coups.txt"), "--decks", "1"])
    assert one.exit_code == 1 and one.output.startswith(f"Error: {tmp_path / 'coups.txt'}, line ") and \
        "none left in the shoe" in one.output, one.output  # a two-deck shoe's coups are not one deck's


@pytest.mark.parametrize("level, says", [
    ("1e-9", "the level is a chance, such as 1% or 0.01"), ("inf", "the level is a chance"),
    ("1e-99999999", "the level is a chance"), ("100%", "above 0 and below 1"), ("0", "above 0 and below 1"),
    ("0.1%", "--samples is 2,000: a sampled chance is at least 1 / 2,001"),
])
def test_levels_that_cannot_be_read_or_reached_are_refused_before_the_work(tmp_path, level, says):
    (tmp_path / "coups.txt").write_text(coup_file(dealt(5, 1)))
    (tmp_path / "wagers.csv").write_text("coup,player,bet,amount\n3,ann,tie,10\n")
    result = CliRunner().invoke(cli, ["protect", str(tmp_path / "wagers.csv"), "--shoe", str(tmp_path / "coups.txt"),
                                      "--decks", "2", "--level", level])
    assert result.exit_code == 1 and result.output.startswith("Error: ") and says in result.output, result.output


def test_a_workbook_is_never_left_beside_a_report_that_failed(tmp_path):
    (tmp_path / "coups.txt").write_text(coup_file(dealt(5, 1)))
    (tmp_path / "wagers.csv").write_text("coup,player,bet,amount\n3,ann,tie,10\n")
    args = ["protect", str(tmp_path / "wagers.csv"), "--shoe", str(tmp_path / "coups.txt"), "--decks", "2"]
    inside = CliRunner().invoke(cli, args + ["--report", str(tmp_path / "r"), "--xlsx", str(tmp_path / "r" / "w.xlsx")])
    assert inside.exit_code == 1 and "inside the --report folder" in inside.output
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "notes.txt").write_text("mine")
    refused = CliRunner().invoke(cli, args + ["--report", str(tmp_path / "taken"), "--force", "--xlsx", str(tmp_path / "w.xlsx")])
    assert refused.exit_code == 1 and not (tmp_path / "w.xlsx").exists()


def test_a_bet_across_coups_is_refused_where_its_rules_do_not_let_it_be_placed(tmp_path):
    """Banker Streak is placed only after a coup the Banker did not win (catalog): a wager on it
    after a Banker win is refused by its line; after a Player win it is taken."""
    shoes = dealt(11, 1)
    winners = [o["winner"] for _, o in shoes[0][1]]
    after_banker = next(i + 2 for i, w in enumerate(winners) if w < 0)
    after_player = next(i + 2 for i, w in enumerate(winners) if w > 0)
    (tmp_path / "coups.txt").write_text(coup_file(shoes))
    args = ["protect", str(tmp_path / "wagers.csv"), "--shoe", str(tmp_path / "coups.txt"), "--decks", "2", "--rules", "catalog"]
    (tmp_path / "wagers.csv").write_text(f"coup,player,bet,amount\n{after_player},ann,banker_streak_1,10\n")
    assert CliRunner().invoke(cli, args).exit_code == 0
    (tmp_path / "wagers.csv").write_text(f"coup,player,bet,amount\n{after_player},ann,banker_streak_1,10\n"
                                         f"{after_banker},ann,banker_streak_1,10\n")
    refused = CliRunner().invoke(cli, args)
    assert refused.exit_code == 1 and refused.output.startswith(
        f"Error: {tmp_path / 'wagers.csv'}, line 3: bet 'banker_streak_1' may not be placed before coup {after_banker}")


def test_json_wagers_and_their_errors():
    wagers = parse_wagers('[{"coup": 2, "player": "ann", "bet": "tie", "amount": 12.5, "seat": 3}]', shoe="1")
    assert wagers[0].amount == Fraction(25, 2) and wagers[0].seat == "3"
    with pytest.raises(BaccaratError, match=r"wager file, record 1: amount '1E\+400' is not a number"):
        parse_wagers('[{"coup": 2, "player": "ann", "bet": "tie", "amount": 1e400}]')
    assert parse_wagers('[{"coup": 2, "player": "ann", "bet": "tie", "amount": 2.5e2}]')[0].amount == 250
    with pytest.raises(BaccaratError, match="record 1: a field is given twice"):
        parse_wagers('[{"coup": 2, "player": "ann", "bet": "tie", "amount": 1, "shoe": 1, "Shoe": 2}]')
    with pytest.raises(BaccaratError, match="record 2: no player"):
        parse_wagers('[{"coup": 2, "player": "ann", "bet": "tie", "amount": 1}, {"coup": 2, "bet": "tie", "amount": 1}]')
    with pytest.raises(BaccaratError, match="not valid JSON"):
        parse_wagers('[{"coup": 2,')


# -- wagers from a table system's feed, kept with their EV, reviewed from the pit's database ---------


def post(client, path, body):
    answer = client.post(path, data=json.dumps(body), content_type="application/json")
    return answer.status_code, answer.get_json()


def test_wagers_fed_to_a_table_are_kept_with_their_ev_and_reviewed(tmp_path):
    from analyzer.pit.store import Store
    from analyzer.web import api
    from analyzer.web.app import create_app
    from analyzer.web.pit import Pit

    url = f"sqlite:///{tmp_path / 'pit.sqlite'}"
    pit = Pit(url)
    client = create_app(api.Limits(rate=10_000, burst=10_000), pit=pit).test_client()
    assert post(client, "/api/tables", {"name": "bac-1", "rules": "standard", "decks": 2, "burn": "none"})[0] == 201
    after = 0
    shoes = dealt(2026, 3)
    for number, (_, coups) in enumerate(shoes, 1):
        after = post(client, "/api/tables/bac-1/events", {"type": "shoe", "after": after})[1]["event"]
        shoe = Shoe.decks(2)
        for i, (cards, _) in enumerate(coups, 1):
            ev = {r.bet.id: r.ev for r in analyse("standard", shoe)}
            wagers = [{"player": "sorter", "bet": "player", "amount": 100 if cards[0][0] in "789" else 10, "seat": 4},
                      {"player": "flat", "bet": "banker", "amount": "12.50", "seat": 1}]
            status, kept = post(client, "/api/tables/bac-1/wagers", {"after": after, "wagers": wagers})
            assert status == 201 and (kept["shoe"], kept["coup"]) == (number, i)
            assert Fraction(kept["ev"]["player"]) == ev["player"] and Fraction(kept["ev"]["banker"]) == ev["banker"]
            after = post(client, "/api/tables/bac-1/events", {"type": "coup", "cards": cards, "after": after})[1]["event"]
            shoe = shoe.without_cards([parse_card(c) for c in cards])
    # a wager sent after the coup was dealt: 409, nothing kept; a bad one: 400 naming it, nothing kept
    stale = post(client, "/api/tables/bac-1/wagers", {"after": after - 1, "wagers": [{"player": "x", "bet": "tie", "amount": 5}]})
    assert stale[0] == 409
    bad = post(client, "/api/tables/bac-1/wagers", {"after": after, "wagers": [
        {"player": "x", "bet": "tie", "amount": 5}, {"player": "x", "bet": "dragon7", "amount": 5}]})
    assert bad[0] == 400 and bad[1]["error"].startswith("wager 2: table 'bac-1' deals no bet 'dragon7'")
    kept = list(Store(url, create=False).wager_rows())
    assert len(kept) == 2 * sum(len(coups) for _, coups in shoes) and all(r["player"] != "x" for r in kept)
    assert kept[1]["amount"] == "12.5"
    answer = client.get("/api/protect?level=5%25")
    assert answer.status_code == 200, answer.get_json()
    players = answer.get_json()["players"]
    assert [p["player"] for p in players] == ["sorter", "flat"]
    assert players[0]["flagged"] and players[0]["model"] == "group"
    assert client.get("/api/protect?table=bac-9").status_code == 404
    empty = client.get("/api/protect?since=2099-01-01")
    assert empty.status_code == 200 and empty.get_json()["players"] == []
    assert client.get("/protect").status_code == 200
    pit.close()
    # the command line reads the same wagers and the same shoes from the database
    result = CliRunner().invoke(cli, ["protect", "--db", url, "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["players"][0]["player"] == "sorter" and data["players"][0]["model"] == "group"
    evs = {(w["shoe"], w["coup"], w["bet"]): w["ev"] for p in data["players"] for w in p["wager_list"]}
    assert all(evs[str(r["shoe"]), r["coup"], r["bet"]] == r["ev"] for r in kept)  # the EV kept is the EV reviewed
    refused = CliRunner().invoke(cli, ["protect", "--db", url, "--rules", "catalog"])
    assert refused.exit_code == 1 and "leave out --rules" in refused.output


def test_a_review_of_the_store_a_part_of_the_players_at_a_time_gives_the_same_figures(tmp_path):
    """A month of a pit is reviewed a part of the players at a time (protect.review_store): one
    player a part here, against all at once - the same players, figures, chances and flags."""
    from analyzer.pit.table import place, record, table_spec
    from analyzer.pit.protect import review_store
    from analyzer.pit.store import Store

    store = Store(f"sqlite:///{tmp_path / 'pit.sqlite'}")
    for table in ("t1", "t2"):
        store.create_table(table_spec({"name": table, "rules": "standard", "decks": 2, "burn": "none"}))
    rng, last = random.Random(3), {}
    for t, table in enumerate(("t1", "t2")):
        after = 0
        for name, coups in dealt(40 + t, 2):
            after = record(store, table, {"type": "shoe", "after": after})["event"]
            for cards, _ in coups:
                wagers = [{"player": "sorter", "bet": "player", "amount": 100 if cards[0][0] in "789" else 10, "seat": 1}]
                wagers += [{"player": f"p{k}", "bet": rng.choice(["banker", "tie"]), "amount": 5, "seat": k + 2}
                           for k in range(3) if rng.random() < 0.5]
                place(store, table, {"after": after, "wagers": wagers})
                after = record(store, table, {"type": "coup", "cards": cards, "after": after})["event"]
        last[table] = after
    place(store, "t1", {"after": last["t1"], "wagers": [{"player": "late", "bet": "tie", "amount": 5}]})  # the coming coup

    def figures(review):
        return [(r.player, r.wagered, r.amount, r.theoretical, r.realized, r.flagged, r.fits,
                 [(m.name, m.chance.value) for m in r.models]) for r in review.players]

    whole, parts = review_store(store), review_store(store, part=1)
    assert figures(parts) == figures(whole) and whole.coups == parts.coups and whole.pending == parts.pending == 1
    assert whole.players[0].player == "sorter" and whole.players[0].fits == "group"
    assert [len(r.wagers) for r in parts.players if not r.flagged] == [0, 0, 0]  # a part forgets who is not flagged
    store.close()


def test_players_who_change_their_play_but_ignore_the_cards_are_not_taken_for_counters(rules):
    """On 8-deck shoes, whose EV drifts slowly through the shoe: players who ignore the cards but
    sit for two runs with a break between, or raise their stake once half-way, reviewed at the
    10% level over several seeds - flagged at most as often as a binomial(160, 10%) exceeds with
    chance 1 in 1,000 (29). (A test that took a pattern apart, coup by coup, flagged 34 of them.)"""
    standard = rules.only(["banker", "player", "tie", "player_pair"])
    flagged = total = 0
    for seed in range(8):
        shoes = dealt(500 + seed, 1, decks=8)
        rng = random.Random(seed)
        n = len(shoes[0][1])
        rows = []
        for p in range(20):
            if p % 2:  # two runs and a break
                a = rng.randint(1, n // 3)
                b = rng.randint(a + 3, n // 2)
                c = rng.randint(b + 5, n - 5)
                coups = list(range(a, b + 1)) + list(range(c, rng.randint(c + 2, n) + 1))
                rows += [("S1", k, f"break-{seed}-{p}", "banker", 25, 1) for k in coups]
            else:  # a run, the stake raised half-way
                length = rng.randint(10, n - 2)
                start = rng.randint(1, n - length + 1)
                rows += [("S1", k, f"ramp-{seed}-{p}", "tie", 10 if k < start + length // 2 else 200, 1)
                         for k in range(start, start + length)]
        result = review(parse_wagers(wager_file(rows), shoe=""), deals_from_file(coup_file(shoes), standard,
                        Shoe.decks(8), ""), Fraction(1, 10), samples=500, seed=seed)
        flagged += sum(r.flagged for r in result.players)
        total += len(result.players)
    assert total == 160 and flagged <= 29, flagged


# -- a table's week from files: shoes of any number, in several files (issue 55) ---------------------


@pytest.fixture(scope="module")
def week(tmp_path_factory):
    """Sixty two-deck shoes dealt by the independent dealer (more than 1,000 coups: a file once
    held at most that many), in one file and in three; players who ignore the cards, and the
    sorter at eight of the shoes; the review of one file and the replay of it, as JSON."""
    folder = tmp_path_factory.mktemp("week")
    shoes = dealt(55, 60)
    (folder / "week.txt").write_text(coup_file(shoes))
    for part in range(3):
        (folder / f"part{part + 1}.txt").write_text(coup_file(shoes[part * 20:(part + 1) * 20]))
    rows = ignorers(shoes, 5, 2) + [(name, i, "sorter", "player", 100 if cards[0][0] in "789" else 10, 4)
                                    for name, i, cards, _, _ in moments(shoes) if int(name[1:]) <= 8]
    (folder / "wagers.csv").write_text(wager_file(rows))
    args = ["protect", str(folder / "wagers.csv"), "--decks", "2", "--level", "10%", "--samples", "500", "--format", "json"]
    whole = CliRunner().invoke(cli, args + ["--shoe", str(folder / "week.txt")])
    assert whole.exit_code == 0, whole.output
    coups = []  # the replay of the week, a shoe at a time (a replay shows at most 1,000 coups at once)
    for number in range(1, len(shoes) + 1):
        replayed = CliRunner().invoke(cli, ["replay", str(folder / "week.txt"), "--decks", "2", "--format", "json",
                                            "--shoe-number", str(number)])
        assert replayed.exit_code == 0, replayed.output
        coups += json.loads(replayed.output)["coups"]
    return folder, shoes, rows, args, json.loads(whole.output), {"coups": coups}


def test_a_week_of_shoes_in_one_file_is_reviewed_as_the_replay_and_the_dealer_have_it(week):
    """Every wager of the sixty shoes has the EV `replay` gives before its coup (replay works each
    coup out alone, the review all at once), the cards and the net of the dealer's own deal and
    settlement; every coup is counted, and the sorter is flagged with his model."""
    _, shoes, rows, _, review_data, replayed = week
    outcomes = {(name, i): (cards, outcome) for name, i, cards, outcome, _ in moments(shoes)}
    evs = {(c["shoe"], c["coup"], b["bet"]): b["ev"] for c in replayed["coups"] for b in c["bets"]}
    wagers = [w for p in review_data["players"] for w in p["wager_list"]]
    assert len(wagers) == len(rows) and review_data["coups"] == len(outcomes) > 1_000
    for w in wagers:
        cards, outcome = outcomes[w["shoe"], w["coup"]]
        assert w["ev"] == evs[w["shoe"], w["coup"], w["bet"]] and w["cards"] == cards
        assert Fraction(w["net"]) == paid(w["bet"], outcome, cards), w
    sorter = next(p for p in review_data["players"] if p["player"] == "sorter")
    assert sorter["flagged"] and sorter["model"] == "group"


def test_files_of_coups_together_give_the_review_of_one_file_holding_them(week, tmp_path):
    """A week in three files of coups (--shoe repeated, or comma-separated) is reviewed as the one
    file holding them all: the same JSON, figure for figure, and the same report's figures."""
    folder, _, _, args, whole, _ = week
    parts = [str(folder / f"part{n}.txt") for n in (1, 2, 3)]
    repeated = CliRunner().invoke(cli, args + [w for part in parts for w in ("--shoe", part)])
    assert repeated.exit_code == 0, repeated.output
    assert json.loads(repeated.output) == whole
    listed = CliRunner().invoke(cli, args + ["--shoe", ",".join(parts[:2]), "--shoe", parts[2],
                                             "--report", str(tmp_path / "review")])
    assert listed.exit_code == 0, listed.output
    assert json.loads(listed.output) == whole
    report = json.loads((tmp_path / "review" / "report.json").read_text())
    assert report["review"]["players"] == whole["players"]
    assert all(f"--shoe {part}" in report["command"] for part in parts)


@pytest.mark.parametrize("files, says", [
    ({"a.txt": "shoe 1\n{S1}", "b.txt": "shoe 2\n{S2}shoe 1\n{S3}"},
     "b.txt: shoe '1' is dealt in {dir}/a.txt too (a table's shoes are named once each"),
    ({"a.txt": "# nothing yet\n", "b.txt": "shoe 1\n{S1}"}, "a.txt: no coup (one a line"),
    ({"a.txt": "shoe 2\n" + "8c 3c 7h 5c\n" * 1_001, "b.txt": "shoe 1\n{S1}"},
     "a.txt, line 1002: shoe '2' has more than 1,000 coups"),
    ({"a.txt": "shoe 2\n{S2}{S2}", "b.txt": "shoe 1\n{S1}"}, "a.txt, line "),  # a card not left: by its line
])
def test_files_of_coups_that_do_not_make_one_tables_shoes_are_refused_in_one_line(tmp_path, files, says):
    """Each file of coups is read and checked, shoe by shoe, before anything is worked out or
    written: a shoe named in two files, a file with no coup, a shoe too long or a coup that
    could not be dealt, each said in one line naming its file."""
    shoes = dict((name, "".join(" ".join(c) + "\n" for c, _ in coups)) for name, coups in dealt(9, 3))
    for name, text in files.items():
        (tmp_path / name).write_text(text.format(**shoes))
    (tmp_path / "wagers.csv").write_text("shoe,coup,player,bet,amount\n1,1,ann,tie,10\n")
    result = CliRunner().invoke(cli, ["protect", str(tmp_path / "wagers.csv"), "--decks", "2", "--report",
                                      str(tmp_path / "review")] + [w for name in files for w in ("--shoe", str(tmp_path / name))])
    assert result.exit_code == 1 and result.output.count("\n") == 1, result.output
    assert result.output.startswith("Error: ") and says.format(dir=tmp_path) in result.output, result.output
    assert not (tmp_path / "review").exists()  # nothing written half-way


def test_only_the_shoes_wagered_on_are_kept_whole(rules):
    """deals_from_file keeps the coups of the shoes the wagers name (the others by their name): a
    review of the wagers is the same as with every shoe kept."""
    shoes = dealt(31, 6)
    text = coup_file(shoes)
    standard = rules.only(["banker", "player", "tie", "player_pair"])
    rows = [r for r in ignorers(shoes, 4, 3) if r[0] in ("S2", "S5")]
    wagers = parse_wagers(wager_file(rows), shoe="")
    kept = deals_from_file(text, standard, Shoe.decks(2), "", wanted={"S2", "S5"})
    every = deals_from_file(text, standard, Shoe.decks(2), "")
    assert [(s.name, len(s.coups)) for s in kept[""].shoes] == [(name, len(coups) if name in ("S2", "S5") else 0)
                                                               for name, coups in shoes]

    def figures(review):
        return [(r.player, r.amount, r.theoretical, r.realized, [(m.name, m.chance.value) for m in r.models])
                for r in review.players]

    assert figures(review(wagers, kept, samples=2000)) == figures(review(wagers, every, samples=2000))
