"""Effect of removal, count systems and the shoe in play."""

import json
import random
from fractions import Fraction as F

import numpy as np
import pytest
from click.testing import CliRunner

from analyzer.routes.counts import evaluate
from analyzer.game.cards import RANKS, BaccaratError, Shoe, parse_dealt, shoe_in_play
from analyzer.cli import cli
from analyzer.bets.counting import betting_correlation, derive_tags, linear_slope, tag_weights
from analyzer.game.engine import closed_form
from analyzer.questions.eor import effect_of_removal
from analyzer.game.knowledge import Knowledge
from analyzer.bets.rulefile import get_rules
from analyzer.views.edge import now

from test_engine import random_shoe

EIGHT = Shoe.decks(8)
CATALOG = get_rules("catalog").value_level()  # fast on 8 decks; the card-level bets on smaller shoes
JACOBSON_DRAGON_7 = [0, 0, 0, -1, -1, -1, -1, 2, 2, 0]  # Eliot Jacobson's Dragon 7 count, A..9, T


def uncached_evs(rules, shoe):
    """EV of each bet by a fresh enumeration (no cache, no suit canonicalisation)."""
    dist = closed_form(shoe, rules.tableau, np.int64)
    return {bet.id: evaluate(bet, dist).ev for bet in rules.bets}


@pytest.mark.parametrize("seed", range(4))
def test_sum_rule_holds_exactly_on_random_shoes(seed):
    rng = random.Random(seed)
    shoe = random_shoe(rng, rng.randint(20, 60))
    rules = get_rules("catalog") if seed < 2 else CATALOG
    removal = effect_of_removal(rules, shoe)  # card-level bets too
    across = {b.id for b in rules.bets if b.series is not None}  # bets across coups: no sum rule (test_wild.py)
    for key in removal.base:
        assert (removal.check_sum(key) == 0) is (key not in across), key
    for key in removal.outcomes.base:
        assert removal.outcomes.check_sum(key) == 0, key


@pytest.mark.parametrize("seed, rules", [(0, "catalog"), (1, "catalog"), (2, "banker-stands-on-6")])
def test_eor_by_the_compiled_plan_is_the_enumerators(seed, rules):
    # Every shoe a removal leaves, evaluated in one batch by the polynomials, against the
    # enumerator shoe by shoe: card-level bets, bets on named suits, uneven suits, outcomes, and
    # another tableau (who wins is counted under the rule set's own).
    rng = random.Random(100 + seed)
    shoe = random_shoe(rng, rng.randint(40, 90))
    rules = get_rules(rules)
    fast, slow = (effect_of_removal(rules, shoe, by_plan=by_plan) for by_plan in (True, False))
    assert fast.base == slow.base and fast.by_rank == slow.by_rank and fast.weights == slow.weights
    assert fast.outcomes.base == slow.outcomes.base and fast.outcomes.by_rank == slow.outcomes.by_rank
    assert list(fast.base) == [bet.id for bet in rules.bets]  # in the rule set's order, bets on suits too
    assert all(list(eor) == list(fast.base) for eor in fast.by_rank if eor is not None)


def test_eor_with_known_cards_is_enumerated_whatever_is_asked():
    known = Knowledge.parse(["1=8"])
    fast, slow = (effect_of_removal(get_rules("standard"), Shoe.decks(1), knowledge=known, by_plan=by_plan)
                  for by_plan in (True, False))
    assert fast.base == slow.base and fast.by_rank == slow.by_rank and fast.check_sum("banker") == 0


def test_each_eor_is_the_difference_of_two_full_enumerations():
    rules = get_rules("standard")
    removal = effect_of_removal(rules, EIGHT)
    base = uncached_evs(rules, EIGHT)
    for rank in range(13):
        after = uncached_evs(rules, EIGHT.without_card(rank, 0))
        assert {k: after[k] - base[k] for k in base} == {k: removal.by_rank[rank][k] for k in base}


