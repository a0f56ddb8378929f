"""Rule-set files: the built-ins, user bets, tableau variants, symbolic payouts and exact errors."""

import json
from fractions import Fraction as F

import pytest
from click.testing import CliRunner

from analyzer.questions.analysis import analyse
from analyzer.routes.counts import evaluate
from analyzer.bets.bet import line
from analyzer.game.cards import BaccaratError, Shoe
from analyzer.cli import cli
from analyzer.game.engine import enumerate_coup
from analyzer.render import percent
from analyzer.bets.rulefile import BUILT_IN, builtin_text, get_rules, parse_rules
from analyzer.game.tableau import PUNTO_BANCO

EIGHT = Shoe.decks(8)


def edge_of(rules, bet_id, shoe=EIGHT):
    return next(r for r in analyse(get_rules(rules), shoe) if r.bet.id == bet_id)


def test_built_in_files_parse_and_are_named_after_themselves():
    for name in BUILT_IN:
        assert get_rules(name).name == name
        assert f'name = "{name}"' in builtin_text(name)


def test_catalog_has_every_required_bet():
    ids = [b.id for b in get_rules("catalog").bets]
    assert len(ids) == len(set(ids)) >= 30
    required = {"banker", "player", "tie", "player_pair", "banker_pair", "either_pair", "perfect_pair",
                "dragon_bonus_player", "dragon_bonus_banker", "dragon_7", "panda_8", "lucky_6", "big", "small"}
    assert required | {f"egalite_{t}" for t in range(10)} <= set(ids)
    catalog = get_rules("catalog")
    assert [ln.pays for ln in catalog.bet("lucky_6").lines] == [12, 23]
    assert [ln.pays for ln in catalog.bet("big").lines] == [F(54, 100)]
    assert [ln.pays for ln in catalog.bet("small").lines] == [F(3, 2)]
    assert [catalog.bet(f"egalite_{t}").lines[0].pays for t in range(10)] == [150, 215, 225, 200, 120, 110, 45, 45, 80, 80]
    assert [ln.pays for ln in catalog.bet("dragon_bonus_banker").lines] == [1, 0, 30, 10, 6, 4, 2, 1]
    assert all(b.source for b in catalog.bets if b.id not in ("banker", "player", "tie"))


def test_catalog_published_counts_8_decks():
    dist = enumerate_coup(EIGHT)
    f = dist.fields
    # The issue and Wizard of Odds, "EZ Baccarat": Dragon 7 and Panda 8 combinations.
    assert dist.count((f["winner"] == -1) & (f["banker_total"] == 7) & (f["banker_cards"] == 3)) == 112_633_011_329_024
    assert dist.count((f["winner"] == 1) & (f["player_total"] == 8) & (f["player_cards"] == 3)) == 172_660_763_262_976
    # Wizard of Odds, "Lucky 6": Banker wins with a two-card / three-card 6.
    lucky = edge_of("catalog", "lucky_6")
    assert [p * dist.total for p in lucky.line_probabilities] == [186_173_936_904_192, 83_058_367_551_488]
    # Wizard of Odds, "3 Giving 8": 22,708,577,366,016 winning sequences of 4,998,398,275,503,360
    # (Banker 3 in two cards, the Player's third card an 8), house edge 8.6823% at 200 to 1.
    giving = edge_of("catalog", "three_giving_eight")
    assert (giving.line_probabilities[0] * dist.total, dist.total) == (22_708_577_366_016, 4_998_398_275_503_360)
    assert round(float(giving.house_edge) * 100, 4) == 8.6823


PUBLISHED_EDGES = {
    # Wizard of Odds, "Baccarat side bets" (8 decks), 2 decimals unless more were published.
    "dragon_bonus_player": "2.65%", "dragon_bonus_banker": "9.37%",
    "perfect_pair": "13.03%", "perfect_pair_250": "6.62%",  # WoO "Perfect Pairs" versions 1 and 2
    "dragon_7": "7.61%", "panda_8": "10.19%",  # WoO "EZ Baccarat"
    "lucky_6": "11.70%", "lucky_6_20": "16.68%",  # WoO "Lucky 6", Las Vegas and Macau tables
    "super_6": "29.98%",  # LeoVegas blog, "Super 6 side bet"
    **dict(zip((f"egalite_{t}" for t in range(10)),  # WoO "Egalite"
               ("12.45%", "11.42%", "9.54%", "10.52%", "12.14%", "11.87%", "11.50%", "6.39%", "11.07%", "10.63%"))),
    "tie_group_0": "6.65%", "tie_group_1_3": "10.86%", "tie_group_4_5": "7.28%",  # WoO "Egalite", grouped
    "tie_group_6_7": "8.94%", "tie_group_8_9": "9.75%",
    "big": "4.35%", "small": "5.28%",  # vegasfreedom.com, Big and Small
    "player_natural_8": "5.47%", "player_natural_9": "5.10%",  # WoO "Natural 8 and Natural 9"
    "player_even": "5.31%", "player_odd": "6.73%", "banker_even": "6.93%", "banker_odd": "7.07%",  # WoO "Even and Odd"
}
PUBLISHED_EDGES_3 = {"cards_4": "5.283%", "cards_5": "8.967%", "cards_6": "4.694%",  # WoO appendix 5, 4-5-6
                     "big_tiger": "15.253%"}  # advancedadvantageplay.com, "Card counting the Big Tiger"


