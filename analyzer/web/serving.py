"""The server behind `baccarat serve`: waitress for HTTP, worker processes for the computation.

Why these two. A request costs milliseconds of CPU in Python, so one interpreter serves one core
at a time: the computation goes to ``workers`` processes of their own (every core serves), each
answering one request at a time (api.answer), with a time limit and a memory limit, and replaced
when it breaks one. HTTP stays in this process, in waitress: a production WSGI server in pure
Python (no compiled part, on every platform), well kept, which reads a whole request before it
hands it to a thread, so a slow or abandoned client holds a connection and no thread; it also
tells a thread when its client has gone (``waitress.client_disconnected``), which is how a
computation nobody waits for any more is stopped. gunicorn forks its workers too, but runs HTTP
in them: a slow client would hold one of two workers, and a worker killed at its time limit
answers nothing.

Workers are forked from a fork server, itself a fresh interpreter (fork and exec), never from
this threaded process (a process forked from a threaded one may inherit a lock some other thread
held); the fork server ignores Ctrl-C, and has already imported
the library and compiled the rule sets the page opens with (analyzer.web.warm), so every worker,
and every replacement, starts warm.

Memory: a worker's address space is limited to ``memory`` bytes (setrlimit: a request past it
fails with MemoryError, is answered 503, and its worker replaced), and a worker whose resident
memory has grown past ``memory // 2`` after a request (caches filled by many rule files) is
replaced by a fresh one. So the workers hold at most ``workers * memory`` together, whatever the
requests; the fork server and this process are measured: see server_memory.
"""

from __future__ import annotations

import logging
import os
import queue
import signal
import socket
import sys
import threading
import time
from dataclasses import dataclass
from multiprocessing import get_all_start_methods, get_context
from multiprocessing.connection import wait

from . import api
from ..base.signals import STOP_SIGNALS, signals_held
from ..base.workers import as_worker, cores, how_it_ended

log = logging.getLogger("analyzer.web")

MEMORY = 1024 * 2**20  # bytes of address space a worker may have (its resident memory is less)
CONNECTIONS = 400  # connections open at once; one idle for 10 s is closed
THREADS_PER_WORKER = 4
TALLY = 10.0  # seconds between two workings-out of today's results by the server's tally process
TALLY_NAME = "baccarat-tally"  # the tally process's name in the process table

# What the HTTP process holds at most: about 50 MB of its own, and per connection a request (waitress keeps
# 512 KB of a body in memory, the rest in a file; headers at most 16 KB) and an answer (tens of KB).
FRONT_MEMORY = 384 * 2**20


@dataclass(frozen=True)
class Settings:
    """How the server runs (the limits of one request are api.Limits)."""

    workers: int = 0  # worker processes (0: one per core)
    time_limit: float = 10.0  # seconds a request's computation may take
    memory: int = MEMORY  # bytes of address space of each worker

    def count(self) -> int:
        return self.workers or cores()


def server_memory(settings: Settings) -> int:
    """The most the whole server holds: each worker and the tally process within its address
    space; the fork server, which holds what a worker starts with (about 140 MB: measured, not
    limited), within as much; and the HTTP process within FRONT_MEMORY (measured: tests/test_web.py)."""
    return (settings.count() + 2) * settings.memory + FRONT_MEMORY


# A worker process -------------------------------------------------------------------------

def work(connection, limits: api.Limits, memory: int):
    """A worker's life: answer each (path, body) sent with (status, JSON text, retiring) until the
    pipe closes; retire (exit after answering) when resident memory passes half the limit."""
    as_worker(os.getppid())  # its parent: the fork server, which ends with the server
    limit_memory(memory)
    while True:
        try:
            path, data = connection.recv()
        except (EOFError, OSError):
            return
        status, payload = api.answer(path, data, limits)
        retiring = status == 503 or resident() > memory // 2  # 503: out of memory, its state is not to be trusted
        try:
            connection.send((status, payload, retiring))
        except (BrokenPipeError, OSError):
            return
        if retiring:
            return


