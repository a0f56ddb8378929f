"""Bets on single cards and groups of cards: every card field, group test and poker category
against brute force over every ordered 6-card sequence of small shoes with real suits (the
dealer in dealer.py; the predicates here are written from the docs' definitions (docs/guides/card-level-bets.md)), closed
forms in the infinite deck, and published values."""

from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import permutations

import pytest

from analyzer.questions.analysis import analyse
from analyzer.routes.counts import evaluate
from analyzer.game.cards import BaccaratError, Shoe
from analyzer.game.engine import infinite_deck
from analyzer.render import percent
from analyzer.bets.rulefile import get_rules, parse_rules

from dealer import POINT_VALUE, deal

F = Fraction
RED, FACE, ORDER = "hd", "JQK", "A23456789TJQK"


def shoe_of(names):
    """A shoe holding exactly these physical cards ('Kh', 'Kh', '9s' ...)."""
    counts = [[0] * 4 for _ in range(13)]
    for name in names:
        counts[ORDER.index(name[0])]["shdc".index(name[1])] += 1
    return Shoe(tuple(map(tuple, counts)))


SHOES = {  # 8 cards each: 20,160 ordered 6-card sequences
    "mixed": "As 7h Td Jc 4s 4d Qh 9c".split(),
    "high": "Ah Kh Qh Jh Th 9h Ks As".split(),  # mini royal, J-Q-K-A, flushes
    "low": "Ad 2d 3d 4d Qd Kd 2c 5c".split(),  # A-2-3-4, Q-K-A-2 (wrap), low straight flushes
    "kings": "Kh Ks Kd Kc Kh Ks 9d 9h".split(),  # six, five, four of a kind, full houses
    "triplets": "5h 5h 5s Td Td Tc Ah 2s".split(),  # two triplets
}


def hand(o, side):
    return o[f"{side}_hand"]


def everything(o):
    return list(o["player_hand"]) + list(o["banker_hand"])


def head(o):
    p, b = o["player_hand"], o["banker_hand"]
    return [p[0], b[0], p[1], b[1]]


def third(o, side):
    cards = hand(o, side)
    return cards[2] if len(cards) == 3 else None


def value(card):
    return POINT_VALUE[card[0]]


def rank_counts(cards):
    return sorted(Counter(c[0] for c in cards).values(), reverse=True)


def straight(cards, ace="both", wrap=False):
    """Every rank different and consecutive; the ace low, high or both; wrap past the king."""
    ranks = frozenset(ORDER.index(c[0]) for c in cards)
    return len(ranks) == len(cards) and ranks in runs(len(cards), ace, wrap)


@cache
def runs(size, ace, wrap):
    """The rank sets that are straights of ``size`` cards."""
    found = [frozenset(range(s, s + size)) for s in range(14 - size)]
    if ace in ("both", "high"):
        found.append(frozenset({0} | set(range(14 - size, 13))))
    if ace == "high":
        found.remove(frozenset(range(size)))
    if wrap:
        found += [frozenset((s + i) % 13 for i in range(size)) for s in range(13)]
    return set(found)


def flush(cards):
    return len({c[1] for c in cards}) == 1


GROUPS = {"player_hand": lambda o: list(hand(o, "player")), "banker_hand": lambda o: list(hand(o, "banker")),
          "first_four": head, "all_cards": everything}

