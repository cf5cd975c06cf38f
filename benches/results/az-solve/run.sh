#!/usr/bin/env bash
# Issue 44: the alphazero player with the endgame solver asked first at 22 free squares or
# fewer (solve=22), then without, each against mcts at 100 ms a move, 100 games from the
# shipped suite in colour pairs, two games at a time, nothing else running (the learning
# run and a training paused). YOLAH: a release build of the commit that adds `solve`.
set -euo pipefail
cd "$(dirname "$0")"
YOLAH=${YOLAH:-/work/runs/yolah-azsolve}
SUITE=../../../crates/yolah-ai/data/openings-8ply.txt
"$YOLAH" match alphazero:time=100ms,solve=22 mcts:time=100ms --games 100 --openings $SUITE \
    --threads 2 --out solve22.csv | tail -1 | tee solve22.txt
"$YOLAH" match alphazero:time=100ms mcts:time=100ms --games 100 --openings $SUITE \
    --threads 2 --out plain.csv | tail -1 | tee plain.txt
