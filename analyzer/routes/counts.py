"""Each bet's line counts on one shoe, and the route that counts them: the one place that turns a
coup's distribution into a bet's result (:func:`evaluate`).

A bet's pay lines are counted, in this order of preference:

1. **the enumerator's cells** (``engine.enumerate_coup``): lines on values and draws alone, the
   distribution already holds them (:func:`settled_cells`, a cell index list per line);
2. **the card-level polynomials** (``cardcount.py``): lines that read ranks, suits or places,
   where the ways for the cards they read to fall fit the compiler (``cardcount.fits``);
3. **a closed form** (``closedforms.py``): lines too detailed to compile that have one (hands of
   two colours, say), no card known;
4. **the enumeration at the card detail the lines read** (``engine.enumerate_cards``,
   :func:`walked_counts`): every other case, refused before it starts where it would follow
   more than WALK_CLASSES classes of cards.

Routes 2 to 4 give the same integers (the tests hold them equal, and hold route 4 to brute force
over real cards); a rule set's compiled plans (``batch.py``, ``lean.py``) are chosen above this,
in ``choose.py``.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import TYPE_CHECKING

from ..bets.bet import OUTCOMES, Bet, BetResult, result_of
from ..bets.conditions import settled_masks
from ..game.cards import Shoe
from ..game.knowledge import NOTHING, Knowledge
from ..game.layout import Detail, Needs, memo, np, union  # np: numpy, imported at first use
from ..game.tableau import Tableau
from ..base.errors import expect
from ..base.lazy import LazyModule

if TYPE_CHECKING:
    from ..game.engine import Distribution

# The card-level counting, imported when a bet first reads card detail: a value-level question
# (`baccarat edge --decks 8`) starts without it (about 15 ms of a process).
cardcount, closedforms = LazyModule("analyzer.routes.cardcount"), LazyModule("analyzer.routes.closedforms")
suitsets = LazyModule("analyzer.routes.suitsets")
engine = LazyModule("analyzer.game.engine")  # a question answered without arrays (lean.py) never loads it


@lru_cache(maxsize=1024)
def settled_cells(conditions: tuple, tableau: Tableau) -> tuple:
    """For each pay line (by its condition), the indices of the distribution's cells it settles:
    those where it holds and no earlier line did. Cells depend on the tableau, not the shoe."""
    return tuple(np.flatnonzero(hit).astype(np.int32) for hit in settled_masks(conditions, engine.cells(tableau)[1]))


def evaluate(bet: Bet, dist: Distribution) -> BetResult:
    """The exact result of ``bet`` on a coup with distribution ``dist``; a card-level bet is
    counted on the same shoe at the card detail its conditions read. A bet across coups follows
    the coups from this one on, independent, each with this shoe's chances (series.py): the
    first is the coup ``dist`` describes, with its known cards; the later ones are dealt blind."""
    expect(bet, Bet, "evaluate takes a Bet"), expect(dist, engine.Distribution, "and a Distribution (enumerate_coup)")
    counts = line_counts(bet, dist)
    if bet.multipliers is not None:
        return multiplied(bet, counts, dist.total, dist.shoe, dist.tableau, dist.knowledge)
    if bet.series is None:
        return BetResult(bet, tuple(counts), dist.total)
    blind = dist if not dist.knowledge else unknowing(dist)
    return result_of(bet, counts, dist.total, line_counts(bet, blind) if blind is not dist else counts, blind.total)


def multiplied(bet: Bet, counts, total: int, shoe: Shoe | None, tableau: Tableau, knowledge: Knowledge = NOTHING):
    """A bet with multipliers: its lines' counts, and how each multiplied line's counted cards
    fall (routes/multipliers.py); ``shoe`` None: the infinite deck, whose counts are over ``total``."""
    from ..bets.overlay import MultipliedResult
    from .multipliers import counted_patterns

    if bet.multipliers.spot:  # one multiplier for the spot, whatever the cards: each line as it is
        found = tuple((i, (), int(counts[i])) for i in bet.multipliers.multiplied(bet))
        return MultipliedResult(bet, tuple(map(int, counts)), int(total), found)
    found = counted_patterns(bet, shoe, tableau, knowledge)
    if shoe is None:
        found = tuple((i, pattern, count * total) for i, pattern, count in found)
    return MultipliedResult(bet, tuple(map(int, counts)), int(total), found)


def with_multipliers(results: list, shoe: Shoe, tableau: Tableau, knowledge: Knowledge = NOTHING) -> list:
    """``results`` of any route, each bet with multipliers made whole (:func:`multiplied`)."""
    return [multiplied(r.bet, r.sequences, r.total, shoe, tableau, knowledge)
            if r.bet.multipliers is not None and not hasattr(r, "patterns") else r for r in results]


def unknowing(dist: Distribution) -> Distribution:
    """The distribution of a coup dealt from the same shoe with nothing known of its cards."""
    from ..game.engine import enumerate_coup, infinite_deck

    return infinite_deck(dist.tableau) if dist.shoe is None else enumerate_coup(dist.shoe, dist.tableau)


def line_counts(bet: Bet, dist: Distribution) -> list[int]:
    """Ordered 6-card sequences settled by each of the bet's conditions on one coup: its pay
    lines, or for a bet across coups the coup that counts and the coup that ends it."""
    return settled_counts(bet.conditions, bet.needs, dist, f"bet {bet.id!r}")


def settled_counts(conditions: tuple, needs: Needs, dist: Distribution, name: str = "these pay lines") -> list[int]:
    """Sequences settled by each of ``conditions`` in turn (the first that holds), on the shoe,
    tableau and knowledge of ``dist``: from its own cells where they answer the conditions, else
    by the card-level counter (cardcount.py) at the detail ``needs`` calls for."""
    if not needs.cards and not dist.knowledge:
        return [dist.count(settled) for settled in settled_cells(conditions, dist.tableau)]
    if dist.shoe is None:
        return infinite_card_counts(conditions, dist.tableau, dist.knowledge)
    if values_only(needs):  # given knowledge, the distribution's cells are those of the values and draws
        masks = memo(dist.fields, ("settled", conditions), lambda: settled_masks(conditions, dist.fields))
        return [dist.count(hit) for hit in masks]
    return detail_counts(conditions, needs, dist.shoe, dist.tableau, dist.knowledge, name)


def values_only(needs: Needs) -> bool:
    """Whether lines reading ``needs`` read the cards' point values and the draws alone (no pair,
    suit or card test): the cells of enumerate_coup answer them, with or without knowledge."""
    return not needs.cards and all(key == "value" for _, key in needs.reads)


def card_line_counts(bet: Bet, shoe: Shoe, tableau: Tableau, knowledge: Knowledge = NOTHING) -> list[int]:
    """A card-level bet's line counts on ``shoe``, by the card-level counter."""
    return detail_counts(bet.conditions, bet.needs, shoe, tableau, knowledge, f"bet {bet.id!r}")


