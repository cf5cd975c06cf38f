import { address, remember, route, viewOf } from "./address.js";
import { drawClocks } from "./clocks.js";
import { buildBoard, draw, drawRoom } from "./draw.js";
import { noteReport } from "./evaluation.js";
import { page, $ } from "./page.js";
import { animateMove, forgetDrop } from "./pointer.js";
import { analysisSearch, formFrom, leaveLanding, showLanding } from "./setup.js";
import { newGameSounds, sound } from "./sound.js";

let retry = 500;            // the wait before the next reconnection, ms (doubles to 30 s)

// How many moves two games share from the start: the positions up to then are the same.
function samePlies(a, b) {
  let k = 0;
  while (k < a.length && k < b.length && a[k] === b[k]) k++;
  return k;
}

export function connect() {
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  page.socket = new WebSocket(scheme + location.host + "/ws");
  page.socket.onopen = () => {
    $("status").textContent = "connected";
    retry = 500;
    document.body.dataset.connected = "yes";
    route(true);
  };
  page.socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "state") {
      page.stateOfOld = false;
      leaveLanding();
      const before = page.state;
      page.state = message;
      page.state.initial = "w6b/8/8/3bw3/3wb3/8/8/b6w b 0 0 0";
      page.clockBase = performance.now();
      page.selected = null;
      const freshGame = !before || before.start !== page.state.start || before.players.join() !== page.state.players.join()
        || before.analysis !== page.state.analysis || page.state.moves.length === 0 && before.moves.length > 0;
      if (freshGame) {
        page.practice = null;
        page.evals = {};
        page.reports = {};
        page.view = null;
        page.bannerClosed = false;
        // Playing white against a machine: the board turns to white's side (a new game only,
        // so that a flip by hand stays).
        const wantFlip = page.room ? page.room.seat === "white"
          : page.state.players[1] === "human" && page.state.players[0] !== "human";
        if (wantFlip !== page.flipped) { page.flipped = wantFlip; buildBoard(); }
        if (page.formWanted) { page.formWanted = false; formFrom(page.state); }
      }
      // Moves taken back (or others played in their place): the reports on the positions
      // after them and the view past the end go.
      const kept = before ? samePlies(before.moves, page.state.moves) : 0;
      for (const known of [page.evals, page.reports]) {
        for (const k of Object.keys(known)) if (Number(k) > kept) delete known[k];
      }
      if (page.view !== null && page.view >= page.state.moves.length) page.view = null;
      // A move or an undo makes the last error and (when moves are taken back) the report stale.
      if (!before || before.moves.length !== page.state.moves.length) $("error").textContent = "";
      if (freshGame || (before && page.state.moves.length < before.moves.length)) page.lastReport = null;
      if (page.state.analysis) address(analysisSearch());
      draw();
      drawClocks();
      if (!freshGame && before && page.state.moves.length === before.moves.length + 1) {
        const last = page.state.moves[page.state.moves.length - 1];
        animateMove(last);
        sound(last === "a1:a1" ? "pass" : "move");
      }
      if (freshGame) newGameSounds();
      if (before && !before.result && page.state.result) sound("end");
      if (before && page.state.moves.length !== before.moves.length) forgetDrop();
    }
    else if (message.type === "report") { noteReport(message); }
    else if (message.type === "game") {
      page.formWanted = page.opening !== null;
      page.opening = null;
      // The server sends the game's state next: until then the state shown is another game's.
      page.stateOfOld = true;
      page.kept = message;
      remember(page.kept.id, page.kept.token);
      address("?game=" + page.kept.id);
      if (page.state) draw();
    }
    else if (message.type === "room") {
      const first = !page.room || page.room.id !== message.id;
      if (first) page.stateOfOld = true;
      page.room = message;
      page.opening = null;
      page.kept = null;
      remember(page.room.id, page.room.token);
      if (viewOf(location.search) !== "join:" + page.room.id) address("?join=" + page.room.id);
      // Playing white: the board turns to white's side.
      if (first && (page.room.seat === "white") !== page.flipped) { page.flipped = page.room.seat === "white"; buildBoard(); }
      if (page.state) draw(); else drawRoom();
    }
    else if (message.type === "error") {
      $("error").textContent = message.message;
      // A kept game that cannot be opened, or an analysis link that is wrong: the choice of
      // a fresh page, with the reason.
      page.fromGame = false;
      if (page.opening !== null || (!page.state && !page.room)) { page.opening = null; address("", true); if (!page.state) showLanding(); }
    }
  };
  // Every game comes back after a drop (the server keeps it, even across a restart): the page
  // reconnects and opens what its address names, with its token.
  // A page left idle is closed by the server (4000): it waits for the person to come back.
  page.socket.onclose = (event) => {
    document.body.dataset.connected = "no";
    if (event.code === 4000) {
      $("status").textContent = "closed after a long idle time; the game is kept: reload the page to go on";
      return;
    }
    $("status").textContent = "reconnecting…";
    retry = Math.min(retry * 2, 30000);
    setTimeout(connect, retry);
  };
}
