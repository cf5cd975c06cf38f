import { buildSquares, cells, paintSquare } from "../board.js";
import { playerName } from "../players.js";
import { drawEval } from "./evaluation.js";
import { drawExplorer } from "./explorer.js";
import { drawMoves } from "./moves.js";
import { moveName } from "./names.js";
import { page, $, humanToMove, live, personPlays, playingLive, send, shownOnly, squares } from "./page.js";
import { positionAt } from "./position.js";
import { drawPractice, movesHere, playHere } from "./practice.js";
import { drawReview, syncReview } from "./review.js";

// The board from black's side (rank 1 at the bottom), or turned around (white's side).
export function buildBoard() {
  Object.assign(squares, buildSquares($("board"), page.flipped, clicked));
  document.body.dataset.flipped = page.flipped ? "yes" : "no";
}

export function flip() {
  page.flipped = !page.flipped;
  buildBoard();
  if (page.state) draw();
}

export function draw() {
  const shown = live() ? { board: cells(page.state.position), scores: page.state.scores, side: page.state.side, notation: page.state.position }
    : positionAt(page.view);
  const count = live() ? page.state.moves.length : page.view;
  const played = page.state.moves.slice(0, count).filter(m => m !== "a1:a1");
  const last = played.length ? played[played.length - 1].split(":") : [];
  const movable = movesHere();
  const targets = page.selected ? movable.filter(m => m.startsWith(page.selected + ":")).map(m => m.split(":")[1]) : [];
  for (const [name, div] of Object.entries(squares)) paintSquare(div, name, shown.board[name], { last, targets, selected: page.selected });
  const black = $("score-black");
  const white = $("score-white");
  black.textContent = "● black " + shown.scores[0];
  white.textContent = "○ white " + shown.scores[1];
  black.dataset.score = shown.scores[0];
  white.dataset.score = shown.scores[1];
  const over = live() && page.state.result;
  black.classList.toggle("to-move", !over && shown.side === "black");
  white.classList.toggle("to-move", !over && shown.side === "white");
  const result = $("result");
  result.textContent = page.state.result ? "Game over: " + page.state.result : "";
  result.dataset.result = page.state.result || "";
  $("status").textContent = statusLine();
  $("notation").value = shown.notation;
  document.body.dataset.side = page.state.side;
  document.body.dataset.human = humanToMove() ? "yes" : "no";
  document.body.dataset.ply = String(page.state.moves.length);
  document.body.dataset.view = String(count);
  document.body.dataset.viewing = live() ? "no" : "yes";
  document.body.dataset.legal = page.state.legal.join(" ");
  document.body.dataset.players = page.state.players.join("|");
  document.body.dataset.analysis = page.state.analysis ? "yes" : "no";
  document.body.dataset.paused = page.state.paused ? "yes" : "no";
  document.body.dataset.thinking = page.state.thinking ? "yes" : "no";
  syncReview();
  drawMoves(count);
  drawRoom();
  drawButtons();
  drawEval(count);
  drawReview(count);
  drawExplorer(count);
  drawPractice();
  drawBanner();
}

// Whether the page is used with a keyboard at hand: not on a touch screen without a mouse
// (a phone), where the hints name the buttons instead.
function keysAtHand() { return !matchMedia("(hover: none) and (pointer: coarse)").matches; }

export function statusLine() {
  if (page.room && live() && !page.state.result) {
    if (page.room.seat === "spectator") return "watching: " + page.state.side + " to move";
    return page.state.side === page.room.seat ? "your move, " + page.state.side : "your friend's move (" + page.state.side + ")";
  }
  if (!live()) return (page.view === 0 ? "viewing the start" : "viewing the position after " + moveName(page.view))
    + " (ply " + page.view + " of " + page.state.moves.length + "; " + (keysAtHand() ? "→ or End" : "▶|") + " to return)";
  if (shownOnly()) return "a game from the archive" + (page.state.result ? "" : " (going on)") + ": step through its moves, or Analyse to study it";
  if (page.state.analysis) {
    if (page.state.result) return "analysis: the game is over here";
    return (page.state.paused ? "analysis paused" : "analysis: the engine thinks on this position") + "; move either side's pieces";
  }
  if (page.state.result) return "";
  const who = playerName(page.state.players[page.state.side === "black" ? 0 : 1], false);
  if (page.state.paused) return "paused: Resume to let the machines go on";
  return page.state.thinking ? page.state.side + " (" + who + ") is thinking…"
    : humanToMove() ? "your move, " + page.state.side + ": drag a piece to a green square, or click one then the other"
    : page.state.side + " to move";
}

