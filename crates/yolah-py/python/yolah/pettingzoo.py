"""Yolah as a PettingZoo AEC environment, as PettingZoo's classic board games are.

``yolah.pettingzoo.env()`` makes it: agents ``"black"`` (who moves first) and ``"white"``; an
action is :func:`yolah.move_to_action`'s (``from * 64 + to``, 4096 of them, the pass 0); each
observation is a dict with ``"observation"`` (:meth:`yolah.Position.observation`, float32
7 × 8 × 8) and ``"action_mask"`` (int8, 4096: the legal actions of the agent to move, all zero
for the other). Rewards come at the end: +1 to the winner and −1 to the loser (0 each on a
draw), or with ``rewards="margin"`` the final margin in points. ``render_mode="ansi"`` returns
the board as ``yolah show`` draws it; ``"rgb_array"`` a 256 × 256 × 3 picture. The rules are
the Rust engine's. PettingZoo is an optional extra: ``pip install './crates/yolah-py[pettingzoo]'``.
"""

import numpy as _np
from gymnasium import spaces as _spaces
from pettingzoo import AECEnv as _AECEnv  # type: ignore  # PettingZoo ships no type information
from pettingzoo.utils import wrappers as _wrappers  # type: ignore

from . import Position as _Position
from ._yolah import NUM_ACTIONS as _NUM_ACTIONS
from ._yolah import OBSERVATION_SHAPE as _OBSERVATION_SHAPE

__all__ = ["env", "raw_env"]


def env(**kwargs):
    """The environment with PettingZoo's usual wrappers (an illegal action ends the game with
    −1 for its player; actions outside the space are refused; the call order is enforced)."""
    environment = raw_env(**kwargs)
    environment = _wrappers.TerminateIllegalWrapper(environment, illegal_reward=-1)
    environment = _wrappers.AssertOutOfBoundsWrapper(environment)
    return _wrappers.OrderEnforcingWrapper(environment)


class raw_env(_AECEnv):  # noqa: N801 (PettingZoo's name for the unwrapped class)
    """The unwrapped environment."""

    metadata = {
        "render_modes": ["ansi", "rgb_array"],
        "name": "yolah_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(self, render_mode=None, rewards="wdl"):
        super().__init__()
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        if rewards not in ("wdl", "margin"):
            raise ValueError(f"rewards must be 'wdl' or 'margin', not {rewards!r}")
        self.render_mode = render_mode
        self._margin = rewards == "margin"
        self.possible_agents = ["black", "white"]
        self.agents = self.possible_agents[:]
        self.action_spaces = {a: _spaces.Discrete(_NUM_ACTIONS) for a in self.possible_agents}
        self.observation_spaces = {
            a: _spaces.Dict(
                {
                    "observation": _spaces.Box(0.0, 1.0, _OBSERVATION_SHAPE, _np.float32),
                    "action_mask": _spaces.Box(0, 1, (_NUM_ACTIONS,), _np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.position = _Position()

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def observe(self, agent):
        if agent not in self.possible_agents:
            raise ValueError(f"no agent {agent!r} in this game: the agents are 'black', 'white'")
        if agent == self.agent_selection and not self.position.game_over():
            mask = self.position.legal_action_mask().astype(_np.int8)
        else:
            mask = _np.zeros(_NUM_ACTIONS, _np.int8)
        return {"observation": self.position.observation(), "action_mask": mask}

    def reset(self, seed=None, options=None):
        self.position = _Position()
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.position.side_to_move()

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        self._cumulative_rewards[agent] = 0
        self.position.play_action(int(action))
        if self.position.game_over():
            black, white = self.position.scores()
            value = float(black - white) if self._margin else float(_np.sign(black - white))
            self.rewards = {"black": value, "white": -value}
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.rewards = dict.fromkeys(self.agents, 0)
        self.agent_selection = self.position.side_to_move()
        self._accumulate_rewards()

    def render(self):
        if self.render_mode == "ansi":
            return str(self.position)
        if self.render_mode == "rgb_array":
            return _picture(self.position)
        return None

    def close(self):
        pass


def _picture(position):
    """A 256 × 256 × 3 uint8 picture: light and dark squares, holes near black, black and white
    discs; rank 8 at the top."""
    side = 32
    image = _np.zeros((8 * side, 8 * side, 3), _np.uint8)
    black, white, holes = position.bitboards()
    y, x = _np.mgrid[0:side, 0:side]
    disc = (x - side / 2 + 0.5) ** 2 + (y - side / 2 + 0.5) ** 2 <= (side * 0.38) ** 2
    for rank in range(8):
        for file in range(8):
            bit = 1 << (8 * rank + file)
            top, left = (7 - rank) * side, file * side
            cell = image[top : top + side, left : left + side]
            cell[:] = (232, 217, 181) if (rank + file) % 2 else (181, 136, 99)
            if holes & bit:
                cell[:] = (59, 59, 59)
            elif black & bit:
                cell[disc] = (17, 17, 17)
            elif white & bit:
                cell[disc] = (250, 250, 250)
    return image
