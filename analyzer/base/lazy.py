"""Imports put off until first use: a package's names that live in its modules (``import
analyzer`` and ``baccarat --version`` then load no numpy), and a module imported at its first
attribute (a command loads only what it computes with: a value-level ``edge`` none of the
card-level counting, nor the compiled route of many shoes)."""

import importlib


def exports(package: str, homes: dict[str, tuple[str, ...]], own: tuple[str, ...] = (), moved: dict | None = None):
    """(``__getattr__``, ``__dir__``, ``__all__``) for ``package``: each name of ``homes``
    (module -> names) imported from its module at first use; ``own`` names defined in the
    package itself; ``moved`` (old name -> module) modules that moved into a subpackage, still
    found by their old names (``from analyzer import batch``), outside ``__all__``.

    >>> getattr_, dir_, all_ = exports("analyzer", {"game.cards": ("Shoe",)}, own=("BUILT_IN",))
    >>> getattr_("Shoe").__name__, all_
    ('Shoe', ['BUILT_IN', 'Shoe'])
    """
    home = {name: module for module, names in homes.items() for name in names}

    def __getattr__(name):
        if name in home:
            return getattr(importlib.import_module(f".{home[name]}", package), name)
        if moved and name in moved:
            return importlib.import_module(f".{moved[name]}", package)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def __dir__():
        return sorted(set(vars(importlib.import_module(package))) | set(home))

    return __getattr__, __dir__, [*own, *home]


class LazyModule:
    """Module ``name``, imported at its first attribute: `baccarat --version` and `--help` then
    start without numpy or the engine (a third of the start-up time of a command), and a module
    that needs another only for some of its work imports it when that work comes. A plain
    import on each use (a dictionary look-up once loaded), so it is thread-safe and the module
    is an attribute of its package as usual. It copies and pickles as its name:

    >>> import copy, pickle
    >>> copy.copy(LazyModule("json")).dumps([1]), pickle.loads(pickle.dumps(LazyModule("json"))).name
    ('[1]', 'json')
    """

    def __init__(self, name: str):
        self.name = name

    def __getattr__(self, attribute: str):
        if "name" not in self.__dict__:  # a copy or an unpickling, before its state is set: not the module's
            raise AttributeError(attribute)
        module = importlib.import_module(self.name)
        if hasattr(module, "__path__") and not attribute.startswith("_") and not hasattr(module, attribute):
            return importlib.import_module(f"{self.name}.{attribute}")  # a module of the package, not yet imported
        return getattr(module, attribute)
