"""yolah.read_data: a self-play run read into numpy, record for record; damage refused."""

from __future__ import annotations

import re
import shutil
import struct
import warnings

import numpy as np
import pytest
import yolah
from conftest import run

HEADER, BLOCK_HEADER, RECORD = 32, 8, 32


@pytest.fixture(scope="module")
def selfplay(cli, tmp_path_factory):
    """A small self-play run: its data file and what `yolah data stats` says of it."""
    out = tmp_path_factory.mktemp("selfplay") / "run"
    run(cli, "selfplay", "--games", "6", "--out", str(out), "--threads", "2", "minimax:nodes=300")
    data = out / "data.bin"
    return data, run(cli, "data", "stats", str(data))


def stat(stats: str, name: str) -> int:
    return int(re.search(rf"^{name}:\s+(\d+)", stats, re.MULTILINE).group(1))


def test_read_data_has_a_record_per_position_as_data_stats_counts(selfplay):
    data, stats = selfplay
    records = yolah.read_data(data)
    assert records.dtype == yolah.RECORD_DTYPE and records.dtype.itemsize == RECORD
    assert len(records) == stat(stats, "positions") > 0
    assert len(yolah.read_data(str(data))) == len(records)


def test_the_records_are_the_files_bytes_field_for_field(selfplay):
    data, _ = selfplay
    records = yolah.read_data(data)
    raw = data.read_bytes()
    offset, index = HEADER, 0
    while offset < len(raw):
        count = struct.unpack_from("<I", raw, offset)[0]
        body = raw[offset + BLOCK_HEADER : offset + BLOCK_HEADER + count * RECORD]
        assert records[index : index + count].tobytes() == body
        offset += BLOCK_HEADER + count * RECORD
        index += count
    assert index == len(records)


def test_every_record_is_a_position_with_consistent_labels(selfplay):
    data, _ = selfplay
    records = yolah.read_data(data)
    positions = [
        yolah.Position.from_bitboards(
            int(r["black"]), int(r["white"]), int(r["holes"]),
            int(r["black_points"]), int(r["white_points"]), int(r["ply"]),
        )
        for r in records
    ]
    assert all(not p.game_over() for p in positions)
    assert set(np.unique(records["result"])) <= {-1, 0, 1}
    assert (np.sign(records["margin"]) == records["result"]).all()
    assert (np.abs(records["score"]) <= 10000).all()
    planes = yolah.record_planes(records)
    assert planes.shape == (len(records), 3, 8, 8)
    assert (planes == yolah.planes_batch(positions)).all()
    sides = np.array([p.side_to_move() == "white" for p in positions])
    assert (records["ply"] % 2 == sides).all()


def damaged_copy(data, tmp_path, offset, value):
    copy = tmp_path / "damaged.bin"
    raw = bytearray(data.read_bytes())
    raw[offset] ^= value
    copy.write_bytes(bytes(raw))
    return copy


def test_damage_raises_value_error_with_the_byte_offset(selfplay, tmp_path):
    data, _ = selfplay
    with pytest.raises(ValueError, match="magic"):
        yolah.read_data(damaged_copy(data, tmp_path, 0, 1))
    record_byte = HEADER + BLOCK_HEADER + 5
    with pytest.raises(ValueError, match=r"offset \d+|byte \d+"):
        yolah.read_data(damaged_copy(data, tmp_path, record_byte, 0x10))


def test_a_last_block_cut_short_is_left_out_with_a_warning(selfplay, tmp_path):
    data, _ = selfplay
    whole = yolah.read_data(data)
    cut = tmp_path / "cut.bin"
    cut.write_bytes(data.read_bytes()[:-5])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        records = yolah.read_data(cut)
    assert len(caught) == 1 and "cut.bin" in str(caught[0].message)
    assert 0 < len(records) < len(whole)
    assert (records == whole[: len(records)]).all()


def test_missing_or_strange_files_raise(tmp_path, selfplay):
    # Issue 55: the error names the file.
    with pytest.raises(FileNotFoundError, match="cannot read '.*absent.bin'"):
        yolah.read_data(tmp_path / "absent.bin")
    with pytest.raises(ValueError):
        yolah.read_data(tmp_path)
    empty = tmp_path / "empty.bin"
    empty.write_bytes(b"")
    with pytest.raises(ValueError):
        yolah.read_data(empty)
    with pytest.raises(ValueError, match="RECORD_DTYPE"):
        yolah.record_planes(np.zeros(3, dtype=np.uint64))
    # Issue 42: not an array at all is a TypeError, as the docs say of a wrong type.
    with pytest.raises(TypeError, match="records must be a numpy array"):
        yolah.record_planes([1, 2, 3])
    shutil.copy(selfplay[0], tmp_path / "copy.bin")
    assert len(yolah.read_data(tmp_path / "copy.bin")) == len(yolah.read_data(selfplay[0]))


def test_selfplay_from_python_gives_the_records_the_command_writes(cli, tmp_path):
    run(cli, "selfplay", "--games", "6", "--random-plies", "4", "--seed", "3",
        "--out", str(tmp_path / "run"), "minimax:nodes=500")
    written = yolah.read_data(tmp_path / "run" / "data.bin")
    made = yolah.selfplay("minimax:nodes=500", 6, random_plies=4, seed=3, threads=2)
    assert made.dtype == yolah.RECORD_DTYPE and len(made) > 100
    assert (made == written).all()
    with pytest.raises(ValueError, match="games must be"):
        yolah.selfplay("random", 0)
    with pytest.raises(ValueError, match="player"):
        yolah.selfplay("nonsense", 2)
