"""The enumerator against brute force, closed forms, published values and a Monte Carlo dealer."""

import math
import random
from collections import Counter
from fractions import Fraction
from itertools import product

import numpy as np
import pytest

from analyzer.game.cards import RANKS, Shoe, card_name
from analyzer.bets.bet import where
from analyzer.game.engine import enumerate_coup, falling, infinite_deck, closed_form
from analyzer.game.tableau import PUNTO_BANCO

from dealer import banker_draws, banker_stands_on_6, brute_force, deal

KEYS = ["player_total", "banker_total", "player_third", "banker_third", "player_pair", "banker_pair",
        "player_suited", "banker_suited", "player_natural", "banker_natural", "winner"]


def cells(dist, keys=KEYS):
    """The distribution as a Counter over the same outcome keys as the brute-force dealer."""
    tally = Counter()
    columns = [dist.fields[k].tolist() for k in keys]
    for i, count in enumerate(dist.sequences.tolist()):
        if count:
            tally[tuple(col[i] for col in columns)] += count
    return tally


def physical_cards(shoe):
    return [card_name(r, s) for r in range(13) for s in range(4) for _ in range(shoe.counts[r][s])]


def random_shoe(rng, size, ranks=range(13), suits=range(4)):
    counts = [[0] * 4 for _ in RANKS]
    for _ in range(size):
        counts[rng.choice(list(ranks))][rng.choice(list(suits))] += 1
    return Shoe(tuple(map(tuple, counts)))


def small_shoes():
    rng = random.Random(2026)
    shoes = [random_shoe(rng, rng.randint(6, 9)) for _ in range(12)]
    # Few ranks and suits: many pairs, suited hands and repeated kinds (depletion across hands).
    shoes += [random_shoe(rng, rng.randint(6, 9), ranks=(0, 4, 5, 9, 12), suits=(0, 1)) for _ in range(12)]
    shoes += [random_shoe(rng, 8, ranks=(3, 4, 5), suits=(2,)) for _ in range(3)]
    shoes.append(Shoe.from_ranks([0] * 9 + [2, 2, 2, 2]))  # zero-value cards only: both hands draw, every coup ties
    return shoes


@pytest.mark.parametrize("shoe", small_shoes(), ids=lambda s: s.describe())
def test_every_cell_equals_brute_force_over_card_permutations(shoe):
    assert cells(enumerate_coup(shoe)) == brute_force(physical_cards(shoe), KEYS)


def test_a_ten_card_shoe_by_brute_force():
    shoe = random_shoe(random.Random(7), 10, ranks=(0, 1, 5, 6, 7, 11), suits=(0, 3))
    assert cells(enumerate_coup(shoe)) == brute_force(physical_cards(shoe), KEYS)


@pytest.mark.parametrize("decks", [1, 2, 8, 30])
def test_counts_sum_to_the_ordered_six_card_basis(decks):
    dist = enumerate_coup(Shoe.decks(decks))
    n = 52 * decks
    assert dist.total == n * (n - 1) * (n - 2) * (n - 3) * (n - 4) * (n - 5)
    assert sum(dist.sequences.tolist()) == dist.total
    assert min(dist.sequences.tolist()) >= 0


def test_published_main_outcome_counts():
    # Wizard of Odds, "Baccarat - Appendix 1: combinatorial analysis" (8 and 6 decks), the same
    # figures as in the issue: combinations out of the ordered 6-card sequences.
    for decks, banker, player, tie in [
        (8, 2_292_252_566_437_888, 2_230_518_282_592_256, 475_627_426_473_216),
        (6, 403_095_751_234_560, 392_220_492_728_832, 83_552_962_932_288),
    ]:
        dist = enumerate_coup(Shoe.decks(decks))
        winner = dist.fields["winner"]
        assert [dist.count(winner == w) for w in (-1, 1, 0)] == [banker, player, tie]
    assert enumerate_coup(Shoe.decks(8)).total == 4_998_398_275_503_360


@pytest.mark.parametrize("decks", [1, 2, 3, 6, 8, 13, 40])
def test_pair_probability_closed_form(decks):
    # The second card matches the first's rank: (4d - 1) / (52d - 1); perfect pair (d - 1) / (52d - 1).
    dist = enumerate_coup(Shoe.decks(decks))
    for hand in ("player", "banker"):
        pair, suited = dist.fields[f"{hand}_pair"], dist.fields[f"{hand}_suited"]
        assert Fraction(dist.count(pair), dist.total) == Fraction(4 * decks - 1, 52 * decks - 1)
        assert Fraction(dist.count(pair & suited), dist.total) == Fraction(decks - 1, 52 * decks - 1)
        assert Fraction(dist.count(suited), dist.total) == Fraction(13 * decks - 1, 52 * decks - 1)


