#!/usr/bin/env bash
# Issue 45 item 3: which width (and whether the 22 flood-fill features) pays at 100 ms a move.
# Every network trained from fresh weights on the same data: learn45's self-play, generations
# 1-16 (generations 2-5 repeated generation 1's games; the trainer merges repeated positions:
# 4,683,875 positions to train on, 687,235 held out, whole games), 15 epochs, seed 1, the
# trainer's default rate (0.002 falling to 0.0002). Then each against the 256-unit one in one
# process, minimax at 100 ms a move with its opening book, the shipped suite in colour pairs,
# two games at a time, the learning run paused.
# YOLAH: a release build of the commit these results were committed with; RUN: learn45's directory.
set -euo pipefail
cd "$(dirname "$0")"
YOLAH=${YOLAH:-/work/runs/yolah-head-native}
RUN=${RUN:-/work/runs/learn45}
NETS=${NETS:-/work/runs/width45}
SUITE=../../../crates/yolah-ai/data/openings-8ply.txt
DATA=""
for g in $(seq -w 1 16); do DATA="$DATA --data $RUN/gen-0$g/selfplay"; done
train() {
    local name=$1
    shift
    # shellcheck disable=SC2086
    [ -e "$NETS/$name/network.state" ] ||
        "$YOLAH" train $DATA --out "$NETS/$name/network.yolahnet" --epochs 15 --seed 1 "$@"
    cp "$NETS/$name/network.train.csv" "$name.train.csv"
}
train h256 --hidden 256,32
train h512 --hidden 512,32
# Without the features the default rate (0.002) left the network dead on this data: its
# loss stayed at a constant's from the first epoch. 0.0005 learns.
train h256nf --hidden 256,32 --features off --learning-rate 0.0005
# Not run yet (no time left in the session that ran the rest):
# train h1024 --hidden 1024,32
# train h512nf --hidden 512,32 --features off --learning-rate 0.0005
match() {
    local a=$1 b=$2
    "$YOLAH" match "minimax:time=100ms,eval=nn,net=$NETS/$a/network.yolahnet" \
        "minimax:time=100ms,eval=nn,net=$NETS/$b/network.yolahnet" --games 400 \
        --openings $SUITE --threads 2 --out "$a-vs-$b.csv" | tee "$a-vs-$b.txt"
}
match h512 h256
match h256nf h256
# And the wider one against the shipped network (generation 15's, warm-trained through the
# loop), the same conditions.
"$YOLAH" match "minimax:time=100ms,eval=nn,net=$NETS/h512/network.yolahnet" \
    "minimax:time=100ms,eval=nn" --games 400 --openings $SUITE --threads 2 \
    --out h512-vs-shipped.csv | tee h512-vs-shipped.txt
