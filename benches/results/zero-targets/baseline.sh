#!/usr/bin/env bash
# The plain PUCT arm again, on the machine run.sh's two arms ran on: generations ran 2.2 times
# slower here than in zero-gumbel/ (the same recipe measured at 14 s of self-play a generation
# of 400 games from the start on both builds), so the same minutes are not the same work. Same
# seed and settings as run.sh, on one core (beside a one-job `cargo` build on the other) for
# MINUTES minutes, then its last network against mcts at 100 ms (100 games of the shipped suite).
# Usage: [YOLAH=binary] [RUN=dir] [MINUTES=20] baseline.sh     (resumable: run it again)
set -euo pipefail
here=$(dirname "$(readlink -f "$0")")
cd "$here"
YOLAH=${YOLAH:-/work/runs/yolah-margin}
RUN=${RUN:-/work/runs/zero-targets}
MINUTES=${MINUTES:-20}
SUITE=../../../crates/yolah-ai/data/openings-8ply.txt
if [ ! -f puct.generations.csv ]; then
    if [ -f "$RUN/puct/zero.json" ]; then
        set -- --resume
    else
        set -- --generations 1000 --games 400 --hidden 128 --features on \
            --opponent mcts:iterations=1000 --test-games 20 --seed 58 --visits 200
    fi
    timeout "${MINUTES}m" "$YOLAH" zero --out "$RUN/puct" --threads 1 "$@" \
        > "$RUN/puct.log" 2>&1 || true
    cp "$RUN/puct/generations.csv" puct.generations.csv
    cp "$RUN/puct/learning.png" puct.learning.png
fi
if [ ! -f puct-vs-mcts.txt ]; then
    last=$(tail -1 puct.generations.csv | cut -d, -f1)
    net=$(printf '%s/puct/gen-%03d/network.yolahpv' "$RUN" "$last")
    rm -f puct-vs-mcts.csv
    "$YOLAH" match "alphazero:time=100ms,net=$net" mcts:time=100ms --games 100 \
        --openings $SUITE --threads 2 --out puct-vs-mcts.csv | tail -1 \
        | sed "s/^/generation $last: /" > puct-vs-mcts.txt.tmp
    mv puct-vs-mcts.txt.tmp puct-vs-mcts.txt
fi
cat ./*-vs-mcts.txt
