"""What a live studio draws before a coup, dealt at random for the simulation: the multipliers
of each bet (overlay.py) - K identities of 52 drawn without replacement, each with its
multiplier, or one multiplier for a spot - and the fee taken on every coup."""

from __future__ import annotations

import numpy as np

from ..bets.conditions import settled_masks
from ..bets.bet import RuleSet
from ..game.layout import PLACES, coup_fields
from ..routes.multipliers import pair_hand


def drawn_overlays(rules: RuleSet, kinds: np.ndarray, paid: np.ndarray, rng) -> None:
    """Pay ``paid`` [coup, bet] as a studio does: each multiplied win times the multipliers drawn
    for its coup (overlay.py: K identities of 52 without replacement, each with its multiplier,
    every counted card of a drawn identity multiplying), and each bet's fee taken on every coup."""
    fields = None
    for b, bet in enumerate(rules.bets):
        table = bet.multipliers
        if table is not None:
            fields = coup_fields(kinds) if fields is None else fields
            settled = np.full(len(kinds), -1)
            for j, hit in enumerate(settled_masks(bet.conditions, fields)):
                settled[hit] = j
            won = np.isin(settled, table.multiplied(bet))
            paid[won, b] *= drawn_multipliers(table, bet.conditions, kinds[won], fields["winner"][won], rng)
        paid[:, b] -= float(bet.fee)


def drawn_multipliers(table, conditions: tuple, kinds: np.ndarray, winner: np.ndarray, rng) -> np.ndarray:
    """[coup] the product of the multipliers drawn for each coup over its counted cards."""
    n = len(kinds)
    values = np.array([float(m) for m, _ in table.value])
    chances = np.array([float(p) for _, p in table.value])
    if table.spot:
        return values[rng.choice(len(values), size=n, p=chances)]
    ks = np.array([k for k, _ in table.count])
    drawn_count = ks[rng.choice(len(ks), size=n, p=np.array([float(p) for _, p in table.count]))]
    order = np.argsort(rng.random((n, 52)), 1)  # a random order of the 52 identities: the first K are drawn
    rank = np.empty_like(order)
    np.put_along_axis(rank, order, np.arange(52)[None, :], 1)
    multiplier = np.where(rank < drawn_count[:, None], values[rng.choice(len(values), size=(n, 52), p=chances)], 1.0)
    counted = counted_places(table.cards, conditions, kinds, winner)
    factor = np.where(counted, multiplier[np.arange(n)[:, None], np.maximum(kinds, 0)], 1.0)
    return factor.prod(1)


def counted_places(cards, conditions: tuple, kinds: np.ndarray, winner: np.ndarray) -> np.ndarray:
    """[coup, place] (PLACES order) the cards a multiplier counts (overlay.CARD_MODES)."""
    dealt = kinds >= 0
    player = np.array([place.startswith("player") for place in PLACES])[None, :] & dealt
    banker = np.array([place.startswith("banker") for place in PLACES])[None, :] & dealt
    if cards == "all":
        return player | banker
    if cards == "winner":
        return np.where(winner[:, None] > 0, player, np.where(winner[:, None] < 0, banker, player | banker))
    if cards == "pair":
        hand = pair_hand(conditions)
        return np.array([place in (f"{hand}_1", f"{hand}_2") for place in PLACES])[None, :].repeat(len(kinds), 0)
    return np.array([place in cards for place in PLACES])[None, :] & dealt
