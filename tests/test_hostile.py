"""Hostile input, as a user would give it: every class of issue 15 ends in one line `Error: ...`,
the right exit status, no traceback, nothing written, no process left behind.

Most cases go through click's runner (the same `Baccarat.main` as the installed command); signals
and killed workers need a real process: those run the command in a subprocess of its own session,
wait for its workers to exist (no sleeps that race), and look for survivors in /proc.
"""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from analyzer.cli import cli

HUGE = "9" * 5000  # beyond Python's 4,300-digit limit on int(str)


def fails(*args, status=1, input=None):
    """The one line the command prints on stderr, having checked it fails with ``status``, prints
    one line starting `Error: `, no traceback, and nothing on stdout."""
    result = CliRunner().invoke(cli, [str(a) for a in args], input=input)
    assert result.exit_code == status, (result.exit_code, result.output[-2000:])
    assert result.stdout == "", result.stdout[:500]
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr[-2000:]
    assert "Traceback" not in result.stderr
    assert len(lines[0]) < 600, lines[0]  # nothing echoed whole (LONGEST_ERROR)
    return lines[0]


def rule_file(tmp_path, text, name="r.toml"):
    path = tmp_path / name
    path.write_text(text)
    return path


def tie_paying(tmp_path, pays: str):
    return rule_file(tmp_path, f'name = "x"\nextends = "standard"\n[[bets]]\nid = "t"\n'
                               f'lines = [{{ when = {{ winner = "tie" }}, pays = {pays} }}]\n')


# 1. Numbers with thousands of digits ------------------------------------------------------------

@pytest.mark.parametrize("args", [
    ["edge", "--decks", HUGE],
    ["compare", "--decks", f"1,{HUGE}"],
    ["solve", "--bet", "tie", "--edge", HUGE],
    ["solve", "--bet", "tie", "--edge", "0." + HUGE],
    ["chemin", "--infinite", "--commission", HUGE],
    ["count", "--bet", "banker", "--tags", "0,0,0,-1,-1,-1,-1,2,2,0", "--true-count", HUGE],
    ["simulate", "--shoes", "1", "--workers", "1", "--count", "0,0,0,-1,-1,-1,-1,2,2,0", "--bet", "banker",
     "--trigger", HUGE],
    ["count", "--bet", "banker", "--tags", f"{HUGE},0,0,-1,-1,-1,-1,2,2,0"],
    ["count", "--bet", "banker", "--tags", "2000,0,0,-1,-1,-1,-1,2,2,0"],
])
def test_numbers_with_thousands_of_digits(args):
    fails(*args)


def test_decks_beyond_any_shoe():
    assert fails("edge", "--decks", HUGE) == "Error: a shoe of more than 1,000,000,000,000 cards is not supported"
    assert fails("solve", "--bet", "tie", "--edge", HUGE) == "Error: not a percentage: 5000 digits (at most 100)"


@pytest.mark.parametrize("pays, message", [
    (HUGE, "not valid TOML: a number too long to read"),
    ("1e400", "pays: more than 1,000,000,000,000 (a payout of at most a trillion to one)"),
    ("1e9999", "pays: more than 1,000,000,000,000"),
    ("1e999999999", "pays: more than 1,000,000,000,000"),
    ("1e-9999", "pays: more than 100 decimal places"),
    (f'"{HUGE}/7"', "pays: more than 100 digits"),
    ('"1:1e400"', "is not a payout"),
])
def test_payouts_beyond_reason(tmp_path, pays, message):
    assert message in fails("edge", "--rules", tie_paying(tmp_path, pays))


def test_a_trillion_to_one_is_the_largest_payout(tmp_path):
    result = CliRunner().invoke(cli, ["edge", "--rules", str(tie_paying(tmp_path, "1e12")), "--format", "json"])
    assert result.exit_code == 0
    assert json.loads(result.stdout)["bets"][-1]["lines"][0]["pays"] == str(10**12)


