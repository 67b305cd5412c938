// SPDX-License-Identifier: MIT
/* Benchmarks of the interrupt core: dispatch, local_irq_save, spinlocks. */
#define _GNU_SOURCE
#include <irqkit/irqkit.h>

#include <pthread.h>

#include "bench.h"

static unsigned long counter;

static enum irqkit_irqreturn bench_handler(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	__atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED);
	return IRQKIT_HANDLED;
}

/* The floor of dispatch: call the same handler through a pointer the compiler cannot see. */
static enum irqkit_irqreturn (*volatile handler_ptr)(int, void *) = bench_handler;

static void floor_indirect_call_atomic_inc(long n)
{
	for (long i = 0; i < n; i++)
		handler_ptr(1, NULL);
}

static int setup_runtime(void)
{
	struct irqkit_config cfg = { .nr_irqs = 64, .nr_cpus = 1 };

	if (irqkit_start(&cfg) || irqkit_swchip_add(1, 1, IRQKIT_TYPE_EDGE_RISING) ||
	    irqkit_request_irq(1, bench_handler, 0, "bench", &counter))
		return -1;
	return 0;
}

static void teardown_runtime(void)
{
	irqkit_free_irq(1, &counter);
	irqkit_stop();
}

/* ---- dispatch ------------------------------------------------------------------------- */

static void raise_on_own_cpu(long n)
{
	for (long i = 0; i < n; i++)
		irqkit_sw_raise(1);
}

static int setup_bound(void)
{
	return setup_runtime() || irqkit_thread_bind(0) ? -1 : 0;
}

static void teardown_bound(void)
{
	irqkit_thread_unbind();
	teardown_runtime();
}

/* ---- local_irq_save / restore ------------------------------------------------------------ */

/* not static: the stores cannot be proven unobservable and dropped */
_Thread_local unsigned long bench_tls_word;

static void floor_tls_store(long n)
{
	for (long i = 0; i < n; i++) {
		bench_tls_word = (unsigned long)i;
		barrier();
	}
}

static void local_irq_save_restore(long n)
{
	for (long i = 0; i < n; i++) {
		unsigned long flags = irqkit_local_irq_save();

		barrier();
		irqkit_local_irq_restore(flags);
		barrier();
	}
}

/* ---- spinlocks ----------------------------------------------------------------------------- */

static struct irqkit_spinlock lock = IRQKIT_SPINLOCK_INIT;
static pthread_spinlock_t plock;

static void spin_lock_irqsave_pair(long n)
{
	for (long i = 0; i < n; i++) {
		unsigned long flags = irqkit_spin_lock_irqsave(&lock);

		barrier();
		irqkit_spin_unlock_irqrestore(&lock, flags);
		barrier();
	}
}

static void floor_pthread_spin(long n)
{
	for (long i = 0; i < n; i++) {
		pthread_spin_lock(&plock);
		barrier();
		pthread_spin_unlock(&plock);
		barrier();
	}
}

static int setup_spin(void)
{
	pthread_spin_init(&plock, PTHREAD_PROCESS_PRIVATE);
	return setup_runtime();
}

static const struct bench benches[] = {
	{ "dispatch_own_cpu", "indirect_call_atomic_inc", raise_on_own_cpu,
	  floor_indirect_call_atomic_inc, 2.0, setup_bound, teardown_bound, 0, 0, NULL },
	{ "local_irq_save_restore", "tls_store", local_irq_save_restore, floor_tls_store, 1.5,
	  setup_runtime, teardown_runtime, 0, 0, NULL },
	{ "spin_lock_irqsave", "pthread_spin_lock", spin_lock_irqsave_pair, floor_pthread_spin, 1.0,
	  setup_spin, teardown_runtime, 0, 0, NULL },
};

const struct bench_set bench_core_set = { benches, sizeof(benches) / sizeof(benches[0]) };
