import { page } from "./page.js";

// How the page names moves and values in words: every part that writes one says it so.

// The classes of a judged move that the list marks, and their glyphs.
export const GLYPHS = { inaccuracy: "?!", mistake: "?", blunder: "??" };

// The move of ply `ply` (from 1) as chess players number them, in pairs, black's first:
// "3. d4:d6" for black's, "3… e5:e7" for white's; a pass is "pass". Counts of half-moves say
// "ply".
export function moveName(ply) {
  const m = page.state.moves[ply - 1];
  return Math.floor((ply + 1) / 2) + (ply % 2 === 1 ? ". " : "… ") + (m === "a1:a1" ? "pass" : m);
}

// A margin in points with its sign: "+1.50", "−0.25", "0.00".
export function signed(x) { return (x > 0 ? "+" : x < 0 ? "−" : "") + Math.abs(x).toFixed(2); }

// A review's value: "won by 3" once proved, else the margin and the expected score.
export function valueText(v) {
  if (v.proved) return v.margin > 0 ? "won by " + v.margin : v.margin < 0 ? "lost by " + (-v.margin) : "drawn";
  return signed(v.margin) + " (" + Math.round(100 * v.expected) + " %)";
}

// A proved margin in words, from black's side: "black wins by 4", "white wins by 2", "drawn".
export function provedText(points) {
  return points > 0 ? "black wins by " + points : points < 0 ? "white wins by " + (-points) : "drawn";
}
