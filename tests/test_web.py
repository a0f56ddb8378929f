"""`baccarat serve`'s JSON API through Flask's test client: the same exact values as the command
line, every bad request a 4xx with one line, limits; then the server itself on 127.0.0.1: its
start and stop, concurrent users, and a load test."""

import http.client
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction

import pytest
from click.testing import CliRunner

from analyzer import Shoe, analyse, get_rules
from analyzer.bets.bet import Bet, Line, RuleSet
from analyzer.cli import cli
from analyzer.render import percent
from analyzer.web import api
from analyzer.web.app import create_app
from analyzer.web.serving import FRONT_MEMORY, TALLY_NAME, Pool, Settings, server_memory

DRAGON = '''name = "my-side-bet"
description = "A side bet of my own"

[[bets]]
id = "dragon_7"
name = "Dragon 7"
lines = [
  { label = "Banker wins with a three-card 7", when = { winner = "banker", banker_total = 7, banker_cards = 3 }, pays = 40 },
]
'''


@pytest.fixture(scope="module")
def client():
    return create_app(api.Limits(rate=10_000, burst=10_000)).test_client()


def cli_json(*args) -> dict:
    result = CliRunner().invoke(cli, [*args, "--format", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def post(client, path: str, body) -> tuple[int, dict]:
    response = client.post(path, json=body)
    return response.status_code, response.get_json()


def test_rules_are_those_of_the_command_line(client):
    assert client.get("/api/rules").get_json() == cli_json("rules", "list")


@pytest.mark.parametrize("body, args", [
    ({"decks": 8, "dealt": "9 8 K 3"}, ["--decks", "8", "--dealt", "9,8,K,3"]),
    ({"rules": "ez", "decks": 6, "dealt": "Ah\n5, 5  # a coup\n"}, ["--rules", "ez", "--decks", "6", "--dealt", "Ah,5,5"]),
    ({"decks": 1, "dealt": "9 9", "known": ["1=6-9", "5=red"]}, ["--decks", "1", "--dealt", "9,9", "--known", "1=6-9", "--known", "5=red"]),
    ({"rules": "catalog", "decks": 2, "dealt": "2 3 4", "card_level": True}, ["--rules", "catalog", "--decks", "2", "--dealt", "2,3,4"]),
])
def test_the_tracker_answers_what_baccarat_now_answers(client, body, args):
    status, data = post(client, "/api/now", body)
    assert status == 200, data
    expected = cli_json("now", *args)
    assert {k: data[k] for k in expected} == expected  # every exact value, as the command line's JSON
    for bet in expected["bets"]:
        assert data["shown"][bet["bet"]]["house_edge"] == percent(Fraction(bet["house_edge"]))
        assert data["shown"][bet["bet"]]["ev"] == percent(Fraction(bet["ev"]))
    assert data["left_out"] == [] and data["server_ms"] >= 0


def test_the_tracker_follows_every_bet_and_leaves_the_card_level_ones_out_when_asked(client):
    everything = {b["bet"]: b for b in cli_json("now", "--rules", "catalog", "--decks", "8", "--dealt", "9,8,K,3")["bets"]}
    status, data = post(client, "/api/now", {"rules": "catalog", "decks": 8, "dealt": "9 8 K 3"})
    assert status == 200 and data["left_out"] == []
    assert [b["bet"] for b in data["bets"]] == list(everything) and all(b == everything[b["bet"]] for b in data["bets"])
    status, data = post(client, "/api/now", {"rules": "catalog", "decks": 8, "dealt": "9 8 K 3", "card_level": False})
    card_level = [b.id for b in get_rules("catalog").bets if b.card_level]
    assert status == 200 and data["left_out"] == card_level and len(card_level) == 23  # of the catalogue's 92 bets
    assert [b["bet"] for b in data["bets"]] == [b for b in everything if b not in card_level]
    assert all(b == everything[b["bet"]] for b in data["bets"])


def test_the_compilation_a_request_would_start_is_bounded_before_it_starts(monkeypatch, tmp_path):
    # A new rule file with known cards: the rows its compilations walk are counted before any
    # walk (api.pending_work); past Limits.compile_rows the request is refused at once, nothing
    # compiled; within it, it is answered, walking exactly the rows counted, as the command line.
    from analyzer.routes import cardcount

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))  # nothing compiled on disk
    text = open("examples/card_bets.toml").read()
    request = {"rules_toml": text, "decks": 2, "dealt": "9 K", "known": ["1=red", "3=6-9"]}
    rules, knowledge = api.uploaded_rules(text), api.Knowledge.parse(request["known"])
    pending = api.pending_work(rules, knowledge)
    rows = sum(r for _, r in pending)
    assert rows > 100_000 and len(pending) >= 6, pending
    walked = []
    real = cardcount.compile_lines
    monkeypatch.setattr(cardcount, "compile_lines",
                        lambda groups, layout, tableau, context: walked.append(layout.size(tableau)) or
                        real(groups, layout, tableau, context))
    with pytest.raises(api.BaccaratError, match=f"need {rows:,} rows of compilation, at most {rows - 1:,} a request"):
        api.tracker(dict(request), api.Limits(compile_rows=rows - 1))
    assert walked == [] and api.pending_work(rules, knowledge) == pending  # refused before any work
    data = api.tracker(dict(request), api.Limits(compile_rows=rows))
    assert sum(walked) == rows and api.pending_work(rules, knowledge) == []  # the rows counted are the rows walked
    path = tmp_path / "card_bets.toml"
    path.write_text(text)
    expected = cli_json("now", "--rules", str(path), "--decks", "2", "--dealt", "9,K", "--known", "1=red", "--known", "3=6-9")
    assert {k: data[k] for k in expected} == expected
    data = api.tracker(dict(request), api.Limits(compile_rows=0))  # compiled now: no rows to start
    assert {k: data[k] for k in expected} == expected
    with_symbol = api.uploaded_rules('symbols = ["x"]\n' + text.replace("pays = 25", 'pays = "x"', 1))
    assert not all(b.numeric for b in with_symbol.bets)  # a payout symbol: analysed by the enumerator, compiled all the same
    assert sum(r for _, r in api.pending_work(with_symbol, api.Knowledge.parse(["1=black"]))) > 0


