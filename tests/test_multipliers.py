"""Bets with random multipliers and a fee (issue 56), held to a second implementation written
apart: every ordered deal of small shoes with real suits and duplicated identities, dealt by
tests/dealer.py, times every drawn set of identities and every multiplier of each; the pattern
sums to Monte Carlo on 8 decks; the limiting cases to the plain bet less its fee."""

import itertools
import json
import math
import random
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from analyzer import Knowledge, Shoe, analyse
from analyzer.bets.rulefile import parse_rules
from analyzer.cli import cli
from analyzer.game.engine import enumerate_coup
from analyzer.routes.counts import evaluate, line_counts
from analyzer.routes.multipliers import counted_patterns
from dealer import POINT_VALUE, deal

TABLE = ('count = { 0 = "1/4", 1 = "1/4", 2 = "1/2" }\n'
         'value = { 1 = "1/4", 2 = "1/4", 5 = "1/2" }\n')
DRAWN = {0: Fraction(1, 4), 1: Fraction(1, 4), 2: Fraction(1, 2)}
MULTIPLIER = {1: Fraction(1, 4), 2: Fraction(1, 4), 5: Fraction(1, 2)}

RULES = f'''name = "small"
description = "multiplied bets for the brute force"
[[bets]]
id = "player"
fee = "20%"
lines = [{{ label = "Player", when = {{ winner = "player" }}, pays = 1 }}, {{ label = "Tie", when = {{ winner = "tie" }}, pays = 0 }}]
[bets.multipliers]
cards = "winner"
{TABLE}
[[bets]]
id = "banker"
fee = "1/10"
commission = "5%"
lines = [{{ label = "Banker", when = {{ winner = "banker" }}, pays = 1 }}, {{ label = "Tie", when = {{ winner = "tie" }}, pays = 0 }}]
[bets.multipliers]
cards = "winner"
{TABLE}
[[bets]]
id = "tie"
lines = [{{ label = "Tie", when = {{ winner = "tie" }}, pays = 5 }}]
[bets.multipliers]
cards = "all"
{TABLE}
[[bets]]
id = "pair"
fee = "20%"
lines = [{{ label = "Player pair", when = {{ player_pair = true }}, pays = 9 }}]
[bets.multipliers]
cards = "pair"
{TABLE}
[[bets]]
id = "firsts"
lines = [{{ label = "Banker 7", when = {{ banker_total = 7 }}, pays = 3 }}, {{ label = "Player 7", when = {{ player_total = 7 }}, pays = 2 }}]
[bets.multipliers]
cards = ["player_1", "banker_1", "banker_3"]
lines = ["Player 7"]
{TABLE}
[[bets]]
id = "spot"
fee = "5%"
lines = [{{ label = "Player", when = {{ winner = "player" }}, pays = 1 }}]
[bets.multipliers]
spot = {{ 1 = "9/10", 10 = "1/10" }}
'''


def brute_settle(bet_id, coup):
    """(line index or None, the counted cards, net before multipliers, multiplied) of each bet,
    written from the rules above, not from their conditions."""
    winner, p, b = coup["winner"], coup["player_hand"], coup["banker_hand"]
    if bet_id in ("player", "banker"):
        side = 1 if bet_id == "player" else -1
        if winner == side:
            return 0, (p if side == 1 else b), Fraction(1) if side == 1 else Fraction(19, 20), True
        return (1, (), Fraction(0), False) if winner == 0 else (None, (), Fraction(-1), False)
    if bet_id == "tie":
        return (0, p + b, Fraction(5), True) if winner == 0 else (None, (), Fraction(-1), False)
    if bet_id == "pair":
        return (0, p[:2], Fraction(9), True) if coup["player_pair"] else (None, (), Fraction(-1), False)
    if bet_id == "firsts":
        if coup["banker_total"] == 7:
            return 0, (), Fraction(3), False
        if coup["player_total"] == 7:
            counted = (p[0], b[0]) + ((b[2],) if len(b) == 3 else ())
            return 1, counted, Fraction(2), True
        return None, (), Fraction(-1), False
    if bet_id == "spot":  # ×10 one coup in ten, whatever the cards
        return (0, "spot", Fraction(1), True) if winner == 1 else (None, (), Fraction(-1), False)
    raise AssertionError(bet_id)


