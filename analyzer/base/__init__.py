"""The plumbing every floor may use, and nothing of baccarat: errors (``BaccaratError`` and the
one-line messages a command prints), exact numbers as text (``numbers``: percents, decimals, JSON
with ``"p/q"`` strings), imports put off until first use (``lazy``), small bounded caches
(``recent``), reading a user's files (``userfiles``), stop signals (``signals``) and worker
processes with limits (``workers``). Its modules import only the standard library and one
another; every other floor may import them."""
