"""yolah.think and yolah.Player: every player moves legally; bad specs raise; the search lets
other Python threads run."""

from __future__ import annotations

import threading
import time

import pytest
import yolah
from conftest import random_positions

QUICK = {
    "random": "random",
    "montecarlo": "montecarlo:iterations=300",
    "mcts": "mcts:iterations=300",
    "minimax": "minimax:depth=2",
    "alphazero": "alphazero:iterations=100",
}


def quick_specs(cli):
    specs = dict(QUICK)
    specs["minimax:eval=nn"] = "minimax:depth=2,eval=nn"
    specs["engine"] = f"engine:depth=2,cmd={cli} engine --player minimax"
    return specs


def test_every_player_in_the_catalogue_is_tried():
    assert set(yolah.PLAYERS) == set(QUICK) | {"engine"}


def test_think_returns_a_legal_move_for_every_player(cli):
    positions = [p for p in random_positions(40, seed=21) if not p.game_over()][::8]
    for name, spec in quick_specs(cli).items():
        for position in positions:
            report = yolah.think(spec, position)
            assert report["move"] in position.moves(), (name, position.notation())
            assert report["player"].startswith(spec.split(":")[0])
            assert report["time_ms"] >= 0
            if report["pv"]:
                assert report["pv"][0] == report["move"]
    report = yolah.think("minimax:depth=3", yolah.START)
    assert report["depth"] == 3 and report["nodes"] > 0 and len(report["pv"]) >= 1
    assert 0 <= report["value"] <= 1
    assert yolah.think("mcts:iterations=500")["iterations"] == 500


def test_think_gives_the_best_lines_with_lines_n():
    # The shipped puzzle set's second puzzle: b3:d1 alone wins (by 3); b3:c2 loses by 2,
    # b3:c3 by 3 (the guide's `yolah think` example).
    endgame = "x2xxwbx/2xxxxxx/1wxxxxx1/xxbxx1wx/1xxxxxxx/1b1xx1x1/3xxxxb/xx2wx1x b 19 19 38"
    report = yolah.think("minimax:lines=3,regions=on,depth=40", endgame)
    found = [(line["pv"][0], line["margin"], line["proved"]) for line in report["lines"]]
    assert found == [("b3:d1", 3.0, True), ("b3:c2", -2.0, True), ("b3:c3", -3.0, True)]
    assert report["lines"][0]["pv"] == report["pv"]
    assert yolah.think("minimax:depth=2")["lines"] == []


def test_the_same_seed_gives_the_same_move_and_the_seed_matters():
    moves = {yolah.think("random", seed=s)["move"] for s in range(20)}
    assert len(moves) > 1
    assert yolah.think("random", seed=5)["move"] == yolah.think("random", seed=5)["move"]


def test_a_player_plays_a_whole_game_against_another():
    black = yolah.Player("mcts:iterations=200", seed=1)
    white = yolah.Player("minimax:depth=1")
    assert repr(white) == 'Player("minimax:depth=1")' and black.spec == "mcts:iterations=200"
    position = yolah.Position()
    while not position.game_over():
        player = black if position.side_to_move() == "black" else white
        position.play(player.think(position)["move"])
    assert position.result() in ("black", "white", "draw")
    assert sum(position.scores()) > 10
    with pytest.raises(ValueError, match="the game is over"):
        black.think(position)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("", "empty player spec"),
        ("chess", "chess"),
        ("mcts:iterations=-1", "iterations"),
        ("mcts:bogus=1", "bogus"),
        ("minimax:time=999h", "time"),
        ("engine", "cmd"),
    ],
)
def test_a_bad_spec_raises_value_error(spec, message):
    with pytest.raises(ValueError, match=message):
        yolah.think(spec)
    with pytest.raises(ValueError, match=message):
        yolah.Player(spec)


def test_an_engine_that_does_not_run_raises_runtime_error():
    with pytest.raises(RuntimeError, match="cannot move"):
        yolah.think("engine:cmd=/nonexistent/engine")


def test_other_threads_run_while_a_player_thinks():
    ticks = 0
    done = threading.Event()

    def search():
        yolah.think("mcts:time=600ms")
        done.set()

    thread = threading.Thread(target=search)
    thread.start()
    started = time.monotonic()
    while not done.is_set():
        ticks += 1
        time.sleep(0.001)
    thread.join()
    # Had the search held the interpreter, this loop could not have run while it searched.
    assert time.monotonic() - started > 0.4
    assert ticks > 50


def test_a_player_thinking_in_one_thread_is_refused_to_another_with_what_to_do():
    # Issue 42: the second thread got a bare "Already borrowed".
    player = yolah.Player("mcts:time=800ms")
    started = threading.Event()

    def search():
        started.set()
        player.think(yolah.Position())

    thread = threading.Thread(target=search)
    thread.start()
    started.wait()
    time.sleep(0.2)
    with pytest.raises(RuntimeError, match="another thread.*its own yolah.Player"):
        player.think(yolah.Position())
    with pytest.raises(RuntimeError, match="another thread"):
        _ = player.spec
    thread.join()
    # Once the first is done, the player thinks again.
    assert player.think(yolah.Position())["move"]
