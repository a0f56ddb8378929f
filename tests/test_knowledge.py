"""Known cards: conditional distributions and bets against brute force over every ordered 6-card
sequence of small shoes with real suits (the dealer in dealer.py), keeping only the sequences
that agree with what is known; and identities (conditioning on every state and summing gives the
unconditional counts back; the infinite deck's independence)."""

from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import permutations

import pytest

from analyzer.questions.analysis import analyse
from analyzer.routes.counts import evaluate, outcome_counts
from analyzer.game.cards import BaccaratError, Shoe
from analyzer.game.engine import enumerate_coup, infinite_deck
from analyzer.game.knowledge import Knowledge
from analyzer.bets.rulefile import get_rules

from dealer import deal
from test_cards import CASES, SHOES, rule_file, shoe_of

F = Fraction
TESTS = {  # what a known-card text means, written from the docs (known cards), on physical cards like 'Kh'
    "6-9": lambda c: c[0] in "6789",
    "red": lambda c: c[1] in "hd",
    "black": lambda c: c[1] in "sc",
    "Ah": lambda c: c == "Ah",
    "K": lambda c: c[0] == "K",
    "0,1": lambda c: c[0] in "TJQKA",
    "T-K": lambda c: c[0] in "TJQK",
    "hearts": lambda c: c[1] == "h",
    "4,9,Qh": lambda c: c[0] in "49" or c == "Qh",
}
KNOWN = [  # (position, text) pairs known together
    [(1, "6-9")], [(2, "red")], [(3, "K")], [(4, "0,1")], [(5, "6-9")], [(6, "black")],
    [(1, "6-9"), (2, "6-9"), (3, "6-9"), (4, "6-9")], [(5, "red"), (6, "T-K")], [(1, "Ah"), (6, "4,9,Qh")],
    [(2, "hearts"), (5, "0,1")], [(1, "red"), (1, "0,1")],  # the same place twice: both hold
]
KEYS = ("player_total", "banker_total", "player_third", "banker_third")


def label(known):
    return " ".join(f"{p}={t}" for p, t in known)


@cache
def agreeing(name, known):
    """Every ordered 6-card sequence of the shoe that agrees with what is known, dealt."""
    return [deal(seq) for seq in permutations(SHOES[name], 6) if all(TESTS[t](seq[p - 1]) for p, t in known)]


def knowledge(known):
    return Knowledge.parse([f"{p}={t}" for p, t in known])


@pytest.mark.parametrize("known", [tuple(k) for k in KNOWN], ids=label)
def test_conditional_distribution_equals_brute_force(known):
    for name in ("mixed", "high", "kings"):
        coups = agreeing(name, known)
        if not coups:
            with pytest.raises(BaccaratError, match="no deal from this shoe agrees with the known cards"):
                enumerate_coup(shoe_of(SHOES[name]), knowledge=knowledge(known))
            continue
        dist = enumerate_coup(shoe_of(SHOES[name]), knowledge=knowledge(known))
        assert dist.total == len(coups)
        cells = Counter()
        for i, count in enumerate(dist.sequences):
            cells[tuple(int(dist.fields[k][i]) for k in KEYS)] += int(count)
        assert +cells == Counter(tuple(o[k] for k in KEYS) for o in coups), name


@pytest.mark.parametrize("known", [tuple(k) for k in KNOWN[::2]], ids=label)
def test_bets_given_known_cards_equal_brute_force(known):
    cases = CASES[::6]
    rules = rule_file(cases)
    standard = get_rules("standard")
    for name in ("mixed", "low"):
        coups = agreeing(name, known)
        if not coups:
            continue
        shoe = shoe_of(SHOES[name])
        for (when, test), result in zip(cases, analyse(rules, shoe, knowledge(known))):
            assert result.win == F(sum(map(test, coups)), len(coups)), (when, name)
        results = {r.bet.id: r for r in analyse(standard, shoe, knowledge(known))}
        for bet_id, test in [("banker", lambda o: o["winner"] < 0), ("tie", lambda o: o["winner"] == 0),
                             ("player_pair", lambda o: o["player_pair"]), ("banker_pair", lambda o: o["banker_pair"])]:
            assert results[bet_id].win == F(sum(map(test, coups)), len(coups)), (bet_id, name)
        outcomes = dict((n, c) for n, _, c in outcome_counts(enumerate_coup(shoe, knowledge=knowledge(known))))
        assert outcomes["player_pair"] == sum(o["player_pair"] for o in coups)
        assert outcomes["banker_draws"] == sum(len(o["banker_hand"]) == 3 for o in coups)


