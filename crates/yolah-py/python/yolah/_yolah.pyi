"""Type stubs of the native module (Rust, pyo3); ``yolah`` re-exports everything here."""

from collections.abc import Iterable
from os import PathLike
from typing import Literal, TypedDict, final

import numpy as np
import numpy.typing as npt

__all__ = [
    "PLAYERS",
    "Player",
    "Position",
    "RECORD_DTYPE",
    "START",
    "perft",
    "planes_batch",
    "random_games",
    "read_data",
    "think",
]

PLAYERS: list[str]
"""The players' names, as specs start: ``random``, ``montecarlo``, ``mcts``, ``minimax``, ``engine``."""
RECORD_DTYPE: np.dtype
"""The dtype of a training-data record: the file's 32 bytes, field for field."""
START: str
"""The start position's notation."""

_Side = Literal["black", "white"]
_PositionLike = Position | str

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
    def planes(self) -> npt.NDArray[np.uint8]:
        """``(3, 8, 8)``: black, white, holes; ``[rank][file]``, rank 1 first."""
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class Player:
    """A player kept across the moves of a game (tree and table reuse); one game at a time."""

    def __new__(cls, spec: str, seed: int | None = None) -> Player:
        """The player ``spec`` (``"mcts:iterations=20000"``); ``ValueError`` if bad."""
    @property
    def spec(self) -> str: ...
    def think(self, position: _PositionLike) -> _Report:
        """Chooses a move; the interpreter is released while it searches."""

def think(spec: str, position: _PositionLike | None = None, seed: int | None = None) -> _Report:
    """Lets a new player ``spec`` choose in ``position`` (the start by default)."""

def perft(position: _PositionLike, depth: int) -> int:
    """Leaves of the game tree ``depth`` plies below ``position`` (at most 20)."""

def random_games(n: int, seed: int = 1, threads: int | None = None) -> dict[str, int]:
    """``n`` random games from the start: ``games``, ``black_wins``, ``white_wins``, ``draws``."""

def planes_batch(positions: Iterable[_PositionLike]) -> npt.NDArray[np.uint8]:
    """``(n, 3, 8, 8)`` planes of many positions in one call."""

def read_data(path: str | PathLike[str]) -> npt.NDArray[np.void]:
    """A self-play data file as an array of ``RECORD_DTYPE``, a record per position."""