def detail_counts(conditions: tuple, needs: Needs, shoe: Shoe, tableau: Tableau, knowledge: Knowledge = NOTHING,
                  name: str = "these pay lines") -> list[int]:
    """Sequences settled by each pay line, counted at the card detail ``needs`` calls for: by the
    lines' polynomials in the card counts (cardcount.py, compiled on first use), or where they
    read too much to compile (suits compared at every card, say), by a closed form where the lines
    have one (closedforms.py), else by the enumeration."""
    if cardcount.fits(needs, tableau, knowledge):
        return cardcount.line_counts(name, conditions, needs, shoe.kind_counts(), tableau, knowledge)
    form = None if knowledge else closedforms.one_form(conditions, tableau)
    if form is not None:  # too detailed to compile, but a closed form counts it (hands of two colours, say)
        return form.counts(shoe.kind_counts())
    return walked_counts(conditions, needs, shoe, tableau, knowledge, name)


def walked_counts(conditions: tuple, needs: Needs, shoe: Shoe, tableau: Tableau, knowledge: Knowledge = NOTHING,
                  name: str = "these pay lines") -> list[int]:
    """The same as :func:`detail_counts` by the other exact route: the enumeration of the coup at
    that card detail (engine.enumerate_cards), shoe by shoe. The tests hold the two equal."""
    detail = Detail.of(needs, knowledge)
    classes = live_classes_count(shoe, detail)
    if detail.tableau and classes > WALK_CLASSES:  # heads of four classes, then the third cards: refused before
        why = ""
        if not cardcount.fits(needs, tableau, knowledge):
            form = "with cards known, no closed form counts it" if knowledge and closedforms.one_form(conditions, tableau) \
                else suitsets.suit_expansion(conditions)[1] or "no closed form has its shape"
            why = f"; nor does it compile: more than {cardcount.MAX_ROWS:,} ways for the cards it reads to fall, and {form}"
        raise engine.TooMuchDetail(f"{name}: too much card detail to count on this shoe ({classes} classes of cards at every "
                            f"place through the draws, at most {WALK_CLASSES}: it reads {needs.words()}{why}): read "
                            "fewer attributes at once, at fewer places, or use a smaller shoe")
    try:
        detailed = engine.enumerate_cards(shoe, tableau, detail)
    except engine.TooMuchDetail as error:
        raise engine.TooMuchDetail(f"{name}: {error}") from None
    masks = memo(detailed.fields, ("settled", conditions), lambda: settled_masks(conditions, detailed.fields))
    return [detailed.count(hit) for hit in masks]


