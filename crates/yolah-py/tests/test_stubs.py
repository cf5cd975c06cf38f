"""The type stubs agree with the module (mypy's stubtest), and type-check code that uses it."""

from __future__ import annotations

import subprocess
from pathlib import Path
import sys

import pytest

pytest.importorskip("mypy", reason="the stub checks need mypy (pip install '.[test]')")


def test_the_stubs_match_the_module():
    allowlist = str(Path(__file__).with_name("stubtest-allowlist.txt"))
    done = subprocess.run([sys.executable, "-m", "mypy.stubtest", "yolah", "--allowlist", allowlist],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def test_code_using_the_api_type_checks_and_misuse_does_not(tmp_path):
    good = tmp_path / "good.py"
    good.write_text(
        "import yolah\n"
        "p = yolah.Position()\n"
        "report = yolah.think('random', p)\n"
        "p.play(report['move'])\n"
        "black, white = p.scores()\n"
        "total: int = black + white + yolah.perft(p, 1)\n"
    )
    bad = tmp_path / "bad.py"
    bad.write_text("import yolah\nyolah.Position().play(3)\n")
    check = [sys.executable, "-m", "mypy", "--strict", "--no-incremental"]
    done = subprocess.run([*check, str(good)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout
    done = subprocess.run([*check, str(bad)], capture_output=True, text=True, check=False)
    assert done.returncode == 1 and 'incompatible type "int"' in done.stdout
