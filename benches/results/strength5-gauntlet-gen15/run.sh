#!/usr/bin/env bash
# The issue's gauntlet for the default player shipped with learn45's generation 15 (NEW, a
# release build of 595752a), as an engine through the protocol at 100 ms a move, against the
# opponents of ../strength5-gauntlet (the tuned heuristic, MCTS) at 100 ms in the runner's
# process: 100 games each, the shipped suite's first 50 openings in colour pairs, two games at
# a time, the learning run paused. 4e39aa1's (OLD) and the network before's results against
# the same opponents are in ../strength5-gauntlet (another run, same setting).
set -euo pipefail
cd "$(dirname "$0")"
NEW=${NEW:-/work/runs/m45/yolah-gen15-shipped}
SUITE=../../../crates/yolah-ai/data/openings-8ply.txt
for opponent in minimax mcts; do
  "$NEW" match "engine:time=100ms,cmd=$NEW engine" "$opponent:time=100ms" --games 100 \
      --openings $SUITE --threads 2 --out "NEW-vs-$opponent.csv" | tail -1 | tee "NEW-vs-$opponent.txt"
done
