"""Shoe simulation: deal real shoes to the cut card and take every bet's exact EV at every coup.

Glossary
--------
deal          how a shoe is dealt: decks, the cut card (a coup starts only while more than
              ``cut`` cards are left), and the burn rule: ``face`` (the standard rule: the first
              card is turned face up and as many cards as its value, 10 for T/J/Q/K, are burned
              face down), ``none``, or a number of cards burned face down.
perfect       the bettor who knows the cards left and bets one unit on a bet exactly when its
              exact EV is positive. Expected win per shoe: the sum of those EVs.
counter       the bettor who bets one unit on one bet when the true count (running count of the
              cards seen per deck unseen: 52 * RC / unseen cards) is at least a trigger. Cards
              burned face down are unseen.
realized      what the same bets actually won on the dealt coups (a Monte Carlo check of the
              expected figures, which it should match within its standard error).
placed        a bet across coups (series.py), placed one unit at every coup its placement
              allows (after a coup that meets ``placed_after``, or a run of ``placed_after_run``
              counted coups; at every coup where it names neither), and followed through the
              coups of its shoe (and where its rules say it continues, through the shoes dealt
              after it, up to FOLLOWED coups past its shoe's end): its return per bet placed on
              real shoes dealt to the cut card, with a 95% confidence interval (a ratio over
              shoes, its standard error by the delta method), beside its exact figure for
              independent coups on the full shoe. The perfect bettor and the counter, too, bet it
              only where it may be placed.

Each coup's EVs are exact (the batch evaluator: their signs, and the bin of the EV histogram each
falls in; a bet across coups' EV enters the sums as a float within 2^-30 of it, the others as the
nearest float); the *statistics* over coups and shoes are Monte Carlo estimates, accumulated in
float64 and reported with their standard errors. Shoe i is
shuffled by numpy's generator seeded with (seed, i), and shoes are processed in fixed chunks whose
sums are added in chunk order, so results are the same for any number of workers, local or Dask.
"""

from __future__ import annotations

import functools
import itertools
import logging
import os
from collections import deque
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
from threadpoolctl import threadpool_limits

from ..routes import batch
from ..routes.batch import check_shoe_by_shoe, compile_rules, evaluate_many, plan_of
from ..bets.bet import RuleSet
from ..routes.counts import evaluate
from .drawn import drawn_overlays
from ..bets.conditions import settled_masks
from ..game.cards import Shoe
from ..game.engine import cells, enumerate_coup
from ..base.errors import BaccaratError, RunFailed
from ..game.layout import KIND_VALUE, NONE, PLACES, coup_fields, draws, head_flags
from ..base.workers import WorkerDied, Workers

MAX_DECKS = 24  # 1,248 cards: every coup's shoe on the batch evaluator's int64 path (<= 1,290 cards)
CHUNK_SHOES = 50  # shoes per task: fixed, so that sums are added in the same order on any workers
EV_EDGES = np.linspace(-1.0, 1.0, 201)  # EV per coup, in units: 1% bins from -100% to +100%
WIN_EDGES = np.linspace(0.0, 10.0, 201)  # expected win per shoe, in units: 0.05 bins


@dataclass(frozen=True)
class Deal:
    decks: int = 8
    cut: int = 14
    burn: str = "face"

    def __post_init__(self):
        if self.decks < 1:
            raise BaccaratError("{decks} must be at least 1", names=("decks",))
        if self.cut < 5:
            raise BaccaratError(f"the cut card must leave at least 5 cards behind it, so every coup can be finished (got {self.cut})")
        if self.cut >= 52 * self.decks:
            raise BaccaratError(f"the cut card ({self.cut} cards from the end) is beyond the shoe's {52 * self.decks} cards")
        if self.decks > MAX_DECKS:
            raise BaccaratError("{decks}: at most {most} decks (every coup's shoe must stay on the fast exact path)",
                                names=("decks",), most=MAX_DECKS)
        if not (self.burn in ("face", "none") or (self.burn.isascii() and self.burn.isdigit() and len(self.burn) < 6)):
            raise BaccaratError("{burn} is face, none or a number of cards (got {got})", names=("burn",), got=repr(self.burn))
        if self.burn.isdigit():
            object.__setattr__(self, "burn", str(int(self.burn)))
        fewest = {"face": 2, "none": 0}[self.burn] if self.burn in ("face", "none") else int(self.burn)
        if fewest + self.cut >= 52 * self.decks:
            raise BaccaratError(f"burning {fewest} cards or more leaves no coup before the cut card")


