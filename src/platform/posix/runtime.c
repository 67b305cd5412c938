// SPDX-License-Identifier: MIT
/* irqkit_start / irqkit_stop on Linux user space: dispatcher threads, the timer thread. */
#define _GNU_SOURCE
#include "../../core/internals.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "posix.h"

static pthread_t *dispatchers;
static unsigned int nr_dispatchers;

static void *dispatcher_main(void *arg)
{
	unsigned int cpu = (unsigned int)(uintptr_t)arg;
	char name[16];

	snprintf(name, sizeof(name), "vcpu/%u", cpu);
	pthread_setname_np(pthread_self(), name);
	if (irqkit__rt.flags & IRQKIT_CFG_PIN_CPUS) {
		long online = sysconf(_SC_NPROCESSORS_ONLN);
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(cpu % (online > 0 ? (unsigned int)online : 1u), &set);
		pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	}
	irqkit__dispatcher_loop(cpu);
	return NULL;
}

static void stop_dispatchers(void)
{
	for (unsigned int i = 0; i < nr_dispatchers; i++) {
		struct irqkit_cpu *c = &irqkit__rt.cpus[i];

		a_store_seq(&c->stop, 1);
		a_fetch_add(&c->kick_seq, 1);
		irqkit_plat_wake(&c->kick_seq);
	}
	for (unsigned int i = 0; i < nr_dispatchers; i++)
		pthread_join(dispatchers[i], NULL);
	free(dispatchers);
	dispatchers = NULL;
	nr_dispatchers = 0;
}

int irqkit_start(const struct irqkit_config *cfg)
{
	int ret = irqkit__core_init(cfg);

	if (ret)
		return ret;
	if (irqkit__rt.mode == IRQKIT_MODE_DETERMINISTIC) {
		ret = irqkit_thread_bind(0);
		if (ret)
			goto fail;
		irqkit__core_started();
		return 0;
	}
	dispatchers = calloc(irqkit__rt.nr_cpus, sizeof(*dispatchers));
	if (!dispatchers) {
		ret = -IRQKIT_ENOMEM;
		goto fail;
	}
	for (unsigned int i = 0; i < irqkit__rt.nr_cpus; i++) {
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
	stop_dispatchers();
fail:
	irqkit__core_exit();
	return ret;
}

void irqkit_stop(void)
{
	if (!irqkit__core_stopping())
		return;
	/* dispatchers first: a handler may still arm the timer */
	stop_dispatchers();
	irqkit__posix_timer_stop();
	irqkit__core_exit();
	irqkit__posix_symbols_exit();
}
