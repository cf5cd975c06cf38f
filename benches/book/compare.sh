#!/bin/sh
# Same-run comparison of our engine with the book's chapter-2 C++ (see extract.py), as whole
# processes, paired A B A B by farm-bench (the ratios are ours / the book's).
#   benches/book/compare.sh [BOOK.txt]     from the repository root, after cargo build --release
# Needs g++ with -std=c++23, libfmt-dev (apt), python3 and farm-bench.
set -eu
BOOK=${1:-../shared/seeds/000_67cd6f41ae3dabe4.txt}
OUT=target/book
mkdir -p "$OUT"
python3 benches/book/extract.py "$BOOK" "$OUT/chapter02.cpp"
g++ -std=c++23 -O3 -march=native -Ibenches/book/shim "$OUT/chapter02.cpp" -o "$OUT/chapter02" -lfmt
YOLAH=target/release/yolah
echo "perft(1..5), the book's then ours:"
for d in 1 2 3 4 5; do
  echo "  $d: $("$OUT/chapter02" perft $d) $("$YOLAH" perft $d --threads 1 2>/dev/null)"
done
for path in avx512 avx2 portable; do
  if "$YOLAH" random-games --games 1 --path $path >/dev/null 2>&1; then
    echo "== a million random games, one thread, $path path / the book's random_move()"
    farm-bench -n 5 --vs "$OUT/chapter02 fast 1000000" -- \
      "$YOLAH" random-games --games 1000000 --threads 1 --path $path
  fi
done
echo "== a million random games: the book's random_move() / the book's listing (moves())"
farm-bench -n 3 --vs "$OUT/chapter02 moves 1000000" -- "$OUT/chapter02" fast 1000000
echo "== perft(5), one thread / the book's (bulk-counted moves().size())"
farm-bench -n 5 --vs "$OUT/chapter02 perft 5" -- "$YOLAH" perft 5 --threads 1
echo "== perft(6), one thread / the book's"
farm-bench -n 3 --timeout 600 --vs "$OUT/chapter02 perft 6" -- "$YOLAH" perft 6 --threads 1
