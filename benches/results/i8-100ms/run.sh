#!/usr/bin/env bash
# The i8 second layer (fe5e9f8, in the binary of f4ab7cc) against the i16 one (f0b1fc8), both
# default players through the protocol at 100 ms a move, the shipped suite in colour pairs.
# Binaries: `git worktree add W COMMIT; CARGO_TARGET_DIR=T cargo build --release -p yolah-cli`.
set -euo pipefail
cd "$(dirname "$0")"
NEW=${NEW:-/work/runs/yolah-45}
OLD=${OLD:-/work/runs/yolah-before-i8}
"$NEW" match "engine:time=100ms,cmd=$NEW engine" "engine:time=100ms,cmd=$OLD engine" \
    --sprt elo0=0,elo1=10 --games 400 --openings ../../../crates/yolah-ai/data/openings-8ply.txt \
    --threads 2 --out games.csv | tee result.txt
