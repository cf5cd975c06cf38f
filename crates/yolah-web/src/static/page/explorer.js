import { page, $, evalShown, live, practising, send } from "./page.js";
import { positionAt } from "./position.js";

// The opening explorer (issue 57, item 2), as lichess's: for the position shown, the moves
// played from it, each with how often and how the games went, the opening book's move
// starred; two tabs: the server's database (`yolah serve --explorer DB`) and the games this
// server kept. Shown where the evaluation is (an analysis, a finished or watched game), never
// while a person plays. A move of the current analysis position plays it on the board.
// Answers are asked of `/explorer.json` once a position and tab, and kept.

const SOURCES = { database: "Database", games: "This server's games" };
const answers = new Map();   // source + " " + notation → the server's answer, or "asking"
// Whether the server has a database (the page says, `yolah serve --explorer DB`): else only
// its games' tab.
let noDatabase = document.querySelector('meta[name="yolah-explorer-database"]')?.content !== "yes";
let source = noDatabase ? "games" : "database";   // the tab shown

function shownNotation(count) {
  return live() ? page.state.position : positionAt(count).notation;
}

async function ask(from, notation) {
  const key = from + " " + notation;
  answers.set(key, "asking");
  try {
    const response = await fetch("/explorer.json?" + new URLSearchParams({ position: notation, source: from }));
    if (response.status === 404 && from === "database") {
      noDatabase = true;
      source = "games";
      answers.delete(key);
    } else answers.set(key, response.ok ? await response.json() : { error: (await response.json()).error });
  } catch (e) {
    answers.set(key, { error: "the explorer could not be read: " + e.message });
  }
  // The page draws itself again (`main.js` listens).
  document.dispatchEvent(new Event("explorer"));
}

// The tab `to` shown (its button clicked).
export function showSource(to) { if (SOURCES[to]) source = to; }

export function drawExplorer(count) {
  const box = $("explorer");
  // While the walk through the player's mistakes asks here, the games' moves (and the
  // book's) would give the answer away.
  box.hidden = !page.state || !evalShown() || practising(count);
  if (box.hidden) return;
  const notation = shownNotation(count);
  const answer = answers.get(source + " " + notation);
  if (answer === undefined) ask(source, notation);
  box.replaceChildren();
  const tabs = document.createElement("div");
  tabs.className = "tabs";
  tabs.setAttribute("role", "tablist");
  for (const [id, label] of Object.entries(SOURCES)) {
    if (id === "database" && noDatabase) continue;
    const tab = document.createElement("button");
    tab.className = "tab";
    tab.id = "explorer-" + id;
    tab.dataset.source = id;
    tab.setAttribute("role", "tab");
    tab.setAttribute("aria-selected", String(id === source));
    tab.textContent = label;
    tabs.appendChild(tab);
  }
  box.appendChild(tabs);
  const head = document.createElement("div");
  head.className = "head";
  box.appendChild(head);
  if (answer === undefined || answer === "asking") { head.textContent = "reading…"; return; }
  if (answer.error) { head.textContent = answer.error; return; }
  head.textContent = answer.games === 0
    ? (source === "games" ? "no finished game of this server reached this position" : "no game of the database reached this position")
    : answer.games + (answer.games === 1 ? " game" : " games") + " from here";
  box.dataset.games = String(answer.games);
  // A move plays where the analysis stands: on the position shown if it is the current one.
  const playable = page.state.analysis && live() && !page.state.result;
  for (const m of answer.moves) {
    const row = document.createElement(playable ? "button" : "div");
    row.className = "move-row";
    row.dataset.move = m.move;
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = m.move + (m.book ? " ★" : "");
    if (m.book) name.title = "the opening book's move";
    const games = document.createElement("span");
    games.className = "games";
    games.textContent = String(m.games);
    // Black's wins, draws and white's wins as one bar, then the mover's score.
    const bar = document.createElement("span");
    bar.className = "bar";
    bar.title = "black won " + m.black + ", drawn " + m.draws + ", white won " + m.white;
    for (const [cls, n] of [["black", m.black], ["draws", m.draws], ["white", m.white]]) {
      const part = document.createElement("span");
      part.className = cls;
      part.style.width = (100 * n / m.games).toFixed(1) + "%";
      bar.appendChild(part);
    }
    const score = document.createElement("span");
    score.className = "score";
    score.textContent = Math.round(100 * m.score) + " %";
    score.title = answer.side + "'s score: wins and half the draws";
    row.append(name, games, bar, score);
    if (playable) row.addEventListener("click", () => send({ type: "play", move: m.move }));
    box.appendChild(row);
  }
  if (answer.book && !answer.moves.some(m => m.book)) {
    const note = document.createElement("div");
    note.className = "note";
    note.textContent = "the opening book plays " + answer.book + ", in none of these games";
    box.appendChild(note);
  }
}
