#!/usr/bin/env bash
# Issue 45's target with late-move pruning on by default: this build's default player against
# 4e39aa1's, both through the protocol as `engine:` players, 100 ms a move, the shipped suite
# in colour pairs, a fixed 400 games (no sequential stop), two games at a time.
# YOLAH: a release build of the commit that turns `lmp` on; OLD: a release build of 4e39aa1.
set -euo pipefail
cd "$(dirname "$0")"
YOLAH=${YOLAH:-/work/runs/yolah-lmp-default}
OLD=${OLD:-/work/runs/yolah-4e39aa1}
SUITE=../../../crates/yolah-ai/data/openings-8ply.txt
"$YOLAH" match "engine:time=100ms,cmd=$YOLAH engine" "engine:time=100ms,cmd=$OLD engine" \
    --games 400 --openings $SUITE --threads 2 \
    --out games-against-4e39aa1.csv | tee result-against-4e39aa1.txt
