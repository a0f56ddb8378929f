// The pit's pages: the overview (every table, pushed by the server as events are kept) and a
// clerk's page bound to one table (coups entered as coups, the burn, the cut card). No library.
"use strict";

const token = document.querySelector('meta[name="baccarat-token"]').content;
const headers = token ? { Authorization: `Bearer ${token}` } : {};
const withToken = (path) => (token ? `${path}${path.includes("?") ? "&" : "?"}token=${encodeURIComponent(token)}` : path);
const STALE_MS = 5 * 60 * 1000; // a table with no event for five minutes looks stale

function el(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (cls) node.className = cls;
  return node;
}

function lastText(last) {
  if (!last) return "";
  const w = last.winner === "tie" ? "Tie" : last.winner === "player" ? "Player" : "Banker";
  const hi = Math.max(last.player_total, last.banker_total), lo = Math.min(last.player_total, last.banker_total);
  return `${w} ${hi}-${lo}: ${last.cards.join(" ")}`;
}

function connection(text) {
  const node = document.getElementById("connection");
  node.hidden = !text;
  node.textContent = text || "";
}

// ---- the overview
const tiles = new Map();
let audio = null;

function beep() {
  if (!document.getElementById("sound").checked) return;
  audio = audio || new AudioContext();
  const osc = audio.createOscillator();
  osc.frequency.value = 880;
  osc.connect(audio.destination);
  osc.start();
  osc.stop(audio.currentTime + 0.25);
}

const naturally = (a, b) => a.localeCompare(b, undefined, { numeric: true, sensitivity: "base" });

const WALL = new URLSearchParams(location.search).has("wall"); // a screen nobody touches: no controls
const SHOWN_POSITIVE = 2; // positive bets a tile lists; past that, the best and how many more

function shortEv(text) { // past 8 characters (+26.0793%), two decimals: the whole is on hover
  return String(text).length > 8 ? String(text).replace(/^([+-]?\d+)\.(\d\d)\d*%$/, "$1.$2%") : String(text);
}

function showTile(table) {
  let tile = tiles.get(table.name);
  if (table.closed) { // a closed table leaves the overview
    if (tile) { tile.remove(); tiles.delete(table.name); layout(); }
    document.getElementById("empty").hidden = tiles.size > 0;
    return;
  }
  const before = tile ? tile.dataset.positive : "";
  if (!tile) {
    tile = document.getElementById("tile").content.firstElementChild.cloneNode(true);
    const link = tile.querySelector(".open");
    link.textContent = table.name;
    link.title = table.name;
    link.href = withToken(`table/${encodeURIComponent(table.name)}`);
    tile.querySelector(".board-link").href = withToken(`board/${encodeURIComponent(table.name)}`);
    tile.querySelector(".close").addEventListener("click", () => closeTable(table.name));
    tiles.set(table.name, tile);
    const all = [...tiles.keys()].sort(naturally);
    document.getElementById("tables").insertBefore(tile, tiles.get(all[all.indexOf(table.name) + 1]) || null);
    layout();
  }
  tile.dataset.at = table.at || "";
  const meta = `shoe ${table.shoe} · coup ${table.coups}` + (table.over ? " · over" : table.cut_out ? " · cut" : "");
  tile.querySelector(".meta").textContent = meta;
  tile.querySelector(".meta").title = `${meta} · ${table.rules}, ${table.decks} deck${table.decks === 1 ? "" : "s"}`;
  tile.querySelector(".number").textContent = table.cards_left ?? "-";
  const board = table.board || { tallies: { banker: 0, player: 0, tie: 0 }, big_road: [] };
  const tally = tile.querySelector(".tally");
  const line = el("span");
  line.append(el("span", `B ${board.tallies.banker}`, "b"), " ", el("span", `P ${board.tallies.player}`, "p"), " ",
    el("span", `T ${board.tallies.tie}`, "t"));
  tally.replaceChildren(line, ...(table.table_count ? [el("span", `RC ${table.table_count.running >= 0 ? "+" : ""}` +
    `${table.table_count.running} TC ${table.table_count.true_shown}`, "tc")] : []));
  tile.querySelector(".mini-road").dataset.cells = JSON.stringify(board.big_road);
  drawMini(tile);
  const last = lastText(table.last) + (table.run ? ` · ${table.run}` : "");
  tile.querySelector(".last").textContent = last;
  tile.querySelector(".last").title = last;
  const positive = table.positive_ev || [];
  const room = tile.classList.contains("has-results") ? 1 : SHOWN_POSITIVE; // the results line takes a line
  const shown = positive.length > room ? positive.slice(0, 1) : positive;
  const list = tile.querySelector(".positive");
  const others = positive.length - shown.length;
  list.replaceChildren(...shown.map((p) => {
    const item = el("li");
    item.title = `${p.name} ${p.ev_shown}` + (others && room === 1 ? ` and ${others} more positive` : "");
    item.append(el("span", p.name + (others && room === 1 ? ` +${others}` : "")), el("span", shortEv(p.ev_shown)));
    return item;
  }), ...(others && room > 1 ? [el("li", `and ${others} more positive`, "more")] : []));
  tile.state = table;
  const ids = positive.map((p) => p.bet).join(",");
  tile.dataset.positive = ids;
  tile.classList.toggle("has-positive", ids !== "");
  tile.querySelector(".none").hidden = ids !== "";
  if (ids && ids.split(",").some((id) => !before.split(",").includes(id))) beep();
  document.getElementById("empty").hidden = tiles.size > 0;
}

