#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Instructions per operation of the single-thread (CPU-bound) benchmarks,
# subject against its floor, counted by valgrind's callgrind: repeatable on a
# noisy machine where times are not.  Each side runs twice, with N and 2N
# operations; the difference divided by N removes set-up and tear-down.
#
#   bench/callgrind.sh [path/to/irqkit-bench] [N]
#
# When irqkit-bench-shared lies next to it (the same program linked against
# the shared library), the dispatch row is repeated for it.
set -eu
bench=${1:-build-rel/bench/irqkit-bench}
n=${2:-100000}
command -v valgrind >/dev/null || { echo "callgrind.sh: valgrind is not installed" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# total instructions of one run of one side
instr() {
	valgrind --tool=callgrind --callgrind-out-file="$tmp/out" "${prog:-$bench}" \
		--side "$1" --ops "$2" --peer "$4" "$3" >/dev/null 2>"$tmp/err" ||
		{ cat "$tmp/err" >&2; exit 1; }
	sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$tmp/err"
}

printf '%-26s %-26s %12s %12s %8s\n' benchmark "floor or peer" "subject Ir" "floor Ir" ratio
"$bench" --list | while read -r name floor kind target; do
	[ "$kind" = cpu ] || continue
	s1=$(instr subject "$n" "$name" "$floor"); s2=$(instr subject $((2 * n)) "$name" "$floor")
	f1=$(instr floor "$n" "$name" "$floor"); f2=$(instr floor $((2 * n)) "$name" "$floor")
	awk -v a="$name" -v b="$floor" -v s1="$s1" -v s2="$s2" -v f1="$f1" -v f2="$f2" -v n="$n" \
		'BEGIN { s = (s2 - s1) / n; f = (f2 - f1) / n;
			 printf "%-26s %-26s %12.1f %12.1f %8.2f\n", a, b, s, f, s / f }'
done

shared=${bench}-shared
if [ -x "$shared" ]; then
	set -- dispatch_own_cpu indirect_call_atomic_inc
	s1=$(instr subject "$n" "$1" "$2"); s2=$(instr subject $((2 * n)) "$1" "$2")
	prog=$shared
	h1=$(instr subject "$n" "$1" "$2"); h2=$(instr subject $((2 * n)) "$1" "$2")
	awk -v s1="$s1" -v s2="$s2" -v h1="$h1" -v h2="$h2" -v n="$n" \
		'BEGIN { s = (s2 - s1) / n; h = (h2 - h1) / n;
			 printf "%-26s %-26s %12.1f %12.1f %8.2f\n", "dispatch_own_cpu (shared)",
				"dispatch_own_cpu (static)", h, s, h / s }'
fi
