"""yolah.puct: the alphazero player's search driven by a network in Python, called once per
batch of leaves; what it returns adds up, and a bad network is refused in one clear error."""

from __future__ import annotations

import numpy as np
import pytest
import yolah


def uniform(calls: list[int]):
    """A "network" that knows nothing: equal logits, a draw everywhere; it logs batch sizes."""

    def evaluate(observations, masks):
        assert observations.shape[1:] == (7, 8, 8) and masks.shape == (len(observations), 4096)
        calls.append(len(observations))
        return np.zeros((len(observations), 4096), np.float32), np.zeros(len(observations))

    return evaluate


def test_a_search_adds_up_and_calls_the_network_in_batches():
    calls: list[int] = []
    result = yolah.puct(yolah.START, uniform(calls), visits=400, batch=16)
    assert sum(result["visits"].values()) == 400
    assert result["move"] in yolah.Position().moves()
    assert set(result["visits"]) == set(yolah.Position().moves())
    policy = result["policy"]
    assert policy.shape == (4096,) and policy.dtype == np.float32
    assert abs(float(policy.sum()) - 1.0) < 1e-5
    assert policy[yolah.move_to_action(result["move"])] == policy.max()
    assert max(calls) <= 16 and max(calls) > 1, calls
    assert sum(calls) <= 401 and len(calls) < 100, "the leaves come in batches"


def test_the_network_steers_the_search():
    favourite = yolah.move_to_action("a1:b2")

    def evaluate(observations, masks):
        logits = np.zeros((len(observations), 4096), np.float32)
        logits[:, favourite] = 8.0
        return logits, np.zeros(len(observations))

    result = yolah.puct(yolah.START, evaluate, visits=200)
    assert result["move"] == "a1:b2"
    assert result["visits"]["a1:b2"] > 100


def test_illegal_actions_may_be_masked_with_minus_infinity():
    def evaluate(observations, masks):
        logits = np.where(masks, 0.0, -np.inf).astype(np.float32)
        return logits, np.zeros(len(observations))

    result = yolah.puct(yolah.START, evaluate, visits=100)
    assert sum(result["visits"].values()) == 100 and not result["full"]

    def legal_infinite(observations, masks):
        return np.where(masks, -np.inf, 0.0), np.zeros(len(observations))

    with pytest.raises(ValueError, match=r"for a legal move .*must be finite"):
        yolah.puct(yolah.START, legal_infinite, visits=10)


def test_the_same_seed_gives_the_same_search_with_noise():
    a = yolah.puct(yolah.START, uniform([]), visits=300, noise=0.25, seed=3)
    b = yolah.puct(yolah.START, uniform([]), visits=300, noise=0.25, seed=3)
    c = yolah.puct(yolah.START, uniform([]), visits=300, noise=0.25, seed=4)
    assert a["visits"] == b["visits"] != c["visits"]


def test_a_bad_network_or_argument_is_refused_in_one_clear_error():
    n_logits = lambda n: np.zeros((n, 4096))
    for evaluate, error, message in [
        (lambda o, m: (n_logits(len(o)),), ValueError, r"must return \(logits, values\)"),
        (lambda o, m: (np.zeros((len(o), 10)), np.zeros(len(o))), ValueError, r"logits has shape"),
        (lambda o, m: (n_logits(len(o)), np.full(len(o), 2.0)), ValueError, "-1 to 1"),
        (lambda o, m: (n_logits(len(o)), np.full(len(o), np.nan)), ValueError, "finite"),
        (lambda o, m: 1 / 0, ZeroDivisionError, "division"),
    ]:
        with pytest.raises(error, match=message):
            yolah.puct(yolah.START, evaluate, visits=50)
    for arguments, message in [
        ({"visits": 0}, "visits is 0"),
        ({"batch": 5000}, "batch is 5000"),
        ({"c": float("nan")}, "c is NaN"),
        ({"noise": 2.0}, "noise 2"),
    ]:
        with pytest.raises(ValueError, match=message):
            yolah.puct(yolah.START, uniform([]), **arguments)
    with pytest.raises(ValueError, match="callable"):
        yolah.puct(yolah.START, 3)  # type: ignore[arg-type]
    over = yolah.Position()
    rng = np.random.default_rng(1)
    while not over.is_game_over():
        over.play(over.moves()[rng.integers(len(over.moves()))])
    with pytest.raises(ValueError, match="the game is over"):
        yolah.puct(over, uniform([]))
