"""The exact routes from a shoe to every bet's line counts, and the one place that chooses among
them (``choose`` for a rule set and a question, ``counts`` for each bet's lines): the
enumerator's cells, the card-level polynomials (``cardcount``), closed forms (``closedforms``),
a rule set's compiled polynomials for many shoes (``batch``, on the counting ``basis``) and its
plan for one shoe in Python integers (``lean``), the patterns of a multiplied bet's counted
cards (``multipliers``), kept on disk by ``plancache``. Every shortcut
carries its proof in its docstring and is tested equal to the enumerator. It imports ``bets``,
``game`` and ``base``. A new route goes here, and into ``choose``."""
