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

function showTile(table) {
  let tile = tiles.get(table.name);
  const before = tile ? tile.dataset.positive : "";
  if (!tile) {
    tile = document.getElementById("tile").content.firstElementChild.cloneNode(true);
    tile.querySelector(".name").textContent = table.name;
    tile.querySelector(".open").href = withToken(`table/${encodeURIComponent(table.name)}`);
    tiles.set(table.name, tile);
    const all = [...tiles.keys()].sort(naturally);
    document.getElementById("tables").insertBefore(tile, tiles.get(all[all.indexOf(table.name) + 1]) || null);
  }
  tile.dataset.at = table.at || "";
  tile.querySelector(".meta").textContent = `${table.rules}, ${table.decks} deck${table.decks === 1 ? "" : "s"} · shoe ${table.shoe} · coup ${table.coups}` +
    (table.over ? " · shoe over" : table.cut_out ? " · cut card out" : "");
  tile.querySelector(".number").textContent = table.cards_left ?? "-";
  tile.querySelector(".last").textContent = lastText(table.last) + (table.run ? `  ·  ${table.run}` : "");
  tile.querySelector(".count").hidden = !table.table_count;
  tile.querySelector(".count").textContent = countText(table.table_count);
  const list = tile.querySelector(".positive");
  list.replaceChildren(...(table.positive_ev || []).map((p) => {
    const item = el("li");
    item.append(el("span", p.name), el("span", p.ev_shown));
    return item;
  }));
  const ids = (table.positive_ev || []).map((p) => p.bet).join(",");
  tile.dataset.positive = ids;
  tile.classList.toggle("has-positive", ids !== "");
  tile.querySelector(".none").hidden = ids !== "";
  if (ids && ids.split(",").some((id) => !before.split(",").includes(id))) beep();
  document.getElementById("empty").hidden = tiles.size > 0;
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

function overview() {
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

function show(state) {
  table = state;
  document.getElementById("title").textContent = `Table ${state.name}`;
  document.getElementById("left").textContent = state.cards_left ?? "-";
  document.getElementById("last").textContent = lastText(state.last);
  document.getElementById("no-shoe").hidden = state.shoe > 0;
  const count = document.getElementById("count");
  count.hidden = !state.table_count;
  count.textContent = countText(state.table_count);
  document.getElementById("shoe-line").textContent = `${state.rules}, ${state.decks} deck${state.decks === 1 ? "" : "s"} · shoe ${state.shoe} · ` +
    `coup ${state.coups} · event ${state.event}` + (state.over ? " · shoe over" : state.cut_out ? " · cut card out" : "");
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

// The table after a kept event, from the event's message (its figures as kept) and the table before.
function after(state, kept) {
  const f = kept.figures;
  return { ...state, event: kept.event, at: kept.at, shoe: f.shoe ?? 0, cards_left: f.cards_left ?? null, coups: f.coups ?? 0,
    cut_out: !!f.cut, over: !!f.over, last: f.last || null, positive: f.positive || [], bets: f.bets || [], table_count: f.table_count || null };
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

function setAside(cards) {
  document.getElementById("refused").hidden = !cards;
  document.getElementById("refused-cards").textContent = cards || "";
}

// Send an event; true once kept. The answer's table is shown whatever it says.
async function send(event) {
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), WRITE_MS);
  let response, data;
  try {
    response = await fetch(`../api/tables/${encodeURIComponent(name())}/events`, {
      method: "POST", headers: { ...headers, "Content-Type": "application/json" }, signal: stop.signal,
      body: JSON.stringify({ ...event, after: table ? table.event : 0 }),
    });
    data = await response.json().catch(() => ({}));
  } catch (error) {
    unheard(`Not heard: the server did not answer (${error.name === "AbortError" ? "no answer in 10 s" : "network down"}). ` +
      "Nothing was kept; the coup is still in the input: send it again when the server answers.");
    return false;
  } finally {
    clearTimeout(timer);
  }
  if (response.status >= 500) {
    unheard(`Not heard: the server failed (${response.status}${data.error ? `: ${data.error}` : ""}). The coup is still in the input.`);
    return false;
  }
  unheard("");
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
  if (kept === "stale") { setAside(text); input.value = ""; }
  input.focus();
}

function follow() {
  if (stream) stream.close();
  const since = table ? table.event : 0;
  stream = new EventSource(withToken(`../api/tables/${encodeURIComponent(name())}/events?after=${since}&stream=1&figures=full`));
  let wasDown = false;
  for (const type of ["shoe", "burn", "coup", "correction", "void", "cut"]) {
    stream.addEventListener(type, (e) => {
      const kept = JSON.parse(e.data);
      if (table && kept.event > table.event) show(after(table, kept));
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

function clerk() {
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
    const kept = await send({ type: "coup", cards: cardsOf(text) });
    if (kept === true) setAside("");
  });
  document.getElementById("drop").addEventListener("click", () => setAside(""));
  load();
}

if (document.body.classList.contains("pit")) overview();
else clerk();
