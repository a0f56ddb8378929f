"""Local worker processes that stop when told: a pool small enough to reason about.

Each worker has a pipe of its own and one task at a time; the parent hands out tasks, reads
results as they come and gives them back in task order (so sums are the same floats on any
number of workers), with at most ``ahead`` tasks out or waiting, so memory stays bounded however
many tasks there are. No thread runs in the background, so nothing can hang the interpreter's
exit. On any exception on the way (Ctrl-C, a signal the CLI turned into one, a worker's own
error) the workers are killed and reaped before it goes on; a worker that dies under the pool
(the out-of-memory killer) is reported as :class:`WorkerDied` with how it died. Workers ignore
Ctrl-C (the terminal sends it to the whole process group: the parent decides) and die with the
parent however it ends (Linux: PR_SET_PDEATHSIG).
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from multiprocessing import get_all_start_methods, get_context
from multiprocessing.connection import wait

from .signals import STOP_SIGNALS, signals_held


class WorkerDied(Exception):
    """A worker process ended while it held a task."""

    def __init__(self, exitcode):
        super().__init__(f"a worker process died ({how_it_ended(exitcode)})")


def how_it_ended(exitcode) -> str:
    """
    >>> how_it_ended(-9), how_it_ended(3)
    ('killed by SIGKILL, as the out-of-memory killer does', 'exit status 3')
    """
    if exitcode is None or exitcode >= 0:
        return f"exit status {exitcode}"
    name = signal.Signals(-exitcode).name if -exitcode in signal.valid_signals() else f"signal {-exitcode}"
    return f"killed by {name}" + (", as the out-of-memory killer does" if name == "SIGKILL" else "")


def serve(connection, function, setup, parent: int):
    """A worker's life: take a task, send back (True, result) or (False, the exception), until
    the pipe closes."""
    as_worker(parent)
    if setup:
        setup()
    while True:
        try:
            task = connection.recv()
        except (EOFError, OSError):
            return
        try:
            reply = (True, function(task))
        except BaseException as error:  # the parent raises it (a worker prints no traceback of its own)
            reply = (False, error if isinstance(error, Exception) else RuntimeError(f"{type(error).__name__} in a worker"))
        try:
            connection.send(reply)
        except Exception as error:  # an exception or result that does not pickle
            connection.send((False, RuntimeError(f"{type(error).__name__}: {error}")))


def as_worker(parent: int):
    """A worker process's signals: Ctrl-C ignored (the terminal sends it to the whole process
    group: the parent decides), SIGTERM and SIGHUP back to their defaults (a forked worker
    inherits the command line's handlers), the stop signals it was born holding let through;
    and it dies with ``parent``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for caught in STOP_SIGNALS:
        if caught != signal.SIGINT:
            signal.signal(caught, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
    die_with_parent(parent)


def die_with_parent(parent: int):
    """Ask Linux to kill this process when its parent ends (elsewhere the parent's own clean-up
    still stops it); exit at once if the parent is gone already."""
    if sys.platform.startswith("linux"):
        import ctypes  # Linux only

        PR_SET_PDEATHSIG = 1
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(1)


class Workers:
    """``count`` processes that each run ``function(task)``, after ``setup()`` once. Forked
    where the platform can (the function and its data are inherited, not pickled), spawned
    elsewhere. Use as a context manager: leaving the block stops every worker."""

    def __init__(self, count: int, function, setup=None):
        context = get_context("fork" if "fork" in get_all_start_methods() else "spawn")
        self.processes, self.connections = [], []
        with signals_held():  # each worker is born with them held until it has set its own handling
            for _ in range(count):
                mine, theirs = context.Pipe()
                process = context.Process(target=serve, args=(theirs, function, setup, os.getpid()), daemon=True)
                self.processes.append(process)
                self.connections.append(mine)
                process.start()
                theirs.close()  # the worker's end lives in the worker only: its death is our EOF

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, *exc):
        self.stop()

    def stop(self):
        """Kill every worker now and reap it; what is left of their work is dropped. A second
        Ctrl-C waits until this is done."""
        with signals_held():
            for process in self.processes:
                if process.is_alive():
                    process.kill()
            for process, connection in zip(self.processes, self.connections):
                process.join(timeout=5)
                connection.close()

    def results(self, tasks, ahead: int):
        """(task, result) for every task, in task order; at most ``ahead`` tasks out or waiting
        to be given back at a time."""
        tasks = iter(tasks)
        idle = list(range(len(self.processes)))
        out = {}  # worker -> (number, task)
        done = {}  # number -> (task, result), waiting for the ones before it
        handed = given = 0
        exhausted = False
        while True:
            while idle and not exhausted and handed - given < ahead:
                task = next(tasks, None)
                if task is None:
                    exhausted = True
                    break
                worker = idle.pop()
                try:
                    self.connections[worker].send(task)
                except OSError:  # it died idle
                    self.processes[worker].join(timeout=5)
                    raise WorkerDied(self.processes[worker].exitcode) from None
                out[worker] = (handed, task)
                handed += 1
            if given in done:
                yield done.pop(given)
                given += 1
                continue
            if not out:
                return
            busy = list(out)
            ready = set(wait([self.connections[w] for w in busy] + [self.processes[w].sentinel for w in busy]))
            for worker in busy:
                if self.connections[worker] in ready:
                    try:
                        ok, value = self.connections[worker].recv()
                    except (EOFError, OSError):
                        self.processes[worker].join(timeout=5)
                        raise WorkerDied(self.processes[worker].exitcode) from None
                    if not ok:
                        raise value
                    number, task = out.pop(worker)
                    done[number] = (task, value)
                    idle.append(worker)
                elif self.processes[worker].sentinel in ready:
                    self.processes[worker].join(timeout=5)
                    raise WorkerDied(self.processes[worker].exitcode)


class Background:
    """``function()`` computed in one worker process while the caller goes on with other work;
    :meth:`result` waits for it (and raises what it raised). Where it is not worth a process, a
    process cannot be forked (or this one runs other threads, which a fork would not copy) or
    the machine has one core, the caller computes it itself, when asked. Use as a context
    manager: leaving the block stops the worker, done or not."""

    def __init__(self, function, setup=None, worth_a_process: bool = True):
        self.function, self.pool = function, None
        forks = "fork" in get_all_start_methods() and threading.active_count() == 1
        if worth_a_process and forks and cores() > 1:
            self.pool = Workers(1, lambda _: function(), setup)
            self.pool.connections[0].send(None)

    def __enter__(self) -> Background:
        return self

    def __exit__(self, *exc):
        if self.pool:
            self.pool.stop()

    def result(self):
        if self.pool is None:
            return self.function()
        connection, process = self.pool.connections[0], self.pool.processes[0]
        wait([connection, process.sentinel])
        try:
            ok, value = connection.recv()
        except (EOFError, OSError):
            process.join(timeout=5)
            raise WorkerDied(process.exitcode) from None
        if not ok:
            raise value
        return value


def cores() -> int:
    """The cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