@dataclass(frozen=True)
class Counter:
    """The counting bettor: ``tags`` for A..9 and the ten-value cards; bets ``bet_id`` when the
    true count is at least ``trigger`` (a Fraction)."""

    bet_id: str
    tags: tuple
    trigger: Fraction
    name: str = "given"


def shuffled_shoe(deal: Deal, seed: int, index: int) -> np.ndarray:
    """Shoe ``index`` of the simulation seeded ``seed``: card ids rank * 4 + suit, in dealing order."""
    cards = np.repeat(np.arange(52), deal.decks)
    np.random.default_rng([seed, index]).shuffle(cards)
    return cards


def burned(deal: Deal, cards: np.ndarray) -> np.ndarray:
    """How many cards each shoe burns (cards[:, 0] is the turned card under the face rule)."""
    if deal.burn == "none":
        return np.zeros(len(cards), np.int64)
    if deal.burn == "face":
        value = KIND_VALUE[cards[:, 0]]
        return 1 + np.where(value == 0, 10, value)
    return np.full(len(cards), int(deal.burn), np.int64)


@dataclass(frozen=True)
class Coups:
    """The coups of a chunk of shoes, in order: which shoe, where in it the coup starts, the cards
    it took, and the kind of the card at each place (layout.PLACES order; -1: not dealt)."""

    shoe: np.ndarray
    start: np.ndarray
    used: np.ndarray
    kinds: np.ndarray


def deal_coups(deal: Deal, tableau, cards: np.ndarray) -> Coups:
    """Deal every shoe of ``cards`` [shoe, position] to the cut card. The cards a coup takes
    depend only on where it starts, so the draws are worked out once for every position of every
    shoe; each shoe's coups then follow from the first, a coup starting where the last ended while
    more than ``cut`` cards are left (so at least 6: every card a coup may take is in the shoe)."""
    shoes, length = cards.shape
    value = np.pad(KIND_VALUE[cards], ((0, 0), (0, 4)))  # past the end: read only for starts no coup has
    pt = (value[:, :length] + value[:, 2:length + 2]) % 10
    bt = (value[:, 1:length + 1] + value[:, 3:length + 3]) % 10
    player_draws, banker_draws = draws(tableau, pt, bt, value[:, 4:length + 4])  # [shoe, start]
    used = 4 + player_draws + banker_draws
    at, rows, found = burned(deal, cards), np.arange(shoes), []
    while True:
        rows = rows[length - at[rows] > deal.cut]
        if not len(rows):
            break
        found.append((rows, at[rows]))
        at[rows] += used[rows, at[rows]]
    if not found:
        empty = np.zeros(0, np.int64)
        return Coups(empty, empty, empty, np.zeros((0, len(PLACES)), np.int64))
    shoe, start = (np.concatenate(parts) for parts in zip(*found))
    order = np.lexsort((start, shoe))
    shoe, start = shoe[order], start[order]
    take = lambda k: cards[shoe, start + k]  # noqa: E731
    p_draws, b_draws = player_draws[shoe, start], banker_draws[shoe, start]
    player_3 = np.where(p_draws, take(4), NONE)
    banker_3 = np.where(b_draws, np.where(p_draws, take(5), take(4)), NONE)
    kinds = np.column_stack([take(0), take(1), take(2), take(3), player_3, banker_3])  # PLACES order
    return Coups(shoe, start, used[shoe, start], kinds)


def first_coups(shoe: np.ndarray) -> np.ndarray:
    """[coup] whether each coup is the first of its shoe (``shoe``: each coup's shoe, coups in
    dealing order).

    >>> first_coups(np.array([0, 0, 1, 1, 1, 3])).tolist()
    [True, False, True, False, False, True]
    """
    out = np.ones(len(shoe), bool)
    out[1:] = shoe[1:] != shoe[:-1]
    return out


