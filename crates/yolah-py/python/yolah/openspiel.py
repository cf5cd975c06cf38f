"""Yolah as an OpenSpiel game, and any Yolah player as an OpenSpiel bot.

``import yolah.openspiel`` registers the Python game ``"yolah"`` with ``pyspiel``, so that
``pyspiel.load_game("yolah")`` works and OpenSpiel's tools (its MCTS bot, ``evaluate_bots``,
its AlphaZero) run on it. The rules are the Rust engine's: a state holds a
:class:`yolah.Position`; actions are :func:`yolah.move_to_action`'s (``from * 64 + to``, the
pass 0); the observation tensor is :meth:`yolah.Position.observation` (7 × 8 × 8).

Game parameters (``pyspiel.load_game("yolah", {"returns": "margin"})``):

- ``returns``: ``"wdl"`` (default) gives +1 / 0 / −1 to the winner / both on a draw / the loser;
  ``"margin"`` gives the final margin in points (black's score − white's for black, the
  opposite for white).

Player 0 is black (who moves first), player 1 white. OpenSpiel is an optional extra:
``pip install './crates/yolah-py[openspiel]'``. Guide: ``docs/python.md``.
"""

import numpy as _np
import pyspiel as _pyspiel  # type: ignore  # OpenSpiel ships no type information

from . import Player as _Player
from . import Position as _Position
from . import action_to_move as _action_to_move
from . import move_to_action as _move_to_action
from ._yolah import NUM_ACTIONS as _NUM_ACTIONS
from ._yolah import OBSERVATION_SHAPE as _OBSERVATION_SHAPE

__all__ = ["GAME_NAME", "MAX_GAME_LENGTH", "YolahGame", "YolahState", "bot"]

GAME_NAME = "yolah"
#: Each move but a pass fills one of the 56 free squares; passes come only while one side
#: still moves, and the game ends when neither can: at most 56 moves and 56 passes.
MAX_GAME_LENGTH = 112

_GAME_TYPE = _pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Yolah",
    dynamics=_pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=_pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=_pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=_pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=_pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"returns": "wdl"},
)


def _game_info(returns: str) -> "_pyspiel.GameInfo":
    bound = 1.0 if returns == "wdl" else 60.0
    return _pyspiel.GameInfo(
        num_distinct_actions=_NUM_ACTIONS,
        max_chance_outcomes=0,
        num_players=2,
        min_utility=-bound,
        max_utility=bound,
        utility_sum=0.0,
        max_game_length=MAX_GAME_LENGTH,
    )


class YolahGame(_pyspiel.Game):
    """The game: two players, 4096 actions, returns as the ``returns`` parameter says."""

    def __init__(self, params=None):
        params = dict(params or {})
        returns = params.get("returns", "wdl")
        if returns not in ("wdl", "margin"):
            raise ValueError(f"yolah: returns must be 'wdl' or 'margin', not {returns!r}")
        super().__init__(_GAME_TYPE, _game_info(returns), {"returns": returns})

    def new_initial_state(self, state=None):
        """The start, or the position whose notation is ``state``."""
        return YolahState(self, state)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """The observer: the observation tensor and string (perfect information)."""
        return _Observer(params)


class YolahState(_pyspiel.State):
    """A state: the Rust position, and the game's kind of returns."""

    def __init__(self, game, notation=None):
        super().__init__(game)
        self.position = _Position(notation) if notation else _Position()
        # From the parameters, not an attribute: a game sent to another process (OpenSpiel's
        # AlphaZero actors) is rebuilt from its parameters.
        self._margin = game.get_parameters().get("returns") == "margin"

    def current_player(self):
        """0 (black) or 1 (white) to move, or ``TERMINAL``."""
        if self.position.game_over():
            return _pyspiel.PlayerId.TERMINAL
        return 0 if self.position.side_to_move() == "black" else 1

    def _legal_actions(self, player):
        return self.position.legal_actions()

    def _apply_action(self, action):
        self.position.play_action(action)

    def _action_to_string(self, player, action):
        return _action_to_move(action)

    def is_terminal(self):
        return self.position.game_over()

    def returns(self):
        """[black's, white's]: 0 before the end."""
        if not self.position.game_over():
            return [0.0, 0.0]
        black, white = self.position.scores()
        value = float(black - white) if self._margin else float(_np.sign(black - white))
        return [value, -value]

    def __str__(self):
        return self.position.notation()


class _Observer:
    """The observation of a state: :meth:`yolah.Position.observation`, the same for both."""

    def __init__(self, params):
        if params:
            raise ValueError(f"yolah: observation parameters are not supported: {params}")
        self.tensor = _np.zeros(int(_np.prod(_OBSERVATION_SHAPE)), _np.float32)
        self.dict = {"observation": self.tensor.reshape(_OBSERVATION_SHAPE)}

    def set_from(self, state, player):
        self.tensor[:] = state.position.observation().ravel()

    def string_from(self, state, player):
        return state.position.notation()


class _Bot(_pyspiel.Bot):
    """One of our players as an OpenSpiel bot."""

    def __init__(self, spec, seed):
        _pyspiel.Bot.__init__(self)
        self._player = _Player(spec, seed)

    def step(self, state):
        return _move_to_action(self._player.think(state.position)["move"])

    def restart_at(self, state):
        pass

    def inform_action(self, state, player_id, action):
        pass


def bot(spec="minimax:time=100ms", seed=None):
    """Any Yolah player (a spec, as ``yolah players`` lists them) as an OpenSpiel bot: its
    ``step(state)`` returns the action the player chooses."""
    return _Bot(spec, seed)


_pyspiel.register_game(_GAME_TYPE, YolahGame)
