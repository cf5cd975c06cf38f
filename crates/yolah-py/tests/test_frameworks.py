"""OpenSpiel and PettingZoo on Yolah: their own checks, their bots against ours."""

from __future__ import annotations

import numpy as np
import pytest
import yolah

pyspiel = pytest.importorskip("pyspiel", reason="the OpenSpiel extra is not installed")


def test_openspiel_loads_the_game_and_its_random_simulations_pass():
    import yolah.openspiel  # noqa: F401 (registers the game)

    game = pyspiel.load_game("yolah")
    assert game.num_distinct_actions() == 4096
    assert game.observation_tensor_shape() == [7, 8, 8]
    state = game.new_initial_state()
    assert state.current_player() == 0
    assert len(state.legal_actions()) == 56
    np.testing.assert_array_equal(
        np.reshape(state.observation_tensor(0), (7, 8, 8)), yolah.Position().observation()
    )
    # OpenSpiel's own test: random games, legal actions, returns, cloning, the tensors.
    pyspiel.random_sim_test(game, num_sims=30, serialize=False, verbose=False)
    margin = pyspiel.load_game("yolah", {"returns": "margin"})
    state = margin.new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    black, white = state.position.scores()
    assert state.returns() == [black - white, white - black]
    with pytest.raises(Exception, match="returns"):
        pyspiel.load_game("yolah", {"returns": "points"})


def test_openspiel_mcts_plays_a_whole_game_against_our_minimax():
    from open_spiel.python.algorithms import evaluate_bots, mcts

    import yolah.openspiel

    game = pyspiel.load_game("yolah")
    rng = np.random.RandomState(7)
    theirs = mcts.MCTSBot(game, 1.4, 50, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    ours = yolah.openspiel.bot("minimax:depth=2")
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), [ours, theirs], rng)
    assert returns[0] == -returns[1] and returns[0] in (-1.0, 0.0, 1.0)
    # Our bot's move is our player's move.
    state = game.new_initial_state()
    expected = yolah.think("minimax:depth=2", yolah.Position())["move"]
    assert yolah.action_to_move(ours.step(state)) == expected


def test_pettingzoo_api_test_passes_and_a_game_ends_with_rewards():
    pytest.importorskip("pettingzoo", reason="the PettingZoo extra is not installed")
    from pettingzoo.test import api_test

    import yolah.pettingzoo

    api_test(yolah.pettingzoo.env(), num_cycles=300, verbose_progress=False)
    env = yolah.pettingzoo.env(render_mode="ansi", rewards="margin")
    env.reset(seed=1)
    total = {"black": 0.0, "white": 0.0}
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        total[agent] += reward
        if terminated or truncated:
            action = None
        else:
            action = int(np.flatnonzero(observation["action_mask"])[0])
        env.step(action)
    position = env.unwrapped.position
    black, white = position.scores()
    assert total == {"black": black - white, "white": white - black}
    assert "● black" in env.render()
    picture = yolah.pettingzoo.raw_env(render_mode="rgb_array")
    picture.reset()
    image = picture.render()
    assert image.shape == (256, 256, 3) and image.dtype == np.uint8
    # Issue 42: an agent that is not in the game is refused, not observed.
    with pytest.raises(ValueError, match="'purple'.*'black', 'white'"):
        picture.observe("purple")
