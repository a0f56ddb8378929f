// baccarat serve: the page.
//
// The server is stateless: the page keeps the shoe tracker's dealt cards and the designer's rule
// file, and asks the server again after every change. Every number shown comes from the server:
// decimals from its `*shown*` fields, exact "p/q" values only compared (with BigInt), never
// rounded here. Glossary: a coup is one round dealt; the dealt list is every card seen since the
// shoe was shuffled; known cards are what is seen of the next coup's cards before betting.
"use strict";

const $ = (id) => document.getElementById(id);
const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"];
const SUIT_SYMBOL = { s: "\u2660", h: "\u2665", d: "\u2666", c: "\u2663" };
const RED = new Set(["h", "d"]);
const STORE = "baccarat.page.v1";
const EXAMPLE = `name = "my-side-bet"
description = "A side bet of my own"

[[bets]]
id = "dragon_7"
name = "Dragon 7"
lines = [
  { label = "Banker wins with a three-card 7", when = { winner = "banker", banker_total = 7, banker_cards = 3 }, pays = 40 },
]
`;

// ---------------------------------------------------------------- small pieces

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === "class") node.className = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children) if (child != null) node.append(child);
  return node;
}

function show(node, text) {
  node.textContent = text || "";
  node.hidden = !text;
}

function debounce(fn, ms) {
  let timer = null;
  const later = (...args) => { clearTimeout(timer); timer = setTimeout(() => { timer = null; fn(...args); }, ms); };
  later.cancel = () => { clearTimeout(timer); timer = null; };
  return later;
}

/** The tracker's typed inputs (decks, count tags, known cards) ask the server a moment after the
 * last key; any request of the tracker reads them all, so one made meanwhile (a card dealt)
 * cancels those still waiting: a late one would otherwise clear what that request showed. */
const TYPING = [];

function whenTyped(what, ms) {
  const later = debounce(() => changed(what), ms);
  TYPING.push(later);
  return later;
}

/** An exact value "p/q" or "n" as {n, d} BigInts; null for anything else (a symbolic payout). */
function fraction(text) {
  const m = /^(-?\d+)(?:\/(\d+))?$/.exec(String(text));
  return m ? { n: BigInt(m[1]), d: BigInt(m[2] || "1") } : null;
}

/** -1, 0 or 1 as a < b, a = b, a > b, exactly. */
function compareFractions(a, b) {
  const left = a.n * b.d, right = b.n * a.d;
  return left < right ? -1 : left > right ? 1 : 0;
}

