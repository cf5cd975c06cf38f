"""docs/python.md runs as written: each of its `>>>` blocks, on its own in a fresh interpreter,
prints what the page shows, after its `yolah selfplay` and `yolah explorer build` runs."""

from __future__ import annotations

import doctest
import re
import shlex
import subprocess
import sys

from conftest import REPOSITORY, run

GUIDE = REPOSITORY / "docs" / "python.md"

# Runs the doctest block read from stdin (argv: its line in the guide, counted from 0) and
# exits 1 if an example prints something else.
RUN_BLOCK = """
import doctest, sys
parser = doctest.DocTestParser()
test = parser.get_doctest(sys.stdin.read(), {}, "docs/python.md", sys.argv[1], int(sys.argv[2]))
runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
runner.run(test)
sys.exit(1 if runner.failures else 0)
"""


def guide_blocks(text: str) -> list[tuple[str, int]]:
    """The guide's ```python blocks, each with the line (from 0) where it starts."""
    return [
        (found.group(1), text[: found.start(1)].count("\n"))
        for found in re.finditer(r"```python\n(.*?)```", text, re.DOTALL)
    ]


def test_the_python_guide_examples_print_what_it_shows(cli, tmp_path, monkeypatch):
    text = GUIDE.read_text()
    commands = re.findall(r"^yolah ((?:selfplay|explorer build) .*)$", text, re.MULTILINE)
    assert commands, "the guide makes its data with yolah selfplay"
    monkeypatch.chdir(tmp_path)
    # Commands run "from the repository's root" read its committed results.
    (tmp_path / "benches").symlink_to(REPOSITORY / "benches")
    for command in commands:
        run(cli, *shlex.split(command))
    blocks = guide_blocks(text)
    assert len(blocks) >= 4
    parser = doctest.DocTestParser()
    examples = sum(len(parser.get_examples(block)) for block, _ in blocks)
    assert examples > 30
    # A fresh interpreter for each block: a block that needs a name or a module an earlier
    # block made (`np`, say) fails, as it would for a reader who runs only that block.
    failed = []
    for block, line in blocks:
        done = subprocess.run(
            [sys.executable, "-c", RUN_BLOCK, str(GUIDE), str(line)],
            input=block,
            capture_output=True,
            text=True,
            cwd=tmp_path,
            check=False,
        )
        if done.returncode != 0:
            failed.append(f"the block at docs/python.md:{line + 1}:\n{done.stdout}{done.stderr}")
    assert not failed, "\n".join(failed)
