"""Chemin de fer as a two-person game: the classical infinite-deck solution, exact mutual best
responses in every model (checked by evaluators written here from the rules, sharing no code with
analyzer.questions.chemin), the casino rules against the engine, model B3 against B2, convergence in the
number of decks, the commission from 0 to 10%, tableau options as data, and the command."""

import json
from fractions import Fraction as F

import pytest
import sympy
from click.testing import CliRunner

from analyzer.game.cards import BaccaratError, Shoe
from analyzer.questions.chemin import commission_table, game, option_gains, pure_deviation_gains, solve, tableau_play
from analyzer.cli import cli
from analyzer.game.engine import enumerate_coup
from analyzer.game.tableau import CASINO, FREE

from dealer import POINT_VALUE, banker_draws

INFINITE = solve(game(None))
EIGHT = solve(game(Shoe.decks(8)))
STOOD = None


def card_probability(value):
    return F(4, 13) if value == 0 else F(1, 13)


def two_card_totals():
    totals = {}
    for a in range(10):
        for b in range(10):
            totals[(a + b) % 10] = totals.get((a + b) % 10, 0) + card_probability(a) * card_probability(b)
    return totals


def banker_result_infinite(p, banker_strategy, commission=F(0)):
    """The Banker's expected result with an infinite deck, straight from the rules: hands are
    independent, the Player draws on 0-4 and on 5 with probability p; banker_strategy(total,
    third or None) is his probability of drawing."""
    totals = two_card_totals()
    win, lose = 1 - commission, -1
    outcome = lambda b, t: win if b > t else lose if b < t else 0  # noqa: E731
    value = F(0)
    for t, pt in totals.items():
        for b, pb in totals.items():
            weight = pt * pb
            if t >= 8 or b >= 8:
                value += weight * outcome(b, t)
                continue
            draws = 1 if t <= 4 else p if t == 5 else 0
            for x in range(10):  # the Player draws x
                q = banker_strategy(b, x)
                stand = outcome(b, (t + x) % 10)
                draw = sum(card_probability(y) * outcome((b + y) % 10, (t + x) % 10) for y in range(10))
                value += weight * draws * card_probability(x) * ((1 - q) * stand + q * draw)
            q = banker_strategy(b, None)  # the Player stands
            stand = outcome(b, t)
            draw = sum(card_probability(y) * outcome((b + y) % 10, t) for y in range(10))
            value += weight * (1 - draws) * ((1 - q) * stand + q * draw)
    return value


def strategy_of(sol):
    """The Banker's drawing probability by (total, third or None), from a model A solution;
    cells the tableau fixes, as punto banco plays them."""
    q = {(total, None if third == 10 else third): sol.y[i] for i, (total, _, third) in enumerate(sol.game.banker_sets)}
    return lambda b, x: q.get((b, x), F(int(banker_draws(b, x))))


def test_infinite_deck_classical_solution():
    # Kemeny & Snell (1957), "Game-theoretic solution of baccarat", Amer. Math. Monthly 64:
    # the Player draws on 5 with probability 9/11; the game is worth about 1.28% to the Banker.
    assert INFINITE.player_draws_on(5) == F(9, 11)
    assert abs(float(INFINITE.banker_value()) - 0.0128) < 0.00005
    assert INFINITE.player_value() == -INFINITE.banker_value()


def test_infinite_deck_value_by_an_independent_evaluator():
    assert banker_result_infinite(F(9, 11), strategy_of(INFINITE)) == INFINITE.banker_value()
    punto_banco = lambda b, x: F(int(banker_draws(b, x)))  # noqa: E731
    assert banker_result_infinite(F(1), punto_banco) == INFINITE.banker_value(*tableau_play(INFINITE.game))


def test_infinite_deck_strategies_are_mutual_best_responses():
    value = INFINITE.banker_value()
    banker = strategy_of(INFINITE)
    for p in (F(0), F(1)):  # the Player's pure deviations: no gain (he is indifferent)
        assert banker_result_infinite(p, banker) == value
    for b in range(8):  # each pure deviation of the Banker at one set: no gain
        for x in list(range(10)) + [None]:
            for action in (F(0), F(1)):
                deviated = lambda bb, xx: action if (bb, xx) == (b, x) else banker(bb, xx)  # noqa: E731
                assert banker_result_infinite(INFINITE.player_draws_on(5), deviated) <= value


