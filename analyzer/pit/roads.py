"""The scoreboard of a shoe: the bead plate, the big road and the three roads derived from it (big
eye boy, small road, cockroach pig), the shoe's tallies, and "Banker ask / Player ask": what each
derived road would mark if the next coup went to the Banker or to the Player. Pure functions of a
shoe's coups; nothing here knows of a page or a terminal.

Glossary
--------
result        what the scoreboard keeps of a coup: its winner (``B``, ``P`` or ``T``), whether
              the Player's and the Banker's first two cards are a pair (of one rank), and whether
              the coup ended on a natural (either hand's first two cards total 8 or 9)
bead plate    every coup in dealing order, six a column, top to bottom, then the next column
big road      the Banker's and the Player's wins, a column a run: the same winner again goes one
              row down, the other starts a new column; a tie is not a cell, it is counted on the
              cell before it (drawn as a green slash, with its number past one)
column        a run of the big road as it is logically (its length is the run's); a run longer
              than six rows is *drawn* turning right along the bottom (the dragon tail), which
              changes only where its cells are drawn (:func:`grid`), never the derived roads
derived road  a road of red and blue marks that says whether the big road repeats itself (red) or
              not (blue), comparing each new big-road cell with the column 1 (big eye boy), 2 (small
              road) or 3 (cockroach pig) columns before it; its marks are drawn as a big road is,
              a column a run of one colour
ask           the mark each derived road would get from one more coup to the Banker (or Player)

The rules are the industry's, as the public descriptions of the scoreboards give them: the Wizard
of Odds' "Baccarat Score Boards" (the Venetian's display, explained by its staff: the bead plate,
the big road's ties as a slash through the previous win and pairs as dots, the dragon tail, and
each derived road's start and marks), and live-studio help pages (Evolution's and Pragmatic
Play's baccarat rules: "Banker ask / Player ask"). For a new big-road cell at column ``c`` (from
0) and row ``r`` of it, the road of offset ``k`` (1, 2, 3):

- starts at the cell of row 1 of column ``k``, or, if that column has one cell, at the first cell
  of column ``k + 1`` (big eye boy: the second cell of the second column, else the first of the
  third);
- a cell that starts a column (``r == 0``) is red where columns ``c - 1`` and ``c - 1 - k`` are
  as long as each other, blue otherwise;
- any other cell is red where column ``c - k`` has a cell at row ``r``, and red too where it has
  none at row ``r - 1`` either ("two empties make red"), blue where that column ended at row
  ``r - 1`` exactly.

Where the descriptions differ, this module follows:

- **Ties before the first win** of a shoe have no cell before them: they are counted on the
  shoe's first big-road cell (the scoreboards draw the slash in the first cell, and the first
  win in that same cell). A shoe of ties alone has an empty big road (the tallies count them).
- **A run longer than six** turns right along the sixth row (the dragon tail), and a run that
  meets an earlier tail below it turns right at once, on the row above the tail (the Wizard of
  Odds: "if a streak bumps into a dragon along the bottom, it immediately turns right, no matter
  which row it is in"). Each new column starts at the top, one to the right of the start of the
  column before it (its tail runs on beneath the columns after it), and further right where that
  top cell is taken.
- **The derived roads read the big road's columns as they are logically**, by their lengths, not
  as drawn: a dragon tail is still one column. Their own runs are drawn by the same rule (six
  rows, tails to the right), at half the big road's size on a board.
- **Ask** is the mark the next big-road cell would give each road where that cell is one the
  road marks (a road not yet started gives none: ``None``, unless that very cell would start it).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..game.tableau import Tableau

ROWS = 6  # the rows of every road as drawn
DERIVED = (("big_eye_boy", 1), ("small_road", 2), ("cockroach_pig", 3))  # each derived road and its offset
LETTER = {"banker": "B", "player": "P", "tie": "T"}


@dataclass(frozen=True)
class Result:
    """One coup as the scoreboard keeps it (see the module notes)."""

    result: str  # "B", "P" or "T"
    player_pair: bool = False
    banker_pair: bool = False
    natural: bool = False

    def data(self) -> dict:
        return {"result": self.result, "player_pair": self.player_pair, "banker_pair": self.banker_pair,
                "natural": self.natural}


@dataclass
class Cell:
    """A big-road cell: its winner, the ties counted on it, and its coup's pairs."""

    result: str
    ties: int = 0
    player_pair: bool = False
    banker_pair: bool = False

    def data(self) -> dict:
        return {"result": self.result, "ties": self.ties, "player_pair": self.player_pair, "banker_pair": self.banker_pair}


