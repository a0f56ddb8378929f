"""Slips that the suite once let pass: issue 37 wrote 24 small faults by hand into cardcount,
series, runs, amounts, check and batch's card-level paths, and nine changed a result with every
test still passing. Each test here fails on its slip (named in the test's comment), and checks
the figure by a second route: a closed form, brute force over real cards, or the enumerator."""

from fractions import Fraction
from itertools import permutations

import numpy as np
import pytest

from analyzer.amounts import parse_payout
from analyzer.analysis import analyse, enumerated
from analyzer.batch import FEW_SHOES, evaluate_many
from analyzer.bets import evaluate, settled_cells
from analyzer.cards import Shoe
from analyzer.check import check_rules
from analyzer.engine import enumerate_coup
from analyzer.knowledge import Knowledge
from analyzer.rulefile import get_rules, parse_rules
from analyzer.runs import longest_runs
from analyzer.series import line_probabilities

from dealer import deal

STANDARD = get_rules("standard")


def rules_of(text: str):
    return parse_rules('name = "t"\n' + text, "t.toml", None)


def test_a_hand_card_read_alone_is_not_exchanged_with_its_partner():
    # slip: the Player's two cards counted as interchangeable though player_1 is read alone.
    # Closed form, one deck: a 9 first (4 ways), not a 9 third (48 of the 51 - 3 left), any
    # three others in order for the second, fourth and two more places: 50 * 49 * 48 * 47
    rules = rules_of('[[bets]]\nid = "nine"\nlines = [{ label = "9 then not 9", when = '
                     '{ player_1 = { rank = "9" }, not = { player_2 = { rank = "9" } } }, pays = 1 }]\n')
    expected = 4 * 48 * 50 * 49 * 48 * 47
    assert expected == 1_061_222_400
    shoe = Shoe.decks(1)
    assert enumerated(rules, shoe)[0].sequences == (expected,)
    assert evaluate_many(rules, [shoe] * FEW_SHOES).results(0)[0].sequences == (expected,)
    # and the mirror: the second card read alone
    mirror = rules_of('[[bets]]\nid = "nine"\nlines = [{ label = "not 9 then 9", when = '
                      '{ player_2 = { rank = "9" }, not = { player_1 = { rank = "9" } } }, pays = 1 }]\n')
    assert enumerated(mirror, shoe)[0].sequences == (expected,)


def geometric(q: Fraction, k: int, tail: bool) -> Fraction:
    """P(count = k), or P(count >= k) with ``tail``, when each deciding coup counts with chance q."""
    return q**k if tail else q**k * (1 - q)


def banker_share(shoe: Shoe) -> Fraction:
    dist = enumerate_coup(shoe)
    banker, player = (evaluate(STANDARD.bet(b), dist).win for b in ("banker", "player"))
    return banker / (banker + player)


def test_the_line_for_exactly_the_largest_count_named_is_not_given_its_tail():
    # slip: bounds_of one short, so "exactly B" (B the largest count named) took P(count >= B)
    rules = rules_of('[[bets]]\nid = "s"\nlines = [{ label = "1", count = 1, pays = 1 }, '
                     '{ label = "exactly 3", count = 3, pays = 40 }]\n'
                     'series = { counts = { winner = "banker" }, ends = { winner = "player" } }\n')
    shoe = Shoe.decks(8)
    q = banker_share(shoe)
    expected = (geometric(q, 1, False), geometric(q, 3, False))
    assert analyse(rules, shoe)[0].line_probabilities == expected  # the integer law
    dist = enumerate_coup(shoe)
    counts = tuple(dist.count(m) for m in settled_cells(rules.bets[0].conditions, rules.tableau))
    first = (*counts, dist.total)
    assert tuple(line_probabilities(rules.bets[0], first, first)) == expected  # the Fraction law


def test_a_cap_equal_to_the_bound_keeps_its_tail():
    # slip: with most equal to the bound past the largest count named, the capped count's
    # chance (q^most) dropped: "3 or more" must take P(3) + P(4 = the cap) = q^3
    rules = rules_of('[[bets]]\nid = "s"\nlines = [{ label = "3 or more", count = { min = 3 }, pays = 9 }]\n'
                     'series = { counts = { winner = "banker" }, ends = { winner = "player" }, most = 4 }\n')
    shoe = Shoe.decks(6)
    q = banker_share(shoe)
    assert analyse(rules, shoe)[0].line_probabilities == (geometric(q, 3, True),)
    # known cards: the first coup apart (Fraction law). It counts (p1), ends (e1) or passes (a tie);
    # after a count, "3 or more" needs two more of at most three: q^2
    first = enumerate_coup(shoe, knowledge=Knowledge.parse(["1=9"]))
    p1, e1 = (evaluate(STANDARD.bet(b), first).win for b in ("banker", "player"))
    known = enumerated(rules, shoe, "1=9")[0].line_probabilities
    assert known == ((1 - p1 - e1) * q**3 + p1 * q**2,)


