#!/usr/bin/env bash
# One network from all of learn45's distinct self-play so far (generations 1 and 6-11:
# 2,705,650 positions to train on, 302,234 held out; generations 2-5 repeated generation 1's
# games), warm from the start with the loop's recipe, then against its parent at 100 ms a move,
# the shipped suite in colour pairs, two games at a time, the loop paused.
set -euo pipefail
cd "$(dirname "$0")"
YOLAH=${YOLAH:-/work/runs/yolah-45d}
RUN=${RUN:-/work/runs/learn45}
DATA=""
for g in 001 006 007 008 009 010 011; do DATA="$DATA --data $RUN/gen-$g/selfplay"; done
# shellcheck disable=SC2086
"$YOLAH" train $DATA --out all45.yolahnet --epochs 10 --seed 4599 --hidden 256,32 \
    --init /work/runs/learn45-start.yolahnet --learning-rate 0.0005 | tee train.log
"$YOLAH" match "minimax:time=100ms,eval=nn,net=all45.yolahnet" "minimax:time=100ms,eval=nn" \
    --sprt elo0=0,elo1=10 --games 400 --openings ../../../crates/yolah-ai/data/openings-8ply.txt \
    --threads 2 --out games-against-parent.csv | tee result-against-parent.txt
