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

import numpy as _np

from ._yolah import (
    NUM_ACTIONS,
    OBSERVATION_SHAPE,
    Explorer,
    Network,
    PLAYERS,
    RECORD_DTYPE,
    START,
    Player,
    Position,
    VectorEnv,
    action_to_move,
    legal_action_masks,
    move_to_action,
    observations,
    perft,
    planes_batch,
    puct,
    random_games,
    read_data,
    selfplay,
    think,
)

__all__ = [
    "Explorer",
    "NUM_ACTIONS",
    "Network",
    "OBSERVATION_SHAPE",
    "PLAYERS",
    "RECORD_DTYPE",
    "START",
    "Player",
    "Position",
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
    "record_planes",
    "selfplay",
    "think",
]


def record_planes(records: "_np.ndarray") -> "_np.ndarray":
    """The planes of data records (from :func:`read_data`), as ``Position.planes`` gives them.

    A ``uint8`` array of shape ``(n, 3, 8, 8)``: black's pieces, white's pieces, holes, each
    ``[rank][file]`` with rank 1 first. Whose turn it is: ``records["ply"] % 2`` (0 black).
    """
    if not isinstance(records, _np.ndarray):
        raise TypeError(
            "records must be a numpy array of yolah.RECORD_DTYPE (from yolah.read_data), "
            f"not {type(records).__name__}"
        )
    if records.dtype != RECORD_DTYPE:
        raise ValueError(f"expected records of yolah.RECORD_DTYPE, not {records.dtype}")
    boards = _np.stack([records["black"], records["white"], records["holes"]], axis=-1)
    boards = _np.ascontiguousarray(boards, dtype="<u8")
    bits = _np.unpackbits(boards.view(_np.uint8).reshape(-1, 3, 8), axis=2, bitorder="little")
    return bits.reshape(-1, 3, 8, 8)
