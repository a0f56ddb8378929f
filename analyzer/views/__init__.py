"""The questions a user asks, answered as Views: exact rows plus the JSON object, for
render.render(). One module per question, beside the domain module that answers it:

outcomes   odds of each outcome of one coup (engine)
edge       house-edge tables, rule sets compared, the edge by number of decks, the shoe in play (bets)
parsheet   return tables, volatility and ranges (parsheet)
rules      the built-in rule sets, a rule set, a tableau, a shoe (rulefile, tableau, cards)
solve      the payout or commission for a target edge (symbolic)
removal    effects of removal (eor)
counting   count systems (counting)
advantage  what seeing some of the cards is worth (advantage)
simulation shoes dealt and tallied (simulate)
runs       runs of a result in a shoe, for game protection (runs)
replay     a shoe replayed coup by coup (replay)
chemin     chemin de fer solved as a game (chemin)
results    what each table took over a period, from the wagers kept (results)

Here: what every view says of a shoe and of known cards.
"""

from __future__ import annotations

from ..game.cards import RANKS, Shoe
from ..game.knowledge import Knowledge


def shoe_data(shoe: Shoe) -> dict:
    return {"cards": shoe.size, "ranks": dict(zip(RANKS, shoe.rank_counts())), "description": shoe.describe()}


def given(knowledge: Knowledge) -> str:
    """The words a title adds for known cards (nothing when none are known)."""
    return f"\nKnown: {knowledge.describe()}" if knowledge else ""


def known_data(knowledge: Knowledge) -> dict:
    """The JSON key for known cards: position -> what is known (only when something is)."""
    return {"known": knowledge.data()} if knowledge else {}
