#!/usr/bin/env python3
"""The score of a match stopped by hand: score.py GAMES.csv TEXT, TEXT a part of the first
player's spec (as in its `black` or `white` column). Prints games, wins, draws and losses of
that player, its score and Elo with a 95 % interval from the games' (trinomial) variance."""
import csv
import math
import sys

rows = list(csv.DictReader(open(sys.argv[1])))
key = sys.argv[2]
w = d = l = 0
for r in rows:
    first_black = key in r["black"]
    if r["result"] == "1/2-1/2":
        d += 1
    elif (r["result"] == "1-0") == first_black:
        w += 1
    else:
        l += 1
n = w + d + l
s = (w + d / 2) / n
se = math.sqrt((w * (1 - s) ** 2 + d * (0.5 - s) ** 2 + l * s**2) / n / n)
elo = lambda p: -400 * math.log10(1 / p - 1)
print(f"{n} games +{w} ={d} -{l}, score {s:.3f}, Elo {elo(s):+.1f} "
      f"[{elo(s - 1.96 * se):+.1f}, {elo(s + 1.96 * se):+.1f}]")
