#!/usr/bin/env bash
# Issue 58: the shipped alphazero player (floats, the kept tree's search mended) against the
# default minimax player with the network, both at 100 ms a move, 200 games of the shipped
# suite in colour pairs, two at a time. YOLAH: a release build of 98472ef or later.
set -euo pipefail
cd "$(dirname "$0")"
YOLAH=${YOLAH:-/work/runs/yolah-q3}
SUITE=../../../crates/yolah-ai/data/openings-8ply.txt
resume=()
if [ -f floats-vs-minimax-nn.csv ]; then resume=(--resume); fi
"$YOLAH" match alphazero:time=100ms minimax:time=100ms,eval=nn --games 200 --openings $SUITE \
    --threads 2 --out floats-vs-minimax-nn.csv "${resume[@]}" | tail -1 > floats-vs-minimax-nn.txt
cat floats-vs-minimax-nn.txt
