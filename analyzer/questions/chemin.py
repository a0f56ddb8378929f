"""Chemin de fer: the drawing choices a tableau leaves open, solved exactly as a two-person game.

Naturals end the coup as usual; every other cell of the tableau is played as it says, except its
*options* (tableau.Tableau.player_options, banker_options), where the side chooses. FREE is the
parlour game the literature solves (the Player chooses on 5, the Banker in every cell); CASINO is
the casino game of the first seed (punto banco's tableau with the Player's 5, and the Banker's
3 against a third card 9 and 5 against a 4, optional).

Glossary
--------
model A          infinite deck (cards drawn with replacement); each side knows its total.
model B1         a finite shoe, no replacement; each side knows only its total (model A's knowledge,
                 as Kemeny and Snell assumed, without replacement).
model B2         a finite shoe, no replacement; the Banker knows his two cards (their point values:
                 ranks of equal value tell him nothing more), the Player only his total.
model B3         as B2, and the Player knows his two cards too: holding 5 he may play 0-5, 1-4, 2-3,
                 6-9 and 7-8 differently.
model B4         the one the papers leave out: the Player knows his two cards, the Banker only his
                 total. B1 to B4 answer every combination of what each side sees.
information set  what a side knows where it has an option: the Player's total (B3, B4: his two
                 cards); the Banker's total (B2, B3: his two cards) and the Player's third card or
                 "stood".
x[s], y[i]       the Player's and the Banker's probability of drawing at their sets s and i.
gain             what drawing instead of standing at a set is worth to the side: affine in the other
                 side's x or y (the game is bilinear).
commission       a share of the Banker's wins paid to the house: the game is then not zero-sum. We
                 use Nash equilibrium: each side's strategy a best reply to the other's (checked
                 exactly: no pure deviation gains). With no commission it is the minimax solution.

How: every ordered sequence of six point values is dealt once (10**6, vectorised) with its exact
weight (model A: 4 for a ten-value card, 1 otherwise, per card; model B: ordered card counts), and
its outcome recorded for each side's choices: weights by (Player set, his action, Banker set, his
action) and result. Choices that are a best reply whatever the other side does are fixed first
(repeatedly: dominance); then the equilibrium is found among the few sets left, by their supports:
which Player sets mix, which Banker sets mix (as many), the pure choices of the other Player sets;
the mixed x solve "the mixing Banker sets are indifferent", the Banker's other sets reply best,
and the mixed y solve "the mixing Player sets are indifferent". All arithmetic after the table is
on integers and Fractions.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import combinations, product
from math import comb

import numpy as np

from ..base.errors import unknown
from ..game.cards import BaccaratError, Shoe, check_playable
from ..game.tableau import FREE, STOOD, Tableau

STAND, DRAW = 0, 1
MODELS = ("A", "B1", "B2", "B3", "B4")
PLAYER_SEES_CARDS = frozenset({"B3", "B4"})  # the models where the Player knows his two cards, not just his total
BANKER_SEES_CARDS = frozenset({"B2", "B3"})  # and where the Banker knows his
PAIRS = [(a, c) for a in range(10) for c in range(a, 10)]  # two point values, unordered
PAIR_OF = np.array([[PAIRS.index(tuple(sorted((a, c)))) for c in range(10)] for a in range(10)])
FIXED = -1  # the set index of a deal where the side's play is fixed by the tableau
MAX_CANDIDATES = 2_000_000  # supports tried at most: a tableau with more free choices is refused
MAX_PIECES = 1000  # changes of the equilibrium followed at most in a commission table


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
class Game:
    """Ways to deal, by what each side knows and does: ``weights[(s, a, i, b)]`` = (Player wins,
    ties, Banker wins) where the Player, at set s, takes action a and the Banker, at set i, takes
    action b; s or i is FIXED where the tableau decides (a or b is then what it decides)."""

    model: str
    tableau: Tableau
    shoe: Shoe | None
    total: int
    player_sets: tuple  # (total, two values or None)
    banker_sets: tuple  # (total, two values or None, Player's third card or STOOD)
    weights: dict

    def tableau_x(self, s: int) -> int:
        """What the tableau plays at Player set ``s`` (its choice outside chemin de fer)."""
        return int(self.tableau.player_draws[self.player_sets[s][0]])

    def tableau_y(self, i: int) -> int:
        total, _, third = self.banker_sets[i]
        return int(self.tableau.banker_draws[total][third])


def game(shoe: Shoe | None, tableau: Tableau = FREE, model: str | None = None) -> Game:
    """The game table of ``tableau``'s options dealt from ``shoe`` (None: the infinite deck)."""
    model = model or ("A" if shoe is None else "B2")
    if model not in MODELS:
        raise BaccaratError(unknown("information model", model, MODELS))
    if (model == "A") != (shoe is None):
        raise BaccaratError("model A is the infinite deck; models B1 to B4 deal from a finite shoe")
    return _game(None if shoe is None else check_playable(shoe), tableau, model)


