#!/bin/sh
# Run from the repository root: benches/results/montecarlo-wide-100ms/run.sh
# Monte Carlo on the eight-lane playouts (this build) against the previous binary's Monte Carlo
# (four scalar playouts interleaved), 100 ms a move, both through the engine protocol for the
# old one. OLD is a yolah binary built before the change (commit 4c6c0b1's parent).
OLD=${OLD:-/tmp/mc-old}
exec yolah match montecarlo:time=100ms "engine:time=100ms,cmd=$OLD engine --player montecarlo" \
  --sprt elo0=0,elo1=15 --games 4000 --openings crates/yolah-ai/data/openings-8ply.txt --threads 2 \
  --out benches/results/montecarlo-wide-100ms/games.csv