function drawMini(tile) {
  const box = tile.querySelector(".mini-road");
  const cells = JSON.parse(box.dataset.cells || "[]");
  Board.drawRoad(box, Board.bigItems(cells), Math.max(6, Math.floor(box.clientHeight / 6)));
}

// Every tile on the screen: the columns and rows that give the largest tiles, the sizes scaled to them.
function layout() {
  const box = document.getElementById("tables");
  const n = tiles.size;
  if (!n) return;
  const gap = 10, W = box.clientWidth || window.innerWidth, H = box.clientHeight || window.innerHeight - 50;
  let best = null;
  for (let cols = 1; cols <= n; cols++) {
    const rows = Math.ceil(n / cols);
    const w = (W - gap * (cols + 1)) / cols, h = (H - gap * (rows + 1)) / rows;
    const scale = Math.min(w / 360, h / 236);
    if (!best || scale > best.scale) best = { cols, h, scale };
  }
  box.style.setProperty("--cols", best.cols);
  box.style.setProperty("--tile-h", `${Math.floor(best.h)}px`);
  box.style.setProperty("--s", Math.max(0.7, Math.min(2.4, best.scale)).toFixed(3));
  for (const tile of tiles.values()) drawMini(tile);
}

async function writeJson(path, body) {
  const response = await fetch(path, { method: "POST", headers: { ...headers, "Content-Type": "application/json" },
    body: JSON.stringify(body) });
  return [response.status, await response.json().catch(() => ({}))];
}

async function closeTable(name) {
  const state = await (await fetch(`api/tables/${encodeURIComponent(name)}`, { headers })).json();
  if (state.error) { window.alert(state.error); return; }
  if (!window.confirm(`Close table ${name}? Its history is kept; a new shoe opens it again.`)) return;
  const [status, answer] = await writeJson(`api/tables/${encodeURIComponent(name)}/events`, { type: "close", after: state.event });
  if (status !== 200) window.alert(answer.error || `refused (${status})`);
}

async function createForm() {
  const dialog = document.getElementById("create");
  const rules = await (await fetch("api/rules", { headers })).json();
  const select = document.getElementById("create-rules");
  if (!select.options.length) {
    for (const r of rules.rules || []) {
      const option = el("option", r.name);
      option.value = r.name;
      select.append(option);
    }
    select.value = "catalog";
    countsOf();
  }
  dialog.showModal();
}

async function createTable(event) {
  event.preventDefault();
  const form = new FormData(document.getElementById("create-form"));
  const spec = { name: form.get("name"), rules: form.get("rules"), decks: Number(form.get("decks")), cut: Number(form.get("cut")),
    burn: form.get("burn") };
  if (form.get("count")) spec.count = form.get("count");
  const [status, answer] = await writeJson("api/tables", spec);
  const note = document.getElementById("create-message");
  if (status === 201) { note.hidden = true; document.getElementById("create").close(); return; }
  note.hidden = false;
  note.textContent = answer.error || `refused (${status})`;
}

