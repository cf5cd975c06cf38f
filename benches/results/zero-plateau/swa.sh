#!/usr/bin/env bash
# Issue 58's plateau: the mean of a run's last networks (average.py, weight by weight)
# against single networks, both at 800 visits a move, GAMES games of the shipped suite in
# colour pairs, one game at a time.
# Usage: [YOLAH=binary] [GAMES=400] [PYTHON=python with numpy] swa.sh NAME RUN FIRST LAST BASE BASENAME
#   averages RUN's generations FIRST to LAST into $RUN/swa-FIRST-LAST.yolahpv, then plays it
#   against the network file BASE: NAME-swa-FIRST-LAST-vs-BASENAME.csv and .txt here.
set -euo pipefail
here=$(dirname "$(readlink -f "$0")")
cd "$here"
. ./play.sh
PYTHON=${PYTHON:-../../../target/py-venv/bin/python}
name=$1 run=$2 first=$3 last=$4 base=$5 basename=$6
average=$run/swa-$first-$last.yolahpv
[ -f "$average" ] || "$PYTHON" average.py "$average" \
    $(for g in $(seq "$first" "$last"); do printf '%s/gen-%03d/network.yolahpv ' "$run" "$g"; done)
play "$name-swa-$first-$last-vs-$basename" 1 "${GAMES:-400}" \
    "alphazero:iterations=800,net=$average" "alphazero:iterations=800,net=$base"
