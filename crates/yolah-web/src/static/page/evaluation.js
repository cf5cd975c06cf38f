import { FILES } from "../board.js";
import { provedText, signed } from "./names.js";
import { page, $, evalShown, live, practising } from "./page.js";
import { reviewed, shownEvals } from "./review.js";

// A report in words, every value from black's side; with the evaluation hidden, only the
// move and the time.
export function reportText(r) {
  const seconds = (r.time_ms / 1000).toFixed(2) + " s";
  // An analysis plays nothing: its last word is the move it would play.
  const done = page.state && page.state.analysis ? " would play " : " played ";
  const head = r.move === "a1:a1" ? r.side + (r.done ? " passed" : " must pass")
    : r.side + (r.done ? done : " considers ") + r.move;
  if (!evalShown()) return head + " (" + seconds + ")";
  const sign = r.side === "black" ? 1 : -1;
  const parts = [head];
  if (r.points !== null) parts.push("black " + signed(sign * r.points) + (r.proved ? " (proved)" : ""));
  if (r.value !== null) parts.push("black's expected score " + Math.round(100 * (sign > 0 ? r.value : 1 - r.value)) + " %");
  if (r.depth) parts.push("depth " + r.depth);
  if (r.nodes) parts.push(r.nodes.toLocaleString("en") + " nodes");
  else if (r.iterations) parts.push(r.iterations.toLocaleString("en") + " iterations");
  parts.push(seconds);
  return parts.join(", ");
}

// The engine's reports, from black's side: points (its expected margin) and expected score.
export function noteReport(report) {
  if (!page.state) return;
  const sign = report.side === "black" ? 1 : -1;
  if (report.points !== null || report.value !== null) page.evals[report.ply] = {
    points: report.points === null ? null : sign * report.points,
    value: report.value === null ? null : (sign > 0 ? report.value : 1 - report.value),
    proved: report.proved, depth: report.depth, pv: report.pv, side: report.side,
    lines: (report.lines || []).map(l => ({ pv: l.pv, points: sign * l.points, proved: l.proved })),
  };
  page.lastReport = report;
  page.reports[report.ply] = report;
  $("report").dataset.count = String(Number($("report").dataset.count || 0) + 1);
  drawEval(live() ? page.state.moves.length : page.view);
}

// The report box. In an analysis, the last report on the position shown, or, until there is
// one, what the engine does about it (issue 55, item 2: a report on another position, an
// earlier verdict say, is never shown beside this one); in a game, the last report (the move
// a machine considers or played).
export function drawReport(count) {
  const box = $("report");
  const report = page.state.analysis ? page.reports[count] : page.lastReport;
  box.textContent = report ? reportText(report) : page.state.analysis ? waitingText(count) : "";
  box.dataset.ply = report ? String(report.ply) : "";
  box.dataset.done = report && report.done ? "yes" : "no";
}

// What an analysis says of a position it has no report on yet.
function waitingText(count) {
  // Only the last position can be over: the game went on from every other.
  if (count === page.state.moves.length && page.state.result) return "the game is over here: nothing to analyse";
  if (page.state.paused) return "paused: press Go to analyse this position";
  return "waiting for analysis…";
}

// The value the bar shows: the position shown's; in a game, until it has one, the position
// before's (a machine's report is of the position it moved from). An analysis shows only the
// position shown's: the position before's may be another verdict altogether.
export function evalFor(count) {
  const known = shownEvals();
  const oldest = page.state.analysis ? count : Math.max(0, count - 1);
  for (let k = count; k >= oldest; k--) if (known[k]) return known[k];
  return null;
}

export function drawEval(count) {
  drawReport(count);
  const e = evalShown() ? evalFor(count) : null;
  const bar = $("evalbar");
  bar.hidden = !e;
  if (e) {
    const black = e.value !== null ? e.value : 1 / (1 + Math.exp(-e.points / 4));
    bar.querySelector(".black").style.height = (100 * black).toFixed(1) + "%";
    bar.querySelector(".black").style.bottom = page.flipped ? "auto" : "0";
    bar.querySelector(".black").style.top = page.flipped ? "0" : "auto";
    bar.dataset.black = black.toFixed(3);
    bar.title = "black: " + (e.points !== null ? signed(e.points) + " points" : "") +
      " expected score " + (100 * black).toFixed(0) + " %";
  }
  // The lines are of the position shown only: the position before's moves may not be legal.
  // While the walk through the player's mistakes asks here, the review's answer stays hidden.
  drawLines(evalShown() && !practising(count) ? shownEvals()[count] : null);
  if (evalShown()) drawGraph(count);
  else $("graph").toggleAttribute("hidden", true);
  drawArrow(count);
}

