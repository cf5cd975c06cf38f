"""yolah.VectorEnv: its games are exactly the games the single-game API plays for the same
actions, its arrays are rewritten in place, and bad input is refused before any game moves."""

from __future__ import annotations

import random

import numpy as np
import pytest
import yolah


def random_actions(masks: np.ndarray, rng: random.Random) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(row)) for row in masks], dtype=np.int64)


@pytest.mark.parametrize("rewards", ["wdl", "margin"])
def test_its_games_are_the_single_game_apis_games(rewards):
    env = yolah.VectorEnv(6, random_plies=3, seed=11, rewards=rewards)
    ours = env.positions()
    assert all(p.ply() == 3 for p in ours)
    rng = random.Random(5)
    finished = 0
    for _ in range(400):
        actions = random_actions(env.action_masks, rng)
        observations, masks, rewards_now, terminations = env.step(actions)
        now = env.positions()
        for game, (position, action) in enumerate(zip(ours, actions)):
            position.play_action(int(action))
            if position.is_game_over():
                finished += 1
                assert terminations[game]
                black, white = position.scores()
                if rewards == "margin":
                    expected = [black - white, white - black]
                else:
                    expected = [float(np.sign(black - white)), float(np.sign(white - black))]
                assert rewards_now[game].tolist() == expected
                # Replaced at once by a new game, opened by three random plies.
                assert now[game].ply() == 3 and not now[game].is_game_over()
                ours[game] = now[game]
            else:
                assert not terminations[game]
                assert rewards_now[game].tolist() == [0.0, 0.0]
                assert now[game].notation() == position.notation()
            assert (observations[game] == ours[game].observation()).all()
            assert (masks[game] == ours[game].legal_action_mask()).all()
            assert env.to_play[game] == (ours[game].side_to_move() == "white")
    assert finished >= 20, "enough games ended to test their rewards and replacement"


def test_the_arrays_are_the_envs_own_rewritten_in_place():
    env = yolah.VectorEnv(3)
    first = env.reset()
    assert [a.shape for a in first] == [(3, 7, 8, 8), (3, 4096), (3, 2), (3,)]
    assert [a.dtype for a in first] == [np.float32, np.bool_, np.float32, np.bool_]
    observations = env.observations
    assert observations is env.observations and first[0] is observations
    before = observations.copy()
    second = env.step([yolah.move_to_action("a1:b2")] * 3)
    assert second[0] is observations
    assert (observations != before).any(), "the array held before the step shows the new position"
    assert len(env) == 3 and env.to_play.tolist() == [1, 1, 1]


def test_same_seed_same_openings_and_reset_opens_new_games():
    a = yolah.VectorEnv(50, random_plies=6, seed=3)
    b = yolah.VectorEnv(50, random_plies=6, seed=3)
    c = yolah.VectorEnv(50, random_plies=6, seed=4)
    notations = lambda env: [p.notation() for p in env.positions()]
    assert notations(a) == notations(b) != notations(c)
    assert len(set(notations(a))) > 40
    before = notations(a)
    a.reset()
    assert notations(a) != before
    assert not a.terminations.any() and not a.rewards.any()


def test_a_pass_is_played_as_action_zero():
    env = yolah.VectorEnv(1)
    rng = random.Random(1)
    passes = 0
    for _ in range(3000):
        masks = env.action_masks
        if masks[0].sum() == 1 and masks[0][0]:
            passes += 1
        env.step(random_actions(masks, rng))
    assert passes > 0


def test_bad_input_is_refused_and_no_game_moves():
    env = yolah.VectorEnv(4, random_plies=2, seed=1)
    before = [p.notation() for p in env.positions()]
    observations = env.observations.copy()
    legal = [int(np.flatnonzero(row)[0]) for row in env.action_masks]
    for actions, message in [
        (legal[:3], "one action for each of the 4 games"),
        ([*legal[:2], 4096, legal[3]], "game 2: action 4096 is not a move"),
        ([*legal[:3], -1], "game 3: action -1 is not a move"),
        ([legal[0], 64 * 9 + 9, *legal[2:]], "game 1: action 585 is not a move"),
        ([*legal[:3], yolah.move_to_action("h8:a1")], r"game 3: action 4032 \(h8:a1\) is not legal there"),
        (["x"] * 4, "actions must be integers"),
        (np.array(legal, dtype=np.float64) + 0.7, "actions must be integers, not float64"),
        (np.array([2**64 - 1] * 4, dtype=np.uint64), "fit in int64"),
    ]:
        with pytest.raises(ValueError, match=message):
            env.step(actions)
        assert [p.notation() for p in env.positions()] == before
        assert (env.observations == observations).all()
    for arguments, message in [
        ({"n": 0}, "1 to 1048576 games"),
        ({"n": 2**20 + 1}, "1 to 1048576 games"),
        ({"n": 1, "random_plies": 41}, "0 to 40"),
        ({"n": 1, "random_plies": -1}, "0 to 40"),
        ({"n": 1, "rewards": "points"}, "'wdl' or 'margin'"),
    ]:
        with pytest.raises(ValueError, match=message):
            yolah.VectorEnv(**arguments)