def drawn_moments(counted: tuple, drawn=DRAWN, multiplier=MULTIPLIER) -> tuple[Fraction, Fraction]:
    """E[M], E[M^2] over every set of identities the studio may draw from its 52 and every
    multiplier on each: the sets meeting the counted cards' identities in S number
    C(52 - d, K - |S|) of the C(52, K)."""
    distinct = sorted(set(counted))
    d = len(distinct)
    first = second = Fraction(0)
    for k, pk in drawn.items():
        for size in range(0, min(k, d) + 1):
            for chosen in itertools.combinations(distinct, size):
                sets = Fraction(math.comb(52 - d, k - size), math.comb(52, k))
                for values in itertools.product(multiplier, repeat=size):
                    chance = pk * sets * math.prod((multiplier[v] for v in values), start=Fraction(1))
                    m = dict(zip(chosen, values))
                    product = math.prod(m.get(card, 1) for card in counted)
                    first += chance * product
                    second += chance * product * product
    return first, second


def brute_force(cards, bets, knowing=None):
    """{bet: (EV, variance)} over every ordered 6-card sequence of ``cards`` (physical cards,
    duplicates distinct) that ``knowing`` (a test on the sequence) lets through."""
    tallies = {bet: Counter() for bet in bets}
    total = 0
    for sequence in itertools.permutations(cards, 6):
        if knowing and not knowing(sequence):
            continue
        coup = deal(sequence)
        total += 1
        for bet in bets:
            line, counted, net, multiplied = brute_settle(bet, coup)
            tallies[bet][(net, (counted,) if counted == "spot" else tuple(sorted(counted)) if multiplied else None)] += 1
    fees = {"player": Fraction(1, 5), "banker": Fraction(1, 10), "tie": 0, "pair": Fraction(1, 5), "firsts": 0,
            "spot": Fraction(1, 20)}
    out = {}
    for bet, tally in tallies.items():
        first = second = Fraction(0)
        for (net, counted), n in tally.items():
            if counted == ("spot",):
                mean, square = Fraction(9, 10) + 1, Fraction(9, 10) + 10
            else:
                mean, square = drawn_moments(counted) if counted is not None else (1, 1)
            first += Fraction(n, total) * net * mean
            second += Fraction(n, total) * net * net * square
        out[bet] = (first - fees[bet], second - first * first)
    return out


def shoe_of(cards) -> Shoe:
    counts = [[0] * 4 for _ in range(13)]
    for card in cards:
        counts["A23456789TJQK".index(card[0])]["shdc".index(card[1])] += 1
    return Shoe(tuple(map(tuple, counts)))


SMALL_SHOES = [
    # two decks' worth of a few identities: As and 7s twice, a pair possible in three ranks
    ["As", "As", "Ah", "7s", "7s", "7d", "Ks", "Kh", "Ts", "3c"],
    # cards removed: three 9s of one suit, two tens alike, a lone 4
    ["9h", "9h", "9h", "Qd", "Qd", "Jc", "4s", "2s", "2d", "6c"],
]


@pytest.mark.parametrize("cards", SMALL_SHOES)
def test_every_deal_and_every_drawn_set(cards):
    rules = parse_rules(RULES)
    expected = brute_force(cards, [bet.id for bet in rules.bets])
    results = {r.bet.id: r for r in analyse(rules, shoe_of(cards))}
    for bet, (ev, variance) in expected.items():
        assert results[bet].ev == ev, bet
        assert results[bet].variance == variance, bet


def test_known_values_against_the_deals_that_agree():
    cards = SMALL_SHOES[0]
    rules = parse_rules(RULES).only(["player", "tie", "firsts"])
    knowledge = Knowledge.parse(["1=7", "4=0", "6=1"])
    expected = brute_force(cards, ["player", "tie", "firsts"],
                           lambda s: POINT_VALUE[s[0][0]] == 7 and POINT_VALUE[s[3][0]] == 0 and POINT_VALUE[s[5][0]] == 1)
    for result in analyse(rules, shoe_of(cards), knowledge):
        assert (result.ev, result.variance) == expected[result.bet.id], result.bet.id


