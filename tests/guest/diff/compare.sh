#!/bin/sh
# Two sides' records of one sequence, line by line; an unhandled count one
# side gives as "~" (its unhandled interrupts came more than HZ/10 apart,
# so the count restarted) matches any number on the other.  '#' lines of
# either are comments.  Prints the difference (- FIRST, + SECOND) and
# fails when there is one.
# Usage: compare.sh FIRST SECOND
set -eu
a=$(mktemp) b=$(mktemp)
trap 'rm -f "$a" "$b"' EXIT
awk -v out_a="$a" -v out_b="$b" '
	FILENAME == ARGV[1] { if ($0 !~ /^#/) x[++na] = $0; next }
	$0 !~ /^#/ { y[++nb] = $0 }
	END {
		for (i = 1; i <= na || i <= nb; i++) {
			if (i <= na && i <= nb) {
				if (x[i] ~ /unhandled ~/)
					sub(/unhandled [0-9]+/, "unhandled ~", y[i])
				if (y[i] ~ /unhandled ~/)
					sub(/unhandled [0-9]+/, "unhandled ~", x[i])
			}
			if (i <= na) print x[i] > out_a
			if (i <= nb) print y[i] > out_b
		}
	}' "$1" "$2"
touch "$a" "$b"
diff -u --label "$1" --label "$2" "$a" "$b"
