#!/bin/sh
# The flake hunt: run a build's whole ctest suite N times in a row, with a
# CPU burner beside it (one busy loop per core, so the suite's threads are
# preempted at odd places), and count each test's failures.  A failed run's
# output is kept in BUILD_DIR/flake-hunt/run-K.log.
# Usage: tools/flake-hunt.sh BUILD_DIR N [ctest arguments...]
#   e.g. tools/flake-hunt.sh build/ci/clang-tsan 50
# Each run prints one line as it ends, so a hunt cut short still says how
# far it got.
# Exit: 0 when every run passed, 1 otherwise.
set -eu
dir=${1:?usage: tools/flake-hunt.sh BUILD_DIR N [ctest arguments...]}
n=${2:?usage: tools/flake-hunt.sh BUILD_DIR N [ctest arguments...]}
shift 2
jobs=$(nproc 2>/dev/null || echo 2)
out="$dir/flake-hunt"
mkdir -p "$out"
rm -f "$out"/run-*.log "$out/failures"

burners=""
for _ in $(seq 1 "$jobs"); do
	sh -c 'while :; do :; done' &
	burners="$burners $!"
done
# shellcheck disable=SC2086
trap 'kill $burners 2>/dev/null || true' EXIT
# a signal ends the hunt (a trap alone would let the loop go on)
trap 'exit 130' INT TERM

failed=0
for k in $(seq 1 "$n"); do
	if (cd "$dir" && ctest -j "$jobs" --timeout 900 --output-on-failure "$@") \
		>"$out/run-$k.log" 2>&1; then
		rm -f "$out/run-$k.log"
		echo "run $k: passed"
	else
		failed=$((failed + 1))
		sed -n 's/^[[:space:]]*[0-9]* - \(.*\) (\(Failed\|Timeout\|.*\))$/\1/p' \
			"$out/run-$k.log" >>"$out/failures"
		echo "run $k: failed ($(grep -c . "$out/failures") failures so far)"
	fi
done
echo "flake hunt: $n runs of the suite in $dir, $failed failed"
if [ -s "$out/failures" ]; then
	sort "$out/failures" | uniq -c | sort -rn
	exit 1
fi
