#!/usr/bin/env bash
# Late-move pruning (`lmp=on`: at depth 3 or less, off the principal variation, with more than
# 20 free squares, the moves history orders last are skipped past the first 4 + 2·depth²)
# against the default (`lmp` off), both the default player (the shipped network, the book on),
# in one process; 100 ms a move, the shipped suite in colour pairs, two games at a time.
# YOLAH: a release build of the commit that adds `lmp`.
set -euo pipefail
cd "$(dirname "$0")"
YOLAH=${YOLAH:-/work/runs/yolah-lmp}
SUITE=../../../crates/yolah-ai/data/openings-8ply.txt
"$YOLAH" match "minimax:time=100ms,eval=nn,lmp=on" "minimax:time=100ms,eval=nn" \
    --sprt elo0=0,elo1=10 --games 600 --openings $SUITE --threads 2 \
    --out lmp-on-vs-off-100ms.csv | tee result.txt