def test_uploaded_files_answer_as_the_same_files_on_the_command_line(client, tmp_path):
    rules, shoe = tmp_path / "dragon.toml", tmp_path / "shoe.toml"
    rules.write_text(DRAGON)
    shoe.write_text("[ranks]\nA = 4\n2 = 4\n3 = 4\n7 = 8\n8 = 4\n9 = 4\nT = 16\n")
    status, data = post(client, "/api/now", {"rules_toml": DRAGON, "shoe_toml": shoe.read_text(), "dealt": "7"})
    assert status == 200, data
    expected = cli_json("now", "--rules", str(rules), "--shoe", str(shoe), "--dealt", "7")
    assert {k: data[k] for k in expected} == expected
    status, by_json = post(client, "/api/now", {"rules_toml": DRAGON, "dealt": "7",
                                                "shoe_json": json.dumps({"ranks": {"A": 4, "2": 4, "3": 4, "7": 8, "8": 4,
                                                                                   "9": 4, "T": 16}})})
    assert by_json["bets"] == data["bets"]


def test_the_true_count(client):
    jacobson = [0, 0, 0, -1, -1, -1, -1, 2, 2, 0]
    status, data = post(client, "/api/now", {"rules": "catalog", "decks": 8, "dealt": "9 8 K 5 4 4 Ah",
                                             "count": "dragon_7_jacobson"})
    assert status == 200 and "dragon_7_jacobson" in data["count_systems"]
    running = 2 + 2 + 0 - 1 - 1 - 1 + 0  # the tags of 9, 8, K, 5, 4, 4, A written out
    assert data["count"] == {"name": "dragon_7_jacobson", "tags": jacobson, "running": running,
                             "true": str(Fraction(52 * running, 416 - 7)), "true_shown": "+0.13"}
    status, given = post(client, "/api/now", {"decks": 8, "dealt": "9 8", "count": "1,1,1,1,1,1,1,1,1,1"})
    assert given["count"]["name"] == "given" and given["count"]["running"] == 2 and given["count"]["true"] == "52/207"  # 2 x 52 / 414


def test_the_designer(client, tmp_path):
    path = tmp_path / "dragon.toml"
    path.write_text(DRAGON)
    status, data = post(client, "/api/design", {"rules_toml": DRAGON, "decks": 8})
    assert status == 200, data
    assert data["bets"] == ["dragon_7"] and data["bet"]["id"] == "dragon_7"
    edge = cli_json("edge", "--rules", str(path), "--decks", "8")["bets"][0]
    assert data["house_edge"] == edge["house_edge"] and data["house_edge_shown"] == percent(Fraction(edge["house_edge"]))
    returns = cli_json("edge", "--view", "returns", "--rules", str(path), "--decks", "8")["bets"][0]
    expected = returns["lines"] + [returns["total"]]
    assert len(data["returns"]) == len(expected) == 3
    assert [{k: row[k] for k in want} for row, want in zip(data["returns"], expected)] == expected
    (line,) = data["break_even"]
    pays = Fraction(line["pays"])  # a second route: the bet at that payout has EV exactly 0
    old = get_rules(str(path)).bets[0]
    at_break_even = Bet("d", "d", (Line(pays, old.lines[0].label, old.lines[0].condition),))
    assert analyse(RuleSet("x", "", (at_break_even,)), Shoe.decks(8))[0].ev == 0
    assert line["pays_text"] == "43.3777:1" and line["line"] == old.lines[0].label  # 43.377738...
    catalogue = {b["bet"]: b for b in data["catalogue"]}
    assert catalogue["dragon_7"]["house_edge"] == data["house_edge"]  # the same bet as the catalogue's Dragon 7
    edges = [Fraction(b["house_edge"]) for b in data["catalogue"]]
    assert edges == sorted(edges) and "banker" not in catalogue


