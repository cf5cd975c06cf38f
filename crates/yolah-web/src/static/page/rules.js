import { cells, FILES } from "../board.js";
import { $ } from "./page.js";
import { start } from "./setup.js";

// Small diagrams for the rules: the start, a piece's moves, and the hole a move leaves.
export function mini(notation, marks, caption) {
  const figure = document.createElement("div");
  figure.className = "figure";
  const grid = document.createElement("div");
  grid.className = "mini";
  const board = cells(notation);
  for (let rank = 8; rank >= 1; rank--) {
    for (let f = 0; f < 8; f++) {
      const name = FILES[f] + rank;
      const d = document.createElement("div");
      const cell = board[name];
      d.className = (cell === "hole" ? "h" : (f + rank) % 2 === 0 ? "d" : "l") +
        (cell === "black" ? " b" : cell === "white" ? " w" : marks.includes(name) ? " t" : "");
      grid.appendChild(d);
    }
  }
  figure.appendChild(grid);
  figure.appendChild(document.createTextNode(caption));
  $("diagrams").appendChild(figure);
}
export function reach(notation, from) {
  const board = cells(notation);
  const found = [];
  const [f0, r0] = [FILES.indexOf(from[0]), Number(from[1])];
  for (const [df, dr] of [[1, 0], [-1, 0], [0, 1], [0, -1], [1, 1], [1, -1], [-1, 1], [-1, -1]]) {
    for (let f = f0 + df, r = r0 + dr; f >= 0 && f < 8 && r >= 1 && r <= 8; f += df, r += dr) {
      if (board[FILES[f] + r] !== "empty") break;
      found.push(FILES[f] + r);
    }
  }
  return found;
}
export function drawRules() {
  const start = "w6b/8/8/3bw3/3wb3/8/8/b6w b 0 0 0";
  const after = "w6b/8/8/3bw3/3wb3/2b5/8/x6w w 1 0 1";
  mini(start, [], "The start: black ● moves first.");
  mini(after, [], "After a1:c3: the piece stands on c3 and a1 is a hole. Black has 1 point.");
  mini(after, reach(after, "c3"), "Where c3 could go next: d4's piece and the hole on a1 block it.");
}