# (condition as written in a rule file, the same condition on the dealer's cards)
CASES = [
    ('player_1 = { rank = "K" }', lambda o: o["player_hand"][0][0] == "K"),
    ('banker_2 = { suit = "hearts" }', lambda o: o["banker_hand"][1][1] == "h"),
    ('banker_1 = { suit = ["s", "c"], rank = ["A", "T", "J"] }',
     lambda o: o["banker_hand"][0][1] in "sc" and o["banker_hand"][0][0] in "ATJ"),
    ('player_3 = { colour = "red" }', lambda o: third(o, "player") is not None and third(o, "player")[1] in RED),
    ('banker_3 = { face = true }', lambda o: third(o, "banker") is not None and third(o, "banker")[0] in FACE),
    ('banker_3 = { face = false }', lambda o: third(o, "banker") is not None and third(o, "banker")[0] not in FACE),
    ('player_3 = {}', lambda o: third(o, "player") is not None),
    ('not = { player_3 = { colour = "red" } }',
     lambda o: not (third(o, "player") is not None and third(o, "player")[1] in RED)),
    ('player_2 = { value = [0, 9] }', lambda o: value(o["player_hand"][1]) in (0, 9)),
    ('banker_3 = { value = { min = 4, max = 7 } }', lambda o: third(o, "banker") is not None and 4 <= value(third(o, "banker")) <= 7),
    ('banker_1 = { card = ["Ah", "Ks", "Qh"] }', lambda o: o["banker_hand"][0] in ("Ah", "Ks", "Qh")),
    ('player_1 = { rank = ["T", "J"], face = true }', lambda o: o["player_hand"][0][0] == "J"),
    ('player_1 = { colour = "black" }, banker_1 = { colour = "red" }',
     lambda o: o["player_hand"][0][1] in "sc" and o["banker_hand"][0][1] in RED),
    ('player_hand = { count = 2, of = { colour = "red" } }', lambda o: sum(c[1] in RED for c in hand(o, "player")) == 2),
    ('banker_hand = { count = { min = 2 }, of = { face = true } }', lambda o: sum(c[0] in FACE for c in hand(o, "banker")) >= 2),
    ('first_four = { count = 0, of = { rank = "9" } }', lambda o: not any(c[0] == "9" for c in head(o))),
    ('first_four = { count = [1, 3], of = { card = "4s" } }', lambda o: sum(c == "4s" for c in head(o)) in (1, 3)),
    ('all_cards = { count = 5 }', lambda o: o["cards"] == 5),
    ('player_hand = { every = { colour = "black" } }', lambda o: all(c[1] in "sc" for c in hand(o, "player"))),
    ('all_cards = { every = { value = { max = 5 } } }', lambda o: all(value(c) <= 5 for c in everything(o))),
    ('first_four = { same_colour = true }', lambda o: len({c[1] in RED for c in head(o)}) == 1),
    ('all_cards = { same_colour = false }', lambda o: len({c[1] in RED for c in everything(o)}) == 2),
    ('player_hand = { same_suit = true }', lambda o: flush(hand(o, "player"))),
    ('banker_hand = { same_suit = false }', lambda o: not flush(hand(o, "banker"))),
    ('all_cards = { max_value = 9 }', lambda o: max(map(value, everything(o))) == 9),
    ('player_hand = { min_value = [0, 1] }', lambda o: min(map(value, hand(o, "player"))) in (0, 1)),
    ('first_four = { max_value = { min = 7 }, min_value = { max = 2 } }',
     lambda o: max(map(value, head(o))) >= 7 and min(map(value, head(o))) <= 2),
    ('winner = "tie", all_cards = { max_value = { max = 5 } }',
     lambda o: o["winner"] == 0 and max(map(value, everything(o))) <= 5),
    ('total_cards = 6, player_3 = { face = false }, banker_3 = { face = true }',
     lambda o: o["cards"] == 6 and third(o, "player")[0] not in FACE and third(o, "banker")[0] in FACE),
]
POKER = {  # category: test on the group's cards (any group)
    "pair": lambda cs: rank_counts(cs)[0] >= 2,
    "two_pair": lambda cs: rank_counts(cs)[1:2] >= [2],
    "three_of_a_kind": lambda cs: rank_counts(cs)[0] >= 3,
    "full_house": lambda cs: rank_counts(cs)[0] >= 3 and rank_counts(cs)[1:2] >= [2],
    "two_triplets": lambda cs: rank_counts(cs)[1:2] >= [3],
    "four_of_a_kind": lambda cs: rank_counts(cs)[0] >= 4,
    "five_of_a_kind": lambda cs: rank_counts(cs)[0] >= 5,
    "six_of_a_kind": lambda cs: rank_counts(cs)[0] >= 6,
    "flush": flush,
    "straight": straight,
    "straight_flush": lambda cs: straight(cs) and flush(cs),
    "mini_royal": lambda cs: flush(cs) and sorted(c[0] for c in cs) == sorted("AKQJ"),
}
def never(o):
    return False


FEWEST = {"two_pair": 4, "full_house": 5, "two_triplets": 6, "four_of_a_kind": 4, "five_of_a_kind": 5,
          "six_of_a_kind": 6, "mini_royal": 4}  # cards a category needs; a hand has at most 3
POSSIBLE = [(group, category) for group in GROUPS for category in POKER
            if FEWEST.get(category, 2) <= (4 if group == "first_four" else 6 if group == "all_cards" else 3)
            and (group, category) != ("all_cards", "mini_royal")]  # A, K, Q, J alone make no natural
CASES += [(f'{group} = {{ poker = "{category}" }}', lambda o, t=POKER[category], g=GROUPS[group]: t(g(o)))
          for group, category in POSSIBLE]
