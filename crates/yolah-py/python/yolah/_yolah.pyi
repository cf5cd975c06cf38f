"""Type stubs of the native module (Rust, pyo3); ``yolah`` re-exports everything here."""

from collections.abc import Callable, Iterable
from os import PathLike
from typing import Literal, TypedDict, final

import numpy as np
import numpy.typing as npt

__all__ = [
    "Explorer",
    "NUM_ACTIONS",
    "Network",
    "OBSERVATION_SHAPE",
    "PLAYERS",
    "Player",
    "Position",
    "RECORD_DTYPE",
    "START",
    "VectorEnv",
    "action_to_move",
    "legal_action_masks",
    "move_to_action",
    "observations",
    "perft",
    "planes_batch",
    "puct",
    "random_games",
    "read_data",
    "selfplay",
    "think",
]

PLAYERS: list[str]
"""The players' names, as specs start: ``random``, ``montecarlo``, ``mcts``, ``minimax``, ``engine``."""
RECORD_DTYPE: np.dtype
"""The dtype of a training-data record: the file's 32 bytes, field for field."""
START: str
"""The start position's notation."""
NUM_ACTIONS: int
"""4096: an action is ``from * 64 + to`` (squares ``8 * rank + file``, a1 = 0); the pass is 0."""
OBSERVATION_SHAPE: tuple[int, int, int]
"""``(7, 8, 8)``: the shape of ``Position.observation()``."""

_Side = Literal["black", "white"]
_PositionLike = Position | str

class _Line(TypedDict):
    """One of a search's best lines (``lines=N``): its moves and what they lead to."""

    margin: float
    """Final margin in points for the side to move; exact when ``proved``."""
    proved: bool
    value: float
    """Expected score for the side to move, 0 (loss) to 1 (win)."""
    pv: list[str]

class _Report(TypedDict):
    """What a player says of its move: the keys of ``yolah think --json``."""

    player: str
    move: str
    value: float | None
    """Expected score for the side to move, 0 (loss) to 1 (win)."""
    margin: float | None
    """Expected final margin in points for the side to move (minimax)."""
    proved: bool | None
    depth: int | None
    iterations: int
    nodes: int | None
    time_ms: float
    pv: list[str]
    lines: list[_Line]
    """The best lines, best first, with ``lines=N`` (minimax's multi-PV); else empty."""
    book: bool
    """Whether the move came from the opening book (minimax), not from a search."""
    detail: str