def test_huge_integers_under_unknown_keys_and_in_counts(tmp_path):
    unknown = rule_file(tmp_path, f'name = "x"\nextends = "standard"\nfoo = {HUGE}\n')
    assert fails("edge", "--rules", unknown).endswith("not valid TOML: a number too long to read")
    counts = rule_file(tmp_path, 'name = "x"\nextends = "standard"\n[counts]\nbig = [0,0,0,0,0,0,0,0,0,99999]\n')
    assert fails("edge", "--rules", counts).endswith("counts.big: a tag must be between -1000 and 1000")


# 2. Deep nesting --------------------------------------------------------------------------------

def test_deep_nesting(tmp_path):
    inline = rule_file(tmp_path, 'name = "x"\n[[bets]]\nid = "b"\nlines = [{ when = ' + "{ not = " * 300
                       + '{ winner = "tie" }' + " }" * 300 + ", pays = 8 }]\n")
    assert fails("edge", "--rules", inline).endswith("nested more than 64 deep")
    headers = rule_file(tmp_path, 'name = "x"\n[[bets]]\nid = "b"\n[[bets.lines]]\npays = 8\n[bets.lines.when'
                        + ".not" * 300 + ']\nwinner = "tie"\n', "h.toml")
    assert fails("edge", "--rules", headers).endswith("conditions nested more than 32 deep")
    json_shoe = tmp_path / "deep.json"
    json_shoe.write_text('{"ranks": ' * 10_000 + "{}" + "}" * 10_000)
    assert fails("odds", "--shoe", json_shoe) == f"Error: shoe file '{json_shoe}': nested more than 64 deep"
    toml_shoe = tmp_path / "deep.toml"
    toml_shoe.write_text("ranks = " + "{ a = " * 2000 + "1" + " }" * 2000 + "\n")
    assert fails("odds", "--shoe", toml_shoe).endswith("nested more than 64 deep")


def test_nesting_within_the_limits_is_read(tmp_path):
    ok = rule_file(tmp_path, 'name = "x"\n[[bets]]\nid = "b"\nlines = [{ when = ' + "{ not = { not = " * 16
                   + '{ winner = "tie" }' + " } }" * 16 + ", pays = 8 }]\n")
    result = CliRunner().invoke(cli, ["edge", "--rules", str(ok), "--format", "json"])
    assert result.exit_code == 0 and json.loads(result.stdout)["bets"][0]["lines"][0]["probability"] != "0"


# 3. Files that never end ------------------------------------------------------------------------

def test_files_that_are_not_regular(tmp_path):
    assert fails("odds", "--shoe", "/dev/zero") == "Error: cannot read shoe file '/dev/zero': not a regular file"
    assert fails("edge", "--rules", "/dev/zero") == "Error: cannot read rule file '/dev/zero': not a regular file"
    parent = rule_file(tmp_path, 'name = "x"\nextends = "/dev/zero"\n')
    assert fails("edge", "--rules", parent).endswith("extends: cannot read rule file '/dev/zero': not a regular file")
    assert fails("now", "--dealt-file", "/dev/zero").endswith("'/dev/zero': not a regular file")
    assert fails("batch", "/dev/zero").endswith("'/dev/zero': not a regular file")
    assert fails("odds", "--shoe", tmp_path).endswith("a folder")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    assert fails("odds", "--shoe", fifo).endswith("not a regular file")  # and the open did not block


def test_reads_are_capped(tmp_path):
    big = tmp_path / "big.toml"
    with open(big, "wb") as f:
        f.truncate((1 << 20) + 1)  # sparse: costs no disk
    assert fails("odds", "--shoe", big) == f"Error: shoe file '{big}' is larger than 1 MiB"
    assert fails("edge", "--rules", big) == f"Error: rule file '{big}' is larger than 1 MiB"


def test_standard_input_is_capped_too():
    assert subprocess_fails(["batch", "-"], stdin=open("/dev/zero", "rb")) == \
        "Error: shoe list (standard input) is larger than 64 MiB"


