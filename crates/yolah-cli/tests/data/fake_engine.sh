#!/bin/sh
# A deliberately broken engine for the tests of `engine:` players. It does the handshake
# properly, then misbehaves when asked to move, in the way its first argument names:
#   illegal  answers `bestmove a1:a1` (a pass, illegal while a move exists)
#   silent   never answers `go`
#   crash    exits with status 3 at `go`
#   garbage  answers `go` with a line that is not the protocol
#   mute     never finishes the handshake
mode=$1
while read -r line; do
    case "$line" in
        yei)
            [ "$mode" = mute ] && continue
            echo "id name fake-$mode"
            echo "yeiok"
            ;;
        isready) echo "readyok" ;;
        go*)
            case "$mode" in
                illegal) echo "info depth 1"; echo "bestmove a1:a1" ;;
                silent) ;;
                crash) exit 3 ;;
                garbage) echo "I think therefore I am" ;;
            esac
            ;;
        quit) exit 0 ;;
    esac
done
