# Sourced by chain.sh, swa.sh and at-100ms.sh: one resumable match of this folder.
# play OUT THREADS GAMES A B: plays A against B, GAMES games of the shipped suite in colour
# pairs, THREADS at a time, into OUT.csv, and its last line into OUT.txt; a finished OUT is
# skipped, an unfinished one played again from the start.
YOLAH=${YOLAH:-/work/runs/yolah-ship}
SUITE=../../../crates/yolah-ai/data/openings-8ply.txt
play() {
    local out=$1 threads=$2 games=$3 a=$4 b=$5
    [ -f "$out.txt" ] && return 0
    rm -f "$out.csv"
    "$YOLAH" match "$a" "$b" --games "$games" --openings $SUITE --threads "$threads" \
        --out "$out.csv" | tail -1 > "$out.txt.tmp"
    mv "$out.txt.tmp" "$out.txt"
    echo "$out: $(sed 's/.*: +/+/' "$out.txt")"
}