# 4. Unbounded work ------------------------------------------------------------------------------

def test_a_billion_shoes_take_no_memory_before_they_are_dealt():
    """The work is handed out lazily: a run of 10^14 shoes starts dealing at once, within the
    memory of a small run, and stops cleanly when told (the interrupt tests below check how)."""
    from analyzer.questions.simulate import chunks

    tasks = chunks(10**14)
    assert next(tasks) == (0, 50) and next(tasks) == (50, 50)  # a generator, not a list
    code = ("import resource\n"
            "from analyzer.bets.rulefile import get_rules\n"
            "from analyzer.questions.simulate import Deal, simulate\n"
            "def peak_after(shoes):\n"
            "    seen = []\n"
            "    def progress(n):\n"
            "        seen.append(n)\n"
            "        if len(seen) == 3: raise KeyboardInterrupt\n"
            "    try:\n"
            "        simulate(get_rules('standard'), Deal(8, 14, 'face'), shoes, 1, workers=2, progress=progress)\n"
            "    except KeyboardInterrupt:\n"
            "        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
            "print(peak_after(300), peak_after(10**14))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    small, huge = map(int, out.stdout.split())  # KiB
    assert huge - small < 50_000, (small, huge)  # where a list of 2*10^12 chunks would be terabytes


# 5 and 6. Interrupts, killed workers, a lost cluster ---------------------------------------------

def baccarat(*args, **kwargs):
    """The command in a process of its own session (its own process group, as a terminal's job)."""
    return subprocess.Popen([sys.executable, "-m", "analyzer", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True, **kwargs)


def subprocess_fails(args, status=1, stdout_to=None, **kwargs):
    if stdout_to is None:
        process = baccarat(*args, **kwargs)
    else:
        with open(stdout_to, "wb") as out:
            process = subprocess.Popen([sys.executable, "-m", "analyzer", *args], stdout=out, stderr=subprocess.PIPE,
                                       start_new_session=True, **kwargs)
    out, err = process.communicate(timeout=120)
    return last_error(process, out or b"", err, status)


def last_error(process, out, err, status):
    err = err.decode()
    assert process.returncode == status, (process.returncode, err[-2000:])
    assert "Traceback" not in err, err[-3000:]
    errors = [line for line in err.splitlines() if line.startswith("Error: ")]
    assert len(errors) == 1 and err.splitlines()[-1] == errors[0], err[-2000:]
    return errors[0]


def children(pid):
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
        return [int(c) for t in tasks for c in Path(f"/proc/{pid}/task/{t}/children").read_text().split()]
    except (FileNotFoundError, ProcessLookupError):
        return []


def alive_in_group(group):
    """Processes of the process group that are still running (a zombie is dead, waiting to be reaped)."""
    alive = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            fields = stat.rsplit(")", 1)[1].split()
            if int(fields[2]) == group and fields[0] != "Z":
                alive.append(int(entry))
    return alive


def wait_until(condition, timeout=60.0):
    """Poll ``condition`` until true; the timeout only bounds a failing test, it is not a wait
    that the test's success depends on."""
    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.02)


def no_survivors(group):
    wait_until(lambda: not alive_in_group(group), timeout=10)


def dealing(workers=2, shoes=10**9):
    """A simulation with its worker processes up and dealing."""
    process = baccarat("simulate", "--shoes", str(shoes), "--workers", str(workers), "--rules", "standard")
    wait_until(lambda: len(children(process.pid)) >= workers or process.poll() is not None)
    assert process.poll() is None
    return process


linux_only = pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads /proc (Linux)")


@linux_only
@pytest.mark.parametrize("how, status, message", [
    ("ctrl-c", 130, "Error: interrupted (Ctrl-C)"),
    ("sigterm", 143, "Error: terminated (SIGTERM)"),
    ("sighup", 129, "Error: hung up (SIGHUP)"),
])
def test_signals_stop_the_run_and_its_workers(how, status, message):
    process = dealing()
    start = time.monotonic()
    if how == "ctrl-c":
        os.killpg(process.pid, signal.SIGINT)  # what a terminal does: the whole foreground group
    else:
        os.kill(process.pid, signal.SIGTERM if how == "sigterm" else signal.SIGHUP)
    out, err = process.communicate(timeout=60)
    elapsed = time.monotonic() - start
    assert last_error(process, out, err, status) == message
    assert out == b""
    no_survivors(process.pid)
    assert elapsed < 5, elapsed  # measured at 0.1-0.2 s; the margin is for a loaded 2-core machine


@linux_only
def test_a_killed_worker_is_one_line():
    process = dealing()
    os.kill(children(process.pid)[0], signal.SIGKILL)  # as the out-of-memory killer would
    out, err = process.communicate(timeout=60)
    message = last_error(process, out, err, 1)
    assert message.startswith("Error: a worker process died (killed by SIGKILL, as the out-of-memory killer does) after ")
    assert message.endswith(" of 1,000,000,000 shoes: the run is lost")
    no_survivors(process.pid)


@linux_only
def test_workers_die_with_their_parent_however_it_ends():
    process = dealing()
    workers = children(process.pid)
    process.kill()  # SIGKILL: no clean-up can run in the parent
    process.communicate(timeout=60)
    wait_until(lambda: not [w for w in workers if w in alive_in_group(process.pid)], timeout=10)


@linux_only
@pytest.mark.parametrize("how", ["ctrl-c", "killed"])
def test_a_report_stopped_with_its_side_job_leaves_nothing(tmp_path, how):
    # The catalogue's effect of removal runs in a second process while the report computes the rest.
    process = baccarat("report", "--rules", "catalog", "-o", str(tmp_path / "par"))
    wait_until(lambda: children(process.pid) or process.poll() is not None)
    assert process.poll() is None
    if how == "ctrl-c":
        os.killpg(process.pid, signal.SIGINT)
    else:
        os.kill(children(process.pid)[0], signal.SIGKILL)  # as the out-of-memory killer would
    out, err = process.communicate(timeout=60)
    message = last_error(process, out, err, 130 if how == "ctrl-c" else 1)
    assert message == "Error: interrupted (Ctrl-C)" if how == "ctrl-c" else message == (
        "Error: a worker process died (killed by SIGKILL, as the out-of-memory killer does) while computing the "
        "effect of removal: no report was written")
    no_survivors(process.pid)
    assert not (tmp_path / "par").exists()


@linux_only
def test_a_lost_dask_scheduler_is_one_line(tmp_path):
    distributed = pytest.importorskip("distributed")
    script = tmp_path / "cluster.py"
    script.write_text("import sys, time, distributed\n"
                      "if __name__ == '__main__':\n"
                      "    cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,\n"
                      "                                       dashboard_address=None)\n"
                      "    print(cluster.scheduler_address, flush=True)\n"
                      "    time.sleep(600)\n")
    cluster = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               text=True, start_new_session=True)
    try:
        address = cluster.stdout.readline().strip()
        assert address.startswith("tcp://"), distributed.__version__
        process = baccarat("simulate", "--shoes", "1000000", "--rules", "standard", "--dask", address)
        with distributed.Client(address, timeout="30s") as watcher:  # dealing has begun when a task is processing
            wait_until(lambda: any(watcher.processing().values()) or process.poll() is not None)
        assert process.poll() is None
        os.killpg(cluster.pid, signal.SIGKILL)
        out, err = process.communicate(timeout=120)
        message = last_error(process, out, err, 1)
        assert message.startswith(f"Error: lost the Dask cluster at '{address}' after ")
        assert message.endswith("): the run is lost") and " of 1,000,000 shoes (" in message
    finally:
        if cluster.poll() is None:
            os.killpg(cluster.pid, signal.SIGKILL)
        cluster.wait(timeout=30)


