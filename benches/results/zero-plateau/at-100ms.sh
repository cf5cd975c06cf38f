#!/usr/bin/env bash
# The issue's yardstick for this folder's best networks: `alphazero:time=100ms` with NET
# against OPPONENT (`mcts:time=100ms`, named mcts, by default), GAMES (100) games of the
# shipped suite in colour pairs, two at a time, nothing else running (as zero-targets/run.sh
# measured the baseline's generation 63 against mcts: +219.9).
# Usage: [YOLAH=binary] [GAMES=100] at-100ms.sh NAME NET [OPPNAME OPPONENT]
#   (writes NAME-vs-OPPNAME.csv and .txt here; resumable: a finished one is skipped)
set -euo pipefail
here=$(dirname "$(readlink -f "$0")")
cd "$here"
. ./play.sh
name=$1 net=$2 oppname=${3:-mcts} opponent=${4:-mcts:time=100ms}
play "$name-vs-$oppname" 2 "${GAMES:-100}" "alphazero:time=100ms,net=$net" "$opponent"