@lru_cache(maxsize=4)  # the commission table solves one game many times
def _game(shoe: Shoe | None, tableau: Tableau, model: str) -> Game:
    p1, b1, p2, b2, c5, c6 = sequences()
    weight = sequence_weights(shoe)
    pt, bt = (p1 + p2) % 10, (b1 + b2) % 10
    natural = (pt >= 8) | (bt >= 8)
    player_draws, banker_draws = np.array(tableau.player_draws), np.array(tableau.banker_draws)
    player_options, banker_options = np.array(tableau.player_options), np.array(tableau.banker_options)
    player_key = PAIR_OF[p1, p2] if model in PLAYER_SEES_CARDS else pt
    banker_key = PAIR_OF[b1, b2] if model in BANKER_SEES_CARDS else bt
    player_set = np.where(player_options[pt] & ~natural, player_key, FIXED)
    sizes = (len(PAIRS) + 1, 2, len(PAIRS) * 11 + 1, 2, 3)  # (s, a, i, b, result) + 1 where FIXED may be
    codes, weights = [], []
    for a in (STAND, DRAW):
        acts = ~natural & ((player_set >= 0) | (player_draws[pt] == a)) if a else \
            natural | (player_set >= 0) | ~player_draws[pt]  # a natural: nobody draws
        third = c5 if a else np.full_like(c5, STOOD)
        player = (pt + c5) % 10 if a else pt
        card = c6 if a else c5
        optional = banker_options[bt, third] & ~natural
        banker_set = np.where(optional, banker_key * 11 + third, FIXED)
        for b in (STAND, DRAW):
            rows = acts & (optional | ((banker_draws[bt, third] == b) & ~natural) | (natural & (b == STAND)))
            banker = (bt + card) % 10 if b else bt
            result = np.sign(banker - player) + 1
            codes.append(np.ravel_multi_index((player_set[rows] + 1, np.full(rows.sum(), a), banker_set[rows] + 1,
                                               np.full(rows.sum(), b), result[rows]), sizes))
            weights.append(weight[rows])
    keys, sums = group_sums(np.concatenate(codes), np.concatenate(weights))
    table = {}
    for code, w in zip(keys.tolist(), sums.tolist()):
        if w:  # a situation the shoe cannot deal is no information set
            s, a, i, b, r = np.unravel_index(code, sizes)
            entry = table.setdefault((int(s) - 1, int(a), int(i) - 1, int(b)), [0, 0, 0])
            entry[int(r)] += int(w)
    player_sets = sorted({s for s, _, _, _ in table if s >= 0})
    banker_sets = sorted({i for _, _, i, _ in table if i >= 0})
    s_at = {s: n for n, s in enumerate(player_sets)} | {FIXED: FIXED}
    i_at = {i: n for n, i in enumerate(banker_sets)} | {FIXED: FIXED}
    return Game(model, tableau, shoe, int(weight.sum()),
                tuple(player_label(s, model) for s in player_sets), tuple(banker_label(i, model) for i in banker_sets),
                {(s_at[s], a, i_at[i], b): tuple(w) for (s, a, i, b), w in table.items()})


def player_label(s: int, model: str) -> tuple:
    return (sum(PAIRS[s]) % 10, PAIRS[s]) if model in PLAYER_SEES_CARDS else (s, None)


def banker_label(i: int, model: str) -> tuple:
    known, third = divmod(i, 11)
    return (sum(PAIRS[known]) % 10, PAIRS[known], third) if model in BANKER_SEES_CARDS else (known, None, third)


