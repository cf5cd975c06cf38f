#!/bin/sh
# A fake engine that floods: it answers the handshake when its first argument is `go`, and
# then answers `go` with an endless stream of info lines; with `handshake` it floods at once,
# before `yeiok`. It never sends a move.
if [ "$1" = handshake ]; then
    exec yes "info string flooding before the handshake"
fi
while read -r line; do
    case "$line" in
        yei) echo "yeiok" ;;
        isready) echo "readyok" ;;
        go*) exec yes "info depth 1 score 0 nodes 1 pv a1:c3" ;;
    esac
done
