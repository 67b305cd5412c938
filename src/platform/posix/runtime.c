// SPDX-License-Identifier: MIT
/* irqkit_start / irqkit_stop on Linux user space: dispatcher threads, the timer thread. */
#define _GNU_SOURCE
#include <irqkit-core/platform.h>
#include <irqkit/irqkit.h>

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "posix.h"

static struct irqkit_plat_thread **dispatchers;	/* vcpu/N, NULL once joined */
static unsigned int nr_dispatchers;
/* The last stop left a stuck dispatcher: the next irqkit_stop() tries again. */
static bool wedged;
static pthread_mutex_t stop_lock = PTHREAD_MUTEX_INITIALIZER;

static void dispatcher_main(void *arg)
{
	unsigned int cpu = (unsigned int)(uintptr_t)arg;

	if (irqkit__core_flags() & IRQKIT_CFG_PIN_CPUS) {
		long online = sysconf(_SC_NPROCESSORS_ONLN);
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(cpu % (online > 0 ? (unsigned int)online : 1u), &set);
		pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	}
	irqkit__core_dispatcher_loop(cpu);
}

/* CPU hotplug (arch.h): one CPU's dispatcher stops or starts, serialised with stop. */
int irqkit_arch_cpu_down(unsigned int cpu)
{
	int ret = -IRQKIT_EINVAL;

	pthread_mutex_lock(&stop_lock);
	if (dispatchers && cpu < nr_dispatchers && dispatchers[cpu]) {
		irqkit__core_dispatcher_stop(cpu);
		irqkit_plat_thread_join(dispatchers[cpu]);
		dispatchers[cpu] = NULL;
		ret = 0;
	}
	pthread_mutex_unlock(&stop_lock);
	return ret;
}

int irqkit_arch_cpu_up(unsigned int cpu)
{
	int ret = -IRQKIT_EINVAL;
	char name[16];

	pthread_mutex_lock(&stop_lock);
	if (dispatchers && cpu < nr_dispatchers && !dispatchers[cpu] && irqkit_started()) {
		snprintf(name, sizeof(name), "vcpu/%u", cpu);
		ret = irqkit_plat_thread_create(&dispatchers[cpu], name, dispatcher_main,
						(void *)(uintptr_t)cpu);
	}
	pthread_mutex_unlock(&stop_lock);
	return ret;
}

/*
 * Join the dispatchers not joined yet, each within @limit_ns (0: no limit).
 * One that does not exit in time is stuck in a handler that does not return:
 * it is reported and left, and stop returns -ETIMEDOUT (the runtime's memory
 * stays, since that handler still uses it).
 */
static int stop_dispatchers(uint64_t limit_ns)
{
	int ret = 0;

	for (unsigned int i = 0; i < nr_dispatchers; i++)
		if (dispatchers[i])
			irqkit__core_dispatcher_stop(i);
	for (unsigned int i = 0; i < nr_dispatchers; i++) {
		if (!dispatchers[i])
			continue;
		if (!limit_ns) {
			irqkit_plat_thread_join(dispatchers[i]);
		} else if (irqkit_plat_thread_join_timeout(dispatchers[i], limit_ns)) {
			irqkit_printk(IRQKIT_LOG_ERR,
				      "irqkit_stop: vcpu/%u did not stop: CPU#%u is stuck in %ps; the runtime is left as it is (call irqkit_stop() again once it returns)",
				      i, i, irqkit__core_dispatcher_running_fn(i));
			ret = -IRQKIT_ETIMEDOUT;
			continue;
		}
		dispatchers[i] = NULL;
	}
	if (ret)
		return ret;
	free(dispatchers);
	dispatchers = NULL;
	nr_dispatchers = 0;
	return 0;
}

/*
 * ThreadSanitizer's annotation, present when the program runs under it: the
 * jiffies objects are read as plain (volatile) words, as Linux's jiffies is,
 * by driver code on any thread, while the runtime publishes them atomically.
 * An aligned word load cannot tear here, so those reads are a benign race,
 * and saying so keeps every user's ThreadSanitizer run clean.
 */
extern void AnnotateBenignRaceSized(const char *file, int line, const volatile void *mem,
				    long size, const char *desc) __attribute__((weak));

