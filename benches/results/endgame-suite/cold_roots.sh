#!/usr/bin/env bash
# How often the solver proves a suite position from a cold table within a budget: each root
# of positions.jsonl (proved or not by make.py) given to `yolah solve --tt 16 --time 2s`, as the
# endgame solver of `minimax:solve=F` has a 16 MiB table; prints free squares and time (ms, or
# "unproved"), one root a line. Run from the repository's root, on an otherwise idle machine.
set -euo pipefail
YOLAH=${YOLAH:-target/release/yolah}
python3 - "$YOLAH" <<'PY'
import json, subprocess, sys
yolah = sys.argv[1]
for line in open("benches/results/endgame-suite/positions.jsonl", encoding="utf-8"):
    record = json.loads(line)
    if not record.get("position"):
        continue
    done = subprocess.run([yolah, "solve", "-p", record["position"], "--time", "2s", "--tt", "16",
                           "--json"], capture_output=True, text=True)
    shown = round(json.loads(done.stdout)["time_ms"]) if done.returncode == 0 else "unproved"
    print(record["free"], shown)
PY