def remaining_counts(cards: np.ndarray, coups: Coups) -> np.ndarray:
    """[coup, rank, suit]: the cards left in the shoe when each coup starts (burned cards are
    gone). A shoe's coups follow one another, so each leaves the shoe the one before it left
    less that coup's cards: the cards from its first coup on, less the cards of its coups before
    (cumulative counts over the coups, a few per coup, not over every position of the shoe)."""
    shoes, length = cards.shape
    n = len(coups.shoe)
    if not n:
        return np.zeros((0, 13, 4), np.int64)
    dealt = np.where(coups.kinds >= 0, coups.kinds, 52) + 53 * np.arange(n)[:, None]  # 52: a place not dealt
    taken = np.bincount(dealt.ravel(), minlength=53 * n).reshape(n, 53)[:, :52]
    before = np.cumsum(taken, 0) - taken  # [coup, kind] taken by the coups before it, whatever their shoe
    starts = first_coups(coups.shoe)
    first, which = np.flatnonzero(starts), np.cumsum(starts) - 1  # which: each coup's shoe, as an index into first
    left = np.zeros((shoes, length), bool)  # [shoe, position] the cards left at its first coup (a shoe with none: none)
    left[coups.shoe[first]] = np.arange(length)[None, :] >= coups.start[first][:, None]
    at_first = np.bincount((52 * np.arange(shoes)[:, None] + cards)[left], minlength=52 * shoes).reshape(shoes, 52)
    out = at_first[coups.shoe] - (before - before[first][which])
    return out.astype(np.int64).reshape(-1, 13, 4)


def payoffs(rules: RuleSet, kinds: np.ndarray) -> np.ndarray:
    """[coup, bet]: units won (or -1 lost) by each bet on coups dealt with these cards. A
    value-level bet is paid by its line at the coup's cell of the enumerator's grid (one look-up
    a coup); a card-level bet by its conditions on the coup's cards. (A bet across coups is paid
    by the coups after it: :func:`followed`.)"""
    table = -np.ones((len(kinds), len(rules.bets)))
    plan = plan_of(rules)
    value_level = [b for b, bet in enumerate(rules.bets) if not bet.card_level and bet.series is None]
    if value_level:
        line, nets = plan.lines_by_cell
        table[:, value_level] = nets[np.array(value_level)[None, :], line[coup_cells(kinds, rules.tableau)][:, value_level]]
    card_level = [b for b, bet in enumerate(rules.bets) if bet.card_level and bet.series is None]
    if card_level:
        fields = coup_fields(kinds)
        for b in card_level:
            bet = rules.bets[b]
            for settled, ln in zip(settled_masks(bet.conditions, fields), bet.lines):
                table[settled, b] = float(bet.net(ln))
    return table


def followed(bet, shoe: np.ndarray, fields: dict) -> np.ndarray:
    """[coup] what a bet across coups wins (units; -1 lost, 0 a push) when placed before each
    coup and followed from it (:func:`followed_counts`)."""
    lines = series_lines(bet, shoe, fields)
    nets = np.array([float(bet.net(ln)) for ln in bet.lines] + [0.0, -1.0])  # [..., PUSHED, -1]
    return nets[lines]


def series_lines(bet, shoe: np.ndarray, fields: dict) -> np.ndarray:
    """[coup] the pay line that settles a bet across coups placed before each coup (-1 none: lost;
    PUSHED: cut short by the shoe's end where its rules push)."""
    count, cut_short = followed_counts(bet, shoe, fields)
    out = np.full(len(shoe), -1, np.int64)
    for k in np.flatnonzero(np.bincount(count)):  # each count (np.unique imports numpy.ma: 8 ms)
        out[count == k] = next((j for j, ln in enumerate(bet.lines) if ln.condition.holds(int(k))), -1)
    if bet.series.shoe_end == "push":
        out[cut_short] = PUSHED
    return out


def followed_counts(bet, shoe: np.ndarray, fields: dict) -> tuple[np.ndarray, np.ndarray]:
    """([coup] count, [coup] cut short) of a bet across coups placed before each coup and
    followed from it through the coups of the same shoe (coups in dealing order, ``shoe`` their
    shoe): its count grows on each coup that counts, until a coup ends it, the count reaches
    ``most``, ``coups`` coups have passed, or the shoe ends (then it goes on into the next
    shoe's coups, which follow in ``shoe``, or is cut short there: it settles by its count so far,
    or pushes, as ``shoe_end`` says; past the last coup given it is cut short). All starts are
    followed at once, one offset at a time."""
    series, n = bet.series, len(shoe)
    counts, ends = settled_masks(bet.conditions, fields)
    start = np.arange(n)
    count = np.zeros(n, np.int64)
    open_ = np.ones(n, bool)
    cut_short = np.zeros(n, bool)
    offset = 0
    while open_.any():
        at = start + offset
        inside = at < n
        if series.shoe_end != "continues":
            inside[inside] &= shoe[at[inside]] == shoe[inside]
        cut_short |= open_ & ~inside
        open_ &= inside
        here = np.where(open_, at, 0)
        count += open_ & counts[here]
        open_ &= ~ends[here]
        if series.most is not None:
            open_ &= count < series.most
        offset += 1
        if series.coups is not None and offset >= series.coups:
            break
    return count, cut_short