CASES += [(f'{group} = {{ poker = "{category}" }}', never)  # too few cards
          for group in GROUPS for category in POKER if (group, category) not in POSSIBLE]
CASES += [
    ('first_four = { poker = "pair", poker_ranks = ["A", "T", "J", "Q", "K"] }',
     lambda o: any(n >= 2 and r in "ATJQK" for r, n in Counter(c[0] for c in head(o)).items())),
    ('all_cards = { poker = ["flush", "straight"] }', lambda o: flush(everything(o)) or straight(everything(o))),
    ('any = [{ player_hand = { same_suit = true } }, { banker_3 = { rank = "K" } }]',
     lambda o: flush(hand(o, "player")) or (third(o, "banker") or "x")[0] == "K"),
]


def rule_file(cases, poker=""):
    bets = "\n".join(f'[[bets]]\nid = "b{i}"\nname = "case {i}"\nlines = [{{ when = {{ {when} }}, pays = 1 }}]'
                     for i, (when, _) in enumerate(cases))
    return parse_rules(f'name = "cases"\n{poker}\n{bets}', "cases.toml", None)


@cache
def dealt(name):
    return [deal(seq) for seq in permutations(SHOES[name], 6)]


def brute_force(cases, name):
    coups = dealt(name)
    return [F(sum(map(test, coups)), len(coups)) for _, test in cases]


@cache
def brute_force_cases(name):
    return brute_force(CASES, name)


@pytest.mark.parametrize("name", SHOES)
def test_every_card_test_equals_brute_force(name):
    results = analyse(rule_file(CASES), shoe_of(SHOES[name]))
    expected = brute_force_cases(name)
    for (when, _), result, p in zip(CASES, results, expected):
        assert result.win == p, when


def test_every_case_is_met_somewhere_and_missed_somewhere():
    # A test that never holds (or always does) on these shoes would check nothing.
    for i, (when, test) in enumerate(CASES):
        if test is never:
            continue
        hits = [sum(map(test, dealt(name))) for name in SHOES]
        assert any(hits) and not all(h == len(dealt(n)) for h, n in zip(hits, SHOES)), when


@pytest.mark.parametrize("ace, wrap", [("both", False), ("low", False), ("high", False), ("both", True), ("low", True)])
def test_where_the_ace_stands_in_a_straight(ace, wrap):
    cases = [(f'{group} = {{ poker = "{category}" }}',
              lambda o, g=cards_of, f=category == "straight_flush": straight(g(o), ace, wrap) and (not f or flush(g(o))))
             for group, cards_of in GROUPS.items() for category in ("straight", "straight_flush")]
    rules = rule_file(cases, f'[poker]\nace = "{ace}"\nwrap = {str(wrap).lower()}')
    for name in ("high", "low", "mixed"):
        results = analyse(rules, shoe_of(SHOES[name]))
        for (when, _), result, p in zip(cases, results, brute_force(cases, name)):
            assert result.win == p, (when, name)


def test_pay_lines_settle_in_order_at_card_detail():
    # Jackpot-style ordering: a four of a kind is also a pair; the first line that holds settles.
    rules = parse_rules('''name = "order"
        [[bets]]
        id = "poker"
        name = "poker"
        lines = [
          { when = { first_four = { poker = "four_of_a_kind" } }, pays = 75 },
          { when = { first_four = { poker = "three_of_a_kind" } }, pays = 15 },
          { when = { first_four = { poker = "pair" } }, pays = 1 },
        ]''', "order.toml", None)
    result = analyse(rules, shoe_of(SHOES["kings"]))[0]
    coups = dealt("kings")
    most = Counter(rank_counts(head(o))[0] for o in coups)
    assert result.line_probabilities == tuple(F(most[n], len(coups)) for n in (4, 3, 2))


def test_infinite_deck_closed_forms():
    # In the infinite deck every card is independent: P = product of the chances of each card.
    cases = [('first_four = { same_colour = true }', 2 * F(1, 2) ** 4),
             ('player_1 = { rank = "K" }, banker_1 = { suit = "h" }', F(1, 13) * F(1, 4)),
             ('first_four = { every = { face = true } }', F(3, 13) ** 4),
             ('first_four = { count = 2, of = { rank = "9" } }', 6 * F(1, 13) ** 2 * F(12, 13) ** 2),
             ('first_four = { poker = "mini_royal" }', 4 * 24 * F(1, 52) ** 4)]
    rules = rule_file([(when, None) for when, _ in cases])
    dist = infinite_deck()
    for bet, (when, p) in zip(rules.bets, cases):
        assert evaluate(bet, dist).win == p, when


