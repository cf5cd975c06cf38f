#!/usr/bin/env bash
# Issue 58's plateau: what lifts it? Each arm changes one setting of zero-targets' PUCT arm
# (128 units with the features, 400 games a generation at 200 visits, window 4, 4 epochs,
# Adam at 0.001, moves drawn by visits for 20 plies, seed 58, in-run tests of 20 games
# against mcts at 1,000 iterations) and runs 60 generations on one core:
#   w16:     a window of 16 generations at 1 epoch (the same positions trained a generation);
#   w16h256: the same with 256 units;
#   lr3:     Adam at 0.0003;
#   ex8:     moves drawn by visits for 8 plies (--explore 8; YOLAH: a build with it).
# The baseline is zero-targets' puct run (63 generations). The arms ran two or three at a
# time, so their hours are not comparable; their generations are. Then chain.sh compares.
# Usage: [YOLAH=binary] [RUN=dir] arms.sh NAME...     (resumable: run it again)
set -euo pipefail
YOLAH=${YOLAH:-/work/runs/yolah-explore}
RUN=${RUN:-/work/runs/plateau}
mkdir -p "$RUN"
arm() {
    local name=$1
    shift
    if [ -f "$RUN/$name/zero.json" ]; then
        set -- --resume
    else
        set -- --generations 60 --games 400 --features on --opponent mcts:iterations=1000 \
            --test-games 20 --seed 58 --visits 200 "$@"
    fi
    "$YOLAH" zero --out "$RUN/$name" --threads 1 "$@" > "$RUN/$name.log" 2>&1
}
for name in "$@"; do
    case $name in
        w16) arm w16 --window 16 --epochs 1 & ;;
        w16h256) arm w16h256 --hidden 256 --window 16 --epochs 1 & ;;
        lr3) arm lr3 --learning-rate 0.0003 & ;;
        ex8) arm ex8 --explore 8 & ;;
        *) echo "unknown arm $name" >&2; exit 2 ;;
    esac
done
wait
