"""Speed of the Python bindings beside the same work in plain Python (``pure_rules.py``).

    python crates/yolah-py/bench/bench.py [--games N]

Prints, for each, the rate in one run (the machine's load affects both alike):
- rules: calls per second of ``moves`` + ``play`` + ``undo`` along random games (each game
  played to its end with random moves, then taken back move by move);
- planes: positions per second turned into ``(3, 8, 8)`` planes, one position at a time
  (``Position.planes``), in one call (``planes_batch``), and from data records
  (``record_planes``), against plain Python building the same arrays from its board;
- masks and observations: positions per second, one at a time and batched
  (``legal_action_masks``, ``observations``), against plain Python building them from
  ``moves()`` and ``planes()``;
- vectorised environment: game steps per second of ``VectorEnv(1024)`` (observations and
  masks out, every game's action chosen from its mask by numpy) against PettingZoo's AEC loop
  (when installed) doing the same work, one game and one agent at a time;
- OpenSpiel (when installed): random simulations per second of ``"yolah"`` against OpenSpiel's
  Python games (``python_tic_tac_toe`` has 9 actions and at most 9 plies; Yolah 4096 and 112).
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np
import pure_rules
import yolah


def random_game_calls(new_board, games: int, seed: int) -> tuple[int, float]:
    """Calls made and seconds taken to play `games` random games and take them back."""
    rng = random.Random(seed)
    calls = 0
    start = time.perf_counter()
    for _ in range(games):
        board = new_board()
        played = 0
        while True:
            moves = board.moves()
            calls += 1
            if not moves:
                break
            board.play(rng.choice(moves))
            played += 1
            calls += 1
        for _ in range(played):
            board.undo()
            calls += 1
    return calls, time.perf_counter() - start


def positions(count: int, seed: int) -> tuple[list[yolah.Position], list[pure_rules.Board]]:
    """The same positions along random games, for both implementations."""
    rng = random.Random(seed)
    ours, theirs = [], []
    while len(ours) < count:
        position, board = yolah.Position(), pure_rules.Board()
        while len(ours) < count and position.moves():
            move = rng.choice(position.moves())
            position.play(move)
            board.play(move)
            ours.append(position.copy())
            copy = pure_rules.Board()
            copy.cells, copy.ply = list(board.cells), board.ply
            theirs.append(copy)
    return ours, theirs


def pure_planes(board: pure_rules.Board) -> np.ndarray:
    """What a user would write: the planes from a list of 64 cells."""
    cells = np.array(board.cells, dtype=np.uint8).reshape(8, 8)
    return np.stack([cells == pure_rules.BLACK, cells == pure_rules.WHITE,
                     cells == pure_rules.HOLE]).astype(np.uint8)


def rate(work, count: int) -> float:
    start = time.perf_counter()
    work()
    return count / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200, help="random games per side (1 to 100000)")
    parser.add_argument("--positions", type=int, default=20000, help="positions for planes (1 to 10**6)")
    args = parser.parse_args()
    if not 1 <= args.games <= 100_000 or not 1 <= args.positions <= 1_000_000:
        parser.error("--games must be from 1 to 100000 and --positions from 1 to 1000000")

    calls, seconds = random_game_calls(yolah.Position, args.games, seed=1)
    ours = calls / seconds
    calls, seconds = random_game_calls(pure_rules.Board, max(1, args.games // 10), seed=1)
    theirs = calls / seconds
    print(f"rules   yolah {ours:12,.0f} calls/s   pure Python {theirs:10,.0f} calls/s   "
          f"ratio {ours / theirs:6.1f}")

    ours_positions, boards = positions(args.positions, seed=2)
    notations = [p.notation() for p in ours_positions]
    bb = [p.bitboards() for p in ours_positions]
    records = np.zeros(len(bb), dtype=yolah.RECORD_DTYPE)
    records["black"], records["white"], records["holes"] = zip(*bb)
    assert (yolah.record_planes(records) == yolah.planes_batch(ours_positions)).all()
    assert all((pure_planes(b) == p.planes()).all() for b, p in zip(boards[:100], ours_positions))
    n = len(notations)
    theirs = rate(lambda: [pure_planes(b) for b in boards], n)
    for name, work in [
        ("Position.planes", lambda: [p.planes() for p in ours_positions]),
        ("planes_batch(notations)", lambda: yolah.planes_batch(notations)),
        ("planes_batch(positions)", lambda: yolah.planes_batch(ours_positions)),
        ("record_planes(records)", lambda: yolah.record_planes(records)),
    ]:
        ours = rate(work, n)
        print(f"planes  {name:24} {ours:12,.0f} positions/s   pure Python {theirs:10,.0f}   "
              f"ratio {ours / theirs:6.1f}")


    # Masks and observations: what a policy network's input pipeline needs.
    def python_mask(position: yolah.Position) -> np.ndarray:
        mask = np.zeros(4096, dtype=bool)
        for move in position.moves():
            a, b = move.split(":")
            square = lambda s: (int(s[1]) - 1) * 8 + ord(s[0]) - ord("a")
            mask[square(a) * 64 + square(b)] = True
        return mask

    def python_observation(position: yolah.Position) -> np.ndarray:
        planes = position.planes().astype(np.float32)
        black, white = position.scores()
        extra = np.ones((3, 8, 8), np.float32) * np.array(
            [position.side_to_move() == "black", black / 64, white / 64], np.float32)[:, None, None]
        return np.concatenate([planes, 1 - planes.sum(0, keepdims=True), extra])

    sample = ours_positions[: min(n, 20000)]
    assert (python_mask(sample[5]) == sample[5].legal_action_mask()).all()
    assert (python_observation(sample[5]) == sample[5].observation()).all()
    m = len(sample)
    for what, python, one, batch in [
        ("masks", python_mask, lambda p: p.legal_action_mask(), yolah.legal_action_masks),
        ("observations", python_observation, lambda p: p.observation(), yolah.observations),
    ]:
        theirs = rate(lambda: [python(p) for p in sample], m)
        for name, work in [(f"{what}, one at a time", lambda: [one(p) for p in sample]),
                           (f"{what}, batched", lambda: batch(sample))]:
            ours = rate(work, m)
            print(f"actions {name:24} {ours:12,.0f} positions/s   Python loop {theirs:10,.0f}   "
                  f"ratio {ours / theirs:6.1f}")

    vector_env_rate(args.games)

    try:
        import importlib

        import pyspiel
        importlib.import_module("yolah.openspiel")  # registers "yolah"
    except ImportError:
        print("openspiel: not installed (pip install './crates/yolah-py[openspiel]')")
        return
    from open_spiel.python.games import tic_tac_toe  # noqa: F401  (registers python_tic_tac_toe)

    for name in ["yolah", "python_tic_tac_toe", "tic_tac_toe"]:
        game = pyspiel.load_game(name)
        rng = random.Random(3)
        sims = max(1, args.games)
        start = time.perf_counter()
        plies = 0
        for _ in range(sims):
            state = game.new_initial_state()
            while not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
                plies += 1
        seconds = time.perf_counter() - start
        print(f"openspiel {name:20} {sims / seconds:10,.0f} games/s {plies / seconds:12,.0f} plies/s")


def vector_env_rate(games: int) -> None:
    """Game steps a second: VectorEnv against a PettingZoo loop, both playing each game's first
    legal action (the same games, so the same work)."""
    n, steps = 1024, max(10, min(200, games))
    env = yolah.VectorEnv(n)
    start = time.perf_counter()
    for _ in range(steps):
        observations, masks, rewards, terminations = env.step(masks_argmax(env.action_masks))
    ours = n * steps / (time.perf_counter() - start)
    try:
        import yolah.pettingzoo as zoo
    except ImportError:
        print(f"vector  VectorEnv(1024) {ours:12,.0f} steps/s   "
              "pettingzoo: not installed (pip install './crates/yolah-py[pettingzoo]')")
        return
    single = zoo.env()
    single.reset()
    done, todo = 0, max(2000, n * steps // 20)
    start = time.perf_counter()
    while done < todo:
        observation, reward, termination, truncation, info = single.last()
        if termination or truncation:
            single.reset()
            continue
        single.step(int(np.argmax(observation["action_mask"])))
        done += 1
    theirs = done / (time.perf_counter() - start)
    print(f"vector  VectorEnv(1024) {ours:12,.0f} steps/s   PettingZoo loop {theirs:10,.0f}   "
          f"ratio {ours / theirs:6.1f}")


def masks_argmax(masks: np.ndarray) -> np.ndarray:
    """Each game's first legal action."""
    return masks.argmax(axis=1)


if __name__ == "__main__":
    main()
