"""Slips that the suite once let pass: issue 37 wrote 24 small faults by hand into cardcount,
series, runs, amounts, check and batch's card-level paths, and nine changed a result with every
test still passing. Each test here fails on its slip (named in the test's comment), and checks
the figure by a second route: a closed form, brute force over real cards, or the enumerator.

A second round (issue "What users meet, second round") pins 13 more slips of store, pit, protect, lean
and replay, and four caught before only by accident (protect's correlation and slope, lean's hand
classes, counting's largest level, replay's natural 8): the tests after the first round's."""

import json
import random
import statistics
from fractions import Fraction
from itertools import permutations

import numpy as np
import pytest
from click.testing import CliRunner

from analyzer.routes import lean
from analyzer.routes import plancache
from analyzer.pit import protect
from analyzer.pit import store
from analyzer.bets.amounts import parse_payout
from analyzer.questions.analysis import analyse, enumerated
from analyzer.routes.batch import FEW_SHOES, evaluate_many, plan_of
from analyzer.routes.counts import evaluate, settled_cells
from analyzer.game.cards import Shoe, parse_card
from analyzer.questions.check import check_rules
from analyzer.cli import cli
from analyzer.bets.counting import MAX_LEVEL, check_levels, parse_levels
from analyzer.game.engine import enumerate_coup
from analyzer.base.errors import BaccaratError
from analyzer.game.knowledge import Knowledge
from analyzer.pit.table import State, apply, current_run, event_of, place, record, table_spec
from analyzer.pit.replay import card_text, parse_coups, result_of, steps
from analyzer.bets.rulefile import get_rules, parse_rules
from analyzer.questions.runs import longest_runs
from analyzer.bets.series import line_probabilities

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


# -- second round: store, pit, protect, lean, replay, counting ------------------------------------

COUP = ["8c", "3c", "7h", "5c"]  # Player 8 + 7 = 5, Banker 3 + 5 = 8: a Banker natural, four cards


@pytest.fixture
def pit_db(tmp_path):
    """A pit's SQLite store with table "t" at event 2: its shoe, then one coup."""
    db = store.Store(f"sqlite:///{tmp_path / 'pit.sqlite'}")
    db.create_table(table_spec({"name": "t", "rules": "standard", "decks": 8, "burn": "none"}))
    record(db, "t", {"type": "shoe", "after": 0})
    record(db, "t", {"type": "coup", "cards": COUP, "after": 1})
    yield db
    db.close()


def wager(player: str, bet: str = "banker", amount: int = 10) -> dict:
    return {"player": player, "bet": bet, "amount": amount, "seat": 1}


# slip: store.py, Store.add_wagers: "last_event != after" taken as "last_event < after"
def test_add_wagers_with_an_old_after_is_stale(pit_db):
    row = {"seat": "1", "player": "ann", "bet": "banker", "amount": "10", "ev": "-1/100"}
    with pytest.raises(store.Stale) as stale:
        pit_db.add_wagers("t", 1, 1, 2, [row])  # placed when the table was at event 1: the coup has been dealt since
    assert stale.value.last == 2
    assert list(pit_db.wager_rows()) == []


# slip: store.py, Store.wager_query: "at < until" taken as "at <= until"
def test_a_wager_kept_exactly_at_until_is_left_to_the_next_period(pit_db):
    place(pit_db, "t", {"after": 2, "wagers": [wager("ann")]})
    (kept,) = pit_db.wager_rows()
    assert list(pit_db.wager_rows(until=kept["at"])) == []  # a period ends before its until...
    assert [r["id"] for r in pit_db.wager_rows(since=kept["at"])] == [kept["id"]]  # ...where the next begins


# slip: store.py, Store.wager_rows: a full page ("len(rows) < MAX_LIST") taken as the last
def test_wagers_are_read_back_past_a_full_page(pit_db, monkeypatch):
    monkeypatch.setattr(store, "MAX_LIST", 2)
    place(pit_db, "t", {"after": 2, "wagers": [wager("ann"), wager("bob"), wager("cy")]})
    assert [r["player"] for r in pit_db.wager_rows()] == ["ann", "bob", "cy"]


# slip: store.py, Store.try_append: Stale carrying the writer's "after" instead of the table's last event
def test_append_with_an_old_after_is_stale_with_the_tables_last_event(pit_db):
    with pytest.raises(store.Stale) as stale:
        pit_db.append("t", 1, "coup", 1, {"type": "coup", "cards": COUP}, {})
    assert stale.value.last == 2
    assert pit_db.last_events() == {"t": 2}


