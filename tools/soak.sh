#!/bin/sh
# Soak: run the stress tests, the lifecycle tests and the fuzzer, mixed, for
# DURATION seconds (not in CI).  Each stress test checks its own accounting
# (raises = runs + coalesced, exclusion, one run per N schedules) at its end;
# the fuzzer checks its model after every input.  Stops at the first failure.
# Usage: tools/soak.sh DURATION [BUILD_DIR] [FUZZ_BUILD_DIR]
#   BUILD_DIR: a configured build with the tests (default build/soak, made here)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
duration=${1:?usage: tools/soak.sh DURATION [BUILD_DIR] [FUZZ_BUILD_DIR]}
dir=${2:-$top/build/soak}
fuzzdir=${3:-$top/build/soak-fuzz}
scale=${IRQKIT_STRESS_SCALE:-3}

if [ ! -f "$dir/CMakeCache.txt" ]; then
	cmake -S "$top" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DIRQKIT_BUILD_BENCH=OFF \
		>/dev/null
fi
cmake --build "$dir"
end=$(( $(date +%s) + duration ))
rounds=0
while [ "$(date +%s)" -lt "$end" ]; do
	for t in test_guarantees test_bottom_halves test_work_and_threads test_lifecycle \
		 test_watchdog; do
		IRQKIT_STRESS_SCALE=$scale "$dir/tests/$t" >"$dir/soak-$t.log" 2>&1 || {
			echo "soak: $t failed in round $((rounds + 1)); log: $dir/soak-$t.log"
			exit 1
		}
	done
	left=$(( end - $(date +%s) ))
	if [ "$left" -gt 0 ]; then
		"$top/tools/fuzz.sh" "$fuzzdir" $(( left < 60 ? left : 60 )) >/dev/null ||
			{ echo "soak: the fuzzer failed; see $fuzzdir/fuzz.log"; exit 1; }
	fi
	rounds=$((rounds + 1))
done
echo "soak: $rounds rounds in $duration s, 0 failures (stress scale $scale)"
