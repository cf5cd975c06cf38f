"""The rules of Yolah in plain Python, as a user would write them without the engine.

Written for the comparison in ``bench.py`` (and checked against the engine by the tests'
perft): a list of 64 cells, queen moves walked ray by ray, moves as ``"e4:g2"`` strings.
"""

from __future__ import annotations

EMPTY, BLACK, WHITE, HOLE = 0, 1, 2, 3
PASS = "a1:a1"
DIRECTIONS = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]
NAMES = [f"{'abcdefgh'[s % 8]}{s // 8 + 1}" for s in range(64)]
SQUARES = {name: s for s, name in enumerate(NAMES)}
START = {"a1": BLACK, "e4": BLACK, "d5": BLACK, "h8": BLACK,
         "h1": WHITE, "d4": WHITE, "e5": WHITE, "a8": WHITE}


class Board:
    """A position: cells, points, ply, and the moves played (for undo)."""

    def __init__(self) -> None:
        self.cells = [EMPTY] * 64
        for name, piece in START.items():
            self.cells[SQUARES[name]] = piece
        self.points = [0, 0]
        self.ply = 0
        self.history: list[str] = []

    def side(self) -> int:
        return BLACK if self.ply % 2 == 0 else WHITE

    def _moves_of(self, piece: int) -> list[str]:
        cells = self.cells
        moves = []
        for square in range(64):
            if cells[square] != piece:
                continue
            file, rank = square % 8, square // 8
            for df, dr in DIRECTIONS:
                f, r = file + df, rank + dr
                while 0 <= f < 8 and 0 <= r < 8 and cells[8 * r + f] == EMPTY:
                    moves.append(f"{NAMES[square]}:{NAMES[8 * r + f]}")
                    f, r = f + df, r + dr
        return moves

    def game_over(self) -> bool:
        return not self._moves_of(BLACK) and not self._moves_of(WHITE)

    def moves(self) -> list[str]:
        """The legal moves, sorted; the pass alone when stuck; none once the game is over."""
        moves = self._moves_of(self.side())
        if moves:
            return sorted(moves)
        return [] if self.game_over() else [PASS]

    def play(self, move: str) -> None:
        if move not in self.moves():
            raise ValueError(f"{move} is illegal")
        if move != PASS:
            origin, target = (SQUARES[s] for s in move.split(":"))
            self.cells[target] = self.cells[origin]
            self.cells[origin] = HOLE
            self.points[self.ply % 2] += 1
        self.ply += 1
        self.history.append(move)

    def undo(self) -> str:
        move = self.history.pop()
        self.ply -= 1
        if move != PASS:
            origin, target = (SQUARES[s] for s in move.split(":"))
            self.cells[origin] = self.cells[target]
            self.cells[target] = EMPTY
            self.points[self.ply % 2] -= 1
        return move


def perft(board: Board, depth: int) -> int:
    """Leaves ``depth`` plies below, a finished game counting as one leaf, as the engine counts."""
    if depth == 0:
        return 1
    moves = board.moves()
    if not moves:
        return 1
    total = 0
    for move in moves:
        board.play(move)
        total += perft(board, depth - 1)
        board.undo()
    return total
