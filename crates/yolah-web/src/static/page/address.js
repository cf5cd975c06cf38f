import { page, $, send } from "./page.js";
import { leaveRoom, showLanding, splitMoves, start } from "./setup.js";

// The games this browser holds a token for (its own and its sides of shared games), oldest
// first: "my games" in the archive.
export function myGames() {
  try { return JSON.parse(localStorage.getItem("yolah.games") || "[]"); } catch (e) { return []; }
}
export function remember(id, token) {
  if (!token) return;
  const games = myGames().filter(g => g.id !== id);
  games.push({ id, token });
  try { localStorage.setItem("yolah.games", JSON.stringify(games.slice(-200))); } catch (e) { /* no storage */ }
}
export function tokenFor(id) {
  const game = myGames().find(g => g.id === id);
  return game ? game.token : undefined;
}

// The address says what the page shows, so that a reload (or a reconnect after the server
// restarts) comes back to it: `?game=ID` a kept game, `?join=ID` a shared one,
// `?position=…&moves=…` an analysis, nothing the landing. Each view is an entry of the
// browser's history: a new view is pushed, a change within one (an analysis's moves) replaces
// its address, and Back and Forward bring a view back (`route`). `replace`: the view replaces
// the current entry (a link that opened nothing).
export function viewOf(search) {
  const params = new URLSearchParams(search);
  return params.has("join") ? "join:" + params.get("join")
    : params.has("game") ? "game:" + params.get("game")
    : params.has("position") || params.has("moves") ? "analysis" : "";
}
export function address(search, replace) {
  const view = viewOf(search);
  const same = history.state && history.state.view === view;
  if (same && location.search === search) return;
  const entry = { view, fromGame: view === "analysis" && (same ? history.state.fromGame : page.fromGame) };
  page.fromGame = false;
  if (same || replace) history.replaceState(entry, "", "/" + search);
  else history.pushState(entry, "", "/" + search);
}

// The history entry of the page as first opened.
export function firstEntry() {
  history.replaceState({ view: viewOf(location.search), fromGame: !!(history.state && history.state.fromGame) }, "");
}

// Opens the view the address names (a fresh page, a reconnect, Back or Forward).
export function route(reconnected) {
  const params = new URLSearchParams(location.search);
  if (params.has("join")) {
    const id = params.get("join");
    page.kept = null;
    send({ type: "join", room: id, key: params.get("key") || undefined, token: tokenFor(id) });
  } else if (params.has("game")) {
    leaveRoom();
    page.opening = params.get("game");
    send({ type: "open", game: page.opening, token: tokenFor(page.opening) });
  } else if (params.has("position") || params.has("moves")) {
    $("share").open = true;
    start({ black: "human", white: "human", analysis: true, position: params.get("position") || "",
      moves: splitMoves(params.get("moves") || "") });
  } else if (reconnected && page.state && page.state.analysis) {
    // Back after a drop, in an analysis of the usual start with no moves yet.
    start({ black: "human", white: "human", analysis: true, position: "", moves: [] });
  } else if (!reconnected) {
    // Back to the landing: the page as it was first opened.
    location.reload();
  } else if (!page.state && !page.room) {
    showLanding();
  }
}