def test_a_card_level_bet_sums_to_one_on_a_depleted_shoe_with_uneven_suits():
    shoe = Shoe.decks(1).without_cards([(12, 1), (12, 1 + 1), (0, 0), (8, 3), (9, None)])
    for result in analyse(get_rules("catalog"), shoe):
        assert sum(result.line_probabilities) + result.loss == 1, result.bet.id


def test_published_8_deck_figures():
    results = {r.bet.id: r for r in analyse(get_rules("catalog"), Shoe.decks(8))}
    total = 4_998_398_275_503_360  # ordered 6-card sequences of 416 cards
    # Wizard of Odds, "Majestic Match" (baccarat side bet): house edge 6.46 %, return -0.064597.
    assert round(results["majestic_match"].ev, 6) == F(-64597, 10**6)
    assert results["majestic_match_banker"].ev == results["majestic_match"].ev  # same cards, other hand
    # Wizard of Odds, "Color Match": house edge 13.7635 %.
    assert percent(results["colour_match"].house_edge) == "13.7635%"
    # Wizard of Odds, "Contrast Bonus": wins by cards dealt (six, five, four) of all sequences;
    # pay table 1 (35/15/5) house edge 4.9612 %.
    contrast = results["contrast_bonus_1"].line_probabilities
    assert [p * total for p in contrast] == [49_975_532_181_504, 95_217_257_023_488, 237_970_360_442_880]
    assert percent(results["contrast_bonus_1"].house_edge) == "4.9612%"
    # Eliot Jacobson, "Monkey 6" (and Wizard of Odds): at 12 to 1, win 0.059126, house edge 23.14 %.
    assert round(results["monkey_6"].win, 6) == F(59126, 10**6)
    assert percent(results["monkey_6"].house_edge, 2) == "23.14%"
    # Wizard of Odds, "Jackpot Baccarat": 15.8026 %, and each line's count among the
    # C(416, 4) = 1,229,930,520 four-card combinations of the first four cards.
    jackpot = results["jackpot_baccarat"]
    assert percent(jackpot.house_edge) == "15.8026%"
    combinations = [16_384, 467_480, 163_840, 24_760_320, 17_929_088, 11_354_112, 18_944_640, 33_048_576, 132_194_304]
    assert [p * 1_229_930_520 for p in jackpot.line_probabilities] == combinations


def test_bad_card_tests_name_the_file_and_the_key():
    cases = {
        'player_4 = { rank = "K" }': "no card 'player_4': a hand has at most three cards",
        'banker_0 = {}': "no card 'banker_0'",
        'first_five = { count = 1 }': "unknown outcome field 'first_five'",
        'player_1 = { rank = 11 }': "player_1.rank",
        'player_1 = { rank = "11" }': "unknown card rank '11'",
        'player_1 = { suit = "x" }': "unknown suit 'x'",
        'player_1 = { colour = "green" }': "unknown colour 'green'",
        'player_1 = { face = "yes" }': "face is true or false",
        'player_1 = { value = 10 }': "10 is not a point value",
        'player_1 = { card = "K" }': "a card names its suit",
        'player_1 = { size = 3 }': "unknown card attribute 'size'",
        'player_1 = "K"': "a card test is a table",
        'first_four = { poker = "royal_flush" }': "unknown poker category 'royal_flush'",
        'first_four = { count = 5 }': "5 is not a number of cards",
        'first_four = { colour = "red" }': "unknown group test 'colour'",
        'first_four = { of = { rank = "K" } }': "'of' goes with 'count'",
        'first_four = { poker = "flush", poker_ranks = ["A"] }': "only an n-of-a-kind",
        'player_hand = {}': "a group test is a table",
    }
    for when, message in cases.items():
        with pytest.raises(BaccaratError) as error:
            rule_file([(when, None)])
        text = str(error.value)
        assert text.startswith("cases.toml: bets[1].lines[1].when.") and message in text, (when, text)
        assert "\n" not in text


def test_bad_card_test_on_the_command_line(tmp_path):
    from click.testing import CliRunner

    from analyzer.cli import cli

    path = tmp_path / "bad.toml"
    path.write_text('name = "bad"\n[[bets]]\nid = "x"\nname = "x"\n'
                    'lines = [{ when = { banker_3 = { rank = 11 } }, pays = 1 }]\n')
    result = CliRunner().invoke(cli, ["edge", "--rules", str(path)])
    assert result.exit_code == 1
    assert result.output == f"Error: {path}: bets[1].lines[1].when.banker_3.rank: rank takes a name or a list of names (got 11)\n"