def group_sums(keys: np.ndarray, weights: np.ndarray):
    """Exact sums of ``weights`` by key (integers: no float rounding)."""
    order = np.argsort(keys, kind="stable")
    keys, weights = keys[order], weights[order]
    starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    return keys[starts], np.add.reduceat(weights, starts) if len(keys) else weights


# --- payoffs -------------------------------------------------------------------------------------

PLAYER_RESULT = (1, 0, -1)  # the Player's result per unit staked, by (Player wins, tie, Banker wins)


def banker_utility(commission: Fraction) -> tuple:
    """The Banker's result per unit staked, by (Player wins, tie, Banker wins)."""
    return (-1, 0, 1 - commission)


def worth(u: tuple, w: tuple):
    return u[0] * w[0] + u[2] * w[2]


@dataclass(frozen=True)
class Affine:
    """const + sum of coef[k] * v[k]: one side's gain at a set, as a function of the other side's
    drawing probabilities v."""

    const: Fraction
    coef: dict

    def at(self, v: dict) -> Fraction:
        return self.const + sum(c * v[k] for k, c in self.coef.items())

    def given(self, v: dict) -> Affine:
        """The function left when the other side's choices in ``v`` are known."""
        return Affine(self.const + sum(c * v[k] for k, c in self.coef.items() if k in v),
                      {k: c for k, c in self.coef.items() if k not in v})

    def bounds(self) -> tuple:
        """Its least and greatest value as the free variables range over [0, 1]."""
        return (self.const + sum(min(c, 0) for c in self.coef.values()),
                self.const + sum(max(c, 0) for c in self.coef.values()))


def gains(game: Game, u: tuple, player: bool) -> dict:
    """Each set's gain (drawing minus standing) for the side with utility ``u`` (the Player's
    sets if ``player``, else the Banker's), affine in the other side's drawing probabilities."""
    const, coef = {}, {}
    for (s, a, i, b), w in game.weights.items():
        mine, my_action, theirs, their_action = (s, a, i, b) if player else (i, b, s, a)
        if mine == FIXED:
            continue
        v = worth(u, w) * (1 if my_action == DRAW else -1)
        const[mine] = const.get(mine, 0) + (0 if theirs != FIXED and their_action == DRAW else v)
        if theirs != FIXED:
            row = coef.setdefault(mine, {})
            row[theirs] = row.get(theirs, 0) + (v if their_action == DRAW else -v)
    sets = game.player_sets if player else game.banker_sets
    return {k: Affine(Fraction(const.get(k, 0)), {t: c for t, c in coef.get(k, {}).items() if c})
            for k in range(len(sets))}


def expected(game: Game, u: tuple, x: dict, y: dict) -> Fraction:
    """A side's expected result per unit staked when the Player plays x and the Banker y."""
    total = Fraction(0)
    for (s, a, i, b), w in game.weights.items():
        px = 1 if s == FIXED else x[s] if a == DRAW else 1 - x[s]
        py = 1 if i == FIXED else y[i] if b == DRAW else 1 - y[i]
        if px and py:
            total += worth(u, w) * px * py
    return total / game.total


# --- the equilibrium -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Solution:
    game: Game
    commission: Fraction
    x: dict  # Player set -> probability of drawing
    y: dict  # Banker set -> probability of drawing
    support: tuple = ((), ())  # the Player's and the Banker's sets that mix (made indifferent)

    def banker_value(self, x=None, y=None) -> Fraction:
        return expected(self.game, banker_utility(self.commission), self.x if x is None else x, self.y if y is None else y)

    def player_value(self, x=None, y=None) -> Fraction:
        return expected(self.game, PLAYER_RESULT, self.x if x is None else x, self.y if y is None else y)

    def player_draws_on(self, total: int) -> Fraction | None:
        """The Player's probability of drawing when he holds ``total`` at an option (models B3, B4:
        over his two cards, weighted by how often each is dealt); None if he never chooses there."""
        sets = [s for s, (t, _) in enumerate(self.game.player_sets) if t == total]
        if not sets:
            return None
        dealt = {s: sum(sum(w) for (t, a, i, b), w in self.game.weights.items()  # each deal once
                        if t == s and a == DRAW and (i == FIXED or b == STAND)) for s in sets}
        return sum(dealt[s] * self.x[s] for s in sets) / sum(dealt.values())