def result_of_coup(cards, tableau: Tableau) -> Result:
    """A coup's result on the scoreboard, from its cards (rank, suit) in dealing order.

    >>> from analyzer.game.cards import parse_card
    >>> from analyzer.game.tableau import PUNTO_BANCO
    >>> result_of_coup([parse_card(c) for c in "9c 8d 9h Kc".split()], PUNTO_BANCO)  # Player 9c 9h, Banker 8d Kc: 8-8
    Result(result='T', player_pair=True, banker_pair=False, natural=True)
    """
    from ..game.cards import VALUES
    from .replay import result_of

    winner, _, _ = result_of(cards, tableau)
    values = [VALUES[rank] for rank, _ in cards[:4]]
    natural = (values[0] + values[2]) % 10 >= 8 or (values[1] + values[3]) % 10 >= 8
    return Result(LETTER[winner], cards[0][0] == cards[2][0], cards[1][0] == cards[3][0], natural)


def tallies(results: list[Result]) -> dict:
    """The shoe's wins of each side, ties, pairs of each hand and coups ending on a natural.

    >>> tallies([Result("B", natural=True), Result("T", player_pair=True), Result("B")])
    {'banker': 2, 'player': 0, 'tie': 1, 'player_pair': 1, 'banker_pair': 0, 'natural': 1}
    """
    return {"banker": sum(r.result == "B" for r in results), "player": sum(r.result == "P" for r in results),
            "tie": sum(r.result == "T" for r in results), "player_pair": sum(r.player_pair for r in results),
            "banker_pair": sum(r.banker_pair for r in results), "natural": sum(r.natural for r in results)}


def big_road(results: list[Result]) -> list[list[Cell]]:
    """The big road's columns as they are logically, each top to bottom (see the module notes:
    ties on the cell before them, those before the first win on the first cell).

    >>> [[c.result + str(c.ties) for c in column] for column in big_road([Result(x) for x in "TBBTPTTB"])]
    [['B1', 'B1'], ['P2'], ['B0']]
    """
    columns: list[list[Cell]] = []
    leading = 0
    for r in results:
        if r.result == "T":
            if columns:
                columns[-1][-1].ties += 1
            else:
                leading += 1
            continue
        cell = Cell(r.result, leading, r.player_pair, r.banker_pair)
        leading = 0
        if columns and columns[-1][0].result == r.result:
            columns[-1].append(cell)
        else:
            columns.append([cell])
    return columns


def derived_mark(lengths: list[int], column: int, row: int, offset: int) -> str | None:
    """The mark ("R" red, "B" blue) of the derived road of ``offset`` for the big-road cell at
    ``row`` of ``column``, given the columns' lengths so far; None where the road has not started.

    >>> derived_mark([2, 1], 1, 0, 1), derived_mark([2, 2], 1, 1, 1), derived_mark([1, 3], 1, 2, 1)
    (None, 'R', 'R')
    >>> derived_mark([2, 2, 1], 2, 0, 1), derived_mark([1, 2], 1, 1, 1)
    ('R', 'B')
    """
    if column < offset or column == offset and row == 0:
        return None
    if row == 0:
        return "R" if lengths[column - 1] == lengths[column - 1 - offset] else "B"
    return "B" if lengths[column - offset] == row else "R"


def cells_in_order(columns) -> list[tuple[int, int]]:
    """(column, row) of each big-road cell in the order it was written."""
    return [(c, r) for c, column in enumerate(columns) for r in range(len(column))]


def derived_marks(columns, offset: int) -> list[str]:
    """The marks of the derived road of ``offset``, in the order they were written."""
    lengths = [len(column) for column in columns]
    marks = (derived_mark(lengths, c, r, offset) for c, r in cells_in_order(columns))
    return [m for m in marks if m is not None]


def runs(marks: list[str]) -> list[list[str]]:
    """Marks as a road draws them: a column a run of one mark.

    >>> runs(["R", "R", "B", "R"])
    [['R', 'R'], ['B'], ['R']]
    """
    out: list[list[str]] = []
    for mark in marks:
        if out and out[-1][0] == mark:
            out[-1].append(mark)
        else:
            out.append([mark])
    return out


