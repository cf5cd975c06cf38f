"""yolah.Position: the rules from Python, checked against the command line and themselves."""

from __future__ import annotations

import copy
import re
import pickle

import numpy as np
import pytest
import yolah
from conftest import random_positions, run


def test_the_start_has_56_moves_sorted_as_the_command_line_prints_them(cli):
    start = yolah.Position()
    assert len(start.moves()) == 56
    assert start.moves() == run(cli, "moves").split()
    assert yolah.Position("startpos") == start
    assert yolah.Position(yolah.START) == start
    assert start.notation() == yolah.START
    assert start.side_to_move() == "black"
    assert start.scores() == (0, 0)
    assert not start.game_over() and start.result() is None


def test_moves_match_the_command_line_along_random_games(cli):
    for position in random_positions(40, seed=3):
        printed = run(cli, "moves", "--position", position.notation()).split()
        assert position.moves() == printed, position.notation()


def test_play_and_undo_walk_a_game_there_and_back():
    for start in random_positions(5, seed=4)[:1]:
        position = start.copy()
        seen = [(position.notation(), position.hash())]
        while not position.game_over():
            position.play(position.moves()[len(seen) % len(position.moves())])
            seen.append((position.notation(), position.hash()))
        assert position.result() in ("black", "white", "draw")
        black, white = position.scores()
        expected = "draw" if black == white else ("black" if black > white else "white")
        assert position.result() == expected
        assert position.moves() == []
        assert len(position.history()) == len(seen) - 1
        while position.history():
            seen.pop()
            position.undo()
            assert (position.notation(), position.hash()) == seen[-1]
        assert position == start


def test_a_side_without_a_move_passes():
    position = None
    for candidate in random_positions(400, seed=5):
        if candidate.moves() == ["a1:a1"]:
            position = candidate
            break
    assert position is not None, "no pass found along 400 random positions"
    side, scores = position.side_to_move(), position.scores()
    position.play("a1:a1")
    assert position.history()[-1] == "a1:a1"
    assert position.side_to_move() != side and position.scores() == scores
    with pytest.raises(ValueError, match="cannot pass"):
        yolah.Position().play("a1:a1")


@pytest.mark.parametrize(
    ("move", "message"),
    [
        ("a1:a2:a3", "bad move"),
        ("e4", "is not a move"),
        ("a9:a2", "bad move"),
        ("b1:c3", "is illegal"),
        ("h1:h2", "is illegal"),
        ("a1:a1", "cannot pass"),
        ("a1:e5", "is illegal"),
    ],
)
def test_an_illegal_move_raises_value_error_with_the_reason(move, message):
    position = yolah.Position()
    with pytest.raises(ValueError, match=message):
        position.play(move)
    assert position == yolah.Position() and position.history() == []


@pytest.mark.parametrize(
    "notation",
    ["", "nonsense", "w6b/8/8/3bw3/3wb3/8/8/b6w x 0 0 0", "8/8/8/8/8/8/8/8 b 0 0 0",
     "w6b/8/8/3bw3/3wb3/8/8/b6w b 0 0 99999", "\0", "é" * 1000],
)
def test_a_bad_notation_raises_value_error(notation):
    with pytest.raises(ValueError, match="bad position"):
        yolah.Position(notation)


def test_wrong_types_raise_type_error():
    with pytest.raises(TypeError):
        yolah.Position(42)
    with pytest.raises(TypeError):
        yolah.Position().play(None)
    with pytest.raises(TypeError, match="expected a Position or its notation"):
        yolah.perft(3.5, 1)


def test_undo_without_history_raises():
    with pytest.raises(ValueError, match="nothing to undo"):
        yolah.Position().undo()


def test_copies_are_independent_and_pickle_keeps_the_position():
    position = yolah.Position()
    position.play("a1:b2")
    for twin in (position.copy(), copy.copy(position), copy.deepcopy(position)):
        assert twin == position and hash(twin) == hash(position)
        twin.play(twin.moves()[0])
        assert twin != position
    restored = pickle.loads(pickle.dumps(position))
    assert restored == position and restored.history() == []
    assert eval(repr(position), {"Position": yolah.Position}) == position
    assert len({yolah.Position(), yolah.Position("startpos"), position}) == 2
    assert position != position.notation()


def test_str_is_the_board_diagram_of_yolah_show_without_its_marks(cli):
    for position in random_positions(5, seed=9):
        shown = run(cli, "show", "--position", position.notation()).splitlines()
        unmarked = [re.sub(r"\| \+ (?=\|)", "| . ", line) for line in shown[:-1]]
        # Without marks the legend does not explain them (issue 33, item 6), and a `.` is
        # an empty square, not one out of reach (issue 55).
        unmarked = [line.replace("  + reachable  . out of reach", "  . empty") for line in unmarked]
        assert str(position).splitlines() == unmarked
        assert "+ reachable" not in str(position)


def test_from_bitboards_is_checked_as_notation_is():
    for position in random_positions(30, seed=6):
        black, white, holes = position.bitboards()
        rebuilt = yolah.Position.from_bitboards(black, white, holes, *position.scores(), position.ply())
        assert rebuilt == position
    with pytest.raises(ValueError, match="bad position"):
        yolah.Position.from_bitboards(1, 2, 0, 0, 0, 0)
    with pytest.raises(OverflowError):
        yolah.Position.from_bitboards(-1, 2, 0, 0, 0, 0)


def test_planes_are_the_bitboards_rank_1_first():
    for position in random_positions(30, seed=7):
        planes = position.planes()
        assert planes.shape == (3, 8, 8) and planes.dtype == np.uint8
        for plane, board in zip(planes, position.bitboards()):
            for square in range(64):
                assert plane[square // 8][square % 8] == (board >> square) & 1
    start = yolah.Position().planes()
    assert start[0][0][0] == 1  # a1 holds a black piece
    assert start[1][0][7] == 1  # h1 a white one
    assert start[2].sum() == 0


def transformed_move(move: str, k: int) -> str:
    """The image of a move under symmetry k, computed here from the documented definition."""
    if move == "a1:a1":
        return move

    def square(name: str) -> str:
        file, rank = "abcdefgh".index(name[0]), int(name[1]) - 1
        if k & 4:
            file, rank = rank, file
        if k & 1:
            file = 7 - file
        if k & 2:
            rank = 7 - rank
        return f"{'abcdefgh'[file]}{rank + 1}"

    return ":".join(square(s) for s in move.split(":"))


def test_the_symmetries_commute_with_the_rules():
    for position in random_positions(60, seed=8):
        for k in range(8):
            image = position.transformed(k)
            assert image.scores() == position.scores() and image.ply() == position.ply()
            assert image.game_over() == position.game_over()
            expected = sorted(transformed_move(m, k) for m in position.moves())
            assert image.moves() == expected
            for move in position.moves()[:5]:
                after = position.copy()
                after.play(move)
                image_after = image.copy()
                image_after.play(transformed_move(move, k))
                assert after.transformed(k) == image_after
    assert yolah.Position().transformed(0) == yolah.Position()
    with pytest.raises(ValueError, match="symmetry 8"):
        yolah.Position().transformed(8)
    with pytest.raises(OverflowError):
        yolah.Position().transformed(-1)