@final
class Position:
    """A Yolah position, the start by default; also the moves played on it, for ``undo``."""

    def __new__(cls, notation: str | None = None) -> Position:
        """From notation (``yolah show`` prints it) or ``"startpos"``; ``ValueError`` if bad."""
    @staticmethod
    def from_bitboards(
        black: int, white: int, holes: int, black_points: int, white_points: int, ply: int
    ) -> Position:
        """From bitboards (bit ``8 * rank + file``, a1 = bit 0), points and ply; checked."""
    def moves(self) -> list[str]:
        """Legal moves, sorted as ``yolah moves`` prints them; ``["a1:a1"]`` to pass; none at the end."""
    def play(self, move: str) -> None:
        """Plays ``move`` (``"e4:g2"``, ``"a1:a1"`` to pass); ``ValueError`` if illegal."""
    def undo(self) -> str:
        """Takes back the last move played on this object and returns it."""
    def history(self) -> list[str]:
        """The moves played on this object, oldest first."""
    def copy(self) -> Position: ...
    def __copy__(self) -> Position: ...
    def __deepcopy__(self, memo: object) -> Position: ...
    def notation(self) -> str: ...
    def side_to_move(self) -> _Side: ...
    def ply(self) -> int:
        """Moves played since the start by both sides, passes included."""
    def scores(self) -> tuple[int, int]:
        """``(black's points, white's points)``."""
    def game_over(self) -> bool: ...
    def result(self) -> Literal["black", "white", "draw"] | None:
        """The winner, or ``"draw"``, once the game is over; ``None`` before."""
    def bitboards(self) -> tuple[int, int, int]:
        """``(black, white, holes)``, bit ``8 * rank + file``."""
    def hash(self) -> int:
        """The engine's 64-bit Zobrist hash."""
    def transformed(self, k: int) -> Position:
        """The image under symmetry ``k`` (0–7): bit 2 transposes, then bit 0 mirrors files, bit 1 ranks."""
    def legal_actions(self) -> list[int]:
        """The legal moves as actions (``from * 64 + to``), ascending; ``[0]`` to pass."""
    def legal_action_mask(self) -> npt.NDArray[np.bool_]:
        """A bool array of 4096, true at the legal actions."""
    def play_action(self, action: int) -> None:
        """Plays an action; ``ValueError`` if it is not legal here."""
    def observation(self) -> npt.NDArray[np.float32]:
        """float32 ``(7, 8, 8)``: black, white, holes, free, black to move, points / 64."""
    @property
    def legal_moves(self) -> list[str]:
        """The legal moves (python-chess's name), as ``moves()``."""
    def push(self, move: str) -> None:
        """Plays a move (python-chess's name for ``play``)."""
    def pop(self) -> str:
        """Takes back the last move (python-chess's name for ``undo``)."""
    @property
    def turn(self) -> _Side:
        """Whose turn it is (python-chess's name for ``side_to_move()``)."""
    def is_game_over(self) -> bool:
        """Whether neither side can move (python-chess's name for ``game_over()``)."""
    def _repr_svg_(self) -> str:
        """The board as SVG, for notebooks."""
    def _repr_html_(self) -> str:
        """The board as SVG with the notation and scores, for notebooks."""
    def planes(self) -> npt.NDArray[np.uint8]:
        """``(3, 8, 8)``: black, white, holes; ``[rank][file]``, rank 1 first."""
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class Player:
    """A player kept across the moves of a game (tree and table reuse); one game at a time,
    in one thread at a time (another thread's call raises ``RuntimeError``: give each thread
    its own)."""

    def __new__(cls, spec: str, seed: int | None = None) -> Player:
        """The player ``spec`` (``"mcts:iterations=20000"``); ``ValueError`` if bad."""
    @property
    def spec(self) -> str: ...
    def think(self, position: _PositionLike) -> _Report:
        """Chooses a move; the interpreter is released while it searches."""

def think(spec: str, position: _PositionLike | None = None, seed: int | None = None) -> _Report:
    """Lets a new player ``spec`` choose in ``position`` (the start by default)."""

class _Puct(TypedDict):
    move: str
    value: float
    visits: dict[str, int]
    policy: npt.NDArray[np.float32]
    full: bool

def puct(
    position: _PositionLike,
    evaluate: Callable[
        [npt.NDArray[np.float32], npt.NDArray[np.bool_]],
        tuple[npt.ArrayLike, npt.ArrayLike],
    ],
    visits: int = 800,
    c: float = 1.5,
    batch: int = 16,
    noise: float = 0.0,
    seed: int = 1,
) -> _Puct:
    """PUCT search whose leaves ``evaluate(observations, masks) -> (logits, values)`` values."""
def perft(position: _PositionLike, depth: int) -> int:
    """Leaves of the game tree ``depth`` plies below ``position`` (at most 20)."""

def random_games(n: int, seed: int = 1, threads: int | None = None) -> dict[str, int]:
    """``n`` random games from the start: ``games``, ``black_wins``, ``white_wins``, ``draws``."""

def planes_batch(positions: Iterable[_PositionLike]) -> npt.NDArray[np.uint8]:
    """``(n, 3, 8, 8)`` planes of many positions in one call."""

def read_data(path: str | PathLike[str]) -> npt.NDArray[np.void]:
    """A self-play data file as an array of ``RECORD_DTYPE``, a record per position."""
def move_to_action(move: str) -> int:
    """The action of a move: ``from * 64 + to``; ``"a1:a1"`` (the pass) is 0."""
def action_to_move(action: int) -> str:
    """The move of an action, in notation; ``ValueError`` for a number that is no move."""
