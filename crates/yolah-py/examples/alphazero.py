"""OpenSpiel's AlphaZero (JAX/flax) trained briefly on Yolah, then its bot against a random one.

    pip install './crates/yolah-py[openspiel]' jax flax optax chex
    python crates/yolah-py/examples/alphazero.py --path /tmp/az --max_steps 40

The learner's losses are in PATH/learner.jsonl (one line a step); at the end the untrained
network (checkpoint 0) and the trained one each play GAMES games (colours alternating) against a
uniformly random bot, through OpenSpiel's MCTS with the network as its evaluator.
``--skip_training`` plays the checkpoints of an earlier run again. Numbers: docs/notebook.md.
"""

import json
import pathlib

import numpy as np
from absl import app, flags
from open_spiel.python.algorithms import evaluate_bots, mcts
from open_spiel.python.algorithms.alpha_zero import alpha_zero, utils
from open_spiel.python.algorithms.alpha_zero import evaluator as evaluator_lib
from open_spiel.python.bots import uniform_random
from open_spiel.python.utils import spawn

import pyspiel
import yolah.openspiel  # noqa: F401  (registers "yolah"; also in the spawned processes)

flags.DEFINE_string("path", "/tmp/yolah-az", "Where the checkpoints and logs go.")
flags.DEFINE_integer("max_steps", 30, "Learner steps.")
flags.DEFINE_integer("simulations", 20, "MCTS simulations a move.")
flags.DEFINE_integer("buffer", 2**10, "Replay buffer size; a step waits for a quarter of it.")
flags.DEFINE_integer("games", 20, "Games of the trained bot against a random one.")
flags.DEFINE_bool("skip_training", False, "Only play the checkpoints of an earlier run.")
flags.DEFINE_integer("eval_step", None, "The checkpoint to play (default: the last step); -1 is "
                     "the latest weights of a run still going.")
FLAGS = flags.FLAGS

MODEL = {"nn_model": "mlp", "nn_width": 128, "nn_depth": 2}


def config():
    game = pyspiel.load_game("yolah")
    return alpha_zero.Config(
        game="yolah", path=FLAGS.path, learning_rate=1e-3, weight_decay=1e-4,
        decouple_weight_decay=False, train_batch_size=128, replay_buffer_size=FLAGS.buffer,
        replay_buffer_reuse=4, max_steps=FLAGS.max_steps, checkpoint_freq=FLAGS.max_steps,
        actors=1, evaluators=0, evaluation_window=10, eval_levels=2, uct_c=1.4,
        max_simulations=FLAGS.simulations, policy_alpha=1.0, policy_epsilon=0.25,
        temperature=1.0, temperature_drop=10, observation_shape=game.observation_tensor_shape(),
        output_size=game.num_distinct_actions(), quiet=True, verbose=False,
        nn_api_version="linen", **MODEL)


def score_against_random(game, cfg, step, rng):
    """Points of MCTS with the checkpoint of `step` as evaluator against a random bot."""
    model = utils.api_selector("linen").Model.build_model(
        MODEL["nn_model"], cfg.observation_shape, cfg.output_size, MODEL["nn_width"],
        MODEL["nn_depth"], cfg.weight_decay, cfg.learning_rate, FLAGS.path)
    model.load_checkpoint(step)
    bot = mcts.MCTSBot(game, cfg.uct_c, FLAGS.simulations,
                       evaluator_lib.AlphaZeroEvaluator(game, model), random_state=rng)
    score = 0.0
    for i in range(FLAGS.games):
        # The random bot asks for its own player's actions: give it the seat it plays.
        random_bot = uniform_random.UniformRandomBot(1 - i % 2, rng)
        bots = [bot, random_bot] if i % 2 == 0 else [random_bot, bot]
        returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
        score += (returns[i % 2] + 1) / 2
    return score


def main(_):
    cfg = config()
    if not FLAGS.skip_training:
        alpha_zero.alpha_zero(cfg)
    log = [json.loads(line) for line in pathlib.Path(FLAGS.path, "learner.jsonl").open()]
    losses = [entry["loss"]["policy"] + entry["loss"]["value"] for entry in log]
    print("policy + value loss by step:", " ".join(f"{x:.3f}" for x in losses))
    game = pyspiel.load_game("yolah")
    rng = np.random.RandomState(1)
    last = FLAGS.max_steps if FLAGS.eval_step is None else FLAGS.eval_step
    for step in (0, last):
        score = score_against_random(game, cfg, step, rng)
        print(f"checkpoint {step} (MCTS {FLAGS.simulations} simulations) vs random: "
              f"{score:g} / {FLAGS.games}")


if __name__ == "__main__":
    with spawn.main_handler():
        app.run(main)