def test_every_state_of_a_place_sums_to_the_unconditional_counts():
    # Conditioning on each point value of a card, and on each colour, partitions the sequences.
    shoe = Shoe.decks(1).without_cards([(0, 0), (8, 3), (12, 1), (4, None)])
    whole = enumerate_coup(shoe)
    values, colours = [str(v) for v in range(10)], ["red", "black"]
    for position, partition in [(p, values) for p in range(1, 7)] + [(2, colours), (6, colours)]:
        parts = [outcome_counts(enumerate_coup(shoe, knowledge=Knowledge().at(position, text))) for text in partition]
        for i, (outcome, _, count) in enumerate(outcome_counts(whole)):
            assert sum(part[i][2] for part in parts) == count, (position, outcome)
        totals = [enumerate_coup(shoe, knowledge=Knowledge().at(position, text)).total for text in partition]
        assert sum(totals) == whole.total


def test_infinite_deck_given_a_known_card():
    # With replacement, the cards are independent: knowing card 5 is a 9 leaves the first four
    # cards as they were, and the tie's probability given card 1 in 6-9 is the average over those
    # four values of the tie given card 1 is that value.
    tie = get_rules("standard").bet("tie")
    by_value = [evaluate(tie, infinite_deck(knowledge=Knowledge().at(1, str(v)))).win for v in (6, 7, 8, 9)]
    assert evaluate(tie, infinite_deck(knowledge=Knowledge().at(1, "6-9"))).win == sum(by_value) / 4
    pair = get_rules("standard").bet("player_pair")
    assert evaluate(pair, infinite_deck(knowledge=Knowledge().at(5, "9"))).win == F(1, 13)
    assert evaluate(pair, infinite_deck(knowledge=Knowledge().at(1, "K"))).win == F(1, 13)


def test_a_full_shoe_converges_to_the_infinite_deck_given_known_cards():
    banker = get_rules("standard").bet("banker")
    known = Knowledge.parse(["1=6-9", "6=red"])
    limit = evaluate(banker, infinite_deck(knowledge=known)).ev
    gaps = [abs(evaluate(banker, enumerate_coup(Shoe.decks(d), knowledge=known)).ev - limit) for d in (1, 8, 64)]
    assert gaps[0] > gaps[1] > gaps[2] > 0


@pytest.mark.parametrize("items, message", [
    (["7=9"], "no card position '7': positions are 1 to 6"),
    (["0=9"], "no card position '0'"),
    (["x=9"], "no card position 'x'"),
    (["1"], "known cards are written POSITION=CARDS, e.g. 1=6-9 or 5=red (got '1')"),
    (["1="], "no cards named in ''"),
    (["1=9", "1=8"], "the knowledge of card 1 contradicts itself: 9 and 8"),
    (["1=red", "1=spades"], "the knowledge of card 1 contradicts itself: red and spades"),
    (["2=Z"], "unknown card 'Z'"),
    (["2=9-6"], "the range '9-6' runs backwards"),
])
def test_bad_knowledge(items, message):
    with pytest.raises(BaccaratError, match=message.replace("(", r"\(").replace(")", r"\)")):
        Knowledge.parse(items)


def test_knowledge_the_shoe_cannot_satisfy():
    shoe = Shoe.decks(1).without_cards([(8, None)] * 3)  # one 9 left
    enumerate_coup(shoe, knowledge=Knowledge.parse(["1=9"]))
    with pytest.raises(BaccaratError, match="no deal from this shoe agrees with the known cards"):
        enumerate_coup(shoe, knowledge=Knowledge.parse(["1=9", "4=9"]))


def test_effect_of_removal_given_known_cards_keeps_the_sum_rule():
    # With known cards, a card's weight is the cards left times the chance of the knowledge once
    # it is gone; the sum rule then holds exactly (burning a random card first changes nothing).
    from analyzer.questions.eor import effect_of_removal

    shoe = Shoe.decks(1).without_cards([(0, 0), (8, 3), (12, 1)])
    rules = get_rules("catalog").only(["banker", "tie", "player_pair", "colour_match"])
    for known in (["1=6-9"], ["5=red", "2=K"]):
        removal = effect_of_removal(rules, shoe, knowledge=Knowledge.parse(known))
        for key in removal.base:
            assert removal.check_sum(key) == 0, (known, key)
        for key in removal.outcomes.base:
            assert removal.outcomes.check_sum(key) == 0, (known, key)
        assert removal.weights != tuple(shoe.rank_counts())  # the knowledge does weigh the ranks
    plain = effect_of_removal(rules, shoe)
    assert plain.weights == tuple(shoe.rank_counts())


