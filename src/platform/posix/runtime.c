// SPDX-License-Identifier: MIT
/* irqkit_start / irqkit_stop on Linux user space: dispatcher threads, the timer thread. */
#define _GNU_SOURCE
#include "../../core/platform.h"
#include <irqkit/irqkit.h>

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "posix.h"

static pthread_t *dispatchers;
static bool *dispatcher_joined;
static unsigned int nr_dispatchers;
/* The last stop left a stuck dispatcher: the next irqkit_stop() tries again. */
static bool wedged;
static pthread_mutex_t stop_lock = PTHREAD_MUTEX_INITIALIZER;

static void *dispatcher_main(void *arg)
{
	unsigned int cpu = (unsigned int)(uintptr_t)arg;
	char name[16];

	snprintf(name, sizeof(name), "vcpu/%u", cpu);
	pthread_setname_np(pthread_self(), name);
	if (irqkit__core_flags() & IRQKIT_CFG_PIN_CPUS) {
		long online = sysconf(_SC_NPROCESSORS_ONLN);
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(cpu % (online > 0 ? (unsigned int)online : 1u), &set);
		pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	}
	irqkit__dispatcher_loop(cpu);
	return NULL;
}

/*
 * Join the dispatchers not joined yet.  With the watchdog on, one that does
 * not exit within twice its threshold is stuck in a handler that does not
 * return: it is reported and left, and stop returns -ETIMEDOUT (the
 * runtime's memory stays, since that handler still uses it).
 */
static int stop_dispatchers(void)
{
	uint64_t limit = 2 * irqkit__core_watchdog_ns();
	int ret = 0;

	for (unsigned int i = 0; i < nr_dispatchers; i++)
		if (!dispatcher_joined[i])
			irqkit__dispatcher_stop(i);
	for (unsigned int i = 0; i < nr_dispatchers; i++) {
		if (dispatcher_joined[i])
			continue;
		if (!limit) {
			pthread_join(dispatchers[i], NULL);
		} else if (irqkit__posix_timed_join(dispatchers[i], limit)) {
			irqkit_printk(IRQKIT_LOG_ERR,
				      "irqkit_stop: vcpu/%u did not stop: CPU#%u is stuck in %ps; the runtime is left as it is (call irqkit_stop() again once it returns)",
				      i, i, irqkit__dispatcher_running_fn(i));
			ret = -IRQKIT_ETIMEDOUT;
			continue;
		}
		dispatcher_joined[i] = true;
	}
	if (ret)
		return ret;
	free(dispatchers);
	free(dispatcher_joined);
	dispatchers = NULL;
	dispatcher_joined = NULL;
	nr_dispatchers = 0;
	return 0;
}

int irqkit_start(const struct irqkit_config *cfg)
{
	int ret;

	if (__atomic_load_n(&wedged, __ATOMIC_ACQUIRE)) {
		irqkit_printk(IRQKIT_LOG_ERR,
			      "irqkit_start: the last irqkit_stop() left a CPU stuck in a handler; stop again first");
		return -IRQKIT_EBUSY;
	}
	ret = irqkit__core_init(cfg);
	if (ret)
		return ret;
	if (irqkit__core_deterministic()) {
		ret = irqkit_thread_bind(0);
		if (ret)
			goto fail;
		irqkit__core_started();
		return 0;
	}
	dispatchers = calloc(irqkit__core_nr_cpus(), sizeof(*dispatchers));
	dispatcher_joined = calloc(irqkit__core_nr_cpus(), sizeof(*dispatcher_joined));
	if (!dispatchers || !dispatcher_joined) {
		free(dispatchers);
		free(dispatcher_joined);
		dispatchers = NULL;
		dispatcher_joined = NULL;
		ret = -IRQKIT_ENOMEM;
		goto fail;
	}
	for (unsigned int i = 0; i < irqkit__core_nr_cpus(); i++) {
		if (pthread_create(&dispatchers[i], NULL, dispatcher_main, (void *)(uintptr_t)i)) {
			ret = -IRQKIT_ENOMEM;
			goto fail_threads;
		}
		nr_dispatchers++;
	}
	ret = irqkit__posix_timer_start();
	if (ret)
		goto fail_threads;
	irqkit__core_started();
	return 0;

fail_threads:
	(void)stop_dispatchers();	/* they have run no handler yet */
fail:
	irqkit__core_exit();
	return ret;
}

void irqkit_stop(void)
{
	/* refused from the runtime's own threads and handlers, before any wait */
	if (irqkit__core_stop_refused())
		return;
	pthread_mutex_lock(&stop_lock);
	if (!wedged && !irqkit__core_stopping()) {
		pthread_mutex_unlock(&stop_lock);
		return;
	}
	/*
	 * dispatchers first: a handler may still arm the timer; then ksoftirqd,
	 * which may be stuck in a tasklet the same way
	 */
	if (stop_dispatchers() || irqkit__softirq_stop(2 * irqkit__core_watchdog_ns())) {
		__atomic_store_n(&wedged, true, __ATOMIC_RELEASE);
		pthread_mutex_unlock(&stop_lock);
		return;
	}
	__atomic_store_n(&wedged, false, __ATOMIC_RELEASE);
	irqkit__posix_timer_stop();
	irqkit__core_exit();
	irqkit__posix_symbols_exit();
	pthread_mutex_unlock(&stop_lock);
}
