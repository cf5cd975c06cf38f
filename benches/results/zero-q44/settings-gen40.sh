#!/usr/bin/env bash
# Issue 44: the player's settings at 100 ms with zero-q44's generation 40 against
# `mcts:time=100ms`, 100 games each from the shipped suite in colour pairs, one game at a
# time (the run went on on the other core): the network alone, with random playouts mixed
# into the leaves' values (`rollout=0.5`, AlphaGo's mixing), and with one leaf a batch
# (`batch=1`, no virtual loss; the default is 8). Run on the builds of 5e34c19 (the network
# alone) and of the `rollout` commit (the other two),
# with NET=q40.yolahpv, a copy of gen-040/network.yolahpv (the records name it so).
set -euo pipefail
cd "$(dirname "$0")"
YOLAH=${YOLAH:-yolah}
NET=${NET:-/work/runs/zero-q44/gen-040/network.yolahpv}
SUITE=../../../crates/yolah-ai/data/openings-8ply.txt
for setting in "" rollout=0.5, batch=1,; do
  name=gen40-${setting%,}; name=${name%-}
  [ -s "$name.txt" ] && continue
  "$YOLAH" match "alphazero:time=100ms,${setting}net=$NET" mcts:time=100ms --games 100 \
    --openings $SUITE --threads 1 --out "$name.csv" | tail -1 | tee "$name.txt"
done
