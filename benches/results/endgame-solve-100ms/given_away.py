#!/usr/bin/env python3
"""Points given away after the first proof, by player, over a match's games.

For each game of a match record (`yolah match --out FILE.csv`), every position from the first
with at most FREE free squares (22 by default) to the end is proved by `yolah solve`; a move
gives away the proved value it loses for its mover: value before + value after (each for its
side to move; 0 for a move that keeps it). The sums by player spec, with the games that gave
any away and the games whose result for the player was worse than the first proof's (a win
proved and drawn or lost, a draw proved and lost), are printed as a table. Each position is a
`solve` run (about 0.01-1 s at 22 free squares); the proofs are kept in CACHE (by default a
JSON-lines file beside the record) so that a killed run goes on where it stopped.

Usage: YOLAH=BINARY [FREE=22] [CACHE=FILE] given_away.py RECORD.csv
"""
import csv
import json
import os
import subprocess
import sys

YOLAH = os.environ.get("YOLAH", "target/release/yolah")
FREE = int(os.environ.get("FREE", "22"))


def free_squares(position):
    return sum(int(c) for c in position.split()[0] if c.isdigit())


def solve(line, cache, out):
    """The proved margin for the side to move of `line` (`startpos moves …`)."""
    if line in cache:
        return cache[line]
    done = subprocess.run([YOLAH, "solve", "-p", line, "--time", "60s", "--tt", "64", "--json"],
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"not proved in 60 s: {line}: {done.stderr.strip()}")
    margin = json.loads(done.stdout)["margin"]
    cache[line] = margin
    out.write(json.dumps({"line": line, "margin": margin}) + "\n")
    out.flush()
    return margin


def signum(x):
    return (x > 0) - (x < 0)


def main(record):
    cache_path = os.environ.get("CACHE", record + f".proofs-{FREE}.jsonl")
    cache = {}
    if os.path.exists(cache_path):
        for text in open(cache_path, encoding="utf-8"):
            if text.strip():
                entry = json.loads(text)
                cache[entry["line"]] = entry["margin"]
    given = {}
    with open(record, encoding="utf-8") as file, open(cache_path, "a", encoding="utf-8") as out:
        rows = list(csv.DictReader(file))
        for number, row in enumerate(rows):
            moves = row["moves"].split()
            start = row["start"] or "startpos"
            # A move makes a hole; a pass (a1:a1) does not.
            free = [56 if start == "startpos" else free_squares(start)]
            for m in moves:
                free.append(free[-1] - (m != "a1:a1"))
            plies = [k for k in range(len(moves) + 1) if free[k] <= FREE]
            if not plies:
                continue
            black_first = start == "startpos" or start.split()[1] == "b"
            values = {k: solve(f"{start} moves {' '.join(moves[:k])}" if k else start, cache, out)
                      for k in plies}
            # The first proof's value and the final margin, for black.
            first = plies[0]
            proved = values[first] if (first % 2 == 0) == black_first else -values[first]
            final = int(row["black_score"]) - int(row["white_score"])
            for player, sign in ((row["black"], 1), (row["white"], -1)):
                entry = given.setdefault(player, {"games": set(), "points": 0, "moves": 0,
                                                  "bad": set(), "worse": 0})
                entry["worse"] += signum(sign * final) < signum(sign * proved)
            for k in plies[:-1]:
                mover = row["black"] if (k % 2 == 0) == black_first else row["white"]
                lost = values[k] + values[k + 1]
                if lost < 0:
                    raise SystemExit(f"game {number}: ply {k} gains {-lost} on its proof")
                entry = given[mover]
                entry["games"].add(number)
                entry["moves"] += 1
                if lost > 0:
                    entry["points"] += lost
                    entry["bad"].add(number)
            print(f"{number + 1}/{len(rows)}", file=sys.stderr, flush=True)
    print(f"points given away from the first position of at most {FREE} free squares on "
          f"({record}):")
    print("| player | games | moves | points given away | a game | games with any | "
          "results worse than proved |")
    print("|---|---|---|---|---|---|---|")
    for player, entry in sorted(given.items()):
        games = len(entry["games"])
        print(f"| `{player}` | {games} | {entry['moves']} | {entry['points']} | "
              f"{entry['points'] / max(games, 1):.3f} | {len(entry['bad'])} | {entry['worse']} |")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
