#!/bin/sh
# The main job: install the build dependencies, build irqkit, run the demo.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/tools/setup-debian.sh"
cmake -S "$top" -B "$top/build/demo" -G Ninja -DCMAKE_BUILD_TYPE=Release \
	-DIRQKIT_BUILD_TESTS=OFF -DIRQKIT_BUILD_BENCH=OFF >/dev/null
cmake --build "$top/build/demo" --target irqkit-demo >/dev/null
exec "$top/build/demo/tools/irqkit-demo"
