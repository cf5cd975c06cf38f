#!/bin/bash
# Copies the learn run's small files into the repository (not the data, not the trainer states).
set -e
SRC=/work/data/learn-run
DST=/work/main/benches/results/learn-run
mkdir -p $DST
cp $SRC/learn.json $SRC/state.json $DST/
for f in generations.csv elo.png; do [ -f $SRC/$f ] && cp $SRC/$f $DST/; done
for g in $SRC/gen-*; do
  n=$(basename $g); mkdir -p $DST/$n
  [ -f $g/selfplay/selfplay.json ] && mkdir -p $DST/$n/selfplay && cp $g/selfplay/selfplay.json $DST/$n/selfplay/
  for f in network.yolahnet network.train.json network.train.csv network.loss.png test.csv test.json; do
    [ -f $g/$f ] && cp $g/$f $DST/$n/
  done
done
du -sh $DST