export function drawRoom() {
  const box = $("invite");
  box.hidden = !page.room;
  document.body.dataset.seat = page.room ? page.room.seat : "";
  if (!page.room) return;
  // The invitation carries the join secret (told only to those who sit): the id alone watches.
  $("invite-link").value = location.origin + "/?join=" + page.room.id + (page.room.key ? "&key=" + page.room.key : "");
  const other = page.room.seat === "black" ? 1 : 0;
  // Those watching besides this page: a spectator is not told about itself.
  const others = page.room.spectators - (page.room.seat === "spectator" ? 1 : 0);
  const watchers = others > 0 ? "; " + others + " watching" : "";
  $("presence").textContent = (page.room.seat === "spectator" ? "you are watching"
    : page.room.present[other] ? "your friend is here (you play " + page.room.seat + ")"
    : "waiting for your friend: send them this link (you play " + page.room.seat + ")") + watchers;
  document.body.dataset.friend = page.room.seat !== "spectator" && page.room.present[other] ? "yes" : "no";
  document.body.dataset.takeback = page.room.takeback || "";
  const asked = page.room.takeback && page.room.seat !== "spectator";
  $("accept-takeback").hidden = !asked || page.room.takeback === page.room.seat;
  $("decline-takeback").hidden = $("accept-takeback").hidden;
  if (asked) $("presence").textContent += page.room.takeback === page.room.seat ? "; you asked to take back your last move"
    : "; " + page.room.takeback + " asks to take back their last move";
}

// The controls a game needs, hidden on the landing (no game yet).
export const GAME_CONTROLS = ["undo", "resign", "pause", "flip", "analyse", "copy-link", "takeback", "review-game"];

export function drawButtons() {
  const over = !!page.state.result;
  $("flip").hidden = false;
  // Undo only where it can act: not for a spectator, nor once the game is over (an analysis
  // takes back its last move whenever).
  $("undo").hidden = shownOnly() || (page.room && page.room.seat === "spectator") || (over && !page.state.analysis);
  $("resign").hidden = page.state.analysis || !personPlays() || shownOnly();
  $("resign").disabled = over;
  const pausable = !page.room && !shownOnly() && (page.state.analysis || !personPlays());
  if (page.room) $("resign").hidden = page.room.seat === "spectator";
  // A finished game has nothing to pause (analysis goes on from its last position).
  $("pause").hidden = !pausable || (over && !page.state.analysis);
  $("pause").textContent = page.state.paused ? (page.state.analysis ? "Go" : "Resume") : (page.state.analysis ? "Stop" : "Pause");
  // "Take back to here" where a takeback can act: viewing an earlier position of a game this
  // page plays on (not over, nor watched from a seat it does not hold; a friends' game takes
  // back one move at a time, both asking).
  // Nor where the machine is to move: the server takes back only to the person's turn.
  const viewed = live() ? null : positionAt(page.view).side;
  const machineThere = viewed && page.state.players[viewed === "black" ? 0 : 1] !== "human";
  $("takeback").hidden = live() || shownOnly() || !!page.room || (over && !page.state.analysis) || machineThere;
  $("analyse").textContent = page.state.analysis ? "Back to playing" : "Analyse";
  $("analyse").hidden = playingLive();
  // A finished game loaded into analysis (a PGN, a link) is not kept, so it has no review:
  // this keeps it as a game between two people here, which can be reviewed.
  $("review-game").hidden = !(page.state.analysis && page.state.result && live());
  $("copy-link").hidden = playingLive();
}

export function drawBanner() {
  const banner = $("banner");
  const over = !!page.state.result && live() && !page.state.analysis && !page.bannerClosed && !shownOnly();
  banner.hidden = !over;
  if (over) $("banner-text").textContent = page.state.result;
  $("rematch").hidden = !!page.room;
}

// Viewing an earlier position (0 … the number of moves); the game itself does not change.
export function show(count) {
  if (!page.state) return;
  const n = page.state.moves.length;
  const before = page.view;
  page.view = Math.max(0, Math.min(n, count));
  if (page.view === n) page.view = null;
  page.selected = null;
  // In analysis the engine follows the position shown (issue 43, item 8), as lichess's does.
  if (page.state.analysis && page.view !== before) send({ type: "focus", ply: page.view });
  draw();
}

export function clicked(name) {
  const movable = movesHere();
  if (movable.length === 0) return;
  if (page.selected && movable.includes(page.selected + ":" + name)) {
    playHere(page.selected + ":" + name);
    page.selected = null;
  } else if (movable.some(m => m.startsWith(name + ":"))) {
    page.selected = page.selected === name ? null : name;
  } else {
    page.selected = null;
  }
  draw();
}