def test_eor_with_uneven_suits_averages_over_the_suits_left():
    keys = ("perfect_pair", "banker", "egalite_2", "colour_match", "lucky_nines", "jackpot_baccarat")
    rules = get_rules("catalog").only(keys)  # colour_match and lucky_nines read named suits and colours
    shoe = Shoe.decks(1).without_cards([(0, 0), (0, 1), (4, 2), (9, 3), (12, 0)])
    removal = effect_of_removal(rules, shoe)
    base = uncached_evs(rules, shoe)
    rank = 0  # two aces left, of suits d and c
    diffs = [uncached_evs(rules, shoe.without_card(rank, s)) for s in (2, 3)]
    for key in keys:
        assert removal.by_rank[rank][key] == ((diffs[0][key] - base[key]) + (diffs[1][key] - base[key])) / 2


def test_known_sign_pattern_eight_decks():
    # Removing a 4 helps Banker more than any other rank; removing a 6 helps Player most
    # (Wizard of Odds, "Baccarat - Effect of Removal", 8 decks).
    removal = effect_of_removal(get_rules("standard"), EIGHT)
    banker = [e["banker"] for e in removal.by_rank]
    player = [e["player"] for e in removal.by_rank]
    assert RANKS[banker.index(max(banker))] == "4"
    assert RANKS[player.index(max(player))] == "6"
    assert all(e["player_pair"] == 0 for e in removal.by_rank)  # symmetric: every rank's removal is alike
    assert removal.zero_class("banker") == removal.by_rank[9]["banker"]


def test_dragon_7_count_correlates_with_the_exact_eor():
    removal = effect_of_removal(CATALOG, EIGHT)
    eors, weights = removal.tag_eors("dragon_7"), tag_weights(EIGHT)
    assert betting_correlation(JACOBSON_DRAGON_7, eors, weights) > F(95, 100)
    derived = derive_tags(eors, weights)
    assert derived[1]["tags"] == JACOBSON_DRAGON_7 and derived[1]["imbalance"] == 0  # level 2 is Jacobson's count
    assert [d["bc"] for d in derived][-1] > derived[0]["bc"]


# Advanced Advantage Play, "Baccarat Side Bets" (8 decks, tags A..9, T): 3 Giving 8 (200 to 1),
# "Use tags: (1, 1, -3, 1, 1, 1, 1, -8, 1, 1)", a level-8 count.
THREE_GIVING_EIGHT_AAP = [1, 1, -3, 1, 1, 1, 1, -8, 1, 1]


def test_level_8_tags_for_3_giving_8_are_the_published_ones():
    rules = get_rules("catalog").only(["three_giving_eight"])
    removal = effect_of_removal(rules, EIGHT)
    eors, weights = removal.tag_eors("three_giving_eight"), tag_weights(EIGHT)
    derived = derive_tags(eors, weights, range(1, 21))
    assert [d["level"] for d in derived] == list(range(1, 21))
    assert derived[7]["tags"] == THREE_GIVING_EIGHT_AAP and derived[7]["imbalance"] == 0
    assert list(dict(get_rules("catalog").count_systems)["three_giving_eight_aap"]) == THREE_GIVING_EIGHT_AAP
    for d in derived:  # the 8, whose removal hurts the bet most, takes the level's largest tag
        assert d["tags"][7] == -d["level"] == -max(map(abs, d["tags"])) and d["imbalance"] == 0
        assert d["bc"] == betting_correlation(d["tags"], eors, weights)
        assert abs(float(d["bc"]) - weighted_correlation(d["tags"], eors, weights)) < 1e-12
    assert max(d["bc"] for d in derived) > derived[7]["bc"] > F(995, 1000) > derived[0]["bc"]


def weighted_correlation(tags, eors, weights):
    """The count-weighted correlation in floats, written apart from counting.betting_correlation."""
    w, t, e = (np.array(a, dtype=float) for a in (weights, tags, [float(x) for x in eors]))
    mt, me = np.average(t, weights=w), np.average(e, weights=w)
    return float(np.sum(w * (t - mt) * (e - me)) / np.sqrt(np.sum(w * (t - mt) ** 2) * np.sum(w * (e - me) ** 2)))


