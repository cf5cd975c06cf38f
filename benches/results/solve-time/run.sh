#!/usr/bin/env bash
# Does `solve --time` keep its time? Twenty positions of 30 free squares (the first position of
# 30 free squares of games 0-19 of ../../../../shared/strength/games-100ms.pgn, in
# positions.txt), each given `--time 5s` (--tt 64): its wall time (GNU time) and whether it
# proved, into OUT.csv. Usage: YOLAH=BINARY run.sh OUT
set -euo pipefail
cd "$(dirname "$0")"
YOLAH=${YOLAH:-../../../target/release/yolah}
out=$1
echo "position,seconds,peak_mb,exit" > "$out.csv"
n=0
while read -r position; do
    set +e
    /usr/bin/time -f "%e %M" -o time.tmp "$YOLAH" solve -p "$position" --time 5s --tt 64 > /dev/null 2>&1
    code=$?
    set -e
    read -r seconds kb < <(tail -1 time.tmp)
    echo "$n,$seconds,$((kb / 1024)),$code" >> "$out.csv"
    n=$((n + 1))
done < positions.txt
rm -f time.tmp
