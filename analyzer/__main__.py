"""`baccarat` and `python -m analyzer`: a stop signal is noted from the first moment (importing
the command line takes a fraction of a second), then the command line runs and honours it."""

import signal
import sys

EARLY = []  # stop signals received before the command line took over


def note(signum, frame):
    EARLY.append(signum)


def main():
    if sys.argv[1:] == ["--version"]:  # what click's version option prints, without importing click (a third of the time)
        from . import __version__

        try:
            sys.stdout.write(f"baccarat, version {__version__}\n")
            sys.stdout.flush()
        except OSError as exc:  # as the command line says it (cli.answered)
            sys.stderr.write(f"Error: cannot write the output: {exc.strerror or exc}\n")
            sys.stdout = None  # nothing left to flush at exit
            sys.exit(1)
        return
    from .base.signals import STOP_SIGNALS  # the signal module and a dictionary: nothing to wait for

    for s in STOP_SIGNALS:
        signal.signal(s, note)
    from .cli import common  # after the handlers are set: importing the command line takes a fraction of a second

    common.EARLY_SIGNALS = EARLY
    common.cli(prog_name="baccarat")


if __name__ == "__main__":
    main()
