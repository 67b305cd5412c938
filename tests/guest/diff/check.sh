#!/bin/sh
# One sequence on irqkit's side: its records must be the .expect file's
# (its '#' lines are comments).
# Usage: check.sh SEQ_IRQKIT FILE.seq
set -eu
exe=$1 seq=$2
want=${seq%.seq}.expect
got=$(mktemp)
trap 'rm -f "$got"' EXIT
"$exe" "$seq" >"$got"
if ! grep -v '^#' "$want" | diff -u - "$got" >"$got.diff"; then
	echo "$seq: irqkit's records differ from $want (- expected, + irqkit):"
	cat "$got.diff"
	rm -f "$got.diff"
	exit 1
fi
rm -f "$got.diff"
