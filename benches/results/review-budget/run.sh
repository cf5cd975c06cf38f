#!/usr/bin/env bash
# Does a review end, and in how much memory? Every game of two seeded 100-game matches of fast
# players (one adjudicated, one played out) reviewed with the defaults, each review's wall time
# and peak memory (GNU time) in OUT.csv. Usage: YOLAH=BINARY [TIMEOUT=S] run.sh OUT; a review
# still running after TIMEOUT seconds (default 600) is killed and counted as such.
# Resumable: games already in OUT.csv are skipped.
set -euo pipefail
cd "$(dirname "$0")"
YOLAH=${YOLAH:-../../../target/release/yolah}
out=$1
timeout=${TIMEOUT:-600}
games=${GAMES:-100}
[ -f adjudicated.csv ] || "$YOLAH" match minimax:depth=3 mcts:iterations=300 --games 100 --seed 70 \
    --adjudicate --threads 1 --out adjudicated.csv > /dev/null
[ -f played-out.csv ] || "$YOLAH" match minimax:depth=3 mcts:iterations=300 --games 100 --seed 70 \
    --threads 1 --out played-out.csv > /dev/null
[ -f "$out.csv" ] || echo "match,game,seconds,peak_mb,exit" > "$out.csv"
for match in adjudicated played-out; do
    for ((game = 0; game < games; game++)); do
        grep -q "^$match,$game," "$out.csv" && continue
        set +e
        /usr/bin/time -f "%e %M" -o time.tmp timeout "$timeout" "$YOLAH" review "$match.csv" --game "$game" > /dev/null 2>&1
        code=$?
        set -e
        read -r seconds kb < <(tail -1 time.tmp)
        echo "$match,$game,$seconds,$((kb / 1024)),$code" >> "$out.csv"
    done
done
rm -f time.tmp