PUSHED = -2  # settled_lines: a bet across coups cut short by the shoe's end, pushed


def settled_lines(rules: RuleSet, kinds: np.ndarray, shoe: np.ndarray) -> np.ndarray:
    """[coup, bet] the pay line (0, 1, ...) that settles each bet placed before each coup of
    coups dealt with these cards (``kinds`` [coup, place], ``shoe`` each coup's shoe, coups in
    dealing order), -1 none (the stake is lost), PUSHED a bet across coups pushed at the shoe's
    end: :func:`payoffs`' settlement, by line, so that a caller can pay it exactly
    (:func:`exact_nets`)."""
    out = np.full((len(kinds), len(rules.bets)), -1, np.int64)
    value_level = [b for b, bet in enumerate(rules.bets) if not bet.card_level and bet.series is None]
    if value_level and len(kinds):
        line, _ = plan_of(rules).lines_by_cell
        out[:, value_level] = line[coup_cells(kinds, rules.tableau)][:, value_level]
    fields = coup_fields(kinds) if len(kinds) else None
    for b, bet in enumerate(rules.bets):
        if fields is None or (b in value_level):
            continue
        if bet.series is None:
            for j, settled in enumerate(settled_masks(bet.conditions, fields)):
                out[settled, b] = j
            continue
        out[:, b] = series_lines(bet, shoe, fields)
    return out


def exact_nets(rules: RuleSet, lines: np.ndarray) -> list[list[Fraction]]:
    """[coup][bet] the exact units won per unit staked, for :func:`settled_lines`' lines (a bet
    with multipliers at its payout: what they add is not known from the cards)."""
    nets = [{-1: Fraction(-1) - bet.fee, PUSHED: -bet.fee, **{j: Fraction(bet.net(ln)) - bet.fee for j, ln in enumerate(bet.lines)}}
            for bet in rules.bets]  # a fee is paid whatever the result
    return [[nets[b][j] for b, j in enumerate(row)] for row in lines.tolist()]


def placed(bet, shoe: np.ndarray, fields: dict) -> np.ndarray:
    """[coup] whether a bet across coups may be placed before each coup: after a coup of the
    same shoe that meets ``placed_after`` or ends a run of ``placed_after_run`` counted coups
    (coups that neither count nor end it do not break a run); before every coup where the bet
    names neither."""
    series = bet.series
    if series.placed_after is None and series.placed_after_run is None:
        return np.ones(len(shoe), bool)
    after = series.placed_after.mask(fields) if series.placed_after is not None else np.zeros(len(shoe), bool)
    if series.placed_after_run is not None:
        counts, ends = settled_masks(bet.conditions, fields)
        after = after | (runs_of(counts, ends, shoe) >= series.placed_after_run)
    out = np.zeros(len(shoe), bool)
    out[1:] = after[:-1]
    return out & ~first_coups(shoe)


def runs_of(counts: np.ndarray, ends: np.ndarray, shoe: np.ndarray) -> np.ndarray:
    """[coup] the run of counted coups that each coup ends on: one more than the coup before on a
    coup that counts, 0 on one that ends the run, the same on a coup that does neither; a new
    shoe starts at 0. All at once: the run is the counted coups since the last reset (a coup
    that ends it, or the coup before a shoe's first), a difference of cumulative counts.

    >>> runs_of(np.array([1, 1, 0, 1, 0, 1, 1]), np.array([0, 0, 0, 0, 1, 0, 0]), np.array([0, 0, 0, 0, 0, 1, 1])).tolist()
    [1, 2, 2, 3, 0, 1, 2]
    """
    counts, ends = np.asarray(counts, bool), np.asarray(ends, bool)
    total = np.cumsum(counts)
    before = total - counts  # counted coups before each coup
    base = np.zeros(len(counts), np.int64)
    resets = ends & ~counts  # the run is 0 after this coup: the count up to it is the base
    base[resets] = total[resets]
    new_shoe = first_coups(shoe)
    base[new_shoe & ~resets] = before[new_shoe & ~resets]  # from a shoe's first coup on
    # the last reset at or before each coup: its base (bases never decrease along the coups)
    marked = np.where(resets | new_shoe, np.arange(len(counts)), 0)
    return total - base[np.maximum.accumulate(marked)]


