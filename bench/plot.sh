#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Run the benchmark suite and the scaling curves, keep their output in
# docs/perf/, and draw docs/perf/ratios.png, docs/perf/fd.png (the rows of
# the file-descriptor pairs) and docs/perf/scaling.png with gnuplot.
# docs/performance.md shows them.  With --fd, only the file-descriptor pairs
# run (docs/perf/fd.txt) and only fd.png is drawn.
#
#   bench/plot.sh [path/to/irqkit-bench] [--quick | --fd]
set -eu
bench=${1:-build-rel/bench/irqkit-bench}
quick=${2:-}
out=docs/perf
command -v gnuplot >/dev/null || { echo "plot.sh: gnuplot is not installed (tools/setup-debian.sh)" >&2; exit 1; }
mkdir -p "$out"

labels=$(dirname "$0")/labels.txt

# bars TABLE PNG TITLE: every row of TABLE, named as docs/performance.md's
# table names it (bench/labels.txt), its median ratio with min..max, its
# target; a row that misses its target is drawn red and says so.
bars() {
	awk -F'\t' -v table="$1" '
	FILENAME != table { if ($0 !~ /^#/ && NF >= 3) { sub(/^[ ]+/, "", $1); lab[$1] = $2 " / " $3 } next }
	FNR == 1 || $1 == "benchmark" { next }
	{
		split($0, f, /[ ]+/)
		key = f[1] " " f[2]
		name = (key in lab) ? lab[key] : f[1] " / " f[2]
		t = (f[6] == "-") ? 0 : f[6]
		missed = (t > 0 && f[3] + 0 > t + 0)
		if (missed) name = name " (target " t " missed)"
		gsub(/"/, "", name)
		printf "\"%s\" %s %s %s %s %d\n", name, f[3], f[4], f[5], t, missed
	}' "$labels" "$1" >"${2%.png}.dat"
	gnuplot <<GP
set terminal pngcairo size 1400,$((260 + 28 * $(wc -l <"${2%.png}.dat"))) font "sans,9" noenhanced
set output "$2"
set title "$3"
set logscale x 10
set xlabel "ratio subject / floor or peer (lower is better; log scale)"
set ytics nomirror
set yrange [-1:*] reverse
set grid x
set key top left box opaque
set style fill solid 0.4
plot "${2%.png}.dat" using (\$6 == 0 ? \$2 : 1/0):0:3:4:ytic(1) with xerrorbars title "median (min..max), target met or none" lc rgb "#3060a0" pt 7, \
     "" using (\$6 == 1 ? \$2 : 1/0):0:3:4 with xerrorbars title "median (min..max), target missed" lc rgb "#c03030" pt 7, \
     "" using (\$5 > 0 ? \$5 : 1/0):0 with points pt 2 ps 1.5 lc rgb "#202020" title "target"
GP
}

# table TABLE: the same rows as a Markdown table for docs/performance.md
table() {
	awk -F'\t' -v table="$1" '
	FILENAME != table { if ($0 !~ /^#/ && NF >= 3) { sub(/^[ ]+/, "", $1); s[$1] = $2; fl[$1] = $3 } next }
	FNR == 1 { print "| benchmark | floor or peer | ratio | min..max | target | subject | floor | unit | p99 subject/floor |"
		   print "|---|---|---|---|---|---|---|---|---|"; next }
	$1 == "benchmark" { next }
	{
		n = split($0, f, /[ ]+/)
		key = f[1] " " f[2]
		a = (key in s) ? s[key] : f[1]; b = (key in fl) ? fl[key] : f[2]
		t = f[6]
		if (t != "-" && f[3] + 0 > t + 0) t = t " (missed)"
		unit = f[9]; for (i = 10; i < n; i++) unit = unit " " f[i]	# "ns late"
		printf "| %s | %s | %s | %s..%s | %s | %s | %s | %s | %s |\n", a, b, f[3], f[4], f[5], t, f[7], f[8], unit, f[n]
	}' "$labels" "$1"
}

if [ "$quick" = "--fd" ]; then
	for f in fd_round_trip fd_burst loop_cpu; do "$bench" --reps 15 "$f"; done | tee "$out/fd.txt"
	bars "$out/fd.txt" "$out/fd.png" \
	     "interrupts from file descriptors: median ratio (bars: min..max), crosses: target\n$(date -u '+%Y-%m-%d %H:%M UTC'), --reps 15"
	echo "plot.sh: wrote $out/fd.png"
	exit 0
fi

{
	echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "machine: $(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1)," \
	     "$(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo), kernel $(uname -r)"
	echo "commands: $bench $quick; $bench --scaling $quick"
} >"$out/machine.txt"

"$bench" $quick | tee "$out/ratios.txt"
"$bench" --scaling $quick | tee "$out/scaling.dat"

table "$out/ratios.txt" >"$out/ratios.md"
bars "$out/ratios.txt" "$out/ratios.png" \
     "irqkit against its floors and peers: median ratio (bars: min..max), crosses: target\n$(sed -n 's/^date: //p' "$out/machine.txt")"
grep -E '^(benchmark|fd_|loop_cpu)' "$out/ratios.txt" >"$out/fd.txt"
bars "$out/fd.txt" "$out/fd.png" \
     "interrupts from file descriptors: median ratio (bars: min..max), crosses: target\n$(sed -n 's/^date: //p' "$out/machine.txt")"

gnuplot <<GP
set terminal pngcairo size 1500,450 font "sans,9" noenhanced
set output "$out/scaling.png"
set multiplot layout 1,3 title "irqkit dispatch scaling ($(sed -n 's/^date: //p' "$out/machine.txt"))"
set grid
set title "cost against registered lines"
set logscale x 2
set xlabel "registered lines"
set ylabel "ns per dispatch"
set yrange [0:*]
plot "$out/scaling.dat" index 0 using 1:2 with linespoints title "one line of K", \
     "" index 0 using 1:3 with linespoints title "K lines in turn", \
     "" index 0 using 1:4 with lines dt 2 title "floor"
unset logscale x
set title "cost against shared actions per line"
set xlabel "actions on the line"
plot "$out/scaling.dat" index 1 using 1:2 with linespoints title "dispatch", \
     "" index 1 using 1:(\$3 * \$1) with lines dt 2 title "floor x actions"
set title "against virtual CPUs (each on its own host CPU)"
set xlabel "virtual CPUs"
set ylabel "ns per dispatch, per CPU"
set y2label "million dispatches/s, all CPUs"
set y2range [0:*]
set y2tics
set xtics 1
set key top left box opaque
stats "$out/scaling.dat" index 2 every ::0::0 using 4 nooutput
one = STATS_max
plot "$out/scaling.dat" index 2 using 1:2 with linespoints title "ns per dispatch, per CPU", \
     "" index 2 using 1:4 axes x1y2 with linespoints title "total M dispatches/s (right)", \
     "" index 2 using 1:(\$1 * one) axes x1y2 with lines dt 2 title "N x one CPU (right)"
unset multiplot
GP
echo "plot.sh: wrote $out/ratios.png, $out/fd.png and $out/scaling.png"
