#!/bin/sh
# Run the API-sequence fuzzer (tests/fuzz/fuzz_api.c) for SECONDS seconds.
# Usage: tools/fuzz.sh BUILD_DIR [SECONDS]
#   BUILD_DIR: a build configured with clang and -DIRQKIT_FUZZ=ON (configured
#   here if it does not exist).  The committed corpus is copied to a scratch
#   directory, so the run never changes the tree; an input that makes the
#   model disagree or a sanitizer fire is left in BUILD_DIR/fuzz-crashes/, to
#   be added to tests/fuzz/regressions/ with its fix.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:?usage: tools/fuzz.sh BUILD_DIR [SECONDS]}
secs=${2:-60}

if [ ! -f "$dir/CMakeCache.txt" ]; then
	cmake -S "$top" -B "$dir" -G Ninja -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Debug \
		-DIRQKIT_FUZZ=ON -DIRQKIT_BUILD_BENCH=OFF -DIRQKIT_BUILD_EXAMPLES=OFF \
		-DIRQKIT_WERROR=ON >/dev/null
fi
cmake --build "$dir" --target fuzz_api
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/corpus" "$dir/fuzz-crashes"
cp "$top"/tests/fuzz/corpus/* "$top"/tests/fuzz/regressions/* "$work/corpus/"
echo "fuzzing for $secs s (seed corpus: $(ls "$work/corpus" | wc -l) inputs)"
# libFuzzer exits non-zero on the first failure and writes the input
"$dir/tests/fuzz/fuzz_api" -max_total_time="$secs" -timeout=20 -max_len=512 -len_control=0 \
	-artifact_prefix="$dir/fuzz-crashes/" -print_final_stats=1 "$work/corpus" \
	>"$dir/fuzz.log" 2>&1 || {
	grep -E "model disagrees|ERROR|SUMMARY" "$dir/fuzz.log" | head -5
	tail -5 "$dir/fuzz.log"
	exit 1
}
grep -E "stat::number_of_executed_units|cov:" "$dir/fuzz.log" | tail -2
echo "fuzz: 0 failures"