def grid(lengths: list[int], rows: int = ROWS) -> list[dict]:
    """Where each cell of a road's columns (their ``lengths``) is drawn on a grid of ``rows``
    rows: ``{"row", "col", "column", "index"}`` a cell, in order (see the module notes: a column
    starts at the top, one right of the previous column's start or further where that is taken;
    it goes down until the last row or a taken cell, then right along its row: the dragon tail).

    >>> [(d["row"], d["col"]) for d in grid([8, 2])]
    [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (5, 0), (5, 1), (5, 2), (0, 1), (1, 1)]
    >>> [(d["row"], d["col"]) for d in grid([7, 6])][-3:]  # the second run meets the first's tail: it turns at row 4
    [(3, 1), (4, 1), (4, 2)]
    """
    taken: set[tuple[int, int]] = set()
    out = []
    start = -1
    for column, length in enumerate(lengths):
        start += 1
        while (0, start) in taken:
            start += 1
        row, col, turned = 0, start, False
        for index in range(length):
            if index:
                if not turned and row + 1 < rows and (row + 1, col) not in taken:
                    row += 1
                else:
                    turned = True
                    col += 1
                    while (row, col) in taken:
                        col += 1
            taken.add((row, col))
            out.append({"row": row, "col": col, "column": column, "index": index})
    return out


def ask(results: list[Result], result: str) -> dict:
    """What each derived road would mark if the next coup went to ``result`` ("B" or "P"): the
    mark of the big-road cell it would write (None where the road would not mark it).

    >>> ask([Result(x) for x in "BBPP"], "P"), ask([Result("B")], "P")
    ({'big_eye_boy': 'B', 'small_road': None, 'cockroach_pig': None}, {'big_eye_boy': None, 'small_road': None, 'cockroach_pig': None})
    """
    columns = big_road(results + [Result(result)])
    lengths = [len(column) for column in columns]
    column, row = len(columns) - 1, lengths[-1] - 1
    return {name: derived_mark(lengths, column, row, offset) for name, offset in DERIVED}


def roads(results: list[Result]) -> dict:
    """The whole scoreboard of a shoe's results, as `baccarat roads --format json` gives a shoe
    (its ``shoe`` aside): tallies, bead plate, big road, the derived roads as columns, where each
    big-road cell is drawn (``big_road_grid``; the derived roads' in ``derived_grids``), and
    ``ask``."""
    columns = big_road(results)
    out = {"tallies": tallies(results), "bead_plate": [r.data() for r in results],
           "big_road": [[cell.data() for cell in column] for column in columns]}
    derived = {name: runs(derived_marks(columns, offset)) for name, offset in DERIVED}
    out |= derived
    out["big_road_grid"] = grid([len(column) for column in columns])
    out["derived_grids"] = {name: grid([len(run) for run in marks]) for name, marks in derived.items()}
    out["ask"] = {"banker": ask(results, "B"), "player": ask(results, "P")}
    return out


def shoe_roads(coups, tableau: Tableau) -> dict:
    """The scoreboard of a shoe's coups (each its cards in dealing order)."""
    return roads([result_of_coup(cards, tableau) for cards in coups])


def flags(result: Result) -> str:
    """A result's marks as letters: ``p`` a Player pair, ``b`` a Banker pair, ``n`` a natural.

    >>> flags(Result("B", player_pair=True, natural=True))
    'pn'
    """
    return "p" * result.player_pair + "b" * result.banker_pair + "n" * result.natural


def board(results: list[Result]) -> dict:
    """The scoreboard as a screen draws it, in few bytes (a few KB for a shoe; kept with every
    event's figures): the tallies; the bead plate as ``"B"``, ``"P"`` or ``"T"`` and its
    :func:`flags`; the big road as ``[row, col, result and flags, ties]`` where each cell is
    drawn; each derived road as ``[row, col, "R" or "B"]``; and ``ask``.

    >>> board([Result("B"), Result("T"), Result("P", player_pair=True)])["big_road"]
    [[0, 0, 'B', 1], [0, 1, 'Pp', 0]]
    """
    columns = big_road(results)
    cells = [cell for column in columns for cell in column]
    out = {"tallies": tallies(results), "bead_plate": [r.result + flags(r) for r in results],
           "big_road": [[p["row"], p["col"], c.result + "p" * c.player_pair + "b" * c.banker_pair, c.ties]
                        for p, c in zip(grid([len(column) for column in columns]), cells)]}
    for name, offset in DERIVED:
        marks = runs(derived_marks(columns, offset))
        out[name] = [[p["row"], p["col"], mark]
                     for p, mark in zip(grid([len(run) for run in marks]), [m for run in marks for m in run])]
    out["ask"] = {"banker": ask(results, "B"), "player": ask(results, "P")}
    return out
