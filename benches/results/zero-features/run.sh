#!/usr/bin/env bash
# Issue 44: does AlphaZero learn faster with the 22 features (`yolah zero --features on`) than
# from the board alone? Two runs from random weights, the same settings and seed, one after
# the other on the two cores (nothing else running): 30 generations of 400 self-play games at
# 200 visits, a 128-unit network, 40 games a generation against MCTS at 1,000 and 10,000
# iterations. Then each run's last network at the default player's time control:
# 100 ms a move against `mcts:time=100ms`, 100 games from the shipped suite in colour pairs.
# The runs' directories are big (self-play); their tables and networks are copied here.
set -euo pipefail
cd "$(dirname "$0")"
YOLAH=${YOLAH:-yolah}
RUNS=${RUNS:-/work/runs}
SUITE=../../../crates/yolah-ai/data/openings-8ply.txt
for features in off on; do
  dir=$RUNS/zero-features-$features
  if [ -f "$dir/zero.json" ]; then resume=(--resume); else resume=(--games 400 --visits 200
    --hidden 128 --features $features --opponent mcts:iterations=1000
    --opponent mcts:iterations=10000 --seed 1); fi
  "$YOLAH" zero --out "$dir" --generations 30 "${resume[@]}" | tee -a "zero-$features.log"
  cp "$dir/generations.csv" "generations-$features.csv"
  cp "$dir/gen-030/network.yolahpv" "network-$features.yolahpv"
done
for features in off on; do
  [ -s "vs-mcts-100ms-$features.txt" ] && continue
  "$YOLAH" match "alphazero:time=100ms,net=network-$features.yolahpv" mcts:time=100ms \
      --games 100 --openings $SUITE --threads 2 --out "vs-mcts-100ms-$features.csv" \
      | tail -1 | tee "vs-mcts-100ms-$features.txt"
done
# Wider: the same run with the features and 256 units, then its last network the same way.
dir=$RUNS/zero-features-on-256
if [ -f "$dir/zero.json" ]; then resume=(--resume); else resume=(--games 400 --visits 200
  --hidden 256 --features on --opponent mcts:iterations=1000
  --opponent mcts:iterations=10000 --seed 1); fi
"$YOLAH" zero --out "$dir" --generations 30 "${resume[@]}" | tee -a zero-on-256.log
cp "$dir/generations.csv" generations-on-256.csv
[ -s vs-mcts-100ms-on-256.txt ] || "$YOLAH" match "alphazero:time=100ms,net=$dir/gen-030/network.yolahpv" \
    mcts:time=100ms --games 100 --openings $SUITE --threads 2 --out vs-mcts-100ms-on-256.csv \
    | tail -1 | tee vs-mcts-100ms-on-256.txt
