"""Chemin de fer as a two-person game: the classical infinite-deck solution, exact mutual best
responses (checked by an independent evaluator for the infinite deck), the finite shoe against
the engine, convergence in the number of decks, commission, and the command."""

import json
from fractions import Fraction as F

import pytest
from click.testing import CliRunner

from analyzer.cards import BaccaratError, Shoe
from analyzer.chemin import punto_banco_q, pure_deviation_gains, solve
from analyzer.cli import cli
from analyzer.engine import enumerate_coup

from dealer import banker_draws

INFINITE = solve(None)
EIGHT = solve(Shoe.decks(8))


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
    """The Banker's drawing probability by (total, third or None), from a model A solution."""
    q = {sol.game.labels[i]: v for i, v in sol.q.items()}
    return lambda b, x: q[(b, 10 if x is None else x)]


def test_infinite_deck_classical_solution():
    # Kemeny & Snell (1957), "Game-theoretic solution of baccarat", Amer. Math. Monthly 64:
    # the Player draws on 5 with probability 9/11; the game is worth about 1.28% to the Banker.
    assert INFINITE.p == F(9, 11)
    assert abs(float(INFINITE.banker_value()) - 0.0128) < 0.00005
    assert INFINITE.player_value() == -INFINITE.banker_value()


def test_infinite_deck_value_by_an_independent_evaluator():
    assert banker_result_infinite(INFINITE.p, strategy_of(INFINITE)) == INFINITE.banker_value()
    punto_banco = lambda b, x: F(int(banker_draws(b, x)))  # noqa: E731
    assert banker_result_infinite(F(1), punto_banco) == INFINITE.banker_value(F(1), punto_banco_q(INFINITE.game))


def test_infinite_deck_strategies_are_mutual_best_responses():
    value = INFINITE.banker_value()
    banker = strategy_of(INFINITE)
    for p in (F(0), F(1)):  # the Player's pure deviations: no gain (he is indifferent)
        assert banker_result_infinite(p, banker) == value
    for b in range(8):  # each pure deviation of the Banker at one set: no gain
        for x in list(range(10)) + [None]:
            for action in (F(0), F(1)):
                deviated = lambda bb, xx: action if (bb, xx) == (b, x) else banker(bb, xx)  # noqa: E731
                assert banker_result_infinite(INFINITE.p, deviated) <= value


@pytest.mark.parametrize("shoe, commission", [(None, F(1, 20)), (Shoe.decks(1), F(0)), (Shoe.decks(8), F(0)),
                                              (Shoe.decks(8), F(1, 20)), (Shoe.decks(1).remove_cards([(7, None)] * 3), F(0))])
def test_no_pure_deviation_gains(shoe, commission):
    sol = solve(shoe, commission)
    assert pure_deviation_gains(sol) == (0, 0)
    assert all(0 <= q <= 1 for q in sol.q.values()) and 0 <= sol.p <= 1


def test_commission_equilibrium_against_the_independent_evaluator():
    sol = solve(None, F(1, 20))
    banker = strategy_of(sol)
    value = banker_result_infinite(sol.p, banker, F(1, 20))
    assert value == sol.banker_value()
    for b in range(8):
        for x in list(range(10)) + [None]:
            for action in (F(0), F(1)):
                deviated = lambda bb, xx: action if (bb, xx) == (b, x) else banker(bb, xx)  # noqa: E731
                assert banker_result_infinite(sol.p, deviated, F(1, 20)) <= value


@pytest.mark.parametrize("shoe", [Shoe.decks(8), Shoe.decks(1).remove_cards([(0, None), (8, None), (9, None)])])
def test_finite_shoe_punto_banco_pair_matches_the_engine(shoe):
    sol = solve(shoe, F(1, 20))
    dist = enumerate_coup(shoe)
    banker_wins = F(dist.count(dist.fields["winner"] == -1), dist.total)
    player_wins = F(dist.count(dist.fields["winner"] == 1), dist.total)
    pb = punto_banco_q(sol.game)
    assert sol.banker_value(F(1), pb) == F(19, 20) * banker_wins - player_wins
    assert sol.player_value(F(1), pb) == player_wins - banker_wins


def test_finite_shoe_tends_to_the_infinite_deck():
    gaps = [abs(solve(Shoe.decks(d)).banker_value() - INFINITE.banker_value()) for d in (1, 2, 4, 16)]
    assert gaps == sorted(gaps, reverse=True) and gaps[-1] < F(1, 10**4)
    assert abs(solve(Shoe.decks(16)).p - F(9, 11)) < abs(EIGHT.p - F(9, 11)) < abs(solve(Shoe.decks(1)).p - F(9, 11))


def test_refusals():
    with pytest.raises(BaccaratError, match="below 100%"):
        solve(None, F(1))


def test_chemin_command():
    runner = CliRunner()
    data = json.loads(runner.invoke(cli, ["chemin", "--infinite", "--format", "json"]).output)
    assert (data["player_draw_on_5"], data["value"], data["model"]) == ("9/11", str(INFINITE.banker_value()), "A")
    assert data["grid"]["6"]["stood"] == str(INFINITE.q[INFINITE.game.labels.index((6, 10))])
    assert data["grid"]["3"]["8"] == "S" and data["grid"]["3"]["9"] == "D" and data["grid"]["7"]["stood"] == "S"
    assert data["best_pure_deviation_gain"] == {"player": "0", "banker": "0"}
    finite = json.loads(runner.invoke(cli, ["chemin", "--decks", "8", "--format", "json"]).output)
    assert finite["player_draw_on_5"] == str(EIGHT.p) and finite["model"] == "B"
    assert any(row["cards"] == [0, 6] for row in finite["banker_by_cards"])
    for args, message in [(["--infinite", "--decks", "2"], "Error: --infinite is the infinite deck"),
                          (["--commission", "100"], "Error: the commission is a share of the Banker's wins"),
                          (["--commission", "x"], "Error: not a percentage: 'x'")]:
        result = runner.invoke(cli, ["chemin", *args])
        assert result.exit_code == 1 and result.output.splitlines()[-1].startswith(message), result.output
