#!/bin/sh
# Each candidate against the shipped network, both minimax at 20,000 nodes a move, no book
# (the same search, so only the networks differ), the shipped suite in colour pairs.
SUITE=${SUITE:-../../../crates/yolah-ai/data/openings-8ply.txt}
for X in "$@"; do
  ./yolah match "minimax:eval=nn,nodes=20000,book=off,net=$X/network.yolahnet" "minimax:eval=nn,nodes=20000,book=off" \
    --sprt elo0=0,elo1=10 --games 400 --openings $SUITE --threads 2 --out pre-$X.csv > pre-$X.txt 2>&1
done
