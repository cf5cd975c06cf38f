#!/usr/bin/env bash
# Issue 59, item 4: one search refinement against the default player, each an SPRT [0, 10]
# at 100 ms a move, both as engines through the protocol (the same binary, YOLAH), the
# shipped suite in colour pairs, two games at a time, stopped at GAMES games (1000).
# Usage: [GAMES=N] run.sh NAME OPTIONS   e.g. run.sh aspiration-50 aspiration=50
# Writes NAME/games.csv and NAME/result.txt (the lines of progress: NAME/log.txt, copied from
# the terminal); the same command resumes after a kill.
set -euo pipefail
cd "$(dirname "$0")"
NAME=$1
OPTIONS=$2
YOLAH=${YOLAH:-/work/runs/yolah-cm}
SUITE=../../../../crates/yolah-ai/data/openings-8ply.txt
mkdir -p "$NAME"
cd "$NAME"
resume=()
if [ -f games.csv ]; then resume=(--resume); fi
"$YOLAH" match "engine:time=100ms,cmd=$YOLAH engine --player minimax:eval=nn,$OPTIONS" \
    "engine:time=100ms,cmd=$YOLAH engine" \
    --sprt elo0=0,elo1=10 --games "${GAMES:-1000}" --openings $SUITE --threads 2 --out games.csv \
    "${resume[@]}" | tee -a result.txt
