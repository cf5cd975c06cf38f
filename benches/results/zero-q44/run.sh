#!/usr/bin/env bash
# Issue 44: the search's value in the value target (`yolah zero --value-mix 0.5`), begun
# 2026-11-27 05:17 UTC on the build of 5e34c19, stopped after generation 68 (0.944 h; a
# helper's PyTorch experiment shared the cores for its first 40 minutes). The same command and seed as zero-f44 (the run
# with the features whose generation 62 was shipped) but for the value target, so the two
# runs' tables compare generation by generation: the same start, the same opponents.
# Then the matches at the issue's time control for the generation measured (GEN): 100 ms a
# move, the shipped suite in colour pairs, two games at a time, the run stopped.
set -euo pipefail
cd "$(dirname "$0")"
YOLAH=${YOLAH:-yolah}
RUN=${RUN:-/work/runs/zero-q44}
SUITE=../../../crates/yolah-ai/data/openings-8ply.txt
if [ -f "$RUN/zero.json" ]; then
  "$YOLAH" zero --out "$RUN" --resume --generations "${GENERATIONS:-68}"
else
  "$YOLAH" zero --out "$RUN" --generations "${GENERATIONS:-68}" --games 800 --visits 400 \
    --hidden 128 --features on --value-mix 0.5 --opponent random \
    --opponent montecarlo:iterations=1000 --opponent mcts:iterations=10000 \
    --opponent minimax:depth=3 --seed 44
fi
cp "$RUN/generations.csv" "$RUN/zero.json" "$RUN/learning.png" .
GEN=${GEN:-068}
NET=$RUN/gen-$GEN/network.yolahpv
match() {  # name, player, opponent, games
  [ -s "$1.txt" ] && return 0
  "$YOLAH" match "$2" "$3" --games "$4" --openings $SUITE --threads 2 --out "$1.csv" \
    | tail -1 | tee "$1.txt"
}
match vs-mcts "alphazero:time=100ms,net=$NET" mcts:time=100ms 200
# Against the network shipped before (zero-f44's generation 62, the same command without the
# value mix): the player's default network.
match vs-shipped "alphazero:time=100ms,net=$NET" alphazero:time=100ms 200
match vs-minimax-nn "alphazero:time=100ms,net=$NET" minimax:time=100ms,eval=nn 100
