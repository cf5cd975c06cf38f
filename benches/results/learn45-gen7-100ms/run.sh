#!/usr/bin/env bash
# learn45's generation-7 candidate (+31.4 [+1.8, +61.4] against its parent at 20,000 nodes in
# the loop) at the default player's time control: first against its parent (the shipped
# network) in one process, then as the default player of an engine against 4e39aa1's, both
# through the protocol; 100 ms a move, the shipped suite in colour pairs, two games at a time.
# YOLAH: a release build of a72f670; NET: learn45/gen-007/network.yolahnet.
# The games also feed the shipped puzzles (crates/yolah-web/data/puzzles.jsonl):
#   yolah puzzles --count 200 --out ../../../crates/yolah-web/data/puzzles.jsonl \
#       games-against-parent.csv games-against-4e39aa1.csv
set -euo pipefail
cd "$(dirname "$0")"
YOLAH=${YOLAH:-/work/runs/m45/yolah}
NET=${NET:-/work/runs/m45/gen7.yolahnet}
OLD=${OLD:-/work/runs/yolah-4e39aa1}
SUITE=../../../crates/yolah-ai/data/openings-8ply.txt
"$YOLAH" match "minimax:time=100ms,eval=nn,net=$NET" "minimax:time=100ms,eval=nn" \
    --sprt elo0=0,elo1=10 --games 400 --openings $SUITE --threads 2 \
    --out games-against-parent.csv | tee result-against-parent.txt
"$YOLAH" match "engine:time=100ms,cmd=$YOLAH engine --player minimax:eval=nn,net=$NET" \
    "engine:time=100ms,cmd=$OLD engine" --sprt elo0=0,elo1=10 --games 400 --openings $SUITE \
    --threads 2 --out games-against-4e39aa1.csv | tee result-against-4e39aa1.txt
