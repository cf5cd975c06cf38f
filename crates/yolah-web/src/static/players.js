// The board's levels, weakest to strongest, by the players' families (docs/notebook.md's
// ladder) and time; and players as people read them. Shared by the board and the archive.
export const LEVELS = [
  "random", "montecarlo:time=300ms", "mcts:time=300ms", "mcts:time=1s",
  "minimax:time=300ms", "minimax:time=300ms,eval=nn", "minimax:time=1s,eval=nn", "minimax:time=3s,eval=nn",
];

// A player as people read it: "you" for this browser's own side, "a person" for someone
// else's, "level N" for a level, and any other player as its spec.
export function playerName(spec, mine) {
  if (spec === "human") return mine ? "you" : "a person";
  const level = LEVELS.indexOf(spec);
  return level >= 0 ? "level " + (level + 1) : spec;
}
