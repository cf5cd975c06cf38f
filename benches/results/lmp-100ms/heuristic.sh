#!/usr/bin/env bash
# Late-move pruning with the tuned heuristic (the `minimax` player without `eval=nn`): on
# against off, one process, 100 ms a move, the shipped suite in colour pairs, a fixed 400
# games, two at a time. YOLAH: a release build of the commit that turns `lmp` on.
set -euo pipefail
cd "$(dirname "$0")"
YOLAH=${YOLAH:-/work/runs/yolah-lmp-default}
SUITE=../../../crates/yolah-ai/data/openings-8ply.txt
"$YOLAH" match "minimax:time=100ms" "minimax:time=100ms,lmp=off" \
    --games 400 --openings $SUITE --threads 2 \
    --out heuristic-on-vs-off-100ms.csv | tee result-heuristic.txt
