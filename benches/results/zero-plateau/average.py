"""The mean of a run's networks, weight by weight (a stochastic weight average, as KataGo
plays): average.py OUT NET... . Networks of one run (the same size and inputs), each a
`.yolahpv` file: magic, hidden units, little-endian f32 weights, FNV-1a of all before it."""

import os
import sys

import numpy as np


def fnv1a(data: bytes) -> int:
    h = 0xCBF29CE484222325
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def main() -> None:
    out, nets = sys.argv[1], sys.argv[2:]
    heads, weights = set(), []
    for path in nets:
        data = open(path, "rb").read()
        assert int.from_bytes(data[-8:], "little") == fnv1a(data[:-8]), path
        heads.add(data[:12])
        weights.append(np.frombuffer(data[12:-8], dtype="<f4").astype(np.float64))
    assert len(heads) == 1, "networks of different sizes or inputs"
    body = heads.pop() + np.mean(weights, axis=0).astype("<f4").tobytes()
    # Whole or not at all: swa.sh skips an average that exists.
    with open(out + ".tmp", "wb") as f:
        f.write(body + fnv1a(body).to_bytes(8, "little"))
        f.flush()
        os.fsync(f.fileno())
    os.replace(out + ".tmp", out)


if __name__ == "__main__":
    main()
