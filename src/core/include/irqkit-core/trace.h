/* SPDX-License-Identifier: MIT */
/*
 * Static probes (USDT) named and shaped as Linux's tracepoints, so perf,
 * bpftrace and SystemTap attach to irqkit as to the kernel: provider
 * "irqkit", probes irq_handler_entry/exit, softirq_raise/entry/exit,
 * tasklet_entry/exit, workqueue_queue_work/activate_work/execute_start/
 * execute_end, timer_start/expire_entry/expire_exit/cancel,
 * hrtimer_start/expire_entry/expire_exit/cancel, and irqkit's
 * own spurious_disable and coalesced.  A probe that nothing is attached to
 * is one nop instruction.  A platform whose compiler has <sys/sdt.h> builds
 * them in (IRQKIT_USDT); elsewhere, and in the freestanding build, they are
 * nothing at all.
 */
#ifndef IRQKIT_CORE_TRACE_H
#define IRQKIT_CORE_TRACE_H

#ifdef IRQKIT_USDT
#define SDT_USE_VARIADIC
#include <sys/sdt.h>
#define irqkit_trace(name, ...)	STAP_PROBEV(irqkit, name, ##__VA_ARGS__)
#else
#define irqkit_trace(name, ...)	do { } while (0)
#endif

#endif /* IRQKIT_CORE_TRACE_H */