def test_both_hands_pair_closed_form_one_deck():
    # Player pair: 52*3 ordered ways; the Banker then pairs from 50 cards: 12 ranks of 4 and one of 2.
    dist = enumerate_coup(Shoe.decks(1))
    both = dist.fields["player_pair"] & dist.fields["banker_pair"]
    expected = Fraction(52 * 3, 52 * 51) * Fraction(12 * 4 * 3 + 2 * 1, 50 * 49)
    assert Fraction(dist.count(both), dist.total) == expected


@pytest.mark.parametrize("shoe", [Shoe.decks(8), Shoe.decks(3).without_cards([(4, None), (0, 1), (9, 3), (9, 3)])])
def test_int64_and_python_integer_paths_agree(shoe):
    fast = closed_form(shoe, PUNTO_BANCO, np.int64)
    exact = closed_form(shoe, PUNTO_BANCO, object)
    assert fast.sequences.dtype == np.int64 and exact.sequences.dtype == object
    assert fast.sequences.tolist() == exact.sequences.tolist()


def test_huge_shoe_uses_exact_integers():
    dist = enumerate_coup(Shoe.decks(100))
    assert dist.sequences.dtype == object
    assert dist.total == falling(5200, 6) > 2**63
    assert sum(dist.sequences.tolist()) == dist.total


def test_invariant_under_relabelling_suits():
    rng = random.Random(5)
    kinds = [(r, s) for r in range(13) for s in range(4)]
    shoe = Shoe.decks(2).without_cards(rng.sample(kinds, 30) + rng.sample(kinds, 12))
    order = [2, 0, 3, 1]
    relabelled = Shoe(tuple(tuple(row[order[s]] for s in range(4)) for row in shoe.counts))
    assert relabelled != shoe and relabelled.canonical() == shoe.canonical()
    # closed_form() itself, not the cache (which relies on this very invariance).
    assert closed_form(relabelled, PUNTO_BANCO, np.int64).sequences.tolist() == closed_form(shoe, PUNTO_BANCO, np.int64).sequences.tolist()


def test_invariant_under_the_order_of_removals():
    rng = random.Random(11)
    explicit = rng.sample([(r, s) for r in range(13) for s in range(4)], 25)
    by_rank = [(rng.randrange(13), None) for _ in range(25)]
    for cards in (explicit, by_rank):
        shuffled = cards[:]
        rng.shuffle(shuffled)
        a, b = Shoe.decks(2).without_cards(cards), Shoe.decks(2).without_cards(shuffled)
        assert a == b
        assert closed_form(a, PUNTO_BANCO, np.int64).sequences.tolist() == closed_form(b, PUNTO_BANCO, np.int64).sequences.tolist()


@pytest.mark.parametrize("decks, coups, seed", [(1, 60_000, 1), (8, 60_000, 2)])
def test_monte_carlo_dealer_agrees(decks, coups, seed):
    """Deal real shuffled cards; every outcome frequency lies within 4.5 standard errors."""
    shoe = Shoe.decks(decks)
    cards = physical_cards(shoe)
    rng = random.Random(seed)
    seen = Counter()
    for _ in range(coups):
        o = deal(rng.sample(cards, 6))
        seen.update(k for k, hit in [
            ("banker", o["winner"] == -1), ("player", o["winner"] == 1), ("tie", o["winner"] == 0),
            ("player_pair", o["player_pair"]), ("banker_suited", o["banker_suited"]),
            ("player_natural", o["player_natural"]), ("banker_three_card_7", o["banker_total"] == 7 and o["banker_third"] >= 0),
        ] if hit)
    dist = enumerate_coup(shoe)
    f = dist.fields
    exact = {
        "banker": f["winner"] == -1, "player": f["winner"] == 1, "tie": f["winner"] == 0,
        "player_pair": f["player_pair"], "banker_suited": f["banker_suited"], "player_natural": f["player_natural"],
        "banker_three_card_7": (f["banker_total"] == 7) & (f["banker_cards"] == 3),
    }
    for name, mask in exact.items():
        p = dist.count(mask) / dist.total  # a float only to size the statistical bound
        assert abs(seen[name] - coups * p) <= 4.5 * math.sqrt(coups * p * (1 - p)), name



# The infinite-deck limit -------------------------------------------------------------------

VALUE_WEIGHT = [16] + [4] * 9  # ways to draw each point value 0..9 from the 52 kinds of a deck


def with_replacement_by_totals(banker_rule=banker_draws):
    """Counter of (player total, banker total, player cards, banker cards) over sequences of six
    card kinds drawn with replacement (52**6 in all), dealt rule by rule, weighted by value."""
    tally = Counter()
    for a, b, c, d in product(range(10), repeat=4):
        head = VALUE_WEIGHT[a] * VALUE_WEIGHT[b] * VALUE_WEIGHT[c] * VALUE_WEIGHT[d]
        pt, bt = (a + b) % 10, (c + d) % 10
        if pt >= 8 or bt >= 8:
            tally[pt, bt, 2, 2] += head * 52**2
            continue
        for p3 in range(10) if pt <= 5 else [None]:
            weight = head * (VALUE_WEIGHT[p3] if p3 is not None else 52)
            final_p = pt if p3 is None else (pt + p3) % 10
            if banker_rule(bt, p3):
                for b3 in range(10):
                    tally[final_p, (bt + b3) % 10, 2 + (p3 is not None), 3] += weight * VALUE_WEIGHT[b3]
            else:
                tally[final_p, bt, 2 + (p3 is not None), 2] += weight * 52
    return tally


