#!/usr/bin/env bash
# The issue's yardstick for this folder's best networks: `alphazero:time=100ms` with NET
# against OPPONENT (`mcts:time=100ms`, named mcts, by default), GAMES (100) games of the
# shipped suite in colour pairs, two at a time, nothing else running (as zero-targets/run.sh
# measured the baseline's generation 63 against mcts: +219.9).
# Usage: [YOLAH=binary] [GAMES=100] at-100ms.sh NAME NET [OPPNAME OPPONENT]
#   (writes NAME-vs-OPPNAME.csv and .txt here; resumable: a finished one is skipped)
set -euo pipefail
here=$(dirname "$(readlink -f "$0")")
cd "$here"
YOLAH=${YOLAH:-/work/runs/yolah-ship}
GAMES=${GAMES:-100}
SUITE=../../../crates/yolah-ai/data/openings-8ply.txt
name=$1 net=$2 oppname=${3:-mcts} opponent=${4:-mcts:time=100ms}
out="$name-vs-$oppname"
[ -f "$out.txt" ] && exit 0
rm -f "$out.csv"
"$YOLAH" match "alphazero:time=100ms,net=$net" "$opponent" --games "$GAMES" --openings $SUITE \
    --threads 2 --out "$out.csv" 2>/dev/null | tail -1 > "$out.txt.tmp"
mv "$out.txt.tmp" "$out.txt"
echo "$out: $(sed 's/.*: +/+/' "$out.txt")"
