// The scoreboard drawn in SVG, from the board kept with each event's figures (roads.board): the
// bead plate, the big road and the three derived roads, six rows each, the industry's colours
// (Banker red, Player blue, Tie green). Each road shows its last columns that fit its box. No library.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const RED = "#c8102e", BLUE = "#1f4fbf", GREEN = "#138a36";
const SIDE = { B: RED, P: BLUE, T: GREEN };

function svgNode(tag, attributes, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes || {})) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

// A road: [{row, col, draw(cell size) -> nodes}], drawn in `box` (an element) with square cells
// of `cell` px (or as many as fit its width when `cell` is not given), its last columns.
function drawRoad(box, items, cell) {
  const width = box.clientWidth || 600;
  const size = cell || Math.floor((box.clientHeight || 6 * 30) / 6);
  const columns = Math.max(1, Math.floor(width / size));
  const last = items.reduce((m, it) => Math.max(m, it.col), -1);
  const first = Math.max(0, last + 1 - columns);
  const svg = svgNode("svg", { width: columns * size, height: 6 * size, viewBox: `0 0 ${columns * size} ${6 * size}`,
    role: "img" });
  const lines = svgNode("g", { stroke: "#d5d8de", "stroke-width": 1 });
  for (let c = 0; c <= columns; c++) lines.append(svgNode("line", { x1: c * size, y1: 0, x2: c * size, y2: 6 * size }));
  for (let r = 0; r <= 6; r++) lines.append(svgNode("line", { x1: 0, y1: r * size, x2: columns * size, y2: r * size }));
  svg.append(lines);
  for (const it of items) {
    if (it.col < first) continue;
    const g = svgNode("g", { transform: `translate(${(it.col - first) * size},${it.row * size})` });
    g.append(...it.draw(size));
    svg.append(g);
  }
  box.replaceChildren(svg);
  return { first, columns };
}

function pairDots(size, marks) {
  const out = [];
  const r = Math.max(2, size * 0.12);
  if (marks.includes("b")) out.push(svgNode("circle", { cx: size * 0.2, cy: size * 0.2, r, fill: RED, stroke: "#fff", "stroke-width": 1 }));
  if (marks.includes("p")) out.push(svgNode("circle", { cx: size * 0.8, cy: size * 0.8, r, fill: BLUE, stroke: "#fff", "stroke-width": 1 }));
  return out;
}

// Bead plate: a filled disc a coup, its letter inside; pairs as dots, a natural as a gold ring.
function beadItems(beads) {
  return beads.map((bead, i) => ({ row: i % 6, col: Math.floor(i / 6), draw: (s) => {
    const side = bead[0], marks = bead.slice(1);
    const nodes = [svgNode("circle", { cx: s / 2, cy: s / 2, r: s * 0.42, fill: SIDE[side],
      stroke: marks.includes("n") ? "#e0a800" : "none", "stroke-width": marks.includes("n") ? Math.max(2, s * 0.09) : 0 }),
    svgNode("text", { x: s / 2, y: s / 2, "text-anchor": "middle", "dominant-baseline": "central", fill: "#fff",
      "font-size": s * 0.5, "font-weight": 700, "font-family": "system-ui, sans-serif" }, side)];
    return nodes.concat(pairDots(s, marks));
  } }));
}

// Big road: a hollow ring a win; ties as a green slash (their number past one beside it); pairs as dots.
function bigItems(cells) {
  return cells.map(([row, col, mark, ties]) => ({ row, col, draw: (s) => {
    const side = mark[0];
    const nodes = [svgNode("circle", { cx: s / 2, cy: s / 2, r: s * 0.36, fill: "none", stroke: SIDE[side],
      "stroke-width": Math.max(2, s * 0.13) })];
    if (ties > 0) {
      nodes.push(svgNode("line", { x1: s * 0.22, y1: s * 0.78, x2: s * 0.78, y2: s * 0.22, stroke: GREEN,
        "stroke-width": Math.max(2, s * 0.12), "stroke-linecap": "round" }));
      if (ties > 1) nodes.push(svgNode("text", { x: s / 2, y: s / 2, "text-anchor": "middle", "dominant-baseline": "central",
        fill: GREEN, "font-size": s * 0.5, "font-weight": 800, "font-family": "system-ui, sans-serif" }, String(ties)));
    }
    return nodes.concat(pairDots(s, mark.slice(1)));
  } }));
}

// The derived roads, as the industry draws them: big eye boy hollow rings, small road filled
// discs, cockroach pig slashes; red and blue.
const DERIVED_STYLE = {
  big_eye_boy: (s, colour) => [svgNode("circle", { cx: s / 2, cy: s / 2, r: s * 0.34, fill: "none", stroke: colour, "stroke-width": Math.max(2, s * 0.16) })],
  small_road: (s, colour) => [svgNode("circle", { cx: s / 2, cy: s / 2, r: s * 0.38, fill: colour })],
  cockroach_pig: (s, colour) => [svgNode("line", { x1: s * 0.2, y1: s * 0.8, x2: s * 0.8, y2: s * 0.2, stroke: colour,
    "stroke-width": Math.max(2, s * 0.18), "stroke-linecap": "round" })],
};

function derivedItems(name, cells) {
  return cells.map(([row, col, mark]) => ({ row, col, draw: (s) => DERIVED_STYLE[name](s, mark === "R" ? RED : BLUE) }));
}

// An ask mark (a derived road's next mark, or none) as a small SVG.
function askMark(name, mark, size) {
  const svg = svgNode("svg", { width: size, height: size, viewBox: `0 0 ${size} ${size}`, role: "img",
    "aria-label": mark ? (mark === "R" ? "red" : "blue") : "none" });
  if (mark) svg.append(...DERIVED_STYLE[name](size, mark === "R" ? RED : BLUE));
  return svg;
}

window.Board = { drawRoad, beadItems, bigItems, derivedItems, askMark, SIDE };
