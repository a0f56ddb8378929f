"""The pit: what happens at a table as events (``table``: a shoe, a burn, a coup, a correction,
a void, the cut card, and the figures after each), kept in SQLite or PostgreSQL (``store``),
coups read from text and replayed (``replay``), the scoreboard's roads (``roads``), wagers
(``wagers``), a table's results - handle, win, theoretical win, hold and its SD (``results``) -
and game protection from the wagers (``protect``). It imports the questions and every floor
below; the screens, pages and commands that show it live outside (``views``, ``web``, ``cli``)."""
