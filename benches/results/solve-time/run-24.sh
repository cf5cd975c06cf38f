#!/usr/bin/env bash
# The solve bench's fifteen positions of 24 free squares (cargo bench -p yolah-benches --bench
# solve, seed 2026; positions-24.txt), each `yolah solve --time 20s --tt 64` with two builds in
# turn, A then B a position, so that both meet the same load: wall time and exit (0 proved,
# 1 not) into OUT.csv. Usage: A=BINARY B=BINARY run-24.sh OUT
set -euo pipefail
cd "$(dirname "$0")"
out=$1
echo "position,a_seconds,a_exit,b_seconds,b_exit" > "$out.csv"
n=0
while read -r position; do
    row="$n"
    for binary in "$A" "$B"; do
        set +e
        /usr/bin/time -f "%e" -o time.tmp "$binary" solve -p "$position" --time 20s --tt 64 > /dev/null 2>&1
        code=$?
        set -e
        row="$row,$(tail -1 time.tmp),$code"
    done
    echo "$row" >> "$out.csv"
    n=$((n + 1))
done < positions-24.txt
rm -f time.tmp
