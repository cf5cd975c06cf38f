#!/usr/bin/env bash
# Issue 58, item 1: Gumbel AlphaZero's root against PUCT's in self-play, at equal self-play
# time. Two runs from random weights with the same seed and settings (128 units with the
# features, 400 games a generation, the network's tests against mcts at 1,000 iterations),
# one PUCT at 200 visits a move (Dirichlet noise, visit shares as targets), the other Gumbel
# with 16 moves considered at 32 visits (its improved policy as targets), played side by side
# on one core each for MINUTES minutes of wall time (a run cut mid-generation keeps the
# generations it finished). Their in-run tests play at their own visits, so the two are
# compared by the same match afterwards: each run's last network as `alphazero:time=100ms`
# against `mcts:time=100ms`, 100 games of the shipped suite.
# Usage: [YOLAH=binary] [RUN=dir] [MINUTES=20] run.sh     (resumable: run it again)
set -euo pipefail
here=$(dirname "$(readlink -f "$0")")
cd "$here"
YOLAH=${YOLAH:-/work/runs/yolah-q2}
RUN=${RUN:-/work/runs/zero-gumbel}
MINUTES=${MINUTES:-20}
SUITE=../../../crates/yolah-ai/data/openings-8ply.txt
mkdir -p "$RUN"
arm() {
    local name=$1
    shift
    if [ -f "$RUN/$name/zero.json" ]; then
        set -- --resume
    else
        set -- --generations 1000 --games 400 --hidden 128 --features on \
            --opponent mcts:iterations=1000 --test-games 20 --seed 58 "$@"
    fi
    timeout "${MINUTES}m" "$YOLAH" zero --out "$RUN/$name" --threads 1 "$@" \
        > "$RUN/$name.log" 2>&1 || true
}
if [ ! -f puct.generations.csv ]; then
    arm puct --visits 200 &
    arm gumbel --visits 32 --gumbel 16 &
    wait
    cp "$RUN/puct/generations.csv" puct.generations.csv
    cp "$RUN/gumbel/generations.csv" gumbel.generations.csv
fi
for name in puct gumbel; do
    [ -f "$name-vs-mcts.txt" ] && continue
    last=$(tail -1 "$name.generations.csv" | cut -d, -f1)
    net=$(printf '%s/%s/gen-%03d/network.yolahpv' "$RUN" "$name" "$last")
    "$YOLAH" match "alphazero:time=100ms,net=$net" mcts:time=100ms --games 100 \
        --openings $SUITE --threads 2 --out "$name-vs-mcts.csv" | tail -1 \
        | sed "s/^/generation $last: /" > "$name-vs-mcts.txt"
done
cat ./*-vs-mcts.txt
