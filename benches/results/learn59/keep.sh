#!/usr/bin/env bash
# Copies what the learning run in RUN (default /work/runs/learn59) keeps into this folder:
# its config, state and tables, each candidate's training log, and each finished generation's
# self-play data compressed (gen-NNN.data.bin.xz, `xz -d` gives the very file back; the rule:
# docs/notebook.md, "Keeping the loop's data"). Run it as generations finish; it skips what is
# here already.
set -euo pipefail
here=$(dirname "$(readlink -f "$0")")
RUN=${1:-/work/runs/learn59}
for f in learn.json state.json generations.csv gauntlet.csv elo.png; do
    if [ -f "$RUN/$f" ]; then cp "$RUN/$f" "$here/"; fi
done
for gen in "$RUN"/gen-*; do
    n=$(basename "$gen")
    # A generation is finished once its test's result is written.
    [ -f "$gen/test.json" ] || continue
    cp "$gen/network.train.csv" "$here/$n.train.csv"
    cp "$gen/selfplay/selfplay.json" "$here/$n.selfplay.json"
    if [ ! -f "$here/$n.data.bin.xz" ]; then
        xz -9e -c "$gen/selfplay/data.bin" > "$here/$n.data.bin.xz.tmp"
        mv "$here/$n.data.bin.xz.tmp" "$here/$n.data.bin.xz"
    fi
done
ls -la "$here"
