#!/usr/bin/env bash
# SPSA of the default player's search constants at 100 ms a move (the node-budget run of
# spsa-59 did not transfer to 100 ms): the fourteen constants that act with the defaults
# (reverse futility, history pruning and the regions are off by default and left out), one
# game pair an iteration, seed 71. Resumable: the same command goes on from run/spsa.json,
# so a new machine goes on where the last stopped once run/ is committed.
# Run from the repository's root; YOLAH is the binary (9c3a18c's release build by default).
set -euo pipefail
YOLAH=${YOLAH:-target/release/yolah}
dir=benches/results/spsa-100ms/run
if [ -f "$dir/spsa.json" ]; then
    exec "$YOLAH" tune --out "$dir" --resume --threads "${THREADS:-1}"
fi
exec "$YOLAH" tune --spsa minimax:eval=nn,time=100ms \
    --params lmr_after,lmr_base,lmr_scale,nmp_depth,nmp_base,nmp_divisor,lmp_depth,lmp_a,lmp_b,prune_free,se_depth,se_margin,iir_depth,aspiration \
    --iterations 6000 --seed 71 --threads "${THREADS:-1}" --out "$dir"
