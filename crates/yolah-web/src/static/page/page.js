// The board page's shared state: what every part reads and the parts change, in one object
// (the browser tests read it as `window.page`), and the questions every part asks of it.

export const page = {
  socket: null,
  state: null,              // the game as the server last sent it
  selected: null,           // the square of the piece picked up, if any
  view: null,               // the number of moves shown, or null for the game as it stands
  evals: {},                // ply → black's view of the engine's last report on that position
  reports: {},              // ply → the engine's last report on that position, as it came
  lastSetup: null,          // the last new game asked for (for a rematch)
  bannerClosed: false,
  room: null,               // this page's place in a game between two browsers
  kept: null,               // the server's id of this page's own game, and its token (null: only shown)
  opening: null,            // the id of a kept game asked for, until the server answers
  formWanted: false,        // the game asked for has come: its state sets the New-game form
  lastReport: null,         // the engine's last report
  stateOfOld: false,        // a new game's id came, and the state shown is still the game before
  flipped: false,           // the board seen from white's side
  fromGame: false,          // the analysis about to start is of the game shown (Analyse)
  clockBase: null,          // when the last state came (the clocks tick on from it)
  moveMs: 160,              // how long a move's piece slides
  soundsPlayed: 0,          // how many sounds the page has made (the browser test listens so)
  practice: null,           // the walk through the player's mistakes after a review (`practice.js`)
};

// The board's squares by name (`draw.js` builds them).
export const squares = {};

export function $(id) { return document.getElementById(id); }

export function live() { return page.view === null || (page.state && page.view >= page.state.moves.length); }

export function humanToMove() {
  if (!page.state || page.state.result || !live() || shownOnly()) return false;
  if (page.room) return page.room.seat === page.state.side;
  if (page.state.thinking && !page.state.analysis) return false;
  const index = page.state.side === "black" ? 0 : 1;
  return page.state.players[index] === "human";
}

// A game opened from the archive without its token: shown, not played.
export function shownOnly() { return !page.room && !!page.kept && !page.kept.token; }

// Whose game this is: a person plays a side (or both: two people here, or an analysis).
export function personPlays() { return page.state && page.state.players.includes("human"); }

// As on lichess: no analysis, evaluation or engine line of a game this page plays while it
// is played (the server sends none either); an analysis, a watched game, a game over and a
// game from the archive show everything.
export function playingLive() {
  if (!page.state || page.state.analysis || page.state.result || shownOnly()) return false;
  return page.room ? page.room.seat !== "spectator" : personPlays();
}
export function evalShown() { return !!page.state && !playingLive(); }

export function send(message) {
  $("error").textContent = "";
  if (page.socket && page.socket.readyState === WebSocket.OPEN) page.socket.send(JSON.stringify(message));
}

// Whether the walk through the player's mistakes (`practice.js`) asks for a move at the
// position after `count` moves: the review's answer there (its arrow, lines and verdict) is
// kept hidden until it is found or shown.
export function practising(count) {
  const p = page.practice;
  return !!p && p.at < p.plies.length && p.plies[p.at] === count && p.status !== "right" && p.status !== "shown";
}