def test_commission_equilibrium_against_the_independent_evaluator():
    sol = solve(game(None), F(1, 20))
    banker = strategy_of(sol)
    value = banker_result_infinite(sol.player_draws_on(5), banker, F(1, 20))
    assert value == sol.banker_value()
    for b in range(8):
        for x in list(range(10)) + [None]:
            for action in (F(0), F(1)):
                deviated = lambda bb, xx: action if (bb, xx) == (b, x) else banker(bb, xx)  # noqa: E731
                assert banker_result_infinite(sol.player_draws_on(5), deviated, F(1, 20)) <= value


# --- finite shoes: an evaluator of each side's gains, dealt value by value from the rules ---------

def value_counts(decks, removed=()):
    """Cards left by point value, from real cards: ``decks`` 52-card decks less ``removed`` ranks."""
    counts = [0] * 10
    for rank, value in POINT_VALUE.items():
        counts[value] += 4 * decks - removed.count(rank)
    return counts


def gains_by_rules(counts, options, model, x, y, commission):
    """What drawing instead of standing is worth, at each information set, to the side that
    chooses there, against the other side's strategy: x[(total, cards)] and y[(total, cards, third)]
    are drawing probabilities (cards None unless the model shows them); ``options`` the Player's
    optional totals and the Banker's optional (total, third) cells, every other cell played as
    punto banco. Exact: each path weighted by its ordered ways to deal the values from ``counts``
    times the ways to deal the rest of six cards (a common unit)."""
    size = sum(counts)
    player_options, banker_options = options
    results = ({1: 1 - commission, 0: 0, -1: -1}, {1: -1, 0: 0, -1: 1})  # Banker's, Player's, by sign(banker - player)

    def ways(values):  # ordered ways to deal these values first, then any cards up to six
        left, n = list(counts), 1
        for v in values:
            n *= left[v]
            left[v] -= 1
        for k in range(len(values), 6):
            n *= size - k
        return n

    def sign(a, b):
        return (a > b) - (a < b)

    player_gain, banker_gain, player_reach, banker_reach = {}, {}, {}, {}
    for p1 in range(10):
        for b1 in range(10):
            for p2 in range(10):
                for b2 in range(10):
                    seen = (p1, b1, p2, b2)
                    pt, bt = (p1 + p2) % 10, (b1 + b2) % 10
                    if not ways(seen) or pt >= 8 or bt >= 8:
                        continue
                    mine = (pt, tuple(sorted((p1, p2))) if model in ("B3", "B4") else None)
                    chooses = pt in player_options
                    if chooses:  # the deals that reach the Player's set
                        player_reach[mine] = player_reach.get(mine, 0) + ways(seen)
                    for draws in (False, True):
                        if not chooses and draws != (pt <= 5):
                            continue
                        share = (x[mine] if draws else 1 - x[mine]) if chooses else 1
                        for third in (range(10) if draws else [STOOD]):
                            cards = seen + ((third,) if draws else ())
                            if not ways(cards):
                                continue
                            player = (pt + third) % 10 if draws else pt
                            column = 10 if third is STOOD else third
                            stand = [ways(cards) * result[sign(bt, player)] for result in results]
                            draw = [sum(ways(cards + (c,)) * result[sign((bt + c) % 10, player)] for c in range(10))
                                    for result in results]
                            if (bt, column) in banker_options:
                                key = (bt, tuple(sorted((b1, b2))) if model in ("B2", "B3") else None, column)
                                q = y[key]
                                banker_gain[key] = banker_gain.get(key, 0) + share * (draw[0] - stand[0])
                                banker_reach[key] = banker_reach.get(key, 0) + share * ways(cards)
                            else:
                                q = int(banker_draws(bt, None if third is STOOD else third))
                            if chooses:
                                player_gain[mine] = player_gain.get(mine, 0) + \
                                    (1 if draws else -1) * (q * draw[1] + (1 - q) * stand[1])
    return player_gain, banker_gain, player_reach, banker_reach


def strategies(sol):
    x = {label: sol.x[s] for s, label in enumerate(sol.game.player_sets)}
    y = {label: sol.y[i] for i, label in enumerate(sol.game.banker_sets)}
    return x, y


def options_of(tableau):
    return ({t for t in range(8) if tableau.player_options[t]}, set(tableau.banker_option_cells()))


