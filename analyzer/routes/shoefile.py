"""Files of shoes for ``baccarat batch``: lines of card counts read and checked, and results
written as JSON lines.
"""

from __future__ import annotations

import json
import re

import numpy as np

from ..game.cards import RANKS, BaccaratError
from .batch import MAX_KIND, Batch, shoe_counts
from .compiled import DEGREE

COUNTS = re.compile(r"[0-9]{1,7}(?:[ \t]*,[ \t]*[0-9]{1,7})*")  # a line of card counts (after strip)


def parse_shoe_lines(text: str) -> list[list[int]]:
    """Shoes from text, one per line: 13 comma-separated rank counts A,2,...,9,T,J,Q,K (the
    suits spread evenly, as Shoe.from_ranks does), or 52 card counts As,Ah,Ad,Ac,2s,...,Kc
    (rank by rank, suits s h d c) where the suits matter. Blank lines and lines starting with #
    are skipped.

    >>> parse_shoe_lines("# a comment\\n32,32,32,32,32,32,32,32,32,32,32,32,32\\n")[0][:3]
    [32, 32, 32]
    """
    shoes = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if COUNTS.fullmatch(line):  # the common case at a glance; anything odd is told below
            shoe = list(map(int, line.split(",")))
            if len(shoe) in (13, 52) and max(shoe) <= MAX_KIND and sum(shoe) >= DEGREE:
                shoes.append(shoe)
                continue
        fields = [f.strip() for f in line.split(",")]
        if len(fields) not in (13, 52):
            raise BaccaratError(f"line {number}: expected 13 comma-separated counts ({','.join(RANKS)}) "
                                f"or 52 (As,Ah,Ad,Ac,2s,...,Kc), got {len(fields)}")
        for field in fields:
            if not (field.isascii() and field.isdigit()) or len(field) > 12:
                raise BaccaratError(f"line {number}: {field!r} is not a card count (a whole number, 0 or more)")
            if int(field) > MAX_KIND:
                what = "one rank" if len(fields) == 13 else "one card"
                raise BaccaratError(f"line {number}: {field} cards of {what} is more than a shoe can hold ({MAX_KIND:,} at most)")
        shoe = [int(f) for f in fields]
        if sum(shoe) < DEGREE:
            raise BaccaratError(f"line {number}: a shoe needs at least 6 cards to deal a coup (this one has {sum(shoe)})")
        shoes.append(shoe)
    return shoes


def as_card_counts(rows) -> np.ndarray:
    """Lines of 13 rank counts or 52 card counts (parse_shoe_lines) as [shoe, rank, suit]."""
    out = np.zeros((len(rows), 13, 4), np.int64)
    for size, convert in ((13, shoe_counts), (52, lambda x: np.array(x, np.int64).reshape(-1, 13, 4))):
        these = [i for i, row in enumerate(rows) if len(row) == size]
        if these:
            out[these] = convert([rows[i] for i in these])
    return out


def json_lines(batch: Batch, rows, group: int = 1000):
    """One JSON line per shoe: its counts as given (``rows``: 13 by rank or 52 by card) and
    every bet's exact EV as "p/q" (lowest terms; "n" for an integer), as json.dumps writes it.
    Yields the lines of ``group`` shoes at a time, joined (the text of one group in memory)."""
    bets = ", ".join(f'{json.dumps(bet.id).replace("%", "%%")}: {{"ev": "%s"}}' for bet in batch.bets)
    template = '{"shoe": [%s], "bets": {' + bets + '}}'
    width = len(batch.bets)
    for first in range(0, len(batch), group):
        numerators, denominators = (x.ravel().tolist() for x in batch.ev_terms(slice(first, first + group)))
        evs = list(map("{}/{}".format, numerators, denominators))
        for j, q in enumerate(denominators):
            if q == 1:
                evs[j] = str(numerators[j])
        yield "\n".join(template % (", ".join(map(str, shoe)), *evs[i * width:(i + 1) * width])
                        for i, shoe in enumerate(rows[first:first + group]))