def limit_memory(memory: int):
    """Limit this process's address space (where the platform can)."""
    try:
        import resource  # POSIX only
    except ImportError:
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard == resource.RLIM_INFINITY or hard > memory:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))


def resident() -> int:
    """This process's resident memory in bytes (Linux: /proc; elsewhere its peak so far)."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        import resource

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak if sys.platform == "darwin" else peak * 1024


def tally(url: str, every: float, memory: int, server):
    """The tally process's life: every ``every`` seconds, work out today's results (since this
    machine's midnight, every table) from the pit's store at ``url`` and keep them there as the
    answer the screens read (web/pit.py: Pit.results), each coup's variance kept with them
    (results.py), so that neither the overview nor the shift's results at its end work them out
    in the HTTP process. A bad moment (the database away) is tried again at the next. It ends
    with the server: ``server`` is the end of a pipe the server holds the other end of, and
    closes when the server ends, however it ends (its fork server, this process's parent, may
    outlive a server killed with SIGKILL: dying with the parent is not enough)."""
    as_worker(os.getppid())
    limit_memory(memory)
    try:  # its name in the process table (Linux), where a worker's is python's
        with open("/proc/self/comm", "w") as comm:
            comm.write(TALLY_NAME)
    except OSError:
        pass
    from .pit import today_results

    store = None
    while not server.poll(every):  # nothing is ever sent: the pipe readable is the server gone
        try:
            from ..pit.store import Store

            store = store or Store(url, create=False)
            today_results(store)
        except Exception as error:  # noqa: BLE001 - one line in the server's log, and again later
            log.warning("the tally could not work out today's results: %s", str(error).splitlines()[0])


# The pool of workers ----------------------------------------------------------------------

class Worker:
    """A worker process and our end of its pipe. Started with the stop signals held (by
    Pool.start, which also records it before they are let through)."""

    def __init__(self, context, limits: api.Limits, memory: int):
        self.connection, theirs = context.Pipe()
        self.process = context.Process(target=work, args=(theirs, limits, memory), daemon=True)
        self.process.start()
        theirs.close()  # the worker's end lives in the worker only: its death is our EOF
        self.lock, self.stopped = threading.Lock(), False

    def stop(self):
        """Kill it and close our end, once: a request's thread and the server's stop may both ask."""
        with self.lock:
            if self.stopped:
                return
            self.stopped = True
            if self.process.is_alive():
                self.process.kill()
            self.process.join(timeout=5)
            self.connection.close()


class Pool:
    """Worker processes answering the API's computing requests, one request each at a time. As
    with any multiprocessing: a script that makes one must guard its own work with ``if __name__
    == "__main__":`` (a worker started elsewhere than by fork imports the script's module)."""

    def __init__(self, settings: Settings, limits: api.Limits):
        self.settings, self.limits = settings, limits
        method = "forkserver" if "forkserver" in get_all_start_methods() else "spawn"
        self.context = get_context(method)
        if method == "forkserver":
            self.context.set_forkserver_preload(["analyzer.web.warm"])
            start_fork_server()
        self.idle: queue.Queue[Worker] = queue.Queue()
        self.lock = threading.Lock()
        self.closed = False
        self.replaced = 0  # workers replaced so far (time limit, client gone, memory, died)
        self.workers = []
        try:
            for _ in range(settings.count()):
                self.start()
        except BaseException:  # a stop signal while they start: none left behind
            self.close()
            raise
        for worker in self.workers:
            self.idle.put(worker)

    def start(self, instead: Worker | None = None) -> Worker:
        """A new worker, recorded (in place of ``instead``) before a stop signal can come between:
        close() then finds every worker there is."""
        with signals_held():
            worker = Worker(self.context, self.limits, self.settings.memory)
            with self.lock:
                if instead is None:
                    self.workers.append(worker)
                else:
                    self.workers[self.workers.index(instead)] = worker
                    self.replaced += 1
        return worker

    def pids(self) -> list[int]:
        with self.lock:
            return [w.process.pid for w in self.workers]

    def replace(self, worker: Worker):
        """Stop ``worker`` and put a fresh one in its place (none once the pool is closed)."""
        worker.stop()
        if self.closed:
            return
        fresh = self.start(instead=worker)
        if self.closed:  # closed while it started: close() may not have seen it
            fresh.stop()
            return
        self.idle.put(fresh)

    def answer(self, path: str, data: bytes, gone=lambda: False) -> tuple[int, bytes]:
        """(status, JSON text) of the request, computed by a worker within the time limit; a 503
        where the time limit passed or the server is stopping; where the client has gone (``gone()``
        is true), its computation is stopped too (the answer goes nowhere)."""
        while True:
            worker = self.take(gone)
            if worker is None:
                return 503, api.dumps({"error": "the server is stopping, or the client has gone"})
            try:
                worker.connection.send((path, data))
                break
            except OSError:  # it died idle (the out-of-memory killer, a signal): another in its place
                self.replace(worker)
        deadline = time.monotonic() + self.settings.time_limit
        while True:
            left = deadline - time.monotonic()
            try:
                ready = wait([worker.connection, worker.process.sentinel], timeout=max(0.0, min(0.1, left)))
            except (OSError, ValueError):  # its pipe closed under us: the server is stopping
                ready = [worker.process.sentinel]
            if self.closed:
                return 503, api.dumps({"error": "the server is stopping"})
            if worker.connection in ready:
                try:
                    status, payload, retiring = worker.connection.recv()
                except (EOFError, OSError):
                    pass  # it died as it answered: below
                else:
                    if retiring:
                        self.replace(worker)
                    else:
                        self.idle.put(worker)
                    return status, payload
            if ready:
                worker.process.join(timeout=5)
                how = how_it_ended(worker.process.exitcode)
                self.replace(worker)
                log.warning("a worker died while answering %s (%s); it has been replaced", path, how)
                return 503, api.dumps({"error": f"the worker computing this request died ({how}): ask less of it, "
                                                "or try again"})
            if left <= 0:
                self.replace(worker)
                log.warning("stopped a request to %s after %g s, the time limit; its worker has been replaced",
                            path, self.settings.time_limit)
                return 503, api.dumps({"error": f"the computation took longer than {self.settings.time_limit:g} s, "
                                                "this server's limit: ask less of it (fewer bets, a smaller shoe)"})
            if gone():
                self.replace(worker)
                return 503, api.dumps({"error": "the client has gone"})

    def take(self, gone) -> Worker | None:
        """An idle worker, waiting for one; None when the client has gone or the server is stopping."""
        while not self.closed:
            try:
                return self.idle.get(timeout=0.1)
            except queue.Empty:
                if gone():
                    return None
        return None

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        """Stop every worker now (what they compute is dropped), and the fork server."""
        with self.lock:
            self.closed = True
            workers = list(self.workers)
        with signals_held():
            for worker in workers:
                worker.stop()
            stop_fork_server(self.context)


def start_fork_server():
    """Start the fork server now, so that it warms up while the rest starts. It ignores Ctrl-C
    from the first line of its warm-up (analyzer.web.warm): the server decides. (Ignoring it here
    for the instant of the fork, to have it ignored from its first instant, loses a Ctrl-C that
    comes then: a thread of this process that does not hold signals, such as a BLAS thread, takes
    it and drops it.)"""
    from multiprocessing import forkserver

    forkserver.ensure_running()


def stop_fork_server(context):
    """The fork server ends by itself when this process does, once no worker holds its pipe;
    stopping it here leaves no process behind even for a moment. Killed rather than asked
    (multiprocessing's own stop waits for it without a bound), then reaped."""
    forkserver = getattr(sys.modules.get("multiprocessing.forkserver"), "_forkserver", None)
    pid = getattr(forkserver, "_forkserver_pid", None)
    if context.get_start_method() != "forkserver" or pid is None:
        return
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    stop = getattr(forkserver, "_stop", None)  # reaps it, closes its pipe, forgets it
    if stop is not None:
        try:
            stop()
        except (ChildProcessError, OSError):
            pass


# The server -------------------------------------------------------------------------------

class Server:
    """The application served by waitress on ``host``:``port`` (0: a free port; ``port`` says
    which), its computation in a Pool. ``run()`` serves until an exception (the command line's
    Stopped, on a stop signal) comes out of it; ``close()`` then stops everything. An address that
    cannot be had is an OSError, raised here before any worker starts."""

    def __init__(self, host: str, port: int, limits: api.Limits, token: str | None, settings: Settings,
                 db: str | None = None, write_token: str | None = None, screens: int = 200, allowed_hosts=()):
        from waitress.server import create_server  # the command line loads it only to serve

        from .app import Hosts, create_app
        from .pit import Pit

        self.pit = Pit(db, screens)  # the store first: a database that cannot be opened is one line, before anything runs

        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        listening = socket.create_server((host, port), family=family, backlog=1024)
        try:
            self.pool = Pool(settings, limits)
        except BaseException:  # a stop signal while the workers start, say
            listening.close()
            self.pit.close()
            raise
        with signals_held():  # recorded before a stop signal can come between: close() stops it
            theirs, self.tally_pipe = self.pool.context.Pipe(duplex=False)
            self.tallier = self.pool.context.Process(target=tally, args=(self.pit.store.target, TALLY, settings.memory,
                                                                         theirs), daemon=True, name="tally")
            self.tallier.start()
            theirs.close()  # the tally's end lives in the tally only: this process's end closing is its EOF
        logging.getLogger("waitress.queue").setLevel(logging.ERROR)  # "queue depth": every request waits its turn
        self.connections: dict = {}  # waitress's map of its sockets
        self.http = create_server(
            create_app(limits, token, self.pool, self.pit, write_token, Hosts.serving(host, allowed_hosts)), map=self.connections, sockets=[listening],
            threads=THREADS_PER_WORKER * settings.count() + 8 + screens,  # waiting requests and screens leave threads free
            connection_limit=CONNECTIONS, channel_timeout=10, cleanup_interval=2, channel_request_lookahead=1,
            max_request_body_size=4 * limits.body,  # the app answers past limits.body, in JSON; waitress past this
            max_request_header_size=16 * 1024, ident="baccarat", expose_tracebacks=False)
        self.port = listening.getsockname()[1]

    def run(self, signals=tuple(STOP_SIGNALS)) -> int:
        """Serve until one of ``signals`` comes; return its number. The signal only sets a flag
        that the loop reads between polls (a quarter of a second at most): an exception raised
        from a signal handler inside waitress's loop would be caught there as a connection's error."""
        from waitress import wasyncore

        received = []
        previous = {s: signal.signal(s, lambda signum, frame: received.append(signum)) for s in signals}
        try:
            while not received:
                wasyncore.loop(timeout=0.25, map=self.connections, use_poll=True, count=1)
        finally:
            for s, handler in previous.items():
                signal.signal(s, handler)
        return received[0]

    def close(self):
        self.pit.hub.stop()  # the screens' streams end
        self.pool.close()  # first: a thread waiting on a worker is answered at once
        if self.tallier.is_alive():
            self.tallier.kill()
        self.tallier.join(timeout=5)
        self.tally_pipe.close()
        self.http.task_dispatcher.shutdown(cancel_pending=True, timeout=5)
        from waitress import wasyncore

        wasyncore.close_all(self.connections)
        self.pit.close()
