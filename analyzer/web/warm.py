"""Imported by the fork server of `baccarat serve` (serving.Pool), before it forks any worker:
the rule sets the page opens with are compiled here once, so that every worker, and every worker
that replaces one, starts with them compiled (a fork copies them) and answers its first request
in milliseconds, not seconds."""

import gc
import signal

signal.signal(signal.SIGINT, signal.SIG_IGN)  # first: Ctrl-C reaches the whole process group, the server decides

from ..game.cards import Shoe  # noqa: E402
from . import api  # noqa: E402

for asked in ({"rules": "catalog"}, {"rules": "catalog", "card_level": False}, {"rules": "standard"}):
    api.tracker(asked | {"decks": 8}, api.Limits())
api.catalogue(Shoe.decks(8))  # the designer's list beside a bet
# What is held now (the library, the compiled rule sets) is kept out of the collector's reach:
# a full collection in a worker then walks only what its requests made, not this whole heap
# (the catalogue tracker's p99 18 -> 7 ms in process), and a fork's pages stay shared.
gc.collect()
gc.freeze()
