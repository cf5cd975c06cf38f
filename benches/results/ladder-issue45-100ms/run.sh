#!/usr/bin/env bash
# Issue 45's "the ladder again": the six players of the ladders before at 100 ms a move, 40
# games a pair on the shipped suite, with today's search (late-move pruning) and network
# (learn45's generation 15), and the shipped `alphazero` beside them. Run from the
# repository's root with a release build of the commit that added this folder; resumable.
set -euo pipefail
YOLAH=${YOLAH:-yolah}
"$YOLAH" tournament random montecarlo:time=100ms mcts:time=100ms alphazero:time=100ms \
  minimax:time=100ms,weights=crates/yolah-ai/data/weights-start.json minimax:time=100ms \
  minimax:time=100ms,eval=nn --games-per-pair 40 \
  --openings crates/yolah-ai/data/openings-8ply.txt --seed 1 --threads 2 \
  --out benches/results/ladder-issue45-100ms/ladder