async function countsOf() {
  const rules = document.getElementById("create-rules").value;
  const select = document.getElementById("create-count");
  select.replaceChildren(el("option", "none"));
  select.firstElementChild.value = "";
  const answer = await (await fetch("api/now", { method: "POST", headers: { ...headers, "Content-Type": "application/json" },
    body: JSON.stringify({ rules, decks: 1, card_level: false }) })).json().catch(() => ({}));
  for (const name of answer.count_systems || []) {
    const option = el("option", name);
    option.value = name;
    select.append(option);
  }
}

function markStale() {
  const now = Date.now();
  for (const tile of tiles.values()) {
    const at = Date.parse(tile.dataset.at);
    const stale = !Number.isNaN(at) && now - at > STALE_MS;
    tile.classList.toggle("is-stale", stale);
    tile.querySelector(".stale").hidden = !stale;
  }
  document.getElementById("clock").textContent = new Date().toLocaleTimeString();
}

// Each tile's results since the start of the day here (the browser's midnight): win, theoretical
// win, hold and z, read every RESULTS_MS (the server keeps each coup's figures once worked out).
const RESULTS_MS = 15_000;
const UNUSUAL_Z = 2;

function localMidnight() {
  const d = new Date();
  d.setHours(0, 0, 0, 0);
  const pad = (n) => String(Math.abs(n)).padStart(2, "0");
  const offset = -d.getTimezoneOffset();
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T00:00:00` +
    `${offset >= 0 ? "+" : "-"}${pad(Math.trunc(offset / 60))}:${pad(offset % 60)}`;
}

const grouped = (text) => { // "-1234.50" as "-1,235", "+0.50" as "+1": whole units, halves away from zero
  const x = Number(text), n = Math.round(Math.abs(x));
  return `${n && x > 0 ? "+" : n && x < 0 ? "-" : ""}${n.toLocaleString("en-US")}`;
};
const zText = (z, places) => { // z cut (not rounded) to its places, so that a z shown 2.0 is 2 or more
  const cut = Math.trunc(Number(z) * 10 ** places) / 10 ** places;
  return `${cut > 0 ? "+" : cut < 0 ? "-" : ""}${Math.abs(cut).toFixed(places)}`;
};

async function readResults() {
  let answer;
  try {
    const response = await fetch(`api/results?since=${encodeURIComponent(localMidnight())}`, { headers });
    if (!response.ok) return;
    answer = await response.json();
  } catch (error) {
    return; // the stream's own banner says when the server is away
  }
  for (const r of answer.tables) {
    const tile = tiles.get(r.table);
    if (!tile) continue;
    const line = tile.querySelector(".results");
    line.hidden = !r.wagers;
    if (tile.classList.contains("has-results") !== Boolean(r.wagers)) {
      tile.classList.toggle("has-results", Boolean(r.wagers)); // its line takes the place of one of the positive bets
      showTile(tile.state);
    }
    if (!r.wagers) continue;
    const s = r.shown;
    const z = r.z === null ? "" : ` · z ${zText(r.z, 2)}`;
    const zShort = r.z === null ? "" : ` · z ${zText(r.z, 1)}`;
    line.textContent = `win ${grouped(s.win)} · theo ${grouped(s.theoretical)}${zShort}`;
    line.title = `today: ${r.wagers} wagers on ${r.coups} coups, handle ${s.handle}, win ${s.win}, theoretical ` +
      `${s.theoretical}, hold ${s.hold ?? "-"}%, theoretical hold ${s.theoretical_hold ?? "-"}%, SD ${r.sd}${z}`;
    line.classList.toggle("unusual", r.z !== null && Math.abs(Number(r.z)) >= UNUSUAL_Z);
  }
}

function overview() {
  if (WALL) document.body.classList.add("wall");
  document.getElementById("new-table").addEventListener("click", createForm);
  document.getElementById("create-first").addEventListener("click", createForm);
  document.getElementById("create-form").addEventListener("submit", createTable);
  document.getElementById("create-cancel").addEventListener("click", () => document.getElementById("create").close());
  document.getElementById("create-rules").addEventListener("change", countsOf);
  window.addEventListener("resize", layout);
  const source = new EventSource(withToken("api/pit/stream"));
  source.addEventListener("table", (message) => { connection(""); showTile(JSON.parse(message.data)); });
  source.addEventListener("tables", (message) => {
    connection("");
    document.getElementById("empty").hidden = JSON.parse(message.data).length > 0 || tiles.size > 0;
  });
  source.onerror = () => { connection("reconnecting..."); for (const t of tiles.values()) t.classList.add("is-stale"); };
  source.onopen = () => connection("");
  setInterval(markStale, 1000);
  markStale();
  setTimeout(readResults, 500);
  setInterval(readResults, RESULTS_MS);
}

// ---- a clerk's page
// The table is read once, then followed from its last event by a stream whose messages carry the
// figures kept with each event (every bet's): no read of the table per event, no replay of its
// history. A write that is not heard (network, 5xx, timeout) says so in a banner that stays until
// a write succeeds, and the coup stays in the input; while the stream is down the figures are
// greyed and marked stale since the last event; a coup refused because the table moved on is set
// aside as not kept, and is sent again only by its own button.
let table = null;
let stream = null;
const WRITE_MS = 10_000; // a write not answered by then is not heard

function name() {
  return decodeURIComponent(location.pathname.split("/").pop());
}

function countText(count) {
  return count ? `count ${count.system}: running ${count.running >= 0 ? "+" : ""}${count.running}, true ${count.true_shown}` : "";
}

const BOARD = document.body.classList.contains("board"); // the read-only board over the table

function show(state) {
  table = state;
  document.getElementById("title").textContent = `Table ${state.name}`;
  document.getElementById("left").textContent = state.cards_left ?? "-";
  document.getElementById("last").textContent = lastText(state.last);
  showBoard(state);
  if (BOARD) {
    document.getElementById("shoe-line").textContent = `${state.rules}, ${state.decks} deck${state.decks === 1 ? "" : "s"} · ` +
      `shoe ${state.shoe} · coup ${state.coups}` + (state.closed ? " · table closed" : state.over ? " · shoe over"
        : state.cut_out ? " · cut card out" : "");
    showPositive(state);
    return;
  }
  const start = document.getElementById("no-shoe");
  start.hidden = state.shoe > 0 && !state.closed;
  start.textContent = state.closed ? "This table is closed: a new shoe opens it again (New shoe)."
    : "No shoe in play: start a shoe (New shoe), then enter its burn and its coups.";
  const count = document.getElementById("count");
  count.hidden = !state.table_count;
  count.textContent = countText(state.table_count);
  document.getElementById("shoe-line").textContent = `${state.rules}, ${state.decks} deck${state.decks === 1 ? "" : "s"} · shoe ${state.shoe} · ` +
    `coup ${state.coups} · event ${state.event}` + (state.closed ? " · table closed" : state.over ? " · shoe over" : state.cut_out ? " · cut card out" : "");
  const positive = new Set(state.positive);
  const bets = [...state.bets].sort((a, b) => (positive.has(b.bet) - positive.has(a.bet)));
  document.getElementById("positive").replaceChildren(...state.positive.map((id) => {
    const bet = state.bets.find((b) => b.bet === id);
    const item = el("li");
    item.append(el("span", bet ? bet.name : id), el("span", bet ? percentOf(bet.ev) : ""));
    return item;
  }));
  document.querySelector("#bets tbody").replaceChildren(...bets.map((bet) => {
    const row = el("tr", undefined, positive.has(bet.bet) ? "pos" : "");
    row.append(el("td", bet.name), el("td", percentOf(bet.ev)), el("td", percentOf(bet.house_edge)));
    return row;
  }));
}

// The table after a kept event, from the event's message (its figures as kept, or in brief) and the table before.
function after(state, kept) {
  const f = kept.figures;
  return { ...state, event: kept.event, at: kept.at, shoe: f.shoe ?? 0, cards_left: f.cards_left ?? null, coups: f.coups ?? 0,
    cut_out: !!f.cut, over: !!f.over, last: f.last || null, positive: f.positive || [], bets: f.bets || [],
    positive_ev: f.positive_ev, table_count: f.table_count || null, board: f.board || null, closed: !!f.closed };
}

const EMPTY_BOARD = { tallies: { banker: 0, player: 0, tie: 0, player_pair: 0, banker_pair: 0, natural: 0 }, bead_plate: [],
  big_road: [], big_eye_boy: [], small_road: [], cockroach_pig: [], ask: { banker: {}, player: {} } };
const TALLIES = [["banker", "Banker"], ["player", "Player"], ["tie", "Tie"], ["player_pair", "P pair"],
  ["banker_pair", "B pair"], ["natural", "Naturals"]];
const ROADS = ["big_eye_boy", "small_road", "cockroach_pig"];

// The scoreboard, the tallies, the ask marks, the penetration and the count, where the page has them.
function showBoard(state) {
  const bead = document.getElementById("bead");
  if (!bead) return;
  const board = state.board || EMPTY_BOARD;
  Board.drawRoad(bead, Board.beadItems(board.bead_plate));
  Board.drawRoad(document.getElementById("big"), Board.bigItems(board.big_road));
  for (const name of ROADS) Board.drawRoad(document.getElementById(name), Board.derivedItems(name, board[name]));
  document.getElementById("tallies").replaceChildren(...TALLIES.map(([key, label]) => {
    const item = el("div", undefined, key);
    item.append(el("dt", label), el("dd", String(board.tallies[key])));
    return item;
  }));
  const size = Math.max(24, Math.round((bead.clientHeight / 6) * 0.7));
  for (const side of ["banker", "player"]) {
    document.getElementById(`ask-${side}`).replaceChildren(...ROADS.map((name) => Board.askMark(name, (board.ask[side] || {})[name], size)));
  }
  const dealt = document.getElementById("dealt");
  if (dealt) {
    const total = state.decks * 52;
    const left = state.cards_left ?? total;
    dealt.style.width = `${(100 * (total - left)) / total}%`;
    document.getElementById("cut-mark").style.left = `calc(${(100 * (total - state.cut)) / total}% - 2px)`;
    document.getElementById("count").hidden = !state.table_count;
    document.getElementById("count").textContent = countText(state.table_count);
  }
}

// The positive bets with their EV, best first: in brief (positive_ev) or from every bet's figures.
function showPositive(state) {
  const shown = state.positive_ev || state.positive.map((id) => {
    const bet = state.bets.find((b) => b.bet === id);
    return { bet: id, name: bet ? bet.name : id, ev_shown: bet ? percentOf(bet.ev) : "" };
  });
  const list = document.getElementById("positive");
  list.replaceChildren(...shown.map((p) => {
    const item = el("li");
    item.title = `${p.name} ${p.ev_shown}`;
    item.append(el("span", p.name), el("span", p.ev_shown));
    return item;
  }));
  // as many as the board has room for, best first; the rest counted
  const room = list.getBoundingClientRect().top;
  let kept = shown.length;
  while (kept > 1 && list.lastElementChild.getBoundingClientRect().bottom > window.innerHeight - 8) {
    list.lastElementChild.remove();
    kept -= 1;
  }
  if (kept < shown.length) {
    list.lastElementChild.remove();
    list.append(el("li", `and ${shown.length - kept + 1} more positive`, "more"));
  }
  document.getElementById("none").hidden = shown.length > 0 || room < 0;
}

function sinceText(at) {
  const seconds = Math.max(0, Math.round((Date.now() - Date.parse(at)) / 1000));
  if (Number.isNaN(seconds)) return "";
  return `last event ${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")} ago`;
}

function percentOf(exact) {
  const [p, q] = String(exact).split("/");
  const value = Number(p) / Number(q || 1) * 100;
  return `${value >= 0 ? "+" : ""}${value.toFixed(4)}%`;
}

function message(text, ok) {
  const node = document.getElementById("message");
  node.hidden = !text;
  node.textContent = text || "";
  node.classList.toggle("ok", !!ok);
}

function unheard(text) {
  const node = document.getElementById("unheard");
  node.hidden = !text;
  node.textContent = text || "";
}

let refusedType = "coup"; // what the coup set aside was sent as: a coup, or a correction of the last

function setAside(cards, type = "coup") {
  refusedType = type;
  document.getElementById("refused").hidden = !cards;
  document.getElementById("refused-cards").textContent = cards || "";
  document.getElementById("resend").textContent = type === "correction" ? "Send it again as a correction of the last coup"
    : "Send it again as the next coup";
}

// A write whose answer never came may have been kept: the event sent, and the table's event then.
// When the stream shows it kept, the page says so and clears the input (it is never sent twice).
let unanswered = null;
const lately = []; // the events the stream brought lately: the answer may be lost after the event came

// Cards as the server keeps them, whatever their case ("KD", "10h" are "Kd", "Th"), to compare.
const keptCards = (cards) => (cards || []).map((c) => c.toLowerCase().replace(/^10/, "t")).join(" ");

function sameEvent(sent, kept) {
  return sent.type === kept.type && keptCards(sent.cards) === keptCards((kept.body || {}).cards);
}

// Send an event; true once kept. The answer's table is shown whatever it says.
async function send(event) {
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), WRITE_MS);
  const since = table ? table.event : 0;
  let response, data;
  try {
    response = await fetch(`../api/tables/${encodeURIComponent(name())}/events`, {
      method: "POST", headers: { ...headers, "Content-Type": "application/json" }, signal: stop.signal,
      body: JSON.stringify({ ...event, after: since }),
    });
    data = await response.json().catch(() => ({}));
  } catch (error) {
    notHeard(event, since, `Not heard: the server did not answer (${error.name === "AbortError" ? "no answer in 10 s"
      : "network down"}). It may or may not have been kept: the page shows the table as soon as it hears it again, ` +
      "and says so if it was; the coup stays in the input until then.");
    return false;
  } finally {
    clearTimeout(timer);
  }
  if (response.status >= 500) {
    notHeard(event, since, `Not heard: the server failed (${response.status}${data.error ? `: ${data.error}` : ""}). ` +
      "The coup is still in the input.");
    return false;
  }
  unheard("");
  unanswered = null;
  if (response.status === 200) { show(data.table); message(`kept as event ${data.event}`, true); return true; }
  if (response.status === 409) {
    if (data.table) show(data.table);
    message(`not kept: ${data.error || "the table moved on"}. The table is shown as it is now.`);
    return "stale";
  }
  message(data.error || `refused (${response.status})`);
  return false;
}

