// SPDX-License-Identifier: MIT
/*
 * The lock validator's cost when it is on: this file is compiled with
 * IRQKIT_LOCKDEP, so its spin_lock_irqsave pairs are checked; the floor is
 * the same loop in bench_core.c, compiled without it.  Off (compiled
 * without IRQKIT_LOCKDEP) the lock functions are what they were: no call,
 * no test, nothing to measure; bench/callgrind.sh shows the instruction
 * count of spin_lock_irqsave unchanged.
 */
#include <irqkit/irqkit.h>

#include "bench.h"

#ifndef IRQKIT_LOCKDEP
#error "bench_lockdep.c is built with IRQKIT_LOCKDEP"
#endif

static struct irqkit_spinlock checked_lock;

static void checked_pairs(long n)
{
	for (long i = 0; i < n; i++) {
		unsigned long flags = irqkit_spin_lock_irqsave(&checked_lock);

		barrier();
		irqkit_spin_unlock_irqrestore(&checked_lock, flags);
		barrier();
	}
}

static int setup_checked(void)
{
	irqkit_spin_lock_init(&checked_lock);
	return irqkit_lockdep_enabled() ? 0 : -1;
}

static const struct bench benches[] = {
	{ .name = "spin_lock_irqsave_lockdep", .floor_name = "spin_lock_irqsave",
	  .subject = checked_pairs, .floor = bench_spin_lock_irqsave_pairs, .setup = setup_checked },
};

const struct bench_set bench_lockdep_set = { benches, sizeof(benches) / sizeof(benches[0]) };
