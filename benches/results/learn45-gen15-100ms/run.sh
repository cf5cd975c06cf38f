#!/usr/bin/env bash
# learn45's generation-15 candidate, the loop's first promotion (+31.3 [+13.0, +49.8] against
# its parent at 20,000 nodes, 878 games, H1 accepted), at the default player's time control:
# as the default player of an engine (its network, the opening book on) against 4e39aa1's,
# then against its parent (the shipped network) in one process; 100 ms a move, the shipped
# suite in colour pairs, two games at a time, the learning run paused.
# YOLAH: a release build of ec415cf; NET: learn45/gen-015/network.yolahnet.
set -euo pipefail
cd "$(dirname "$0")"
YOLAH=${YOLAH:-/work/runs/m45/yolah-ec415cf}
NET=${NET:-/work/runs/m45/gen15.yolahnet}
OLD=${OLD:-/work/runs/yolah-4e39aa1}
SUITE=../../../crates/yolah-ai/data/openings-8ply.txt
"$YOLAH" match "engine:time=100ms,cmd=$YOLAH engine --player minimax:eval=nn,net=$NET,book=on" \
    "engine:time=100ms,cmd=$OLD engine" --sprt elo0=0,elo1=10 --games 400 --openings $SUITE \
    --threads 2 --out games-against-4e39aa1.csv | tee result-against-4e39aa1.txt
"$YOLAH" match "minimax:time=100ms,eval=nn,net=$NET,book=on" "minimax:time=100ms,eval=nn" \
    --sprt elo0=0,elo1=10 --games 400 --openings $SUITE --threads 2 \
    --out games-against-parent.csv | tee result-against-parent.txt
# Then shipped (crates/yolah-ai/data/network.yolahnet = generation 15's): the default player of
# that build against 4e39aa1's, 400 games without a sequential stop (its estimate unbiased by
# an early stop). SHIPPED: a release build of the commit that ships it.
SHIPPED=${SHIPPED:-/work/runs/m45/yolah-gen15-shipped}
"$SHIPPED" match "engine:time=100ms,cmd=$SHIPPED engine" "engine:time=100ms,cmd=$OLD engine" \
    --games 400 --openings $SUITE --threads 2 \
    --out games-shipped-against-4e39aa1.csv | tee result-shipped-against-4e39aa1.txt
# And at 1s+10ms, whatever the result: 200 games, both through the protocol.
"$SHIPPED" match "engine:cmd=$SHIPPED engine" "engine:cmd=$OLD engine" --tc 1s+10ms \
    --games 200 --openings $SUITE --threads 2 --out games-1s+10ms.csv | tee result-1s+10ms.txt