const cardsOf = (text) => text.split(/[\s,]+/).filter(Boolean);

async function deal(type) {
  const input = document.getElementById("cards");
  const text = input.value.trim();
  if (!text) { message("enter the coup's cards first"); input.focus(); return; }
  const kept = await send({ type, cards: cardsOf(text) });
  if (kept === true) input.value = "";
  if (kept === "stale") { setAside(text, type); input.value = ""; }
  input.focus();
}

// A write not answered: say so, and remember it until the stream shows whether it was kept (it may have come already).
function notHeard(event, since, text) {
  unanswered = { event, after: since };
  unheard(text);
  const already = lately.find((kept) => kept.event > since && sameEvent(event, kept));
  if (already) { lately.splice(lately.indexOf(already), 1); heard(already); }
}

// An event the stream shows: was it the write whose answer never came?
function heard(kept) {
  lately.push(kept);
  if (lately.length > 50) lately.shift();
  if (!unanswered || kept.event <= unanswered.after || !sameEvent(unanswered.event, kept)) return;
  const input = document.getElementById("cards");
  if (keptCards(unanswered.event.cards) === keptCards(cardsOf(input.value))) input.value = "";
  unanswered = null;
  unheard("");
  message(`kept as event ${kept.event}: the answer was lost, the table shows it`, true);
}

