"""Bets and rule sets: every figure against brute force with independently written payoffs, and
against published values."""

import random
from collections import Counter
from functools import cache
from fractions import Fraction
from itertools import permutations

import pytest

from analyzer.routes.batch import compile_rules
from analyzer.questions.analysis import analyse, enumerated
from analyzer.bets.bet import AnyOf, BetResult, where
from analyzer.routes.counts import evaluate
from analyzer.game.cards import BaccaratError, Shoe
from analyzer.game.engine import enumerate_coup
from analyzer.render import percent
from analyzer.bets.rulefile import BUILT_IN, get_rules

from dealer import POINT_VALUE, banker_draws, banker_stands_on_6, deal
from test_engine import physical_cards, random_shoe

F = Fraction

# Net payoff of one unit staked, written from the rule descriptions, one function per bet.
def banker_pays(win):
    return lambda o: win(o) if o["winner"] == -1 else 0 if o["winner"] == 0 else -1


PAYOFFS = {
    ("standard", "banker"): banker_pays(lambda o: F(19, 20)),
    ("commission-4", "banker"): banker_pays(lambda o: F(24, 25)),
    ("no-commission", "banker"): banker_pays(lambda o: F(1, 2) if o["banker_total"] == 6 else 1),
    ("ez", "banker"): banker_pays(lambda o: 0 if o["banker_total"] == 7 and o["banker_third"] >= 0 else 1),
    ("tie-9", "tie"): lambda o: 9 if o["winner"] == 0 else -1,
    (None, "banker"): banker_pays(lambda o: F(19, 20)),
    (None, "player"): lambda o: 1 if o["winner"] == 1 else 0 if o["winner"] == 0 else -1,
    (None, "tie"): lambda o: 8 if o["winner"] == 0 else -1,
    (None, "player_pair"): lambda o: 11 if o["player_pair"] else -1,
    (None, "banker_pair"): lambda o: 11 if o["banker_pair"] else -1,
}




def pays(amount, condition):
    return lambda o: F(amount) if condition(o) else -1


def wins(side, o):
    return o["winner"] == {"player": 1, "banker": -1}[side]


def perfect(side, o):
    return o[f"{side}_pair"] and o[f"{side}_suited"]


def dragon_bonus(side):
    def pay(o):
        if o["winner"] == 0 and (o["player_natural"] or o["banker_natural"]):
            return 0
        if not wins(side, o):
            return -1
        if o[f"{side}_natural"]:
            return 1
        return {9: 30, 8: 10, 7: 6, 6: 4, 5: 2, 4: 1}.get(abs(o["player_total"] - o["banker_total"]), -1)
    return pay


def banker_six(two_cards, three_cards):
    def pay(o):
        if not (wins("banker", o) and o["banker_total"] == 6):
            return -1
        return two_cards if o["banker_third"] < 0 else three_cards
    return pay


def tie_on(totals, amount):
    return pays(amount, lambda o: o["winner"] == 0 and o["player_total"] in totals)


CATALOG = {
    "either_pair": pays(5, lambda o: o["player_pair"] or o["banker_pair"]),
    "perfect_pair": pays(25, lambda o: perfect("player", o) or perfect("banker", o)),
    "perfect_pair_250": lambda o: (250 if perfect("player", o) and perfect("banker", o)
                                   else 25 if perfect("player", o) or perfect("banker", o) else -1),
    "dragon_bonus_player": dragon_bonus("player"),
    "dragon_bonus_banker": dragon_bonus("banker"),
    "dragon_7": pays(40, lambda o: wins("banker", o) and o["banker_total"] == 7 and o["banker_third"] >= 0),
    "panda_8": pays(25, lambda o: wins("player", o) and o["player_total"] == 8 and o["player_third"] >= 0),
    "lucky_6": banker_six(12, 23),
    "lucky_6_20": banker_six(12, 20),
    "tiger": banker_six(12, 20),
    "super_6": banker_six(12, 12),
    "super_6_15": banker_six(15, 15),
    "small_tiger": banker_six(22, -1),
    "big_tiger": banker_six(-1, 50),
    "tiger_tie": tie_on({6}, 35),
    **{f"egalite_{t}": tie_on({t}, p) for t, p in enumerate((150, 215, 225, 200, 120, 110, 45, 45, 80, 80))},
    "tie_group_0": tie_on({0}, 160),
    "tie_group_1_3": tie_on({1, 2, 3}, 70),
    "tie_group_4_5": tie_on({4, 5}, 60),
    "tie_group_6_7": tie_on({6, 7}, 22),
    "tie_group_8_9": tie_on({8, 9}, 40),
    "big": pays(F(54, 100), lambda o: o["cards"] >= 5),
    "small": pays(F(3, 2), lambda o: o["cards"] == 4),
    "cards_4": pays(F(3, 2), lambda o: o["cards"] == 4),
    "cards_5": pays(2, lambda o: o["cards"] == 5),
    "cards_6": pays(2, lambda o: o["cards"] == 6),
    **{f"{side}_natural_{t}": pays(9, lambda o, side=side, t=t: o[f"{side}_two_card"] == t)
       for side in ("player", "banker") for t in (8, 9)},
    **{f"{side}_{parity}": pays(F(90, 100) if (side, parity) == ("player", "odd") else F(86, 100),
                                lambda o, side=side, r=r: o[f"{side}_total"] % 2 == r)
       for side in ("player", "banker") for parity, r in (("even", 0), ("odd", 1))},
}

