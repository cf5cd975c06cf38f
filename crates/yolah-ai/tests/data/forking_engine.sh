#!/bin/sh
# A fake engine that starts a helper which outlives it unless its process group is ended,
# and which holds the engine's output pipe open (so a reader of that pipe would block on it).
# It writes the helper's process id to the file named by its first argument, then plays
# a1:c3 to every `go` (legal at the start, where the test asks).
sleep 300 &
echo $! >> "$1"
while read -r line; do
    case "$line" in
        yei) echo "yeiok" ;;
        isready) echo "readyok" ;;
        go*) echo "bestmove a1:c3" ;;
        quit) exit 0 ;;
    esac
done
