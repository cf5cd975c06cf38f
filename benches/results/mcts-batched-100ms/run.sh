#!/bin/sh
# Run from the repository root: benches/results/mcts-batched-100ms/run.sh [--resume]
# MCTS with its random games played sixteen at a time (eight to an AVX-512 register; this
# build) against the previous binary's MCTS (one scalar random game an iteration), 100 ms a
# move, the old one through the engine protocol. OLD is a yolah binary built at commit c799535
# (the parent of the batching change).
OLD=${OLD:-/work/old-bin/yolah-mcts-old}
exec yolah match mcts:time=100ms "engine:time=100ms,cmd=$OLD engine --player mcts" \
  --sprt elo0=0,elo1=15 --games 4000 --openings crates/yolah-ai/data/openings-8ply.txt --threads 2 \
  --out benches/results/mcts-batched-100ms/games.csv "$@"