# The card-level bets of the catalog, from the cards the dealer dealt (rank + suit strings).
RED = set("hd")
FACE = set("JQK")


def hands(o):
    return o["player_hand"], o["banker_hand"]


def majestic(side):
    def pay(o):
        a, b = o[f"{side}_hand"][:2]
        if a[1] != b[1]:
            return -1
        return 25 if {a[0], b[0]} == {"K", "Q"} else F(5, 2)
    return pay


def contrast(six, five, four):
    def pay(o):
        player, banker = ({c[1] in RED for c in hand} for hand in hands(o))
        if len(player) == len(banker) == 1 and player != banker:
            return {6: six, 5: five, 4: four}[o["cards"]]
        return -1
    return pay


def monkey(o):
    player, banker = hands(o)
    return o["cards"] == 6 and player[2][0] not in FACE and banker[2][0] in FACE


def highest_value(o):
    return max(POINT_VALUE[c[0]] for hand in hands(o) for c in hand)


def first_four(o):
    player, banker = hands(o)
    return [player[0], banker[0], player[1], banker[1]]


ORDER = "A23456789TJQK"


def poker_counts(cards):
    """Sorted multiplicities of the ranks, largest first: (2, 2) two pair, (3, 1) trips ..."""
    return sorted(Counter(c[0] for c in cards).values(), reverse=True)


def is_straight(cards):
    """Four different consecutive ranks, the ace low (A-2-3-4) or high (J-Q-K-A), no wrap."""
    ranks = sorted(ORDER.index(c[0]) for c in cards)
    return len(set(ranks)) == len(ranks) and (ranks[-1] - ranks[0] == len(ranks) - 1 or ranks == [0, 10, 11, 12])


def jackpot(o):
    cards = first_four(o)
    counts = poker_counts(cards)
    flush = len({c[1] for c in cards}) == 1
    if flush and sorted(c[0] for c in cards) == sorted("AKQJ"):
        return 250
    if counts[0] == 4:
        return 75
    if flush and is_straight(cards):
        return 50
    if counts[0] == 3:
        return 15
    if flush:
        return 10
    if is_straight(cards):
        return 5
    if counts[:2] == [2, 2]:
        return 4
    pair = next((r for r, n in Counter(c[0] for c in cards).items() if n == 2), None)
    return 2 if pair == "A" else 0 if pair in ("T", "J", "Q", "K") else -1


def lucky_match(o):
    counts = poker_counts([c for hand in hands(o) for c in hand])
    if counts[0] >= 5:
        return 250
    if counts[:2] == [3, 3]:
        return 100
    if counts[0] == 4:
        return 30
    if counts[0] == 3 and counts[1:2] == [2]:
        return 15
    if counts[0] == 3:
        return 6
    return 4 if counts[:2] == [2, 2] else -1


def lucky_nines(o):
    nines = [c for c in first_four(o) if c[0] == "9"]
    one_suit = len({c[1] for c in nines}) == 1
    return {4: 1000, 3: 500 if one_suit else 35, 2: 16 if one_suit else 5,
            1: 2 if nines and nines[0] == "9d" else 1, 0: -1}[len(nines)]