@pytest.mark.parametrize("bet_id, edge", list(PUBLISHED_EDGES.items()) + list(PUBLISHED_EDGES_3.items()))
def test_catalog_published_edges_8_decks(bet_id, edge):
    places = len(edge.split(".")[1]) - 1
    assert percent(edge_of("catalog", bet_id).house_edge, places) == edge


def test_user_bet_file_equals_the_python_bet(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text('''
name = "mine"
description = "one user bet"

[[bets]]
id = "banker_big_win"
name = "Banker wins by 4 or more, not with a natural"
lines = [
  { label = "by 7+", when = { winner = "banker", margin = { min = 7 }, not = { banker_natural = true } }, pays = "5:1" },
  { label = "by 4-6", when = { all = [{ winner = "banker" }, { margin = [4, 5, 6] }], banker_natural = false }, pays = 1 },
  { label = "any natural tie", when = { any = [{ winner = "tie", player_natural = true }, { winner = "tie", banker_natural = true }] }, pays = "push" },
]
''')
    rules = get_rules(str(path))
    assert rules.tableau == PUNTO_BANCO
    dist = enumerate_coup(EIGHT)
    f = dist.fields
    banker_wins = (f["winner"] == -1) & ~f["banker_natural"]
    by_7 = dist.count(banker_wins & (f["margin"] >= 7))
    by_4_6 = dist.count(banker_wins & (f["margin"] >= 4) & (f["margin"] <= 6))
    natural_tie = dist.count((f["winner"] == 0) & f["natural"])
    result = evaluate(rules.bets[0], dist)
    assert result.ev == F(5 * by_7 + by_4_6 - (dist.total - by_7 - by_4_6 - natural_tie), dist.total)
    assert result.push == F(natural_tie, dist.total)


def test_extends_replaces_and_adds_bets(tmp_path):
    (tmp_path / "base.toml").write_text('name = "base"\nextends = "standard"\n[[bets]]\nid = "tie"\n'
                                        'lines = [{ when = { winner = "tie" }, pays = 9 }]\n')
    child = tmp_path / "child.toml"
    child.write_text('name = "child"\nextends = "base.toml"\n[[bets]]\nid = "super_6"\n'
                     'lines = [{ when = { winner = "banker", banker_total = 6 }, pays = 12 }]\n')
    rules = get_rules(str(child))
    assert [b.id for b in rules.bets] == ["banker", "player", "tie", "player_pair", "banker_pair", "super_6"]
    assert rules.bet("tie").lines[0].pays == 9
    assert rules.bet("banker").commission == F(1, 20)


def test_tableau_variant_banker_stands_on_6():
    stands = get_rules("banker-stands-on-6")
    assert stands.tableau.banker_draws[6] == (False,) * 11
    assert stands.tableau.banker_draws[:6] == PUNTO_BANCO.banker_draws[:6]
    # Banker with 6 against a Player third card 6 or 7 no longer draws: fewer Banker draws.
    draws = lambda rules: enumerate_coup(EIGHT, rules.tableau)  # noqa: E731
    std, var = draws(get_rules("standard")), draws(stands)
    assert var.count(var.fields["banker_cards"] == 3) < std.count(std.fields["banker_cards"] == 3)
    assert var.total == std.total
    out = CliRunner().invoke(cli, ["compare", "--rules", "standard", "--rules", "banker-stands-on-6", "--format", "json"])
    banker = json.loads(out.output)["bets"][0]
    assert banker["bet"] == "banker" and banker["house_edge"][0] != banker["house_edge"][1]


def test_symbolic_payout_matches_the_numeric_path(tmp_path):
    path = tmp_path / "sym.toml"
    path.write_text('name = "sym"\nsymbols = ["x", "c"]\nextends = "standard"\n'
                    '[[bets]]\nid = "tie"\nlines = [{ when = { winner = "tie" }, pays = "x" }]\n'
                    '[[bets]]\nid = "banker"\ncommission = "c"\nlines = [{ when = { winner = "banker" }, pays = 1 }, '
                    '{ when = { winner = "tie" }, pays = "push" }]\n')
    rules = get_rules(str(path))
    tie, banker = edge_of(str(path), "tie"), edge_of(str(path), "banker")
    x, c = sorted(tie.ev.free_symbols, key=str)[0], sorted(banker.ev.free_symbols, key=str)[0]
    assert F(str(tie.ev.subs(x, 8))) == edge_of("standard", "tie").ev
    assert F(str(banker.ev.subs(c, F(1, 20)))) == edge_of("standard", "banker").ev
    assert rules.bet("tie").lines[0].pays == x
    data = json.loads(CliRunner().invoke(cli, ["edge", "--rules", str(path), "--format", "json"]).output)
    assert "x" in data["bets"][2]["ev"]


def test_solve_tie_break_even_and_target_edge():
    p_tie = edge_of("standard", "tie").win
    data = json.loads(CliRunner().invoke(cli, ["solve", "--bet", "tie", "--format", "json"]).output)
    assert F(data["value"]) == 1 / p_tie - 1  # EV = p (x + 1) - 1 = 0
    data = json.loads(CliRunner().invoke(cli, ["solve", "--bet", "tie", "--edge", "5", "--format", "json"]).output)
    assert F(data["value"]) == F(95, 100) / p_tie - 1
    assert F(data["house_edge"]) == F(1, 20)


def test_solve_commission_equalising_banker_and_player():
    banker = edge_of("standard", "banker")
    pb, pp = banker.win, banker.loss
    out = CliRunner().invoke(cli, ["solve", "--bet", "banker", "--vary", "commission", "--match", "player",
                                   "--format", "json"])
    c = F(json.loads(out.output)["value"])
    assert c == 2 - 2 * pp / pb  # pb (1 - c) - pp = pp - pb
    assert pb * (1 - c) - pp == edge_of("standard", "player").ev


def test_solve_a_line_of_a_multi_line_bet():
    out = CliRunner().invoke(cli, ["solve", "--rules", "catalog", "--bet", "lucky_6", "--vary", "2", "--format", "json"])
    y = F(json.loads(out.output)["value"])
    two, three = edge_of("catalog", "lucky_6").line_probabilities
    assert 12 * two + y * three - (1 - two - three) == 0


ERRORS = [
    ('name = "x"\ncolour = "red"\n[[bets]]\nid = "a"\nlines = [{ when = { winner = "tie" }, pays = 8 }]\n',
     "colour: unknown key (expected one of bets, counts, description, extends, name, poker, source, symbols, tableau)"),
    ('name = "x"\n[[bets]]\nid = "a"\nkind = "side"\nlines = [{ when = { winner = "tie" }, pays = 8 }]\n',
     "bets[1].kind: unknown key (expected one of commission, fee, id, lines, multipliers, name, series, source)"),
    ('name = "x"\n[[bets]]\nid = "a"\nlines = [{ when = { winner = "tie" }, pays = -5 }]\n',
     "bets[1].lines[1].pays: negative payout -5"),
    ('name = "x"\n[[bets]]\nid = "a"\nlines = [{ when = { winner = "tie" }, pays = "eight" }]\n',
     "bets[1].lines[1].pays: 'eight' is not a payout (a number 0 or more such as 11, 0.95, \"19/20\", \"1:2\", "
     "\"5 for 1\" or \"push\", a name listed in symbols, or an expression in them such as \"J / 10 + 50\")"),
    ('name = "x"\n[[bets]]\nid = "a"\nlines = [{ when = { winner = "draw" }, pays = 8 }]\n',
     "bets[1].lines[1].when.winner: winner cannot be 'draw' (it is one of player, banker, tie)"),
    ('name = "x"\n[[bets]]\nid = "a"\nlines = [{ when = { banker_total = 10 }, pays = 8 }]\n',
     "bets[1].lines[1].when.banker_total: banker_total cannot be 10 (it is one of 0 to 9)"),
    ('name = "x"\n[[bets]]\nid = "a"\nlines = [{ when = { colour = "red" }, pays = 8 }]\n',
     "bets[1].lines[1].when.colour: unknown outcome field 'colour' (fields: winner, player_total, "),
    ('name = "x"\n[[bets]]\nid = "a"\ncommission = "120%"\nlines = [{ when = { winner = "tie" }, pays = 8 }]\n',
     "bets[1].commission: must be less than 100%"),
    ('name = "x"\n[[bets]]\nid = "Bad Id"\nlines = [{ when = { winner = "tie" }, pays = 8 }]\n',
     "bets[1].id: 'Bad Id' is not a snake_case id (a-z, 0-9, _)"),
    ('name = "x"\n[[bets]]\nid = "a"\nlines = [{ when = { winner = "tie" } }]\n', "bets[1].lines[1].pays: missing"),
    ('name = "x"\n[[bets]]\nid = "a"\nlines = []\n', "bets[1].lines: must be a non-empty array of tables"),
    ('name = "x"\n[[bets]]\nid = "a"\nlines = [{ when = { margin = { least = 3 } }, pays = 1 }]\n',
     "bets[1].lines[1].when.margin: a range has only 'min' and 'max' (got least)"),
    ('name = "x"\nextends = "standard"\n[tableau]\nplayer_draws = [0, 1, 2, 3, 4, 5]\n[tableau.banker]\n'
     + "".join(f'{t} = "DDDDDDDDDD D"\n' for t in (0, 1, 2, 3, 4, 6, 7)),
     "tableau.banker.5: missing (the Banker's play on 5 must be given)"),
    ('name = "x"\nextends = "standard"\n[tableau]\nplayer_draws = [0, 1, 2, 3, 4, 5]\n[tableau.banker]\n'
     + "".join(f'{t} = "DDDDDDDDDD"\n' for t in range(8)),
     "tableau.banker.0: must be 11 letters D or S (Player's third card 0-9, then Player stood)"),
    ('name = "x"\nextends = "standard"\n[tableau]\nplayer_draws = [0, 1, 2, 3, 4, 5, 8]\n',
     "tableau.banker: missing (a tableau must say what happens on every total)"),
    ('name = "x"\nextends = "standard"\n[tableau]\nplayer_draws = [0, 9]\nbanker = {}\n',
     "tableau.player_draws: must list the Player's totals 0-7 on which he draws"),
    ('name = "x"\n[[bets]]\nid = "a"\nlines = [{ when = { winner = "tie" }, pays = 8 }]\n[[bets]]\nid = "a"\n'
     'lines = [{ when = { winner = "tie" }, pays = 8 }]\n', "bets[2].id: bet 'a' is defined twice"),
    ('description = "no name"\n', "name: missing"),
    ('name = "x"\nextends = "standard"\n[counts]\nmine = [1, 2]\n',
     "counts.mine: must be 10 integers, for A, 2..9 and T (every ten-value card)"),
    ('name = "x"\n[[bets\n', "not valid TOML: "),
]


@pytest.mark.parametrize("text, message", ERRORS)
def test_rule_file_errors_name_the_file_and_key(tmp_path, text, message):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    result = CliRunner().invoke(cli, ["edge", "--rules", str(path)])
    assert result.exit_code == 1
    assert result.output.count("\n") == 1
    assert result.output.startswith(f"Error: {path}: {message}"), result.output


def test_toml_syntax_error_gives_the_line(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('name = "x"\n\n[[bets]\nid = "a"\n')
    with pytest.raises(BaccaratError, match=r"at line 3"):
        get_rules(str(path))


def test_missing_rule_file():
    with pytest.raises(BaccaratError, match="no such file: 'nope/none.toml'"):
        get_rules("nope/none.toml")


def test_line_helper_builds_the_same_bet_as_a_file():
    rules = parse_rules('name = "p"\n[[bets]]\nid = "p"\nlines = [{ label = "P", when = { player_pair = true }, '
                        'pays = 11 }]\n', "text", None)
    assert rules.bets[0].lines[0] == line(11, "P", player_pair=True)


def test_toml_decimals_are_exact_as_written(tmp_path):
    path = tmp_path / "d.toml"
    path.write_text('name = "d"\n[[bets]]\nid = "b"\nlines = [{ when = { winner = "tie" }, pays = 9.5090622222222222222 }]\n'
                    '[[bets]]\nid = "c"\ncommission = 0.05\nlines = [{ when = { winner = "banker" }, pays = 1e12 }]\n')
    rules = get_rules(str(path))
    assert rules.bet("b").lines[0].pays == F("9.5090622222222222222")
    assert rules.bet("c").commission == F(1, 20) and rules.bet("c").lines[0].pays == 10**12  # the largest payout
    assert rules.bet("b").lines[0].label == "line 1"  # numbered from 1, as --vary counts
    out = CliRunner().invoke(cli, ["edge", "--rules", str(path), "--format", "csv"])
    assert out.exit_code == 0 and "1" + "0" * 12 in out.output.replace(",", "")


def solve_error(tmp_path, text, *args):
    path = tmp_path / "s.toml"
    path.write_text(text)
    out = CliRunner().invoke(cli, ["solve", "--rules", str(path), *args])
    assert out.exit_code == 1 and out.output.count("\n") == 1
    return out.output.rstrip("\n")


def test_solve_refuses_what_it_cannot_answer(tmp_path):
    assert solve_error(tmp_path, 'name = "s"\nsymbols = ["x"]\n[[bets]]\nid = "b"\ncommission = "x"\n'
                       'lines = [{ when = { winner = "banker" }, pays = "x" }]\n', "--bet", "b").startswith(
        "Error: the EV is not linear in x: ")
    xy = ('name = "xy"\nsymbols = ["x", "y"]\n[[bets]]\nid = "b"\nlines = [{ when = { winner = "banker" }, pays = "x" }, '
          '{ when = { winner = "tie" }, pays = "y" }]\n')
    assert solve_error(tmp_path, xy, "--bet", "b", "--vary", "1") == "Error: the EV also depends on y: give it a value first"
    assert solve_error(tmp_path, xy, "--bet", "b") == (
        "Error: bet 'b' has several pay lines or symbols: say which to solve for with --vary "
        "(a line's label or number, or 'commission')")
    assert solve_error(tmp_path, 'name = "z"\n[[bets]]\nid = "imp"\n'
                       'lines = [{ when = { player_cards = 3, player_natural = true }, pays = 5 }]\n', "--bet", "imp") == (
        f"Error: rules z: bet 'imp': no pay line can ever settle it: the bet always loses - the file is not fit to use "
        f"(baccarat rules check {tmp_path / 's.toml'} says why)")  # on no shoe: the file's check refuses it (issue 55)
    one_of_each = ",".join(rank for rank in "A23456789TJQK" for _ in range(3))  # a deck less three of each rank: no pair
    assert solve_error(tmp_path, 'name = "z"\nsymbols = ["x"]\n[[bets]]\nid = "pp"\n'
                       'lines = [{ when = { player_pair = true }, pays = "x" }]\n', "--bet", "pp", "--decks", "1",
                       "--remove", one_of_each) == (
        "Error: the EV does not depend on x: that pay line never settles the bet on this shoe")
    assert solve_error(tmp_path, 'name = "t"\nextends = "standard"\n', "--bet", "banker", "--vary", "commission",
                       "--edge", "50") == "Error: no commission from 0 to 100% does it (it would take 111.7213%)"
    assert solve_error(tmp_path, 'name = "t"\nextends = "standard"\n', "--bet", "tie", "--edge", "95") == (
        "Error: no payout does it (it would take a negative payout, -0.474547)")  # 0.05 / P(tie) - 1
    assert solve_error(tmp_path, 'name = "t"\nextends = "standard"\n', "--bet", "tie", "--edge", "5",
                       "--match", "player") == "Error: give one of --edge, --match and --rtp"


def test_the_unknown_never_merges_with_a_declared_symbol():
    from analyzer.bets.symbolic import symbol, with_symbol

    rules = parse_rules('name = "xy"\nsymbols = ["x"]\n[[bets]]\nid = "b"\nlines = [{ when = { winner = "banker" }, '
                        'pays = "x" }, { when = { winner = "tie" }, pays = 8 }]\n', "text", None)
    varied, u = with_symbol(rules.bets[0], "2")
    assert u != symbol("x") and varied.lines[0].pays == symbol("x") and varied.lines[1].pays == u


@pytest.mark.parametrize("when, message", [
    ("{ margin = { min = 5, max = 2 } }", "when.margin: min 5 is above max 2: the range matches nothing"),
    ("{ not = {} }", "when.not: 'not' of an empty table matches nothing"),
    ("{ player_natural = 1 }", "when.player_natural: player_natural cannot be 1 (it is one of false, true)"),
])
def test_conditions_that_cannot_mean_what_was_written(tmp_path, when, message):
    path = tmp_path / "c.toml"
    path.write_text(f'name = "c"\n[[bets]]\nid = "b"\nlines = [{{ when = {when}, pays = 1 }}]\n')
    with pytest.raises(BaccaratError) as err:
        get_rules(str(path))
    assert str(err.value) == f"{path}: bets[1].lines[1].{message}"
