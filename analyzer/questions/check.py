"""A rule set's bets checked for lines that cannot pay: what ``baccarat rules check``, ``edge`` and
the page's designer warn of.

A pay line *never settles* when no coup dealt from any shoe takes it: its condition holds for no
coup (it is **dead**), or every coup where it holds is taken by an earlier line of the same bet (it
is **shadowed**: a pay table in the wrong order). A bet none of whose lines can settle always
loses: that is an error. For a bet across coups, the same is asked of the counts its lines name
(a count beyond its ``most`` or ``coups`` is never seen), and of its conditions on one coup.

Every question is answered exactly on one shoe that deals every sequence any shoe can: six cards
of every kind (6 decks), where a line settles on some shoe if and only if it settles here: a
sequence of six cards is dealt from a shoe holding each of its cards, and six of a kind hold any.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

from ..bets.bet import AllOf, Bet, Line, RuleSet
from ..routes.counts import evaluate, line_counts
from ..game.cards import Shoe
from ..game.engine import enumerate_coup
from ..base.errors import BaccaratError

EVERY_SEQUENCE = Shoe.decks(6)  # six of every kind: every ordered 6-card sequence of kinds can be dealt


@dataclass(frozen=True)
class Finding:
    level: str  # "error" or "warning"
    bet: str  # the bet's id
    message: str

    def line(self) -> str:
        """The finding as one line of output."""
        return f"{self.level}: bet {self.bet!r}: {self.message}"


def check_rules(rules: RuleSet) -> list[Finding]:
    """Every finding on every bet of ``rules``, in the rule set's order."""
    return [finding for bet in rules.bets for finding in check_bet(bet, rules)]


@lru_cache(maxsize=256)
def check_bet(bet: Bet, rules: RuleSet) -> tuple[Finding, ...]:
    """The findings on one bet (of ``rules``, whose tableau deals it)."""
    dist = enumerate_coup(EVERY_SEQUENCE, rules.tableau)
    try:
        return series_findings(bet, dist) if bet.series is not None else line_findings(bet, dist)
    except BaccaratError as error:  # too detailed to count: say so, do not fail the check
        return (Finding("warning", bet.id, f"not checked: {unnamed(str(error), bet)}"),)


def line_findings(bet: Bet, dist) -> tuple[Finding, ...]:
    """A bet on one coup: each line that settles nothing on ``dist``, dead (it holds on no coup)
    or shadowed (earlier lines take every coup where it holds)."""
    settled = evaluate(bet, dist).sequences
    out = []
    for i, (ln, count) in enumerate(zip(bet.lines, settled)):
        if count:
            continue
        alone = line_counts(replace(bet, lines=(ln,)), dist)[0]
        what = (f"line {i + 1} ({ln.label!r}) can never settle: its condition holds on no coup of any shoe" if not alone
                else f"line {i + 1} ({ln.label!r}) is shadowed: every coup where it holds is settled by an earlier "
                     f"line ({earlier(bet, i, dist)}); put it first if it should pay")
        out.append(Finding("warning", bet.id, what))
    if not any(settled):
        out.append(Finding("error", bet.id, "no pay line can ever settle it: the bet always loses"))
    return tuple(out)


def unnamed(message: str, bet: Bet) -> str:
    """An error's message without the bet's name in front (the finding names it).

    >>> unnamed("bet 'x': too much", Bet("x", "x", (Line(0, "l", AllOf(())),)))
    'too much'
    """
    prefix = f"bet {bet.id!r}: "
    return message[len(prefix):] if message.startswith(prefix) else message


def earlier(bet: Bet, i: int, dist) -> str:
    """The earlier lines that take the coups of line ``i``, by number and label."""
    ln = bet.lines[i]
    takers = []
    for j in range(i):
        both = replace(ln, condition=AllOf((bet.lines[j].condition, ln.condition)))
        if line_counts(replace(bet, lines=(both,)), dist)[0]:
            takers.append(f"{j + 1} {bet.lines[j].label!r}")
    return ", ".join(takers)


def series_findings(bet: Bet, dist) -> tuple[Finding, ...]:
    """A bet across coups: its conditions on one coup, and the counts each line names against the
    counts it can see. With c, e and n whether a coup can count, end it or neither: the count can
    reach the cap (the least of ``most`` and ``coups``) if c; a count below the cap if the bet can
    stop there, by an end (e) or by its coups running out while some pass (``coups`` and n); no
    count but 0 if not c."""
    series = bet.series
    counts, ends = line_counts(bet, dist)
    neither = dist.total - counts - ends
    out = []
    if not counts:
        out.append(Finding("warning", bet.id, "its counts condition holds on no coup of any shoe: the count is always 0"))
    if series.ends is not None and not ends:
        out.append(Finding("warning", bet.id, "its ends condition holds on no coup that does not count: "
                                              + ("only most or coups end it" if series.most or series.coups else
                                                 "nothing ends it")))
    if not ends and series.most is None and series.coups is None:
        return tuple(out) + (Finding("error", bet.id, "nothing can end it"),)
    limits = [x for x in (series.most, series.coups) if x is not None]
    top = min(limits) if limits else None  # the cap (None: no cap)
    stops_below = bool(ends) or (series.coups is not None and neither > 0)
    if not counts:
        seen, said = {0}, "always 0"
    elif top is None:  # every count can be seen; past the largest bound a line names, every line stays as it is there
        seen, said = set(range(2 + max((x for ln in bet.lines for lo, hi in ln.condition.ranges for x in (lo, hi)
                                         if x is not None), default=0))), ""
    elif stops_below:
        seen, said = set(range(top + 1)), f"at most {top}"
    else:
        seen, said = {top}, f"always {top}"
    taken = set()
    for i, ln in enumerate(bet.lines):
        mine = {k for k in seen if ln.condition.holds(k)}
        if not mine:
            out.append(Finding("warning", bet.id, f"line {i + 1} ({ln.label!r}) can never settle: the count never "
                                                  f"takes a value it names (it is {said})"))
        elif mine <= taken:
            out.append(Finding("warning", bet.id, f"line {i + 1} ({ln.label!r}) is shadowed: earlier lines take every "
                                                  "count it names; put it first if it should pay"))
        taken |= mine
    if not taken:
        out.append(Finding("error", bet.id, "no pay line can ever settle it: the bet always loses"))
    return tuple(out)