static void annotate_jiffies(void)
{
	if (!AnnotateBenignRaceSized)
		return;
	AnnotateBenignRaceSized(__FILE__, __LINE__, &irqkit_jiffies_value,
				(long)sizeof(irqkit_jiffies_value), "jiffies, read as a word");
	AnnotateBenignRaceSized(__FILE__, __LINE__, &irqkit_jiffies_64_value,
				(long)sizeof(irqkit_jiffies_64_value), "jiffies_64, read as a word");
}

/*
 * IRQKIT_RACE_WINDOW=NAME:US[,NAME:US...]: the checking build's race windows
 * widened (platform.h, irqkit__core_window_set()), for tests.
 */
static void windows_from_env(const char *spec)
{
	char buf[256], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", spec);
	for (char *e = strtok_r(buf, ",", &save); e; e = strtok_r(NULL, ",", &save)) {
		char *colon = strchr(e, ':'), *end = NULL;
		unsigned long long us = colon ? strtoull(colon + 1, &end, 10) : 0;
		int ret;

		if (!colon || end == colon + 1 || *end) {
			irqkit_printk(IRQKIT_LOG_ERR, "IRQKIT_RACE_WINDOW: \"%s\" is not NAME:MICROSECONDS", e);
			continue;
		}
		*colon = 0;
		ret = irqkit__core_window_set(e, us * 1000ull);
		if (ret)
			irqkit_printk(IRQKIT_LOG_ERR, "IRQKIT_RACE_WINDOW: %s: %s", e,
				      ret == -IRQKIT_EINVAL ? "no such window" :
				      "race windows are in the checking build only (IRQKIT_DEBUG)");
	}
}

/*
 * IRQKIT_FAULT_IRQ: fault injection from the environment (<irqkit/fault.h>);
 * IRQKIT_LOCKDEP=0: the lock validator off, IRQKIT_LOCKDEP_KEEP=1: it goes
 * on after a wait-context report (<irqkit/spinlock.h>);
 * IRQKIT_RACE_WINDOW: race windows (above).
 */
static void settings_from_env(void)
{
	const char *spec = getenv("IRQKIT_FAULT_IRQ");
	const char *ld = getenv("IRQKIT_LOCKDEP");
	const char *keep = getenv("IRQKIT_LOCKDEP_KEEP");
	const char *windows = getenv("IRQKIT_RACE_WINDOW");

	if (spec && *spec)
		(void)irqkit_fault_parse(spec);	/* a bad entry is logged and the rest ignored */
	if (ld && ld[0] == '0' && !ld[1])
		irqkit_lockdep_off();
	if (keep && keep[0] == '1' && !keep[1])
		irqkit_lockdep_keep_reporting(true);
	if (windows && *windows)
		windows_from_env(windows);
}

/* The end of a start that worked, in any mode: the environment's settings, then running. */
static void started(void)
{
	settings_from_env();
	irqkit__posix_observe_start();
	irqkit__core_started();
	/* the publisher reads the tables on a thread of its own, in real time: not in virtual time */
	if (!irqkit__posix_sched_current()->virtual_time)
		irqkit__posix_publish_start(irqkit__core_flags() & IRQKIT_CFG_PUBLISH);
	else if (irqkit__core_flags() & IRQKIT_CFG_PUBLISH)
		irqkit_printk(IRQKIT_LOG_WARNING, "irqkit_start: IRQKIT_CFG_PUBLISH is not available in %s mode",
			      irqkit__posix_sched_current()->name);
}

/*
 * IRQKIT_IRQFIXUP=1, IRQKIT_IRQPOLL=1: Linux's boot options, and
 * IRQKIT_PREEMPT_RT=1, its CONFIG_PREEMPT_RT, added to the config's flags.
 */
static unsigned int flags_from_env(void)
{
	const char *fixup = getenv("IRQKIT_IRQFIXUP"), *poll = getenv("IRQKIT_IRQPOLL");
	const char *rt = getenv("IRQKIT_PREEMPT_RT");
	unsigned int flags = 0;

	if (rt && *rt && strcmp(rt, "0"))
		flags |= IRQKIT_CFG_PREEMPT_RT;
	if (fixup && *fixup && strcmp(fixup, "0"))
		flags |= IRQKIT_CFG_IRQFIXUP;
	if (poll && *poll && strcmp(poll, "0"))
		flags |= IRQKIT_CFG_IRQPOLL;
	return flags;
}

/* The scheduler stacked on this platform for run mode @mode, or NULL: the host's. */
static const struct irqkit__posix_sched *stacked_for(unsigned int mode)
{
	for (const struct irqkit__posix_sched *const *s = irqkit__posix_stacked; *s; s++)
		if ((*s)->mode == mode)
			return *s;
	return NULL;
}

