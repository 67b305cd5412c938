// SPDX-License-Identifier: MIT
/*
 * <linux/local_lock.h>: a per-CPU lock that turns preemption, interrupts
 * or (already) bottom halves off on a kernel without PREEMPT_RT, and that
 * the lock validator checks as the per-CPU spinlock_t it is on RT.  Built
 * with IRQKIT_LOCKDEP; the validator keeps reporting after a report here.
 */
#define _GNU_SOURCE
#include "../harness.h"

#include <linux/bottom_half.h>
#include <linux/hardirq.h>
#include <linux/interrupt.h>
#include <linux/local_lock.h>
#include <linux/percpu.h>
#include <linux/spinlock.h>

#ifndef IRQKIT_LOCKDEP
#error "test_local_lock.c is built with IRQKIT_LOCKDEP"
#endif

#define REPORT	"[ BUG: Invalid wait context ]"

struct stats {
	local_lock_t	lock;
	unsigned long	events;
};

static DEFINE_PER_CPU(struct stats, stats) = { .lock = INIT_LOCAL_LOCK(lock) };

static int setup(void **state)
{
	irqkit_lockdep_keep_reporting(true);
	return det_setup(state);
}

static void test_local_lock_turns_preemption_or_interrupts_off(void **state)
{
	unsigned long flags;

	(void)state;
	log_clear();
	local_lock(&stats.lock);
	assert_true(in_atomic());
	assert_false(irqs_disabled());
	this_cpu_ptr(&stats)->events++;
	local_unlock(&stats.lock);
	assert_false(in_atomic());
	local_lock_irqsave(&stats.lock, flags);
	assert_true(irqs_disabled());
	this_cpu_ptr(&stats)->events++;
	local_unlock_irqrestore(&stats.lock, flags);
	assert_false(irqs_disabled());
	local_lock_irq(&stats.lock);
	assert_true(irqs_disabled());
	local_unlock_irq(&stats.lock);
	assert_int_equal(per_cpu(stats, smp_processor_id()).events, 2);
	/* with bottom halves off, as in a softirq: nested_bh takes nothing more */
	local_bh_disable();
	local_lock_nested_bh(&stats.lock);
	this_cpu_ptr(&stats)->events++;
	local_unlock_nested_bh(&stats.lock);
	local_bh_enable();
	assert_log_lacks("WARNING");
	assert_log_lacks(REPORT);
	/* outside a bottom-half section it is a mistake: Linux's lockdep_assert_in_softirq */
	local_lock_nested_bh(&stats.lock);
	local_unlock_nested_bh(&stats.lock);
	assert_log_contains("WARNING");
}

/* To the validator a spinlock_t: fine under another one, not under a raw lock. */
static void test_local_lock_wait_context(void **state)
{
	static DEFINE_SPINLOCK(inner);
	static DEFINE_RAW_SPINLOCK(raw);
	unsigned long flags;

	(void)state;
	log_clear();
	local_lock(&stats.lock);
	spin_lock(&inner);
	spin_unlock(&inner);
	local_unlock(&stats.lock);
	assert_log_lacks(REPORT);
	raw_spin_lock_irqsave(&raw, flags);
	local_lock(&stats.lock);
	local_unlock(&stats.lock);
	raw_spin_unlock_irqrestore(&raw, flags);
	assert_log_contains(REPORT);
}

static DEFINE_PER_CPU(struct stats, hstats) = { .lock = INIT_LOCAL_LOCK(lock) };

static irqreturn_t counts_under_local_lock(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	local_lock(&hstats.lock);
	this_cpu_ptr(&hstats)->events++;
	local_unlock(&hstats.lock);
	return IRQ_HANDLED;
}

/* In a handler that RT threads: fine; in one that stays in hardirq: a wait-context bug. */
static void test_local_lock_in_handlers(void **state)
{
	(void)state;
	log_clear();
	assert_int_equal(request_irq(T_EDGE(1), counts_under_local_lock, 0, "thr", NULL), 0);
	irqkit_sw_raise(T_EDGE(1));
	free_irq(T_EDGE(1), NULL);
	assert_int_equal(per_cpu(hstats, 0).events, 1);
	assert_log_lacks(REPORT);
	assert_int_equal(request_irq(T_EDGE(1), counts_under_local_lock, IRQF_NO_THREAD, "hard",
				     NULL), 0);
	irqkit_sw_raise(T_EDGE(1));
	free_irq(T_EDGE(1), NULL);
	assert_log_contains(REPORT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, det_teardown)
		T(test_local_lock_turns_preemption_or_interrupts_off),
		T(test_local_lock_wait_context),
		T(test_local_lock_in_handlers),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
