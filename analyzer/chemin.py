"""Chemin de fer: the drawing decisions left free in the original game, solved exactly.

The Player draws on 0-4, stands on 6-7 and chooses on 5; the Banker chooses at every
*information set*: what he knows when he decides. Naturals end the coup as usual.

Glossary
--------
model A      infinite deck (cards drawn with replacement): the Banker knows his total and the
             Player's third card, or that the Player stood.
model B      a finite shoe, no replacement: the Banker knows his two cards (their point values:
             ranks of equal value tell him nothing more) and the Player's third card or "stood".
p            the Player's probability of drawing on 5 (he knows only his total).
q[I]         the Banker's probability of drawing at information set I.
value        the Banker's expected result per unit at an equilibrium.
commission   a share of the Banker's wins paid to the house: the game is then not zero-sum. We use
             Nash equilibrium: each side's strategy is a best response to the other's (checked
             exactly: no pure deviation gains). With no commission this is the minimax solution.

How: every ordered sequence of six point values is dealt once (10**6, vectorised) with its exact
weight (model A: 4 for a ten-value card, 1 otherwise, per card; model B: ordered card counts), and
its outcome recorded for both Player choices on 5 and both Banker choices: a table of weights by
(information set, Banker action, result). The Banker's payoff at I is then linear in p, so his best
reply changes only at finitely many p; the equilibrium is found among those p (and 0 and 1) with
the Banker mixing at sets where he is indifferent so that the Player is indifferent too. All
arithmetic after the table is on Fractions.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np

from .cards import BaccaratError, Shoe, check_playable
from .tableau import PUNTO_BANCO, STOOD

STAND, DRAW = 0, 1
PAIRS = [(a, c) for a in range(10) for c in range(a, 10)]  # the Banker's two values, unordered
PAIR_INDEX = {pair: i for i, pair in enumerate(PAIRS)}
FORCED, FIVE_DRAWS, FIVE_STANDS = 0, 1, 2  # the Player's situation: not on 5, or on 5 and drawing / standing


@lru_cache(maxsize=1)
def sequences():
    """All 10**6 ordered value sequences: Player, Banker, Player, Banker, then two more cards."""
    return np.indices((10,) * 6).reshape(6, -1)


def sequence_weights(shoe: Shoe | None) -> np.ndarray:
    """Ways to deal each value sequence: with replacement (model A, 13**6 in all) or from ``shoe``."""
    cards = sequences()
    if shoe is None:
        per_card = np.array([4] + [1] * 9, np.int64)
        return np.prod(per_card[cards], axis=0)
    v = np.array(shoe.value_counts(), np.int64 if shoe.size**6 < 2**62 else object)
    weight = np.ones(cards.shape[1], v.dtype)
    for k in range(6):
        earlier = (cards[:k] == cards[k]).sum(0)
        weight = weight * np.maximum(v[cards[k]] - earlier, 0)
    return weight


@dataclass(frozen=True)
class GameTable:
    """Weights (ways to deal) by situation: ``naturals`` for the results -1, 0, +1 of a natural, and
    ``table[(situation, info, action, result)]``, result +1 Banker wins, 0 tie, -1 Player wins;
    ``labels[info]`` = (the Banker's total, or his two values, and the Player's third card or STOOD)."""

    model: str
    naturals: tuple
    table: dict  # (situation, info, action, result) -> weight; absent = 0
    labels: tuple
    total: int

    def banker_total(self, info) -> int:
        """The Banker's two-card total at an information set (model B knows the two values)."""
        known = self.labels[info][0]
        return known if self.model == "A" else sum(known) % 10


