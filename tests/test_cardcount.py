"""The card-level counter (analyzer/routes/cardcount.py): compiled polynomials against the two other
routes - brute force over every ordered 6-card sequence of small shoes with real, uneven suits
(the dealer in dealer.py; the predicates here are written from the bets' rules), and the
enumeration at card detail (engine.enumerate_cards, counts.walked_counts) on random depleted
8-deck shoes, with and without known cards, one shoe at a time and in a batch."""

import random
from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import permutations

import numpy as np
import pytest

from analyzer.routes import cardcount
from analyzer.questions.analysis import analyse
from analyzer.routes.batch import evaluate_many
from analyzer.routes.counts import card_line_counts, walked_counts
from analyzer.game.cards import BaccaratError, Shoe
from analyzer.game.engine import TooMuchDetail
from analyzer.game.knowledge import Knowledge
from analyzer.bets.rulefile import get_rules, parse_rules

from dealer import POINT_VALUE, deal

CATALOG = get_rules("catalog")
CARD_BETS = [bet for bet in CATALOG.bets if bet.card_level]
ORDER, FACE = "A23456789TJQK", "JQK"

# Bets that reading two cards once made too detailed to count (issue 29), written as a new user
# writes them: a value test on player_1 with player_suited and the two-card total, a face test at
# either place, a group's same suit, a three-card flush.
NEW_BETS = parse_rules('''
name = "new"

[[bets]]
id = "perfect_9"
name = "Perfect 9 Bonus"
lines = [
  { label = "suited 9", when = { player_two_card_total = 9, player_suited = true, player_1 = { value = [1, 2, 3, 4, 5, 6, 7, 8] } }, pays = 20 },
  { label = "unsuited 9", when = { player_two_card_total = 9, player_1 = { value = [1, 2, 3, 4, 5, 6, 7, 8] } }, pays = 10 },
  { label = "9 with a ten or face card", when = { player_two_card_total = 9 }, pays = 5 },
]

[[bets]]
id = "royal_9"
name = "Royal 9 (fixed part)"
lines = [
  { label = "both suited", when = { player_suited = true, banker_suited = true, all = [{ any = [{ player_1 = { rank = "9" }, player_2 = { face = true } }, { player_1 = { face = true }, player_2 = { rank = "9" } }] }, { any = [{ banker_1 = { rank = "9" }, banker_2 = { face = true } }, { banker_1 = { face = true }, banker_2 = { rank = "9" } }] }] }, pays = 299 },
  { label = "both", when = { all = [{ any = [{ player_1 = { rank = "9" }, player_2 = { face = true } }, { player_1 = { face = true }, player_2 = { rank = "9" } }] }, { any = [{ banker_1 = { rank = "9" }, banker_2 = { face = true } }, { banker_1 = { face = true }, banker_2 = { rank = "9" } }] }] }, pays = 49 },
  { label = "one suited", when = { any = [{ player_suited = true, any = [{ player_1 = { rank = "9" }, player_2 = { face = true } }, { player_1 = { face = true }, player_2 = { rank = "9" } }] }, { banker_suited = true, any = [{ banker_1 = { rank = "9" }, banker_2 = { face = true } }, { banker_1 = { face = true }, banker_2 = { rank = "9" } }] }] }, pays = 9 },
  { label = "one", when = { any = [{ player_1 = { rank = "9" }, player_2 = { face = true } }, { player_1 = { face = true }, player_2 = { rank = "9" } }, { banker_1 = { rank = "9" }, banker_2 = { face = true } }, { banker_1 = { face = true }, banker_2 = { rank = "9" } }] }, pays = 4 },
]

[[bets]]
id = "majestic_group"
name = "Majestic Match written with a group"
lines = [
  { label = "suited K-Q", when = { player_hand = { same_suit = true }, player_1 = { rank = ["K", "Q"] }, player_2 = { rank = ["K", "Q"] }, not = { player_pair = true } }, pays = 25 },
  { label = "any other suited", when = { player_hand = { same_suit = true } }, pays = 2.5 },
]

[[bets]]
id = "three_card_flush"
name = "Player three-card flush, red or not"
lines = [
  { label = "straight flush", when = { player_cards = 3, player_hand = { poker = "straight_flush" } }, pays = 100 },
  { label = "red flush", when = { player_cards = 3, player_hand = { poker = "flush" }, player_3 = { colour = "red" } }, pays = 20 },
  { label = "flush", when = { player_cards = 3, player_hand = { poker = "flush" } }, pays = 10 },
]

[[bets]]
id = "nine_high_nine"
name = "A 9 among the first four and a Player two-card 9 (the hands are not exchanged)"
lines = [{ label = "hit", when = { first_four = { max_value = 9 }, player_two_card_total = 9 }, pays = 10 }]

[[bets]]
id = "banker_straight_flush"
name = "Banker three-card straight flush"
lines = [{ label = "straight flush", when = { banker_cards = 3, banker_hand = { poker = "straight_flush" } }, pays = 200 }]
''', "new.toml", None)


