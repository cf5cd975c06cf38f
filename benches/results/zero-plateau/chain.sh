#!/usr/bin/env bash
# Issue 58's plateau, measured head to head: generations of one `yolah zero` run against a
# fixed network (BASE: one of its own generations, or another run's), both at 800 visits a
# move, GAMES (200) games of the shipped suite in colour pairs, one game at a time. Cheaper
# and finer than a match against a fixed opponent at a time per move (about 20 s a match of
# 200 games on this machine), and blind to that opponent's own weaknesses.
# Usage: [YOLAH=binary] [GAMES=200] chain.sh NAME RUN BASE BASENAME GEN...   (resumable)
#   BASE is a network file, named BASENAME in the outputs; writes NAME-GEN-vs-BASENAME.csv
#   and .txt here for each GEN.
set -euo pipefail
here=$(dirname "$(readlink -f "$0")")
cd "$here"
. ./play.sh
name=$1 run=$2 base=$3 basename=$4
shift 4
for g in "$@"; do
    net=$(printf '%s/gen-%03d/network.yolahpv' "$run" "$g")
    play "$(printf '%s-%03d-vs-%s' "$name" "$g" "$basename")" 1 "${GAMES:-200}" \
        "alphazero:iterations=800,net=$net" "alphazero:iterations=800,net=$base"
done