def test_infinite_deck_equals_dealing_with_replacement():
    limit = infinite_deck()
    f = limit.fields
    keys = zip(f["player_total"], f["banker_total"], f["player_cards"], f["banker_cards"])
    ours = Counter()
    for key, count in zip(keys, limit.sequences):
        ours[tuple(int(k) for k in key)] += int(count)
    assert ours == +with_replacement_by_totals()
    assert limit.total == 52**6


def test_infinite_deck_pairs_and_suits_closed_forms():
    """With replacement the two cards of a hand match in rank with probability 1/13, in suit 1/4,
    both 1/52, and the two hands are independent."""
    limit = infinite_deck()
    f = limit.fields
    p = lambda mask: Fraction(limit.count(mask), limit.total)  # noqa: E731
    assert p(f["player_pair"]) == p(f["banker_pair"]) == Fraction(1, 13)
    assert p(f["player_suited"]) == Fraction(1, 4)
    assert p(f["player_pair"] & f["player_suited"]) == Fraction(1, 52)
    assert p(f["player_pair"] & f["banker_pair"]) == Fraction(1, 169)


def test_infinite_deck_is_the_limit_of_growing_shoes():
    """The distance to the limit halves as the decks double (it falls like 1/decks)."""
    banker = where(winner="banker")
    limit = Fraction(infinite_deck().count(banker.mask(infinite_deck().fields)), 52**6)
    gaps = []
    for decks in (8, 16, 32, 64):
        dist = enumerate_coup(Shoe.decks(decks))
        gaps.append(abs(Fraction(dist.count(banker.mask(dist.fields)), dist.total) - limit))
    assert all(1.9 < a / b < 2.1 for a, b in zip(gaps, gaps[1:]))


def test_infinite_deck_follows_the_tableau():
    from analyzer.bets.rulefile import get_rules

    limit = infinite_deck(get_rules("banker-stands-on-6").tableau)
    f = limit.fields
    assert not (f["banker_two_card_total"][f["banker_cards"] == 3] == 6).any()
    keys = zip(f["player_total"], f["banker_total"], f["player_cards"], f["banker_cards"])
    ours = Counter()
    for key, count in zip(keys, limit.sequences):
        ours[tuple(int(k) for k in key)] += int(count)
    assert ours == +with_replacement_by_totals(banker_stands_on_6)


def test_shoes_alike_within_each_class_share_one_enumeration():
    # To a bet on colours, a shoe a heart short and one a diamond short are the same shoe: the walk
    # reads a shoe only by its cards of each class. One enumeration serves both, each carrying its
    # own shoe, and its counts and cells are what a fresh walk of the second shoe gives.
    from analyzer.game import engine
    from analyzer.game.layout import Detail
    from analyzer.bets.rulefile import get_rules

    colour = next(b for b in get_rules("catalog").bets if b.id == "colour_match")
    detail = Detail.of(colour.needs)
    full = Shoe.decks(1)
    hearts, diamonds, spades = full.without_card(4, 1), full.without_card(4, 2), full.without_card(4, 0)
    a, b = engine.enumerate_cards(hearts, PUNTO_BANCO, detail), engine.enumerate_cards(diamonds, PUNTO_BANCO, detail)
    assert a.sequences is b.sequences and (a.shoe, b.shoe) == (hearts, diamonds)
    fresh = engine._enumerate_cards(diamonds, PUNTO_BANCO, detail)
    assert np.array_equal(fresh.sequences, b.sequences) and fresh.fields.keys() <= b.fields.keys()
    assert all(np.array_equal(fresh.fields[name], b.fields[name]) for name in fresh.fields)
    black = engine.enumerate_cards(spades, PUNTO_BANCO, detail)
    assert not np.array_equal(black.sequences, a.sequences)  # a black card gone is another shoe to this bet
    assert black.fields is a.fields  # laid out alike (every class live): one set of cells and masks


def test_recent_keeps_the_latest_within_its_budget():
    from analyzer.base.recent import Recent

    recent = Recent(10, size=len)
    for key, size in (("a", 4), ("b", 4), ("c", 4)):
        recent.put(key, [0] * size)
    assert list(recent.values) == ["b", "c"]
    recent.get("b")  # used: now the newest
    recent.put("d", [0] * 4)
    assert list(recent.values) == ["b", "d"]
    recent.put("big", [0] * 50)  # over the budget alone: kept, every other dropped
    assert list(recent.values) == ["big"]
