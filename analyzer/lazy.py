"""A package's names that live in its modules, each module imported when one of its names is
first used: ``import analyzer`` (and ``baccarat --version``) then loads no numpy."""

import importlib


def exports(package: str, homes: dict[str, tuple[str, ...]], own: tuple[str, ...] = ()):
    """(``__getattr__``, ``__dir__``, ``__all__``) for ``package``: each name of ``homes``
    (module -> names) imported from its module at first use; ``own`` names defined in the
    package itself.

    >>> getattr_, dir_, all_ = exports("analyzer", {"cards": ("Shoe",)}, own=("BUILT_IN",))
    >>> getattr_("Shoe").__name__, all_
    ('Shoe', ['BUILT_IN', 'Shoe'])
    """
    home = {name: module for module, names in homes.items() for name in names}

    def __getattr__(name):
        if name in home:
            return getattr(importlib.import_module(f".{home[name]}", package), name)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def __dir__():
        return sorted(set(vars(importlib.import_module(package))) | set(home))

    return __getattr__, __dir__, [*own, *home]
