"""What a par sheet covers: the request as the user gave it (names, paths and option text), and
its scope - the rule sets, shoe and bets it names, read and checked before any work, so that a
bad input fails at once."""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from ..bets.bet import RuleSet
from ..game.cards import Shoe, make_shoe
from ..game.engine import enumerate_coup
from ..base.errors import BaccaratError
from ..game.knowledge import NOTHING, Knowledge
from ..bets.amounts import parse_amount
from ..bets.rulefile import SYMBOL, get_rules
from ..bets.symbolic import free_symbols, to_fraction, to_sympy

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
    meters: tuple[str, ...] = ()  # NAME=AMOUNT: the value of a payout symbol (a progressive meter)
    prepared_by: str | None = None  # the names the sign-off shows (None: a blank line to write one on)
    approved_by: str | None = None


@dataclass(frozen=True)
class Scope:
    """What a par sheet covers, checked: the rule sets, the shoe, the deck counts to compare and
    the bets to chart."""

    rules: tuple[RuleSet, ...]
    shoe: Shoe
    deck_counts: tuple[int, ...]
    side_bets: tuple[str, ...] | None  # None: the most sensitive to removal, per rule set
    knowledge: Knowledge = NOTHING
    meters: tuple = ()  # (name, value) of each payout symbol (a progressive meter), as given
    progressives: tuple = ()  # (rule set name, the bet with its symbols) of each bet that pays a meter
    signers: tuple = (("Prepared by", ""), ("Approved by", ""))  # (role, name; "": none given) of the sign-off


def scope(request: Request) -> Scope:
    """Read and check everything the report needs, before any work: a bad input fails here.

    >>> s = scope(Request(decks="6"))
    >>> [r.name for r in s.rules], s.shoe.size, s.deck_counts
    (['standard'], 312, (1, 2, 4, 6, 8))
    """
    knowledge = Knowledge.parse(request.known)
    meters = parse_meters(request.meters)
    rule_sets, progressives = numeric_rules(request.rules or ("standard",), meters)
    shoe = make_shoe(request.decks, request.remove, request.shoe_file)
    if shoe.size < SMALLEST_SHOE:
        raise BaccaratError(f"a report needs a shoe of at least {SMALLEST_SHOE} cards for the effect of removal "
                            f"(this one has {shoe.size})")
    side_bets = side_bets_to_chart(request.side_bets, rule_sets)
    for r in rule_sets:
        enumerate_coup(shoe, r.tableau, knowledge)  # the known cards must be possible in this shoe
    signers = (("Prepared by", signer(request.prepared_by, "prepared_by")),
               ("Approved by", signer(request.approved_by, "approved_by")))
    return Scope(rule_sets, shoe, deck_counts(shoe), side_bets, knowledge, tuple(meters.items()), progressives, signers)


def signer(name: str | None, parameter: str) -> str:
    """A name for the sign-off, as given ("" where none is: a blank line to write one on); a name
    given must be one line of text.

    >>> signer(" Jane Roe ", "prepared_by"), signer(None, "approved_by")
    ('Jane Roe', '')
    """
    if name is None:
        return ""
    name = name.strip()
    if not name or not name.isprintable():
        raise BaccaratError("{%s}: give a name, on one line (got {got})" % parameter, names=(parameter,), got=repr(name))
    return name


def parse_meters(items) -> dict:
    """NAME=AMOUNT items (``J=250000``) as name -> Fraction, each name once.

    >>> parse_meters(["J=250000", "K = 12.5"])
    {'J': Fraction(250000, 1), 'K': Fraction(25, 2)}
    """
    out = {}
    for item in items:
        name, sep, amount = item.partition("=")
        name = name.strip()
        if not sep or not SYMBOL.match(name):
            raise BaccaratError("{meters}: {item} is not NAME=AMOUNT (a payout symbol and its value, e.g. J=250000)",
                                names=("meters",), item=repr(item))
        if name in out:
            raise BaccaratError("{meters}: {name} is given twice", names=("meters",), name=name)
        try:
            out[name] = parse_amount(amount.strip(), name, "its value")
        except BaccaratError as error:
            raise BaccaratError("{meters}: {error}", names=("meters",), error=str(error)) from None
    return out


def numeric_rules(names, meters: dict | None = None) -> tuple[tuple[RuleSet, ...], tuple]:
    """The rule sets of these names or files, each once, every payout a number: a payout symbol (a
    progressive meter) takes its value from ``meters``. Also (rule set name, bet) of each bet that
    had a symbol, as written, for the report's section on them."""
    meters = meters or {}
    rule_sets = tuple(get_rules(name) for name in names)
    names = [r.name for r in rule_sets]
    if len(set(names)) < len(names):
        raise BaccaratError(f"rule set {next(n for n in names if names.count(n) > 1)!r} is given twice")
    out, progressives, used = [], [], set()
    for r in rule_sets:
        bets = []
        for bet in r.bets:
            if not bet.numeric:
                progressives.append((r.name, bet))
                bet = valued(bet, meters, r.name)
                used |= set(map(str, symbols_of(progressives[-1][1])))
            bets.append(bet)
        out.append(replace(r, bets=tuple(bets)) if progressives and progressives[-1][0] == r.name else r)
    unused = sorted(set(meters) - used)
    if unused:
        raise BaccaratError("{meters}: no bet pays {unused}", names=("meters",), unused=", ".join(unused))
    return tuple(out), tuple(progressives)


def symbols_of(bet) -> set:
    return set().union(*(free_symbols(x) for x in (bet.commission, *(ln.pays for ln in bet.lines))))


def valued(bet, meters: dict, rules_name: str):
    """The bet with every payout symbol given its value from ``meters``."""
    missing = sorted(str(x) for x in symbols_of(bet) if str(x) not in meters)
    if missing:
        raise BaccaratError("rule set {rules}: bet {bet} pays {missing}: a report needs its value, give it with {meters} "
                            "{first}=AMOUNT (`baccarat solve` finds the break-even meter)", names=("meters",),
                            rules=repr(rules_name), bet=repr(bet.id), missing=", ".join(missing), first=missing[0])

    def number(x):
        if isinstance(x, Fraction):
            return x
        return to_fraction(to_sympy(x).subs({s: to_sympy(meters[str(s)]) for s in free_symbols(x)}))

    commission = number(bet.commission)
    if commission >= 1:
        raise BaccaratError("{meters}: bet {bet} of rule set {rules}: its commission would be {share} (it must be "
                            "below 100%)", names=("meters",), bet=repr(bet.id), rules=repr(rules_name),
                            share=f"{commission * 100}%")
    return replace(bet, commission=commission, lines=tuple(replace(ln, pays=number(ln.pays)) for ln in bet.lines))


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
