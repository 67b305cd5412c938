#!/bin/sh
# The main job: install the build dependencies, build irqkit, run the demo.
# IRQKIT_SKIP_SETUP=1 skips the package step (a machine that has them).
# The build is quiet when it works; when it fails, its output is shown.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
[ "${IRQKIT_SKIP_SETUP:-0}" = 1 ] || "$top/tools/setup-debian.sh"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! { cmake -S "$top" -B "$top/build/demo" -G Ninja -DCMAKE_BUILD_TYPE=Release \
		-DIRQKIT_BUILD_TESTS=OFF -DIRQKIT_BUILD_BENCH=OFF &&
       cmake --build "$top/build/demo" --target irqkit-demo; } >"$log" 2>&1; then
	cat "$log" >&2
	echo "run-demo.sh: the build failed (output above)" >&2
	exit 1
fi
"$top/build/demo/tools/irqkit-demo"
