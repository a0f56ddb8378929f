"""Benchmark: the speed figures of docs/speed.md (start-up, one analysis, batch, load).

Run: python scripts/bench_speed.py [--repeat N] [--before PATH] [--only PART,...]

- one full exact analysis of a shoe never seen before (every value-level bet of the catalogue,
  48 bets, each EV an exact Fraction), in process: the compiled polynomials (bets.analyse once
  the rule set is compiled) and the enumerator, interleaved on the same new shoes; the one-off
  compile, timed in a fresh interpreter;
- whole processes, interleaved: `baccarat --version`, `--help`, `edge --decks 8`, `batch` on a
  file of 10,000 shoes and on a file of 2 (median wall clock and peak memory); with --before, the
  same commands of another install (e.g. the code before this change) run in turn with them;
- batch in process: states a second on 50,000 shoe states taken from dealt 8-deck shoes;
- under load: compiling the catalogue (fresh interpreter) and a 100-shoe batch, quiet and with
  two CPU-bound processes beside them, interleaved;
- simulate: 8-deck shoes, cut card 14, every coup of the catalogue exact, on 2 workers (and
  with --before, the other install's, in turn).
"""

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_batch import shoe_states  # scripts/ is on the path when this runs as a script
from bench_cards import baccarat_command, interleaved

from analyzer.routes.batch import compile_rules, evaluate_many
from analyzer.questions.analysis import analyse, enumerated
from analyzer.game.cards import Shoe
from analyzer.game.engine import _enumerate
from analyzer.bets.rulefile import get_rules

CATALOG = get_rules("catalog").value_level()  # the card-level bets: scripts/bench_cards.py
COMPILE = ("import time; from analyzer.bets.rulefile import get_rules; from analyzer.routes.batch import compile_rules; "
           "r = get_rules('catalog').value_level(); t = time.perf_counter(); compile_rules(r); print(time.perf_counter() - t)")


def new_shoes(count: int, seed: int) -> list[Shoe]:
    """8-deck shoes with 0 to 300 random cards gone: each one new to every cache."""
    rng = random.Random(seed)
    shoes = []
    for _ in range(count):
        cards = [kind for kind in range(52) for _ in range(8)]
        rng.shuffle(cards)
        left = [[0] * 4 for _ in range(13)]
        for kind in cards[rng.randrange(301):]:
            left[kind // 4][kind % 4] += 1
        shoes.append(Shoe(tuple(map(tuple, left))))
    return shoes


def peak_memory(command) -> float:
    """Peak resident memory (MB) of one whole process, started from a small Python (a child
    forked from this large process would count this one's memory until it execs)."""
    code = ("import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL, "
            "stderr=subprocess.DEVNULL); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    return int(subprocess.run([sys.executable, "-S", "-c", code] + command, check=True, capture_output=True,
                              text=True).stdout) / 1024


def median_ms(times) -> str:
    return f"{statistics.median(times) * 1000:.2f} ms"


def one_analysis(repeat: int):
    compiles = [float(subprocess.run([sys.executable, "-c", COMPILE], check=True, capture_output=True,
                                     text=True).stdout) for _ in range(3)]
    compile_rules(CATALOG)
    poly, enum = [], []
    for shoe in new_shoes(repeat * 20, seed=len(poly)):
        start = time.perf_counter()
        [r.ev for r in analyse(CATALOG, shoe)]
        poly.append(time.perf_counter() - start)
        if len(enum) < repeat * 4:
            _enumerate.cache_clear()
            start = time.perf_counter()
            [r.ev for r in enumerated(CATALOG, shoe)]
            enum.append(time.perf_counter() - start)
    print(f"one full analysis of a new 8-deck shoe, {len(CATALOG.bets)} bets, exact EVs (median of {len(poly)}): "
          f"{median_ms(poly)} compiled; the enumerator {median_ms(enum)} "
          f"({statistics.median(enum) / statistics.median(poly):.1f}x); compile once: "
          f"{statistics.median(compiles) * 1000:.0f} ms (fresh interpreter, median of 3)")