def solve(game: Game, commission: Fraction = Fraction(0)) -> Solution:
    """A Nash equilibrium of ``game`` (the minimax solution when there is no commission)."""
    if not 0 <= commission < 1:
        raise BaccaratError("the commission is a share of the Banker's wins: at least 0%, below 100%")
    f = gains(game, PLAYER_RESULT, player=True)
    g = gains(game, banker_utility(commission), player=False)
    x, y = dominance(game, f, g)
    for found in supports(f, g, x, y, game):
        return Solution(game, commission, *found)
    raise AssertionError("a finite game always has an equilibrium")  # pragma: no cover


def dominance(game: Game, f: dict, g: dict) -> tuple[dict, dict]:
    """The choices that are a best reply whatever the other side may still do, fixed in turn
    until none is left (a choice indifferent everywhere is played as the tableau says)."""
    x, y, changed = {}, {}, True
    while changed:
        changed = False
        for gain, fixed, other, default in ((g, y, x, game.tableau_y), (f, x, y, game.tableau_x)):
            for k, affine in gain.items():
                if k not in fixed:
                    low, high = affine.given(other).bounds()
                    if low >= 0 or high <= 0:
                        fixed[k] = Fraction(default(k) if low == high == 0 else int(low >= 0 and high > 0))
                        changed = True
    return x, y


def supports(f: dict, g: dict, x0: dict, y0: dict, game: Game):
    """Every equilibrium with the fixed choices x0, y0, by support: j Player sets and j Banker
    sets mixing (j = 0 first), the Player's other sets drawing or standing."""
    free_s, free_i = [s for s in f if s not in x0], [i for i in g if i not in y0]
    tried = sum(comb(len(free_s), j) * 2 ** (len(free_s) - j) * comb(len(free_i), j)
                for j in range(min(len(free_s), len(free_i)) + 1))
    if tried > MAX_CANDIDATES:
        raise BaccaratError(f"this tableau leaves {len(free_s)} Player and {len(free_i)} Banker choices open "
                            "after dominance: too many to solve exactly")
    for j in range(min(len(free_s), len(free_i)) + 1):
        for mixed_s in combinations(free_s, j):
            pure_s = [s for s in free_s if s not in mixed_s]
            for choice in product((1, 0), repeat=len(pure_s)):
                x = x0 | {s: Fraction(c) for s, c in zip(pure_s, choice)}
                reduced = {i: g[i].given(x) for i in free_i}
                able = [i for i in free_i if sign_changes(reduced[i])]
                for mixed_i in combinations(able, j):
                    found = equilibrium(f, g, x, y0, free_i, pure_s, mixed_s, mixed_i, reduced, game)
                    if found:
                        yield found


def sign_changes(affine: Affine) -> bool:
    """Whether the gain can be 0 as the free variables range over [0, 1]."""
    low, high = affine.bounds()
    return low <= 0 <= high


def equilibrium(f, g, x, y0, free_i, pure_s, mixed_s, mixed_i, reduced, game):
    """The equilibrium with this support, if there is one: the mixed x make the mixing Banker sets
    indifferent, the mixed y the mixing Player sets."""
    xs = linear_solve([[reduced[i].coef.get(s, 0) for s in mixed_s] for i in mixed_i], [-reduced[i].const for i in mixed_i])
    if xs is None or not all(0 <= v <= 1 for v in xs):
        return None
    x = x | dict(zip(mixed_s, xs))
    y = dict(y0)
    for i in free_i:
        if i not in mixed_i:
            gain = g[i].at(x)
            y[i] = Fraction(1 if gain > 0 else 0 if gain < 0 else game.tableau_y(i))
    rest = {s: f[s].given(y) for s in mixed_s}
    ys = linear_solve([[rest[s].coef.get(i, 0) for i in mixed_i] for s in mixed_s], [-rest[s].const for s in mixed_s])
    if ys is None or not all(0 <= v <= 1 for v in ys):
        return None
    y |= dict(zip(mixed_i, ys))
    if all(f[s].at(y) >= 0 if x[s] == 1 else f[s].at(y) <= 0 for s in pure_s):
        return x, y, (mixed_s, mixed_i)
    return None


