"""Yolah from Python: the engine's rules, its players and its self-play data.

The rules, the players and the file reader are the Rust engine's (``yolah._yolah``); this
package re-exports them and adds numpy helpers. Guide: ``docs/python.md`` in the repository.

>>> import yolah
>>> p = yolah.Position()
>>> len(p.moves())
56
>>> p.play("a1:b2"); p.side_to_move()
'white'
"""

from __future__ import annotations

import numpy as np

from ._yolah import (
    PLAYERS,
    RECORD_DTYPE,
    START,
    Player,
    Position,
    perft,
    planes_batch,
    random_games,
    read_data,
    think,
)

__all__ = [
    "PLAYERS",
    "RECORD_DTYPE",
    "START",
    "Player",
    "Position",
    "perft",
    "planes_batch",
    "random_games",
    "read_data",
    "record_planes",
    "think",
]


def record_planes(records: np.ndarray) -> np.ndarray:
    """The planes of data records (from :func:`read_data`), as ``Position.planes`` gives them.

    A ``uint8`` array of shape ``(n, 3, 8, 8)``: black's pieces, white's pieces, holes, each
    ``[rank][file]`` with rank 1 first. Whose turn it is: ``records["ply"] % 2`` (0 black).
    """
    if records.dtype != RECORD_DTYPE:
        raise ValueError(f"expected records of yolah.RECORD_DTYPE, not {records.dtype}")
    boards = np.stack([records["black"], records["white"], records["holes"]], axis=-1)
    boards = np.ascontiguousarray(boards, dtype="<u8")
    bits = np.unpackbits(boards.view(np.uint8).reshape(-1, 3, 8), axis=2, bitorder="little")
    return bits.reshape(-1, 3, 8, 8)
