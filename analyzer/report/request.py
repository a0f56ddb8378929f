"""What a par sheet covers: the request as the user gave it (names, paths and option text), and
its scope - the rule sets, shoe and bets it names, read and checked before any work, so that a
bad input fails at once."""

from __future__ import annotations

from dataclasses import dataclass

from ..bets import RuleSet
from ..cards import Shoe, make_shoe
from ..engine import enumerate_coup
from ..errors import BaccaratError
from ..knowledge import NOTHING, Knowledge
from ..rulefile import get_rules

REPORT_DECKS = (1, 2, 4, 6, 8)  # the edge-by-decks table, beside the shoe's own deck count and the limit
SMALLEST_SHOE = 7  # cards: the effect of removal takes one out and still deals a coup


@dataclass(frozen=True)
class Request:
    """What the user asked for, as given (names, paths and option text)."""

    rules: tuple[str, ...] = ("standard",)
    decks: str | None = None
    remove: str = ""
    shoe_file: str | None = None
    side_bets: str | None = None  # comma-separated bet ids to chart beside the main bets
    known: tuple[str, ...] = ()  # POS=CARDS: what is known of the coup's cards
    paper: str = "a4"  # the PDF's page size: a4 or letter


@dataclass(frozen=True)
class Scope:
    """What a par sheet covers, checked: the rule sets, the shoe, the deck counts to compare and
    the bets to chart."""

    rules: tuple[RuleSet, ...]
    shoe: Shoe
    deck_counts: tuple[int, ...]
    side_bets: tuple[str, ...] | None  # None: the most sensitive to removal, per rule set
    knowledge: Knowledge = NOTHING


def scope(request: Request) -> Scope:
    """Read and check everything the report needs, before any work: a bad input fails here.

    >>> s = scope(Request(decks="6"))
    >>> [r.name for r in s.rules], s.shoe.size, s.deck_counts
    (['standard'], 312, (1, 2, 4, 6, 8))
    """
    knowledge = Knowledge.parse(request.known)
    rule_sets = numeric_rules(request.rules or ("standard",))
    shoe = make_shoe(request.decks, request.remove, request.shoe_file)
    if shoe.size < SMALLEST_SHOE:
        raise BaccaratError(f"a report needs a shoe of at least {SMALLEST_SHOE} cards for the effect of removal "
                            f"(this one has {shoe.size})")
    side_bets = side_bets_to_chart(request.side_bets, rule_sets)
    for r in rule_sets:
        enumerate_coup(shoe, r.tableau, knowledge)  # the known cards must be possible in this shoe
    return Scope(rule_sets, shoe, deck_counts(shoe), side_bets, knowledge)


def numeric_rules(names) -> tuple[RuleSet, ...]:
    """The rule sets of these names or files, each once, every payout a number (not a symbol)."""
    rule_sets = tuple(get_rules(name) for name in names)
    names = [r.name for r in rule_sets]
    if len(set(names)) < len(names):
        raise BaccaratError(f"rule set {next(n for n in names if names.count(n) > 1)!r} is given twice")
    for r in rule_sets:
        for bet in r.bets:
            if not bet.numeric:
                raise BaccaratError(f"rule set {r.name!r}: bet {bet.id!r} has a symbolic payout; "
                                    "a report needs numbers (use `baccarat solve` for symbols)")
    return rule_sets


def side_bets_to_chart(ids: str | None, rule_sets) -> tuple[str, ...] | None:
    """The bets named in ``ids`` (comma-separated), each once and each a bet of one of the rule
    sets; None where none were asked for (the report then chooses).

    >>> side_bets_to_chart(" tie,banker_pair,,tie", [get_rules("standard")]), side_bets_to_chart(None, [])
    (('tie', 'banker_pair'), None)
    """
    if ids is None:
        return None
    chosen = tuple(dict.fromkeys(b.strip() for b in ids.split(",") if b.strip()))
    known = {b.id for r in rule_sets for b in r.bets}
    for bet_id in chosen:
        if bet_id not in known:
            raise BaccaratError("{side_bets}: no bet {bet} in {rules} (bets: {bets})", names=("side_bets",), bet=repr(bet_id),
                                rules=", ".join(r.name for r in rule_sets), bets=", ".join(sorted(known)))
    return chosen


def deck_counts(shoe: Shoe) -> tuple[int, ...]:
    """The full shoes the edge-by-decks table compares: REPORT_DECKS, and the shoe's own number of
    decks where it is whole decks.

    >>> deck_counts(Shoe.decks(3)), deck_counts(Shoe.decks(3).remove("A"))
    ((1, 2, 3, 4, 6, 8), (1, 2, 4, 6, 8))
    """
    full = full_decks(shoe)
    return tuple(sorted(set(REPORT_DECKS) | ({full} if full else set())))


def full_decks(shoe: Shoe) -> int | None:
    """The number of decks of a shoe of whole, untouched decks, else None.

    >>> full_decks(Shoe.decks(6)), full_decks(Shoe.decks(6).remove("A"))
    (6, None)
    """
    n = shoe.counts[0][0]
    return n if n and shoe == Shoe.decks(n) else None


def steps(scope: Scope) -> int:
    """Units of work for a progress bar, as document.build advances it: one per tableau (its
    outcomes) and one for the comparison; per rule set one each for its house edges, its edge by
    number of decks and its return tables with the ranges, 13 for its removals, 3 for its charts."""
    return len(tableaus(scope)) + 1 + len(scope.rules) * (1 + 1 + 13 + 3 + 1)


def tableaus(scope: Scope) -> list:
    """The drawing rules of the scope's rule sets, each once, in the order of the rule sets."""
    return list({r.tableau: None for r in scope.rules})
