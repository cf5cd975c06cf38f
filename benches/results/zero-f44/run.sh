#!/usr/bin/env bash
# Issue 44's long run with the features (begun 2026-11-27 02:56 UTC on the build of bed1542),
# then the matches at the issue's time control for the generation shipped (GEN):
# 100 ms a move, the shipped suite in colour pairs, two games at a time, the run stopped.
set -euo pipefail
cd "$(dirname "$0")"
YOLAH=${YOLAH:-yolah}
RUN=${RUN:-/work/runs/zero-f44}
GEN=${GEN:?the generation to measure, like 045}
SUITE=../../../crates/yolah-ai/data/openings-8ply.txt
[ -f "$RUN/zero.json" ] || "$YOLAH" zero --out "$RUN" --generations 200 --games 800 --visits 400 \
  --hidden 128 --features on --opponent random --opponent montecarlo:iterations=1000 \
  --opponent mcts:iterations=10000 --opponent minimax:depth=3 --seed 44
NET=$RUN/gen-$GEN/network.yolahpv
match() {  # name, player, opponent, games
  [ -s "$1.txt" ] && return 0
  "$YOLAH" match "$2" "$3" --games "$4" --openings $SUITE --threads 2 --out "$1.csv" \
    | tail -1 | tee "$1.txt"
}
match vs-mcts "alphazero:time=100ms,net=$NET" mcts:time=100ms 200
match solve22-vs-mcts "alphazero:time=100ms,solve=22,net=$NET" mcts:time=100ms 200
match vs-minimax-nn "alphazero:time=100ms,net=$NET" minimax:time=100ms,eval=nn 100
# The exploration constant at 100 ms (the default c is 1.5): 100 games each.
for c in 1.0 3.0; do
  match c$c-vs-mcts "alphazero:time=100ms,c=$c,net=$NET" mcts:time=100ms 100
done
