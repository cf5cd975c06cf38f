#!/usr/bin/env bash
# The endgame solver asked first (`solve=24`: with at most 24 free squares, the solver has
# half of each move's time, its table kept from move to move, and a proved move is played)
# against the default, both the default player (the shipped network, the book on), in one
# process; 100 ms a move, the shipped suite in colour pairs, two games at a time.
# YOLAH: a release build of the commit that adds `solve` to minimax.
set -euo pipefail
cd "$(dirname "$0")"
YOLAH=${YOLAH:-/work/runs/yolah-prove}
FREE=${FREE:-24}
SUITE=../../../crates/yolah-ai/data/openings-8ply.txt
"$YOLAH" match "minimax:time=100ms,eval=nn,solve=$FREE" "minimax:time=100ms,eval=nn" \
    --sprt elo0=0,elo1=10 --games 600 --openings $SUITE --threads 2 \
    --out "solve-$FREE-vs-off-100ms.csv" | tee "result-$FREE.txt"
