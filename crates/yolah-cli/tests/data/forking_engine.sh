#!/bin/sh
# A real engine behind a shell that first starts a helper which outlives it unless its
# process group is ended. It writes its own and the helper's process ids to the file named by
# its first argument, then becomes the yolah binary named by its second (`yolah engine`).
sleep 300 &
echo $! >> "$1"
echo $$ >> "$1"
exec "$2" engine --player random