def test_a_rank_or_suit_known_is_refused_plainly(tmp_path):
    path = tmp_path / "r.toml"
    path.write_text(RULES)
    result = CliRunner().invoke(cli, ["edge", "--rules", str(path), "--known", "1=As"])
    assert result.exit_code == 1
    assert result.stderr.strip().startswith("Error: bet 'player': its multipliers are counted given known point values")


def test_each_lines_patterns_sum_to_its_count():
    rules = parse_rules(RULES)
    rng = random.Random(56)
    for _ in range(3):
        shoe = Shoe.decks(8)
        for _ in range(rng.randrange(5, 60)):
            shoe = shoe.without_card(rng.randrange(13), rng.randrange(4)) if True else shoe
        dist = enumerate_coup(shoe, rules.tableau)
        for bet in rules.bets:
            if bet.multipliers.spot:
                continue
            counts = line_counts(bet, dist)
            sums = Counter()
            for line, pattern, count in counted_patterns(bet, shoe, rules.tableau):
                assert sum(pattern) <= 6 and count >= 0
                sums[line] += count
            for line in bet.multipliers.multiplied(bet):
                assert sums[line] == counts[line], (bet.id, line)


def limiting(table: str) -> str:
    return RULES.replace(TABLE, table).replace('spot = { 1 = "9/10", 10 = "1/10" }', 'spot = { 1 = 1 }')


@pytest.mark.parametrize("table", ['count = { 0 = 1 }\nvalue = { 2 = "1/2", 8 = "1/2" }\n',
                                   'count = { 3 = "1/2", 5 = "1/2" }\nvalue = { 1 = 1 }\n'])
def test_no_multiplier_is_the_plain_bet_less_its_fee(table):
    rules = parse_rules(limiting(table))
    shoe = Shoe.decks(6).remove("7s", "7s", "Kd", "2c")
    dist = enumerate_coup(shoe, rules.tableau)
    for result in analyse(rules, shoe):
        bet = result.bet
        plain = evaluate(bet.__class__(bet.id, bet.name, bet.lines, bet.commission), dist)
        assert result.ev == plain.ev - bet.fee, bet.id
        assert result.variance == plain.variance, bet.id
        assert result.figures()["multiplied_share"] == 0


# -- Monte Carlo on 8 decks, the studio's example table -------------------------------------------

EXAMPLE_TEXT = '''name = "mc"
description = "the example table"
[[bets]]
id = "player"
fee = "20%"
lines = [{ label = "Player wins", when = { winner = "player" }, pays = 1 }, { label = "Tie", when = { winner = "tie" }, pays = 0 }]
[bets.multipliers]
cards = "winner"
count = { 1 = "1/5", 2 = "1/5", 3 = "1/5", 4 = "1/5", 5 = "1/5" }
value = { 2 = "7/20", 3 = "3/10", 4 = "1/5", 5 = "1/10", 8 = "1/20" }
[[bets]]
id = "tie"
fee = "20%"
lines = [{ label = "Tie", when = { winner = "tie" }, pays = 5 }]
[bets.multipliers]
cards = "all"
count = { 1 = "1/5", 2 = "1/5", 3 = "1/5", 4 = "1/5", 5 = "1/5" }
value = { 2 = "7/20", 3 = "3/10", 4 = "1/5", 5 = "1/10", 8 = "1/20" }
'''
EXAMPLE = parse_rules(EXAMPLE_TEXT)


def test_the_patterns_against_monte_carlo_on_8_decks():
    """Coups dealt from a fresh 8-deck shoe each time, identities and multipliers drawn as the
    studio draws them: the mean multiplier of each bet's wins within 4 standard errors of the
    exact figure (a chance of about 1 in 16,000 of a false alarm; seed fixed)."""
    rng = random.Random(2026)
    identities = [r + s for r in "A23456789TJQK" for s in "shdc"]
    shoe = identities * 8
    multipliers, weights = [2, 3, 4, 5, 8], [7, 6, 4, 2, 1]
    sums = {"player": [], "tie": []}
    for _ in range(60_000):
        coup = deal(rng.sample(shoe, 6))
        drawn = dict(zip(rng.sample(identities, rng.randint(1, 5)), rng.choices(multipliers, weights, k=5)))
        if coup["winner"] == 1:
            sums["player"].append(math.prod(drawn.get(c, 1) for c in coup["player_hand"]))
        if coup["winner"] == 0:
            sums["tie"].append(math.prod(drawn.get(c, 1) for c in coup["player_hand"] + coup["banker_hand"]))
    for result in analyse(EXAMPLE, Shoe.decks(8)):
        figures = result.figures()
        wins = [row for row in figures["patterns"] if row["label"] != "Tie" or result.bet.id == "tie"]
        chance = sum(row["probability"] for row in wins)
        exact = float(sum(row["probability"] * row["mean"] for row in wins) / chance)
        seen = sums[result.bet.id]
        mean = sum(seen) / len(seen)
        se = (sum((x - mean) ** 2 for x in seen) / (len(seen) - 1) / len(seen)) ** 0.5
        assert abs(mean - exact) < 4 * se, (result.bet.id, mean, exact, se)