@pytest.mark.parametrize("model, tableau, commission, decks", [
    ("B2", FREE, F(0), 1), ("B3", FREE, F(0), 1), ("B3", FREE, F(1, 20), 1), ("B2", CASINO, F(0), 1),
    ("B3", CASINO, F(1, 20), 1), ("B3", CASINO, F(7, 100), 8), ("B2", FREE, F(1, 20), 8),
    ("B1", FREE, F(0), 1), ("B1", FREE, F(1, 20), 8), ("B1", CASINO, F(1, 20), 6), ("B4", FREE, F(0), 1),
    ("B4", CASINO, F(1, 20), 6), ("B2", CASINO, F(1, 20), 6)])
def test_mutual_best_responses_by_the_rules(model, tableau, commission, decks):
    sol = solve(game(Shoe.decks(decks), tableau, model), commission)
    x, y = strategies(sol)
    player, banker, player_reach, banker_reach = gains_by_rules(value_counts(decks), options_of(tableau), model, x, y,
                                                                commission)
    assert set(banker) == set(y) and set(player) == set(x)  # the same information sets
    for key, q in y.items():  # the Banker's choice is a best reply at every set
        gain = banker[key]
        assert (gain >= 0 if q == 1 else gain <= 0 if q == 0 else gain == 0), (key, q, gain)
    for key, p in x.items():  # and the Player's
        gain = player[key]
        assert (gain >= 0 if p == 1 else gain <= 0 if p == 0 else gain == 0), (key, p, gain)
    assert pure_deviation_gains(sol) == (0, 0)
    dealt = falling(52 * decks, 6)  # the evaluator's unit: ordered six-card sequences
    player_gains, banker_gains = option_gains(sol)
    assert {sol.game.player_sets[s]: gain for s, (gain, _) in player_gains.items()} == \
        {key: F(gain, dealt) for key, gain in player.items()}
    assert {sol.game.banker_sets[i]: gain for i, (gain, _) in banker_gains.items()} == \
        {key: F(gain, dealt) for key, gain in banker.items()}
    # and per unit staked when there: the gain over the deals that reach the set
    assert {sol.game.player_sets[s]: there for s, (_, there) in player_gains.items()} == \
        {key: F(gain) / player_reach[key] for key, gain in player.items()}
    assert {sol.game.banker_sets[i]: there for i, (_, there) in banker_gains.items()} == \
        {key: F(gain) / banker_reach[key] if banker_reach[key] else None for key, gain in banker.items()}


def falling(n, k):
    return n * falling(n - 1, k - 1) if k else 1


def engine_results(shoe):
    """(Banker wins, Player wins) as probabilities, from the punto banco enumerator (or its
    infinite-deck limit)."""
    from analyzer.game.engine import infinite_deck

    dist = infinite_deck() if shoe is None else enumerate_coup(shoe)
    return (F(dist.count(dist.fields["winner"] == -1), dist.total), F(dist.count(dist.fields["winner"] == 1), dist.total))


@pytest.mark.parametrize("shoe, model", [(Shoe.decks(8), "B2"), (Shoe.decks(6), "B3"), (None, "A"),
                                         (Shoe.decks(1).without_cards([(0, None), (8, None), (9, None)]), "B3")])
@pytest.mark.parametrize("tableau", [CASINO, FREE])
def test_the_tableau_choices_pay_what_the_engine_counts(shoe, model, tableau):
    sol = solve(game(shoe, tableau, model), F(1, 20))
    banker_wins, player_wins = engine_results(shoe)
    choices = tableau_play(sol.game)  # punto banco's choices at every option
    assert sol.banker_value(*choices) == F(19, 20) * banker_wins - player_wins
    assert sol.player_value(*choices) == player_wins - banker_wins


@pytest.mark.parametrize("decks", [1, 6, 8])
def test_model_b3_with_alike_choices_is_model_b2(decks):
    b2, b3 = solve(game(Shoe.decks(decks), FREE, "B2")), solve(game(Shoe.decks(decks), FREE, "B3"))
    assert b2.game.banker_sets == b3.game.banker_sets  # the Banker knows the same in both
    alike = {s: b2.player_draws_on(5) for s in b3.x}  # every composition of 5 plays B2's probability
    assert b3.banker_value(alike, b2.y) == b2.banker_value() and b3.player_value(alike, b2.y) == b2.player_value()
    assert b3.player_value() >= b2.player_value()  # knowing his cards can only help the Player
    assert len(b3.x) == 5 and {cards for _, cards in b3.game.player_sets} == {(0, 5), (1, 4), (2, 3), (6, 9), (7, 8)}


