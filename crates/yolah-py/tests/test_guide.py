"""docs/python.md runs as written: its `>>>` examples print what the page shows, after its
`yolah selfplay` run."""

from __future__ import annotations

import doctest
import re
import shlex

from conftest import REPOSITORY, run

GUIDE = REPOSITORY / "docs" / "python.md"


def test_the_python_guide_examples_print_what_it_shows(cli, tmp_path, monkeypatch):
    text = GUIDE.read_text()
    commands = re.findall(r"^yolah (selfplay .*)$", text, re.MULTILINE)
    assert commands, "the guide makes its data with yolah selfplay"
    monkeypatch.chdir(tmp_path)
    for command in commands:
        run(cli, *shlex.split(command))
    blocks = re.findall(r"```python\n(.*?)```", text, re.DOTALL)
    assert len(blocks) >= 4
    parser = doctest.DocTestParser()
    test = parser.get_doctest("\n".join(blocks), {}, "docs/python.md", str(GUIDE), 0)
    assert len(test.examples) > 30
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.failures == 0, f"{runner.failures} examples of docs/python.md differ (above)"
