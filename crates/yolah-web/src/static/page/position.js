import { cells, FILES } from "../board.js";
import { page } from "./page.js";

// The position after the first `count` moves of the game (the server checked them): its
// cells, points, side to move and notation.
export function positionAt(count) {
  const parts = page.state.start.split(" ");
  const board = cells(page.state.start);
  const scores = [Number(parts[2]), Number(parts[3])];
  let ply = Number(parts[4]);
  for (const m of page.state.moves.slice(0, count)) {
    if (m !== "a1:a1") {
      const [from, to] = m.split(":");
      board[to] = board[from];
      board[from] = "hole";
      scores[ply % 2] += 1;
    }
    ply += 1;
  }
  const side = ply % 2 === 0 ? "black" : "white";
  return { board, scores, side, notation: notationOf(board, side, scores, ply) };
}

export function notationOf(board, side, scores, ply) {
  const rows = [];
  for (let rank = 8; rank >= 1; rank--) {
    let row = "", free = 0;
    for (const f of FILES) {
      const cell = board[f + rank];
      if (cell === "empty") { free++; continue; }
      if (free) { row += free; free = 0; }
      row += cell === "black" ? "b" : cell === "white" ? "w" : "x";
    }
    rows.push(row + (free ? free : ""));
  }
  return rows.join("/") + " " + side[0] + " " + scores[0] + " " + scores[1] + " " + ply;
}

const DIRECTIONS = [[1, 0], [-1, 0], [0, 1], [0, -1], [1, 1], [1, -1], [-1, 1], [-1, -1]];

// The moves of `side` on `board` (cells by square name): each piece slides like a queen over
// empty squares; a side without one passes ("a1:a1").
export function legalMoves(board, side) {
  const moves = [];
  for (const [from, cell] of Object.entries(board)) {
    if (cell !== side) continue;
    const f = FILES.indexOf(from[0]), r = Number(from.slice(1));
    for (const [df, dr] of DIRECTIONS) {
      for (let k = 1; ; k++) {
        const to = FILES[f + df * k] + (r + dr * k);
        if (f + df * k < 0 || f + df * k > 7 || r + dr * k < 1 || r + dr * k > 8 || board[to] !== "empty") break;
        moves.push(from + ":" + to);
      }
    }
  }
  return moves.length ? moves : ["a1:a1"];
}