function follow() {
  if (stream) stream.close();
  const since = table ? table.event : 0;
  stream = new EventSource(withToken(`../api/tables/${encodeURIComponent(name())}/events?after=${since}&stream=1` +
    (BOARD ? "" : "&figures=full")));
  let wasDown = false;
  for (const type of ["shoe", "burn", "coup", "correction", "void", "cut", "close"]) {
    stream.addEventListener(type, (e) => {
      const kept = JSON.parse(e.data);
      if (table && kept.event > table.event) show(after(table, kept));
      if (!BOARD) heard(kept);
    });
  }
  stream.onopen = () => {
    connection("");
    const state = document.getElementById("state");
    state.classList.remove("is-stale");
    const note = document.getElementById("staleness");
    if (wasDown) {
      note.hidden = false;
      note.classList.add("caught-up");
      note.textContent = "reconnected: caught up with the table";
      setTimeout(() => { if (note.classList.contains("caught-up")) note.hidden = true; }, 8000);
    } else {
      note.hidden = true;
    }
    wasDown = false;
  };
  stream.onerror = () => {
    wasDown = true;
    connection("reconnecting...");
    document.getElementById("state").classList.add("is-stale");
    const note = document.getElementById("staleness");
    note.hidden = false;
    note.classList.remove("caught-up");
    const at = table && table.at ? new Date(table.at).toLocaleTimeString() : "never";
    note.textContent = `stale: not following the table (last event ${table ? table.event : "-"} at ${at})`;
    if (stream.readyState === EventSource.CLOSED) setTimeout(follow, 2000); // the browser gave up: try again
  };
}

