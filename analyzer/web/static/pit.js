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

function showTile(table) {
  let tile = tiles.get(table.name);
  const before = tile ? tile.dataset.positive : "";
  if (!tile) {
    tile = document.getElementById("tile").content.firstElementChild.cloneNode(true);
    tile.querySelector(".name").textContent = table.name;
    tile.querySelector(".open").href = withToken(`table/${encodeURIComponent(table.name)}`);
    tiles.set(table.name, tile);
    const all = [...tiles.keys()].sort();
    document.getElementById("tables").insertBefore(tile, tiles.get(all[all.indexOf(table.name) + 1]) || null);
  }
  tile.dataset.at = table.at || "";
  tile.querySelector(".meta").textContent = `${table.rules}, ${table.decks} deck${table.decks === 1 ? "" : "s"} · shoe ${table.shoe} · coup ${table.coups}` +
    (table.over ? " · shoe over" : table.cut_out ? " · cut card out" : "");
  tile.querySelector(".number").textContent = table.cards_left ?? "-";
  tile.querySelector(".last").textContent = lastText(table.last) + (table.run ? `  ·  ${table.run}` : "");
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
  source.onerror = () => { connection("reconnecting..."); for (const t of tiles.values()) t.classList.add("is-stale"); };
  source.onopen = () => connection("");
  setInterval(markStale, 1000);
  markStale();
}

// ---- a clerk's page
let table = null;

function name() {
  return decodeURIComponent(location.pathname.split("/").pop());
}

function show(state) {
  table = state;
  document.getElementById("title").textContent = `Table ${state.name}`;
  document.getElementById("left").textContent = state.cards_left ?? "-";
  document.getElementById("last").textContent = lastText(state.last);
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

async function send(event) {
  const response = await fetch(`../api/tables/${encodeURIComponent(name())}/events`, {
    method: "POST", headers: { ...headers, "Content-Type": "application/json" },
    body: JSON.stringify({ ...event, after: table ? table.event : 0 }),
  });
  const data = await response.json();
  if (response.status === 200) { show(data.table); message(`kept as event ${data.event}`, true); return true; }
  if (response.status === 409) { show(data.table); message(`another writer came first: the table is at event ${data.event} (shown); enter it again if still needed`); return false; }
  message(data.error || `refused (${response.status})`);
  return false;
}

const cardsOf = (text) => text.split(/[\s,]+/).filter(Boolean);

function clerk() {
  document.getElementById("back").href = withToken("../pit");
  document.getElementById("coup-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const input = document.getElementById("cards");
    if (await send({ type: "coup", cards: cardsOf(input.value) })) input.value = "";
    input.focus();
  });
  document.getElementById("correct").addEventListener("click", () => send({ type: "correction", cards: cardsOf(document.getElementById("cards").value) }));
  document.getElementById("new-shoe").addEventListener("click", () => send({ type: "shoe" }));
  document.getElementById("cut").addEventListener("click", () => send({ type: "cut" }));
  document.getElementById("burn").addEventListener("click", () => send({
    type: "burn", cards: cardsOf(document.getElementById("burn-cards").value),
    face_down: Number(document.getElementById("burn-down").value || 0) }));
  const source = new EventSource(withToken(`../api/tables/${encodeURIComponent(name())}/events?after=0&stream=1&brief=1`));
  fetch(`../api/tables/${encodeURIComponent(name())}`, { headers }).then((r) => r.json()).then((state) => {
    if (state.error) { message(state.error); return; }
    show(state);
    source.onmessage = null;
  });
  for (const type of ["shoe", "burn", "coup", "correction", "cut"]) {
    source.addEventListener(type, () => {
      fetch(`../api/tables/${encodeURIComponent(name())}`, { headers }).then((r) => r.json()).then((state) => {
        if (!table || state.event >= table.event) show(state);
      });
      connection("");
    });
  }
  source.onerror = () => connection("reconnecting...");
}

if (document.body.classList.contains("pit")) overview();
else clerk();
