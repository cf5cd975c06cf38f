// The puzzles page: a puzzle from the server (POST /puzzles/next), your moves checked by it
// (POST /puzzles/ID/attempt, which plays the reply while the line goes on), the solution
// and its proof at the end; this browser's name kept in localStorage, its rating on the
// server.
import { buildSquares, cells, paintSquare } from "./board.js";

const $ = id => document.getElementById(id);
const KEY = "yolah.puzzles.solver";

function solverName() {
  let name = localStorage.getItem(KEY);
  if (!/^[0-9a-f]{32}$/.test(name || "")) {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    name = Array.from(bytes, b => b.toString(16).padStart(2, "0")).join("");
    localStorage.setItem(KEY, name);
  }
  return name;
}
const solver = solverName();

let puzzle = null;    // the puzzle shown, as /puzzles/next gives it
let board = {};       // square → "black", "white", "hole" or "empty"
let scores = [0, 0];
let legal = [];       // the moves the side to find may play now
let played = [];      // the moves so far: yours and the replies
let last = [];        // the last move's squares
let selected = null;
let over = true;
let pending = false;  // a move or a give-up being checked
let before = null;    // the state before your move, restored if it cannot be checked
let squares = {};

function draw() {
  const targets = selected ? legal.filter(m => m.startsWith(selected + ":")).map(m => m.split(":")[1]) : [];
  for (const [name, div] of Object.entries(squares)) paintSquare(div, name, board[name], { last, targets, selected });
  $("scores").textContent = "● black " + scores[0] + " · ○ white " + scores[1];
}

function play(m) {
  if (m !== "a1:a1") {
    const [from, to] = m.split(":");
    const mover = board[from];
    board[to] = mover;
    board[from] = "hole";
    scores[mover === "black" ? 0 : 1] += 1;
    last = [from, to];
  } else {
    last = [];
  }
  played.push(m);
}

function say(text, tone) {
  $("status").textContent = text;
  $("status").className = tone || "";
}

function showStanding(s) {
  const box = $("standing");
  box.textContent = "";
  const item = (label, value) => {
    const span = document.createElement("span");
    const b = document.createElement("b");
    b.textContent = value;
    span.append(label + " ", b);
    box.appendChild(span);
  };
  item("rating", s.rating + (s.provisional ? " (provisional)" : ""));
  item("streak", s.streak);
  item("best streak", s.best);
  item("solved", s.solved + " of " + (s.solved + s.failed));
}

// A final margin in words, for the side to find.
function margin(v) {
  return v > 0 ? "wins by " + v : v < 0 ? "loses by " + (-v) : "draws";
}

async function post(url, body) {
  const response = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const data = await response.json().catch(() => ({ error: "the server's answer is not JSON" }));
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

async function next() {
  say("");
  $("proof").hidden = true;
  $("next").hidden = true;
  let data;
  try {
    data = await post("/puzzles/next", { solver });
  } catch (e) {
    say("Cannot get a puzzle: " + e.message, "bad");
    return;
  }
  showStanding(data.standing);
  puzzle = data.puzzle;
  if (!puzzle) {
    $("task").textContent = "You have tried every puzzle here.";
    $("solution").hidden = true;
    return;
  }
  const parts = puzzle.position.split(" ");
  board = cells(puzzle.position);
  scores = [Number(parts[2]), Number(parts[3])];
  legal = puzzle.legal;
  played = [];
  last = [];
  selected = null;
  over = false;
  squares = buildSquares($("board"), puzzle.side === "white", clicked);
  $("task").textContent = (puzzle.side === "black" ? "Black" : "White") + " to move: " + puzzle.task + ".";
  $("solution").hidden = false;
  say("Puzzle rated " + puzzle.rating + ". Pick a " + puzzle.side + " piece, then where it goes.");
  draw();
}

function clicked(name) {
  if (over || pending) return;
  if (selected && legal.includes(selected + ":" + name)) {
    const m = selected + ":" + name;
    selected = null;
    before = { board: { ...board }, scores: [...scores], legal: [...legal], played: [...played], last: [...last] };
    play(m);
    legal = [];
    draw();
    attempt(false);
    return;
  }
  selected = legal.some(m => m.startsWith(name + ":")) && name !== selected ? name : null;
  draw();
}

async function attempt(giveUp) {
  let data;
  pending = true;
  $("solution").disabled = true;
  try {
    data = await post("/puzzles/" + puzzle.id + "/attempt", { solver, moves: giveUp ? [] : played, give_up: giveUp });
  } catch (e) {
    // Not checked: the move is taken back, to be played again.
    if (!giveUp && before) ({ board, scores, legal, played, last } = before);
    say((giveUp ? "Cannot show the solution: " : "Cannot check the move (play it again): ") + e.message, "bad");
    draw();
    return;
  } finally {
    pending = false;
    $("solution").disabled = false;
  }
  if (data.result === "continue") {
    say("Right. The reply: " + data.reply + (data.reply === "a1:a1" ? " (a pass)" : "") + ". Go on.", "good");
    play(data.reply);
    legal = data.legal;
    draw();
    return;
  }
  over = true;
  legal = [];
  selected = null;
  const change = data.counted ? " (rating " + (data.change >= 0 ? "+" : "−") + Math.abs(data.change) + ")" : "";
  if (data.result === "solved") {
    say("Solved! " + data.solution.join(" ") + ": " + puzzle.side + " " + margin(data.value) + change + ".", "good");
  } else {
    say("Not that. The solution: " + data.solution.join(" ") + ": " + puzzle.side + " " + margin(data.value) + change + ".", "bad");
  }
  const proof = $("proof");
  proof.textContent = "";
  for (const [m, v] of data.proof) {
    const li = document.createElement("li");
    li.textContent = m + " " + margin(v) + (m === data.solution[0] ? " (the solution)" : "");
    if (m === data.solution[0]) li.className = "solution";
    proof.appendChild(li);
  }
  proof.hidden = false;
  showStanding(data.standing);
  $("solution").hidden = true;
  $("next").hidden = false;
  draw();
}

$("next").addEventListener("click", next);
$("solution").addEventListener("click", () => { if (!over && !pending) attempt(true); });
next();

// For the browser tests and the console: the puzzle shown.
window.puzzles = { get puzzle() { return puzzle; } };
