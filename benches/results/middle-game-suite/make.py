#!/usr/bin/env python3
"""The middle-game suite: positions at 27-34 free squares from real games, each with the exact
final margin of every legal move, proved by `yolah solve` (no node limit; a time cap per proof).

Sources: the games against the stronger engine (../../../../shared/strength/games-100ms.pgn) and
our default against an earlier version (../strength6-100ms/games-100ms.csv). From each game, one
position: the first with F free squares, F drawn from FREE (27-34) by the seed. The root is proved
first; a root not proved within the cap is recorded as such and its moves are not tried (they are
as hard). Then every legal move's position is proved. Each proof's margin, nodes and time go to
positions.jsonl, one line a position, as it is done: a kill loses at most the position under way,
and the same command goes on. Usage: YOLAH=BINARY [CAP=600s] [SEED=71] [FREE=27-34] [DIR=folder] make.py;
then `make.py export` writes suite.jsonl, the positions whose every move was proved, as `yolah
suite` reads them. DIR (this folder by default) holds positions.jsonl and suite.jsonl: the
endgame suite (../endgame-suite) is made by this script with its own DIR and FREE.
"""
import csv
import json
import os
import random
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
YOLAH = os.environ.get("YOLAH", os.path.join(HERE, "../../../target/release/yolah"))
CAP = os.environ.get("CAP", "600s")
SEED = int(os.environ.get("SEED", "71"))
# The free squares drawn for each game's position: LOW..HIGH.
LOW, HIGH = (int(x) for x in os.environ.get("FREE", "27-34").split("-"))
DIR = os.path.abspath(os.environ.get("DIR", HERE))
OUT = os.path.join(DIR, "positions.jsonl")
PGN = os.path.join(HERE, "../../../../shared/strength/games-100ms.pgn")
CSV = os.path.join(HERE, "../strength6-100ms/games-100ms.csv")
MOVE = re.compile(r"[a-h][1-8]:[a-h][1-8]")


def pgn_games(path):
    text = open(path, encoding="utf-8").read()
    for number, game in enumerate(g for g in re.split(r"\n(?=\[Event)", text) if g.strip()):
        body = "\n".join(l for l in game.splitlines() if not l.startswith("["))
        yield f"strength/games-100ms.pgn#{number}", [t for t in body.split() if MOVE.fullmatch(t)]


def csv_games(path):
    with open(path, encoding="utf-8") as file:
        for row in csv.DictReader(file):
            yield f"strength6-100ms/games-100ms.csv#{row['game']}", row["moves"].split()


def replay(moves):
    """The position after `moves` from the start, in notation."""
    done = subprocess.run([YOLAH, "replay", "-"], input=" ".join(moves), capture_output=True,
                          text=True, check=True)
    return done.stdout.strip().splitlines()[-1]


def free_squares(position):
    return sum(int(c) for c in position.split()[0] if c.isdigit())


def legal_moves(position):
    done = subprocess.run([YOLAH, "moves", "-p", position], capture_output=True, text=True)
    return [t for t in done.stdout.split() if MOVE.fullmatch(t)]


def solve(position):
    """{margin, nodes, time_ms} for the side to move, or {"unproved": seconds}."""
    start = time.time()
    done = subprocess.run([YOLAH, "solve", "-p", position, "--time", CAP, "--tt", "256",
                           "--json"], capture_output=True, text=True)
    if done.returncode != 0:
        return {"unproved": round(time.time() - start, 1)}
    answer = json.loads(done.stdout)
    return {"margin": answer["margin"], "nodes": answer["nodes"],
            "time_ms": round(answer["time_ms"])}


def main():
    rng = random.Random(SEED)
    games = list(pgn_games(PGN)) + list(csv_games(CSV))
    wanted = [(source, moves, rng.randint(LOW, HIGH)) for source, moves in games]
    done = set()
    if os.path.exists(OUT):
        with open(OUT, encoding="utf-8") as file:
            done = {json.loads(line)["source"] for line in file if line.strip()}
    for number, (source, moves, free) in enumerate(wanted):
        if source in done:
            continue
        position = None
        for ply in range(len(moves) + 1):
            candidate = replay(moves[:ply])
            if free_squares(candidate) == free:
                position = candidate
                break
            if free_squares(candidate) < free:
                break
        record = {"source": source, "free": free, "position": position}
        if position is not None:
            record["root"] = solve(position)
            if "margin" in record["root"]:
                record["moves"] = {}
                for m in legal_moves(position):
                    child = replay_from(position, m)
                    record["moves"][m] = solve(child)
        with open(OUT, "a", encoding="utf-8") as file:
            file.write(json.dumps(record) + "\n")
            file.flush()
            os.fsync(file.fileno())
        print(f"{number + 1}/{len(wanted)} {source} {free} free: {record.get('root')}", flush=True)


def replay_from(position, move):
    done = subprocess.run([YOLAH, "replay", "-p", position, "-"], input=move,
                          capture_output=True, text=True, check=True)
    return done.stdout.strip().splitlines()[-1]


def export():
    """suite.jsonl from positions.jsonl: each position whose every move was proved, as `yolah
    suite` reads it (each move's value for its mover: the negated margin of the position after
    it), with where it comes from."""
    kept = 0
    with open(OUT, encoding="utf-8") as source, \
            open(os.path.join(DIR, "suite.jsonl"), "w", encoding="utf-8") as suite:
        for line in source:
            record = json.loads(line)
            moves = record.get("moves") or {}
            if not moves or any("margin" not in proof for proof in moves.values()):
                continue
            values = {m: -proof["margin"] for m, proof in moves.items()}
            suite.write(json.dumps({"position": record["position"], "values": values,
                                    "source": record["source"], "free": record["free"]}) + "\n")
            kept += 1
    print(f"suite.jsonl: {kept} positions")


if __name__ == "__main__":
    sys.exit(export() if sys.argv[1:] == ["export"] else main())
