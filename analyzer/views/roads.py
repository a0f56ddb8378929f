"""The scoreboard of shoes (roads.py) as `baccarat roads` shows it: the JSON of every shoe, and the
board drawn in a terminal (letters, coloured where the terminal allows)."""

from __future__ import annotations

from ..pit import roads as scoreboard
from ..base.errors import BaccaratError
from ..pit.replay import ShoeDealt

COLOURS = {"B": "red", "P": "blue", "T": "green"}  # the industry's: Banker red, Player blue, Tie green
MARK_COLOURS = {"R": "red", "B": "blue"}  # a derived road's red and blue
NAMES = {"big_eye_boy": "Big eye boy", "small_road": "Small road", "cockroach_pig": "Cockroach pig"}


def shoes_roads(tableau, shoes: list[ShoeDealt]) -> dict:
    """``{"shoes": [{"shoe": ID, ...the scoreboard}]}`` of every shoe of a coup file (or kept)."""
    if not any(s.coups for s in shoes):
        raise BaccaratError("no coup to draw the roads of (one a line: its 4 to 6 cards in dealing order)")
    return {"shoes": [{"shoe": s.name, **scoreboard.shoe_roads([c.cards for c in s.coups], tableau)} for s in shoes]}


def board(data: dict, style=lambda text, colour: text) -> str:
    """Every shoe's board as text: the tallies, the bead plate, the big road (a tie count beside its
    win: B2 is a Banker win with two ties after it; a lower-case letter is a coup with a pair),
    the three derived roads and the ask; ``style(text, colour)`` colours a cell."""
    return "\n\n".join(shoe_board(shoe, style) for shoe in data["shoes"])


def shoe_board(shoe: dict, style) -> str:
    t = shoe["tallies"]
    coups = len(shoe["bead_plate"])
    lines = [f"Shoe {shoe['shoe']}: {coups} coup{'s' * (coups != 1)}; Banker {t['banker']}, Player {t['player']}, "
             f"Tie {t['tie']}; Player pairs {t['player_pair']}, Banker pairs {t['banker_pair']}, naturals {t['natural']}",
             "", "Bead plate"]
    beads = [{"row": i % scoreboard.ROWS, "col": i // scoreboard.ROWS, "text": bead["result"], "colour": bead["result"]}
             for i, bead in enumerate(shoe["bead_plate"])]
    lines += drawn(beads, 2, style, COLOURS)
    cells = [cell for column in shoe["big_road"] for cell in column]
    placed = [{"row": p["row"], "col": p["col"], "colour": cell["result"],
               "text": (cell["result"].lower() if cell["player_pair"] or cell["banker_pair"] else cell["result"])
               + (str(cell["ties"]) if 0 < cell["ties"] < 10 else "+" if cell["ties"] else "")}
              for p, cell in zip(shoe["big_road_grid"], cells)]
    lines += ["", "Big road (B2: a Banker win and two ties after it; b, p: a pair in the coup)"]
    lines += drawn(placed, 3, style, COLOURS) if placed else ["(no win yet)"]
    for name in NAMES:
        marks = [m for column in shoe[name] for m in column]
        placed = [{"row": p["row"], "col": p["col"], "text": m, "colour": m}
                  for p, m in zip(shoe["derived_grids"][name], marks)]
        lines += ["", f"{NAMES[name]} (R red, B blue)"] + (drawn(placed, 2, style, MARK_COLOURS) if placed else ["(not started)"])
    ask = shoe["ask"]
    for side in ("banker", "player"):
        shown = ", ".join(f"{NAMES[name].lower()} {ask[side][name] or '-'}" for name in NAMES)
        lines.append(("" if side == "player" else "\n") + f"{side.capitalize()} ask: {shown}")
    return "\n".join(lines)


def drawn(cells: list[dict], width: int, style, colours) -> list[str]:
    """Six lines of a road: each cell's text at its row and column, ``width`` characters a column,
    an empty place a dot."""
    if not cells:
        return []
    columns = max(c["col"] for c in cells) + 1
    grid = [[".".ljust(width)] * columns for _ in range(scoreboard.ROWS)]
    for c in cells:
        grid[c["row"]][c["col"]] = style(c["text"], colours[c["colour"]]) + " " * (width - len(c["text"]))
    return ["".join(row).rstrip() for row in grid]