def test_effect_of_removal_when_a_removal_makes_the_knowledge_impossible():
    from analyzer.questions.eor import effect_of_removal

    shoe = Shoe.decks(1).without_cards([(8, None)] * 3)  # one 9 left, and it is known to be card 1
    removal = effect_of_removal(get_rules("standard"), shoe, knowledge=Knowledge.parse(["1=9"]))
    assert removal.by_rank[8] is None and removal.weights[8] == 0
    assert removal.check_sum("banker") == 0


def cli(*args):
    from click.testing import CliRunner

    from analyzer.cli import cli as command

    return CliRunner().invoke(command, list(args))


def test_known_cards_on_every_per_shoe_command(tmp_path):
    import json

    shoe = Shoe.decks(8)
    known = Knowledge.parse(["1=6-9", "5=red"])
    expected = enumerate_coup(shoe, knowledge=known)
    for command in (["odds"], ["edge"], ["now", "--dealt", "K"], ["eor", "--decks", "1"], ["compare"],
                    ["solve", "--bet", "tie"]):
        result = cli(*command, "--known", "1=6-9", "--known", "5=red", "--format", "json")
        assert result.exit_code == 0, (command, result.output)
        data = json.loads(result.output)
        assert data["known"] == {"1": "6, 7, 8, 9", "5": "red"}, command
        if command[0] in ("odds", "edge"):
            assert data["total"] == expected.total
    banker = evaluate(get_rules("standard").bet("banker"), expected).ev
    assert json.loads(cli("edge", "--known", "1=6-9", "--known", "5=red", "--format", "json").output)["bets"][0]["ev"] \
        == f"{banker.numerator}/{banker.denominator}"
    result = cli("report", "--known", "2=A", "--decks", "1", "-o", str(tmp_path / "par"))
    assert result.exit_code == 0, result.output
    report = json.loads((tmp_path / "par" / "report.json").read_text())
    assert report["known"] == {"2": "A"} and "--known 2=A" in report["command"]
    assert "## Known cards" in (tmp_path / "par" / "report.md").read_text()


@pytest.mark.parametrize("command", [["odds"], ["edge"], ["eor"], ["now"], ["report", "-o", "x"]])
@pytest.mark.parametrize("known, message", [
    ("9=5", "Error: no card position '9': positions are 1 to 6"),
    ("1=9", "Error: no deal from this shoe agrees with the known cards (card 1 (the Player's first card): 9)"),
    ("1=nine", "Error: unknown card 'nine'"),
])
def test_bad_known_cards_on_the_command_line(command, known, message, tmp_path):
    result = cli(*command, "--decks", "1", "--remove", "9,9,9,9", "--known", known) if command[0] != "report" else \
        cli("report", "--decks", "1", "--remove", "9,9,9,9", "--known", known, "-o", str(tmp_path / "x"))
    assert result.exit_code == 1 and result.output.startswith(message), result.output
    assert len(result.output.strip().splitlines()) == 1
    assert not (tmp_path / "x").exists()


def test_a_colour_says_nothing_of_values_in_a_full_shoe():
    # Suits are independent of values in a shoe of whole decks: knowing a card's colour changes
    # no value-level figure there, but it does once the suits are uneven.
    standard = get_rules("standard").only(["banker", "tie"])
    full, uneven = Shoe.decks(2), Shoe.decks(2).without_cards([(8, 1), (8, 2), (9, 1)])
    for shoe, same in ((full, True), (uneven, False)):
        plain = [r.ev for r in analyse(standard, shoe, Knowledge.parse(["1=6-9"]))]
        red = [r.ev for r in analyse(standard, shoe, Knowledge.parse(["1=6-9", "5=red"]))]
        assert (plain == red) is same


def test_decks_that_cannot_deal_the_known_cards():
    # Two aces of hearts are known: a 1-deck shoe cannot deal them. The report's table by decks
    # leaves that column blank (on 2 decks the pair is sure: it wins 11); compare names the column it cannot fill.
    from analyzer.views.edge import by_decks

    known = Knowledge.parse(["1=Ah", "3=Ah"])
    view = by_decks(get_rules("standard").only(["player_pair"]), [1, 2], known)
    assert view.rows[0]["d0"] is None and view.rows[0]["d1"] == -11 and "a blank column" in view.title
    result = cli("compare", "--decks", "1,2", "--known", "1=Ah", "--known", "3=Ah")
    assert result.exit_code == 1 and result.output.startswith("Error: 1 deck: no deal from this shoe agrees")