def value(card):
    return POINT_VALUE[card[0]]


def suited(cards):
    return len({c[1] for c in cards}) == 1


def straight(cards):  # three cards, the ace low or high (the rule set's default, "both")
    ranks = sorted(ORDER.index(c[0]) for c in cards)
    return len(set(ranks)) == 3 and (ranks[2] - ranks[0] == 2 or ranks == [0, 11, 12])


def royal(two):
    return sorted(c[0] in FACE and "face" or c[0] for c in two) == ["9", "face"]


def perfect_9(o):
    p = o["player_hand"][:2]
    if (value(p[0]) + value(p[1])) % 10 != 9:
        return None
    if value(p[0]) == 0 or value(p[1]) == 0:
        return 2
    return 0 if suited(p) else 1


def royal_9(o):
    p, b = o["player_hand"][:2], o["banker_hand"][:2]
    if royal(p) and royal(b):
        return 0 if suited(p) and suited(b) else 1
    if (royal(p) and suited(p)) or (royal(b) and suited(b)):
        return 2
    return 3 if royal(p) or royal(b) else None


def majestic_group(o):
    p = o["player_hand"]
    if not suited(p):
        return None
    kq = all(c[0] in "KQ" for c in p[:2]) and p[0][0] != p[1][0]
    return 0 if kq else 1


def three_card_flush(o):
    p = o["player_hand"]
    if len(p) < 3 or not suited(p):
        return None
    return 0 if straight(p) else 1 if p[2][1] in "hd" else 2


def nine_high_nine(o):
    p, b = o["player_hand"], o["banker_hand"]
    return 0 if max(map(value, p[:2] + b[:2])) == 9 and (value(p[0]) + value(p[1])) % 10 == 9 else None


def banker_straight_flush(o):
    b = o["banker_hand"]
    return 0 if len(b) == 3 and suited(b) and straight(b) else None


PREDICATES = {"perfect_9": perfect_9, "royal_9": royal_9, "majestic_group": majestic_group,
              "three_card_flush": three_card_flush, "banker_straight_flush": banker_straight_flush,
              "nine_high_nine": nine_high_nine}

SHOES = {  # 8 physical cards each (20,160 ordered 6-card sequences), suits uneven
    "nines": "9h Kh 9s Qs 4h 5h Jd 9d".split(),
    "suited": "Kh Qh Jh 9h 8h Ks 2c Ac".split(),
    "flush": "Ah 2h 3h Kd Qd Jd 7h 4d".split(),
    "spades": "5s 9s 2s Qs 4c Ts 8c 3s".split(),
    "runs": "Ac 2h 2c 3h 3c 4h Kd 7s".split(),
}