def linear_solve(a: list, b: list) -> list | None:
    """The solution of a x = b (square, Fractions) by elimination, or None if a is singular.

    >>> linear_solve([[2, 1], [1, 3]], [3, 5])
    [Fraction(4, 5), Fraction(7, 5)]
    >>> linear_solve([[1, 2], [2, 4]], [1, 2]) is None
    True
    """
    n = len(a)
    m = [[Fraction(v) for v in row] + [Fraction(r)] for row, r in zip(a, b)]
    for col in range(n):
        pivot = next((r for r in range(col, n) if m[r][col]), None)
        if pivot is None:
            return None
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(n):
            if r != col and m[r][col]:
                factor = m[r][col] / m[col][col]
                m[r] = [v - factor * p for v, p in zip(m[r], m[col])]
    return [m[r][n] / m[r][r] for r in range(n)]


# --- what the solution says ----------------------------------------------------------------------

def tableau_play(game: Game) -> tuple[dict, dict]:
    """Each side's options played as the tableau plays them (punto banco's choices, for CASINO
    and FREE)."""
    return ({s: Fraction(game.tableau_x(s)) for s in range(len(game.player_sets))},
            {i: Fraction(game.tableau_y(i)) for i in range(len(game.banker_sets))})


def best_reply(gain: dict, other: dict) -> dict:
    return {k: Fraction(int(affine.at(other) > 0)) for k, affine in gain.items()}


def side_gains(sol: Solution) -> tuple[dict, dict]:
    return (gains(sol.game, PLAYER_RESULT, player=True),
            gains(sol.game, banker_utility(sol.commission), player=False))


def deviations(sol: Solution) -> dict:
    """How much each side loses by playing its options as the tableau does instead of its
    equilibrium strategy: against the other side's equilibrium strategy, and against its best
    reply."""
    f, g = side_gains(sol)
    tx, ty = tableau_play(sol.game)
    return {
        "player": {"against_equilibrium": sol.player_value() - sol.player_value(tx, sol.y),
                   "against_best_reply": sol.player_value() - sol.player_value(tx, best_reply(g, tx))},
        "banker": {"against_equilibrium": sol.banker_value() - sol.banker_value(sol.x, ty),
                   "against_best_reply": sol.banker_value() - sol.banker_value(best_reply(f, ty), ty)},
    }


def option_gains(sol: Solution) -> tuple[dict, dict]:
    """What drawing instead of standing is worth at each set, against the other side's equilibrium
    strategy, exactly: (the Player's, the Banker's), each set -> (per coup dealt, per coup in which
    the side is at that set). Positive: drawing is better; 0 where the side mixes. A deal reaches
    a Banker set with the probability that the Player's choice before it leads there."""
    f, g = side_gains(sol)
    reach_s, reach_i = {}, {}
    for (s, a, i, b), w in sol.game.weights.items():
        dealt = sum(w)
        if s != FIXED and a == DRAW and (i == FIXED or b == STAND):  # each deal once
            reach_s[s] = reach_s.get(s, 0) + dealt
        if i != FIXED and b == STAND:
            chance = 1 if s == FIXED else sol.x[s] if a == DRAW else 1 - sol.x[s]
            reach_i[i] = reach_i.get(i, 0) + dealt * chance

    def per(gain: dict, other: dict, reach: dict) -> dict:
        out = {}
        for k, affine in gain.items():
            at = affine.at(other)
            out[k] = (at / sol.game.total, at / reach[k] if reach.get(k) else None)
        return out

    return per(f, sol.y, reach_s), per(g, sol.x, reach_i)


def pure_deviation_gains(sol: Solution) -> tuple[Fraction, Fraction]:
    """The most either side could gain by a pure deviation (both 0 at an equilibrium): each
    side's best pure reply, set by set, to the other's strategy."""
    f, g = side_gains(sol)
    return (sol.player_value(best_reply(f, sol.y), sol.y) - sol.player_value(),
            sol.banker_value(sol.x, best_reply(g, sol.x)) - sol.banker_value())


# --- the commission from 0 to 10% ----------------------------------------------------------------