@pytest.mark.parametrize("decks", [1, 8])
def test_model_b4_with_alike_choices_is_model_b1(decks):
    b1, b4 = solve(game(Shoe.decks(decks), FREE, "B1")), solve(game(Shoe.decks(decks), FREE, "B4"))
    assert b1.game.banker_sets == b4.game.banker_sets and all(cards is None for _, cards, _ in b1.game.banker_sets)
    assert len(b1.game.banker_sets) < len(solve(game(Shoe.decks(decks), FREE, "B2")).game.banker_sets)
    alike = {s: b1.player_draws_on(5) for s in b4.x}
    assert b4.banker_value(alike, b1.y) == b1.banker_value() and b4.player_value() >= b1.player_value()


@pytest.mark.parametrize("tableau", [FREE, CASINO])
def test_finite_shoes_tend_to_the_infinite_deck(tableau):
    limit = solve(game(None, tableau)).banker_value()
    for model in ("B1", "B2", "B3"):
        gaps = [abs(solve(game(Shoe.decks(d), tableau, model)).banker_value() - limit) for d in (1, 2, 4, 16, 64)]
        assert gaps == sorted(gaps, reverse=True) and gaps[-1] < F(2, 10**5), (model, gaps)  # about 0.08%/d


@pytest.mark.parametrize("model", ["B1", "B2"])
def test_finite_shoe_player_probability_tends_to_kemeny_and_snell(model):
    p = [solve(game(Shoe.decks(d), FREE, model)).player_draws_on(5) for d in (1, 8, 64)]
    assert abs(p[2] - F(9, 11)) < abs(p[1] - F(9, 11)) < abs(p[0] - F(9, 11))


def test_model_b1_at_many_decks_plays_model_a_s_pure_choices():
    # B1 is model A's knowledge without replacement: with many decks every Banker set where
    # A draws or stands outright is played alike, and only A's one mixed set (6 v stood) mixes.
    a, b1 = strategies(INFINITE)[1], strategies(solve(game(Shoe.decks(64), FREE, "B1")))[1]
    assert set(a) == set(b1)
    assert {key: q for key, q in b1.items() if q in (0, 1)} == {key: q for key, q in a.items() if q in (0, 1)}
    assert [key for key, q in b1.items() if q not in (0, 1)] == [(6, None, 10)]


def test_the_six_deck_casino_decision_five_against_four_by_model():
    # The casino rules' published optimal play at 6 decks and 5% commission: "the Banker draws at
    # 5 against a Player's third card of 4" (see docs/guides/chemin-de-fer.md). It holds for a
    # Banker who sees only his total (B1, B4); one who sees his cards (B2, B3) stands with 1-4 and
    # 2-3 and draws with 0-5, 6-9 and 7-8. The gains are checked against the evaluator above in
    # test_mutual_best_responses_by_the_rules (B1, B2 and B4 at these very rules); here, the
    # choices and the gains per unit staked when there, as the guide quotes them.
    for model in ("B1", "B2", "B3", "B4"):
        sol = solve(game(Shoe.decks(6), CASINO, model), F(1, 20))
        _, gains = option_gains(sol)
        at_five = {cards: (sol.y[i], there) for i, (total, cards, third) in enumerate(sol.game.banker_sets)
                   if (total, third) == (5, 4) for _, there in [gains[i]]}
        if model in ("B1", "B4"):
            assert list(at_five) == [None] and at_five[None] == (1, F(28128799, 5770626810))  # +0.4874% when there
        else:
            assert {cards: q for cards, (q, _) in at_five.items()} == \
                {(0, 5): 1, (1, 4): 0, (2, 3): 0, (6, 9): 1, (7, 8): 1}
            assert all((there > 0) == (q == 1) for q, there in at_five.values())
            assert at_five[(1, 4)][1] == F(-41103, 30175030) and at_five[(2, 3)][1] == F(-591439, 181044040)
        assert pure_deviation_gains(sol) == (0, 0)


def choices(sol):
    kind = lambda q: "D" if q == 1 else "S" if q == 0 else "mix"  # noqa: E731
    return {("x", s): kind(q) for s, q in sol.x.items()} | {("y", i): kind(q) for i, q in sol.y.items()}