def test_count_levels_on_the_command_line():
    out = CliRunner().invoke(cli, ["count", "--rules", "catalog", "--bet", "three_giving_eight", "--levels", "8,1-2",
                                   "--format", "json"])
    rows = json.loads(out.output)["counts"]
    assert [row["level"] for row in rows] == [8, 1, 2] and rows[0]["tags"] == THREE_GIVING_EIGHT_AAP
    for args, message in [(["--levels", "21"], "Error: --levels: '21' is no level or range of levels from 1 to 20\n"),
                          (["--levels", "0-3"], "Error: --levels: '0-3' is no level or range of levels from 1 to 20\n"),
                          (["--levels", "3-1"], "Error: --levels: '3-1' is no level or range of levels from 1 to 20\n"),
                          (["--levels", "8.5"], "Error: --levels takes levels from 1 to 20 and ranges of them, e.g. 8 "
                                                "or 1-6,8 (got '8.5')\n"),
                          (["--levels", "\uff18"], "Error: --levels takes levels from 1 to 20 and ranges of them, e.g. 8 "
                                                   "or 1-6,8 (got '\uff18')\n"),
                          (["--levels", "8", "--tags", "three_giving_eight_aap"],
                           "Error: --levels chooses the tag sets to derive: it takes no --tags\n")]:
        result = CliRunner().invoke(cli, ["count", "--rules", "catalog", "--bet", "three_giving_eight", *args])
        assert (result.exit_code, result.output) == (1, message), args
    with pytest.raises(BaccaratError, match="from 1 to 20"):
        derive_tags([F(1)] * 10, [4] * 10, [21])


@pytest.mark.parametrize("bet", ["banker", "player", "tie", "dragon_7", "panda_8", "lucky_6", "big"])
def test_derived_counts_are_balanced_and_correlated(bet):
    removal = effect_of_removal(CATALOG, EIGHT)
    eors, weights = removal.tag_eors(bet), tag_weights(EIGHT)
    derived = derive_tags(eors, weights)
    for d in derived:
        assert d["imbalance"] == 0 and sum(w * t for w, t in zip(weights, d["tags"])) == 0
    assert max(d["bc"] for d in derived) > F(98, 100)


def test_betting_correlation_of_the_eor_itself_is_one():
    eors = [F(1), F(-2), F(3), F(1, 2), F(0), F(-1), F(2), F(-3, 2), F(1), F(-1, 4)]
    weights = [4] * 9 + [16]
    assert abs(betting_correlation(eors, eors, weights) - 1) < F(1, 10**20)


def test_linear_estimate_tracks_the_exact_edge():
    """Deal 12 eights and nines (running count +24); the linear estimate at that true count is close
    to the exact edge of the shoe left."""
    rules = CATALOG
    removal = effect_of_removal(rules, EIGHT)
    eors, weights = removal.tag_eors("dragon_7"), tag_weights(EIGHT)
    slope = linear_slope(eors, JACOBSON_DRAGON_7, weights, EIGHT.size)
    dealt = [(r, None) for r in (7, 8) for _ in range(6)]
    left = EIGHT.without_cards(dealt)
    true_count = F(24) / F(left.size, 52)  # running count per deck left
    exact = uncached_evs(rules, left)["dragon_7"]
    estimate = removal.base["dragon_7"] + slope * true_count
    assert exact > removal.base["dragon_7"] and estimate > removal.base["dragon_7"]
    assert abs(estimate - exact) < abs(exact - removal.base["dragon_7"]) / 4


def test_now_is_the_edge_of_the_remaining_shoe():
    dealt = parse_dealt("5,K,9\nQ, 3  # first coup\n\nAh\n")
    assert dealt == [(4, None), (12, None), (8, None), (11, None), (2, None), (0, 1)]
    view = now(get_rules("standard"), EIGHT, dealt)
    left = EIGHT.without_cards(dealt)
    assert view.data["shoe"]["cards"] == 410
    assert [b["ev"] for b in view.data["bets"]] == list(uncached_evs(get_rules("standard"), left).values())