@dataclass(frozen=True)
class Piece:
    """A range of commissions over which one equilibrium's choices hold: which sets draw, stand or
    mix stays the same, the Banker's mixing probabilities too, and the Player's move with the
    commission (each a ratio of polynomials in it). ``end`` is exact (a sympy number: a rational
    or an algebraic root), ``why`` the set whose choice stops being a best reply there."""

    start: object
    end: object
    solution: Solution  # the equilibrium at a rational commission inside the piece
    why: str


def commission_pieces(game: Game, stop: Fraction = Fraction(1, 10)) -> list[Piece]:
    """The equilibria as the commission goes from 0 to ``stop``, piece by piece, with the exact
    commissions at which a choice changes. Pieces narrower than 1e-20 are not told apart."""
    import sympy  # heavy (about a second to import): only for the commission table's algebraic numbers

    win = gains(game, (0, 0, 1), player=False)  # the Banker's gain from his wins and from his losses:
    loss = gains(game, (1, 0, 0), player=False)  # at commission c it is (1 - c) win - loss
    pieces, start, at = [], sympy.Integer(0), Fraction(0)
    while len(pieces) < MAX_PIECES:
        sol = solve(game, at)
        end, why = piece_end(game, sol, win, loss, at, stop)
        pieces.append(Piece(start, end, sol, why))
        if end >= stop:
            return pieces
        start, at = end, Fraction(str(sympy.N(end, 40))) + Fraction(1, 10**20)
    raise BaccaratError(f"the equilibrium changes more than {MAX_PIECES} times between 0 and {stop * 100}%: "
                        "too many to follow")


def piece_end(game: Game, sol: Solution, win: dict, loss: dict, at: Fraction, stop: Fraction):
    """The first commission after ``at`` where one of the equilibrium's conditions fails: a mixing
    Player set's probability leaves [0, 1], or a Banker set's best reply changes."""
    mixed_s, mixed_i = sol.support
    pure_x = {s: v for s, v in sol.x.items() if s not in mixed_s}
    w = {i: a.given(pure_x) for i, a in win.items()}
    l_ = {i: a.given(pure_x) for i, a in loss.items()}

    def gain_poly(i, s=None):  # the Banker's gain at i, its constant or its coefficient of x[s], in c
        pick = (lambda a: a.const) if s is None else (lambda a: a.coef.get(s, 0))
        return [pick(w[i]) - pick(l_[i]), -pick(w[i])]  # (1 - c) w - l

    import sympy  # heavy (about a second to import): only for the commission table's algebraic numbers

    a = [[gain_poly(i, s) for s in mixed_s] for i in mixed_i]
    b = [poly_scale(gain_poly(i), -1) for i in mixed_i]
    d = poly_det(a)
    n = [poly_det([row[:k] + [b[r]] + row[k + 1:] for r, row in enumerate(a)]) for k in range(len(mixed_s))]
    conditions = []  # (polynomial that must stay >= 0, what it says)
    for k, s in enumerate(mixed_s):
        conditions += [(poly_mul(n[k], d), f"{set_name(game, s, True)} stops mixing"),
                       (poly_mul(poly_add(d, poly_scale(n[k], -1)), d), f"{set_name(game, s, True)} stops mixing")]
    for i in range(len(game.banker_sets)):
        if i not in mixed_i:
            value = poly_mul(gain_poly(i), d)
            for k, s in enumerate(mixed_s):
                value = poly_add(value, poly_mul(gain_poly(i, s), n[k]))
            sign = 1 if sol.y[i] == 1 else -1
            conditions.append((poly_mul(poly_scale(value, sign), d), f"{set_name(game, i, False)} changes its choice"))
    best, why = None, ""
    for poly, what in conditions:
        root = first_failure(poly, at, stop if best is None else best)
        if root is not None and (best is None or root < best):
            best, why = root, what
    return (sympy.Rational(stop.numerator, stop.denominator), "") if best is None else (best, why)


