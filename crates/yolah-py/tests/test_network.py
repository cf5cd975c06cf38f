"""Networks as numpy arrays: a file's arrays written back give the same file and the same
evaluations; arrays made in Python (as a PyTorch model's would be) become a file the engine
plays; bad arrays are refused with the reason."""

from __future__ import annotations

import numpy as np
import pytest
import yolah
from conftest import REPOSITORY, random_positions, run

SHIPPED = REPOSITORY / "crates/yolah-ai/data/network.yolahnet"


def test_a_file_written_from_its_own_arrays_is_the_same_file(tmp_path):
    network = yolah.Network.load(SHIPPED)
    assert network.shape == {"hidden": 512, "second": 32, "third": 0, "buckets": 1,
                             "features": True}
    arrays = network.arrays()
    assert arrays["W1"].shape == (193, 512) and arrays["W2"].shape == (1, 32, 512)
    again = yolah.Network.from_arrays(arrays, epochs=network.epochs)
    again.save(tmp_path / "again.yolahnet")
    assert (tmp_path / "again.yolahnet").read_bytes() == SHIPPED.read_bytes()
    for position in random_positions(500, seed=2):
        assert again.evaluate(position) == network.evaluate(position)


def test_the_engine_evaluates_as_the_python_network_says(cli, tmp_path):
    # The float forward pass (what a trainer fits) and the engine's integer inference agree
    # to a few hundredths of a point on many positions.
    network = yolah.Network.shipped()
    gaps = []
    for position in random_positions(2000, seed=8):
        if position.game_over():
            continue
        black, white = position.scores()
        float_value = black - white + network.forward(position)
        if position.side_to_move() == "white":
            float_value = -float_value
        gaps.append(abs(network.evaluate(position) - float_value))
    assert max(gaps) < 0.25 and np.mean(gaps) < 0.05, (max(gaps), np.mean(gaps))


def random_arrays(hidden=32, second=8, third=4, buckets=2, dense=22, seed=0):
    rng = np.random.default_rng(seed)
    last = third or second
    return {
        "W1": rng.uniform(-0.2, 0.2, (193, hidden)),
        "b1": rng.uniform(0, 0.2, hidden),
        "W2": rng.uniform(-0.5, 0.5, (buckets, second, hidden)),
        "D2": rng.uniform(-0.5, 0.5, (buckets, second, dense)),
        "b2": rng.uniform(-0.1, 0.1, (buckets, second)),
        "W3": rng.uniform(-0.5, 0.5, (buckets, third, second)),
        "b3": rng.uniform(-0.1, 0.1, (buckets, third)),
        "w": rng.uniform(-3, 3, (buckets, last)),
        "s": rng.uniform(-1, 1, (buckets, dense)),
        "b": rng.uniform(-1, 1, buckets),
    }


def test_arrays_made_in_python_become_a_network_the_engine_plays(cli, tmp_path):
    arrays = random_arrays()
    network = yolah.Network.from_arrays(arrays)
    path = tmp_path / "mine.yolahnet"
    network.save(path)
    back = yolah.Network.load(path).arrays()
    for name, values in arrays.items():
        np.testing.assert_allclose(back[name], values, rtol=1e-6, atol=1e-7, err_msg=name)
    # The float network by hand, for one position, against the library's.
    position = yolah.Position()
    position.play("a1:b2")
    x = np.zeros(193)
    planes = position.planes().reshape(3, 64)
    x[:192] = planes.reshape(-1)
    x[192] = position.side_to_move() == "white"
    h1 = np.clip(x @ arrays["W1"] + arrays["b1"], 0, 1)
    assert network.shape["features"]
    # The dense features are the engine's; check the path without them on a network without.
    plain = random_arrays(dense=0, third=0, buckets=1, seed=3)
    plain_net = yolah.Network.from_arrays(plain)
    h1 = np.clip(x @ plain["W1"] + plain["b1"], 0, 1)
    h2 = np.clip(plain["W2"][0] @ h1 + plain["b2"][0], 0, 1)
    expected = plain["w"][0] @ h2 + plain["b"][0]
    assert plain_net.forward(position) == pytest.approx(expected, abs=1e-4)
    # The engine plays it.
    summary = run(cli, "match", f"minimax:depth=2,eval=nn,net={path}", "random", "-g", "2")
    assert " vs random: " in summary


def test_bad_arrays_are_refused_with_the_reason():
    arrays = random_arrays()
    with pytest.raises(KeyError, match="no array 'W3'"):
        yolah.Network.from_arrays({k: v for k, v in arrays.items() if k != "W3"})
    with pytest.raises(KeyError, match="unknown array 'W4'"):
        yolah.Network.from_arrays({**arrays, "W4": arrays["W3"]})
    with pytest.raises(ValueError, match="array 'W2' has shape"):
        yolah.Network.from_arrays({**arrays, "W2": arrays["W2"][:, :, :16]})
    with pytest.raises(ValueError, match="outside"):
        yolah.Network.from_arrays({**arrays, "W1": arrays["W1"] * 100})
    with pytest.raises(ValueError, match="bad shape"):
        yolah.Network.from_arrays(random_arrays(hidden=24))
    # Issue 42: a missing file is FileNotFoundError (as the docs say), and a weight out of range
    # names its array and index.
    with pytest.raises(FileNotFoundError, match="cannot read '/nonexistent.yolahnet'"):
        yolah.Network.load("/nonexistent.yolahnet")
    wide = {**arrays, "W1": arrays["W1"].copy()}
    wide["W1"][5, 3] = 100.0
    with pytest.raises(ValueError, match=r"array 'W1' at \[5, 3\] is 100, outside ±1\.9"):
        yolah.Network.from_arrays(wide)
    far = {**arrays, "b": arrays["b"].copy()}
    far["b"][1] = np.inf
    with pytest.raises(ValueError, match=r"array 'b' at \[1\] is inf"):
        yolah.Network.from_arrays(far)


def test_a_failed_save_leaves_the_network_that_was_there(tmp_path):
    # A save that fails (here a file size limit, as a full disk would) must not destroy the
    # file it replaces: the old network still loads, byte for byte, and nothing is left beside.
    import subprocess
    import sys
    path = tmp_path / "kept.yolahnet"
    yolah.Network.load(SHIPPED).save(path)
    before = path.read_bytes()
    script = (
        "import resource, sys, yolah\n"
        "resource.setrlimit(resource.RLIMIT_FSIZE, (102400, 102400))\n"
        f"network = yolah.Network.load({str(SHIPPED)!r})\n"
        "try:\n"
        f"    network.save({str(path)!r})\n"
        "except ValueError as error:\n"
        "    print(error)\n"
        "    sys.exit(3)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 3, done.stderr
    assert "cannot write" in done.stdout
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept.yolahnet"]
    assert yolah.Network.load(path).shape["hidden"] == 512