# 7. Quiet wrong answers -------------------------------------------------------------------------

def test_an_empty_target_is_refused():
    assert fails("solve", "--bet", "tie", "--edge", "") == "Error: not a percentage: empty"


def test_any_number_of_symbols(tmp_path):
    names = ["x", "u", "v", "w"] + [f"x{i}" for i in range(1, 100)]  # every name solve used to try
    lines = ", ".join(f'{{ when = {{ player_total = {i % 10}, banker_total = {i // 10 % 10}, '
                      f'player_pair = {str(i >= 100).lower()} }}, pays = "{n}" }}'
                      for i, n in enumerate(names))  # 103 lines, none shadowed: the file has no warning
    path = rule_file(tmp_path, f"name = \"s\"\nsymbols = {json.dumps(names)}\n[[bets]]\nid = \"tie\"\n"
                               f'lines = [{{ when = {{ winner = "tie" }}, pays = 8 }}]\n[[bets]]\nid = "b"\nlines = [{lines}]\n')
    result = CliRunner().invoke(cli, ["solve", "--rules", str(path), "--bet", "tie", "--format", "json"])
    assert result.exit_code == 0, result.output
    assert fails("solve", "--rules", path, "--bet", "b", "--vary", "1") == (
        "Error: the EV also depends on u, v, w, x1, x10, x11, x12, x13, x14, x15 and 92 more: give it a value first")