def first_failure(poly: list, after: Fraction, before):
    """The least root r of ``poly`` with after < r <= before after which it turns negative, or None."""
    import sympy  # heavy (about a second to import): only for the commission table's algebraic numbers

    poly = poly_trim(poly)
    if len(poly) <= 1:
        return None
    high = Fraction(str(sympy.N(before, 30))) + Fraction(1, 10**25)  # at least ``before``
    if poly_at(poly, after) > sum(abs(c) * (high ** k - after ** k) for k, c in enumerate(poly) if k):
        return None  # it moves less than its value over the range: it stays positive
    c = sympy.Symbol("c")
    roots = sorted(r for r in sympy.Poly(list(reversed(poly)), c).real_roots() if after < r <= before)
    for r, next_r in zip(roots, roots[1:] + [sympy.sympify(before) + 1]):
        probe = Fraction(str(sympy.N((r + next_r) / 2, 40)))
        if poly_at(poly, probe) < 0:
            return r
    return None


def set_name(game: Game, k: int, player: bool) -> str:
    """A set as the tables say it: "Player 5" (B3: "Player 5 (2-3)"), "Banker 6 (0-6) v stood"."""
    if player:
        total, cards = game.player_sets[k]
        return f"Player {total}" + (f" ({cards[0]}-{cards[1]})" if cards else "")
    total, cards, third = game.banker_sets[k]
    return f"Banker {total}" + (f" ({cards[0]}-{cards[1]})" if cards else "") + \
        f" v {'stood' if third == STOOD else third}"


def poly_trim(p: list) -> list:
    p = list(p)
    while p and p[-1] == 0:
        p.pop()
    return p


def poly_at(p: list, v) -> Fraction:
    total = Fraction(0)
    for c in reversed(p):
        total = total * v + c
    return total


def poly_add(p: list, q: list) -> list:
    return [(p[k] if k < len(p) else 0) + (q[k] if k < len(q) else 0) for k in range(max(len(p), len(q)))]


def poly_scale(p: list, k) -> list:
    return [c * k for c in p]


def poly_mul(p: list, q: list) -> list:
    out = [0] * max(len(p) + len(q) - 1, 0)
    for i, a in enumerate(p):
        for j, b in enumerate(q):
            out[i + j] += a * b
    return out


def poly_det(m: list) -> list:
    """The determinant of a square matrix of polynomials (Laplace: the matrices here are tiny).

    >>> poly_det([[[1, 1], [2]], [[3], [0, 1]]])  # (1 + c) c - 6
    [-6, 1, 1]
    """
    if not m:
        return [1]
    total = []
    for k, entry in enumerate(m[0]):
        minor = [row[:k] + row[k + 1:] for row in m[1:]]
        total = poly_add(total, poly_scale(poly_mul(entry, poly_det(minor)), (-1) ** k))
    return total


@dataclass(frozen=True)
class Row:
    commission: object  # a Fraction, or where a choice changes an exact sympy number
    solution: Solution  # there (where a choice changes: just below it)
    change: str  # what changes there, or ""


def commission_table(game: Game, stop: Fraction = Fraction(1, 10), step: Fraction = Fraction(1, 100)) -> list[Row]:
    """The equilibrium at every ``step`` of commission from 0 to ``stop``, and at each commission
    where a choice changes (its values those of the equilibrium 10**-30 below it)."""
    import sympy  # heavy (about a second to import): only for the commission table's algebraic numbers

    pieces = commission_pieces(game, stop)
    rows = [Row(step * k, solve(game, step * k), "") for k in range(int(stop / step) + 1)]
    for piece, after in zip(pieces, pieces[1:]):
        below = Fraction(str(sympy.N(piece.end, 40))) - Fraction(1, 10**30)
        rows.append(Row(piece.end, solve(game, below), changes(game, piece.solution, after.solution)))
    return sorted(rows, key=lambda row: sympy.N(row.commission, 40))


def changes(game: Game, before: Solution, after: Solution) -> str:
    """The sets whose choice (draw, stand or mix) differs: "Banker 5 (2-3) v 4: D to S"."""
    kind = choice_text_of
    said = [f"{set_name(game, s, True)}: {kind(before.x[s])} to {kind(after.x[s])}"
            for s in before.x if kind(before.x[s]) != kind(after.x[s])]
    said += [f"{set_name(game, i, False)}: {kind(before.y[i])} to {kind(after.y[i])}"
             for i in before.y if kind(before.y[i]) != kind(after.y[i])]
    return "; ".join(said)


def choice_text_of(q: Fraction) -> str:
    return "D" if q == 1 else "S" if q == 0 else "mixes"
