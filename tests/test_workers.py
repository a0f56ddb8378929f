"""The side job: a function computed by a second process while the caller goes on.

A side job forks only a process that runs no other thread (a fork copies one thread and
whatever locks the others held), and the test session runs some (a Dask cluster's): the tests
that fork run in a fresh interpreter."""

import os
import subprocess
import sys
import textwrap

import pytest

from analyzer.base.workers import Background, WorkerDied, cores

two_cores = pytest.mark.skipif(cores() < 2, reason="a side job runs in the caller on one core")


def fresh(code: str) -> list[str]:
    """What ``code`` prints, run in a new interpreter (one thread) with Background at hand."""
    prelude = ("import os, signal\nfrom analyzer.game.cards import BaccaratError\n"
               "from analyzer.base.workers import Background, WorkerDied\n")
    done = subprocess.run([sys.executable, "-c", prelude + textwrap.dedent(code)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


@two_cores
def test_the_job_runs_in_another_process_and_gives_its_value():
    assert fresh("""
        with Background(lambda: (os.getpid(), sum(range(10**6)))) as job:
            pid, value = job.result()
        print(pid != os.getpid(), value)
    """) == ["True 499999500000"]


def test_a_job_not_worth_a_process_runs_here_when_asked():
    calls = []
    with Background(lambda: calls.append(os.getpid()) or "done", worth_a_process=False) as job:
        assert calls == []  # not yet
        assert job.result() == "done" and calls == [os.getpid()]


def test_a_process_running_other_threads_computes_the_job_itself():
    assert fresh("""
        import threading
        threading.Thread(target=signal.pause, daemon=True).start()
        with Background(lambda: os.getpid()) as job:
            print(job.pool is None, job.result() == os.getpid())
    """) == ["True True"]


@two_cores
def test_the_job_raises_what_it_raised():
    assert fresh("""
        def fails():
            raise BaccaratError("effect of removal needs a shoe of at least 7 cards (this one has 6)")

        with Background(fails) as job:
            try:
                job.result()
            except BaccaratError as error:
                print(job.pool is not None, error)
    """) == ["True effect of removal needs a shoe of at least 7 cards (this one has 6)"]


@two_cores
def test_a_job_killed_under_us_is_reported_and_nothing_outlives_the_block():
    assert fresh("""
        with Background(signal.pause) as job:
            process = job.pool.processes[0]
            os.kill(process.pid, signal.SIGKILL)
            try:
                job.result()
            except WorkerDied as died:
                print(died)
        print(process.is_alive())
    """) == [str(WorkerDied(-9)), "False"]


@two_cores
def test_leaving_the_block_stops_an_unfinished_job():
    assert fresh("""
        with Background(signal.pause) as job:
            process = job.pool.processes[0]
        print(process.is_alive(), process.exitcode == -signal.SIGKILL)
    """) == ["False True"]
