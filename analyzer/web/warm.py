"""Imported by the fork server of `baccarat serve` (serving.Pool), before it forks any worker:
the rule sets the page opens with are compiled here once, so that every worker, and every worker
that replaces one, starts with them compiled (a fork copies them) and answers its first request
in milliseconds, not seconds."""

import signal

signal.signal(signal.SIGINT, signal.SIG_IGN)  # first: Ctrl-C reaches the whole process group, the server decides

from ..cards import Shoe  # noqa: E402
from . import api  # noqa: E402

for asked in ({"rules": "catalog"}, {"rules": "catalog", "card_level": False}, {"rules": "standard"}):
    api.tracker(asked | {"decks": 8}, api.Limits())
api.catalogue(Shoe.decks(8))  # the designer's list beside a bet
