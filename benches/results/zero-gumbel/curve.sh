#!/usr/bin/env bash
# Issue 58, item 4: the PUCT run's curve on the issue's yardstick: its networks of generations
# 10, 20, 40 and 80 (130, the last, is run.sh's) each as `alphazero:time=100ms` against
# `mcts:time=100ms`, 100 games of the shipped suite in colour pairs, two at a time.
# Usage: [YOLAH=binary] [RUN=dir] curve.sh     (a finished match is skipped)
set -euo pipefail
cd "$(dirname "$0")"
YOLAH=${YOLAH:-/work/runs/yolah-q3}
RUN=${RUN:-/work/runs/zero-gumbel}
SUITE=../../../crates/yolah-ai/data/openings-8ply.txt
for gen in 10 20 40 80; do
    name=$(printf 'puct-gen-%03d-vs-mcts' "$gen")
    [ -f "$name.txt" ] && continue
    net=$(printf '%s/puct/gen-%03d/network.yolahpv' "$RUN" "$gen")
    rm -f "$name.csv"
    "$YOLAH" match "alphazero:time=100ms,net=$net" mcts:time=100ms --games 100 \
        --openings $SUITE --threads 2 --out "$name.csv" | tail -1 > "$name.txt.tmp"
    mv "$name.txt.tmp" "$name.txt"
done
cat puct-gen-*-vs-mcts.txt