int irqkit_start(const struct irqkit_config *cfg)
{
	struct irqkit_config with_env;
	int ret;

	annotate_jiffies();
	if (__atomic_load_n(&wedged, __ATOMIC_ACQUIRE)) {
		irqkit_printk(IRQKIT_LOG_ERR,
			      "irqkit_start: the last irqkit_stop() left a CPU stuck in a handler; stop again first");
		return -IRQKIT_EBUSY;
	}
	if (flags_from_env()) {
		with_env = cfg ? *cfg : (struct irqkit_config){ 0 };
		with_env.flags |= flags_from_env();
		cfg = &with_env;
	}
	if (cfg) {
		const struct irqkit__posix_sched *s = stacked_for(cfg->mode);

		/* before the core makes its threads: each is the stacked scheduler's */
		ret = s ? s->begin(cfg) : 0;
		if (ret)
			return ret;
	}
	ret = irqkit__core_init(cfg);
	if (ret) {
		irqkit__posix_sched_end();
		return ret;
	}
	if (irqkit__core_deterministic()) {
		ret = irqkit__posix_cpus_init(irqkit__core_nr_cpus());
		if (!ret)
			ret = irqkit_thread_bind(0);
		if (ret)
			goto fail;
		started();
		return 0;
	}
	ret = irqkit__posix_cpus_init(irqkit__core_nr_cpus());
	if (ret)
		goto fail;
	dispatchers = calloc(irqkit__core_nr_cpus(), sizeof(*dispatchers));
	if (!dispatchers) {
		ret = -IRQKIT_ENOMEM;
		goto fail;
	}
	nr_dispatchers = irqkit__core_nr_cpus();
	for (unsigned int i = 0; i < irqkit__core_nr_cpus(); i++) {
		char name[16];

		if (irqkit__core_loop_cpus() & (1ull << i)) {
			/* a program's loop plays it: no thread, every signal wakes the loop */
			irqkit__posix_cpu_loop(i);
			irqkit__core_dispatcher_external(i);
			continue;
		}
		snprintf(name, sizeof(name), "vcpu/%u", i);
		ret = irqkit_plat_thread_create(&dispatchers[i], name, dispatcher_main,
						(void *)(uintptr_t)i);
		if (ret)
			goto fail_threads;
	}
	ret = irqkit__posix_timer_start();
	if (ret)
		goto fail_threads;
	/* in virtual time the starting thread is CPU 0's first task, as deterministic mode's */
	if (irqkit__posix_sched_current()->virtual_time) {
		ret = irqkit_thread_bind(0);
		if (ret)
			goto fail_timer;
	}
	started();
	return 0;

fail_timer:
	irqkit__posix_timer_stop();
fail_threads:
	(void)stop_dispatchers(0);	/* they have run no handler yet */
fail:
	irqkit__core_exit();		/* its workers may still kick a CPU */
	irqkit__posix_cpus_exit();
	irqkit__posix_sched_end();
	return ret;
}

void irqkit_stop(void)
{
	uint64_t limit;

	/* refused from the runtime's own threads and handlers, before any wait */
	if (irqkit__core_stop_refused())
		return;
	pthread_mutex_lock(&stop_lock);
	irqkit__posix_publish_stop();	/* it reads the tables the stop frees */
	if (!wedged && !irqkit__core_stopping()) {
		pthread_mutex_unlock(&stop_lock);
		return;
	}
	/*
	 * dispatchers first: a handler may still arm the timer; then ksoftirqd,
	 * which may be stuck in a tasklet the same way.  With the watchdog on,
	 * each gets twice its threshold to end.
	 */
	limit = 2 * irqkit__core_watchdog_ns();
	if (stop_dispatchers(limit) || irqkit__core_softirq_stop(limit)) {
		__atomic_store_n(&wedged, true, __ATOMIC_RELEASE);
		pthread_mutex_unlock(&stop_lock);
		return;
	}
	__atomic_store_n(&wedged, false, __ATOMIC_RELEASE);
	irqkit__posix_timer_stop();
	irqkit__posix_observe_stop();
	irqkit__core_exit();		/* its workers may still kick a CPU */
	irqkit__posix_cpus_exit();
	irqkit__posix_sched_end();
	irqkit__posix_symbols_exit();
	pthread_mutex_unlock(&stop_lock);
}
