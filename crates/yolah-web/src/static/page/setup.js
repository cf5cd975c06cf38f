import { cells } from "../board.js";
import { LEVELS } from "../players.js";
import { GAME_CONTROLS } from "./draw.js";
import { page, $, live, send, squares } from "./page.js";

export function showLevel() {
  const mode = $("mode").value;
  document.querySelectorAll(".custom").forEach(e => { e.hidden = mode !== "custom"; });
  document.querySelectorAll(".leveled").forEach(e => { e.hidden = mode !== "level"; });
  document.querySelectorAll(".colourful").forEach(e => { e.hidden = mode === "custom"; });
  $("level-spec").textContent = "plays as " + LEVELS[Number($("level").value) - 1];
}

// A reopened game (a reload, a link, the archive) sets the New-game form to its own
// settings, so that "New game" plays another like it.
export function formFrom(game) {
  if (game.analysis || page.room) return;
  const [black, white] = game.players;
  const machine = black === "human" ? white : white === "human" ? black : null;
  const level = machine === null || black === white ? -1 : LEVELS.indexOf(machine);
  if (level >= 0) {
    $("mode").value = "level";
    $("level").value = String(level + 1);
    $("colour").value = black === "human" ? "black" : "white";
  } else {
    $("mode").value = "custom";
    $("black").value = black;
    $("white").value = white;
  }
  $("position").value = game.start === game.initial ? "" : game.start;
  $("tc").value = game.clocks ? game.clocks.control : "";
  showLevel();
}

// The players the form asks for.
export function chosenSides() {
  if ($("mode").value === "custom") return [$("black").value, $("white").value];
  const spec = LEVELS[Number($("level").value) - 1];
  let colour = $("colour").value;
  if (colour === "random") colour = Math.random() < 0.5 ? "black" : "white";
  return colour === "black" ? ["human", spec] : [spec, "human"];
}

export function leaveRoom() { page.room = null; }

// The address changes when the server answers with the new view (its game, its analysis).
export function start(setup) {
  leaveRoom();
  page.kept = null;
  page.lastSetup = setup;
  page.bannerClosed = false;
  $("report").textContent = ""; page.lastReport = null;
  send(Object.assign({ type: "new" }, setup));
}

export function newGame() {
  if ($("mode").value === "friend") {
    leaveRoom();
    page.kept = null;
    send({ type: "host", colour: $("colour").value, position: $("position").value, tc: $("tc").value });
    return;
  }
  const [black, white] = chosenSides();
  start({ black, white, position: $("position").value, tc: $("tc").value });
}

// A fresh page offers a choice instead of starting a game: the start position under it.
export function showLanding() {
  const board = cells("w6b/8/8/3bw3/3wb3/8/8/b6w b 0 0 0");
  for (const [name, div] of Object.entries(squares)) {
    div.querySelectorAll(".piece").forEach(p => p.remove());
    if (board[name] === "black" || board[name] === "white") {
      const p = document.createElement("div");
      p.className = "piece " + board[name];
      div.appendChild(p);
    }
  }
  $("landing").hidden = false;
  for (const id of GAME_CONTROLS) $(id).hidden = true;
  $("status").textContent = "choose a game";
}
export function leaveLanding() { $("landing").hidden = true; }

// The same game again with the colours swapped.
export function rematch() {
  const setup = page.lastSetup && !page.lastSetup.analysis ? page.lastSetup : { black: "human", white: LEVELS[5] };
  start({ black: setup.white, white: setup.black, position: setup.position || "", tc: setup.tc || "" });
}

// Analyse a game (once over, or watched): a new entry of the browser's history over the game's;
// "Back to playing" goes back to it, as Back does (an analysis not opened from a game starts
// a new game from the form).
export function analyse() {
  if (page.state && page.state.analysis) {
    if (history.state && history.state.fromGame) history.back(); else newGame();
    return;
  }
  page.fromGame = true;
  const moves = page.state ? page.state.moves.slice(0, live() ? page.state.moves.length : page.view) : [];
  start({ black: "human", white: "human", analysis: true, position: page.state ? page.state.start : "", moves });
}

// A position in notation, a move list (`1. a1:c3 h1:f3`, commas or spaces), a protocol line
// (`position fen … moves …`) or a link of this page.
export function parseLoad(text) {
  text = text.trim();
  try {
    const url = new URL(text);
    return { position: url.searchParams.get("position") || "", moves: splitMoves(url.searchParams.get("moves") || "") };
  } catch (e) { /* not a link */ }
  const protocol = text.match(/^position\s+(?:fen\s+(.*?)|startpos)(?:\s+moves\s+(.*))?$/);
  if (protocol) return { position: protocol[1] || "", moves: splitMoves(protocol[2] || "") };
  if (text.includes("/")) return { position: text, moves: [] };
  return { position: "", moves: splitMoves(text) };
}
export function splitMoves(text) {
  return text.split(/[\s,]+/).filter(w => w && !/^\d+\.$/.test(w));
}

export function load(text) {
  const { position, moves } = parseLoad(text);
  start({ black: "human", white: "human", analysis: true, position, moves });
}

// An analysis's address: its start (if not the usual one) and moves.
export function analysisSearch() {
  const params = new URLSearchParams();
  if (page.state.start !== page.state.initial) params.set("position", page.state.start);
  if (page.state.moves.length) params.set("moves", page.state.moves.join(","));
  return params.toString() ? "?" + params.toString() : "";
}

export function link() { return location.origin + "/" + analysisSearch(); }

export function copyText(text, what) {
  const done = () => { $("status").textContent = what + " copied"; };
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(text).then(done, () => fallbackCopy(text, done));
  } else {
    fallbackCopy(text, done);
  }
  $("share").dataset.copied = text;
}

export function fallbackCopy(text, done) {
  const area = document.createElement("textarea");
  area.value = text;
  document.body.appendChild(area);
  area.select();
  try { document.execCommand("copy"); done(); } catch (e) { /* the text stays on the page */ }
  area.remove();
}

// The game as the engine protocol's position line: `yolah engine` reads it back, and so does
// the Load box.
export function gameText() {
  return "position fen " + page.state.start + (page.state.moves.length ? " moves " + page.state.moves.join(" ") : "") + "\n";
}

export function download() {
  const blob = new Blob([gameText()], { type: "text/plain" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = "yolah-game.txt";
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}
