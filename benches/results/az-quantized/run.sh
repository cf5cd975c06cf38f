#!/usr/bin/env bash
# Issue 58, item 3: the alphazero player with its network in bytes (quantized=on) against
# the same player in floats, the shipped network, the shipped suite in colour pairs, two
# games at a time: at equal visits (800 a move: what the bytes cost in play), then at 100 ms
# a move (what their speed buys); then each against mcts at 100 ms a move. The visits a
# second of each, from the start, are `yolah think alphazero:time=1s[,quantized=on]`.
# YOLAH: a release build of the commit that adds `quantized` and mends the kept tree's
# search by time (every search on a kept tree had ended before its first visit); visits-800
# was played by 691e450's build, before that mend, which searches by visits never needed. Resumable: a finished match
# is skipped, a cut one resumed.
set -euo pipefail
cd "$(dirname "$0")"
YOLAH=${YOLAH:-/work/runs/yolah-q2}
SUITE=../../../crates/yolah-ai/data/openings-8ply.txt
match() {
    local name=$1 games=$2
    shift 2
    [ -f "$name.txt" ] && return
    local resume=()
    if [ -f "$name.csv" ]; then resume=(--resume); fi
    "$YOLAH" match "$@" --games "$games" --openings $SUITE --threads 2 --out "$name.csv" \
        "${resume[@]}" | tail -3 > "$name.txt.tmp"
    mv "$name.txt.tmp" "$name.txt"
    cat "$name.txt"
}
match visits-800 200 alphazero:iterations=800,quantized=on alphazero:iterations=800
match floats-vs-mcts 200 alphazero:time=100ms mcts:time=100ms
match time-100ms 400 alphazero:time=100ms,quantized=on alphazero:time=100ms
match bytes-vs-mcts 200 alphazero:time=100ms,quantized=on mcts:time=100ms