/** An integer count with thousands separators, as the command line prints it (exact: a string of digits). */
function grouped(count) {
  if (count == null) return "";
  return String(count).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** JSON with integers kept exact: a count beyond 2^53 becomes a BigInt, not a rounded float. */
function parseJSON(text) {
  return JSON.parse(text, (key, value, context) =>
    typeof value === "number" && !Number.isSafeInteger(value) && context && /^-?\d+$/.test(context.source)
      ? BigInt(context.source) : value);
}

class NetworkError extends Error {}

/** The server's access token, where it has one: the page was given it (see `baccarat serve --token`). */
const TOKEN = document.querySelector('meta[name="baccarat-token"]')?.content || "";
const AUTHORIZATION = TOKEN ? { Authorization: `Bearer ${TOKEN}` } : {};

/** POST (or GET without a body) to the server: {ok, status, data}. Throws NetworkError when it cannot be reached. */
async function api(path, body, signal) {
  let response, text;
  try {
    response = await fetch(path, body === undefined ? { signal, headers: AUTHORIZATION } : {
      method: "POST", headers: { "Content-Type": "application/json", ...AUTHORIZATION }, body: JSON.stringify(body), signal,
    });
    text = await response.text();
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new NetworkError("Network error: cannot reach the baccarat server (is `baccarat serve` still running?)");
  }
  setConnection(true);
  let data = null;
  try { data = parseJSON(text); } catch { /* not JSON: said below */ }
  if (!response.ok) {
    const message = data && data.error ? data.error : `The server answered ${response.status} ${response.statusText}`;
    return { ok: false, status: response.status, data: data || { error: message }, error: message };
  }
  if (data === null) return { ok: false, status: response.status, data: {}, error: "The server's answer is not JSON" };
  return { ok: true, status: response.status, data };
}

function setConnection(up) {
  show($("connection"), up ? "" : "server unreachable");
}

// ---------------------------------------------------------------- saved state

function loadSaved() {
  try { return JSON.parse(localStorage.getItem(STORE)) || {}; } catch { return {}; }
}

function save() {
  try {
    localStorage.setItem(STORE, JSON.stringify({
      rules: $("rules").value, decks: $("decks").value, dealt: tracker.dealt, suit: tracker.suit,
      rulesFile: tracker.rulesFile, shoeFile: tracker.shoeFile, known: $("known").value,
      count: $("count").value, countTags: $("count-tags").value, cardLevel: $("card-level").checked,
      toml: $("toml").value, designDecks: $("design-decks").value, tab: activeTab(),
    }));
  } catch { /* private mode or full: the page works without */ }
}

// ---------------------------------------------------------------- tabs

function activeTab() {
  return $("tab-designer").getAttribute("aria-selected") === "true" ? "designer" : "tracker";
}

function selectTab(name) {
  for (const tab of ["tracker", "designer"]) {
    $(`tab-${tab}`).setAttribute("aria-selected", String(tab === name));
    $(tab).hidden = tab !== name;
  }
  if (name === "designer") {
    if (!designer.started) { designer.started = true; refreshDesign(); }
    updateGutter();
  }
  if (location.hash !== `#${name}`) history.replaceState(null, "", `#${name}`);
  save();
}

// ---------------------------------------------------------------- shoe tracker

const tracker = {
  dealt: [],          // cards as the server reads them: "9", "T", "Ah"
  cleared: null,      // the dealt list before the last "New shoe", to restore
  justDealt: 0,       // how many of the dealt list's last cards await the server's answer
  retries: 0,         // 429 answers in a row
  suit: "",           // "" (rank only) or s, h, d, c
  rulesFile: null,    // {name, text} of an uploaded rule file
  shoeFile: null,     // {name, text, kind: "toml" | "json"}
  changed: "deal",    // what the user changed last: where an error without a clear cause is shown
  controller: null,
  seq: 0,
};

/** A card as typed ("9", "10h", "kS", "0", "A\u2665") in the server's spelling ("9", "Th", "Ks", "T", "Ah"); null if it is not a card. */
function cardOf(token) {
  const symbols = { "\u2660": "s", "\u2665": "h", "\u2666": "d", "\u2663": "c" };
  const m = /^(10|[02-9atjqk])([shdc\u2660\u2665\u2666\u2663])?$/i.exec(token);
  if (!m) return null;
  const rank = m[1] === "10" || m[1] === "0" ? "T" : m[1].toUpperCase();
  const suit = m[2] ? (symbols[m[2]] || m[2].toLowerCase()) : "";
  return rank + suit;
}

/** The cards of a typed or pasted text ("9 8 K", "9,8,K", "Ah Kd"), or the first token that is not a card. */
function cardsOf(text) {
  const tokens = text.split(/[\s,;]+/).filter(Boolean);
  const cards = [];
  for (const token of tokens) {
    const card = cardOf(token);
    if (card === null) return { bad: token };
    cards.push(card);
  }
  return { cards };
}

/** Known cards of the next coup as a list of "POS=CARDS": one per line, or comma separated
 * (a comma starts a new item only before "POS=", so "5=6,7,8,9" stays one item). */
function knownList() {
  return $("known").value.split(/\n/)
    .flatMap((line) => line.split(/[,;](?=\s*\d+\s*=)/))
    .map((item) => item.trim()).filter(Boolean);
}

function deal(cards) {
  if (!cards.length) return;
  tracker.dealt.push(...cards);
  tracker.cleared = null;
  tracker.justDealt = cards.length; // taken back if the server refuses them
  changed("deal");
}

function undo() {
  if (!tracker.dealt.length) return;
  tracker.dealt.pop();
  tracker.justDealt = 0;
  changed("deal");
}

function newShoe() {
  if (tracker.dealt.length) tracker.cleared = tracker.dealt;
  tracker.dealt = [];
  tracker.justDealt = 0;
  changed("deal");
}

function restoreShoe() {
  if (!tracker.cleared) return;
  tracker.dealt = tracker.cleared;
  tracker.cleared = null;
  tracker.justDealt = 0;
  changed("deal");
}

/** The cards just dealt were refused by the server (none left of that rank, too many cards):
 * they were not dealt. The figures shown are still those of the dealt list. */
function takeBack(error) {
  tracker.dealt.splice(-tracker.justDealt);
  tracker.justDealt = 0;
  renderDealt();
  save();
  show($("deal-error"), `${error} (not dealt)`);
}

/** A 429: the server asks to wait. Ask again a few times, a second apart, then say so. */
function retryLater(state, again) {
  state.retries = (state.retries || 0) + 1;
  if (state.retries > 10) {
    state.retries = 0;
    return false;
  }
  setTimeout(again, 1000);
  return true;
}

/** Something the answer depends on changed: show the dealt list and ask the server. */
function changed(what) {
  for (const later of TYPING) later.cancel();
  tracker.changed = what;
  renderDealt();
  save();
  refreshNow();
}

function renderDealt() {
  const list = $("dealt");
  list.replaceChildren(...tracker.dealt.map((card, i) => {
    const suit = card.length > 1 ? card[1] : "";
    return el("li", { class: ["card", RED.has(suit) ? "red" : "", i === tracker.dealt.length - 1 ? "last" : ""].join(" ").trim() },
      card[0] + (suit ? SUIT_SYMBOL[suit] : ""));
  }));
  const n = tracker.dealt.length;
  $("dealt-count").textContent = n ? `${n} card${n === 1 ? "" : "s"} dealt, oldest first` : "No cards dealt";
  $("undo").disabled = n === 0;
  $("restore-note").hidden = !tracker.cleared;
  list.scrollTop = list.scrollHeight;
}

function renderCardButtons() {
  const symbol = tracker.suit ? SUIT_SYMBOL[tracker.suit] : "";
  $("card-buttons").replaceChildren(...RANKS.map((rank) => el("button", {
    type: "button", class: `card-btn${RED.has(tracker.suit) ? " red" : ""}`, id: `card-${rank}`,
    dataset: { rank }, title: `Deal ${rank}${symbol}`,
  }, rank, symbol ? el("span", { class: "suit-mark" }, symbol) : null)));
  for (const button of document.querySelectorAll(".suit")) {
    button.setAttribute("aria-checked", String(button.dataset.suit === tracker.suit));
  }
}

function nowRequest() {
  const body = {};
  if (tracker.rulesFile) body.rules_toml = tracker.rulesFile.text;
  else body.rules = $("rules").value || "standard";
  if (tracker.shoeFile) body[`shoe_${tracker.shoeFile.kind}`] = tracker.shoeFile.text;
  else body.decks = Number($("decks").value);
  body.dealt = tracker.dealt.join(" ");
  const known = knownList();
  if (known.length) body.known = known;
  const count = $("count").value === "tags" ? $("count-tags").value.trim() : $("count").value;
  if (count) body.count = count;
  body.card_level = $("card-level").checked;
  return body;
}

const ERROR_PLACES = ["rules", "shoe", "deal", "known", "count"];

/** Where an error is shown: by what it names, else by what the user changed last. */
function errorPlace(message) {
  const text = message.toLowerCase();
  if (/^known|card position|place \d|known card/.test(text)) return "known";
  if (/^count|tags|count system/.test(text)) return "count";
  if (/^rules?\b|rule set|rule file/.test(text)) return "rules";
  if (/^dealt|unknown card|cannot remove|none left/.test(text)) return "deal";
  if (/^shoe|shoe file|deck/.test(text)) return "shoe";
  if (/needs at least \d+ cards/.test(text)) return tracker.dealt.length ? "deal" : "shoe";
  return tracker.changed;
}

function clearNowErrors() {
  for (const place of ERROR_PLACES) show($(`${place}-error`), "");
  show($("now-error"), "");
}

async function refreshNow() {
  const seq = ++tracker.seq;
  if (tracker.controller) tracker.controller.abort();
  const controller = tracker.controller = new AbortController();
  const results = $("now-results");
  results.dataset.state = "pending";
  const slow = setTimeout(() => { if (seq === tracker.seq) $("now-status").textContent = "Computing\u2026"; }, 200);
  let answer;
  try {
    answer = await api("api/now", nowRequest(), controller.signal);
  } catch (error) {
    if (error.name === "AbortError") return;
    if (seq !== tracker.seq) return;
    clearTimeout(slow);
    clearNowErrors();
    setConnection(false);
    show($("now-error"), error.message);
    results.dataset.state = "error";
    results.classList.add("stale");
    $("now-status").textContent = "";
    return;
  }
  clearTimeout(slow);
  if (seq !== tracker.seq) return;
  clearNowErrors();
  if (answer.status === 429 && retryLater(tracker, () => { if (seq === tracker.seq) refreshNow(); })) return;
  tracker.retries = 0;
  const count = $("count").value;
  if (!answer.ok && errorPlace(answer.error) === "count" && tracker.changed === "rules" && count && count !== "tags") {
    $("count").value = ""; // the count chosen is not one of the new rules' systems: count nothing, and ask again
    refreshNow();
    return;
  }
  if (!answer.ok && errorPlace(answer.error) === "deal" && tracker.changed === "deal" && tracker.justDealt) {
    takeBack(answer.error);
    results.classList.remove("stale");
    results.dataset.state = "ready";
    $("now-status").textContent = "";
    return;
  }
  if (!answer.ok) {
    show($(`${errorPlace(answer.error)}-error`), answer.error);
    results.dataset.state = "error";
    results.classList.add("stale");
    $("now-status").textContent = "The figures shown are from before this change.";
    return;
  }
  renderNow(answer.data);
  tracker.justDealt = 0;
  results.classList.remove("stale");
  results.dataset.dealt = String(answer.data.dealt);
  results.dataset.state = "ready";
}

function renderNow(data) {
  $("rules-description").textContent = data.description || "";
  $("cards-left").textContent = String(data.shoe.cards);
  const ranks = data.shoe.ranks || {};
  const names = [...RANKS.filter((r) => r in ranks), ...Object.keys(ranks).filter((r) => !RANKS.includes(r))];
  $("ranks").tHead.rows[0].replaceChildren(...names.map((r) => el("th", { scope: "col" }, r)));
  $("ranks").tBodies[0].rows[0].replaceChildren(...names.map((r) =>
    el("td", { class: ranks[r] === 0 ? "zero" : "", dataset: { rank: r } }, String(ranks[r]))));

  const positive = new Set(data.positive || []);
  const nameOf = Object.fromEntries(data.bets.map((b) => [b.bet, b.name]));
  $("positive").replaceChildren(...(positive.size ? [...positive].map((id) =>
    el("button", { type: "button", class: "chip", dataset: { bet: id }, onclick: () => scrollToBet(id) }, nameOf[id] || id))
    : ["none"]));
  $("positive").classList.toggle("any", positive.size > 0);

  $("bets").tBodies[0].replaceChildren(...data.bets.map((bet) => {
    const shown = (data.shown || {})[bet.bet] || {};
    const cell = (key) => el("td", { class: `num ${key.replace("_", "-")}` }, shown[key] ?? bet[key] ?? "");
    return el("tr", { class: positive.has(bet.bet) ? "positive" : "", dataset: { bet: bet.bet } },
      el("th", { scope: "row", class: "bet", title: `${bet.bet}: ${bet.pays || ""}` }, bet.name,
        positive.has(bet.bet) ? el("span", { class: "badge" }, "+EV") : null,
        bet.model ? el("span", { class: "model-note", title: `Exact for ${bet.model}` }, " (independent coups)") : null),
      el("td", { class: "pays", title: bet.pays || "" }, bet.pays_brief || bet.pays || ""),
      cell("ev"), cell("house_edge"), cell("win"), cell("push"), cell("loss"));
  }));

  renderCount(data);
  const known = Object.entries(data.known || {});
  show($("known-note"), known.length ? "Every figure is conditional on what is known of the next coup: " +
    known.map(([place, what]) => `card ${place}: ${what}`).join("; ") + "." : "");
  const leftOut = data.left_out || [];
  const note = $("left-out");
  note.hidden = leftOut.length === 0;
  if (leftOut.length) {
    note.replaceChildren(`${leftOut.length} card-level bet${leftOut.length === 1 ? "" : "s"} left out: tick `,
      el("button", { type: "button", class: "link", onclick: () => { $("card-level").checked = true; changed("card-level"); } },
        "card-level bets"),
      " to include them.");
    note.title = leftOut.join(", ");
  }
  const n = data.dealt;
  $("now-status").textContent = `${n} card${n === 1 ? "" : "s"} dealt; ${data.shoe.description}. Rules ${data.rules}.` +
    (data.server_ms != null ? ` Server ${data.server_ms} ms.` : "");
}

function renderCount(data) {
  const select = $("count");
  const systems = data.count_systems || [];
  const current = select.value;
  const wanted = tracker.wantedCount ?? current;
  const fixed = [el("option", { value: "" }, "none"), ...systems.map((s) => el("option", { value: s }, s)),
    el("option", { value: "tags" }, "tags I type\u2026")];
  const same = select.options.length === fixed.length && [...select.options].every((o, i) => o.value === fixed[i].value);
  if (!same) {
    select.replaceChildren(...fixed);
    select.value = [...select.options].some((o) => o.value === wanted) ? wanted : "";
    if (select.value !== current && current) { // the count chosen is not in these rules: ask again without it
      tracker.wantedCount = null;
      $("count-tags").hidden = select.value !== "tags";
      refreshNow();
      return;
    }
  }
  tracker.wantedCount = null;
  $("count-tags").hidden = select.value !== "tags";
  const count = data.count;
  $("count-stat").hidden = !count;
  if (count) {
    $("true-count").textContent = count.true_shown ?? count.true;
    $("count-name").textContent = count.name === "given" ? "" : count.name;
    $("running-count").textContent = String(count.running);
    $("count-stat").title = `tags A..9, T: ${(count.tags || []).join(", ")}; true count ${count.true}`;
  }
}

function scrollToBet(id) {
  const row = $("bets").querySelector(`tr[data-bet="${CSS.escape(id)}"]`);
  if (!row) return;
  row.scrollIntoView({ block: "center", behavior: "smooth" });
  row.classList.add("flash");
  setTimeout(() => row.classList.remove("flash"), 1200);
}

function readFile(input, done) {
  const file = input.files && input.files[0];
  if (!file) return;
  const reader = new FileReader();
  reader.onload = () => { done(file.name, String(reader.result)); input.value = ""; };
  reader.onerror = () => { done(file.name, null); input.value = ""; };
  reader.readAsText(file);
}

function renderUploads() {
  $("rules-upload").hidden = !tracker.rulesFile;
  $("rules-file-name").textContent = tracker.rulesFile ? `Rule file ${tracker.rulesFile.name}` : "";
  $("rules").disabled = !!tracker.rulesFile;
  $("shoe-upload").hidden = !tracker.shoeFile;
  $("shoe-file-name").textContent = tracker.shoeFile ? `Shoe file ${tracker.shoeFile.name}` : "";
  $("decks").disabled = !!tracker.shoeFile;
}

async function loadRuleSets(wanted) {
  try {
    const answer = await api("api/rules");
    if (!answer.ok) { show($("rules-error"), answer.error); return; }
    const select = $("rules");
    select.replaceChildren(...answer.data.rules.map((r) =>
      el("option", { value: r.name, title: `${r.description || ""} (tableau: ${r.tableau})` }, `${r.name} (${r.bets} bets)`)));
    if (wanted && [...select.options].some((o) => o.value === wanted)) select.value = wanted;
    else if (wanted && wanted !== select.value) refreshNow(); // a saved name the server no longer has
  } catch (error) {
    setConnection(false);
    show($("rules-error"), error.message);
  }
}

function isTyping(target) {
  return target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
}

function setUpTracker(saved) {
  tracker.dealt = Array.isArray(saved.dealt) ? saved.dealt.filter((c) => typeof c === "string" && cardOf(c)) : [];
  tracker.suit = typeof saved.suit === "string" && (saved.suit === "" || SUIT_SYMBOL[saved.suit]) ? saved.suit : "";
  tracker.rulesFile = saved.rulesFile || null;
  tracker.shoeFile = saved.shoeFile || null;
  if (saved.rules) $("rules").replaceChildren(el("option", { value: saved.rules }, saved.rules));
  if (saved.decks) $("decks").value = saved.decks;
  if (saved.known) $("known").value = saved.known;
  if (saved.countTags) $("count-tags").value = saved.countTags;
  if (saved.count) {
    tracker.wantedCount = saved.count;
    if (saved.count === "tags") { $("count").value = "tags"; $("count-tags").hidden = false; }
    else $("count").prepend(el("option", { value: saved.count, selected: "" }, saved.count));
  }
  $("card-level").checked = saved.cardLevel !== false;  // on unless this page was told to leave them out

  renderCardButtons();
  renderUploads();
  $("card-buttons").addEventListener("click", (event) => {
    const button = event.target.closest(".card-btn");
    if (button) deal([button.dataset.rank + tracker.suit]);
  });
  for (const button of document.querySelectorAll(".suit")) {
    button.addEventListener("click", () => { tracker.suit = button.dataset.suit; renderCardButtons(); save(); });
  }
  $("deal-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = $("deal-input");
    const { cards, bad } = cardsOf(input.value);
    if (bad !== undefined) {
      show($("deal-error"), `"${bad}" is not a card: a rank A, 2-9, T or 10, J, Q, K, optionally with a suit s, h, d, c (Ah, 10s)`);
      input.setAttribute("aria-invalid", "true");
      return;
    }
    input.removeAttribute("aria-invalid");
    show($("deal-error"), "");
    input.value = "";
    deal(cards);
  });
  $("deal-input").addEventListener("input", () => { $("deal-input").removeAttribute("aria-invalid"); });
  $("undo").addEventListener("click", undo);
  $("new-shoe").addEventListener("click", newShoe);
  $("restore").addEventListener("click", restoreShoe);
  $("rules").addEventListener("change", () => changed("rules"));
  $("decks").addEventListener("input", whenTyped("shoe", 300));
  $("rules-file").addEventListener("change", () => readFile($("rules-file"), (name, text) => {
    if (text === null) { show($("rules-error"), `Could not read ${name}`); return; }
    tracker.rulesFile = { name, text };
    renderUploads();
    changed("rules");
  }));
  $("rules-file-clear").addEventListener("click", () => { tracker.rulesFile = null; renderUploads(); changed("rules"); });
  $("shoe-file").addEventListener("change", () => readFile($("shoe-file"), (name, text) => {
    if (text === null) { show($("shoe-error"), `Could not read ${name}`); return; }
    const kind = /\.json$/i.test(name) || /^\s*[{[]/.test(text) ? "json" : "toml";
    tracker.shoeFile = { name, text, kind };
    renderUploads();
    changed("shoe");
  }));
  $("shoe-file-clear").addEventListener("click", () => { tracker.shoeFile = null; renderUploads(); changed("shoe"); });
  $("count").addEventListener("change", () => {
    $("count-tags").hidden = $("count").value !== "tags";
    if ($("count").value === "tags") $("count-tags").focus();
    changed("count");
  });
  $("count-tags").addEventListener("input", whenTyped("count", 400));
  $("known").addEventListener("input", whenTyped("known", 400));
  $("card-level").addEventListener("change", () => changed("card-level"));

  document.addEventListener("keydown", (event) => {
    if (activeTab() !== "tracker" || isTyping(event.target) || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === "Backspace") { event.preventDefault(); undo(); return; }
    const card = event.key.length === 1 ? cardOf(event.key) : null;
    if (card) { event.preventDefault(); deal([card + tracker.suit]); }
  });

  renderDealt();
  loadRuleSets(saved.rules);
  refreshNow();
}

// ---------------------------------------------------------------- side-bet designer

const designer = { started: false, seq: 0, controller: null, errorLine: null, retries: 0, file: null };

function updateGutter() {
  const text = $("toml").value;
  const lines = text.split("\n").length;
  const gutter = $("gutter");
  if (gutter.childElementCount !== lines || gutter.dataset.error !== String(designer.errorLine)) {
    const spans = [];
    for (let i = 1; i <= lines; i++) spans.push(el("span", { class: i === designer.errorLine ? "error" : "" }, String(i)), "\n");
    gutter.replaceChildren(...spans, " ");  // the trailing space leaves room for a horizontal scrollbar
    gutter.dataset.error = String(designer.errorLine);
  }
  syncScroll();
}

function syncScroll() {
  const area = $("toml");
  $("gutter").scrollTop = area.scrollTop;
  const band = $("error-band");
  band.hidden = designer.errorLine == null;
  if (designer.errorLine != null) {
    const style = getComputedStyle(area);
    const lineHeight = parseFloat(style.lineHeight);
    band.style.height = `${lineHeight}px`;
    band.style.top = `${parseFloat(style.paddingTop) + (designer.errorLine - 1) * lineHeight - area.scrollTop}px`;
  }
}

function designRequest() {
  const body = { rules_toml: $("toml").value, decks: Number($("design-decks").value) };
  const bet = $("design-bet").value;
  if (bet) body.bet = bet;
  return body;
}

async function refreshDesign() {
  const seq = ++designer.seq;
  if (designer.controller) designer.controller.abort();
  const controller = designer.controller = new AbortController();
  const results = $("design-results");
  results.dataset.state = "pending";
  const slow = setTimeout(() => { if (seq === designer.seq) $("design-status").textContent = "Computing\u2026"; }, 200);
  let answer;
  try {
    answer = await api("api/design", designRequest(), controller.signal);
  } catch (error) {
    if (error.name === "AbortError" || seq !== designer.seq) return;
    clearTimeout(slow);
    setConnection(false);
    setDesignError(error.message, null);
    results.dataset.state = "error";
    return;
  }
  clearTimeout(slow);
  if (seq !== designer.seq) return;
  if (answer.status === 429 && retryLater(designer, () => { if (seq === designer.seq) refreshDesign(); })) return;
  designer.retries = 0;
  if (!answer.ok && /has no bet '/.test(answer.error) && $("design-bet").value) {
    $("design-bet").replaceChildren(); // the file's bets changed (an id renamed): show its first bet
    refreshDesign();
    return;
  }
  if (!answer.ok) {
    const line = Number.isInteger(answer.data.line) ? answer.data.line : null;
    setDesignError(answer.error, line);
    results.dataset.state = "error";
    $("design-status").textContent = "The figures shown are from the last rule file that worked.";
    return;
  }
  const own = answer.data.own || [];
  if (designer.file != null && answer.data.rules !== designer.file && !own.includes($("design-bet").value)) {
    designer.file = answer.data.rules;  // another file (pasted, say: another name): open it on its own bet
    $("design-bet").replaceChildren();
    refreshDesign();
    return;
  }
  designer.file = answer.data.rules;
  setDesignError("", null);
  renderDesign(answer.data);
  results.dataset.state = "ready";
}

function setDesignError(message, line) {
  const box = $("design-error");
  box.replaceChildren(...(line != null ? [el("span", { class: "line-tag" }, `line ${line}`), " "] : []), message || "");
  box.hidden = !message;
  box.dataset.line = line == null ? "" : String(line);
  $("toml").setAttribute("aria-invalid", message ? "true" : "false");
  $("design-results").classList.toggle("stale", !!message);
  designer.errorLine = line;
  updateGutter();
}

function renderDesign(data) {
  const select = $("design-bet");
  const bets = data.bets || [];
  if (select.options.length !== bets.length || bets.some((b, i) => select.options[i].value !== b)) {
    select.replaceChildren(...bets.map((b) => el("option", { value: b }, b)));
  }
  select.value = data.bet.id;
  select.hidden = $("design-bet-label").hidden = bets.length < 2;

  $("design-edge").textContent = data.house_edge_shown ?? data.house_edge;
  $("design-name").textContent = `${data.bet.name} (${data.bet.id})`;
  $("design-pays").textContent = data.bet.pays || "";
  const notes = [...(data.warnings || []), ...(data.model ? [`Exact for ${data.model}.`] : [])];
  $("design-warnings").replaceChildren(...notes.map((text) => el("li", {}, text)));
  $("design-warnings").hidden = notes.length === 0;

  $("returns").tBodies[0].replaceChildren(...data.returns.map((row) => el("tr", { class: row.event === "total" ? "total" : "" },
    el("th", { scope: "row" }, row.event),
    el("td", { class: "num" }, row.pays_text ?? (row.pays == null ? "" : String(row.pays))),
    el("td", { class: "num" }, grouped(row.combinations)),
    el("td", { class: "num" }, row.probability_shown ?? row.probability),
    el("td", { class: "num" }, row.return_shown ?? row.return))));

  $("break-even").tBodies[0].replaceChildren(...(data.break_even || []).map((row) => el("tr", {},
    el("th", { scope: "row" }, row.line),
    row.error ? el("td", { class: "error-cell" }, row.error) : el("td", { class: "num" }, row.pays_text ?? row.pays))));

  renderCatalogue(data);
  $("design-status").textContent = `Rules ${data.rules}.` + (data.server_ms != null ? ` Server ${data.server_ms} ms.` : "");
}

/** The catalogue's bets from the lowest house edge up, with the new bet where it would sit. */
function renderCatalogue(data) {
  const mine = { bet: data.bet.id, name: data.bet.name, house_edge: data.house_edge, house_edge_shown: data.house_edge_shown, mine: true };
  const rows = (data.catalogue || []).map((row) => ({ ...row, exact: fraction(row.house_edge) }));
  mine.exact = fraction(mine.house_edge);
  const numeric = rows.filter((r) => r.exact).sort((a, b) => compareFractions(a.exact, b.exact));
  let place = null;
  if (mine.exact) {
    place = numeric.findIndex((r) => compareFractions(mine.exact, r.exact) < 0);
    if (place < 0) place = numeric.length;
    numeric.splice(place, 0, mine);
  }
  const all = [...numeric, ...rows.filter((r) => !r.exact)];
  const scale = Math.max(...numeric.map((r) => Number(r.exact.n) / Number(r.exact.d)), 0);
  $("catalogue").tBodies[0].replaceChildren(...all.map((row) => {
    const value = row.exact ? Number(row.exact.n) / Number(row.exact.d) : 0; // the bar's length only: never shown as a number
    const width = scale > 0 ? Math.max(0, value / scale) * 100 : 0;
    return el("tr", { class: row.mine ? "new-bet" : "", dataset: { bet: row.bet } },
      el("th", { scope: "row" }, row.mine ? el("strong", {}, `${row.name} (yours)`) : row.name),
      el("td", { class: "num" }, row.house_edge_shown ?? row.house_edge),
      el("td", { class: "bar-col" }, el("span", { class: "bar", style: `width:${width.toFixed(2)}%` })));
  }));

  const text = $("design-place");
  if (place === null) text.textContent = "";
  else {
    const below = numeric[place - 1], above = numeric[place + 1], n = numeric.length - 1;
    const same = [below, above].find((r) => r && compareFractions(r.exact, mine.exact) === 0);
    let where;
    if (same) where = `The same house edge as ${same.name} (${same.house_edge_shown}): ${ordinal(place + 1)} lowest of ${n + 1}.`;
    else if (!below) where = `Lower than all ${n} catalogue bets (the lowest: ${above.name}, ${above.house_edge_shown}).`;
    else if (!above) where = `Higher than all ${n} catalogue bets (the highest: ${below.name}, ${below.house_edge_shown}).`;
    else where = `${ordinal(place + 1)} lowest of ${n + 1}: between ${below.name} (${below.house_edge_shown}) and ${above.name} (${above.house_edge_shown}).`;
    if (mine.exact.n < 0n) where += " A negative house edge: the bet favours the player.";
    text.textContent = where;
  }
  const wrap = $("catalogue-wrap");
  const row = $("catalogue").querySelector("tr.new-bet");
  if (row) wrap.scrollTop = Math.max(0, row.offsetTop - wrap.clientHeight / 2);
}

function ordinal(n) {
  const tail = n % 100 >= 11 && n % 100 <= 13 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th");
  return `${n}${tail}`;
}

function download() {
  const url = URL.createObjectURL(new Blob([$("toml").value], { type: "application/toml" }));
  const link = el("a", { href: url, download: "rules.toml" });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function setUpDesigner(saved) {
  const area = $("toml");
  area.value = typeof saved.toml === "string" && saved.toml.trim() ? saved.toml : EXAMPLE;
  if (saved.designDecks) $("design-decks").value = saved.designDecks;
  const later = debounce(refreshDesign, 300);
  area.addEventListener("input", () => { updateGutter(); save(); later(); });
  area.addEventListener("scroll", syncScroll);
  area.addEventListener("keydown", (event) => {  // Tab indents, as in an editor (Escape then Tab leaves)
    if (event.key !== "Tab" || event.shiftKey || event.ctrlKey || event.altKey || event.metaKey) return;
    event.preventDefault();
    document.execCommand("insertText", false, "  ");
  });
  $("design-decks").addEventListener("input", () => { save(); later(); });
  $("design-bet").addEventListener("change", refreshDesign);
  $("download").addEventListener("click", download);
  $("reset-example").addEventListener("click", () => {
    area.value = EXAMPLE;
    $("design-bet").replaceChildren();
    updateGutter();
    save();
    refreshDesign();
  });
  window.addEventListener("resize", syncScroll);
  updateGutter();
}

// ---------------------------------------------------------------- start

document.addEventListener("DOMContentLoaded", () => {
  const saved = loadSaved();
  setUpTracker(saved);
  setUpDesigner(saved);
  $("tab-tracker").addEventListener("click", () => selectTab("tracker"));
  $("tab-designer").addEventListener("click", () => selectTab("designer"));
  window.addEventListener("hashchange", () => selectTab(location.hash === "#designer" ? "designer" : "tracker"));
  selectTab(location.hash === "#designer" || (!location.hash && saved.tab === "designer") ? "designer" : "tracker");
});
