#!/bin/bash
# Adjudication's saving on the ladder: the same 150 games (10 a pair), with and without, one after the other.
set -e
cd "$(dirname "$0")/../../.."
Y=target/release/yolah
for mode in adjudicate plain; do
  flag=""; [ $mode = adjudicate ] && flag="--adjudicate"
  rm -rf benches/results/adjudication/$mode
  /usr/bin/time -f "$mode %e s" $Y tournament random montecarlo:time=100ms mcts:time=100ms \
      minimax:time=100ms,weights=crates/yolah-ai/data/weights-start.json minimax:time=100ms \
      minimax:time=100ms,eval=nn --games-per-pair 10 \
      --openings crates/yolah-ai/data/openings-8ply.txt --seed 1 --threads 2 $flag --out benches/results/adjudication/$mode > benches/results/adjudication/$mode.txt 2>benches/results/adjudication/$mode.err
done