def coup_cells(kinds: np.ndarray, tableau) -> np.ndarray:
    """Each coup's cell of the enumerator's grid (engine.cells): its two-card totals, the values
    of the third cards taken, and both hands' classes (2 * pair + suited)."""
    keep, _ = cells(tableau)
    value = np.append(KIND_VALUE, NONE)[kinds]
    third = np.where(kinds[:, 4:] >= 0, value[:, 4:], 10)
    flags = head_flags(kinds)
    hand_class = {hand: 2 * flags[f"{hand}_pair"] + flags[f"{hand}_suited"] for hand in ("player", "banker")}
    grid = np.ravel_multi_index(((value[:, 0] + value[:, 2]) % 10, (value[:, 1] + value[:, 3]) % 10, third[:, 0],
                                 third[:, 1], hand_class["player"], hand_class["banker"]), (10, 10, 11, 11, 4, 4))
    return np.searchsorted(keep, grid)


@dataclass
class Tally:
    """Sums over shoes for one chunk, or for the whole run once chunks are added in order."""

    shoes: int = 0
    coups: int = 0
    positive: np.ndarray = None  # [bet] coups with EV > 0
    ev_positive: np.ndarray = None  # [bet] sum of EV over those coups
    win: np.ndarray = None  # [bet] sum over shoes of the expected win (perfect bettor)
    win2: np.ndarray = None  # [bet] sum of its squares
    realized: np.ndarray = None  # [bet] sum over shoes of the realized win
    realized2: np.ndarray = None
    ev_histogram: np.ndarray = None  # [bet, bin] coups by EV
    win_histogram: np.ndarray = None  # [bet, bin] shoes by expected win
    count: np.ndarray = None  # counter: [bets, sum EV, sum EV per shoe squared, realized, realized squared]
    placed: np.ndarray = None  # [bet, 5] bets across coups placed: per-shoe sums of bets B and paid P: ΣB, ΣP, ΣP², ΣB², ΣPB

    def __add__(self, other: Tally) -> Tally:
        if self.positive is None:
            return other
        return Tally(**{name: getattr(self, name) + getattr(other, name) for name in self.__dataclass_fields__})


def per_shoe(values: np.ndarray, shoe: np.ndarray, shoes: int) -> np.ndarray:
    """[shoe, column] sums of ``values`` [coup, column] (float64) by each coup's shoe (``shoe`` in
    order, as dealt: each shoe's coups one run, added in dealing order, as np.add.at adds them; a
    shoe with none sums to 0)."""
    out = np.zeros((shoes, values.shape[1]))
    bounds = np.flatnonzero(np.append(first_coups(shoe), True))  # each shoe's first coup, then the end
    for start, end in zip(bounds[:-1], bounds[1:]):  # row by row, as np.add.at adds (reduceat, and sum on one column, pair)
        out[shoe[start]] = np.add.accumulate(values[start:end], 0)[-1]
    return out


