// The board's squares and the notation's cells, shared by the board and the puzzles.
export const FILES = "abcdefgh";

// The board part of the notation: ranks 8 to 1, b/w pieces, x holes, digits free squares.
export function cells(notation) {
  const result = {};
  const ranks = notation.split(" ")[0].split("/");
  ranks.forEach((row, r) => {
    let f = 0;
    for (const ch of row) {
      if (ch >= "1" && ch <= "8") {
        for (let k = 0; k < Number(ch); k++) result[FILES[f++] + (8 - r)] = "empty";
      } else {
        result[FILES[f++] + (8 - r)] = ch === "b" ? "black" : ch === "w" ? "white" : "hole";
      }
    }
  });
  return result;
}

// The 64 squares into `grid`, rank 8 at the top (rank 1 if `flipped`), each calling
// `clicked(name)` on a click, Enter or Space; returns them by name.
export function buildSquares(grid, flipped, clicked) {
  const squares = {};
  grid.replaceChildren();
  const ranks = flipped ? [1, 2, 3, 4, 5, 6, 7, 8] : [8, 7, 6, 5, 4, 3, 2, 1];
  const files = flipped ? [7, 6, 5, 4, 3, 2, 1, 0] : [0, 1, 2, 3, 4, 5, 6, 7];
  for (const rank of ranks) {
    for (const f of files) {
      const name = FILES[f] + rank;
      const div = document.createElement("div");
      div.className = "sq " + ((f + rank) % 2 === 0 ? "dark" : "light");
      div.dataset.square = name;
      div.tabIndex = 0;
      div.setAttribute("role", "gridcell");
      div.addEventListener("click", () => clicked(name));
      div.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); clicked(name); } });
      if (rank === ranks[7]) { const c = document.createElement("span"); c.className = "coord file"; c.textContent = FILES[f]; div.appendChild(c); }
      if (f === files[0]) { const c = document.createElement("span"); c.className = "coord rank"; c.textContent = rank; div.appendChild(c); }
      grid.appendChild(div);
      squares[name] = div;
    }
  }
  return squares;
}

// Paints square `name` (its element `div`) holding `cell`, with the marks: the last move's
// squares, the selected piece's targets, the selected square.
export function paintSquare(div, name, cell, { last, targets, selected }) {
  div.dataset.cell = cell;
  div.setAttribute("aria-label", name + (cell === "empty" ? "" : " " + (cell === "hole" ? "hole" : cell + " piece")));
  div.classList.toggle("hole", cell === "hole");
  div.classList.toggle("last", last.includes(name));
  div.classList.toggle("target", targets.includes(name));
  div.classList.toggle("selected", name === selected);
  const piece = div.querySelector(".piece");
  if (piece) piece.remove();
  if (cell === "black" || cell === "white") {
    const p = document.createElement("div");
    p.className = "piece " + cell;
    div.appendChild(p);
  }
}
