"""Exact probabilities and house edges for mini baccarat / punto banco.

>>> from analyzer import Shoe, analyse
>>> from analyzer.render import percent
>>> banker = analyse("standard", Shoe.decks(8))[0]
>>> banker.bet.id, percent(banker.house_edge)
('banker', '1.0579%')

The names below are loaded when first used, so that ``import analyzer`` (and ``baccarat
--version``) does not load numpy.
"""

import importlib

__version__ = "0.1.0"

BUILT_IN = ("standard", "commission-4", "tie-9", "no-commission", "ez", "banker-stands-on-6", "catalog")  # rules/*.toml

_HOMES = {
    "analysis": ("analyse", "enumerated", "records"),
    "bets": ("Bet", "BetResult", "Line", "RuleSet", "evaluate", "line", "where"),
    "cards": ("Shoe", "load_shoe", "make_shoe"),
    "engine": ("Distribution", "enumerate_coup"),
    "errors": ("BaccaratError", "RunFailed", "Unsatisfiable"),
    "knowledge": ("Knowledge",),
    "rulefile": ("get_rules", "load_rules", "parse_rules"),
    "tableau": ("PUNTO_BANCO", "Tableau"),
}
_HOME = {name: module for module, names in _HOMES.items() for name in names}
__all__ = ["BUILT_IN", *_HOME]


def __getattr__(name):
    if name in _HOME:
        return getattr(importlib.import_module(f".{_HOME[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_HOME))
