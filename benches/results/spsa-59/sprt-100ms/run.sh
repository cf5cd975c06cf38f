#!/usr/bin/env bash
# Issue 59: the SPSA run's values (rounded: ../run/tuned.txt, the six that moved from their
# defaults) against the defaults, the same binary (YOLAH), both as engines through the
# protocol at 100 ms a move, the shipped suite in colour pairs, two games at a time.
# First an SPRT [0, 10] stopped at 400 games (result-400.txt: inconclusive at +21.7), then the
# same test again from its start with room for 3000 games (result.txt), with the build of the
# cheaper features (the same search node for node).
set -euo pipefail
cd "$(dirname "$0")"
YOLAH=${YOLAH:-/work/runs/yolah-base}
SUITE=../../../../crates/yolah-ai/data/openings-8ply.txt
TUNED=minimax:eval=nn,lmr_scale=70,nmp_depth=2,nmp_base=3,lmp_depth=2,lmp_a=3,prune_free=19
"$YOLAH" match "engine:time=100ms,cmd=$YOLAH engine --player $TUNED" \
    "engine:time=100ms,cmd=$YOLAH engine" \
    --sprt elo0=0,elo1=10 --games 3000 --openings $SUITE --threads 2 --out games.csv | tee result.txt