@pytest.mark.parametrize("written, net", [("3 for 2", Fraction(1, 2)), ("9 for 4", Fraction(5, 4)),
                                          ("1 for 1", Fraction(0)), ("5 for 1", Fraction(4)), ("2 for 2", Fraction(0))])
def test_n_for_m_pays_what_comes_back_less_the_stake(written, net):
    # slips: "n for m" converted as (n - 1) / m; "1 for 1" (the stake back: a push) refused.
    # n for m: m staked, n returned, so the win per unit staked is (n - m) / m
    assert parse_payout(written, "pay line", "x")[0] == net


def findings(text: str) -> list:
    return [(f.bet, f.message.split(":")[0]) for f in check_rules(rules_of(text))]


def test_rules_check_reports_a_line_naming_exactly_the_counts_earlier_lines_take():
    # slip: shadowed only where a line's counts were a strict subset of those taken before
    assert findings('[[bets]]\nid = "s"\nlines = [{ label = "a", count = { min = 2, max = 3 }, pays = 5 }, '
                    '{ label = "b", count = { min = 2, max = 3 }, pays = 9 }]\n'
                    'series = { counts = { winner = "banker" }, ends = { winner = "player" } }\n') \
        == [("s", "line 2 ('b') is shadowed")]


def test_rules_check_caps_the_count_at_the_lesser_of_most_and_coups():
    # slip: the cap taken as the larger. Most 3 within 6 coups: a count of 5 is never seen,
    # and the enumeration agrees (that line settles nothing)
    text = ('[[bets]]\nid = "s"\nlines = [{ label = "5", count = 5, pays = 50 }, { label = "3", count = 3, pays = 5 }]\n'
            'series = { counts = { winner = "banker" }, ends = { winner = "player" }, most = 3, coups = 6 }\n')
    assert findings(text) == [("s", "line 1 ('5') can never settle")]
    assert analyse(rules_of(text), Shoe.decks(8))[0].line_probabilities[0] == 0


def test_rules_check_sees_every_count_a_bet_can_reach():
    # slips: the counts seen one short of the cap, or of the largest count named plus one (a line
    # that holds only past every count named), so that lines that can pay were reported
    capped = ('[[bets]]\nid = "s"\nlines = [{ label = "4", count = 4, pays = 50 }]\n'
              'series = { counts = { winner = "banker" }, ends = { winner = "player" }, most = 4 }\n')
    past = ('[[bets]]\nid = "s"\nlines = [{ label = "up to 5", count = { max = 5 }, pays = 1 }, '
            '{ label = "any", count = { min = 0 }, pays = 20 }]\n'
            'series = { counts = { winner = "banker" }, ends = { winner = "player" } }\n')
    for text in (capped, past):
        assert findings(text) == []
        assert all(p > 0 for p in analyse(rules_of(text), Shoe.decks(8))[0].line_probabilities)


def test_a_card_level_bet_that_does_not_compile_is_counted_on_every_shoe_of_a_batch():
    # slip: with FEW_SHOES shoes or more the value lines go by polynomials, and a card-level bet
    # that does not compile was left at 0 on those shoes. An 8-card shoe: 2h..7h, As, Kc; a
    # six-card coup of the six hearts in any order the tableau deals in full, by brute force
    rules = rules_of('[[bets]]\nid = "sf"\nlines = [{ label = "six-card straight flush", when = '
                     '{ all_cards = { poker = "straight_flush" }, total_cards = 6 }, pays = 1000 }]\n')
    cards = [f"{r}h" for r in "234567"] + ["As", "Kc"]
    expected = sum(1 for seq in permutations(cards, 6)
                   if deal(seq)["cards"] == 6 and all(c[1] == "h" for c in seq))
    assert expected > 0
    counts = np.zeros((13, 4), np.int64)
    for card in cards:
        counts["A23456789TJQK".index(card[0]), "shdc".index(card[1])] += 1
    shoe = Shoe(tuple(map(tuple, counts.tolist())))
    assert enumerated(rules, shoe)[0].sequences == (expected,)
    batch = evaluate_many(rules, [shoe] * FEW_SHOES)
    assert [batch.results(i)[0].sequences for i in (0, FEW_SHOES - 1)] == [(expected,)] * 2


def test_a_run_ends_with_its_shoe():
    # slip: runs not reset at a new shoe. Shoe 0 ends on three Banker wins, shoe 1 starts with two
    same = np.array([1, 0, 1, 1, 1, 1, 1, 0], bool)
    shoe = np.array([0, 0, 0, 0, 0, 1, 1, 1])
    assert longest_runs(same, None, shoe, 2).tolist() == [3, 2]
    ties = np.array([0, 0, 0, 0, 0, 0, 0, 1], bool)  # a skipped coup neither extends nor breaks
    assert longest_runs(np.array([1, 1, 0, 1, 1, 1, 1, 0]), ties, np.array([0] * 8), 1).tolist() == [4]