def shoe_of(names):
    counts = [[0] * 4 for _ in range(13)]
    for name in names:
        counts[ORDER.index(name[0])]["shdc".index(name[1])] += 1
    return Shoe(tuple(map(tuple, counts)))


@cache
def brute_force(name):
    """For each new bet, how many ordered sequences each pay line settles (index -> count)."""
    tallies = {bet: Counter() for bet in PREDICATES}
    for sequence in permutations(SHOES[name], 6):
        outcome = deal(sequence)
        for bet, predicate in PREDICATES.items():
            tallies[bet][predicate(outcome)] += 1
    return tallies


@pytest.mark.parametrize("name", SHOES)
def test_new_bets_equal_brute_force(name):
    total = 8 * 7 * 6 * 5 * 4 * 3
    for result in analyse(NEW_BETS, shoe_of(SHOES[name])):
        expected = brute_force(name)[result.bet.id]
        assert result.total == total
        assert list(result.sequences) == [expected[i] for i in range(len(result.bet.lines))], result.bet.id


def test_every_new_bet_settles_somewhere():
    # A line that never settles on these shoes would check nothing.
    for bet in NEW_BETS.bets:
        settled = Counter()
        for name in SHOES:
            settled.update(k for k, n in brute_force(name)[bet.id].items() if n and k is not None)
        assert set(settled) == set(range(len(bet.lines))), bet.id


def test_new_bets_compile_and_are_not_refused_on_8_decks():
    shoe = Shoe.decks(8).remove("9", "9h", "K", "5d")
    for bet in NEW_BETS.bets:
        assert cardcount.fits(bet.needs, NEW_BETS.tableau), bet.id
    results = analyse(NEW_BETS, shoe)
    assert all(sum(r.sequences) < r.total for r in results)


