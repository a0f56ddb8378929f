"""`baccarat` and `python -m analyzer`: a stop signal is noted from the first moment (importing
the command line takes a fraction of a second), then the command line runs and honours it."""

import signal

EARLY = []  # stop signals received before the command line took over


def note(signum, frame):
    EARLY.append(signum)


def main():
    for name in ("SIGINT", "SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), note)
    from . import cli

    cli.EARLY_SIGNALS = EARLY
    cli.cli(prog_name="baccarat")


if __name__ == "__main__":
    main()
