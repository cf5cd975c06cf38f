#!/usr/bin/env bash
# Issue 59, item 5: more data for the 512-unit network, played by it. Generations FIRST to
# LAST (numbered on from learn59's ten), each 10,000 games of the shipped 512-unit network at
# 5,000 nodes a move against itself, learn59's settings otherwise (8 random plies, exact labels
# up to EXACT_FREE free squares within EXACT_NODES nodes: 20 and 200,000 unless told, the
# settings of generations 11-18; seed 59000 + N). NET names the network that plays. Each
# finished generation is kept here as gen-NNN.selfplay.json and gen-NNN.data.bin.xz (`xz -d`
# gives the very data.bin back).
# Resumable: the same command goes on after a kill (a generation kept here is skipped).
# Usage: [YOLAH=binary] [RUN=dir] [NET=file] [EXACT_FREE=F EXACT_NODES=N] selfplay.sh FIRST LAST
set -euo pipefail
here=$(dirname "$(readlink -f "$0")")
cd "$here"
YOLAH=${YOLAH:-yolah}
RUN=${RUN:-/work/runs/wide59}
NET=${NET:-w512.yolahnet}
EXACT_FREE=${EXACT_FREE:-20}
EXACT_NODES=${EXACT_NODES:-200000}
for n in $(seq "$1" "$2"); do
    gen=$(printf 'gen-%03d' "$n")
    [ -f "$gen.data.bin.xz" ] && continue
    out=$RUN/$gen/selfplay
    resume=()
    if [ -f "$out/selfplay.json" ]; then resume=(--resume); fi
    "$YOLAH" selfplay "minimax:nodes=5000,tt=1,net=$NET" --out "$out" \
        --games 10000 --random-plies 8 --seed $((59000 + n)) --exact-free "$EXACT_FREE" \
        --exact-nodes "$EXACT_NODES" --threads 2 "${resume[@]}"
    cp "$out/selfplay.json" "$gen.selfplay.json"
    xz -9e -c "$out/data.bin" > "$gen.data.bin.xz.tmp"
    mv "$gen.data.bin.xz.tmp" "$gen.data.bin.xz"
done