def shoe_of(cards) -> Shoe:
    """The shoe of exactly these cards (rank + suit)."""
    counts = [[0] * 4 for _ in range(13)]
    for rank, suit in map(parse_card, cards):
        counts[rank][suit] += 1
    return Shoe(counts)


def coup_event(cards):
    return event_of({"type": "coup", "cards": list(cards)})


# slip: pit.py, apply: "left < 6" taken as "left <= 6"
def test_a_coup_dealt_with_exactly_six_cards_left_is_accepted():
    start = shoe_of(COUP + ["2d", "9s"])  # six cards: a coup is dealt from 6 at least
    state = apply(State(shoe=1), coup_event(COUP), start, STANDARD.tableau)
    assert state.coups == (coup_event(COUP).cards,)
    with pytest.raises(BaccaratError, match="5 cards are left"):
        apply(State(shoe=1), coup_event(COUP), shoe_of(COUP + ["2d"]), STANDARD.tableau)


# slip: pit.py, apply: a second burn let through where the shoe has no coup yet ("if state.coups:")
def test_a_second_burn_before_the_first_coup_is_refused():
    start = Shoe.decks(8)
    burned = apply(State(shoe=1), event_of({"type": "burn", "cards": ["7h"], "face_down": 7}), start, STANDARD.tableau)
    with pytest.raises(BaccaratError, match="a burn comes before the shoe's first coup, once"):
        apply(burned, event_of({"type": "burn", "cards": ["5h"], "face_down": 5}), start, STANDARD.tableau)


# slip: pit.py, current_run: results[-length] compared in place of results[-1 - length]
def test_the_current_run_is_as_long_as_the_last_coups_of_one_result():
    coups = [["9s", "Kd", "Kh", "4c"],  # Player 9, Banker 4: Player
             COUP,  # Banker 8 to 5: Banker
             ["2c", "9d", "3h", "Ts"]]  # Player 5, Banker 9: Banker
    assert [deal(c)["winner"] for c in coups] == [1, -1, -1]  # the tests' dealer: Player, Banker, Banker
    state = State(shoe=1, coups=tuple(coup_event(c).cards for c in coups))
    assert current_run(state, STANDARD.tableau, None) == {"result": "banker", "length": 2}


# slip: protect.py, placed_chance: a sampled chance hits / samples (0 where no draw reaches) for (hits + 1) / (samples + 1)
def test_a_sampled_chance_where_no_placement_is_as_high_is_one_in_samples_plus_one():
    rows = np.tile(np.arange(10.0), (8, 1))  # 8 bundles over 10 coups: 10**8 placements, sampled
    observed = float(rows.max(axis=1).sum())  # every bundle at its best coup: 1 placement in 10**8
    chance = protect.placed_chance([(rows, observed)], 100, np.random.default_rng(0), "within")
    assert (chance.exact, chance.samples) == (None, 100)
    assert chance.value == 1 / 101


STANDARD_PLAYER = STANDARD.only(["player"])


@pytest.fixture(scope="module")
def reviewed():
    """A two-deck shoe shuffled and dealt by the tests' dealer; ann wagers on the Player at coups 2,
    4 and 5; the shoes before each coup and each coup's outcome, tracked here; and the review."""
    cards = [r + s for r in "A23456789TJQK" for s in "shdc"] * 2
    random.Random(5).shuffle(cards)
    coups, at = [], 0
    while len(cards) - at > 14:
        outcome = deal(cards[at:at + 6])
        coups.append((cards[at:at + outcome["cards"]], outcome))
        at += outcome["cards"]
    befores = [Shoe.decks(2)]
    for dealt, _ in coups:
        befores.append(befores[-1].without_cards([parse_card(c) for c in dealt]))
    stakes = {2: 10, 4: 30, 5: 20}
    assert len(coups) > 6  # the session (coups 2 to 5) ends before the shoe does
    wagers = protect.parse_wagers("shoe,coup,player,bet,amount\n" + "".join(f"S,{c},ann,player,{a}\n"
                                                                           for c, a in stakes.items()))
    deals = protect.deals_from_file("shoe S\n" + "".join(" ".join(c) + "\n" for c, _ in coups), STANDARD, Shoe.decks(2), "")
    return coups, befores, stakes, deals, protect.review(wagers, deals, samples=600)


