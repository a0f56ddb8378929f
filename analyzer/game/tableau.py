"""The drawing tableau as data.

A natural (a two-card 8 or 9 in either hand) always ends the coup. Otherwise the Player draws a
third card on the totals in ``player_draws``; then the Banker draws according to
``banker_draws[banker_total][k]``, where k is the value of the Player's third card (0..9), or
``STOOD`` (10) when the Player stood.

A tableau may also mark cells *optional*, as the classic chemin de fer tableau does: there the
side may draw or stand (``player_options``, ``banker_options``). Punto banco, and every bet,
plays the tableau's own choice in every cell; ``baccarat chemin`` solves the game that the
options leave open.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..base.errors import BaccaratError

STOOD = 10  # column of banker_draws used when the Player stood
NO_PLAYER_OPTIONS = (False,) * 10
NO_BANKER_OPTIONS = ((False,) * 11,) * 10


@dataclass(frozen=True)
class Tableau:
    name: str
    player_draws: tuple[bool, ...]  # by the Player's two-card total 0..9
    banker_draws: tuple[tuple[bool, ...], ...]  # [banker total 0..9][player third 0..9 or STOOD]
    player_options: tuple[bool, ...] = NO_PLAYER_OPTIONS  # totals on which the Player may choose
    banker_options: tuple[tuple[bool, ...], ...] = NO_BANKER_OPTIONS  # cells where the Banker may choose

    def __post_init__(self):
        rows = (self.player_draws, self.player_options)
        grids = (self.banker_draws, self.banker_options)
        if (not all(isinstance(r, tuple) and len(r) == 10 for r in rows)
                or not all(isinstance(g, tuple) and len(g) == 10 and all(isinstance(r, tuple) and len(r) == 11 for r in g)
                           for g in grids)):
            raise BaccaratError("a tableau has 10 Player entries and a 10 x 11 Banker table, as tuples")

    def banker_option_cells(self) -> list[tuple[int, int]]:
        """The Banker's optional cells (total, third card or STOOD) where he can choose (no natural).

        >>> CASINO.banker_option_cells()
        [(3, 9), (5, 4)]
        """
        return [(t, k) for t in range(8) for k in range(11) if self.banker_options[t][k]]


def punto_banco_banker_draws(banker: int, player_third: int | None) -> bool:
    """Whether the Banker draws on two-card total ``banker`` (no natural on either side).

    >>> punto_banco_banker_draws(3, 8), punto_banco_banker_draws(3, 9), punto_banco_banker_draws(6, None)
    (False, True, False)
    """
    if player_third is None:
        return banker <= 5
    drawing_thirds = {0: range(10), 1: range(10), 2: range(10), 3: [0, 1, 2, 3, 4, 5, 6, 7, 9],
                      4: range(2, 8), 5: range(4, 8), 6: range(6, 8)}
    return player_third in drawing_thirds.get(banker, ())


PUNTO_BANCO = Tableau(
    name="punto banco",
    player_draws=tuple(total <= 5 for total in range(10)),
    banker_draws=tuple(
        tuple(punto_banco_banker_draws(b, None if k == STOOD else k) for k in range(11)) for b in range(10)
    ),
)


def with_options(tableau: Tableau, name: str, player: set, banker: set) -> Tableau:
    """``tableau`` with the Player's totals ``player`` and the Banker's cells ``banker`` (total,
    third card or STOOD) made optional."""
    return replace(tableau, name=name, player_options=tuple(t in player for t in range(10)),
                   banker_options=tuple(tuple((t, k) in banker for k in range(11)) for t in range(10)))


# Chemin de fer's casino rules (the first seed): the Player chooses on 5; the Banker "can do either
# with a point of three to a player's third card nine or with a point of five to a player's third
# card four"; every other cell as punto banco plays it.
CASINO = with_options(PUNTO_BANCO, "casino rules", {5}, {(3, 9), (5, 4)})

# The parlour game the literature solves (Kemeny and Snell; Ethier and Gamez): the Player chooses
# on 5, the Banker in every cell.
FREE = with_options(PUNTO_BANCO, "free game", {5}, {(t, k) for t in range(8) for k in range(11)})
