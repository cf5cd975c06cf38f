#!/usr/bin/env bash
# The issue's gauntlet for the default player: the shipped one (NEW, aspiration windows) and ef1e912's (OLD), each as an
# engine through the protocol at 100 ms a move, against the same opponents in the runner's
# process (the tuned heuristic, MCTS) at 100 ms: 100 games each, the shipped suite's first 50
# openings in colour pairs, two games at a time, nothing else running.
# Usage: [NEW=… OLD=… RUNNER=… SIDES="NEW OLD"] run.sh [DIR]: the results go into DIR (this
# folder by default); RUNNER (the binary that plays the opponents, NEW by default) keeps the
# opponents those of an earlier run when the default search has changed since.
set -euo pipefail
cd "$(dirname "$0")"
NEW=${NEW:-/work/runs/yolah-59}
OLD=${OLD:-/work/runs/yolah-ef1e912}
RUNNER=${RUNNER:-$NEW}
SUITE=$PWD/../../../crates/yolah-ai/data/openings-8ply.txt
mkdir -p "${1:-.}"
cd "${1:-.}"
for opponent in minimax mcts; do
  for side in ${SIDES:-NEW OLD}; do
    bin=${!side}
    "$RUNNER" match "engine:time=100ms,cmd=$bin engine" "$opponent:time=100ms" --games 100 \
        --openings $SUITE --threads 2 --out "$side-vs-$opponent.csv" | tail -1 | tee "$side-vs-$opponent.txt"
  done
done