@pytest.mark.parametrize("model, tableau", [("B2", FREE), ("B3", FREE), ("B2", CASINO), ("A", FREE)])
def test_the_commission_table_finds_every_change_exactly(model, tableau):
    played = game(None if model == "A" else Shoe.decks(8), tableau, model)
    rows = commission_table(played)
    grid = [row for row in rows if not row.change]
    assert [row.commission for row in grid] == [F(k, 100) for k in range(11)]
    changes = [row for row in rows if row.change]
    for row in rows:
        assert pure_deviation_gains(row.solution) == (0, 0)
    # each change: the choices differ just below and just above the exact commission, and the
    # set named changes there; between two changes (and whole per cents) the choices stay
    ends = [F(0)] + [F(str(sympy.N(row.commission, 40))) for row in changes] + [F(1, 10)]
    for row in changes:
        c = F(str(sympy.N(row.commission, 40)))
        below, above = solve(played, c - F(1, 10**25)), solve(played, c + F(1, 10**25))
        moved = {k for k, v in choices(below).items() if choices(above)[k] != v}
        assert moved and len(moved) == row.change.count(":")
    for left, right in zip(ends, ends[1:]):
        inside = [left + (right - left) * k / 4 for k in range(1, 4)]
        assert len({tuple(sorted(choices(solve(played, c)).items())) for c in inside}) == 1


def test_the_casino_changes_choice_past_five_per_cent_at_eight_decks():
    # Punto banco's choices are the casino game's equilibrium at 8 decks with the usual 5%
    # commission; above about 5.0646% the Banker holding 2-3 stands against a 4.
    rows = commission_table(game(Shoe.decks(8), CASINO))
    (change,) = [row for row in rows if row.change]
    assert change.change == "Banker 5 (2-3) v 4: D to S"
    assert change.commission == sympy.Rational(23260, 459263)  # rational: nobody mixes on either side
    banker_wins, player_wins = engine_results(Shoe.decks(8))
    five = solve(game(Shoe.decks(8), CASINO), F(1, 20))
    assert five.banker_value() == F(19, 20) * banker_wins - player_wins


def test_refusals():
    with pytest.raises(BaccaratError, match="below 100%"):
        solve(game(None), F(1))
    with pytest.raises(BaccaratError, match="model A is the infinite deck"):
        game(Shoe.decks(8), FREE, "A")
    with pytest.raises(BaccaratError, match="unknown information model 'B5'"):
        game(Shoe.decks(8), FREE, "B5")
    with pytest.raises(BaccaratError, match="models B1 to B4 deal from a finite shoe"):
        game(None, FREE, "B1")


def run(*args):
    return CliRunner().invoke(cli, ["chemin", *args])


def test_chemin_command():
    data = json.loads(run("--infinite", "--format", "json").output)
    assert (data["player_draw_on_5"], data["value"], data["model"]) == ("9/11", str(INFINITE.banker_value()), "A")
    stood6 = INFINITE.game.banker_sets.index((6, None, 10))
    assert data["grid"]["6"]["stood"] == str(INFINITE.y[stood6])
    assert data["grid"]["3"]["8"] == "S" and data["grid"]["3"]["9"] == "D" and data["grid"]["7"]["stood"] == "S"
    assert data["best_pure_deviation_gain"] == {"player": "0", "banker": "0"}
    finite = json.loads(run("--decks", "8", "--format", "json").output)
    assert finite["player_draw_on_5"] == str(EIGHT.player_draws_on(5)) and finite["model"] == "B2"
    assert any(row["cards"] == [0, 6] for row in finite["banker_by_cards"])
    b3 = json.loads(run("--model", "b3", "--decks", "1", "--format", "json").output)
    assert b3["model"] == "B3" and [p["cards"] for p in b3["player"]] == [[0, 5], [1, 4], [2, 3], [6, 9], [7, 8]]
    assert b3["player"][1]["draw"] == "1/19"  # one deck: 1-4 mixes, 2-3 stands (see the chemin de fer guide's table)
    b1 = json.loads(run("--model", "b1", "--casino", "--decks", "6", "--commission", "5", "--format", "json").output)
    assert b1["model"] == "B1" and [(b["total"], b["cards"], b["player_third"], b["draw"], b["gain_there"])
                                    for b in b1["banker"]] == [(3, None, "9", "1", "1299059007/17353660060"),
                                                               (5, None, "4", "1", "28128799/5770626810")]
    text = run("--model", "B1", "--casino", "--decks", "6", "--commission", "5").output
    assert "each side knows its total" in text and "Banker 5 v 4 +0.4874%" in text
    assert "by cards" not in run("--model", "b4", "--decks", "1").output  # the Banker knows only his total