def test_the_designer_follows_an_edit(client):
    status, forty = post(client, "/api/design", {"rules_toml": DRAGON})
    status, fifty = post(client, "/api/design", {"rules_toml": DRAGON.replace("pays = 40", "pays = 50")})
    p = Fraction(forty["returns"][0]["probability"])
    assert Fraction(forty["house_edge"]) - Fraction(fifty["house_edge"]) == 10 * p


@pytest.mark.parametrize("path, body, status, message", [
    ("/api/now", {"rules": "/etc/passwd"}, 400, "unknown rule set '/etc/passwd'"),
    ("/api/now", {"rules": "standard", "rules_toml": DRAGON}, 400, "give rules or rules_toml, not both"),
    ("/api/now", {"decks": 0}, 400, "decks: a whole number from 1 to 24 (got 0)"),
    ("/api/now", {"decks": 25}, 400, "decks: a whole number from 1 to 24 (got 25)"),
    ("/api/now", {"decks": "8"}, 400, "decks: a whole number from 1 to 24 (got '8')"),
    ("/api/now", {"decks": True}, 400, "decks: a whole number from 1 to 24 (got True)"),
    ("/api/now", {"decks": 8, "shoe_toml": ""}, 400, "give one of decks, shoe_toml or shoe_json"),
    ("/api/now", {"shoe_toml": "[ranks]\nA = 2000\n"}, 400, "shoe file: at most 1,248 cards (24 decks)"),
    ("/api/now", {"dealt": "9 Z"}, 400, "unknown card 'Z'"),
    ("/api/now", {"dealt": 9}, 400, "dealt: must be text"),
    ("/api/now", {"decks": 1, "dealt": "A " * 47}, 400, "cannot remove A: none left"),
    ("/api/now", {"known": "1=9"}, 400, "known: must be a list of texts"),
    ("/api/now", {"known": ["9=9"]}, 400, "no card position '9': positions are 1 to 6"),
    ("/api/now", {"count": "nope"}, 400, "tags takes 10 integers"),
    ("/api/now", {"card_level": "yes"}, 400, "card_level: must be true or false"),
    ("/api/now", {"dealer": "x"}, 400, "unknown field 'dealer'"),
    ("/api/now", [1, 2], 400, "the request must be a JSON object"),
    ("/api/design", {}, 400, "rules_toml: missing"),
    ("/api/design", {"rules_toml": DRAGON, "bet": "nope"}, 400, "rule set 'my-side-bet' has no bet 'nope'"),
    ("/api/design", {"rules_toml": "name = \n"}, 400, "rule file: "),
    ("/api/design", {"rules_toml": DRAGON.replace("pays = 40", "pays = -5")}, 400, "rule file: "),
])
def test_a_bad_request_is_a_400_with_one_line(client, path, body, status, message):
    code, data = post(client, path, body)
    assert code == status and message in data["error"] and "\n" not in data["error"], data


def test_a_toml_error_names_its_line(client):
    code, data = post(client, "/api/design", {"rules_toml": DRAGON.replace('id = "dragon_7"', 'id = dragon_7')})
    assert code == 400 and data["line"] == 5 and "line 5" in data["error"]


def test_other_http_errors_are_json(client):
    assert client.get("/api/nothing").status_code == 404 and "error" in client.get("/api/nothing").get_json()
    assert client.get("/api/now").status_code == 405 and "error" in client.get("/api/now").get_json()
    response = client.post("/api/now", data="x" * 300_000, content_type="application/json")
    assert response.status_code == 413 and response.get_json() == {"error": "the request is larger than 256 KiB"}
    response = client.post("/api/now", data="{not json", content_type="application/json")
    assert response.status_code == 400 and response.get_json()["error"].startswith("request: not valid JSON: ")
    for body, message in [("[" * 100_000 + "]" * 100_000, "request: nested more than 64 deep"),
                          ('{"decks": 8, "decks": 6}', "request: key 'decks' is given twice"),
                          ("[1]", "the request must be a JSON object"), (b"\xff", "the request must be JSON text in UTF-8")]:
        response = client.post("/api/now", data=body, content_type="application/json")
        assert response.status_code == 400 and response.get_json()["error"] == message, response.get_json()
    long = client.post("/api/now", json={"rules": "x" * 200_000}).get_json()["error"]
    assert len(long) < 300 and "[200,002 characters]" in long  # cut as the command line cuts its errors


