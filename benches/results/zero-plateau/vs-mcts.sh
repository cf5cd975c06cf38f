#!/usr/bin/env bash
# The issue's yardstick for this folder's best networks: `alphazero:time=100ms` against
# `mcts:time=100ms`, 100 games of the shipped suite in colour pairs, two at a time, nothing
# else running (as zero-targets/run.sh measured the baseline's generation 63: +219.9).
# Usage: [YOLAH=binary] vs-mcts.sh NAME NET    (writes NAME-vs-mcts.csv and .txt here)
set -euo pipefail
here=$(dirname "$(readlink -f "$0")")
cd "$here"
YOLAH=${YOLAH:-/work/runs/yolah-ship}
SUITE=../../../crates/yolah-ai/data/openings-8ply.txt
name=$1 net=$2
[ -f "$name-vs-mcts.txt" ] && exit 0
rm -f "$name-vs-mcts.csv"
"$YOLAH" match "alphazero:time=100ms,net=$net" mcts:time=100ms --games 100 --openings $SUITE \
    --threads 2 --out "$name-vs-mcts.csv" 2>/dev/null | tail -1 > "$name-vs-mcts.txt.tmp"
mv "$name-vs-mcts.txt.tmp" "$name-vs-mcts.txt"
echo "$name: $(sed 's/.*: +/+/' "$name-vs-mcts.txt")"
