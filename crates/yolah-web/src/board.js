"use strict";
// The board's squares and the notation's cells, shared by the board and the puzzles.
const FILES = "abcdefgh";

// The board part of the notation: ranks 8 to 1, b/w pieces, x holes, digits free squares.
function cells(notation) {
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