# -- rule files ---------------------------------------------------------------------------------


@pytest.mark.parametrize("table, message", [
    ('count = { 1 = "1/4", 2 = "1/2" }\nvalue = { 2 = 1 }\n', "count: the chances sum to 3/4, not 1"),
    ('count = { 53 = 1 }\nvalue = { 2 = 1 }\n', "a count of cards drawn is a whole number from 0 to 52 (got 53)"),
    ('count = { 1 = 1 }\nvalue = { "0.5" = "1/2", 2 = "1/2" }\n', "a multiplier is at least 1 (got 0.5)"),
    ('count = { 1 = 1 }\nvalue = { 2 = "3/2", 3 = "-1/2" }\n', "value.2: a chance is from 0 to 1 (got 3/2)"),
    ('count = { 1 = 1 }\nvalue = { 2 = "-1/2", 3 = "3/2" }\n', "value.2: a chance is from 0 to 1 (got -1/2)"),
    ('count = { 1 = 1 }\n', "card multipliers need value"),
    ('count = { 1 = 1 }\nvalue = { 1.5 = 1 }\n', 'value.1: a key with a decimal point is written in quotes ("1.5" = ...)'),
])
def test_a_table_that_cannot_be_is_refused(tmp_path, table, message):
    path = tmp_path / "r.toml"
    path.write_text(RULES.replace(TABLE, table, 1))
    result = CliRunner().invoke(cli, ["edge", "--rules", str(path)])
    assert result.exit_code == 1 and message in result.stderr and result.stderr.count("\n") == 1, result.stderr


def test_decimals_are_read_exactly(tmp_path):
    text = RULES.replace(TABLE, 'count = { 1 = 0.3, 2 = 0.7 }\nvalue = { "1.5" = 0.1, 2 = 0.9 }\n')
    bet = parse_rules(text).bet("player")
    assert bet.multipliers.count == ((1, Fraction(3, 10)), (2, Fraction(7, 10)))
    assert bet.multipliers.value == ((Fraction(3, 2), Fraction(1, 10)), (Fraction(2), Fraction(9, 10)))


def test_the_json_carries_every_figure_exactly(tmp_path):
    path = tmp_path / "r.toml"
    path.write_text(RULES)
    result = CliRunner().invoke(cli, ["edge", "--rules", str(path), "--decks", "8", "--format", "json"])
    assert result.exit_code == 0, result.output
    rows = {row["bet"]: row for row in json.loads(result.stdout)["bets"]}
    player = rows["player"]
    ev, fee = Fraction(player["ev"]), Fraction(player["fee"])
    assert Fraction(player["rtp"]) == (1 + fee + ev) / (1 + fee)
    assert sum(Fraction(p["probability"]) for p in player["patterns"]) == Fraction(player["lines"][0]["probability"])
    assert Fraction(player["largest_payout"]) == 125  # three cards, two alike (8 decks), both identities drawn at 5


def test_the_infinite_deck_is_the_limit_of_large_shoes():
    """The by-decks table's last column: each line's patterns sum to its chance, and the EV
    lies between two large shoes' and the limit they approach (within 1/decks)."""
    from analyzer.game.engine import infinite_deck

    rules = parse_rules(RULES).only(["player", "tie", "pair"])
    limit = infinite_deck(rules.tableau)
    for bet in rules.bets:
        result = evaluate(bet, limit)
        counts = line_counts(bet, limit)
        for line in bet.multipliers.multiplied(bet):
            assert sum(c for i, _, c in result.patterns if i == line) == counts[line]
        large = evaluate(bet, enumerate_coup(Shoe.decks(2000), rules.tableau)).ev
        assert abs(float(result.ev - large)) < 1e-3, bet.id


