#!/usr/bin/env bash
# Issue 59: SPSA of the default player's search constants (those that act with its defaults:
# reverse futility is off, so rfp_depth and rfp_margin are left out), at 20,000 nodes a move,
# one game pair an iteration, one thread. Resumable: the same command goes on from spsa.json.
# Run from the repository's root after `cargo build --release`.
set -euo pipefail
dir=benches/results/spsa-59/run
if [ -f "$dir/spsa.json" ]; then
    exec target/release/yolah tune --out "$dir" --resume --threads "${THREADS:-1}"
fi
exec target/release/yolah tune --spsa minimax:eval=nn,nodes=20000 \
    --params lmr_after,lmr_base,lmr_scale,nmp_depth,nmp_base,nmp_divisor,lmp_depth,lmp_a,lmp_b,prune_free \
    --iterations 10000 --seed 59 --threads "${THREADS:-1}" --out "$dir"
