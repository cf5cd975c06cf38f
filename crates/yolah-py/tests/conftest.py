"""Shared fixtures: the command-line program to compare with, and the pure-Python rules."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPOSITORY = HERE.parents[2]
sys.path.insert(0, str(HERE.parent / "bench"))


@pytest.fixture(scope="session")
def cli() -> Path:
    """The `yolah` program: $YOLAH_CLI (CI sets it), else the repository's build."""
    given = os.environ.get("YOLAH_CLI")
    if given:
        path = Path(given)
        assert path.is_file(), f"YOLAH_CLI={given} is not a file"
        return path
    for build in ("release", "debug"):
        path = REPOSITORY / "target" / build / "yolah"
        if path.is_file():
            return path
    pytest.skip("no yolah program: run `cargo build` or set YOLAH_CLI")


def run(cli: Path, *args: str) -> str:
    """What the program prints on stdout; it must succeed."""
    done = subprocess.run([str(cli), *args], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def random_positions(count: int, seed: int):
    """Positions along random games from the start, finished ones included."""
    import yolah

    rng = random.Random(seed)
    found = []
    while len(found) < count:
        position = yolah.Position()
        while len(found) < count:
            found.append(position.copy())
            moves = position.moves()
            if not moves:
                break
            position.play(rng.choice(moves))
    return found