def game_table(shoe: Shoe | None) -> GameTable:
    p1, b1, p2, b2, c5, c6 = sequences()
    weight = sequence_weights(shoe)
    pt, bt = (p1 + p2) % 10, (b1 + b2) % 10
    natural = (pt >= 8) | (bt >= 8)
    result = lambda banker, player: np.sign(banker - player)  # noqa: E731
    naturals = tuple(int(weight[natural & (result(bt, pt) == r)].sum()) for r in (-1, 0, 1))
    if shoe is None:
        info_of = bt  # the Banker knows his total
        labels = [(b, x) for b in range(10) for x in range(11)]
    else:
        pair = np.array([[PAIR_INDEX[tuple(sorted((a, c)))] for c in range(10)] for a in range(10)])
        info_of = pair[b1, b2]
        labels = [(pr, x) for pr in PAIRS for x in range(11)]
    table = {}

    def record(situation, mask, player_draws):
        third = np.where(player_draws, c5, STOOD)
        player = np.where(player_draws, (pt + c5) % 10, pt)
        banker_card = np.where(player_draws, c6, c5)
        info = info_of * 11 + third
        for action in (STAND, DRAW):
            banker = (bt + banker_card) % 10 if action == DRAW else bt
            key = (info * 2 + action) * 3 + result(banker, player) + 1
            keys, sums = group_sums(key[mask], weight[mask])
            for k, s in zip(keys.tolist(), sums):
                if s:  # a situation the shoe cannot deal is no information set
                    i, r = divmod(k, 3)
                    entry = (situation, i // 2, i % 2, r - 1)
                    table[entry] = table.get(entry, 0) + int(s)

    live = ~natural
    record(FORCED, live & (pt <= 4), True)
    record(FORCED, live & (pt >= 6), False)
    record(FIVE_DRAWS, live & (pt == 5), True)
    record(FIVE_STANDS, live & (pt == 5), False)
    return GameTable("A" if shoe is None else "B", naturals, table, tuple(labels), int(weight.sum()))


def group_sums(keys: np.ndarray, weights: np.ndarray):
    """Exact sums of ``weights`` by key (integers: no float rounding)."""
    order = np.argsort(keys, kind="stable")
    keys, weights = keys[order], weights[order]
    starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    return keys[starts], np.add.reduceat(weights, starts) if len(keys) else weights


@dataclass(frozen=True)
class Payoffs:
    """Each side's payoff, as weights: ``base`` from naturals, and per information set and Banker
    action the three coefficients (forced, Player draws on 5, Player stands on 5)."""

    base: Fraction
    coefficients: dict  # (info, action) -> (forced, five_draws, five_stands)

    def at(self, info, action, p: Fraction) -> Fraction:
        forced, draws, stands = self.coefficients.get((info, action), (0, 0, 0))
        return forced + p * draws + (1 - p) * stands

    def slope(self, info, action) -> Fraction:
        """d/dp of ``at``: what the Player's drawing on 5 changes at this set."""
        _, draws, stands = self.coefficients.get((info, action), (0, 0, 0))
        return draws - stands


def payoffs(game: GameTable, utility) -> Payoffs:
    """``utility(result)`` per unit staked, result +1 Banker wins, 0 tie, -1 Player wins."""
    base = sum(utility(r) * w for r, w in zip((-1, 0, 1), game.naturals))
    coefficients = {}
    for (situation, info, action, r), w in game.table.items():
        c = list(coefficients.get((info, action), (0, 0, 0)))
        c[situation] += utility(r) * w
        coefficients[(info, action)] = tuple(c)
    return Payoffs(Fraction(base), coefficients)


@dataclass(frozen=True)
class Solution:
    game: GameTable
    commission: Fraction
    p: Fraction  # the Player draws on 5 with this probability
    q: dict  # info -> the Banker's probability of drawing
    indifferent: frozenset  # sets where the Banker is indifferent at p
    banker: Payoffs
    player: Payoffs

    def five_arises(self) -> bool:
        """Whether the Player can hold 5 without a natural on either side (else p is moot)."""
        return any(situation != FORCED for situation, *_ in self.game.table)

    def banker_value(self, p=None, q=None) -> Fraction:
        return expected(self.banker, self.p if p is None else p, self.q if q is None else q, self.game.total)

    def player_value(self, p=None, q=None) -> Fraction:
        return expected(self.player, self.p if p is None else p, self.q if q is None else q, self.game.total)


def expected(side: Payoffs, p: Fraction, q: dict, total: int) -> Fraction:
    value = side.base + sum(q.get(i, 0) * side.at(i, DRAW, p) + (1 - q.get(i, 0)) * side.at(i, STAND, p)
                            for i in infos(side))
    return value / total


def infos(side: Payoffs):
    return sorted({info for info, _ in side.coefficients})


def utilities(commission: Fraction):
    banker = lambda r: (1 - commission) if r > 0 else -1 if r < 0 else 0  # noqa: E731
    player = lambda r: 1 if r < 0 else -1 if r > 0 else 0  # noqa: E731
    return banker, player


def solve(shoe: Shoe | None, commission: Fraction = Fraction(0)) -> Solution:
    """An equilibrium of chemin de fer on ``shoe`` (None: model A, the infinite deck)."""
    if not 0 <= commission < 1:
        raise BaccaratError("the commission is a share of the Banker's wins: at least 0%, below 100%")
    game = game_table(None if shoe is None else check_playable(shoe))
    banker_u, player_u = utilities(commission)
    banker, player = payoffs(game, banker_u), payoffs(game, player_u)
    sets = infos(banker)

    def gain(i, p):  # what drawing instead of standing is worth to the Banker at set i
        return banker.at(i, DRAW, p) - banker.at(i, STAND, p)

    candidates = {Fraction(0), Fraction(1)}
    for i in sets:
        a, b = gain(i, Fraction(0)), gain(i, Fraction(1))
        if a != b and (a <= 0 <= b or b <= 0 <= a):
            candidates.add(a / (a - b))
    for p in sorted(candidates):
        q = {i: Fraction(1) if gain(i, p) > 0 else Fraction(0) for i in sets}
        level = [i for i in sets if gain(i, p) == 0]
        slope = sum(player.slope(i, DRAW) if q[i] else player.slope(i, STAND) for i in sets if i not in level)
        low = slope + sum(min(player.slope(i, DRAW), player.slope(i, STAND)) for i in level)
        high = slope + sum(max(player.slope(i, DRAW), player.slope(i, STAND)) for i in level)
        if (p == 0 and low <= 0) or (p == 1 and high >= 0) or (low <= 0 <= high):
            target = 0 if 0 < p < 1 else low if p == 0 else high
            q.update(mix(level, player, low, target))
            return Solution(game, commission, p, q, frozenset(level), banker, player)
    raise AssertionError("a finite game always has an equilibrium")  # pragma: no cover


def mix(level, player: Payoffs, start: Fraction, target: Fraction) -> dict:
    """Drawing probabilities at the indifferent sets that bring the Player's slope from ``start``
    (each set at its slope-minimising action) to ``target``: sets are moved one at a time, the
    last one mixed."""
    q, slope = {}, Fraction(start)
    for i in level:
        draw, stand = player.slope(i, DRAW), player.slope(i, STAND)
        low_action = DRAW if draw <= stand else STAND
        q[i] = Fraction(1 if low_action == DRAW else 0)
        room = Fraction(abs(draw - stand))
        if slope < target and room:
            step = min(room, target - slope)
            share = step / room
            q[i] = 1 - share if low_action == DRAW else share
            slope += step
    return q


def punto_banco_q(game: GameTable) -> dict:
    """The Banker's strategy of the punto banco tableau, as drawing probabilities by set."""
    q = {}
    for i, (_, third) in enumerate(game.labels):
        total = game.banker_total(i)
        if total <= 7:
            q[i] = Fraction(int(PUNTO_BANCO.banker_draws[total][third]))
    return q


def best_reply_q(side: Payoffs, p: Fraction) -> dict:
    return {i: Fraction(int(side.at(i, DRAW, p) > side.at(i, STAND, p))) for i in infos(side)}


def deviations(sol: Solution) -> dict:
    """How much each side loses by playing the punto banco tableau instead of its equilibrium
    strategy: against the other side's equilibrium strategy, and against its best reply."""
    pb_q = punto_banco_q(sol.game)
    best_p = max((Fraction(0), Fraction(1)), key=lambda p: sol.player_value(p, pb_q))
    return {
        "player": {"against_equilibrium": sol.player_value() - sol.player_value(Fraction(1), sol.q),
                   "against_best_reply": sol.player_value() - sol.player_value(Fraction(1), best_reply_q(sol.banker, Fraction(1)))},
        "banker": {"against_equilibrium": sol.banker_value() - sol.banker_value(sol.p, pb_q),
                   "against_best_reply": sol.banker_value() - sol.banker_value(best_p, pb_q)},
    }


def pure_deviation_gains(sol: Solution) -> tuple[Fraction, Fraction]:
    """The most either side could gain by a pure deviation (both 0 at an equilibrium): the
    Player's two choices on 5, and the Banker's best pure reply at every set."""
    player_gain = max(sol.player_value(p, sol.q) for p in (Fraction(0), Fraction(1))) - sol.player_value()
    banker_gain = sol.banker_value(sol.p, best_reply_q(sol.banker, sol.p)) - sol.banker_value()
    return player_gain, banker_gain
