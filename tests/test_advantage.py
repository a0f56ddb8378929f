"""What information is worth: the bettor's advantage against brute force over every ordered
6-card sequence of small shoes with real suits (the dealer in dealer.py), identities (the law of
total expectation), published figures, and the command line."""

import json
from collections import defaultdict
from fractions import Fraction
from itertools import permutations

import pytest
from click.testing import CliRunner

from analyzer.questions.advantage import Information, advantage, best_sort, by_position, count_table, default_bets
from analyzer.questions.analysis import analyse
from analyzer.game.cards import Shoe
from analyzer.cli import cli
from analyzer.game.knowledge import Knowledge
from analyzer.bets.rulefile import get_rules

from dealer import POINT_VALUE, deal
from test_cards import shoe_of

F = Fraction
STANDARD = get_rules("standard")
SHOE = "As 7h Td Jc 4s 6d Qh 9c 8h".split()  # 9 cards: 60,480 ordered 6-card sequences
WINS = {  # each bet's win per unit, from the dealt coup, as the rules say
    "banker": lambda o: F(19, 20) if o["winner"] < 0 else 0 if o["winner"] == 0 else -1,
    "player": lambda o: 1 if o["winner"] > 0 else 0 if o["winner"] == 0 else -1,
    "tie": lambda o: 8 if o["winner"] == 0 else -1,
    "player_pair": lambda o: 11 if o["player_pair"] else -1,
}


def brute_force_advantage(cards, bets, positions, group_of, known=()):
    """Sum over what the bettor sees of max(0, best total win), over all agreeing sequences."""
    won, total = defaultdict(lambda: [F(0)] * len(bets)), 0
    for seq in permutations(cards, 6):
        if not all(test(seq[p - 1]) for p, test in known):
            continue
        total += 1
        outcome = deal(seq)
        seen = tuple(group_of(POINT_VALUE[seq[p - 1][0]]) for p in positions)
        for i, bet in enumerate(bets):
            won[seen][i] += WINS[bet](outcome)
    return sum(max(0, *w) for w in won.values()) / total


MODELS = [  # (positions, information, the group a point value falls in)
    ((1,), lambda p: Information.sort((6, 7, 8, 9), p), lambda v: v >= 6),
    ((1, 5), lambda p: Information.sort((0, 9), p), lambda v: v in (0, 9)),
    ((6,), Information.exact, lambda v: v),
    ((2, 3), Information.exact, lambda v: v),
    ((4,), lambda p: Information.sort((1, 2, 3, 4, 5), p), lambda v: 1 <= v <= 5),
]


@pytest.mark.parametrize("positions, make, group_of", MODELS)
def test_advantage_equals_brute_force(positions, make, group_of):
    for bets in (("banker", "player", "tie"), ("player", "player_pair")):
        table = count_table(STANDARD, shoe_of(SHOE), STANDARD.only(bets).bets, positions)
        expected = brute_force_advantage(SHOE, [b.id for b in STANDARD.only(bets).bets], positions, group_of)
        assert advantage(table, make(positions)).advantage == expected, bets


def test_advantage_given_known_cards_equals_brute_force():
    known = Knowledge.parse(["4=red", "5=0,1"])
    table = count_table(STANDARD, shoe_of(SHOE), default_bets(STANDARD), (1,), known)
    tests = [(4, lambda c: c[1] in "hd"), (5, lambda c: c[0] in "TJQKA")]
    expected = brute_force_advantage(SHOE, ["banker", "player", "tie"], (1,), lambda v: v >= 6, tests)
    assert advantage(table, Information.sort((6, 7, 8, 9), (1,))).advantage == expected


@pytest.mark.parametrize("positions", [(1,), (2, 4), (5, 6), (1, 2, 3, 4)])
def test_the_states_average_back_to_the_unconditional_ev(positions):
    # The law of total expectation: sum over states of P(state) EV(bet | state) = EV(bet).
    shoe = Shoe.decks(2).without_cards([(0, 0), (8, 3), (12, 1), (4, None), (9, None)])
    bets = STANDARD.bets
    result = advantage(count_table(STANDARD, shoe, bets, positions), Information.exact(positions))
    assert sum(s.probability for s in result.states) == 1
    for i, unconditional in enumerate(analyse(STANDARD, shoe)):
        assert sum(s.probability * s.evs[i] for s in result.states) == unconditional.ev, bets[i].id
    assert result.advantage >= max(0, *(r.ev for r in analyse(STANDARD, shoe)))


def test_published_edge_sorting_figures():
    # Eliot Jacobson, "Edge Sorting in Baccarat" and "Edge Sorting in Baccarat, Update #1"
    # (888casino.com blog, 2012; the update credits Fred Roach's search of every sort): 8 decks,
    # standard rules, Banker, Player and Tie: the first card sorted 6-9 against the rest,
    # 6.765 %; the first four cards sorted so, 20.928 %; the best four-card sort, 30.291 %; and
    # when the Player's cards are one high and one low and the Banker's both low (20.502 % of
    # coups), a bet on Player wins 36.332 %.
    shoe, bets = Shoe.decks(8), default_bets(STANDARD)
    first = advantage(count_table(STANDARD, shoe, bets, (1,)), Information.sort((6, 7, 8, 9), (1,)))
    assert round(100 * first.advantage, 3) == F(6765, 1000)
    table = count_table(STANDARD, shoe, bets, (1, 2, 3, 4))
    four = advantage(table, Information.sort((6, 7, 8, 9), (1, 2, 3, 4)))
    assert round(100 * four.advantage, 3) == F(20928, 1000)
    high_low = [s for s in four.states if {s.groups[0], s.groups[2]} == {0, 1} and s.groups[1] == s.groups[3] == 1]
    assert round(100 * sum(s.probability for s in high_low), 3) == F(20502, 1000)
    assert {round(100 * s.evs[1], 3) for s in high_low} == {F(36332, 1000)}  # evs: banker, player, tie
    group, best = best_sort(table)[0]
    assert round(100 * best.advantage, 3) == F(30291, 1000)
    assert best.advantage == advantage(table, Information.sort(group, (1, 2, 3, 4))).advantage


