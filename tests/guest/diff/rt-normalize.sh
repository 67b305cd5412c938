#!/bin/sh
# One side's records of a sequence, as the PREEMPT_RT comparison reads
# them (tests/guest/run.sh, 7): what the scheduler orders is put in one
# order.  On an RT kernel every handler runs in a thread of its own, so
# the order in which a shared line's handlers run is the threads' (each
# "runs" list sorted, with its context notes); and the consoles print from
# a thread, so a log line may come with a later step (they are taken off
# their steps and listed, in order, after the records).  With -c the
# counts the threads' timing decides go too: how often each handler ran in
# a step (a level line that stays asserted fires again as soon as the RT
# kernel's irq thread, which takes the CPU from the runner, lets it go) and
# how often a tasklet ran (its schedules fold when it runs later), with the
# totals they add up to.
# Usage: rt-normalize.sh [-c] RECORDS
set -eu
counts=0
[ "$1" = -c ] && { counts=1; shift; }
awk -v counts="$counts" '
	function sort(a, n,    i, j, t) {
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && a[j] < a[j - 1]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
	}
	/^#/ { next }
	counts && /^(handler|line) [0-9]+: / { sub(/: .*/, ": (counts)"); print; next }
	{
		out = ""; nc = 0
		n = split($0, part, / \| /)
		for (i = 1; i <= n; i++) {
			if (i > 1 && part[i] ~ /^log /) { logs[++nl] = substr(part[i], 5); continue }
			if (i > 1 && part[i] ~ /^ctx /) { ctx[++nc] = part[i]; continue }
			if (i > 1 && part[i] ~ /^runs /) {
				m = split(substr(part[i], 6), r, " "); nr = 0
				for (a = 1; a <= m; a++) {	# h0*3 is h0 h0 h0
					k = split(r[a], hc, "*")
					for (b = 0; b < (k > 1 ? hc[2] : 1); b++) h[++nr] = hc[1]
				}
				sort(h, nr)
				part[i] = "runs"
				for (a = 1; a <= nr; a++)
					if (!counts || a == 1 || h[a] != h[a - 1])
						part[i] = part[i] " " h[a]
			}
			if (counts && i > 1 && part[i] ~ /^tasklets /)
				gsub(/\*[0-9]+/, "", part[i])
			out = out (out == "" ? "" : " | ") part[i]
		}
		sort(ctx, nc)
		for (a = 1; a <= nc; a++)
			if (!counts || a == 1 || ctx[a] != ctx[a - 1])
				out = out " | " ctx[a]
		print out
	}
	END { for (i = 1; i <= nl; i++) print "(log) " logs[i] }' "$1"
