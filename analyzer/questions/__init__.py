"""The questions asked of a shoe and a rule set: every bet's figures (``analysis``, the library's
front door), the rule file's check (``check``), the effect of removal (``eor``), the advantage
of knowing cards (``advantage``), runs (``runs``), simulated shoes dealt to the cut card
(``simulate``, a studio's draws in ``drawn``), par sheets (``parsheet``), the fee or multiplier
chance that hits a target (``targets``) and chemin de fer as a game (``chemin``). They ask
``routes`` for their numbers and import the floors below it, nothing of the pit or the outside.
A new question about one shoe goes here."""
