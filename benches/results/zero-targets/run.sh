#!/usr/bin/env bash
# Issue 58, item 2: KataGo's targets against plain PUCT self-play, at equal self-play time.
# Runs from random weights with the same seed and settings as zero-gumbel/run.sh's PUCT arm
# (128 units with the features, 400 games a generation at 200 visits, the in-run tests
# against mcts at 1,000 iterations), each MINUTES minutes of wall time on one core (a run cut
# mid-generation keeps the generations it finished):
#   cap:    playout cap randomisation, --fast-visits 40 (a quarter of the moves searched at 200
#           visits and recorded, the rest at 40 and not recorded);
#   margin: the final margin as an auxiliary target, --margin-weight 1;
#   puct:   neither, run after the two (beside a one-job `cargo` build on the other core):
#           generations ran 2.2 times slower on this machine than in zero-gumbel/, whose
#           PUCT arm is so not the same work in the same minutes;
#   exact:  the solver's exact result and margin as the targets of the positions it proves
#           at 20 free squares or fewer (--exact-free 20 --exact-nodes 200000, learn59's),
#           run alone after the three (YOLAH: a build with --exact-free).
# Then each last network as `alphazero:time=100ms` against `mcts:time=100ms`, 100 games of
# the shipped suite.
# Usage: [YOLAH=binary] [RUN=dir] [MINUTES=20] run.sh     (resumable: run it again)
set -euo pipefail
here=$(dirname "$(readlink -f "$0")")
cd "$here"
YOLAH=${YOLAH:-/work/runs/yolah-margin}
RUN=${RUN:-/work/runs/zero-targets}
MINUTES=${MINUTES:-20}
SUITE=../../../crates/yolah-ai/data/openings-8ply.txt
mkdir -p "$RUN"
arm() {
    local name=$1
    shift
    [ -f "$name.generations.csv" ] && return
    if [ -f "$RUN/$name/zero.json" ]; then
        set -- --resume
    else
        set -- --generations 1000 --games 400 --hidden 128 --features on \
            --opponent mcts:iterations=1000 --test-games 20 --seed 58 --visits 200 "$@"
    fi
    timeout "${MINUTES}m" "$YOLAH" zero --out "$RUN/$name" --threads 1 "$@" \
        > "$RUN/$name.log" 2>&1 || true
    cp "$RUN/$name/generations.csv" "$name.generations.csv"
    cp "$RUN/$name/learning.png" "$name.learning.png"
}
arm cap --fast-visits 40 &
arm margin --margin-weight 1 &
wait
arm puct
arm exact --exact-free 20 --exact-nodes 200000
for name in cap margin puct exact; do
    [ -f "$name-vs-mcts.txt" ] && continue
    last=$(tail -1 "$name.generations.csv" | cut -d, -f1)
    net=$(printf '%s/%s/gen-%03d/network.yolahpv' "$RUN" "$name" "$last")
    rm -f "$name-vs-mcts.csv"
    "$YOLAH" match "alphazero:time=100ms,net=$net" mcts:time=100ms --games 100 \
        --openings $SUITE --threads 2 --out "$name-vs-mcts.csv" | tail -1 \
        | sed "s/^/generation $last: /" > "$name-vs-mcts.txt.tmp"
    mv "$name-vs-mcts.txt.tmp" "$name-vs-mcts.txt"
done
cat ./*-vs-mcts.txt
