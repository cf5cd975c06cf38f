#!/usr/bin/env bash
# Reproduces the experiment from the run's data: residual MLP vs small conv nets (issue 44).
# Everything at nice 10, one thread (another job owns the other core).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
RUN=${RUN:-/work/runs/zero-f44}
DATA=${DATA:-/work/conv-data}
VENV=${VENV:-/work/torch-venv}
STEPS=${STEPS:-1500}

# 1. The venv. The CPU-only index (download.pytorch.org/whl/cpu) was unreachable from this
#    machine, so torch came from PyPI (2.15.0, a CUDA build, run on the CPU only).
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
  nice -n 10 "$VENV/bin/pip" install torch --index-url https://download.pytorch.org/whl/cpu numpy \
    || nice -n 10 "$VENV/bin/pip" install torch numpy
fi

# 2. The dump (Rust, our move generator and network.rs's conventions), outside the workspace.
(cd "$HERE/dump" && nice -n 10 cargo build --release --offline --target-dir /work/conv-target)
DUMP=/work/conv-target/release/zero-conv-dump
nice -n 10 "$DUMP" "$DATA" train $(for g in $(seq 43 60); do printf "$RUN/gen-%03d " "$g"; done)
nice -n 10 "$DUMP" "$DATA" test "$RUN/gen-061" "$RUN/gen-062"

# 3. The Rust trainer's own losses of the run's gen-060 network on the held-out games: the
#    PyTorch port must find the same.
nice -n 10 "$DUMP" --losses "$RUN/gen-060/network.yolahpv" "$RUN/gen-061" "$RUN/gen-062" | tee "$HERE/log.txt"

# 4. Equal steps for each model (batch 256, Adam 1e-3, L2 1e-4, random symmetry per sample).
nice -n 10 "$VENV/bin/python" "$HERE/train.py" "$DATA" --steps "$STEPS" --eval-every 300 \
  --models mlp,conv32,conv64 --rust-net "$RUN/gen-060/network.yolahpv" \
  --out "$HERE/results.json" 2>&1 | tee -a "$HERE/log.txt"

# 5. The MLP again at 10x the steps (about Conv32's training wall time): what its
#    cheapness buys.
nice -n 10 "$VENV/bin/python" "$HERE/train.py" "$DATA" --steps $((STEPS * 10)) --eval-every 3000 \
  --models mlp --out "$HERE/results-mlp-long.json" 2>&1 | tee -a "$HERE/log.txt"

# 6. The Rust MLP kernel in the real search (visits per second, one search thread).
for pos in startpos; do
  nice -n 10 "${YOLAH:-yolah}" think "alphazero:iterations=50000,net=$RUN/gen-060/network.yolahpv" -p "$pos" 2>&1 | tee -a "$HERE/log.txt"
done

# 7. Inference speed again, best of 3 runs each (the other core's job makes single runs noisy;
#    speed does not depend on the weights, so fresh models are timed).
nice -n 10 "$VENV/bin/python" "$HERE/train.py" "$DATA" --speed-only --models mlp,conv32,conv64 2>&1 | tee -a "$HERE/log.txt"
