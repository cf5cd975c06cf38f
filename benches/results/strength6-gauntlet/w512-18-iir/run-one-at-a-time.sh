#!/usr/bin/env bash
# strength6-gauntlet/run.sh's commands for SIDES=NEW, one game at a time (an AlphaZero run on the other core)
set -euo pipefail
cd /work/main/benches/results/strength6-gauntlet/w512-18-iir
SUITE=/work/main/crates/yolah-ai/data/openings-8ply.txt
NEW=/work/runs/yolah-ship
RUNNER=/work/runs/yolah-560df15
for opponent in minimax mcts; do
  "$RUNNER" match "engine:time=100ms,cmd=$NEW engine" "$opponent:time=100ms" --games 100 \
      --openings $SUITE --threads 1 --out "NEW-vs-$opponent.csv" | tail -1 | tee "NEW-vs-$opponent.txt"
done
