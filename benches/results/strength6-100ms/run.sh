#!/usr/bin/env bash
# Issue 59's target: the shipped default player (NEW) against ef1e912's (OLD), both as engines
# through the protocol, the shipped suite in colour pairs, two games at a time: 400 games at
# 100 ms a move (a fixed-length match), then 200 games at 1s+10ms.
# Binaries: `git worktree add W COMMIT; CARGO_TARGET_DIR=T cargo build --release -p yolah-cli`.
# Usage: [NEW=… OLD=…] run.sh [DIR]: the games and results go into DIR (this folder by
# default; a relative DIR is taken from this folder). The same command resumes after a kill.
set -euo pipefail
cd "$(dirname "$0")"
SUITE=$PWD/../../../crates/yolah-ai/data/openings-8ply.txt
mkdir -p "${1:-.}"
cd "${1:-.}"
NEW=${NEW:-/work/runs/yolah-59}
OLD=${OLD:-/work/runs/yolah-ef1e912}
resume() { if [ -f "$1" ]; then echo --resume; fi; }
"$NEW" match "engine:time=100ms,cmd=$NEW engine" "engine:time=100ms,cmd=$OLD engine" \
    --games 400 --openings $SUITE --threads 2 --out games-100ms.csv $(resume games-100ms.csv) | tee -a result-100ms.txt
"$NEW" match "engine:cmd=$NEW engine" "engine:cmd=$OLD engine" --tc 1s+10ms \
    --games 200 --openings $SUITE --threads 2 --out games-1s+10ms.csv $(resume games-1s+10ms.csv) | tee -a result-1s+10ms.txt
