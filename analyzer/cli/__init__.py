"""The `baccarat` command line: parse options, call the library, render. No arithmetic here.

``common`` holds what every command shares (the group, signals, options, rendering); the
commands live by what they are asked about: one shoe (``shoe``), many shoes and the par sheet
(``shoes``), the pit (``pit``). A new command goes to the module of its kind, with ``@cli.command``.
"""

from . import pit, shoe, shoes  # noqa: F401  (each registers its commands on the group)
from .common import cli, progress_bar  # noqa: F401  (the group; progress, as the tests drive it)
from .shoes import report_command  # noqa: F401  (a report from a request: scripts and tests)