def test_a_symbolic_sd_is_a_square_root(tmp_path):
    path = rule_file(tmp_path, 'name = "y"\nextends = "standard"\nsymbols = ["x"]\n[[bets]]\nid = "tie"\n'
                               'lines = [{ when = { winner = "tie" }, pays = "x" }]\n')
    result = CliRunner().invoke(cli, ["edge", "--rules", str(path), "--format", "csv"])
    tie = [row for row in result.stdout.splitlines() if row.startswith("tie,")][0]
    assert ",sqrt(619306544887*x**2/6508331087895 - (" in tie


# 8. Output that breaks its format ---------------------------------------------------------------

HOSTILE_NAMES = ('name = "<b>bold</b>"\ndescription = "5% & <i>\\nsecond line\\rcarriage_return"\n'
                 'extends = "standard"\n[[bets]]\nid = "z"\nname = "A <script>\\nB"\n'
                 'lines = [{ label = "x\\r\\ny", when = { winner = "tie" }, pays = 8 }, '
                 '{ when = { winner = "banker", banker_total = 6 }, pays = 12 }]\n')


def shown(tmp_path, fmt):
    result = CliRunner().invoke(cli, ["edge", "--rules", str(rule_file(tmp_path, HOSTILE_NAMES)), "--format", fmt])
    assert result.exit_code == 0, result.output
    return result.stdout


def test_html_escapes_every_user_text(tmp_path):
    html = shown(tmp_path, "html")
    assert html.startswith("<table>\n<caption>House edge: rules &lt;b&gt;bold&lt;/b&gt; (5% &amp; &lt;i&gt; second")
    assert "<b>" not in html and "<script>" not in html and "<i>" not in html and "\r" not in html


def test_latex_escapes_the_title(tmp_path):
    latex = shown(tmp_path, "latex")
    assert latex.splitlines()[0] == r"House edge: rules <b>bold</b> (5\% \& <i> second line carriage\_return); " \
                                    "shoe 416 cards (8 decks)"


def test_line_breaks_never_split_a_row(tmp_path):
    for fmt in ("simple", "github", "grid", "csv"):
        text = shown(tmp_path, fmt)
        assert "\r" not in text
        rows = [line for line in text.splitlines() if "A <script>" in line]
        assert len(rows) == 1 and "A <script> B" in rows[0], fmt


def test_control_characters_in_names_are_refused(tmp_path):
    path = rule_file(tmp_path, 'name = "x\\u001b[2J"\nextends = "standard"\n')
    assert fails("edge", "--rules", path) == f"Error: {path}: name: control characters are not allowed"


