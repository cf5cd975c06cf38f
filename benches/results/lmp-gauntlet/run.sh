#!/usr/bin/env bash
# Issue 45's gauntlet, rerun with late-move pruning on by default: the shipped default player
# (NEW: a release build of 38a028d) and 4e39aa1's (OLD), each as an engine through the protocol
# at 100 ms a move, against the same opponents in the runner's process at 100 ms — the tuned
# heuristic, MCTS, and the two networks shipped before generation 15 (d759484's, which
# 4e39aa1 ships, and 4e1ddf1's, each with the network search: `minimax:eval=nn,net=FILE`) —
# 100 games each, the shipped suite's first 50 openings in colour pairs, two games at a time,
# nothing else running. Then the target's second time control: NEW against OLD at 1s+10ms,
# 200 games. The networks: `git show COMMIT:crates/yolah-ai/data/network.yolahnet > FILE`.
set -euo pipefail
cd "$(dirname "$0")"
NEW=${NEW:-/work/runs/yolah-new}
OLD=${OLD:-/work/runs/yolah-4e39aa1}
NETS=${NETS:-/work/runs/nets}
SUITE=../../../crates/yolah-ai/data/openings-8ply.txt
declare -A OPPONENT=(
  [minimax]="minimax:time=100ms"
  [mcts]="mcts:time=100ms"
  [net-d759484]="minimax:time=100ms,eval=nn,net=$NETS/d759484.yolahnet"
  [net-4e1ddf1]="minimax:time=100ms,eval=nn,net=$NETS/4e1ddf1.yolahnet"
)
for name in minimax mcts net-d759484 net-4e1ddf1; do
  for side in NEW OLD; do
    bin=${!side}
    [ -s "$side-vs-$name.txt" ] && continue
    "$NEW" match "engine:time=100ms,cmd=$bin engine" "${OPPONENT[$name]}" --games 100 \
        --openings $SUITE --threads 2 --out "$side-vs-$name.csv" | tail -1 | tee "$side-vs-$name.txt"
  done
done
[ -s result-1s+10ms.txt ] || "$NEW" match "engine:cmd=$NEW engine" "engine:cmd=$OLD engine" --tc 1s+10ms \
    --games 200 --openings $SUITE --threads 2 --out games-1s+10ms.csv | tee result-1s+10ms.txt