async function load() {
  try {
    const response = await fetch(`../api/tables/${encodeURIComponent(name())}`, { headers });
    const state = await response.json();
    if (state.error) { message(state.error); return; }
    show(state);
    follow();
  } catch (error) {
    unheard("Not heard: cannot reach the server. Trying again...");
    setTimeout(load, 2000);
  }
}

// The pace of the shoe in play: its coups an hour, from its first event to its last (the table's
// shoes, read every PACE_MS); shown once two coups are dealt.
const PACE_MS = 30_000;
let pace = "";

async function readPace() {
  try {
    const response = await fetch(`../api/tables/${encodeURIComponent(name())}/shoes`, { headers });
    if (!response.ok) return;
    const shoes = (await response.json()).shoes;
    const shoe = shoes[shoes.length - 1];
    const hours = shoe ? (Date.parse(shoe.until) - Date.parse(shoe.since)) / 3_600_000 : 0;
    pace = shoe && shoe.coups >= 2 && hours > 0 ? `${Math.round(shoe.coups / hours).toLocaleString("en-US")} coups an hour · ` : "";
  } catch (error) {
    // the stream's own banner says when the server is away
  }
}

function boardPage() {
  readPace();
  setInterval(readPace, PACE_MS);
  setInterval(() => { if (table && table.at) document.getElementById("since").textContent = pace + sinceText(table.at); }, 1000);
  window.addEventListener("resize", () => { if (table) showBoard(table); });
  load();
}

