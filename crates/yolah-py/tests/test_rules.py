"""perft and random games from Python: the command line's counts, and limits checked."""

from __future__ import annotations

import pure_rules
import pytest
import yolah
from conftest import random_positions, run


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_perft_from_the_start_equals_the_command_line(cli, depth):
    assert yolah.perft(yolah.Position(), depth) == int(run(cli, "perft", str(depth)))


def test_perft_takes_notation_and_equals_the_pure_python_rules():
    for position in random_positions(12, seed=11)[::3]:
        board = pure_rules.Board()
        for move in position.history():
            board.play(move)
        assert yolah.perft(position.notation(), 3) == pure_rules.perft(board, 3)


def test_perft_limits():
    assert yolah.perft(yolah.Position(), 0) == 1
    with pytest.raises(ValueError, match="too deep"):
        yolah.perft(yolah.Position(), 21)
    with pytest.raises(OverflowError):
        yolah.perft(yolah.Position(), -1)


def test_random_games_equal_the_command_line_whatever_the_threads(cli):
    one = yolah.random_games(5000, seed=7, threads=1)
    two = yolah.random_games(5000, seed=7, threads=2)
    assert one == two
    assert one["games"] == 5000 == one["black_wins"] + one["white_wins"] + one["draws"]
    printed = run(cli, "random-games", "--games", "5000", "--seed", "7")
    assert f"black wins: {one['black_wins']} " in printed
    assert f"draws:      {one['draws']} " in printed
    assert yolah.random_games(5000, seed=8) != one


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"n": 0}, ValueError, "n must be from 1"),
        ({"n": 10**12}, ValueError, "n must be from 1"),
        ({"n": -5}, OverflowError, None),
        ({"n": 10, "threads": 0}, ValueError, "threads must be from 1"),
        ({"n": 10, "threads": 100000}, ValueError, "threads must be from 1"),
    ],
)
def test_random_games_limits(kwargs, error, message):
    with pytest.raises(error, match=message):
        yolah.random_games(**kwargs)


def test_planes_batch_equals_each_positions_planes_and_names_a_bad_one():
    positions = random_positions(50, seed=12)
    batch = yolah.planes_batch([p.notation() for p in positions])
    assert batch.shape == (50, 3, 8, 8)
    for planes, position in zip(batch, positions):
        assert (planes == position.planes()).all()
    assert (yolah.planes_batch(positions) == batch).all()
    assert (yolah.planes_batch(p for p in positions) == batch).all()
    assert yolah.planes_batch([]).shape == (0, 3, 8, 8)
    with pytest.raises(ValueError, match="position 1: bad position"):
        yolah.planes_batch([yolah.START, "nonsense"])
