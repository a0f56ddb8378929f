"""Bets as data: a bet's pay lines (``bet``: Bet, Line, RuleSet, and a bet's figures from its line
counts), the conditions a line reads (``conditions``, ``cardtests`` for single cards and groups
of cards), payouts and amounts (``amounts``, ``symbolic`` for payouts named by a symbol), bets
across coups (``series``), fees and random multipliers (``overlay``: what a drawn table is worth
for each pattern of identical cards), count systems (``counting``), and rule files in TOML with the
built-in rule sets (``rulefile``, ``rules/*.toml``: the catalogue). It imports ``game`` and
``base``, never a route that counts: a new bet field goes to ``conditions`` (or ``cardtests``),
a new bet to ``rules/catalog.toml``."""
