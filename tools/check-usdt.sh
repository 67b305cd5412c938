#!/bin/sh
# The USDT probes of libirqkit.so (src/core/include/irqkit-core/trace.h):
#   check-usdt.sh notes LIB          every probe is in the library's notes
#   check-usdt.sh count LIB TARGET   perf counts irq_handler_entry: TARGET N
#                                    raises N interrupts with one handler
#   check-usdt.sh scripts LIB TARGET tools/irqkit-hardirqs counts them too
# The count needs root, perf (linux-perf) and uprobes; without them it exits
# 77, which ctest reports as skipped (not passed).
set -eu
what=$1
lib=$(readlink -f "$2")
probes="irq_handler_entry irq_handler_exit softirq_raise softirq_entry softirq_exit
	tasklet_entry tasklet_exit workqueue_queue_work workqueue_activate_work
	workqueue_execute_start workqueue_execute_end timer_start timer_expire_entry
	timer_expire_exit timer_cancel hrtimer_start hrtimer_expire_entry hrtimer_expire_exit
	hrtimer_cancel spurious_disable coalesced"

if [ "$what" = notes ]; then
	notes=$(readelf -n "$lib")
	for p in $probes; do
		printf '%s\n' "$notes" | grep -A2 'stapsdt' | grep -q "Name: $p\$" ||
			{ echo "check-usdt: probe irqkit:$p missing from $lib" >&2; exit 1; }
	done
	printf '%s\n' "$notes" | grep -q 'Provider: irqkit' ||
		{ echo "check-usdt: no probe of provider irqkit" >&2; exit 1; }
	echo "check-usdt: all $(echo $probes | wc -w) probes are in $lib"
	exit 0
fi

target=$3
top=$(cd "$(dirname "$0")/.." && pwd)
skip() { echo "check-usdt: skipped: $*"; exit 77; }
[ "$(id -u)" -eq 0 ] || skip "not root (uprobes need it)"
if [ "$what" = scripts ]; then
	command -v bpftrace >/dev/null || skip "no bpftrace"
	n=300
	out=$("$top/tools/irqkit-hardirqs" -L "$lib" -c "timeout 60 $target $n" 2>&1) || {
		echo "$out" >&2
		case $out in *"did not start"*) skip "bpftrace cannot attach here" ;; esac
		exit 1
	}
	printf '%s\n' "$out" | grep -q "^@count\[1, [^]]*\]: $n\$" || {
		echo "check-usdt: irqkit-hardirqs did not count $n entries of irq 1:" >&2
		echo "$out" >&2
		exit 1
	}
	echo "check-usdt: irqkit-hardirqs counted $n handler runs of irq 1"
	exit 0
fi
command -v perf >/dev/null || skip "no perf (Debian: linux-perf)"
if [ ! -e /sys/kernel/tracing/uprobe_events ]; then
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null || skip "tracefs cannot be mounted"
	[ -e /sys/kernel/tracing/uprobe_events ] || skip "the kernel has no uprobes"
fi
trap 'perf probe -q -d "sdt_irqkit:irq_handler_entry*" >/dev/null 2>&1 || true' EXIT
perf buildid-cache --add "$lib" >/dev/null 2>&1 || skip "perf cannot read $lib"
perf probe -q -x "$lib" -a sdt_irqkit:irq_handler_entry >/dev/null 2>&1 ||
	skip "perf cannot place the uprobe"
n=257
got=$(perf stat -x, -e sdt_irqkit:irq_handler_entry "$target" "$n" 2>&1 >/dev/null |
	awk -F, '/sdt_irqkit:irq_handler_entry/ { print $1 }')
if [ "$got" != "$n" ]; then
	echo "check-usdt: perf counted '$got' handler entries, expected $n" >&2
	exit 1
fi
echo "check-usdt: perf counted $got irq_handler_entry hits for $n interrupts"
