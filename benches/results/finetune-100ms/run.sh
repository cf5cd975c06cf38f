#!/usr/bin/env bash
# The fine-tuned network (benches/results/finetune's A) against the shipped one, each the
# default player of a binary built from the same commit (4ad1131) with that network in
# crates/yolah-ai/data/network.yolahnet, both as engines through the protocol at 100 ms a
# move, the shipped suite in colour pairs, two games at a time, the learn run paused.
set -euo pipefail
cd "$(dirname "$0")"
NEW=${NEW:-/work/runs/yolah-A}
OLD=${OLD:-/work/runs/yolah-45b}
SUITE=../../../crates/yolah-ai/data/openings-8ply.txt
"$NEW" match "engine:time=100ms,cmd=$NEW engine" "engine:time=100ms,cmd=$OLD engine" \
    --sprt elo0=0,elo1=10 --games 400 --openings $SUITE --threads 2 --out games-100ms.csv | tee result-100ms.txt
