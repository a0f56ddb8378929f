"""The drawing tableau as data.

A natural (a two-card 8 or 9 in either hand) always ends the coup. Otherwise the Player draws a
third card on the totals in ``player_draws``; then the Banker draws according to
``banker_draws[banker_total][k]``, where k is the value of the Player's third card (0..9), or
``STOOD`` (10) when the Player stood.
"""

from __future__ import annotations

from dataclasses import dataclass

STOOD = 10  # column of banker_draws used when the Player stood


@dataclass(frozen=True)
class Tableau:
    name: str
    player_draws: tuple[bool, ...]  # by the Player's two-card total 0..9
    banker_draws: tuple[tuple[bool, ...], ...]  # [banker total 0..9][player third 0..9 or STOOD]

    def __post_init__(self):
        if len(self.player_draws) != 10 or len(self.banker_draws) != 10 or any(len(r) != 11 for r in self.banker_draws):
            raise ValueError("a tableau has 10 Player entries and a 10 x 11 Banker table")


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
