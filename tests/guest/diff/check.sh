#!/bin/sh
# One sequence on irqkit's side: its records must be the .expect file's
# (compare.sh: '#' lines are comments, "unhandled ~" matches a number).
# Usage: check.sh SEQ_IRQKIT FILE.seq
set -eu
exe=$1 seq=$2
want=${seq%.seq}.expect
got=$(mktemp)
trap 'rm -f "$got" "$got.diff"' EXIT
"$exe" "$seq" >"$got"
if ! sh "$(dirname "$0")/compare.sh" "$want" "$got" >"$got.diff"; then
	echo "$seq: irqkit's records differ from $want (- expected, + irqkit):"
	cat "$got.diff"
	exit 1
fi
