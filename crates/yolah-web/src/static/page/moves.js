import { GLYPHS } from "./names.js";
import { page, $, live } from "./page.js";
import { reviewed } from "./review.js";

// The move list. Each entry and glyph carries its ply (`data-ply`): a click on one shows the
// position after it (`main.js` listens on the list).

// A side with no move passes on each of its turns: a run of one side's passes is one entry,
// "pass ×N", at the run's first pass (the positions in between are still there to step
// through with the keys).
export function passRuns(moves) {
  const runs = {};            // the ply of a run's first pass → its length
  const within = {};          // the ply of any later pass of a run → the run's first ply
  moves.forEach((m, i) => {
    if (m !== "a1:a1") return;
    if (i >= 2 && moves[i - 2] === "a1:a1") {
      const first = within[i - 2] !== undefined ? within[i - 2] : i - 2;
      within[i] = first;
      runs[first] += 1;
    } else runs[i] = 1;
  });
  return { runs, within };
}

export function drawMoves(count) {
  const box = $("moves");
  box.replaceChildren();
  const { runs, within } = passRuns(page.state.moves);
  const shownPly = count - 1 in within ? within[count - 1] + 1 : count;
  page.state.moves.forEach((m, i) => {
    if (i in within) return;
    // Black's move opens its number; white's carries one ("27… g2:h3", as `moveName` says)
    // when black's move before it is hidden in a run of passes.
    if (i % 2 === 0 || i - 1 in within) {
      const n = document.createElement("span");
      n.className = "number";
      n.textContent = Math.floor(i / 2 + 1) + (i % 2 === 0 ? ". " : "… ");
      box.appendChild(n);
    }
    const span = document.createElement("span");
    span.className = "move" + (i + 1 === shownPly ? " current" : "") + (m === "a1:a1" ? " pass" : "");
    span.textContent = m === "a1:a1" ? (runs[i] > 1 ? "pass ×" + runs[i] : "pass") : m;
    if (m === "a1:a1") span.title = "a1:a1: " + (i % 2 === 0 ? "black" : "white") + " has no move" + (runs[i] > 1 ? ", " + runs[i] + " turns in a row" : "");
    span.dataset.ply = String(i + 1);
    box.appendChild(span);
    const judged = reviewed() && reviewed().moves[i];
    if (judged && GLYPHS[judged.class]) {
      const glyph = document.createElement("span");
      glyph.className = "glyph judged-" + judged.class;
      glyph.textContent = GLYPHS[judged.class];
      glyph.title = judged.class + ": " + Math.round(100 * judged.loss) + " % of expected score lost";
      glyph.dataset.ply = String(i + 1);
      box.appendChild(glyph);
    }
    box.appendChild(document.createTextNode(" "));
  });
  box.dataset.moves = page.state.moves.join(" ");
  box.dataset.start = page.state.start;
  const current = box.querySelector(".current");
  if (live()) box.scrollTop = box.scrollHeight;
  else if (current) current.scrollIntoView({ block: "nearest" });
}
