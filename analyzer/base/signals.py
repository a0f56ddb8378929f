"""The signals that stop a command: Ctrl-C (SIGINT), SIGTERM and SIGHUP. One list for the command
line, which stops on them with one line; for the worker processes, which leave them to their
parent; and for the few steps that a signal must not cut in two (renaming a report into place,
starting or stopping workers), which hold them until they are done."""

from __future__ import annotations

import signal
from contextlib import contextmanager

STOP_SIGNALS = {getattr(signal, name): said for name, said in (  # signal -> how the command line says it
    ("SIGINT", "interrupted (Ctrl-C)"), ("SIGTERM", "terminated (SIGTERM)"), ("SIGHUP", "hung up (SIGHUP)"))
    if hasattr(signal, name)}


@contextmanager
def signals_held():
    """Hold the stop signals until the block is done (they are delivered after it; a process
    forked inside the block starts with them held)."""
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS) if hasattr(signal, "pthread_sigmask") else None
    try:
        yield
    finally:
        if previous is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, previous)
