#!/usr/bin/env bash
# Today's default player (f59b83d: the i8 layer, the dense sums vectorised; the shipped network
# unchanged) against 4e39aa1's default player, the issue's yardstick: both as engines through
# the protocol at 100 ms a move, the shipped suite in colour pairs, then 200 games at 1s+10ms.
# Binaries: `git worktree add W COMMIT; CARGO_TARGET_DIR=T cargo build --release -p yolah-cli`.
set -euo pipefail
cd "$(dirname "$0")"
NEW=${NEW:-/work/runs/yolah-cand}
OLD=${OLD:-/work/runs/yolah-4e39aa1}
SUITE=../../../crates/yolah-ai/data/openings-8ply.txt
"$NEW" match "engine:time=100ms,cmd=$NEW engine" "engine:time=100ms,cmd=$OLD engine" \
    --sprt elo0=0,elo1=10 --games 400 --openings $SUITE --threads 2 --out games-100ms.csv | tee result-100ms.txt
"$NEW" match "engine:cmd=$NEW engine" "engine:cmd=$OLD engine" --tc 1s+10ms \
    --games 200 --openings $SUITE --threads 2 --out games-1s+10ms.csv | tee result-1s+10ms.txt