# slip: protect.py, player_review: each information model weighed len(models) times, not 2 x len(models)
def test_the_union_bound_gives_counting_half_the_level_and_the_information_models_the_other_half(reviewed):
    ann = reviewed[-1].players[0]
    # the standard rules read no suits: two information models (the card, its group) share half the level
    assert [(m.name, m.chance.factor) for m in ann.models] == [("counting", 2), ("card", 4), ("group", 4)]


# slip: protect.py, Columns.of: an information model's figure left as the card's innovation, its mean not taken off
def test_the_group_models_figure_is_the_cards_innovation_less_its_mean_over_the_cards_left(reviewed):
    coups, befores, _, deals, _ = reviewed
    full = analyse(STANDARD_PLAYER, Shoe.decks(2))[0].ev
    innovation = {inside: analyse(STANDARD_PLAYER, Shoe.decks(2), Knowledge.parse([known]))[0].ev - full
                  for inside, known in ((True, "1=7-9"), (False, "1=A,2,3,4,5,6,T,J,Q,K"))}
    figures = protect.coup_figures("", deals[""], ["player"])
    shoe_coups = {("", "S"): [figures["S", n] for n in range(1, len(coups) + 1)]}
    column = protect.Columns(shoe_coups, protect.Informed(deals, {"": {"player"}}, "7-9")).of("group")("", "S", "player")
    means = []
    for (dealt, _), before, figure in zip(coups, befores, column):
        in_group = sum(before.rank_counts()[6:9])  # the 7s, 8s and 9s left
        means.append((in_group * innovation[True] + (before.size - in_group) * innovation[False]) / before.size)
        assert figure == pytest.approx(float(innovation[dealt[0][0] in "789"] - means[-1]), rel=1e-9, abs=1e-15)
    assert means[0] == 0 and max(map(abs, means)) > 1e-5  # 0 on the full shoe; not where the shoe has moved


# slip: protect.py, session_rows: a session's realized win from the EVs (p.ev) in place of what was paid (p.net)
def test_a_sessions_realized_win_is_what_its_wagers_were_paid(reviewed):
    coups, _, stakes, _, review = reviewed
    ann = review.players[0]
    paid = {1: 1, 0: 0, -1: -1}  # a unit on the Player, by the dealer's winner: won, pushed on a tie, lost
    realized = -sum(amount * paid[coups[c - 1][1]["winner"]] for c, amount in stakes.items())
    assert [s["realized"] for s in ann.sessions] == [realized] == [ann.realized]
    assert ann.sessions[0]["theoretical"] == ann.theoretical != realized


# weak spot: protect.py, opportunities: each amount paired with its own coup's EV, not the next coup's
def test_a_players_correlation_and_slope_pair_each_amount_with_its_own_coups_ev(reviewed):
    _, befores, stakes, _, review = reviewed
    ann = review.players[0]
    # his opportunities: every coup from his first wager (2) to his last (5), 0 where he placed none
    amounts = [stakes.get(c, 0) for c in range(2, 6)]
    evs = [float(analyse(STANDARD_PLAYER, befores[c - 1])[0].ev) for c in range(2, 6)]
    assert ann.correlation == pytest.approx(statistics.correlation(amounts, evs), rel=1e-9)
    assert ann.slope == pytest.approx(statistics.linear_regression(evs, amounts).slope, rel=1e-9)


CLASSES = rules_of('[[bets]]\nid = "either_pair"\nlines = [{ label = "a pair", when = { any = [{ player_pair = true }, '
                   '{ banker_pair = true }] }, pays = 5 }]\n'
                   '[[bets]]\nid = "either_suited"\nlines = [{ label = "suited", when = { any = [{ player_suited = true }, '
                   '{ banker_suited = true }] }, pays = 1 }]\n'
                   '[[bets]]\nid = "plain"\nlines = [{ label = "no pair, no suit", when = { not = { any = [{ player_pair = true }, '
                   '{ banker_pair = true }, { player_suited = true }, { banker_suited = true }] } }, pays = 1 }]\n')


def lines(results) -> list:
    return [(r.bet.id, r.sequences, r.total) for r in results]