# -- the table that hits a target ---------------------------------------------------------------


def solved(path, *args):
    result = CliRunner().invoke(cli, ["solve", "--rules", str(path), "--format", "json", *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_solve_round_trip_a_rational_fee_and_count(tmp_path):
    """The fee and the chance of a count of cards (both enter the EV linearly) solved exactly,
    written back into the file: `edge` then gives the target return to the last digit."""
    path = tmp_path / "r.toml"
    path.write_text(EXAMPLE_TEXT)
    fee = Fraction(solved(path, "--bet", "player", "--vary", "fee", "--rtp", "98.76")["value"])
    chance = Fraction(solved(path, "--bet", "player", "--vary", "count.5", "--rtp", "98.76")["value"])
    assert fee.denominator > 1 and chance.denominator > 1
    again = tmp_path / "again.toml"
    scaled = ", ".join(f'{k} = "{chance if k == 5 else (1 - chance) / 4}"' for k in range(1, 6))
    again.write_text(EXAMPLE_TEXT.replace('count = { 1 = "1/5", 2 = "1/5", 3 = "1/5", 4 = "1/5", 5 = "1/5" }',
                                          f"count = {{ {scaled} }}", 1))
    for rules, in_file in ((again, None), (path, fee)):
        text = Path(rules).read_text()
        if in_file is not None:
            text = text.replace('fee = "20%"', f'fee = "{in_file}"', 1)
            Path(rules).write_text(text)
        row = [r for r in json.loads(CliRunner().invoke(cli, ["edge", "--rules", str(rules), "--format", "json"]).stdout)["bets"]
               if r["bet"] == "player"][0]
        assert Fraction(row["rtp"]) == Fraction(9876, 10000)


def test_solve_an_irrational_chance_is_said_so_and_brackets_the_target(tmp_path):
    path = tmp_path / "r.toml"
    path.write_text(EXAMPLE_TEXT)
    found = solved(path, "--bet", "player", "--vary", "value.8", "--rtp", "98.76")
    assert found["exact"] is False and found["value"] is None
    p = Fraction(found["decimal"])
    rules = parse_rules(EXAMPLE_TEXT)
    from analyzer.questions.targets import with_chance

    def rtp(q):
        bet = with_chance(rules.bet("player"), "value", Fraction(8), q)
        result = analyse(rules.__class__(rules.name, "", (bet,)), Shoe.decks(8))[0]
        return (1 + bet.fee + result.ev) / (1 + bet.fee)

    step = Fraction(1, 10**19)
    assert rtp(p - step) < Fraction(9876, 10000) < rtp(p + step)  # the root lies within the last digit shown


def test_solve_says_plainly_where_no_table_does_it(tmp_path):
    path = tmp_path / "r.toml"
    path.write_text(EXAMPLE_TEXT)
    result = CliRunner().invoke(cli, ["solve", "--rules", str(path), "--bet", "player", "--vary", "value.8", "--rtp", "150"])
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: no chance from 0 to 1 does it: the return goes from ")
    result = CliRunner().invoke(cli, ["solve", "--rules", str(path), "--bet", "player", "--vary", "value.7", "--rtp", "98"])
    assert "its value table has no entry 7 (entries: value.2, value.3, value.4, value.5, value.8)" in result.stderr


def test_the_lightning_rule_set_against_every_deal():
    """The built-in rule set, its own table (1 to 5 cards, x2 to x8) and its spot bet, on a shoe
    of three identities thrice or twice over (every drawn set still enumerated: few identities)."""
    cards = ["As", "As", "As", "Kd", "Kd", "Kd", "9h", "9h"]
    drawn = {k: Fraction(1, 5) for k in range(1, 6)}
    multiplier = {2: Fraction(7, 20), 3: Fraction(3, 10), 4: Fraction(1, 5), 5: Fraction(1, 10), 8: Fraction(1, 20)}
    spot = {1: Fraction(4, 5), 2: Fraction(1, 10), 5: Fraction(7, 100), 25: Fraction(3, 100)}
    tally, total = {}, 0
    for sequence in itertools.permutations(cards, 6):
        coup = deal(sequence)
        total += 1
        p, b, winner = coup["player_hand"], coup["banker_hand"], coup["winner"]
        settled = {
            "player": (Fraction(1), p) if winner == 1 else (Fraction(0), None) if winner == 0 else (Fraction(-1), None),
            "banker": (Fraction(19, 20), b) if winner == -1 else (Fraction(0), None) if winner == 0 else (Fraction(-1), None),
            "tie": (Fraction(5), p + b) if winner == 0 else (Fraction(-1), None),
            "player_pair": (Fraction(9), p[:2]) if coup["player_pair"] else (Fraction(-1), None),
            "banker_pair": (Fraction(9), b[:2]) if coup["banker_pair"] else (Fraction(-1), None),
            "six_spot": (Fraction(8), "spot") if winner == -1 and coup["banker_total"] == 6 else (Fraction(-1), None),
        }
        for bet, (net, counted) in settled.items():
            key = (bet, net, counted if counted in (None, "spot") else tuple(sorted(counted)))
            tally[key] = tally.get(key, 0) + 1
    first, second = {}, {}
    for (bet, net, counted), n in tally.items():
        if counted is None:
            mean = square = 1
        elif counted == "spot":
            mean, square = sum(p * m for m, p in spot.items()), sum(p * m * m for m, p in spot.items())
        else:
            mean, square = drawn_moments(counted, drawn, multiplier)
        first[bet] = first.get(bet, 0) + Fraction(n, total) * net * mean
        second[bet] = second.get(bet, 0) + Fraction(n, total) * net * net * square
    rules = parse_rules(Path(__file__).resolve().parent.parent.joinpath("analyzer/bets/rules/lightning.toml").read_text())
    for result in analyse(rules, shoe_of(cards)):
        bet = result.bet
        assert result.ev == first[bet.id] - bet.fee, bet.id
        assert result.variance == second[bet.id] - first[bet.id] ** 2, bet.id


# -- what a hostile review found (each a one-line error at load, or a plain answer) -----------------

SYMBOLS_HEAD = 'name = "h"\ndescription = "d"\nsymbols = ["x"]\n'
ONE_TABLE = '[bets.multipliers]\ncards = "all"\ncount = { 1 = "1/2", 3 = "1/2" }\nvalue = { 2 = "1/2", 8 = "1/2" }\n'


@pytest.mark.parametrize("text, message", [
    (RULES.replace(TABLE, 'count = { 1 = 1 }\nvalue = { "1e999999999" = 1 }\n', 1), "'1e999999999' is not a number"),
    (RULES.replace(TABLE, 'count = { "1_0" = 1 }\nvalue = { 2 = 1 }\n', 1), "'1_0' is not a number"),
    (RULES.replace(TABLE, 'count = { 1 = 1 }\nvalue = { "2.' + "0" * 200 + '1" = 1 }\n', 1), "at most 100 digits"),
    (RULES.replace(TABLE, 'count = { 1 = 1 }\nvalue = { 2 = "half" }\n', 1), "'half' is not a chance"),
    (SYMBOLS_HEAD + '[[bets]]\nid = "b"\ncommission = "x"\nlines = [{ when = { winner = "banker" }, pays = 1 }]\n' + ONE_TABLE,
     "a bet with a fee or multipliers is paid in numbers, not symbols"),
    (SYMBOLS_HEAD + '[[bets]]\nid = "t"\nfee = "1%"\nlines = [{ when = { winner = "tie" }, pays = "x" }]\n',
     "bets[1].fee: a bet with a fee or multipliers is paid in numbers"),
    ('name = "s"\ndescription = "d"\n[[bets]]\nid = "s"\nfee = "10%"\nseries = { counts = { winner = "banker" }, most = 3 }\n'
     'lines = [{ count = 3, pays = 5 }]\n', "a fee and multipliers are for a bet on one coup, not a bet across coups"),
    ('name = "p"\ndescription = "d"\n[[bets]]\nid = "p"\nlines = [{ when = { player_pair = true, banker_pair = true }, pays = 50 }]\n'
     + ONE_TABLE.replace('"all"', '"pair"'), '"pair" counts the pair the bet reads'),
    ('name = "w"\ndescription = "d"\n[[bets]]\nid = "w"\nlines = [{ when = { winner = "player", player_suited = true }, pays = 5 }]\n'
     + ONE_TABLE.replace('"all"', '"winner"'), "not player_suited"),
    ('name = "c"\ndescription = "d"\n[[bets]]\nid = "c"\nlines = [{ when = { player_1 = { suit = "hearts" } }, pays = 3 }]\n'
     + ONE_TABLE, "not single cards"),
])
def test_what_a_multiplied_bet_cannot_be_is_refused_at_load(tmp_path, text, message):
    path = tmp_path / "r.toml"
    path.write_text(text)
    for command in (["edge", "--rules", str(path)], ["rules", "check", str(path)]):
        result = CliRunner().invoke(cli, command)
        assert result.exit_code == 1 and result.stdout == "", result.output
        assert result.stderr.count("\n") == 1 and message in result.stderr and str(path) in result.stderr, result.stderr


@pytest.mark.parametrize("vary, message", [
    ("value.inf", "'inf' is not a number"), ("value.1e999999999", "'1e999999999' is not a number"),
    ("spot.8", "has card multipliers, not a spot multiplier"), ("value.7", "its value table has no entry 7"),
])
def test_solve_names_what_it_cannot_vary(vary, message):
    result = CliRunner().invoke(cli, ["solve", "--rules", "lightning", "--bet", "player", "--vary", vary, "--rtp", "98"])
    assert result.exit_code == 1 and result.stderr.count("\n") == 1 and message in result.stderr, result.stderr


def test_solve_names_every_chance_that_does_it(tmp_path):
    """An EV that falls then rises in the chance: two roots, the smallest shown, the other named."""
    path = tmp_path / "r.toml"
    path.write_text('name = "nm"\ndescription = "d"\n[[bets]]\nid = "pp"\n'
                    'lines = [{ when = { player_pair = true }, pays = 9 }]\n[bets.multipliers]\ncards = "pair"\n'
                    'count = { 52 = 1 }\nvalue = { 3 = "1/2", 1 = "9/20", 15 = "1/20" }\n')
    found = solved(path, "--bet", "pp", "--decks", "3", "--vary", "value.3", "--edge", "-477")
    assert len(found["roots"]) == 2 and found["roots"][0] == found["decimal"] and found["roots"][0] < found["roots"][1]


def test_a_pit_table_of_the_lightning_game(tmp_path):
    """A table kept in SQLite: its figures after each coup are `now`'s (the fee, the return to
    player and the patterns with them), a wager takes its bet's exact EV, and the results set the
    wagers on multiplied bets aside (the pit does not keep the multipliers drawn)."""
    from analyzer.pit.results import store_results
    from analyzer.pit.store import Store
    from analyzer.pit.table import place, record, table_spec

    store = Store(f"sqlite:///{tmp_path / 'pit.db'}")
    store.create_table(table_spec({"name": "studio-1", "rules": "lightning", "decks": 8}))
    record(store, "studio-1", {"type": "shoe", "after": 0})
    record(store, "studio-1", {"type": "burn", "cards": ["7h"], "face_down": 7, "after": 1})
    kept = place(store, "studio-1", {"after": 2, "wagers": [{"player": "p1", "bet": "player", "amount": 10, "seat": 1},
                                                           {"player": "p1", "bet": "banker", "amount": 10, "seat": 1}]})
    record(store, "studio-1", {"type": "coup", "cards": ["8c", "3c", "7h", "5c"], "after": 2})
    table = store.table("studio-1")
    now = CliRunner().invoke(cli, ["now", "--rules", "lightning", "--dealt", "7h,8c,3c,7h,5c", "--format", "json"])
    assert table["figures"]["bets"] == json.loads(now.output)["bets"]
    player = next(b for b in table["figures"]["bets"] if b["bet"] == "player")
    assert player["fee"] == "1/5" and player["patterns"] and Fraction(player["rtp"]) < 1
    assert Fraction(kept["ev"]["player"]) == analyse(parse_rules(Path(__file__).resolve().parent.parent.joinpath(
        "analyzer/bets/rules/lightning.toml").read_text()), Shoe.decks(8).remove("7h"))[0].ev
    (results,) = [r for r in store_results(store) if r.table == "studio-1"]
    assert results.multiplied == 2 and results.wagers == 0
    store.close()