def test_the_best_sort_beats_every_split():
    shoe = Shoe.decks(1).without_cards([(5, None), (6, None), (12, None)])
    table = count_table(STANDARD, shoe, default_bets(STANDARD), (1, 2))
    ranking = best_sort(table)
    assert len(ranking) == 511 and len({g for g, _ in ranking}) == 511
    assert [r.advantage for _, r in ranking] == sorted((r.advantage for _, r in ranking), reverse=True)
    fresh = count_table(STANDARD, shoe, default_bets(STANDARD), (1, 2))  # the same table, enumerated again
    for group, result in ranking[::50]:
        assert advantage(fresh, Information.sort(group, (1, 2))).advantage == result.advantage


def test_by_position_is_the_exact_card_at_each_place():
    shoe = Shoe.decks(1).without_cards([(0, None), (8, None), (3, None)])
    results = dict(by_position(STANDARD, shoe, default_bets(STANDARD)))
    for p in (1, 5):
        table = count_table(STANDARD, shoe, default_bets(STANDARD), (p,))
        assert results[p].advantage == advantage(table, Information.exact((p,))).advantage
    assert results[1].advantage == results[3].advantage  # the Player's two cards are exchangeable
    assert results[2].advantage == results[4].advantage


def run(*args):
    return CliRunner().invoke(cli, ["advantage", *args])


def test_cli_json():
    data = json.loads(run("--sort", "6,7,8,9", "--positions", "1", "--format", "json").output)
    assert data["advantage"] == "6604082064256/97624966318425"
    assert [s["best_bet"] for s in data["states"]] == ["player", "banker"]
    assert data["states"][0] | {"evs": None} == {"seen": {"1": [6, 7, 8, 9]}, "probability": "4/13",
                                                  "best_bet": "player", "ev": data["states"][0]["evs"]["player"],
                                                  "bets": True, "evs": None}
    data = json.loads(run("--best-sort", "--decks", "1", "--format", "json").output)
    assert set(data) >= {"sort", "advantage"} and all(type(v) is int for v in data["sort"])
    data = json.loads(run("--by-position", "--decks", "2", "--format", "json").output)
    assert [p["position"] for p in data["positions"]] == [1, 2, 3, 4, 5, 6]
    assert data["positions"][0]["advantage"] == data["positions"][2]["advantage"]


def test_cli_known_cards_and_side_bets():
    result = run("--exact-card", "--positions", "2", "--bets", "tie,player_pair", "--known", "1=K", "--decks", "1")
    assert result.exit_code == 0, result.output
    assert "Known: card 1 (the Player's first card): K" in result.output
    assert "EV player_pair" in result.output


@pytest.mark.parametrize("args, message", [
    (["--sort", "6-9", "--positions", "7"], "no card position '7': positions are 1 to 6"),
    (["--sort", "6-9", "--positions", "1,1"], "a position is given twice in '1,1'"),
    (["--sort", ""], "a group of point values is written like 6,7,8,9 or 6-9 (values 0 to 9); got ''"),
    (["--sort", "0-9"], "a sorted group of all ten point values tells the bettor nothing"),
    (["--sort", "10"], "a group of point values is written like 6,7,8,9 or 6-9"),
    ([], "give one of --sort, --exact-card, --best-sort or --by-position"),
    (["--sort", "6-9", "--best-sort"],
     "give one of --sort, --exact-card, --best-sort or --by-position (got --sort, --best-sort)"),
    (["--exact-card", "--known", "1=9", "--known", "1=8"], "the knowledge of card 1 contradicts itself: 9 and 8"),
    (["--exact-card", "--known", "1=9", "--remove", "9,9,9,9"], "no deal from this shoe agrees with the known cards"),
    (["--exact-card", "--bets", "nope"], "rule set 'standard' has no bet 'nope'"),
])
def test_cli_errors(args, message):
    result = run(*args, "--decks", "1") if "--remove" in args else run(*args)
    assert result.exit_code == 1
    assert result.output.startswith(f"Error: {message}"), result.output
    assert len(result.output.strip().splitlines()) == 1


def test_too_many_states_to_list_is_refused_before_any_work():
    result = run("--exact-card", "--positions", "1,2,3,4,5,6")
    assert result.exit_code == 1
    assert result.output == ("Error: seeing that much makes 1,000,000 states to list, more than 100,000: "
                             "watch fewer places (at most five exact cards)\n")


def test_sort_groups_are_read_strictly_and_bets_keep_the_order_asked():
    assert run("--sort", "6-").output == ("Error: a group of point values is written like 6,7,8,9 or 6-9 "
                                          "(values 0 to 9); got '6-'\n")
    assert "6.7647%" in run("--sort", "6-9,").output  # an empty item is skipped, as in --known
    data = json.loads(run("--exact-card", "--bets", "tie,player", "--decks", "1", "--format", "json").output)
    assert data["bets"] == ["tie", "player"]