# weak spot: lean.py, Lean.results: a count of hand classes (Player's class x 4 + Banker's) left at 0
def test_the_lean_plan_counts_every_pair_of_hand_classes():
    plan = lean.lean_of(plan_of(CLASSES))
    assert sorted({x for row in plan.class_rows for x in row}) == list(range(16))  # every pair of classes is read
    read = lean.Lean.from_bytes(plan.to_bytes(), len(CLASSES.bets))
    rng = random.Random(11)
    deck = [r + s for r in "A23456789TJQK" for s in "shdc"]
    for decks, gone in ((1, 5), (2, 9), (6, 40)):  # suits uneven; two decks or more: identical cards (suited pairs)
        shoe = Shoe.decks(decks).remove(*rng.sample(deck * decks, gone))
        assert lines(read.results(CLASSES, shoe)) == lines(enumerated(CLASSES, shoe))


# slip: lean.py, Lean.from_bytes: a class index of 16 ("0 <= x <= 16") taken as fitting
def test_a_plan_with_a_class_index_of_16_is_refused_and_compiled_again(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    shoe = Shoe.decks(8).remove("Ah", "Kd")
    for _ in range(2):  # kept the second time a process asks
        lean._KEPT.clear()
        lean.analyse(CLASSES, shoe)
    name = plancache.key("lean", CLASSES)
    text, _, packed = plancache.load_bytes(name).partition(b"\n")
    header = json.loads(text)
    header["class_rows"][0][0] = 16  # the classes are 0 to 15
    damaged = json.dumps(header).encode() + b"\n" + packed
    with pytest.raises(ValueError):
        lean.Lean.from_bytes(damaged, len(CLASSES.bets))
    assert plancache.store_bytes(name, damaged)  # kept whole (its digest its own): only its content is wrong
    lean._KEPT.clear()
    assert lines(lean.analyse(CLASSES, shoe)) == lines(enumerated(CLASSES, shoe))  # compiled again, not a crash
    lean._KEPT.clear()


# slip: replay.py, parse_coups: a new shoe begun only where the last has coups (a shoe of a burn alone merged into the next)
@pytest.mark.parametrize("burn, burned, face_down", [("burn 5h", ["5h"], 0), ("burn +5", [], 5)])
def test_a_shoe_holding_only_its_burn_stays_a_shoe_of_its_own(burn, burned, face_down):
    shoes = parse_coups(f"shoe a\n{burn}\nshoe b\n8c 3c 7h 5c\n", "f")
    assert [(s.name, [card_text(c) for c in s.burned], s.face_down, len(s.coups)) for s in shoes] == [
        ("a", burned, face_down, 0), ("b", [], 0, 1)]


# weak spot: replay.py, cards_taken: a natural 8, not only a 9, ends the coup at four cards
def test_a_natural_8_ends_the_coup_with_two_cards_each():
    text = "8c 3c 7h 5c\n5s 2d 3h Tc\n"  # Banker 3 + 5 = 8 (Player 5); Player 5 + 3 = 8 (Banker 2)
    dealt = list(steps(Shoe.decks(8), parse_coups(text, "f"), STANDARD.tableau))
    assert [len(s.coup.cards) for s in dealt] == [deal(line.split())["cards"] for line in text.splitlines()] == [4, 4]
    assert [result_of(s.coup.cards, STANDARD.tableau) for s in dealt] == [("banker", 5, 8), ("player", 8, 2)]
    for late in ("8c 3c 7h 5c 4d\n", "5s 2d 3h Tc 4d\n"):  # a third card after a natural 8
        with pytest.raises(BaccaratError, match=r"the tableau deals 4 cards here, not 5 .*a natural ends it"):
            list(steps(Shoe.decks(8), parse_coups(late, "f"), STANDARD.tableau))


# weak spot: counting.py, parse_levels and check_levels: the largest level, MAX_LEVEL (20), refused as past the bound
def test_a_count_of_level_20_the_largest_is_derived():
    assert MAX_LEVEL == 20
    assert parse_levels("20") == (20,) and parse_levels("18-20") == (18, 19, 20) and check_levels([20]) == (20,)
    out = CliRunner().invoke(cli, ["count", "--rules", "standard", "--bet", "banker", "--levels", "20", "--format", "json"])
    assert out.exit_code == 0, out.output
    assert [row["level"] for row in json.loads(out.output)["counts"]] == [20]


# slip: counting.py, parse_levels and check_levels: a level past MAX_LEVEL (20) taken
@pytest.mark.parametrize("levels", ["21", "20-21"])
def test_a_count_of_level_past_20_is_refused(levels):
    with pytest.raises(BaccaratError, match="from 1 to 20"):
        parse_levels(levels)
    with pytest.raises(BaccaratError, match="from 1 to 20"):
        check_levels([21])
