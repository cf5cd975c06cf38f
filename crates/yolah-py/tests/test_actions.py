"""Actions, masks and observations: the encoding round-trips, masks are the legal moves, the
batched calls agree with one position at a time, and the python-chess names behave."""

from __future__ import annotations

import numpy as np
import pytest
import yolah
from conftest import random_positions


def test_every_legal_move_of_thousands_of_positions_round_trips():
    positions = random_positions(3000, seed=5)
    checked = 0
    for position in positions:
        moves = position.moves()
        actions = position.legal_actions()
        assert sorted(yolah.move_to_action(m) for m in moves) == actions
        for move, action in zip(moves, map(yolah.move_to_action, moves)):
            assert 0 <= action < yolah.NUM_ACTIONS
            assert yolah.action_to_move(action) == move
            checked += 1
        mask = position.legal_action_mask()
        assert mask.dtype == np.bool_ and mask.shape == (4096,)
        assert list(np.flatnonzero(mask)) == actions
    assert checked > 50_000


def test_the_pass_is_action_zero_and_bad_actions_are_refused():
    assert yolah.move_to_action("a1:a1") == 0
    assert yolah.action_to_move(0) == "a1:a1"
    assert yolah.move_to_action("a1:b2") == 0 * 64 + 9
    assert yolah.action_to_move(9 * 64 + 0) == "b2:a1"
    for bad in (-1, 4096, 65, 10**20):
        with pytest.raises((ValueError, OverflowError)):
            yolah.action_to_move(bad)
    with pytest.raises(ValueError, match="must leave its square"):
        yolah.move_to_action("b2:b2")
    position = yolah.Position()
    with pytest.raises(ValueError, match="illegal"):
        position.play_action(0)
    position.play_action(yolah.move_to_action("a1:b2"))
    assert position.history() == ["a1:b2"]


def test_a_game_over_has_no_actions_and_a_stuck_side_has_the_pass():
    positions = random_positions(3000, seed=9)
    over = [p for p in positions if p.game_over()]
    stuck = [p for p in positions if p.moves() == ["a1:a1"]]
    assert over and stuck
    assert all(p.legal_actions() == [] and not p.legal_action_mask().any() for p in over)
    assert all(p.legal_actions() == [0] for p in stuck)


def test_observations_say_what_the_position_holds():
    for position in random_positions(300, seed=3):
        obs = position.observation()
        assert obs.dtype == np.float32 and obs.shape == yolah.OBSERVATION_SHAPE
        np.testing.assert_array_equal(obs[:3], position.planes())
        assert (obs[:4].sum(axis=0) == 1).all()
        black, white = position.scores()
        assert (obs[4] == (position.side_to_move() == "black")).all()
        assert (obs[5] == black / 64).all() and (obs[6] == white / 64).all()


def test_batches_equal_one_position_at_a_time():
    positions = random_positions(500, seed=4)
    masks = yolah.legal_action_masks(positions)
    observations = yolah.observations(p.notation() for p in positions)
    assert masks.shape == (500, 4096) and observations.shape == (500, 7, 8, 8)
    for i, position in enumerate(positions):
        np.testing.assert_array_equal(masks[i], position.legal_action_mask())
        np.testing.assert_array_equal(observations[i], position.observation())
    assert yolah.legal_action_masks([]).shape == (0, 4096)
    with pytest.raises(ValueError, match="position 1"):
        yolah.observations([yolah.START, "nonsense"])


def test_python_chess_names():
    position = yolah.Position()
    assert position.legal_moves == position.moves()
    assert position.turn == "black"
    position.push("a1:b2")
    assert position.turn == "white" and not position.is_game_over()
    assert position.pop() == "a1:b2"
    assert position == yolah.Position()


def test_a_position_draws_itself_in_a_notebook():
    svg = yolah.Position()._repr_svg_()
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    # Eight pieces, and the start's 56 legal moves reach these many empty squares.
    targets = {m.split(":")[1] for m in yolah.Position().moves()}
    assert svg.count('r="14"') == 8
    assert svg.count('r="5"') == len(targets)
    assert yolah.START in yolah.Position()._repr_html_()


def test_the_module_leaks_no_helper_names():
    public = {name for name in dir(yolah) if not name.startswith("_")}
    assert "np" not in public and "annotations" not in public
    assert set(yolah.__all__) <= public
