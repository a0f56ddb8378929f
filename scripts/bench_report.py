"""Time `baccarat report`: the whole command (default report and the catalogue), interleaved, and
where the time of one report goes (computing, charts, PDF, workbook), in process.

Run: python scripts/bench_report.py [--runs 3] [--catalog] [--against OTHER/bin/baccarat]
Issue 16's aims: the default report <= 3 s; `--rules catalog` with PDF and XLSX <= 10 s.
--against times another install's `baccarat` (e.g. the code before a change, installed in a
venv of its own) in the same rounds, each case run by both in turn.
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one BLAS thread: the machine has two cores
os.environ.setdefault("OMP_NUM_THREADS", "1")


def command(program: str, *args) -> float:
    out = Path(tempfile.mkdtemp()) / "par"
    start = time.perf_counter()
    subprocess.run([program, "report", *args, "-o", str(out)], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    elapsed = time.perf_counter() - start
    shutil.rmtree(out.parent)
    return elapsed


def parts(rules: str) -> dict[str, float]:
    from analyzer import report as par
    from analyzer.cli import report_command
    from analyzer.report import charts, pdf, xlsx
    from analyzer.report.data import as_json
    from analyzer.report.html import as_html
    from analyzer.report.markdown import as_markdown

    drawn = {"charts": 0.0}
    for name in ("edge_by_bet", "by_decks", "eor"):  # time the charts inside build
        original = getattr(charts, name)

        def timed(*args, original=original):
            start = time.perf_counter()
            try:
                return original(*args)
            finally:
                drawn["charts"] += time.perf_counter() - start

        setattr(charts, name, timed)
    start = time.perf_counter()
    request = par.Request((rules,))
    report = par.build(par.scope(request), report_command(request, "par"))
    built = time.perf_counter()
    pdf.as_pdf(report, "a4", "2026-01-01")
    made_pdf = time.perf_counter()
    xlsx.as_xlsx(report, "2026-01-01")
    made_xlsx = time.perf_counter()
    as_html(report), as_markdown(report), as_json(report)
    rest = time.perf_counter()
    return {"compute": built - start - drawn["charts"], "charts (SVG)": drawn["charts"], "pdf": made_pdf - built,
            "xlsx": made_xlsx - made_pdf, "md+html+json": rest - made_xlsx}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--catalog", action="store_true", help="also the catalogue report (slow)")
    parser.add_argument("--against", help="another install's baccarat, timed in the same rounds")
    args = parser.parse_args()
    programs = {"this": shutil.which("baccarat") or "baccarat"} | ({"other": args.against} if args.against else {})
    cases = {"default report": ()}
    if args.catalog:
        cases["report --rules catalog"] = ("--rules", "catalog")
    times = {(name, who): [] for name in cases for who in programs}
    for _ in range(args.runs):  # interleaved: the machine's load falls on every case alike
        for name, case in cases.items():
            for who, program in programs.items():
                times[name, who].append(command(program, *case))
    for (name, who), values in times.items():
        print(f"{name} ({who}): median {statistics.median(values):.2f} s (runs: {', '.join(f'{v:.2f}' for v in values)})")
    for rules in ["standard"] + (["catalog"] if args.catalog else []):
        split = parts(rules)
        print(f"{rules}, in process: " + "; ".join(f"{k} {v:.2f} s" for k, v in split.items()), file=sys.stdout)


if __name__ == "__main__":
    main()
