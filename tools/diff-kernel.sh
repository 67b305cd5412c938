#!/bin/sh
# Linux as the oracle, a longer run: N generated sequences (default 5000)
# run in the guest's kernel and in irqkit, every record compared, with the
# rest of the guest's tests (tests/guest/run.sh, its own build directory).
# Usage: tools/diff-kernel.sh [N] [build-dir]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
n=${1:-5000}
# the guest's time grows by about 0.07 s a sequence under TCG
IRQKIT_DIFF_N=$n IRQKIT_GUEST_TIMEOUT=$((300 + n / 5)) exec "$top/tests/guest/run.sh" \
	"${2:-$top/build/guest-diff}"
