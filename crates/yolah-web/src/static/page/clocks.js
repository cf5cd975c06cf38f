import { page, $ } from "./page.js";
import { warnLowTime } from "./sound.js";

// The clocks tick on the page between states; the server keeps the real ones and says when a
// side has lost on time.
export function mmss(ms) {
  const tenths = Math.max(0, Math.floor(ms / 100));
  const minutes = Math.floor(tenths / 600);
  const seconds = Math.floor(tenths / 10) % 60;
  return minutes + ":" + String(seconds).padStart(2, "0") + (minutes < 1 ? "." + (tenths % 10) : "");
}
export function drawClocks() {
  const box = $("clocks");
  const clocks = page.state && page.state.clocks;
  box.hidden = !clocks;
  if (!clocks) return;
  const running = clocks.running ? performance.now() - page.clockBase + clocks.since_ms : 0;
  for (const side of ["black", "white"]) {
    const span = $("clock-" + side);
    const left = clocks[side + "_ms"] - (clocks.running === side ? running : 0);
    span.textContent = (side === "black" ? "● " : "○ ") + mmss(left);
    span.dataset.ms = String(Math.max(0, Math.round(left)));
    span.classList.toggle("to-move", clocks.running === side);
    span.classList.toggle("low", left < 10000);
    const mine = page.room ? page.room.seat === side : page.state.players[side === "black" ? 0 : 1] === "human";
    if (mine && clocks.running === side && left < 10000) warnLowTime();
  }
}