def histograms(x: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """[column, bin] how many rows of x [row, column] fall in each bin of ``edges`` (a value
    below the first edge in the first bin, at or above the last in the last), all columns in
    one count."""
    bins = len(edges) - 1
    at = np.clip(np.searchsorted(edges, x, side="right") - 1, 0, bins - 1) + bins * np.arange(x.shape[1])
    return np.bincount(at.ravel(), minlength=bins * x.shape[1]).reshape(x.shape[1], bins)


def run_chunk(rules: RuleSet, deal: Deal, seed: int, first: int, shoes: int, counter: Counter | None) -> Tally:
    """The tally of shoes first .. first + shoes - 1."""
    cards = np.stack([shuffled_shoe(deal, seed, first + i) for i in range(shoes)])
    coups = deal_coups(deal, rules.tableau, cards)
    batch = evaluate_many(rules, remaining_counts(cards, coups))
    positive, ev = batch.signs_and_floats(exact_near=EV_EDGES)  # each EV in the bin of its nearest float
    paid = payoffs(rules, coups.kinds)
    if any(bet.overlaid for bet in rules.bets):
        drawn_overlays(rules, coups.kinds, paid, np.random.default_rng([seed, first, 56]))
    sums = np.zeros((len(rules.bets), 5))
    across = [b for b, bet in enumerate(rules.bets) if bet.series is not None]
    allowed = np.ones(paid.shape, bool)  # where each bet may be placed: a bet across coups only as its rules say
    if across:
        fields = coup_fields(coups.kinds)
        onward = (following_coups(deal, rules.tableau, seed, first + shoes, coups)
                  if any(rules.bets[b].series.shoe_end == "continues" for b in across) else None)
        for b in across:
            bet = rules.bets[b]
            if bet.series.shoe_end == "continues":
                paid[:, b] = followed(bet, onward[1], onward[0])[:len(coups.shoe)]
            else:
                paid[:, b] = followed(bet, coups.shoe, fields)
            placing = allowed[:, b] = placed(bet, coups.shoe, fields)
            bets_s = per_shoe(placing[:, None].astype(float), coups.shoe, shoes)[:, 0]
            paid_s = per_shoe(np.where(placing, paid[:, b], 0.0)[:, None], coups.shoe, shoes)[:, 0]
            sums[b] = [bets_s.sum(), paid_s.sum(), (paid_s**2).sum(), (bets_s**2).sum(), (paid_s * bets_s).sum()]
    for b, bet in enumerate(rules.bets):  # a multiplied bet placed at every coup: its return on real shoes
        if bet.multipliers is not None:
            bets_s = per_shoe(np.ones((len(paid), 1)), coups.shoe, shoes)[:, 0]
            paid_s = per_shoe(paid[:, b:b + 1], coups.shoe, shoes)[:, 0]
            sums[b] = [bets_s.sum(), paid_s.sum(), (paid_s**2).sum(), (bets_s**2).sum(), (paid_s * bets_s).sum()]
    positive &= allowed  # the perfect bettor bets where the EV is positive and the bet may be placed
    ev_bet = np.where(positive, ev, 0.0)  # what the perfect bettor expects at each coup
    expected = per_shoe(ev_bet, coups.shoe, shoes)
    realized = per_shoe(np.where(positive, paid, 0.0), coups.shoe, shoes)
    ev_histogram, win_histogram = histograms(ev, EV_EDGES), histograms(expected, WIN_EDGES)
    count = np.zeros(5)
    if counter is not None:
        b = [bet.id for bet in rules.bets].index(counter.bet_id)
        bets = counts_bet(cards, coups, deal, counter) & allowed[:, b]
        shoe_ev = per_shoe(np.where(bets, ev[:, b], 0.0)[:, None], coups.shoe, shoes)[:, 0]
        shoe_paid = per_shoe(np.where(bets, paid[:, b], 0.0)[:, None], coups.shoe, shoes)[:, 0]
        count = np.array([bets.sum(), shoe_ev.sum(), (shoe_ev**2).sum(), shoe_paid.sum(), (shoe_paid**2).sum()])
    return Tally(shoes, len(coups.shoe), positive.sum(0), ev_bet.sum(0),
                 expected.sum(0), (expected**2).sum(0), realized.sum(0), (realized**2).sum(0),
                 ev_histogram, win_histogram, count, sums)


FOLLOWED = 100  # coups past its shoe's end a bet that continues is followed (series.MAX_COUPS: any limit of coups)


def following_coups(deal: Deal, tableau, seed: int, after: int, coups: Coups) -> tuple[dict, np.ndarray]:
    """(fields, shoe) of the chunk's coups followed by those of the shoes dealt after it (shoes
    ``after``, ``after`` + 1, ..., the next chunks' shoes dealt here again, the same cards) until
    FOLLOWED coups lie past the chunk's end: what a bet that continues into the next shoe sees."""
    kinds, shoe, extra, next_shoe = [coups.kinds], [coups.shoe], 0, (coups.shoe.max() + 1 if len(coups.shoe) else 0)
    index = after
    at_once = -(-FOLLOWED // max(1, (52 * deal.decks - deal.cut - 11) // 6))  # shoes to deal FOLLOWED coups at 6 cards a
    # coup after a face burn of 11 (only how many are dealt together: the loop goes on until the coups are there)
    while extra < FOLLOWED:  # a few shoes dealt together; those past the one that reaches FOLLOWED left out
        more = deal_coups(deal, tableau, np.stack([shuffled_shoe(deal, seed, index + i) for i in range(at_once)]))
        per = np.bincount(more.shoe, minlength=at_once)
        kept = min(at_once, int(np.searchsorted(np.cumsum(per), FOLLOWED - extra)) + 1)
        within = more.shoe < kept
        kinds.append(more.kinds[within])
        shoe.append(more.shoe[within] + next_shoe)
        extra, next_shoe, index = extra + int(per[:kept].sum()), next_shoe + kept, index + kept
    kinds = np.concatenate(kinds)
    return coup_fields(kinds), np.concatenate(shoe)


def counts_bet(cards: np.ndarray, coups: Coups, deal: Deal, counter: Counter) -> np.ndarray:
    """[coup] whether the counter bets: 52 * RC >= trigger * unseen, in integers. The running
    count covers the cards seen before the coup: earlier coups and a burn card turned face up."""
    tags = np.array(counter.tags)[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9, 9]][cards // 4]  # by position
    down = burned(deal, cards)
    face_up = 1 if deal.burn == "face" else 0
    seen = np.arange(cards.shape[1])[None, :]
    seen = (seen < face_up) | (seen >= down[:, None])  # face-down burns are never seen
    before = np.concatenate([np.zeros((len(cards), 1), np.int64), np.cumsum(tags * seen, 1)], 1)
    running = before[coups.shoe, coups.start].astype(object)  # Python ints: any trigger, no overflow
    unseen = (cards.shape[1] - (face_up + coups.start - down[coups.shoe])).astype(object)
    return (52 * running * counter.trigger.denominator >= counter.trigger.numerator * unseen).astype(bool)


@dataclass
class Simulation:
    rules: RuleSet
    deal: Deal
    shoes: int
    seed: int
    counter: Counter | None
    tally: Tally = field(repr=False)


def chunks(shoes: int):
    """(first shoe, number of shoes) of each chunk, made as they are needed: a billion shoes
    cost no memory before they are dealt."""
    return ((first, min(CHUNK_SHOES, shoes - first)) for first in range(0, shoes, CHUNK_SHOES))


def one_thread():
    """A worker process takes one core: its matrix products run on one thread."""
    threadpool_limits(1)
    batch.THREADS = 1


def run_task(rules: RuleSet, deal: Deal, seed: int, counter: Counter | None, task: tuple[int, int]) -> Tally:
    """The tally of one (first shoe, number of shoes) task."""
    return run_chunk(rules, deal, seed, *task, counter)


def fold(results, progress=None) -> Tally:
    """The sum of the tallies of (task, tally) pairs given in task order (the same floats on any
    workers), telling ``progress`` of each task's shoes."""
    tally = Tally()
    for (_, size), part in results:
        tally = tally + part
        if progress:
            progress(size)
    return tally


def simulate(rules: RuleSet, deal: Deal, shoes: int, seed: int, counter: Counter | None = None,
             workers: int | None = None, dask: str | None = None, progress=None) -> Simulation:
    """Deal ``shoes`` shoes and tally every bet. ``workers`` local processes (default: all cores;
    1 runs here), or the Dask cluster at address ``dask``. ``progress(n)`` is told of each n
    shoes done. Work is handed out a few chunks at a time (memory does not grow with ``shoes``).
    A worker that dies or a cluster that is lost raises RunFailed; an interrupt (or any other
    exception on the way) stops the workers before it goes on."""
    if shoes < 1:
        raise BaccaratError("{shoes} must be at least 1", names=("shoes",))
    check_shoe_by_shoe(compile_rules(rules), shoes, deal.decks * 52 // 5, "shoes")  # refuse symbolic payouts and
    # work past bounds before any (a shoe deals about one coup in five cards); forked workers inherit the polynomials
    if counter is not None:
        rules.bet(counter.bet_id)
    run = functools.partial(run_task, rules, deal, seed, counter)
    workers = workers or os.cpu_count() or 1
    if dask is not None:
        tally = run_on_dask(dask, run, chunks(shoes), shoes, progress)
    elif workers == 1 or shoes <= CHUNK_SHOES:
        tally = fold(((task, run(task)) for task in chunks(shoes)), progress)
    else:
        done = Counted(progress)
        try:
            with Workers(workers, run, setup=one_thread) as pool:
                tally = fold(pool.results(chunks(shoes), ahead=2 * workers), done)
        except WorkerDied as died:
            raise RunFailed(f"{died} after {done.shoes:,} of {shoes:,} shoes: the run is lost") from None
    return Simulation(rules, deal, shoes, seed, counter, tally)


class Counted:
    """A progress callback that also counts the shoes done, for a message if the run fails."""

    def __init__(self, progress=None):
        self.progress, self.shoes = progress, 0

    def __call__(self, size: int):
        self.shoes += size
        if self.progress:
            self.progress(size)


def run_on_dask(address: str, run, tasks, shoes: int, progress) -> Tally:
    from asyncio import CancelledError as AsyncCancelledError  # asyncio's import alone is 30-40 ms: only here
    from concurrent.futures import CancelledError

    try:
        from distributed import Client  # the dask extra: installed only where asked for
        from distributed.client import ClosedClientError
    except ImportError:
        raise BaccaratError("{dask} needs the dask extra: pip install 'baccarat[dask]'", names=("dask",)) from None
    try:
        client = Client(address, timeout="5s")
    except (OSError, TimeoutError, ValueError) as error:
        raise BaccaratError(f"cannot reach the Dask scheduler at {address!r}: {error}") from None
    done = Counted(progress)
    level = logging.root.manager.disable
    logging.disable(logging.ERROR)  # a lost scheduler is our one-line error, not distributed's tracebacks
    try:
        ahead = 2 * max(1, sum(client.nthreads().values()))
        return fold(in_order(lambda task: client.submit(run, task, pure=False), tasks, ahead), done)
    except (OSError, TimeoutError, CancelledError, AsyncCancelledError, ClosedClientError) as error:
        raise RunFailed(f"lost the Dask cluster at {address!r} after {done.shoes:,} of {shoes:,} shoes "
                        f"({type(error).__name__}): the run is lost") from None
    finally:
        client.close(timeout=2)
        logging.disable(level)


def in_order(submit, tasks, ahead: int):
    """(task, result) of each task in order, by futures: ``submit(task)`` starts one; at most
    ``ahead`` are out at a time."""
    tasks = iter(tasks)
    out = deque((task, submit(task)) for task in itertools.islice(tasks, ahead))
    while out:
        task, future = out.popleft()
        yield task, future.result()
        out.extend((task, submit(task)) for task in itertools.islice(tasks, 1))


@dataclass(frozen=True)
class BetSummary:
    id: str
    name: str
    positive_share: float  # of coups
    bets_per_shoe: float
    mean_ev_when_positive: float | None
    win_per_shoe: float
    win_se: float | None
    realized_per_shoe: float
    realized_se: float | None
    placed_per_shoe: float | None = None  # a bet across coups: bets placed as its rules allow
    return_per_bet: float | None = None  # their mean return per unit (finite shoe)
    return_low: float | None = None  # its 95% confidence interval
    return_high: float | None = None
    independent: object = None  # the exact EV for independent coups on the full shoe (a Fraction)


def ratio_and_interval(sums, shoes: int) -> tuple[float | None, float | None, float | None]:
    """Return per bet ΣP / ΣB over shoes, with its 95% interval: the shoes are independent, the
    bets within one are not, so the standard error is the delta method's over per-shoe sums,
    sqrt(Σ(P - R B)²) / ΣB (with the n / (n - 1) correction)."""
    bets, paid, paid2, bets2, cross = sums
    if not bets:
        return None, None, None
    ratio = paid / bets
    if shoes < 2:
        return ratio, None, None
    spread = max(paid2 - 2 * ratio * cross + ratio**2 * bets2, 0.0) * shoes / (shoes - 1)
    se = spread**0.5 / bets
    return ratio, ratio - 1.96 * se, ratio + 1.96 * se


def mean_and_se(total: float, squares: float, n: int) -> tuple[float, float | None]:
    """Mean and its standard error from the sum and the sum of squares of n values (no standard
    error from one value)."""
    mean = total / n
    if n < 2:
        return mean, None
    variance = max(squares / n - mean**2, 0.0) * n / (n - 1)
    return mean, (variance / n) ** 0.5


def summaries(sim: Simulation) -> list[BetSummary]:
    t = sim.tally
    out = []
    full = None
    for b, bet in enumerate(sim.rules.bets):
        win, win_se = mean_and_se(t.win[b], t.win2[b], t.shoes)
        realized, realized_se = mean_and_se(t.realized[b], t.realized2[b], t.shoes)
        across = {}
        if bet.series is not None or bet.multipliers is not None:
            if full is None:
                full = enumerate_coup(Shoe.decks(sim.deal.decks), sim.rules.tableau)
            ratio, low, high = ratio_and_interval(t.placed[b], t.shoes)
            across = {"placed_per_shoe": t.placed[b][0] / t.shoes, "return_per_bet": ratio, "return_low": low,
                      "return_high": high, "independent": evaluate(bet, full).ev}
        out.append(BetSummary(bet.id, bet.name, t.positive[b] / t.coups if t.coups else 0.0, t.positive[b] / t.shoes,
                              t.ev_positive[b] / t.positive[b] if t.positive[b] else None,
                              win, win_se, realized, realized_se, **across))
    return out


def counter_summary(sim: Simulation) -> BetSummary | None:
    if sim.counter is None:
        return None
    t, c = sim.tally, sim.counter
    bets, ev, ev2, paid, paid2 = t.count
    win, win_se = mean_and_se(ev, ev2, t.shoes)
    realized, realized_se = mean_and_se(paid, paid2, t.shoes)
    return BetSummary(c.bet_id, f"{c.bet_id} by count {c.name} at true count >= {c.trigger}", bets / t.coups if t.coups else 0.0,
                      bets / t.shoes, ev / bets if bets else None, win, win_se, realized, realized_se)