CATALOG |= {
    "majestic_match": majestic("player"),
    "majestic_match_banker": majestic("banker"),
    "colour_match": pays(6, lambda o: len({c[1] in RED for c in first_four(o)}) == 1),
    "contrast_bonus_1": contrast(35, 15, 5),
    "contrast_bonus_2": contrast(33, 15, 5),
    "contrast_bonus_3": contrast(30, 17, 5),
    "contrast_bonus_4": contrast(30, 15, 6),
    "monkey_6": pays(12, monkey),
    "monkey_6_tie": pays(150, lambda o: monkey(o) and o["winner"] == 0),
    "grand_monkey": pays(6000, lambda o: o["cards"] == 6 and all(c[0] in FACE for h in hands(o) for c in h)),
    "tie_max_low": pays(55, lambda o: o["winner"] == 0 and highest_value(o) <= 5),
    "tie_max_high": pays(10, lambda o: o["winner"] == 0 and highest_value(o) >= 6),
    "jackpot_baccarat": jackpot,
    "lucky_match": lucky_match,
    "lucky_nines": lucky_nines,
}


# The bets of the crate zeekrs/baccarat-calculator the catalogue took in (issue 41), settled from
# the dealer's cards and totals alone.
def cards_of(o, side):
    return len(o[f"{side}_hand"])


def side_wins_with(side, total, cards=None):
    return lambda o: wins(side, o) and o[f"{side}_total"] == total and (cards is None or cards_of(o, side) == cards)


def first_two_colour(side, red):
    return pays(2, lambda o: all((c[1] in RED) == red for c in o[f"{side}_hand"][:2]))


def fortune_4_pair(side):
    def pay(o):
        a, b = o[f"{side}_hand"][:2]
        if a != b:  # identical cards: rank and suit
            return -1
        return 30 if a == "4d" else 15 if a[0] == "4" else 12 if a[1] == "d" else 9
    return pay


def char_siu(side):
    def pay(o):
        mine, theirs = o[f"{side}_total"], o["banker_total" if side == "player" else "player_total"]
        if wins(side, o) and mine in (7, 8, 9) and mine - theirs == 1:
            return {4: 10, 5: 15, 6: 50}[o["cards"]]
        return -1
    return pay


def three_card(side, total):
    return lambda o: o[f"{side}_total"] == total and cards_of(o, side) == 3


def flame(o):
    tie7 = o["winner"] == 0 and o["player_total"] == 7
    return tie7 and cards_of(o, "player") == cards_of(o, "banker")


def heaven(o):
    both = three_card("player", 9)(o) and three_card("banker", 9)(o)
    return 60 if both else 8 if three_card("player", 9)(o) or three_card("banker", 9)(o) else -1


def tiger_pair(o):
    if len({c[0] for c in first_four(o)}) == 1:
        return 100
    if o["player_pair"] and o["banker_pair"]:
        return 20
    return 4 if o["player_pair"] or o["banker_pair"] else -1


CATALOG |= {
    "monkey": lambda o: (50 if all(c[0] in FACE for c in first_four(o)) else
                         1 if not any(c[0] in FACE for c in first_four(o)) else -1),
    "player_red": first_two_colour("player", True),
    "player_black": first_two_colour("player", False),
    "banker_red": first_two_colour("banker", True),
    "banker_black": first_two_colour("banker", False),
    "player_4_fortune": pays(35, side_wins_with("player", 4)),
    "banker_4_fortune": pays(20, side_wins_with("banker", 4)),
    "player_fortune_4_pair": fortune_4_pair("player"),
    "banker_fortune_4_pair": fortune_4_pair("banker"),
    "invincible_6": pays(4, lambda o: max(o["player_total"], o["banker_total"]) == 6),
    "tiger_bull": pays(4, lambda o: o["winner"] != 0 and max(o["player_total"], o["banker_total"]) == 6),
    "player_char_siu": char_siu("player"),
    "banker_char_siu": char_siu("banker"),
    "small_bull": pays(20, side_wins_with("player", 6, 2)),
    "big_bull": pays(35, side_wins_with("player", 6, 3)),
    "wu_da_lang": pays(150, side_wins_with("player", 1)),
    "lucky_7": lambda o: (6 if side_wins_with("player", 7, 2)(o) else 15 if side_wins_with("player", 7, 3)(o) else -1),
    "big_lucky_7": pays(30, side_wins_with("player", 7, 3)),
    "small_lucky_7": pays(15, side_wins_with("player", 7, 2)),
    "super_lucky_7": lambda o: ({4: 30, 5: 40, 6: 100}[o["cards"]]
                                if (o["player_total"], o["banker_total"]) == (7, 6) else -1),
    "flame_7s": lambda o: (40 if cards_of(o, "player") == 2 else 150) if flame(o) else -1,
    "heaven_9": heaven,
    "treasure_all": pays(5, lambda o: (side_wins_with("banker", 7, 3)(o) or side_wins_with("player", 8, 3)(o)
                                       or flame(o) or three_card("player", 9)(o) or three_card("banker", 9)(o))),
    "tiger_pair": tiger_pair,
    "three_giving_eight": pays(200, lambda o: o["banker_two_card"] == 3 and o["player_third"] == 8),
}