def test_csv_is_data(tmp_path):
    import csv
    import io
    from fractions import Fraction

    rows = list(csv.DictReader(io.StringIO(shown(tmp_path, "csv"))))
    banker = rows[0]
    assert banker["id"] == "banker" and banker["line"] == "" and banker["bet"] == "Banker"
    assert Fraction(banker["house edge (exact)"]) == Fraction(114753351728, 10847218479825)
    assert abs(Fraction(banker["house edge"]) - Fraction(banker["house edge (exact)"])) <= Fraction(1, 2 * 10**15)
    assert float(banker["SD"]) ** 2 == pytest.approx(float(Fraction(banker["variance (exact)"])))
    line = rows[1]
    assert line["id"] == "banker" and line["line"] == "Banker wins" and float(line["win"]) == float(banker["win"])
    z = [row for row in rows if row["id"] == "z"]
    assert z[0]["bet"] == "A <script> B" and z[1]["line"] == "x y"


# 9. Echoing huge input --------------------------------------------------------------------------

def test_errors_cut_what_they_quote(tmp_path):
    field = tmp_path / "field.txt"
    field.write_text("4," * 12 + "9" * (10 << 20) + "\n")
    assert fails("batch", field) == ("Error: line 1: '9999999999999999999999999999999999999999999999999…999999999' "
                                     "[10,485,762 characters] is not a card count (a whole number, 0 or more)")
    assert "[5,002 characters]" in fails("count", "--bet", "banker", "--tags", "1" * 5000)
    assert "[5,002 characters]" in fails("edge", "--remove", "Z" * 5000)


def test_usage_errors_cut_what_they_quote_too():
    result = CliRunner().invoke(cli, ["simulate", "--shoes", HUGE])
    assert result.exit_code == 2 and len(result.stderr) < 400 and "[5,002 characters]" in result.stderr


# 10. Consistency --------------------------------------------------------------------------------

def test_usage_errors_are_clicks():
    """As the docs say (errors and limits): the usage line, a hint, the error; exit status 2."""
    result = CliRunner().invoke(cli, ["edge", "--bogus"])
    assert result.exit_code == 2
    assert result.stderr == ("Usage: baccarat edge [OPTIONS]\nTry 'baccarat edge --help' for help.\n\n"
                             "Error: No such option '--bogus'. Did you mean '--bets'?\n")


def test_a_byte_order_mark_is_read_everywhere(tmp_path):
    shoe = tmp_path / "bom.json"
    shoe.write_bytes(b'\xef\xbb\xbf{"ranks": {"A": 8, "2": 8}}')
    result = CliRunner().invoke(cli, ["odds", "--shoe", str(shoe), "--format", "json"])
    assert result.exit_code == 0 and json.loads(result.stdout)["shoe"]["cards"] == 16


def test_messages_that_help():
    assert fails("edge", "--rules", "").startswith("Error: no rule set given (the rule sets: standard, ")
    assert fails("edge", "--rules", "standrad") == (
        "Error: unknown rule set 'standrad' (did you mean 'standard'?) - a built-in rule set, or a .toml file")


def test_extends_suggests_the_nearest_name(tmp_path):
    path = rule_file(tmp_path, 'name = "x"\nextends = "standrad"\n')
    assert fails("edge", "--rules", path) == (f"Error: {path}: extends: unknown rule set 'standrad' (did you mean "
                                              "'standard'?) - a built-in rule set, or a .toml file beside this one")


def test_large_shoes_in_batch_show_progress(tmp_path):
    shoes = tmp_path / "shoes.txt"
    shoes.write_text(",".join(["100"] * 13) + "\n" + ",".join(["4"] * 13) + "\n")
    result = CliRunner().invoke(cli, ["batch", str(shoes), "--rules", "standard"])
    assert result.exit_code == 0
    assert result.stderr.startswith("Evaluating 2 shoes (1 above 1,290 cards: the slower exact path)")
    assert [json.loads(line)["shoe"][0] for line in result.stdout.splitlines()] == [100, 4]