def test_a_defect_is_a_500_with_one_line(monkeypatch):
    monkeypatch.setitem(api.COMPUTED, "/api/now", lambda *a: 1 / 0)
    response = create_app().test_client().post("/api/now", json={})
    assert response.status_code == 500
    assert response.get_json() == {"error": "internal error, please report it: ZeroDivisionError"}


def test_requests_beyond_the_rate_are_refused():
    client = create_app(api.Limits(rate=1, burst=5)).test_client()
    codes = [client.post("/api/now", json={}).status_code for _ in range(8)]
    assert codes == [200] * 5 + [429] * 3
    refused = client.post("/api/now", json={})
    assert refused.get_json() == {"error": "too many requests: wait a moment"} and refused.headers["Retry-After"] == "1"
    other = client.post("/api/now", json={}, environ_base={"REMOTE_ADDR": "127.0.0.2"})
    assert other.status_code == 200  # the limit is per client
    assert client.get("/api/rules").status_code == client.get("/").status_code == 200  # the page and its lists are free


def test_the_work_of_a_request_is_bounded(client):
    many = "".join(f'[[bets]]\nid = "b{i}"\nname = "b"\nlines = [{{ when = {{ winner = "tie" }}, pays = 8 }}]\n'
                   for i in range(97))
    code, data = post(client, "/api/now", {"rules_toml": 'name = "many"\n' + many})
    assert code == 400 and data["error"] == "rule set 'many': at most 96 bets and 256 pay lines in all here"
    royal = 'name = "royal"\n[[bets]]\nid = "royal"\nname = "r"\nlines = [{ when = { all_cards = { poker = "straight_flush" } }, pays = 1000 }]\n'
    code, data = post(client, "/api/now", {"rules_toml": royal, "decks": 9})  # rank and suit at all six cards: no compiling
    assert code == 400 and data["error"] == ("bet 'royal' reads too much card detail to compile and is counted here on "
                                             "shoes of at most 8 decks (416 cards); this one has 468")
    assert post(client, "/api/now", {"rules": "catalog", "decks": 9})[0] == 200  # its card-level bets compile
    suited = ('name = "suited"\n[[bets]]\nid = "suited"\nlines = [\n{ when = { player_hand = { same_suit = true }, '
              'banker_hand = { same_suit = true } }, pays = 25 },\n{ when = { player_hand = { same_colour = true } }, pays = 1 },\n]\n')
    request = {"rules_toml": suited, "decks": 8, "dealt": "9h Kh"}  # counted shoe by shoe: 18 products of suit sets
    with pytest.raises(api.BaccaratError, match=r"^rule set 'suited': its bets of suits too detailed to compile \('suited'\) "
                                                r"count 18 products of suit sets a shoe, at most 17 a request here"):
        api.tracker(dict(request), api.Limits(suit_products=17))
    code, data = post(client, "/api/now", request)
    direct = api.tracker(dict(request), api.Limits(suit_products=18))
    assert code == 200 and {k: v for k, v in data.items() if k != "server_ms"} == direct


def test_the_page_is_served(client):
    page = client.get("/")
    assert page.status_code == 200 and b"<html" in page.data.lower()
    assert b"http://" not in page.data and b"https://" not in page.data  # nothing fetched from elsewhere


# The server on 127.0.0.1 ---------------------------------------------------------------------

def start(*args):
    process = subprocess.Popen([sys.executable, "-m", "analyzer", "serve", *args], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=os.environ | {"PYTHONUNBUFFERED": "1"})
    line = process.stdout.readline()
    assert line.startswith("Serving on http://127.0.0.1:") and line.endswith("/ (Ctrl-C to stop)\n"), line
    return process, line.split()[2]


def descendants(pid: int) -> set[int]:
    """Every process below ``pid`` (Linux: /proc)."""
    out, todo = set(), [pid]
    while todo:
        parent = todo.pop()
        for task in os.listdir(f"/proc/{parent}/task") if os.path.isdir(f"/proc/{parent}/task") else []:
            try:
                with open(f"/proc/{parent}/task/{task}/children") as children:
                    found = {int(c) for c in children.read().split()}
            except OSError:
                continue
            todo += found - out
            out |= found
    return out


def alive(pids) -> set[int]:
    return {p for p in pids if os.path.exists(f"/proc/{p}") and "Z" not in open(f"/proc/{p}/stat").read().rsplit(")", 1)[1].split()[:1]}


