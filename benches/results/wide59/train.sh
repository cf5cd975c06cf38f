#!/usr/bin/env bash
# Issue 59, item 5: a 512-unit network trained fresh on the kept data, learn59's generations
# 1–10 (played by the 256-unit network) and this folder's from 11 (played by the 512-unit
# one), up to LAST. Each generation's data.bin is taken back from its .xz where it is not in
# RUN yet. Resumable (yolah train --resume after a kill).
# Usage: [YOLAH=binary] [RUN=dir] train.sh LAST OUT   e.g. train.sh 18 w512-18.yolahnet
set -euo pipefail
here=$(dirname "$(readlink -f "$0")")
cd "$here"
YOLAH=${YOLAH:-yolah}
RUN=${RUN:-/work/runs/wide59}
LAST=$1
OUT=$2
data=()
for n in $(seq 1 "$LAST"); do
    gen=$(printf 'gen-%03d' "$n")
    if [ "$n" -le 10 ]; then kept=../learn59/$gen; else kept=$gen; fi
    dir=$RUN/data/$gen/selfplay
    if [ ! -f "$dir/data.bin" ]; then
        mkdir -p "$dir"
        cp "$kept.selfplay.json" "$dir/selfplay.json"
        xz -d -c "$kept.data.bin.xz" > "$dir/data.bin.tmp"
        mv "$dir/data.bin.tmp" "$dir/data.bin"
    fi
    data+=(--data "$dir")
done
if [ -f "$OUT" ]; then
    exec "$YOLAH" train --out "$OUT" --resume
fi
"$YOLAH" train "${data[@]}" --out "$OUT" --hidden 512,32 --epochs 20 --seed 59 \
    --learning-rate 0.002