def legal_action_masks(positions: Iterable[_PositionLike]) -> npt.NDArray[np.bool_]:
    """The legal-action masks of many positions: bool, shape ``(n, 4096)``."""
def observations(positions: Iterable[_PositionLike]) -> npt.NDArray[np.float32]:
    """The observations of many positions: float32, shape ``(n, 7, 8, 8)``."""

class _Shape(TypedDict):
    hidden: int
    second: int
    third: int
    buckets: int
    features: bool

class _ExplorerMove(TypedDict):
    move: str
    games: int
    black: int
    draws: int
    white: int
    score: float
    book: bool

@final
class Explorer:
    """An opening explorer's database (``yolah explorer build``), read once and checked."""

    def __new__(cls, path: str | PathLike[str]) -> Explorer:
        """``FileNotFoundError`` if there is none, ``ValueError`` if it is not one or is damaged."""
    @property
    def games(self) -> int:
        """The games it was built from."""
    def __len__(self) -> int:
        """Its (position, move) entries."""
    def moves(self, position: _PositionLike) -> list[_ExplorerMove]:
        """The moves played from ``position``, the most played first."""

@final
class Network:
    """A network of the engine's architecture, as numpy arrays both ways."""

    @staticmethod
    def load(path: str | PathLike[str]) -> Network:
        """Reads a ``.yolahnet`` file; ``ValueError`` if it is not one, ``FileNotFoundError``
        if there is none."""
    @staticmethod
    def shipped() -> Network:
        """The network shipped with the engine."""
    @staticmethod
    def from_arrays(arrays: dict[str, npt.ArrayLike], epochs: int = 0) -> Network:
        """From ``W1 b1 W2 D2 b2 W3 b3 w s b`` (``docs/python.md`` has their shapes)."""
    def arrays(self) -> dict[str, npt.NDArray[np.float32]]:
        """The arrays ``from_arrays`` takes, float32."""
    def save(self, path: str | PathLike[str]) -> None:
        """Writes a ``.yolahnet`` file (version 2)."""
    @property
    def shape(self) -> _Shape: ...
    @property
    def epochs(self) -> int: ...
    def forward(self, position: _PositionLike) -> float:
        """The float network: the rest of the game's margin for black, in points."""
    def evaluate(self, position: _PositionLike) -> float:
        """The engine's value: the final margin for the side to move, in points."""
def selfplay(
    spec: str, games: int, random_plies: int = 4, seed: int = 1, threads: int | None = None
) -> npt.NDArray[np.void]:
    """Self-play without files: the records ``yolah selfplay`` writes, as RECORD_DTYPE."""

_Step = tuple[
    npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.float32], npt.NDArray[np.bool_]
]

@final
class VectorEnv:
    """Many games stepped in one call; the arrays are rewritten in place at each step."""

    def __new__(
        cls, n: int, random_plies: int = 0, seed: int = 0, rewards: Literal["wdl", "margin"] = "wdl"
    ) -> VectorEnv:
        """``n`` games (1 to 2**20), each opened by ``random_plies`` random plies (0 to 40)."""
    def reset(self) -> _Step:
        """New games: ``(observations, action_masks, rewards, terminations)``."""
    def step(self, actions: npt.ArrayLike) -> _Step:
        """One action a game: ``(observations, action_masks, rewards, terminations)``."""
    def __len__(self) -> int: ...
    @property
    def observations(self) -> npt.NDArray[np.float32]:
        """float32 ``(n, 7, 8, 8)``."""
    @property
    def action_masks(self) -> npt.NDArray[np.bool_]:
        """bool ``(n, 4096)``."""
    @property
    def rewards(self) -> npt.NDArray[np.float32]:
        """float32 ``(n, 2)``: black's, white's, on the last step."""
    @property
    def terminations(self) -> npt.NDArray[np.bool_]:
        """bool ``(n,)``: the games that ended on the last step."""
    @property
    def to_play(self) -> npt.NDArray[np.uint8]:
        """uint8 ``(n,)``: 0 black to move, 1 white."""
    def positions(self) -> list[Position]:
        """The games' positions now (copies)."""