def processes(repeat: int, before: str | None):
    states = shoe_states(10_000)
    with tempfile.TemporaryDirectory() as tmp:
        files = {}
        for name, rows in (("10k", states), ("2", states[:2])):
            files[name] = Path(tmp) / f"shoes-{name}.txt"
            files[name].write_text("\n".join(",".join(map(str, r)) for r in rows.sum(2).tolist()) + "\n")
        installs = {"now": baccarat_command()} | ({"before": [before]} if before else {})
        jobs = {}
        for label, base in installs.items():
            jobs |= {(label, "--version"): base + ["--version"], (label, "--help"): base + ["--help"],
                     (label, "edge --decks 8"): base + ["edge", "--decks", "8"],
                     (label, "batch, 2 shoes"): base + ["batch", str(files["2"])],
                     (label, "batch, 10,000 shoes"): base + ["batch", str(files["10k"])]}
        small = {job: command for job, command in jobs.items() if "10,000" not in job[1]}
        times = interleaved(small, repeat) | interleaved({job: jobs[job] for job in jobs if job not in small},
                                                         max(3, repeat // 3))
        memory = {job: max(peak_memory(command) for _ in range(2)) for job, command in jobs.items()}
        code = ("import sys, time, numpy as np; from analyzer.bets.rulefile import get_rules; "
                "from analyzer.routes.batch import evaluate_many; r = get_rules('catalog').value_level(); "
                f"s = np.loadtxt({str(files['10k'])!r}, delimiter=',', dtype=np.int64); t = time.perf_counter(); "
                "evaluate_many(r, s); print(time.perf_counter() - t)")
        in_process = {label: [] for label in installs}
        for _ in range(5):
            for label, base in installs.items():
                python = str(Path(base[0]).with_name("python")) if label == "before" else sys.executable
                in_process[label].append(float(subprocess.run([python, "-c", code], check=True, capture_output=True,
                                                              text=True).stdout))
    for (label, name), values in times.items():
        print(f"{label:>6} `baccarat {name}` whole process: {median_ms(values)} (median of {len(values)}), "
              f"peak {memory[(label, name)]:.0f} MB")
    for label, values in in_process.items():
        whole = statistics.median(times[(label, "batch, 10,000 shoes")])
        print(f"{label:>6} batch of 10,000 shoes in process (compile included, fresh interpreter): {median_ms(values)}; "
              f"the whole `baccarat batch` process is {whole / statistics.median(values):.1f}x that")


def batch_rate(repeat: int):
    compile_rules(CATALOG)
    states = shoe_states(50_000)
    evaluate_many(CATALOG, states[:1000])
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        evaluate_many(CATALOG, states)
        times.append(time.perf_counter() - start)
    print(f"batch in process: {len(states):,} shoe states in {median_ms(times)} (median of {repeat}): "
          f"{len(states) / statistics.median(times):,.0f} states/s")


def under_load(repeat: int):
    compile_rules(CATALOG)
    states = shoe_states(6_000)
    samples = [states[i * 100:(i + 1) * 100] for i in range(60)]
    quiet = {"compile": [], "batch of 100": []}
    loaded = {"compile": [], "batch of 100": []}
    for i in range(repeat):
        for table, burners in ((quiet, 0), (loaded, 2)):
            busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(burners)]
            try:
                time.sleep(0.2 if burners else 0)
                table["compile"].append(float(subprocess.run([sys.executable, "-c", COMPILE], check=True,
                                                             capture_output=True, text=True).stdout))
                start = time.perf_counter()
                evaluate_many(CATALOG, samples[i % len(samples)])
                table["batch of 100"].append(time.perf_counter() - start)
            finally:
                for process in busy:
                    process.kill()
                    process.wait()
    for name in quiet:
        q, l = statistics.median(quiet[name]), statistics.median(loaded[name])
        print(f"{name}: quiet {q * 1000:.1f} ms, beside two busy processes {l * 1000:.1f} ms ({l / q:.1f}x; "
              f"median of {repeat} each, interleaved)")


def simulate_rate(shoes: int, before: str | None):
    code = ("import sys, time; from analyzer.bets.rulefile import get_rules; from analyzer.questions.simulate import Deal, simulate; "
            "r = get_rules('catalog').value_level(); t = time.perf_counter(); "
            f"sim = simulate(r, Deal(8, 14, 'face'), {shoes}, 1, workers=2); "
            "print(time.perf_counter() - t, sim.tally.coups)")
    pythons = {"now": sys.executable} | ({"before": str(Path(before).with_name("python"))} if before else {})
    runs = {label: [] for label in pythons}
    for _ in range(3):
        for label, python in pythons.items():
            seconds, coups = subprocess.run([python, "-c", code], check=True, capture_output=True, text=True).stdout.split()
            runs[label].append(float(seconds))
    for label, values in runs.items():
        seconds = statistics.median(values)
        print(f"{label:>6} simulate: {shoes:,} shoes ({int(coups):,} coups) in {seconds:.1f} s on 2 workers (median of 3, "
              f"compile included): {shoes / seconds:,.0f} shoes/s, {int(coups) / seconds:,.0f} coups/s")


PARTS = {"analysis": one_analysis, "processes": processes, "batch": batch_rate, "load": under_load, "simulate": simulate_rate}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--before", metavar="PATH", help="another install's baccarat, run in turn with this one")
    parser.add_argument("--shoes", type=int, default=4000, help="shoes for the simulate measurement")
    parser.add_argument("--only", default=",".join(PARTS), help=f"parts to run: {', '.join(PARTS)}")
    args = parser.parse_args()
    print(f"cores: {os.cpu_count()}")
    for part in args.only.split(","):
        if part == "processes":
            processes(args.repeat, args.before)
        elif part == "simulate":
            simulate_rate(args.shoes, args.before)
        else:
            PARTS[part](args.repeat)


if __name__ == "__main__":
    main()