// The engine's best lines for the position shown (issue 43, item 8): up to three in an
// analysis (multi-PV), each with black's value; "proved: black wins by 4" over them when the
// solver has settled the position, each proved line then going to the game's end.
export function drawLines(e) {
  const box = $("pv");
  const lines = !e || !e.pv || e.pv.length === 0 ? []
    : e.lines && e.lines.length ? e.lines : [{ pv: e.pv, points: e.points, proved: e.proved }];
  box.hidden = lines.length === 0;
  box.replaceChildren();
  if (lines.length === 0) return;
  const head = document.createElement("div");
  head.textContent = (lines.length > 1 ? "best lines" : "pv") + (e.depth ? " (depth " + e.depth + ")" : "");
  if (e.proved && e.points !== null) {
    const proof = document.createElement("span");
    proof.className = "proof";
    proof.textContent = "proved: " + provedText(e.points);
    head.append(" · ", proof);
  }
  box.append(head);
  lines.forEach((line, k) => {
    const row = document.createElement("div");
    row.className = "line";
    const score = document.createElement("span");
    score.className = "score";
    score.textContent = (lines.length > 1 ? (k + 1) + ". " : "") + (line.points === null ? ""
      : line.proved ? provedText(line.points) : "black " + signed(line.points));
    row.append(score, " " + line.pv.join(" "));
    box.append(row);
  });
}

// The engine's move in the position shown as an arrow (issue 43, item 8): only from a value of
// that very position (a report or the review), never the position before's.
export function drawArrow(count) {
  const svg = $("arrow");
  const e = evalShown() && !practising(count) ? shownEvals()[count] : null;
  const move = e && e.pv && e.pv[0];
  const shown = !!move && move !== "a1:a1" && $("landing").hidden;
  svg.toggleAttribute("hidden", !shown);
  svg.dataset.move = shown ? move : "";
  if (!shown) return;
  const at = (name) => {
    const f = FILES.indexOf(name[0]), r = Number(name.slice(1));
    return page.flipped ? [7 - f + .5, r - .5] : [f + .5, 8 - r + .5];
  };
  const [[x1, y1], [x2, y2]] = move.split(":").map(at);
  // The head ends at the target's centre: the shaft stops short of it.
  const len = Math.hypot(x2 - x1, y2 - y1), back = .3 / len;
  const line = svg.querySelector("line");
  line.setAttribute("x1", x1); line.setAttribute("y1", y1);
  line.setAttribute("x2", (x2 - (x2 - x1) * back).toFixed(3)); line.setAttribute("y2", (y2 - (y2 - y1) * back).toFixed(3));
}

// Black's margin in points over the game, from the reports (or the review); a line at 0;
// a reviewed game's inaccuracies, mistakes and blunders marked where they were played.
export function drawGraph(count) {
  const svg = $("graph");
  const known = shownEvals();
  const plies = Object.keys(known).map(Number).filter(k => known[k].points !== null).sort((a, b) => a - b);
  // An SVG element has no `hidden` property to set: the attribute itself goes or stays.
  svg.toggleAttribute("hidden", plies.length < 2);
  svg.dataset.points = String(plies.length);
  if (plies.length < 2) return;
  const n = Math.max(page.state.moves.length, plies[plies.length - 1], 1);
  const scale = Math.max(4, ...plies.map(k => Math.min(30, Math.abs(known[k].points))));
  const x = (k) => (300 * k / n).toFixed(1);
  const y = (p) => (35 - 32 * Math.max(-scale, Math.min(scale, p)) / scale).toFixed(1);
  const line = plies.map(k => x(k) + "," + y(known[k].points)).join(" ");
  const data = reviewed();
  const colours = { inaccuracy: "#b08900", mistake: "#d9730d", blunder: "#c0392b" };
  const marks = data ? data.moves.map((j, i) => colours[j.class] && known[i + 1]
    ? '<line class="mark" x1="' + x(i + 1) + '" x2="' + x(i + 1) + '" y1="' + (Number(y(known[i + 1].points)) - 5) +
      '" y2="' + (Number(y(known[i + 1].points)) + 5) + '" stroke="' + colours[j.class] + '" stroke-width="3"/>' : "").join("") : "";
  svg.innerHTML = '<line x1="0" y1="35" x2="300" y2="35" stroke="#bbb"/>' +
    '<polyline fill="none" stroke="#2d7dd2" stroke-width="2" points="' + line + '"/>' + marks +
    '<line x1="' + x(count) + '" y1="0" x2="' + x(count) + '" y2="70" stroke="#f2c94c" stroke-width="2"/>';
}
