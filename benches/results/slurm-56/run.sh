#!/usr/bin/env bash
# Issue 56: the same node-limited learning run (2 generations) on this machine and on its
# single-node Slurm (`cargo xtask slurm up`: 2 cores, --tasks 2), wall time of each, and the
# networks compared byte for byte. Usage: [YOLAH=path] run.sh OUT_FOLDER
# Both use the two cores: the local run two games at a time (--threads 2), the Slurm run two
# tasks of one game each. The tests' verdicts decide the networks; with 200 games at most
# and the default SPRT they end inconclusive either way, so the networks are the same.
set -euo pipefail
YOLAH=${YOLAH:-yolah}
OUT=$1
mkdir -p "$OUT"
cd "$OUT"
ARGS=(--generations 2 --games 2000 --nodes 2000 --epochs 5 --hidden 64,16 --budget nodes=2000
      --test-games 200 --gauntlet minimax --gauntlet-games 20 --seed 56)
start=$(date +%s.%N)
"$YOLAH" learn --out local "${ARGS[@]}" --threads 2 > local.out 2> local.err
mid=$(date +%s.%N)
"$YOLAH" learn --out slurm "${ARGS[@]}" --slurm --tasks 2 > slurm.out 2> slurm.err
end=$(date +%s.%N)
echo "local: $(echo "$mid - $start" | bc) s" | tee times.txt
echo "slurm: $(echo "$end - $mid" | bc) s" | tee -a times.txt
for g in gen-001 gen-002; do
    cmp local/$g/network.yolahnet slurm/$g/network.yolahnet && echo "$g: the same network" | tee -a times.txt
done