def workers_of(pid: int) -> set[int]:
    """The worker processes of a server: its fork server's children, but its tally (serving.tally)."""
    forkservers = [p for p in children(pid) if "forkserver" in open(f"/proc/{p}/cmdline").read()]
    return {p for p in set().union(*(children(p) for p in forkservers)) if not is_tally(p)}


def is_tally(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/comm") as comm:
            return comm.read().strip() == TALLY_NAME
    except OSError:
        return False


def children(pid: int) -> set[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as found:
            return {int(c) for c in found.read().split()}
    except OSError:
        return set()


needs_proc = pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="reads the process tree from Linux's /proc")


@needs_proc
@pytest.mark.parametrize("stop", ["Ctrl-C", signal.SIGTERM])
def test_serve_starts_on_a_free_port_and_stops_cleanly(stop):
    # Ctrl-C at a terminal reaches the whole process group (the server, its fork server and its
    # workers); SIGTERM the server alone. Either way: exit 0, one line, no process left behind.
    process = subprocess.Popen([sys.executable, "-m", "analyzer", "serve", "--port", "0", "--workers", "3"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                               env=os.environ | {"PYTHONUNBUFFERED": "1"})
    try:
        url = process.stdout.readline().split()[2]
        with urllib.request.urlopen(url + "api/rules", timeout=10) as response:
            assert json.load(response) == cli_json("rules", "list")
        assert call(url, {"dealt": "5 6"})[1] == 200
        assert len(workers_of(process.pid)) == 3
        tallies = [p for p in descendants(process.pid) if is_tally(p)]
        assert len(tallies) == 1  # and its tally (serving.tally), which ends with it
        below = descendants(process.pid)
    finally:
        if stop == "Ctrl-C":
            os.killpg(process.pid, signal.SIGINT)
        else:
            process.send_signal(stop)
        out, err = process.communicate(timeout=20)
    assert process.returncode == 0 and out == "Stopped.\n" and err == ""
    deadline = time.monotonic() + 5
    while alive(below) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(below)


@needs_proc
def test_the_tally_ends_with_a_server_killed_outright(tmp_path):
    # SIGKILL gives the server no chance to stop its tally: the pipe it held closes, and the tally ends
    process = subprocess.Popen([sys.executable, "-m", "analyzer", "serve", "--port", "0", "--workers", "1",
                                "--db", f"sqlite:///{tmp_path / 'pit.sqlite'}"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        process.stdout.readline()
        deadline = time.monotonic() + 20
        while not [p for p in descendants(process.pid) if is_tally(p)] and time.monotonic() < deadline:
            time.sleep(0.1)
        tallies = [p for p in descendants(process.pid) if is_tally(p)]
        assert len(tallies) == 1
        below = descendants(process.pid)
        process.kill()
        process.wait(timeout=10)
        deadline = time.monotonic() + 20
        while alive(below) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not alive(below)  # the tally, and with it the fork server and the workers
    finally:
        process.kill()
        process.communicate(timeout=10)


@needs_proc
@pytest.mark.parametrize("after", [0.3, 0.9, 1.5])
def test_a_stop_signal_while_the_workers_start_leaves_nothing_behind(after):
    # the fork server compiles the page's rule sets for a second or two before the first worker
    # starts: Ctrl-C to the whole group then is one line, no traceback, and nothing left
    process = subprocess.Popen([sys.executable, "-m", "analyzer", "serve", "--workers", "2"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True)
    time.sleep(after)
    below = descendants(process.pid)
    os.killpg(process.pid, signal.SIGINT)
    out, err = process.communicate(timeout=20)
    # (in the fork server's first tenth of a second, before it ignores Ctrl-C, it may print a traceback too)
    assert (process.returncode == 130 and err.endswith("Error: interrupted (Ctrl-C)\n")
            or process.returncode == 0 and out.endswith("Stopped.\n") and err == ""), (out, err)
    time.sleep(0.5)
    assert not alive(below | descendants(process.pid))


def test_closing_the_pool_under_requests_answers_them_and_raises_nothing():
    with Pool(Settings(workers=2), api.Limits()) as pool:
        with ThreadPoolExecutor(6) as threads:
            answers = [threads.submit(pool.answer, "/api/now", json.dumps(HEAVY if i % 2 else {"dealt": "5"}).encode())
                       for i in range(6)]
            time.sleep(0.5)
            pool.close()
            statuses = [a.result(timeout=20)[0] for a in answers]
    assert set(statuses) <= {200, 503} and 503 in statuses


@needs_proc
def test_the_page_is_served_while_every_worker_is_busy():
    # a time limit far above what seven compilations take on a slow machine: this test is about the page,
    # not the limit (the catalogue's compilation takes 6 s here and has passed 10 s, the default, under CI)
    process, url = start("--workers", "1", "--rate", "1000", "--time-limit", "300")
    try:
        with ThreadPoolExecutor(7) as threads:
            busy = [threads.submit(call, url, HEAVY, 300) for _ in range(7)]
            time.sleep(0.3)
            begin = time.perf_counter()
            with urllib.request.urlopen(url + "api/rules", timeout=10) as response:
                assert response.status == 200
            assert time.perf_counter() - begin < 1
            assert [b.result(timeout=600)[1] for b in busy] == [200] * 7
        request = urllib.request.Request(url + "api/now", b"x" * 300_000, {"Content-Type": "application/json"})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=10)
        assert refused.value.code == 413 and json.load(refused.value) == {"error": "the request is larger than 256 KiB"}
    finally:
        process.send_signal(signal.SIGINT)
        process.communicate(timeout=20)


HEAVY = {"rules": "catalog", "known": ["1=red", "2=red"]}  # seconds of compiling in a fresh worker


@pytest.fixture
def nothing_kept(tmp_path, monkeypatch):
    """An empty cache of compiled plans (plancache.py): HEAVY compiles for seconds, not reads them."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


@needs_proc
def test_a_request_past_the_time_limit_is_stopped_and_its_worker_replaced(nothing_kept):
    process, url = start("--time-limit", "0.3", "--workers", "1", "--rate", "1000")
    try:
        before = workers_of(process.pid)
        seconds, status, data = call(url, HEAVY)
        assert status == 503 and seconds < 3 and "took longer than 0.3 s" in data["error"] and set(data) == {"error"}
        after = workers_of(process.pid)
        assert len(before) == len(after) == 1 and not before & after  # replaced
        assert call(url, {"dealt": "5 6"})[1] == 200  # and the new one answers
    finally:
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=20)
    assert err == "stopped a request to /api/now after 0.3 s, the time limit; its worker has been replaced\n"


@needs_proc
def test_a_request_whose_client_has_gone_is_stopped(nothing_kept):
    process, url = start("--workers", "1", "--rate", "1000")
    try:
        before = workers_of(process.pid)
        body = json.dumps(HEAVY).encode()
        port = int(url.rsplit(":", 1)[1].rstrip("/"))
        with socket.create_connection(("127.0.0.1", port)) as gone:
            gone.sendall(b"POST /api/now HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))
            time.sleep(0.3)  # computing
        deadline = time.monotonic() + 1.5  # well before the heavy request would be done
        while workers_of(process.pid) & before and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not workers_of(process.pid) & before  # its worker stopped, and replaced:
        assert call(url, {"dealt": "5 6"})[1] == 200
    finally:
        process.send_signal(signal.SIGINT)
        process.communicate(timeout=20)


def test_a_worker_out_of_memory_answers_503_and_is_replaced(nothing_kept):
    # The pool as the library gives it: a worker limited to a little more than it holds at the
    # start; the catalogue with two known cards needs more.
    with Pool(Settings(workers=1, memory=400 * 2**20), api.Limits()) as pool:
        first = pool.pids()
        status, payload = pool.answer("/api/now", json.dumps(HEAVY).encode())
        assert status == 503 and "more memory than a worker of this server may hold" in json.loads(payload)["error"]
        assert pool.pids() != first and pool.replaced == 1
        status, payload = pool.answer("/api/now", b'{"dealt": "5 6"}')
        assert status == 200 and json.loads(payload)["dealt"] == 2


def test_the_warm_heap_is_kept_out_of_the_collector():
    # The fork server's warm-up (analyzer.web.warm) freezes what it holds, so that a worker's full
    # collections walk only what its requests made: the tracker's p99 (docs/speed.md).
    out = subprocess.run([sys.executable, "-c", "import gc, analyzer.web.warm; print(gc.get_freeze_count())"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and int(out.stdout) > 10_000, out  # the library and its compiled rule sets


def test_a_worker_killed_is_replaced_idle_or_busy(nothing_kept):
    with Pool(Settings(workers=1), api.Limits()) as pool:
        os.kill(pool.pids()[0], signal.SIGKILL)  # idle: the next request goes to its replacement
        time.sleep(0.2)
        status, payload = pool.answer("/api/now", b'{"dealt": "5 6"}')
        assert status == 200 and pool.replaced == 1
        killer = threading.Timer(0.3, lambda: os.kill(pool.pids()[0], signal.SIGKILL))  # busy: 503, replaced
        killer.start()
        status, payload = pool.answer("/api/now", json.dumps(HEAVY).encode())
        killer.join()
        assert status == 503 and "killed by SIGKILL" in json.loads(payload)["error"] and pool.replaced == 2
        assert pool.answer("/api/now", b'{"dealt": "5 6"}')[0] == 200


@needs_proc
def test_the_server_stays_within_its_stated_memory(capsys):
    # The worst requests the limits allow, two at a time (one a worker): card-level bets with
    # known cards, 24 decks, the largest rule file, bad requests. The resident memory of the
    # server and every process below it, sampled throughout, stays within the bound the docs (the live page)
    # states: each worker within its address-space limit, the HTTP process within FRONT_MEMORY.
    process, url = start("--workers", "2", "--rate", "1000")
    peak = {"all": 0, "front": 0}
    done = threading.Event()

    def sample():
        while not done.is_set():
            sizes = {p: resident(p) for p in {process.pid} | descendants(process.pid)}
            peak["all"] = max(peak["all"], sum(sizes.values()))
            peak["front"] = max(peak["front"], sizes.get(process.pid, 0))
            time.sleep(0.02)

    many = "\n".join(f'[[bets]]\nid = "b{i}"\nname = "B{i}"\nlines = [{{ when = {{ player_cards = {{ suit = "hearts", '
                     f'count = {i % 3 + 1} }} }}, pays = {i + 2} }}]' for i in range(96))
    worst = [HEAVY, {"rules": "catalog", "known": ["1=red", "2=black", "3=red"]}, {"rules": "catalog", "decks": 24},
             {"rules_toml": 'name = "many"\n' + many, "decks": 8}, {"rules": "catalog", "dealt": "A " * 1000}]
    watcher = threading.Thread(target=sample)
    watcher.start()
    try:
        with ThreadPoolExecutor(2) as pool:
            answers = list(pool.map(lambda body: call(url, body)[1], worst * 2))
    finally:
        done.set()
        watcher.join()
        process.send_signal(signal.SIGINT)
        process.communicate(timeout=20)
    with capsys.disabled():
        print(f"\nmemory: answers {sorted(answers)}; peak resident {peak['all'] / 2**20:.0f} MB in all, "
              f"{peak['front'] / 2**20:.0f} MB the HTTP process")
    assert set(answers) <= {200, 400, 503} and answers.count(200) >= 4
    assert peak["front"] <= FRONT_MEMORY and peak["all"] <= server_memory(Settings(workers=2)), peak


def resident(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, IndexError):
        return 0


def test_serve_refuses_a_port_in_use():
    process, url = start()
    try:
        port = url.rsplit(":", 1)[1].rstrip("/")
        result = CliRunner().invoke(cli, ["serve", "--port", port])
        assert result.exit_code == 1 and result.output.startswith(f"Error: cannot listen on 127.0.0.1 port {port}: ")
    finally:
        process.send_signal(signal.SIGINT)
        process.communicate(timeout=10)


@pytest.fixture(scope="module")
def live():
    """`baccarat serve` in a process of its own, on a free port of 127.0.0.1, the rate unlimited
    in practice (every client here has the one address)."""
    process, url = start("--rate", "100000")
    yield url
    process.send_signal(signal.SIGINT)
    assert process.communicate(timeout=10)[0] == "Stopped.\n" and process.returncode == 0


def call(url: str, body: dict, timeout: float = 30) -> tuple[float, int, dict]:
    request = urllib.request.Request(url + "api/now", json.dumps(body).encode(), {"Content-Type": "application/json"})
    start = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            status, data = response.status, json.load(response)
    except urllib.error.HTTPError as error:
        status, data = error.code, json.load(error)
    return time.perf_counter() - start, status, data


def test_concurrent_users_do_not_see_each_others_shoes(live):
    shoes = {f"user {i}": " ".join("A23456789TJQK"[(i + k) % 13] for k in range(i + 1)) for i in range(12)}
    with ThreadPoolExecutor(12) as pool:
        answers = dict(zip(shoes, pool.map(lambda dealt: call(live, {"decks": 1, "dealt": dealt}), shoes.values())))
    for user, dealt in shoes.items():
        _, status, data = answers[user]
        expected = cli_json("now", "--decks", "1", "--dealt", dealt.replace(" ", ","))
        assert status == 200 and data["bets"] == expected["bets"] and data["dealt"] == len(dealt.split())


def test_load(live, capsys):
    # 25 clients at once, 40 requests each, against 127.0.0.1 only: a shoe tracked card by card
    # on the whole catalogue (8 decks). Bounded: each request has 30 s, the whole test stops at
    # 300 s. The throughput figures are scripts/bench_serve.py's (50 clients x 60 requests here
    # took a minute of the suite to show the same).
    clients, each = 25, 40
    cards = "A23456789TJQK" * 32

    def client(i: int) -> list[tuple[float, float]]:
        times = []
        for k in range(each):
            seconds, status, data = call(live, {"rules": "catalog", "decks": 8, "dealt": " ".join(cards[i:i + k % 60])})
            assert status == 200 and len(data["bets"]) == 92, data
            times.append((seconds, data["server_ms"] / 1000))
        return times

    start = time.perf_counter()
    with ThreadPoolExecutor(clients) as pool:
        results = [t for result in pool.map(client, range(clients)) for t in result]
    wall = time.perf_counter() - start
    times, server = sorted(t for t, _ in results), sorted(s for _, s in results)
    with capsys.disabled():
        print(f"\nload: {clients} clients x {each} requests in {wall:.1f} s ({len(times) / wall:.0f} requests/s); "
              f"latency p50 {quantile(times, 0.5)} ms, p99 {quantile(times, 0.99)} ms; "
              f"server time p50 {quantile(server, 0.5)} ms, p99 {quantile(server, 0.99)} ms")
    assert len(times) == clients * each and wall < 300
    assert statistics.median(times) < 5  # seconds: a sanity bound on a loaded 2-core machine, not a speed target


def quantile(ordered: list[float], q: float) -> str:
    return f"{ordered[min(len(ordered) - 1, int(len(ordered) * q))] * 1000:.0f}"


def test_a_symbolic_payout_is_shown_as_its_expression(client):
    symbolic = 'name = "s"\nsymbols = ["x"]\n[[bets]]\nid = "b"\nname = "B"\nlines = [{ when = { winner = "banker" }, pays = "x" }]\n'
    status, data = post(client, "/api/now", {"rules_toml": symbolic})
    assert status == 200 and data["shown"]["b"]["house_edge"] == data["bets"][0]["house_edge"]  # exact: x is unknown
    status, design = post(client, "/api/design", {"rules_toml": symbolic})
    banker = Fraction(cli_json("edge", "--decks", "8")["bets"][0]["win"])  # P(Banker wins): the Banker bet's win
    loses = 1 - banker
    assert status == 200 and Fraction(design["break_even"][0]["pays"]) == loses / banker  # x P(win) = P(lose)


def test_a_chunked_body_is_held_to_the_same_limit(live):
    host, port = live.split("//")[1].rstrip("/").split(":")
    for cards, status in [(3, 200), (170_000, 413)]:
        body = json.dumps({"dealt": "9 " * cards}).encode()
        connection = http.client.HTTPConnection(host, int(port), timeout=30)
        connection.request("POST", "/api/now", body=(body[i:i + 8192] for i in range(0, len(body), 8192)),
                           headers={"Content-Type": "application/json"}, encode_chunked=True)
        response = connection.getresponse()
        assert response.status == status, response.read()
        connection.close()


def test_with_a_token_the_page_and_the_api_need_it():
    client = create_app(token="s3cret-token").test_client()
    refused = client.post("/api/now", json={})
    assert refused.status_code == 401 and refused.headers["WWW-Authenticate"] == "Bearer"
    assert refused.get_json() == {"error": "this server needs its access token: send Authorization: Bearer TOKEN"}
    assert client.post("/api/now", json={}, headers={"Authorization": "Bearer wrong"}).status_code == 401
    assert client.post("/api/now", json={}, headers={"Authorization": "Bearer s3cret-token"}).status_code == 200
    assert client.get("/api/rules").status_code == client.get("/api/openapi.json").status_code == 401
    assert client.get("/").status_code == 401 and client.get("/?token=wrong").status_code == 401
    page = client.get("/?token=s3cret-token")
    assert page.status_code == 200 and '<meta name="baccarat-token" content="s3cret-token">' in page.get_data(as_text=True)
    assert client.get("/static/app.js").status_code == 200  # the script is no secret
    open_page = create_app().test_client().get("/").get_data(as_text=True)
    assert '<meta name="baccarat-token" content="">' in open_page  # on this machine alone: no token


def test_listening_beyond_this_machine_always_takes_a_token():
    process = subprocess.Popen([sys.executable, "-m", "analyzer", "serve", "--host", "0.0.0.0", "--port", "0"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env=os.environ | {"PYTHONUNBUFFERED": "1"})
    try:
        line = process.stdout.readline()
        token = line.split("?token=")[1].split()[0]
        assert len(token) >= 20 and line.startswith("Serving on http://0.0.0.0:")
        assert "has the address with its token" in process.stderr.readline()  # said before it serves
        time.sleep(0.3)
    finally:
        process.send_signal(signal.SIGINT)
        process.communicate(timeout=10)
    assert process.returncode == 0
    bad = subprocess.run([sys.executable, "-m", "analyzer", "serve", "--token", "a b"], capture_output=True, text=True)
    assert bad.returncode == 1 and bad.stderr == ("Error: --token: 8 to 128 letters, digits, - or _ (it goes into the "
                                                  "page's address)\n")
