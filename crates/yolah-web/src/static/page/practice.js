import { GLYPHS, moveName } from "./names.js";
import { page, $, humanToMove, live, practising, send } from "./page.js";
import { legalMoves, positionAt } from "./position.js";
import { reviewed } from "./review.js";

// Learn from your mistakes (lichess's button under a review): after a review, each of the
// player's own moves it judged a mistake or a blunder becomes a puzzle. The position before
// it is shown; the player looks for a better move on the board; the answer is checked against
// the review: its best move is right, and where the solver proved the position, so is every
// move that kept the proved result (the review lists them all). A hint marks the piece; the
// answer can be shown. The results are counted apart from the puzzle rating, in this browser.

const TALLY = "yolah-practice";   // localStorage: { tried, solved } over every session

// The sides whose moves are the player's: the seat in a friends' game, the person's side(s)
// against the machine (both when two people share the board).
function ownSides() {
  if (page.room) return page.room.seat === "spectator" ? [] : [page.room.seat];
  return ["black", "white"].filter((side, k) => page.state.players[k] === "human");
}

// The moves (by index from 0) of the player's own that the review judged a mistake or worse.
export function ownMistakes() {
  const data = reviewed();
  if (!data || !page.state) return [];
  const own = ownSides();
  return data.moves.flatMap((j, i) => own.includes(j.side) && (j.class === "mistake" || j.class === "blunder") ? [i] : []);
}

// Starts the walk through the player's mistakes; returns the number of moves to show (the
// position before the first), or null when there is none.
export function startPractice() {
  const plies = ownMistakes();
  if (plies.length === 0) return null;
  page.practice = { plies, at: 0, status: "ask", tried: [], hint: false, results: [], counted: false };
  page.selected = null;
  return plies[0];
}

export function stopPractice() { page.practice = null; page.selected = null; }

// The move the walk is on, and the position before it is shown.
function here() {
  const p = page.practice;
  if (!p || p.at >= p.plies.length || !reviewed()) return null;
  const i = p.plies[p.at];
  return page.view === i ? { i, judged: reviewed().moves[i] } : null;
}

// The moves a person may make on the board now: at a mistake's position while the walk asks,
// that position's moves; else the game's, on the person's turn.
export function movesHere() {
  if (!live() && practising(page.view)) {
    const shown = positionAt(page.view);
    return legalMoves(shown.board, shown.side).filter(m => m !== "a1:a1");
  }
  return humanToMove() ? page.state.legal : [];
}

// A move made on the board: an answer while the walk asks, else a move of the game.
export function playHere(m) {
  const at = here();
  if (!at) { send({ type: "play", move: m }); return; }
  const p = page.practice;
  const j = at.judged;
  const kept = j.exact && j.exact.kept_by ? j.exact.kept_by : [];
  const first = p.tried.length === 0 && !p.hint;
  if (m === j.best || kept.includes(m)) {
    p.status = "right";
    p.results[p.at] = first ? "first" : "later";
    p.answer = m;
  } else {
    p.status = "wrong";
    p.tried.push(m);
  }
  // Counted once a mistake: found at the first try, without a hint, or not.
  countOnce(first && p.status === "right");
}

// This browser's count of the walk's mistake: once, at its first answer, hint or shown answer.
function countOnce(solved) {
  const p = page.practice;
  if (p.counted) return;
  p.counted = true;
  count(solved);
}

// A hint: the piece the review's best move moves is picked up.
export function hint() {
  const at = here();
  if (!at || page.practice.status === "right" || page.practice.status === "shown") return;
  page.practice.hint = true;
  page.practice.status = "ask";
  countOnce(false);
  page.selected = at.judged.best.split(":")[0];
}

export function showAnswer() {
  const at = here();
  if (!at || page.practice.status === "right") return;
  countOnce(false);
  page.practice.status = "shown";
  page.practice.results[page.practice.at] = "shown";
  page.selected = null;
}

