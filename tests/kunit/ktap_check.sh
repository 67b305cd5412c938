#!/bin/sh
# Run a KUnit test program and check its output as a KTAP reader would:
# the structure line by line (version lines, plans, results numbered from 1
# in each block, a nested block closed by its parent's result of the same
# name, every plan met), then each result against the expected list, then
# the exit status (1 when a result is "not ok", else 0).
# Usage: ktap_check.sh PROGRAM EXPECTED [program arguments...]
#   EXPECTED: one "path status" line per result, in output order; path is
#   suite, suite.case or suite.case.param; status is ok, not_ok or skip.
set -u
prog=$1
expected=$2
shift 2
out=$(mktemp)
trap 'rm -f "$out" "$out.res"' EXIT

"$prog" "$@" >"$out"
status=$?

awk -v res="$out.res" '
function fail(msg) { printf "ktap_check: line %d: %s\n  %s\n", NR, msg, $0; bad = 1; exit 1 }
function indent(s) { match(s, /^ */); return RLENGTH }
{
	d = indent($0); line = substr($0, d + 1)
	if (NR == 1 && line != "KTAP version 1") fail("first line is not the version line")
	if (line == "KTAP version 1") {
		if (d % 4) fail("indent not a multiple of 4")
		top++; ind[top] = d; plan[top] = -1; nextn[top] = 1; name[top] = ""
		if (top > 1 && d != ind[top - 1] + 4) fail("nested block not 4 deeper")
		next
	}
	if (line ~ /^1\.\.[0-9]+$/) {
		if (!top || d != ind[top]) fail("plan outside its block")
		if (nextn[top] != 1) fail("plan after results")
		plan[top] = substr(line, 4) + 0; next
	}
	if (line ~ /^# Subtest: /) {
		if (!top || d != ind[top]) fail("subtest name outside its block")
		name[top] = substr(line, 12); next
	}
	if (line ~ /^(not )?ok [0-9]+( |$)/) {
		while (top && d < ind[top]) {
			if (plan[top] >= 0 && nextn[top] - 1 != plan[top])
				fail("block " name[top] ": " nextn[top] - 1 " results, plan " plan[top])
			closing = name[top]; top--
		}
		if (!top || d != ind[top]) fail("result outside any block")
		n = line; sub(/^(not )?ok /, "", n); num = n + 0
		if (num != nextn[top]) fail("result " num ", expected " nextn[top])
		nextn[top]++
		desc = n; sub(/^[0-9]+ ?/, "", desc); skip = (desc ~ / # SKIP/)
		sub(/ # SKIP.*$/, "", desc)
		if (closing != "" && closing != desc) fail("block " closing " closed by " desc)
		closing = ""
		st = line ~ /^not ok/ ? "not_ok" : skip ? "skip" : "ok"
		path = desc
		for (i = top; i >= 2; i--) path = name[i] "." path
		print path, st > res
		if (st == "not_ok") anyfail = 1
		next
	}
	# diagnostic lines ("# ...") and a failed check text are free-form
}
END {
	if (bad) exit 1
	if (top != 1) { print "ktap_check: " top - 1 " block(s) not closed at the end"; exit 1 }
	if (plan[1] >= 0 && nextn[1] - 1 != plan[1]) { print "ktap_check: top plan " plan[1] ", " nextn[1] - 1 " results"; exit 1 }
	exit anyfail ? 3 : 0
}' "$out"
verdict=$?
if [ "$verdict" -ne 0 ] && [ "$verdict" -ne 3 ]; then
	cat "$out"
	exit 1
fi
if ! diff -u "$expected" "$out.res"; then
	echo "ktap_check: results differ from $expected (- expected, + got); the output:"
	cat "$out"
	exit 1
fi
if [ -n "${KTAP_MUST_SAY:-}" ] && ! grep -qF -- "$KTAP_MUST_SAY" "$out"; then
	echo "ktap_check: the output does not say: $KTAP_MUST_SAY"
	cat "$out"
	exit 1
fi
want=0
[ "$verdict" -eq 3 ] && want=1
if [ "$status" -ne "$want" ]; then
	echo "ktap_check: exit status $status, expected $want"
	cat "$out"
	exit 1
fi
echo "ktap_check: $(wc -l <"$out.res") results as expected, exit status $status"
