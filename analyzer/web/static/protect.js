// The game-protection page: the review of the wagers kept at the pit's tables (GET /api/protect),
// players sorted by their chance; a flagged player opens the coups behind the flag. No library.
"use strict";

const token = document.querySelector('meta[name="baccarat-token"]').content;
const headers = token ? { Authorization: `Bearer ${token}` } : {};

function el(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (cls) node.className = cls;
  return node;
}

// Exact values come as "p/q" text: shown here rounded, never computed with.
function value(text) {
  if (text === null || text === undefined) return NaN;
  const [p, q] = String(text).split("/");
  return q === undefined ? Number(p) : Number(p) / Number(q);
}
const units = (t) => value(t).toLocaleString(undefined, { maximumFractionDigits: 2 });
const pct = (t) => `${(value(t) * 100).toFixed(2)}%`;
// The chance as the command line shows it: adjusted for the tests weighed (compared with the level).
const chance = (c) => (c.exact ? `${Number(c.adjusted).toPrecision(2)} (exact)`
  : `${Number(c.adjusted).toPrecision(2)} ± ${(c.tests_weighed * Number(c.standard_error)).toPrecision(2)}`);

function row(cells, cls) {
  const tr = el("tr", undefined, cls);
  for (const c of cells) tr.append(el("td", c));
  return tr;
}

function detail(player) {
  document.getElementById("detail").hidden = false;
  document.getElementById("who").textContent = `Player ${player.player}`;
  document.getElementById("fits").textContent = player.flagged
    ? `Flagged: his wagers follow ${player.model_title}.` : "Not flagged.";
  const body = document.getElementById("coups");
  body.replaceChildren(...player.coups.map((c) => row([c.table, c.shoe, c.coup, c.cards.join(" "), c.bet,
    units(c.amount), pct(c.ev), pct(c.model_ev)])));
}

async function review(event) {
  if (event) event.preventDefault();
  const status = document.getElementById("status");
  const params = new URLSearchParams({ level: document.getElementById("level").value });
  for (const t of document.getElementById("tables").value.split(/[\s,]+/).filter(Boolean)) params.append("table", t);
  status.textContent = "reviewing...";
  const answer = await fetch(`api/protect?${params}`, { headers });
  const data = await answer.json();
  if (!answer.ok) { status.textContent = data.error; return; }
  status.textContent = "";
  const flagged = data.players.filter((p) => p.flagged).length;
  document.getElementById("summary").textContent =
    `${data.players.length} players on ${data.coups} coups; ${flagged} flagged at the ${pct(data.level)} level.`;
  const body = document.querySelector("#players tbody");
  body.replaceChildren(...data.players.map((p) => {
    const best = [p.chance, ...p.models.map((m) => m.chance).filter(Boolean)]
      .reduce((a, b) => (Number(b.adjusted) < Number(a.adjusted) ? b : a));
    const tr = row([p.player, p.wagers, units(p.amount), units(p.theoretical_win), units(p.realized_win),
      pct(p.share_positive), p.correlation === null ? "-" : p.correlation.toFixed(3), chance(best),
      p.flagged ? `FLAG: ${p.model}` : ""], p.flagged ? "flagged" : "");
    tr.addEventListener("click", () => detail(p));
    return tr;
  }));
}

document.getElementById("ask").addEventListener("submit", review);
review();