def test_now_flags_positive_bets():
    rich_in_8_and_9 = Shoe.decks(1).without_cards([(r, None) for r in (3, 4, 5, 6) for _ in range(4)])
    view = now(CATALOG, rich_in_8_and_9, [])
    positive = view.data["positive"]
    assert positive and all(F(b["ev"]) > 0 for b in view.data["bets"] if b["bet"] in positive)
    assert all(F(b["ev"]) <= 0 for b in view.data["bets"] if b["bet"] not in positive)
    assert "Positive expectation: " + ", ".join(positive) in view.title


def test_shoe_in_play_errors():
    with pytest.raises(BaccaratError, match="cannot remove A: none left"):
        shoe_in_play(Shoe.decks(1), [(0, None)] * 5)
    with pytest.raises(BaccaratError, match="at least 6 cards"):
        shoe_in_play(Shoe.decks(1), [(r, None) for r in range(13) for _ in range(4)][:47])


def test_eor_json_contract():
    out = CliRunner().invoke(cli, ["eor", "--rules", "catalog", "--format", "json"])
    assert out.exit_code == 0
    data = json.loads(out.output)
    assert data["rules"] == "catalog"
    ids = [b["bet"] for b in data["bets"]]
    assert ids[:5] == ["banker", "player", "tie", "player_pair", "banker_pair"] and "dragon_7" in ids
    for b in data["bets"]:
        assert set(b["eor"]) == set(RANKS)
        assert F(b["sum_check"]) == 0 if not b["bet"].startswith("banker_streak") else b["sum_check"] is None
        if b["sum_check"] is not None:  # the sum rule, from the JSON's exact values
            assert sum(32 * F(v) for v in b["eor"].values()) == 0
    assert [o["outcome"] for o in data["outcomes"]] == ["banker", "player", "tie"]


def test_remove_pairs_exact_against_two_enumerations():
    out = CliRunner().invoke(cli, ["eor", "--remove-pairs", "--bet", "banker", "--decks", "2", "--format", "json"])
    pairs = {p["ranks"]: p for p in json.loads(out.stdout)["pairs"]}  # the progress bar is on stderr
    assert len(pairs) == 91
    rules = get_rules("standard")
    two = Shoe.decks(2)
    base = uncached_evs(rules, two)["banker"]
    exact = uncached_evs(rules, two.without_card(3).without_card(5))["banker"] - base
    assert F(pairs["4,6"]["exact"]) == exact
    assert F(pairs["4,6"]["error"]) == exact - F(pairs["4,6"]["linear"])
    assert max(abs(F(p["error"])) for p in pairs.values()) < max(abs(F(p["exact"])) for p in pairs.values()) / 5


def test_cli_errors():
    run = lambda *a: CliRunner().invoke(cli, list(a))  # noqa: E731
    assert run("count", "--bet", "dragon_7", "--rules", "catalog", "--tags", "1,2").output == (
        "Error: --tags takes 10 integers, A,2,...,9,T (T for all ten-value cards); got '1,2'\n")
    assert run("eor", "--unit", "bips").output == "Error: unknown unit 'bips' (percent or permille)\n"
    assert run("now", "--dealt", "A,A,A,A,A", "--decks", "1").output == "Error: cannot remove A: none left in the shoe\n"
    assert run("now", "--dealt-file", "/nonexistent").output == (
        "Error: cannot read dealt file '/nonexistent': No such file or directory\n")
    assert run("count", "--bet", "nope").output.startswith("Error: rule set 'standard' has no bet 'nope'")


def test_named_count_from_the_rule_file():
    out = CliRunner().invoke(cli, ["count", "--rules", "catalog", "--bet", "dragon_7", "--tags", "dragon_7_jacobson",
                                   "--true-count", "4", "--format", "json"])
    (row,) = json.loads(out.output)["counts"]
    assert row["level"] == "dragon_7_jacobson" and row["tags"] == JACOBSON_DRAGON_7 and row["imbalance"] == 0
    assert F(row["estimates"]["4"]) == F(json.loads(out.output)["ev"]) + 4 * F(row["slope"])