function clerk() {
  window.addEventListener("resize", () => { if (table) showBoard(table); });
  document.getElementById("back").href = withToken("../pit");
  document.getElementById("coup-form").addEventListener("submit", (e) => { e.preventDefault(); deal("coup"); });
  document.getElementById("correct").addEventListener("click", () => deal("correction"));
  document.getElementById("void").addEventListener("click", () => {
    if (!table || !table.coups) { message("no coup in this shoe to void"); return; }
    const last = table.last ? ` (${table.last.cards.join(" ")})` : "";
    if (window.confirm(`Void coup ${table.coups}${last}? It stays in the history, struck out.`)) send({ type: "void" });
  });
  document.getElementById("new-shoe").addEventListener("click", () => send({ type: "shoe" }));
  document.getElementById("cut").addEventListener("click", () => send({ type: "cut" }));
  document.getElementById("burn").addEventListener("click", () => send({
    type: "burn", cards: cardsOf(document.getElementById("burn-cards").value),
    face_down: Number(document.getElementById("burn-down").value || 0) }));
  document.getElementById("resend").addEventListener("click", async () => {
    const text = document.getElementById("refused-cards").textContent;
    const kept = await send({ type: refusedType, cards: cardsOf(text) });
    if (kept === true) setAside("");
  });
  document.getElementById("drop").addEventListener("click", () => setAside(""));
  load();
}

if (document.body.classList.contains("pit")) overview();
else if (BOARD) boardPage();
else clerk();