WALK_CLASSES = 26  # classes the enumeration follows at every place through the draws: 26**4 heads and their tails, a second or so


def live_classes_count(shoe: Shoe, detail: Detail) -> int:
    """The classes of cards the enumeration would follow at each place of this shoe (those it
    holds cards of), known before it starts."""
    split = np.array(detail.split(detail.tableau, range(1, 7)))
    return len(np.unique(split[np.array(shoe.kind_counts()) > 0]))


def prepare(bets, tableau: Tableau, knowledge: Knowledge = NOTHING, many: bool = False):
    """Compile the card-level counts of these bets (all of them given ``knowledge``, but those on
    values alone) at once, for one shoe or ``many``: bets that read alike share one walk of their
    cards (cardcount.prepare)."""
    lines = compiled_lines(bets, knowledge)
    if lines:  # (none: nothing to compile, and no card-level counting to import)
        cardcount.prepare(lines, tableau, knowledge, many)


def pending_rows(bets, tableau: Tableau, knowledge: Knowledge = NOTHING, many: bool = False) -> list[tuple]:
    """What :func:`prepare` would walk now for these bets: cardcount.pending_rows, counted before
    any walk."""
    return cardcount.pending_rows(compiled_lines(bets, knowledge), tableau, knowledge, many)


def compiled_lines(bets, knowledge: Knowledge) -> list[tuple]:
    """(name, lines, needs) of the bets whose counts are compiled: the card-level ones, and given
    ``knowledge`` every bet but those on values alone."""
    return [(f"bet {b.id!r}", b.conditions, b.needs) for b in bets
            if b.card_level or (knowledge and not values_only(b.needs))]


@lru_cache(maxsize=256)
def infinite_card_counts(conditions: tuple, tableau: Tableau, knowledge: Knowledge = NOTHING) -> list[int]:
    """Line counts in the infinite deck (total 52**6, or its share that agrees with ``knowledge``),
    exactly: on d full decks each count is a polynomial in d of degree at most 6 whose d**6
    coefficient is the limit (see engine.infinite_deck); it is the sixth finite difference at
    d = 1..7 over 6!."""
    needs = union(c.needs() for c in conditions)
    by_decks = [detail_counts(conditions, needs, Shoe.decks(d), tableau, knowledge) for d in range(1, 8)]
    leading = [sum((-1) ** (6 - k) * math.comb(6, k) * by_decks[k][i] for k in range(7)) for i in range(len(conditions))]
    assert all(x % math.factorial(6) == 0 for x in leading), "line counts are integer polynomials in d"
    return [x // math.factorial(6) for x in leading]


def outcome_counts(dist: Distribution) -> list[tuple[str, str, int]]:
    """(id, label, number of ordered 6-card sequences) of each outcome in OUTCOMES."""
    return [(name, label, settled_counts((cond,), cond.needs(), dist)[0]) for name, label, cond in OUTCOMES]
