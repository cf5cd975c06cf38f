"""`yolah.Explorer` reads what `yolah explorer build` writes and answers as `yolah explorer --json`."""

from __future__ import annotations

import json

import pytest

import yolah
from conftest import run


def test_the_moves_are_the_command_lines(cli, tmp_path):
    games = tmp_path / "games.csv"
    run(cli, "match", "random", "random:seed=2", "-g", "30", "-t", "1", "-o", str(games))
    db = tmp_path / "games.explorer"
    run(cli, "explorer", "build", str(games), "--out", str(db))
    explorer = yolah.Explorer(db)
    assert explorer.games == 30
    assert len(explorer) > 30
    for moves in ([], ["d5:d6"]):
        position = yolah.Position()
        for move in moves:
            position.play(move)
        line = " ".join(["startpos", "moves", *moves]) if moves else "startpos"
        expected = json.loads(run(cli, "explorer", str(db), "-p", line, "--json"))
        assert explorer.moves(position) == expected["moves"]
        assert explorer.moves(position.notation()) == expected["moves"]
    assert sum(m["games"] for m in explorer.moves(yolah.Position())) == 30


def test_files_that_are_not_databases_are_refused(tmp_path):
    with pytest.raises(FileNotFoundError, match="none.explorer"):
        yolah.Explorer(tmp_path / "none.explorer")
    other = tmp_path / "notes.explorer"
    other.write_text("my notes\n")
    with pytest.raises(ValueError, match="is not an explorer database"):
        yolah.Explorer(other)
