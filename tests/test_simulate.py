"""The shoe simulator: real cards dealt by the rules, the true remaining shoe at every coup,
reproducible seeds on any workers (local or Dask), and the bettors' sums."""

import json
from fractions import Fraction
from fractions import Fraction as F

import numpy as np
import pytest
from click.testing import CliRunner

from analyzer.routes.batch import evaluate_many
from analyzer.game.cards import RANKS, BaccaratError
from analyzer.cli import cli
from analyzer.game.layout import coup_fields
from analyzer.bets.rulefile import get_rules
from analyzer.questions.simulate import (EV_EDGES, Counter, Deal, burned, counter_summary, counts_bet, deal_coups, histograms,
                               payoffs, per_shoe, placed, remaining_counts, runs_of, shuffled_shoe, simulate, summaries)

from dealer import banker_draws, banker_stands_on_6, deal

CATALOG = get_rules("catalog").value_level()  # the card-level bets: test_card_level_bets_are_paid_by_the_cards
JACOBSON = (0, 0, 0, -1, -1, -1, -1, 2, 2, 0)  # Eliot Jacobson's Dragon 7 count, A..9 and T


def card_names(cards):
    return [RANKS[c // 4] + "shdc"[c % 4] for c in cards]


@pytest.mark.parametrize("rules_name, banker_rule, burn", [("catalog", banker_draws, "face"),
                                                           ("banker-stands-on-6", banker_stands_on_6, "3"),
                                                           ("catalog", banker_draws, "none")])
def test_every_coup_is_dealt_by_the_rules_from_the_true_remaining_shoe(rules_name, banker_rule, burn):
    rules = get_rules(rules_name)
    d = Deal(2, 14, burn)
    cards = np.stack([shuffled_shoe(d, 3, i) for i in range(4)])
    coups = deal_coups(d, rules.tableau, cards)
    left = remaining_counts(cards, coups)
    fields = coup_fields(coups.kinds)
    for shoe in range(4):
        mine = np.flatnonzero(coups.shoe == shoe)
        position = int(burned(d, cards[shoe:shoe + 1])[0])
        for k in mine:
            assert coups.start[k] == position  # coups follow each other with no card lost or reused
            outcome = deal(card_names(cards[shoe, position:position + 6]), banker_rule)
            assert coups.used[k] == outcome["cards"]
            for name in ("player_total", "banker_total", "player_third", "banker_third", "player_pair",
                         "banker_pair", "player_suited", "banker_suited", "winner"):
                assert fields[name][k] == outcome[name], name
            dealt = [card_names([kind])[0] if kind >= 0 else None for kind in coups.kinds[k]]
            player, banker = (list(outcome[f"{side}_hand"]) + [None] for side in ("player", "banker"))
            assert dealt == [player[0], banker[0], player[1], banker[1], player[2], banker[2]]
            counted = np.zeros(52, int)  # the cards not yet out of the shoe, counted one by one
            for card in cards[shoe, position:]:
                counted[card] += 1
            assert (left[k].reshape(52) == counted).all()
            assert len(cards[shoe]) - position > d.cut  # a coup starts only before the cut card
            position += outcome["cards"]
        assert len(cards[shoe]) - position <= d.cut  # and the shoe ends at it


def test_every_bet_is_paid_by_the_cards():
    # Every coup of a few 1-deck shoes: each bet's payoff (value-level bets by the coup's cell,
    # card-level bets by their conditions) against the catalog's pay tables written out
    # independently in test_bets.py, on the dealer's own deal of the cards.
    from test_bets import payoff

    rules = get_rules("catalog")
    d = Deal(1, 6, "none")
    cards = np.stack([shuffled_shoe(d, 9, i) for i in range(40)])
    coups = deal_coups(d, rules.tableau, cards)
    paid = payoffs(rules, coups.kinds)
    for k in range(len(coups.shoe)):
        outcome = deal(card_names(cards[coups.shoe[k], coups.start[k]:coups.start[k] + 6]))
        one_coup = [b for b, bet in enumerate(rules.bets) if bet.series is None]  # across coups: test_wild.py
        assert [float(payoff("catalog", rules.bets[b].id)(outcome)) for b in one_coup] == paid[k, one_coup].tolist()
    assert (paid > 0).any(0).sum() >= 50  # most of these bets won somewhere


def test_burn_rules():
    d = Deal(1, 14, "face")
    cards = np.array([[4 * 9, 1], [4 * 6, 1], [0, 1]])  # a ten, a 7, an ace turned
    assert burned(d, cards).tolist() == [11, 8, 2]
    assert burned(Deal(1, 14, "5"), cards).tolist() == [5, 5, 5]
    assert burned(Deal(1, 14, "none"), cards).tolist() == [0, 0, 0]


def test_counter_counts_the_cards_it_has_seen():
    d = Deal(1, 10, "face")
    cards = np.stack([shuffled_shoe(d, 11, i) for i in range(3)])
    coups = deal_coups(d, CATALOG.tableau, cards)
    counter = Counter("dragon_7", JACOBSON, Fraction(3, 2))
    bets = counts_bet(cards, coups, d, counter)
    tag = {r: JACOBSON[min(r, 9)] for r in range(13)}
    for k in range(len(coups.shoe)):
        shoe, start = coups.shoe[k], coups.start[k]
        turned = cards[shoe, 0]
        down = int(burned(d, cards[shoe:shoe + 1])[0])
        seen = [turned] + list(cards[shoe, down:start])
        running = sum(tag[c // 4] for c in seen)
        unseen = len(cards[shoe]) - len(seen)
        assert bets[k] == (Fraction(52 * running, unseen) >= Fraction(3, 2))


def test_seed_reproduces_on_any_number_of_workers():
    d = Deal(8, 14, "face")
    counter = Counter("dragon_7", JACOBSON, Fraction(4))
    one = simulate(CATALOG, d, 120, 42, counter, workers=1)
    two = simulate(CATALOG, d, 120, 42, counter, workers=2)
    other = simulate(CATALOG, d, 120, 43, counter, workers=1)
    for name in one.tally.__dataclass_fields__:
        assert np.array_equal(getattr(one.tally, name), getattr(two.tally, name)), name
    assert not np.array_equal(one.tally.win, other.tally.win)


def test_dask_cluster_gives_the_same_results():
    distributed = pytest.importorskip("distributed")
    d = Deal(8, 14, "face")
    local = simulate(CATALOG, d, 110, 7, workers=1)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        remote = simulate(CATALOG, d, 110, 7, dask=cluster.scheduler_address)
    for name in local.tally.__dataclass_fields__:
        assert np.array_equal(getattr(local.tally, name), getattr(remote.tally, name)), name


def test_tallies_agree_with_the_exact_evs_of_each_coup():
    """The perfect bettor's sums, rebuilt coup by coup from the batch evaluator's exact EVs."""
    d = Deal(8, 14, "face")
    sim = simulate(CATALOG, d, 60, 5, workers=1)
    cards = np.stack([shuffled_shoe(d, 5, i) for i in range(60)])
    coups = deal_coups(d, CATALOG.tableau, cards)
    batch = evaluate_many(CATALOG, remaining_counts(cards, coups))
    fields = coup_fields(coups.kinds)
    allowed = [placed(bet, coups.shoe, fields) if bet.series else np.ones(len(coups.shoe), bool) for bet in CATALOG.bets]
    positive = [[batch.ev(i, b) for i in range(len(batch)) if batch.ev(i, b) > 0 and allowed[b][i]]
                for b in range(len(CATALOG.bets))]  # a bet across coups only where it may be placed (test_wild.py)
    assert sim.tally.coups == len(coups.shoe)
    assert sim.tally.positive.tolist() == [len(p) for p in positive]
    assert np.allclose(sim.tally.win, [float(sum(p)) for p in positive], rtol=1e-12, atol=1e-12)


def test_dragon_7_with_perfect_information_wins_about_half_a_unit_per_shoe():
    # Dragon 7 (EZ Baccarat), 8 decks, cut card 14 cards from the end: a bettor with perfect
    # information wins on the order of half a unit per shoe; a good count (the unbalanced
    # Dragon 7 count at discountgambling.net, 2012: +0.52 unit per shoe on about 6.8 bets) less.
    sim = simulate(CATALOG, Deal(8, 14, "face"), 400, 2026, Counter("dragon_7", JACOBSON, Fraction(4)), workers=2)
    dragon = next(s for s in summaries(sim) if s.id == "dragon_7")
    counted = counter_summary(sim)
    assert 0.45 < dragon.win_per_shoe < 1.0 and dragon.win_se < 0.06
    assert 0.3 < counted.win_per_shoe < dragon.win_per_shoe  # a counter cannot beat perfect information
    assert 5 < counted.bets_per_shoe < 9 and counted.mean_ev_when_positive > 0
    assert abs(dragon.realized_per_shoe - dragon.win_per_shoe) < 4 * dragon.realized_se


def test_deal_refusals():
    for args, message in [((8, 4, "face"), "at least 5 cards"), ((1, 52, "face"), "beyond the shoe"),
                          ((8, 14, "two"), "^burn is face, none or a number"), ((1, 14, "40"), "no coup before the cut")]:
        with pytest.raises(BaccaratError, match=message):
            Deal(*args)
    with pytest.raises(BaccaratError, match="no bet 'nope'"):
        simulate(CATALOG, Deal(), 1, 1, Counter("nope", JACOBSON, Fraction(4)))


def test_simulate_command_json_and_errors():
    runner = CliRunner()
    result = runner.invoke(cli, ["simulate", "--shoes", "20", "--decks", "2", "--workers", "1", "--format", "json",
                                 "--count", "dragon_7_jacobson", "--bet", "dragon_7", "--trigger", "2.5"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["shoes"], data["decks"], data["cut"], data["burn"], data["seed"]) == (20, 2, 14, "face", 1)
    assert [b["id"] for b in data["bets"]] == [b.id for b in get_rules("catalog").bets]  # every bet, card-level ones too
    assert "left out" not in result.stderr
    assert data["counter"]["trigger"] == "5/2" and data["counter"]["tags"] == list(JACOBSON)
    ev = data["distributions"]["ev"]
    assert sum(ev["counts"]["dragon_7"]) == data["coups"] and len(ev["edges"]) == len(ev["counts"]["dragon_7"]) + 1
    table = runner.invoke(cli, ["simulate", "--shoes", "5", "--decks", "1", "--workers", "1"])
    assert "dragon_7" in table.stdout and "win/shoe" in table.stdout
    named = runner.invoke(cli, ["simulate", "--shoes", "3", "--decks", "1", "--workers", "1", "--format", "json",
                                "--bets", "colour_match,banker"])
    assert [b["id"] for b in json.loads(named.stdout)["bets"]] == ["banker", "colour_match"] and "Note" not in named.stderr
    for args, message in [(["--count", "1,2"], "Error: --count takes 10 integers"),
                          (["--count", "dragon_7_jacobson"], "Error: --count needs --bet"),
                          (["--bet", "dragon_7"], "Error: --bet is the counter's bet"),
                          (["--cut", "3"], "Error: the cut card must leave at least 5 cards"),
                          (["--count", "dragon_7_jacobson", "--bet", "dragon_7", "--trigger", "x"],
                           "Error: not a true count (--trigger): 'x'")]:
        result = runner.invoke(cli, ["simulate", "--shoes", "2", *args])
        assert result.exit_code == 1 and result.output.splitlines()[-1].startswith(message), (args, result.output)


def test_simulate_refuses_an_unreachable_dask_scheduler():
    pytest.importorskip("distributed")
    result = CliRunner().invoke(cli, ["simulate", "--shoes", "2", "--dask", "tcp://127.0.0.1:9"])
    assert result.exit_code == 1
    assert result.output.splitlines()[-1].startswith("Error: cannot reach the Dask scheduler at 'tcp://127.0.0.1:9'")


def test_shoes_that_deal_no_coup_and_extreme_triggers():
    d = Deal(1, 49, "face")  # a coup only when an ace is turned (2 cards burned): most shoes deal none
    sparse = simulate(CATALOG, d, 4, 1, workers=1)
    aces = sum(shuffled_shoe(d, 1, i)[0] // 4 == 0 for i in range(4))
    assert sparse.tally.coups == aces < 4 and all(s.win_per_shoe >= 0 for s in summaries(sparse))
    one = simulate(CATALOG, Deal(8, 14, "face"), 1, 1, Counter("tie", JACOBSON, F(1, 10**22)), workers=1)
    assert summaries(one)[0].win_se is None  # no standard error from one shoe
    assert counter_summary(one).bets_per_shoe > 0
    assert Deal(8, 14, "03").burn == "3"
    with pytest.raises(BaccaratError, match="at most 24 decks"):
        Deal(25, 14, "face")


def test_runs_per_shoe_and_tallies_agree_with_a_coup_by_coup_count():
    """runs_of, per_shoe and histograms (all coups at once) against the loops they replaced."""
    rng = np.random.default_rng(7)
    for _ in range(200):
        n = int(rng.integers(0, 40))
        counts = rng.random(n) < 0.5
        ends = ~counts & (rng.random(n) < 0.4)  # settled_masks: a coup counts or ends, never both
        shoe = np.sort(rng.integers(0, 4, n))
        run, expected = 0, []
        for i in range(n):
            if i and shoe[i] != shoe[i - 1]:
                run = 0
            run = run + 1 if counts[i] else 0 if ends[i] else run
            expected.append(run)
        assert runs_of(counts, ends, shoe).tolist() == expected
        for columns in (1, 3):  # (numpy sums one column pairwise: per_shoe must not)
            values = rng.normal(size=(n, columns))
            summed = np.zeros((5, columns))
            np.add.at(summed, shoe, values)
            assert (per_shoe(values, shoe, 5) == summed).all()  # the same additions, in the same order
        ev = np.concatenate([rng.uniform(-1.5, 1.5, (n, 2)), np.full((n, 1), 1.0)], 1)  # outside the edges, on the last
        one_by_one = [np.bincount(np.clip(np.searchsorted(EV_EDGES, ev[:, b], side="right") - 1, 0, 199), minlength=200)
                      for b in range(3)]
        assert (histograms(ev, EV_EDGES) == np.array(one_by_one).reshape(3, 200)).all()