def payoff(rules, bet_id):
    return PAYOFFS.get((rules, bet_id)) or PAYOFFS.get((None, bet_id)) or CATALOG[bet_id]


@cache
def dealt_coups(shoe, banker_rule=banker_draws):
    """The outcome of every ordered 6-card sequence of the shoe's cards."""
    return [deal(seq, banker_rule) for seq in permutations(physical_cards(shoe), 6)]


def brute_force_moments(shoe, pay, banker_rule=banker_draws):
    """(P(win), P(push), EV, E[X^2]) of a payoff over every ordered 6-card sequence."""
    wins = pushes = total = 0
    ev = second = F(0)
    for outcome in dealt_coups(shoe, banker_rule):
        x = pay(outcome)
        total += 1
        wins += x > 0
        pushes += x == 0
        ev += x
        second += F(x) ** 2
    return F(wins, total), F(pushes, total), ev / total, second / total


@pytest.mark.parametrize("rules", [name for name in BUILT_IN if name != "lightning"])  # its multipliers: test_multipliers.py
def test_every_bet_equals_brute_force(rules):
    # Both routes: the enumerator, and the compiled polynomials that analyse takes once the
    # rule set is compiled.
    rng = random.Random(rules)
    banker_rule = banker_stands_on_6 if rules == "banker-stands-on-6" else banker_draws
    rule_set = get_rules(rules)
    compile_rules(rule_set)
    for shoe in [random_shoe(rng, 8), random_shoe(rng, 8, ranks=(0, 5, 6, 9), suits=(0, 1)),
                 Shoe.from_ranks([1, 0, 0, 0, 1, 2, 2, 1, 0, 1, 0, 0, 0])]:
        for by_enumerator, by_polynomials in zip(enumerated(rule_set, shoe), analyse(rule_set, shoe), strict=True):
            if by_enumerator.bet.series is not None:  # bets across coups: by paths of coups in test_wild.py
                assert by_enumerator.ev == by_polynomials.ev
                continue
            win, push, ev, second = brute_force_moments(shoe, payoff(rules, by_enumerator.bet.id), banker_rule)
            for result in (by_enumerator, by_polynomials):
                assert (result.win, result.push, result.ev) == (win, push, ev), result.bet.id
                assert result.loss == 1 - win - push
                assert result.variance == second - ev**2


# The probabilities of the crate zeekrs/baccarat-calculator on a full 8-deck shoe, as its test
# fixtures give them (crates/calculator/tests/fixtures/source_standard_8_deck.rs and
# source_standard_8_deck_variants.rs, commit 6489e77): (bet, line or None for the win) -> float.
CRATE = {
    ("banker_4_fortune", None): 0.03268242767565334,
    ("player_4_fortune", None): 0.01723867654131342,
    ("player_red", None): 0.2493975903614458,
    ("banker_red", None): 0.2493975903614458,
    ("player_fortune_4_pair", None): 0.016867469879518072,
    ("banker_fortune_4_pair", 0): 0.00032437442075996,
    ("banker_fortune_4_pair", 1): 0.00097312326227989,
    ("banker_fortune_4_pair", 2): 0.00389249304911956,
    ("banker_fortune_4_pair", 3): 0.01167747914735867,
    ("invincible_6", None): 0.1356556968017422,
    ("tiger_bull", None): 0.11641553305175217,
    ("treasure_all", None): 0.1386193860563475,
    ("wu_da_lang", None): 0.004929417821567907,
    ("tiger_pair", 2): 0.13823615337230594,  # a pair on one side only: the crate's Single
}


def test_the_bets_taken_from_the_crate_agree_with_its_figures():
    """To 1e-12 of each: the crate works in float64 from its own counts, and its fixtures' last
    digits carry that rounding (Banker 4 Fortune: exact 638124180208/19524993263685, nearest float
    0.03268242767565315; the crate's 0.03268242767565334)."""
    results = {r.bet.id: r for r in analyse(get_rules("catalog"), Shoe.decks(8))}
    for (bet, line), expected in CRATE.items():
        exact = results[bet].win if line is None else results[bet].line_probabilities[line]
        assert abs(float(exact) - expected) <= 1e-12 * expected, (bet, line, float(exact), expected)


