#!/bin/sh
# The flake hunt: run a build's ctest suite N times in a row, with a CPU
# burner beside it (one busy loop per core, so the suite's threads are
# preempted at odd places), and count each test's failures.  A failed run's
# output is kept in BUILD_DIR/flake-hunt/run-K.log.
# Usage: tools/flake-hunt.sh [--racing] [--no-burner] BUILD_DIR N [ctest arguments...]
#   e.g. tools/flake-hunt.sh build/ci/clang-tsan 50
#        tools/flake-hunt.sh --racing build/ci/gcc-asan-ubsan 50
#   --racing     only the racing part of the suite (the tests labelled
#                "racing" in tests/CMakeLists.txt: stress, work queues,
#                timers, fd lines, hotplug, threaded handlers, waits)
#   --no-burner  no busy loops beside the suite (for a run's bare time)
# Each run prints one line as it ends, with its time, so a hunt cut short
# still says how far it got; the end gives the failures per test.
# TSAN_OPTIONS defaults to CI's (halt_on_error=1 second_deadlock_stack=1).
# Exit: 0 when every run passed, 1 otherwise.
set -eu
usage="usage: tools/flake-hunt.sh [--racing] [--no-burner] BUILD_DIR N [ctest arguments...]"
label=""
burn=1
while [ $# -gt 0 ]; do
	case $1 in
	--racing) label=racing; shift ;;
	--no-burner) burn=0; shift ;;
	-*) echo "$usage" >&2; exit 2 ;;
	*) break ;;
	esac
done
dir=${1:?$usage}
n=${2:?$usage}
shift 2
[ -z "$label" ] || set -- -L "$label" "$@"
: "${TSAN_OPTIONS:=halt_on_error=1 second_deadlock_stack=1}"
export TSAN_OPTIONS
jobs=$(nproc 2>/dev/null || echo 2)
out="$dir/flake-hunt"
mkdir -p "$out"
rm -f "$out"/run-*.log "$out/failures"

burners=""
if [ "$burn" = 1 ]; then
	for _ in $(seq 1 "$jobs"); do
		sh -c 'while :; do :; done' &
		burners="$burners $!"
	done
fi
# shellcheck disable=SC2086
trap '[ -z "$burners" ] || kill $burners 2>/dev/null || true' EXIT
# a signal ends the hunt (a trap alone would let the loop go on)
trap 'exit 130' INT TERM

failed=0
began=$(date +%s)
for k in $(seq 1 "$n"); do
	t0=$(date +%s)
	if (cd "$dir" && ctest -j "$jobs" --timeout 900 --output-on-failure "$@") \
		>"$out/run-$k.log" 2>&1; then
		rm -f "$out/run-$k.log"
		echo "run $k: passed in $(($(date +%s) - t0)) s"
	else
		failed=$((failed + 1))
		sed -n 's/^[[:space:]]*[0-9]* - \(.*\) (\(Failed\|Timeout\|.*\))$/\1/p' \
			"$out/run-$k.log" >>"$out/failures"
		echo "run $k: failed in $(($(date +%s) - t0)) s ($(grep -c . "$out/failures") failures so far)"
	fi
done
echo "flake hunt: $n runs of the ${label:+$label part of the }suite in $dir," \
	"$failed failed, $(($(date +%s) - began)) s${burners:+, beside a CPU burner}"
if [ -s "$out/failures" ]; then
	echo "failures per test:"
	sort "$out/failures" | uniq -c | sort -rn
	exit 1
fi