def test_a_defect_is_one_line(monkeypatch):
    import analyzer.views.outcomes

    monkeypatch.setattr(analyzer.views.outcomes, "odds", lambda *a, **k: 1 / 0)
    assert fails("odds") == ("Error: internal error, please report it: ZeroDivisionError: division by zero "
                             "(BACCARAT_DEBUG=1 shows the traceback)")


def test_nothing_a_user_owns_is_overwritten(tmp_path):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("keep me")
    assert fails("report", "-o", out).startswith("Error: ")
    assert (out / "notes.txt").read_text() == "keep me"


@pytest.mark.parametrize("args, label", [
    (["report", "--rules", "catalog"], b"Computing the report"),
    (["eor", "--remove-pairs", "--decks", "1"], b"removing pairs of cards"),
])
def test_a_command_stopped_mid_way_leaves_nothing(tmp_path, args, label):
    """Single-process commands stop on a signal too; a report stopped while it is computed
    leaves no folder, finished or half-made, and no hidden staging folder."""
    out = tmp_path / "out"
    process = baccarat(*args, *(["-o", str(out)] if args[0] == "report" else []), cwd=tmp_path)
    assert process.stderr.readline().startswith(label)  # the progress bar's label: the work has begun
    os.kill(process.pid, signal.SIGTERM)
    out_text, err = process.communicate(timeout=60)
    assert last_error(process, out_text, err, 143) == "Error: terminated (SIGTERM)"
    assert sorted(p.name for p in tmp_path.iterdir()) == []


@linux_only
@pytest.mark.parametrize("args", [["simulate", "--shoes", "1000000000", "--workers", "2", "--rules", "standard"],
                                  ["report", "--rules", "catalog", "-o", "out"]])
def test_pressing_ctrl_c_again_changes_nothing(tmp_path, args):
    """A second Ctrl-C (or a burst of them) while the first is being handled is ignored: one
    line, exit 130, nothing left."""
    process = baccarat(*args, cwd=tmp_path)
    wait_until(lambda: len(children(process.pid)) >= 2) if args[0] == "simulate" else process.stderr.readline()
    for _ in range(5):
        os.killpg(process.pid, signal.SIGINT)
        time.sleep(0.001)
    out, err = process.communicate(timeout=60)
    assert last_error(process, out, err, 130) == "Error: interrupted (Ctrl-C)"
    no_survivors(process.pid)
    assert list(tmp_path.iterdir()) == []


# Classes found by trying to break each command ---------------------------------------------------

def test_long_tables_render_in_linear_time():
    """30,000 rows: the check of every cell for the built-in table writer was quadratic (and
    uninterruptible) before; now the table is written in about a second."""
    from fractions import Fraction

    from analyzer.render import Column, View, render

    rows = [{"a": f"row {i}", "p": Fraction(i, 30_000)} for i in range(30_000)]
    start = time.process_time()
    text = render(View("", [Column("a", "bet"), Column("p", "P", "percent")], rows))
    assert len(text.splitlines()) == 30_002 and time.process_time() - start < 10


def test_rule_files_cannot_ask_for_gigabytes(tmp_path):
    many_tests = ", ".join(f"{{ margin = {i % 10} }}" for i in range(1001))
    path = rule_file(tmp_path, f'name = "x"\n[[bets]]\nid = "b"\nlines = [{{ when = {{ any = [{many_tests}] }}, pays = 1 }}]\n')
    assert fails("edge", "--rules", path).endswith("bets[1].lines[1].when: more than 1,000 tests in one condition")
    many_lines = ", ".join("{ when = {}, pays = 1 }" for _ in range(1001))
    path = rule_file(tmp_path, f'name = "x"\n[[bets]]\nid = "b"\nlines = [{many_lines}]\n', "l.toml")
    assert fails("edge", "--rules", path).endswith("bets[1].lines: 1,001 pay lines (at most 1,000 a bet)")


