#!/bin/sh
# `yolah engine` behind a relay, for the tests of game clocks:
#   relay_engine.sh YOLAH LOG ignore  every `go` becomes `go movetime 300`: a program that
#                                     ignores its clock
#   relay_engine.sh YOLAH LOG log     the lines pass unchanged
# Either way each line received is appended to LOG first.
yolah=$1
log=$2
mode=$3
while read -r line; do
    echo "$line" >> "$log"
    case "$mode:$line" in
        ignore:go*) echo "go movetime 300" ;;
        *) echo "$line" ;;
    esac
done | "$yolah" engine
