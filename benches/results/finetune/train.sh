#!/bin/sh
# Candidates on the first 5,539 games of learn45's first generation (d1), each with its seed 1.
set -e
Y=./yolah
$Y train --data d1 --out A/network.yolahnet --init shipped --learning-rate 0.0005 --epochs 10
$Y train --data d1 --out B/network.yolahnet --init shipped --epochs 10
$Y train --data d1 --out D/network.yolahnet --init shipped --learning-rate 0.0005 --epochs 10 --exact off
$Y train --data d1 --out C/network.yolahnet --hidden 256,32 --epochs 20