def random_shoe(rng, decks=8, low=0, high=300):
    """A shoe of ``decks`` decks with a random number of random cards gone: suits uneven."""
    cards = [kind for kind in range(52) for _ in range(decks)]
    rng.shuffle(cards)
    counts = [[0] * 4 for _ in range(13)]
    for kind in cards[rng.randrange(low, high):]:
        counts[kind // 4][kind % 4] += 1
    return Shoe(tuple(map(tuple, counts)))


def conditions(bet):
    return bet.conditions


def test_every_catalogue_card_bet_equals_the_enumeration_on_random_8_deck_shoes():
    rng = random.Random(29)
    for shoe in (random_shoe(rng), random_shoe(rng), Shoe.decks(8)):
        for bet in CARD_BETS:
            assert card_line_counts(bet, shoe, CATALOG.tableau) == walked_counts(
                conditions(bet), bet.needs, shoe, CATALOG.tableau), bet.id


KNOWN = [(1, ["1=red"]), (2, ["5=9", "2=K"]), (3, ["3=hearts", "6=0"]), (4, ["4=black"])]


@pytest.mark.parametrize("case", range(len(KNOWN)))
def test_with_known_cards_every_bet_equals_the_enumeration(case):
    # Every bet with one of the four kinds of knowledge, in turn (each bet's compilation with
    # knowledge takes a second or two, and every bet with every kind took 3.5 minutes, most of the
    # suite's time for what a quarter of it shows: each kind meets some 25 bets of every shape).
    seed, known = KNOWN[case]
    knowledge = Knowledge.parse(known)
    shoe = random_shoe(random.Random(seed), decks=1, low=37, high=40)  # 12-15 cards: the enumeration stays small
    for bet in (CATALOG.bets + NEW_BETS.bets)[case::len(KNOWN)]:
        counted = card_line_counts(bet, shoe, CATALOG.tableau, knowledge)
        assert counted == walked_counts(conditions(bet), bet.needs, shoe, CATALOG.tableau, knowledge), (bet.id, known)


def test_known_cards_total_the_sequences_that_agree():
    # With knowledge, the compiled lines carry one more column: every sequence that agrees. Closed
    # form for card 1 red and card 4 a 6-9: (red x high - red and high) x (N-2)(N-3)(N-4)(N-5).
    knowledge = Knowledge.parse(["1=red", "4=6-9"])
    bet = CATALOG.bet("contrast_bonus_1")
    polynomials, _, _ = cardcount.compiled("x", conditions(bet), bet.needs, CATALOG.tableau, knowledge)
    shoe = Shoe.decks(2).remove("Ah", "7d", "K")
    n = {(ORDER[r], "shdc"[s]): shoe.counts[r][s] for r in range(13) for s in range(4)}
    red = sum(k for (rank, suit), k in n.items() if suit in "hd")
    high = sum(k for (rank, suit), k in n.items() if rank in "6789")
    both = sum(k for (rank, suit), k in n.items() if suit in "hd" and rank in "6789")
    size = shoe.size
    assert polynomials.counts(shoe.kind_counts())[-1] == (red * high - both) * (size - 2) * (size - 3) * (size - 4) * (size - 5)


def test_a_batch_equals_the_enumeration_shoe_by_shoe():
    rng = random.Random(7)
    shoes = [random_shoe(rng) for _ in range(3)] + [Shoe.decks(9), random_shoe(rng, decks=26, high=50)]  # int64, Python ints
    rules = CATALOG.only([b.id for b in CARD_BETS])
    batch = evaluate_many(rules, shoes)
    for i, shoe in enumerate(shoes):
        lines = batch.results(i)
        for bet, result in zip(rules.bets, lines):
            if shoe.size > 500 and bet.id in ("jackpot_baccarat", "lucky_match", "majestic_match", "majestic_match_banker"):
                continue  # rank and suit at four places: the enumeration follows 52 classes (seconds on a big shoe)
            assert list(result.sequences) == walked_counts(conditions(bet), bet.needs, shoe, rules.tableau), bet.id


def test_a_bet_that_neither_compiles_nor_fits_is_refused_at_once_by_name():
    rules = parse_rules('name = "x"\n[[bets]]\nid = "six_card_straight_flush"\nname = "x"\n'
                        'lines = [{ when = { all_cards = { poker = "straight_flush" } }, pays = 1000 }]\n', "x.toml", None)
    bet = rules.bets[0]
    assert not cardcount.fits(bet.needs, rules.tableau)
    with pytest.raises(TooMuchDetail, match="^bet 'six_card_straight_flush': too much card detail to count on this "
                                            r"shoe \(52 classes of cards at every place through the draws, at most 26"):
        analyse(rules, Shoe.decks(8))
    with pytest.raises(TooMuchDetail, match=r"it reads the point value \(for the draws\), the rank and the suit; nor does it "
                                            r"compile: more than 6,000,000 ways"):
        analyse(rules, Shoe.decks(8))
    crossing = parse_rules('name = "x"\n[[bets]]\nid = "s"\nlines = [{ when = { player_hand = { every = { suit = ["hearts", '
                           '"spades"] } }, banker_hand = { every = { colour = "red" } }, winner = "tie" }, pays = 25 }]\n', "x.toml", None)
    with pytest.raises(TooMuchDetail, match=r"\(40 classes .* it reads the point value \(for the draws\) and the suit; nor does "
                                            r"it compile: .* its tests of suits and colours cross"):  # no rank: what is read, and why
        analyse(crossing, Shoe.decks(8))
    assert isinstance(TooMuchDetail("x"), BaccaratError)
    small = analyse(rules, shoe_of("Ah Kh Qh Jh Th 9h Ks As".split()))[0]  # on a small shoe, the enumeration counts it
    assert small.sequences[0] > 0


def test_suit_patterns():
    # The set partitions of n positions into at most four blocks (Bell numbers, less those with more blocks).
    assert [len(cardcount.suit_patterns(n)) for n in range(7)] == [1, 1, 2, 5, 15, 51, 187]
    for n in range(1, 7):
        patterns = cardcount.suit_patterns(n).tolist()
        assert len(set(map(tuple, patterns))) == len(patterns) and all(p[0] == 0 for p in patterns)


def test_injective_sums_equal_the_sum_over_distinct_suits():
    rng = np.random.default_rng(3)
    g = rng.integers(0, 9, (4, 4, 2))  # [block, suit, shoe]
    which = np.array([[0, 1, 2, 3], [2, 0, -1, -1], [3, -1, -1, -1], [-1, -1, -1, -1]])
    expected = []
    for row in which:
        blocks = [b for b in row if b >= 0]
        expected.append([sum(np.prod([g[b, s, k] for b, s in zip(blocks, suits)])
                             for suits in permutations(range(4), len(blocks))) for k in range(2)])
    assert cardcount.injective_sums(g, which).tolist() == expected


def test_the_catalogue_compiles_within_its_bounds():
    for bet in CARD_BETS:
        layout = cardcount.layout_of(bet.needs, Knowledge(), CATALOG.tableau)
        assert layout.size(CATALOG.tableau) <= cardcount.MAX_ROWS, bet.id
    jackpot = CATALOG.bet("jackpot_baccarat").needs
    patterned = cardcount.layout_of(jackpot, Knowledge(), CATALOG.tableau)
    assert patterned.symmetry == "head" and patterned.suited == {1, 2, 3, 4}  # 13 ranks by class, suits by pattern
    plain = cardcount.layout_of(jackpot, Knowledge(), CATALOG.tableau, many=True)
    assert plain.symmetry == "head" and not plain.suited  # for a batch: 341,055 multisets of 52 kinds, quicker to evaluate
    known = cardcount.layout_of(jackpot, Knowledge.parse("1=red"), CATALOG.tableau)
    assert known.suited == {1, 2, 3, 4} and len(set(known.partitions[1])) == 13  # ranks by class, suits by pattern
    contrast = cardcount.layout_of(CATALOG.bet("contrast_bonus_1").needs, Knowledge(), CATALOG.tableau)
    assert contrast.pairs == ((1, 3), (2, 4)) and len(set(contrast.partitions[5])) == 2  # the sixth card: its colour alone


def test_rows_counted_before_the_walk_are_the_rows_walked():
    for bet in (CATALOG.bet("monkey_6_tie"), NEW_BETS.bet("three_card_flush"), CATALOG.bet("colour_match")):
        layout = cardcount.layout_of(bet.needs, Knowledge(), CATALOG.tableau)
        compiler = cardcount.Compiler(layout, CATALOG.tableau)
        heads, weight = cardcount.head_rows(layout)
        rows, weight = compiler.rows(heads, weight)
        rows, *_ = compiler.patterns(rows, weight)
        assert layout.size(CATALOG.tableau) >= len(rows)  # patterns no suits can take are dropped after the count


def test_the_bound_on_a_layouts_rows_holds_wherever_it_decides():
    # fits() and layout_of() take Layout.rows_at_most (no walk, no look on disk) before the size
    # itself: wherever the bound is within a limit, the rows a compilation walks must be too, and
    # no more than the bound, for any layout (with known cards, suits by patterns or as classes).
    layouts = set()
    for bet in CARD_BETS + [bet for bet in NEW_BETS.bets if bet.card_level]:
        for known in ([], ["1=9"], ["1=red"], ["2=Ah", "5=K"], ["3=hearts"]):
            knowledge = Knowledge.parse(known)
            layouts.add(cardcount.Layout.of(bet.needs, knowledge))
            layouts.add(cardcount.Layout.of(bet.needs, knowledge, patterns=False))
    checked = 0
    for layout in layouts:
        bound = layout.rows_at_most()
        if bound <= cardcount.MAX_ROWS:
            assert layout.size(CATALOG.tableau, cardcount.MAX_ROWS) <= bound, layout
            checked += 1
    assert checked >= 40
