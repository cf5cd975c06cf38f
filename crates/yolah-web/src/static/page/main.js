// The board page: it builds the board and the forms, wires every control to its part, and
// connects. The parts: page.js (the shared state), draw.js (the board and the panels),
// moves.js, evaluation.js, review.js, clocks.js, sound.js, pointer.js (drag and slide),
// address.js (history and links), setup.js (new games, loading, copying), rules.js,
// connection.js (the server's messages).
import { LEVELS } from "../players.js";
import { firstEntry, route } from "./address.js";
import { drawClocks } from "./clocks.js";
import { connect } from "./connection.js";
import { buildBoard, draw, drawBanner, flip, show } from "./draw.js";
import { page, $, live, send } from "./page.js";
import { showSource } from "./explorer.js";
import { listenForDrags } from "./pointer.js";
import { hint, nextPractice, showAnswer, startPractice, stopPractice } from "./practice.js";
import { askReview, nextMistake } from "./review.js";
import { drawRules } from "./rules.js";
import { analyse, copyText, download, link, load, newGame, rematch, showLevel, start } from "./setup.js";
import { drawSound, toggleSound } from "./sound.js";

LEVELS.forEach((spec, i) => {
  const option = document.createElement("option");
  option.value = String(i + 1);
  option.textContent = "level " + (i + 1) + (i === 0 ? " (moves at random)" : i === 7 ? " (the strongest)" : "");
  option.title = spec;
  $("level").appendChild(option);
});
$("level").value = "6";
showLevel();
drawRules();
buildBoard();
$("mode").addEventListener("change", showLevel);
$("level").addEventListener("change", showLevel);
$("new").addEventListener("click", newGame);
$("sound").addEventListener("click", toggleSound);
drawSound();
$("landing-level").addEventListener("click", () => {
  $("mode").value = "level";
  $("mode").dispatchEvent(new Event("change"));
  newGame();
});
$("landing-friend").addEventListener("click", () => {
  $("mode").value = "friend";
  $("mode").dispatchEvent(new Event("change"));
  newGame();
});
$("landing-analyse").addEventListener("click", () => {
  start({ black: "human", white: "human", analysis: true, position: "", moves: [] });
});
$("landing-games").addEventListener("click", () => { location.href = "/games?mine=1"; });
$("banner-new").addEventListener("click", () => { page.bannerClosed = true; $("setup").open = true; newGame(); });
$("banner-close").addEventListener("click", () => { page.bannerClosed = true; drawBanner(); });
$("rematch").addEventListener("click", rematch);
$("undo").addEventListener("click", () => send({ type: "undo" }));
$("accept-takeback").addEventListener("click", () => send({ type: "undo" }));
$("decline-takeback").addEventListener("click", () => send({ type: "decline" }));
$("copy-invite").addEventListener("click", () => copyText($("invite-link").value, "link"));
$("resign").addEventListener("click", () => send({ type: "resign" }));
$("pause").addEventListener("click", () => send({ type: page.state && page.state.paused ? "resume" : "pause" }));
$("takeback").addEventListener("click", () => { const to = page.view; page.view = null; send({ type: "undo", to }); });
$("flip").addEventListener("click", flip);
$("analyse").addEventListener("click", analyse);
$("copy").addEventListener("click", () => page.state && copyText(page.state.moves.join(" "), "moves"));
$("copy-link").addEventListener("click", () => page.state && copyText(link(), "link"));
$("download").addEventListener("click", () => page.state && download());
// The PGN record comes from the server (the match runner's code): the link says what to write.
$("export-pgn").addEventListener("click", () => {
  if (!page.state) return;
  const [black, white] = page.state.players;
  $("export-pgn").href = "/export.pgn?" + new URLSearchParams({
    start: page.state.start, moves: page.state.moves.join(","), black, white,
    result: page.state.result || "", tc: page.state.clocks ? page.state.clocks.control : "",
  });
});
$("load-button").addEventListener("click", () => load($("load").value));
$("first").addEventListener("click", () => show(0));
$("back").addEventListener("click", () => show((live() ? page.state.moves.length : page.view) - 1));
$("forward").addEventListener("click", () => show((live() ? page.state.moves.length : page.view) + 1));
$("last").addEventListener("click", () => show(page.state.moves.length));
$("review-ask").addEventListener("click", () => askReview(live() ? page.state.moves.length : page.view));
$("review-next").addEventListener("click", () => {
  const to = nextMistake(live() ? page.state.moves.length : page.view);
  if (to !== null) show(to);
});
$("review-game").addEventListener("click", () => {
  if (!page.state) return;
  start({ black: "human", white: "human", position: page.state.start, moves: page.state.moves, tc: "none" });
});
$("practice-start").addEventListener("click", () => { const to = startPractice(); if (to !== null) show(to); });
$("practice-hint").addEventListener("click", () => { hint(); draw(); });
$("practice-answer").addEventListener("click", () => { showAnswer(); draw(); });
$("practice-next").addEventListener("click", () => { const to = nextPractice(); if (to !== null) show(to); else draw(); });
$("practice-stop").addEventListener("click", () => { stopPractice(); draw(); });
$("moves").addEventListener("click", (e) => {
  const entry = e.target.closest("[data-ply]");
  if (entry) show(Number(entry.dataset.ply));
});
// A review read or asked for: the page drawn again with it.
document.addEventListener("review", () => { if (page.state) draw(); });
// An explorer's answer came: the page drawn again with it. Its tabs.
document.addEventListener("explorer", () => { if (page.state) draw(); });
$("explorer").addEventListener("click", (e) => {
  const tab = e.target.closest("[data-source]");
  if (tab) { showSource(tab.dataset.source); draw(); }
});
$("graph").addEventListener("click", (e) => {
  const box = $("graph").getBoundingClientRect();
  const n = Math.max(page.state.moves.length, 1);
  show(Math.round(n * (e.clientX - box.left) / box.width));
});
document.addEventListener("keydown", (e) => {
  if (!page.state || e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
  const now = live() ? page.state.moves.length : page.view;
  const to = { ArrowLeft: now - 1, ArrowRight: now + 1, Home: 0, End: page.state.moves.length }[e.key];
  if (to !== undefined) { e.preventDefault(); show(to); }
});

// A page the browser keeps for Back (its back-forward cache) closes its connection as it
// goes, rather than have the browser cut it, and opens a new one when it comes back.
window.addEventListener("pagehide", (event) => {
  if (event.persisted && page.socket) { page.socket.onclose = null; page.socket.close(); }
});
window.addEventListener("pageshow", (event) => { if (event.persisted) connect(); });
window.addEventListener("popstate", () => route(false));
listenForDrags();
setInterval(drawClocks, 100);
firstEntry();
// For the browser tests and the console: the page's state.
window.page = page;
connect();