def test_casino_command_and_the_same_tableau_as_a_rule_file():
    casino = json.loads(run("--casino", "--format", "json").output)
    assert casino["tableau"] == "casino rules" and casino["player_draw_on_5"] == "1"
    assert [(b["total"], b["player_third"], b["draw"], b["tableau"]) for b in casino["banker"]][:1] == [(3, "9", "1", "D")]
    assert {(b["total"], b["player_third"]) for b in casino["banker"]} == {(3, "9"), (5, "4")}
    assert casino["tableau_choices_cost"]["banker"]["against_best_reply"] == "0"  # punto banco's choices are optimal here
    text = run("--casino").output
    row3 = next(line for line in text.splitlines() if line.startswith("3 "))
    assert row3.split() == ["3"] + ["D"] * 8 + ["S", "[D]", "D"] and "Playing punto banco's choices at the options" in text
    from_file = json.loads(run("--rules", "examples/chemin_casino.toml", "--format", "json").output)
    assert from_file["value"] == casino["value"] and from_file["banker"] == casino["banker"]


def test_by_commission_command():
    data = json.loads(run("--casino", "--by-commission", "--format", "json").output)
    assert [row["commission"] for row in data["rows"] if not row["change"]] == ["0"] + [str(F(k, 100)) for k in range(1, 11)]
    changes = [row for row in data["rows"] if row["change"]]
    assert [(c["commission"], c["commission_percent"], c["change"]) for c in changes] == \
        [("23260/459263", "5.064636%", "Banker 5 (2-3) v 4: D to S")]
    text = run("--by-commission", "--model", "B3").output
    assert "5: 1-4" in text and "Banker 6 (3-3) v 6: D to S" in text


@pytest.mark.parametrize("args, message", [
    (["--infinite", "--decks", "2"], "Error: model A (--infinite) is the infinite deck"),
    (["--model", "A", "--shoe", "x.txt"], "Error: model A (--infinite) is the infinite deck"),
    (["--infinite", "--model", "B3"], "Error: --infinite is model A: it cannot be model B3"),
    (["--casino", "--rules", "standard"], "Error: --casino and --rules both give a tableau"),
    (["--by-commission", "--commission", "5"], "Error: --by-commission goes from 0 to 10% itself"),
    (["--rules", "standard"], "Error: the tableau of rules 'standard' has no options to solve"),
    (["--commission", "100"], "Error: the commission is a share of the Banker's wins"),
    (["--commission", "x"], "Error: not a percentage: 'x'"),
    (["--model", "C"], "Error: Invalid value for '--model'"),
])
def test_chemin_refusals(args, message):
    result = run(*args)
    assert result.exit_code != 0 and result.output.splitlines()[-1].startswith(message), result.output


@pytest.mark.parametrize("options, message", [
    ("player_options = [8]", "tableau.player_options: must list the Player's totals 0-7"),
    ("banker_options = [3]", "tableau.banker_options: must be a table of Banker totals 0-7"),
    ("banker_options = { 9 = [1] }", "tableau.banker_options.9: unknown key"),
    ("banker_options = { 3 = [10] }", "tableau.banker_options.3: must list the Player's third cards 0-9 or \"stood\""),
    ("banker_options = { 3 = \"stood\" }", "tableau.banker_options.3: must list"),
])
def test_tableau_options_are_validated(tmp_path, options, message):
    grid = "\n".join(f'{t} = "{row}"' for t, row in enumerate(
        ["DDDDDDDDDD D"] * 3 + ["DDDDDDDDSD D", "SSDDDDDDSS D", "SSSSDDDDSS D", "SSSSSSDDSS S", "SSSSSSSSSS S"]))
    path = tmp_path / "options.toml"
    path.write_text(f'name = "o"\nextends = "standard"\n[tableau]\nplayer_draws = [0, 1, 2, 3, 4, 5]\n{options}\n'
                    f"[tableau.banker]\n{grid}\n")
    result = run("--rules", str(path))
    assert result.exit_code == 1 and message in result.output.splitlines()[-1], result.output


def test_options_on_stood_and_the_player_s_other_totals(tmp_path):
    # Options anywhere: the Player may choose on 4 and 5, the Banker on 6 when the Player stood.
    path = tmp_path / "options.toml"
    path.write_text(open("examples/chemin_casino.toml").read().replace("player_options = [5]", "player_options = [4, 5]")
                    .replace("5 = [4]", "5 = [4]\n6 = [\"stood\"]"))
    data = json.loads(run("--rules", str(path), "--decks", "1", "--format", "json").output)
    assert [p["total"] for p in data["player"]] == [4, 5] and data["player"][0]["draw"] == "1"  # he draws on 4
    assert any(b["total"] == 6 and b["player_third"] == "stood" for b in data["banker"])
    assert data["best_pure_deviation_gain"] == {"player": "0", "banker": "0"}
