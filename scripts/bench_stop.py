"""How fast `baccarat simulate` stops on Ctrl-C and SIGTERM with its 2 worker processes, and
whether any process outlives it: the figures of issue 15 (stop within 1 s, no orphans).

    python scripts/bench_stop.py [--runs 5] [--before PATH]

Each run starts `simulate --shoes 1000000000 --workers 2` in a session of its own, waits until
both workers exist and a few seconds of dealing have passed, sends the signal (Ctrl-C to the
whole process group, as a terminal does; SIGTERM to the command alone, as `kill` does) and
times the exit. ``--before`` is another install's `baccarat` executable, run interleaved with
this one (the machine is shared and noisy), with a 60 s cap on each wait.
"""

import argparse
import os
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path


def children(pid: int) -> list[int]:
    try:
        return [int(c) for t in os.listdir(f"/proc/{pid}/task")
                for c in Path(f"/proc/{pid}/task/{t}/children").read_text().split()]
    except OSError:
        return []


def alive(group: int) -> int:
    """Processes of the group still running (zombies excluded)."""
    count = 0
    for entry in filter(str.isdigit, os.listdir("/proc")):
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        count += int(fields[2]) == group and fields[0] != "Z"
    return count


def one_run(command: list[str], how: str, settle: float) -> tuple[float, int, int, int]:
    """(seconds from signal to exit, exit status, lines on stderr after the progress label,
    processes of the group left 1 s after the exit)."""
    process = subprocess.Popen(command + ["simulate", "--shoes", "1000000000", "--workers", "2", "--rules", "standard"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    while len(children(process.pid)) < 2:
        time.sleep(0.02)
    time.sleep(settle)  # let the workers get deep into their chunks
    start = time.monotonic()
    if how == "ctrl-c":
        os.killpg(process.pid, signal.SIGINT)
    else:
        os.kill(process.pid, signal.SIGTERM)
    try:
        _, err = process.communicate(timeout=60)
        elapsed = time.monotonic() - start
    except subprocess.TimeoutExpired:
        elapsed = float("inf")
        os.killpg(process.pid, signal.SIGKILL)
        _, err = process.communicate()
    time.sleep(1)
    left = alive(process.pid)
    if left:
        os.killpg(process.pid, signal.SIGKILL)
    lines = [line for line in err.decode().splitlines() if not line.startswith(("Note:", "Dealing shoes"))]
    return elapsed, process.returncode, len(lines), left


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--settle", type=float, default=3.0, help="seconds of dealing before the signal")
    parser.add_argument("--before", help="another install's baccarat executable, measured interleaved")
    args = parser.parse_args()
    installs = {"now": [sys.executable, "-m", "analyzer"]}
    if args.before:
        installs = {"before": [args.before], **installs}
    results = {(name, how): [] for name in installs for how in ("ctrl-c", "sigterm")}
    for _ in range(args.runs):
        for how in ("ctrl-c", "sigterm"):
            for name, command in installs.items():
                results[name, how].append(one_run(command, how, args.settle))
    print(f"{'install':8} {'signal':8} {'median s':>9} {'max s':>7}  exit statuses  stderr lines  processes left")
    for (name, how), runs in results.items():
        times = [r[0] for r in runs]
        print(f"{name:8} {how:8} {statistics.median(times):9.2f} {max(times):7.2f}  "
              f"{sorted({r[1] for r in runs})!s:13}  {sorted({r[2] for r in runs})!s:12}  {sum(r[3] for r in runs)}")


if __name__ == "__main__":
    main()
