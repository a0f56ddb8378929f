"""What every closed form shares: the ClosedForm type (counts for one shoe, or many at once, in
exact integers) and a card added to a rule's rows (with_card). The forms themselves are in
closedforms.py and suitsets.py."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np



FAST_CARDS = 1290  # N^6 < 2^62: int64 is exact
DEGREE = 6  # cards on the counting basis: a coup's at most six, the others padded with any cards left


SHOES_AT_ONCE = 1024  # shoes a closed form evaluates at once (ClosedForm.many)


@dataclass(frozen=True, eq=False)
class ClosedForm:
    """Lines counted by a closed form, with the compiled Polynomials' interface (``many``,
    ``counts``; ``lines``, and ``cells`` the memory held):
    ``groups`` the lines of each bet (each settled in turn), their columns one after another."""

    groups: tuple
    tableau: object

    @property
    def lines(self) -> int:
        return sum(map(len, self.groups))

    def cells(self) -> int:
        return 1000 * len(self.groups)  # a few small arrays: counted as a thousand cells each

    def counts(self, n) -> list[int]:
        """Each line's ordered 6-card sequences from a shoe of card counts ``n`` (52, by kind)."""
        return one_shoe(self, n)

    def many(self, n: np.ndarray) -> np.ndarray:
        """[shoe, line] for card counts n[shoe, 52] of shoes of at most FAST_CARDS cards, SHOES_AT_ONCE
        at a time (a hand's 110 draws of 1,024 shoes: arrays of 1 MB, within a core's cache)."""
        n = np.asarray(n, np.int64)
        if len(n) <= SHOES_AT_ONCE:
            return self.evaluate(n, np.int64)
        return np.concatenate([self.evaluate(n[start:start + SHOES_AT_ONCE], np.int64)
                               for start in range(0, len(n), SHOES_AT_ONCE)])

    def evaluate(self, n: np.ndarray, dtype) -> np.ndarray:
        """[shoe, line], in ``dtype`` (int64, or object: Python integers)."""
        return np.concatenate([self.group(conditions, n, dtype) for conditions in self.groups], 1)




def with_card(rows: np.ndarray, k: int) -> np.ndarray:
    """Each sequence of ``rows`` [position, sequence] followed by each of k classes."""
    return np.vstack([np.repeat(rows, k, 1), np.tile(np.arange(k), rows.shape[1])])


# Suits and colours of whole hands
# --------------------------------
# Lines that test the suits or colours of groups of cards ("both hands suited", "the Player's
# hand all one colour", "the first four of one suit", "every card red") beside tests of point
# values (who wins, totals, cards dealt), where the suits are compared at every card through the
# draws: too many ways to fall to compile. Each such test is a sum of products of indicators
# "the dealt cards at these places all lie in the suits C" (a suit set C: one suit, a colour, any
# or none): one hand of one suit is sum over s of [hand in {s}], all one colour the same over the
# two colours, every card red [group in red], k cards of a group in C the sum over the ways to
# choose which k places hold one (prod over them of [p dealt, in C], over the others of
# 1 - [p dealt, in C]); all, any and not multiply, add and subtract them
# (any = 1 - prod(1 - x), not = 1 - x), and a line settles where it holds and no earlier one did,
# cond_i prod_{j<i} (1 - cond_j). A product of indicators puts each place in the intersection C_p
# of its suit sets, and counts, for one sequence of point values x_p the tableau deals,
#     prod over the dealt places p, most constrained first, of n(x_p, C_p) - e_p
# ordered card sequences (then any cards at the 6 - d positions left: (N-d)(N-d-1)...(N-5)),
# n(x, C) the cards of value x in the suits C, e_p the places counted before p with the same value
# and a suit set within C_p: where the places' suit sets are nested or apart (suits within
# colours: a laminar family), every card counted before p either may be p's card's class or
# never is, so each factor is the cards left to choose from (the first that reaches zero makes the
# product zero before any could turn negative). A line is the sum over its products of their
# coefficient times these counts, summed over the value sequences whose value tests hold: a few
# hundred thousand sequences, vectorised, per distinct product. One shoe at a time: a few tenths of
# a second for a bet, on any shoe; lines that compile are never counted so (their polynomials are
# far faster), only those that are refused as too detailed to compile.


def one_shoe(polynomials, n) -> list[int]:
    """Each line's ordered 6-card sequences from one shoe of card counts ``n`` (52, by kind), by
    compiled Polynomials (cardcount.py) or a closed form (here): in int64 up to FAST_CARDS cards
    (``many``), in Python integers beyond (``evaluate`` on objects), exact for any shoe."""
    n = np.array([int(x) for x in n], object)
    if n.sum() > FAST_CARDS:
        return polynomials.evaluate(n[None, :], object)[0].tolist()
    return polynomials.many(n[None, :].astype(np.int64))[0].tolist()
