import { GLYPHS, moveName, valueText } from "./names.js";
import { page, $, evalShown } from "./page.js";

// Issue 43, item 7: a finished kept game's review, asked of the server (`POST
// /games/ID/review.json`, then read until done) and shown as lichess shows its computer
// analysis: the graph over the whole game, each move's class in the list, each side's
// accuracy, and the move shown judged, with the engine's better line and, in the endgame,
// the solver's verdict. The thresholds are the guide's (`yolah review`).
let review = null;          // the review of the game shown: { id, moves, status, data, timer }
export function reviewId() { return page.kept ? page.kept.id : page.room ? page.room.id : null; }
export function reviewable() { return !!page.state && !!page.state.result && !page.state.analysis && !!reviewId() && !page.stateOfOld; }
// The values shown: a finished game's review's, else the engine's reports.
export function shownEvals() { return reviewed() ? review.evals : page.evals; }

export function reviewed() { return review && review.status === "done" ? review.data : null; }

// The review of the game shown: read again when the game or its moves change.
export function syncReview() {
  if (!reviewable()) {
    if (review) clearTimeout(review.timer);
    review = null;
    return;
  }
  const id = reviewId(), moves = page.state.moves.join(" ");
  if (review && review.id === id && review.moves === moves) return;
  if (review) clearTimeout(review.timer);
  review = { id, moves, status: "unknown", data: null, evals: null, timer: null, progress: null, error: "" };
  fetchReview("GET");
}

export async function fetchReview(method) {
  const asked = review;
  if (!asked) return;
  let answer;
  try {
    const response = await fetch("/games/" + encodeURIComponent(asked.id) + "/review.json", { method });
    answer = await response.json();
  } catch (e) {
    answer = { status: "failed", error: "the review could not be read: " + e.message };
  }
  if (review !== asked) return;       // another game is shown now
  asked.status = answer.status || "failed";
  asked.error = answer.error || "";
  if (asked.status === "done") {
    asked.data = answer;
    asked.evals = reviewEvals(answer);
  } else if (asked.status === "queued" || asked.status === "reviewing") {
    asked.progress = answer;
    asked.timer = setTimeout(() => fetchReview("GET"), 500);
  }
  // The page draws itself again (`main.js` listens): this module draws only its own part.
  if (page.state) document.dispatchEvent(new Event("review"));
}

// Every position's value from black's side, as the engine's reports are kept (`evals`).
export function reviewEvals(data) {
  const black = (side, v) => side === "black" ? v : { margin: -v.margin, expected: 1 - v.expected, proved: v.proved };
  const out = {};
  data.moves.forEach((j, i) => {
    const v = black(j.side, j.before);
    out[i] = { points: v.margin, value: v.expected, proved: v.proved, pv: j.line, depth: 0, side: j.side };
  });
  out[data.moves.length] = { points: data.end.margin, value: data.end.expected, proved: data.end.proved, pv: [], depth: 0 };
  return out;
}

// The number of moves at which the next judged inaccuracy or worse after `count` is shown
// (from the first again past the last).
export function nextMistake(count) {
  const data = reviewed();
  if (!data) return null;
  const after = data.moves.findIndex((j, k) => k + 1 > count && GLYPHS[j.class]);
  const first = data.moves.findIndex(j => GLYPHS[j.class]);
  const i = after < 0 ? first : after;
  return i < 0 ? null : i + 1;
}

export function drawReview(count) {
  const box = $("review");
  box.hidden = !review || !evalShown();
  if (box.hidden) return;
  const data = reviewed();
  box.dataset.status = review.status;
  $("review-ask").hidden = review.status !== "none" && review.status !== "failed";
  $("review-ask").textContent = review.status === "failed" ? "Review again" : "Review the game";
  $("review-progress").textContent = review.status === "queued"
    ? "the review waits" + (review.progress.ahead ? " behind " + review.progress.ahead + " other" + (review.progress.ahead > 1 ? "s" : "") : "") + "…"
    : review.status === "reviewing" ? "reviewing: " + review.progress.done + " of " + review.progress.total + " searches"
    : review.status === "failed" ? review.error : "";
  $("review-next").hidden = !data || nextMistake(count) === null;
  const summary = $("review-summary");
  const shown = $("review-move");
  summary.replaceChildren();
  shown.replaceChildren();
  if (!data) return;
  ["black", "white"].forEach((side, k) => {
    const line = document.createElement("div");
    const tally = (c, one, many) => {
      const n = data.moves.filter(j => j.side === side && j.class === c).length;
      return n + " " + (n === 1 ? one : many);
    };
    const accuracy = data.accuracy[k];
    line.textContent = (side === "black" ? "● " : "○ ") + side + ": " +
      (accuracy === null ? "no judged move" : "accuracy " + accuracy.toFixed(1) + " %") + " · " +
      [tally("inaccuracy", "inaccuracy", "inaccuracies"), tally("mistake", "mistake", "mistakes"),
        tally("blunder", "blunder", "blunders")].join(" · ");
    line.dataset.side = side;
    summary.appendChild(line);
  });
  if (count === 0) {
    const e = review.evals[0];
    shown.textContent = "the start: black " + valueText({ margin: e.points, expected: e.value, proved: e.proved }) +
      "; step through the moves to see each judged";
    return;
  }
  const j = data.moves[count - 1];
  const head = document.createElement("div");
  head.textContent = moveName(count) + ": " + (j.class === "only" ? "the only move" : j.class) +
    (j.class === "only" ? "" : "; " + j.side + " " + valueText(j.before) + " → " + valueText(j.after));
  head.className = GLYPHS[j.class] ? "judged-" + j.class : "";
  shown.appendChild(head);
  if (j.exact) {
    const verdict = document.createElement("div");
    verdict.className = "verdict";
    verdict.textContent = "solver: " + j.exact.text;
    shown.appendChild(verdict);
  }
  if (j.class !== "only" && j.class !== "best" && j.best !== j.played) {
    const better = document.createElement("div");
    better.textContent = "best was " + j.best + (j.line.length > 1 ? " (" + j.line.join(" ") + ")" : "");
    shown.appendChild(better);
  }
}

// Review asks the server for the game's review, its progress shown at once.
export function askReview(count) {
  if (!review) return;
  review.status = "queued";
  review.progress = { ahead: 0 };
  drawReview(count);
  fetchReview("POST");
}