def test_errors_cut_long_messages_with_spaces_too(tmp_path):
    dealt = tmp_path / "dealt.txt"
    dealt.write_text("Z " * 500_000)  # cards as they come (no coup of 4 to 6 cards, no mark): the first is refused
    assert fails("now", "--dealt-file", dealt).startswith(f"Error: {dealt}, line 1: unknown card 'Z' (a rank A, 2-9")
    dealt.write_text("Z" * 1_000_000)  # one card whose name is a million characters: cut in the message
    assert "[1,000,0" in fails("now", "--dealt-file", dealt)
    assert len(fails("edge", "--remove", "Z " * 50_000)) < 600


def test_names_too_long_for_the_system():
    assert fails("edge", "--rules", "x" * 300).startswith("Error: unknown rule set 'xxxxxxxx")


def test_a_count_needs_numeric_payouts(tmp_path):
    path = rule_file(tmp_path, 'name = "y"\nextends = "standard"\nsymbols = ["I"]\n[[bets]]\nid = "tie"\n'
                               'lines = [{ when = { winner = "tie" }, pays = "I" }]\n')
    assert fails("count", "--rules", path, "--bet", "tie") == "Error: bet 'tie' has a symbolic payout: a count needs numbers"


def test_duplicate_json_keys_are_refused(tmp_path):
    shoe = tmp_path / "dup.json"
    shoe.write_text('{"ranks": {"A": 400, "A": 4}}')
    assert fails("odds", "--shoe", shoe) == f"Error: shoe file '{shoe}': key 'A' is given twice"


def test_empty_values_are_not_defaults(tmp_path):
    assert fails("odds", "--shoe", "") == "Error: no shoe file given (an empty name)"
    assert fails("eor", "--remove-pairs", "--bet", "") == \
        "Error: rule set 'standard' has no bet '' (bets: banker, player, tie, player_pair, banker_pair)"  # not the first
    assert fails("chemin", "--infinite", "--shoe", "").startswith("Error: model A (--infinite) is the infinite deck")
    assert fails("simulate", "--shoes", "2", "--dask", "") == \
        "Error: --dask needs the scheduler's address, e.g. tcp://scheduler:8786"


def test_options_that_do_nothing_alone_say_so():
    assert fails("eor", "--bet", "tie") == "Error: --bet goes with --remove-pairs (without it, every bet is shown)"
    assert fails("count", "--bet", "banker", "--tags", "0,0,0,-1,-1,-1,-1,2,2,0", "--true-count", "4%") == \
        "Error: not a true count: '4%'"


def test_the_environment_can_fail_too(tmp_path):
    assert subprocess_fails(["batch", "-"], preexec_fn=lambda: os.close(0)) == \
        "Error: no standard input to read the shoe list from (it is closed)"
    assert subprocess_fails(["odds", "--decks", "1"], stdout_to="/dev/full") == \
        "Error: cannot write the output: No space left on device"
    env = dict(os.environ, PYTHONIOENCODING="latin-1")
    assert subprocess_fails(["eor", "--decks", "1", "--unit", "permille"], env=env) == \
        "Error: the output has a character ('\\u2030') that latin-1 cannot encode: set PYTHONIOENCODING=utf-8"


def test_force_never_deletes_a_users_file(tmp_path):
    out = tmp_path / "r"
    assert CliRunner().invoke(cli, ["report", "-o", str(out)]).exit_code == 0
    (out / "thesis.txt").write_text("mine")
    assert fails("report", "-o", out, "--force") == f"Error: '{out}' holds files that are not the report's " \
        "(thesis.txt); not replacing it"
    assert (out / "thesis.txt").read_text() == "mine"


def test_a_report_folder_name_is_shown_safely(tmp_path):
    result = CliRunner().invoke(cli, ["report", "-o", str(tmp_path / "a\nb\x1b[31m")])
    assert result.exit_code == 0 and "\x1b" not in result.stdout and result.stdout.count("\n") == 1