def test_edges_from_published_counts():
    # Wizard of Odds, Baccarat Appendix 1, 8 decks: Banker, Player, Tie combinations; Dragon 7
    # (Banker wins with a three-card 7) from Wizard of Odds, "EZ Baccarat".
    b, p, t, total = 2_292_252_566_437_888, 2_230_518_282_592_256, 475_627_426_473_216, 4_998_398_275_503_360
    dragon_7 = 112_633_011_329_024
    # Banker wins with a final 6, 8 decks: excelpunks.com, "Concepts 13: Baccarat vs. non-commission
    # baccarat - why does a Banker win on 6 pay half?" (table of Banker wins by total).
    banker_6 = 269_232_304_455_680
    shoe = Shoe.decks(8)
    ev = {(r.bet.id, name): r.ev for name in BUILT_IN for r in analyse(get_rules(name), shoe)}
    assert ev["banker", "standard"] == F(F(19, 20) * b - p, total)
    assert ev["banker", "commission-4"] == F(F(24, 25) * b - p, total)
    assert ev["banker", "ez"] == F(b - dragon_7 - p, total)
    assert ev["banker", "no-commission"] == F(b - banker_6 / F(2) - p, total)
    assert ev["player", "standard"] == F(p - b, total)
    assert ev["tie", "standard"] == F(8 * t - b - p, total)
    assert ev["tie", "tie-9"] == F(9 * t - b - p, total)
    assert ev["player_pair", "standard"] == F(12 * 31, 415) - 1  # 12 (4d-1)/(52d-1) - 1, d = 8


def test_published_house_edges_8_decks():
    # Wizard of Odds, "Baccarat" (house edge table, 8 decks) and "EZ Baccarat"; no-commission
    # (Banker 6 pays 1:2): 0.014581045 in excelpunks.com "Concepts 13" (source above).
    published = {
        ("standard", "banker"): "1.0579%", ("standard", "player"): "1.2351%", ("standard", "tie"): "14.3596%",
        ("tie-9", "tie"): "4.8440%", ("standard", "player_pair"): "10.3614%",
        ("ez", "banker"): "1.0183%", ("no-commission", "banker"): "1.4581%",
    }
    for (rules, bet), edge in published.items():
        result = next(r for r in analyse(get_rules(rules), Shoe.decks(8)) if r.bet.id == bet)
        assert percent(result.house_edge) == edge


def test_probabilities_of_each_bet_sum_to_one():
    shoe = Shoe.decks(8).without_cards([(4, None), (4, None), (12, None), (0, 1)])
    for name in BUILT_IN:
        for r in analyse(get_rules(name), shoe):
            assert sum(r.line_probabilities) + r.loss == 1
            assert r.win + r.push + r.loss == 1


def test_resolved_edge_excludes_pushes():
    banker = analyse(get_rules("standard"), Shoe.decks(8))[0]
    assert banker.house_edge_resolved == banker.house_edge / (1 - banker.push)
    assert banker.hits_one_in == 1 / banker.win


def test_first_matching_line_settles_the_bet():
    dist = enumerate_coup(Shoe.decks(8))
    ez, standard = get_rules("ez").bets[0], get_rules("standard").bets[0]
    r_ez, r_std = evaluate(ez, dist), evaluate(standard, dist)
    dragon_7 = F(112_633_011_329_024, dist.total)
    assert r_ez.line_probabilities[0] == dragon_7
    assert r_ez.line_probabilities[1] == r_std.win - dragon_7


def test_any_of_condition():
    dist = enumerate_coup(Shoe.decks(1))
    either = AnyOf((where(player_pair=True), where(banker_pair=True))).mask(dist.fields)
    both = where(player_pair=True, banker_pair=True).mask(dist.fields)
    pp = where(player_pair=True).mask(dist.fields)
    assert dist.count(either) == 2 * dist.count(pp) - dist.count(both)


def test_bad_rule_set_and_field():
    with pytest.raises(BaccaratError, match="unknown rule set 'nope'"):
        get_rules("nope")
    with pytest.raises(BaccaratError, match="condition: unknown outcome field 'colour'"):
        where(colour="red")


def test_bet_result_is_exact():
    r = analyse(get_rules("standard"), Shoe.decks(6))[0]
    assert isinstance(r, BetResult)
    assert all(type(v) is F for v in (r.win, r.push, r.loss, r.ev, r.variance))