// The next mistake: returns the number of moves to show, or null at the end (the summary).
export function nextPractice() {
  const p = page.practice;
  if (!p) return null;
  if (p.results[p.at] === undefined) p.results[p.at] = "skipped";
  p.at += 1;
  Object.assign(p, { status: "ask", tried: [], hint: false, answer: null, counted: false });
  page.selected = null;
  return p.at < p.plies.length ? p.plies[p.at] : null;
}

// This browser's count of mistakes tried and found at the first try (without a hint).
function count(solved) {
  let tally = { tried: 0, solved: 0 };
  try { tally = { ...tally, ...JSON.parse(localStorage.getItem(TALLY) || "{}") }; } catch (e) { /* a foreign value: start again */ }
  tally.tried += 1;
  if (solved) tally.solved += 1;
  try { localStorage.setItem(TALLY, JSON.stringify(tally)); } catch (e) { /* private mode: not kept */ }
}

function tallyText() {
  try {
    const t = JSON.parse(localStorage.getItem(TALLY) || "{}");
    if (t.tried > 0) return "In this browser, " + t.solved + " of " + t.tried + " mistakes found at the first try (apart from the puzzle rating).";
  } catch (e) { /* nothing kept */ }
  return "";
}

const CLASS_WORD = { mistake: "a mistake", blunder: "a blunder" };

// The walk's box: where it is, what to do, and its buttons; or the offer to start it.
export function drawPractice() {
  const box = $("practice");
  const offer = $("practice-start");
  if (!reviewed()) { box.hidden = true; offer.hidden = true; return; }
  const p = page.practice;
  const mistakes = ownMistakes();
  offer.hidden = !!p || mistakes.length === 0;
  offer.textContent = "Learn from your mistakes (" + mistakes.length + ")";
  box.hidden = !p;
  if (!p) return;
  const say = $("practice-say");
  const done = p.at >= p.plies.length;
  $("practice-hint").hidden = done || p.status === "right" || p.status === "shown";
  $("practice-answer").hidden = $("practice-hint").hidden;
  $("practice-next").hidden = done;
  $("practice-next").textContent = p.status === "right" || p.status === "shown" ? "Next ▶" : "Skip ▶";
  $("practice-stop").textContent = done ? "Close" : "Stop";
  box.dataset.status = done ? "done" : p.status;
  if (done) {
    const n = (what) => p.results.filter(r => r === what).length;
    say.textContent = "Done: " + p.plies.length + " mistake" + (p.plies.length > 1 ? "s" : "") + "; found at the first try " + n("first") +
      ", found after a try or a hint " + n("later") + ", answer shown " + n("shown") + ", skipped " + n("skipped") + ". " + tallyText();
    return;
  }
  const i = p.plies[p.at];
  const j = reviewed().moves[i];
  const head = (p.at + 1) + " of " + p.plies.length + ": at " + moveName(i + 1).replace(/ .*/, "") + " " + j.side +
    " played " + (j.played === "a1:a1" ? "a pass" : j.played) + ", " + CLASS_WORD[j.class] + ". ";
  if (page.view !== i) {
    say.textContent = head + "Step back to that position (Skip ▶ or Stop to leave).";
    return;
  }
  const line = j.line.length > 1 ? " (" + j.line.join(" ") + ")" : "";
  const kept = j.exact && j.exact.kept_by && j.exact.kept_by.length > 1 ? "; every move that kept the result was right: " + j.exact.kept_by.join(" ") : "";
  say.textContent = head + ({
    ask: "Find a better move for " + j.side + "." + (p.hint ? " Hint: the marked piece." : ""),
    wrong: p.tried[p.tried.length - 1] + " is not it" + (p.tried[p.tried.length - 1] === j.played ? ": that is the move played" : "") + ". Try again.",
    right: "Right: " + p.answer + (p.answer === j.best ? line : "") + kept + ".",
    shown: "The answer: " + j.best + line + kept + ".",
  })[p.status];
  say.className = GLYPHS[j.class] && p.status === "wrong" ? "judged-" + j.class : p.status === "right" ? "right" : "";
}
