// SPDX-License-Identifier: MIT
/*
 * The lock validator's wait-context check (Linux's
 * CONFIG_PROVE_RAW_LOCK_NESTING): a spinlock_t, which sleeps on PREEMPT_RT,
 * taken where only spinning is allowed: under a raw spinlock, in a hardirq
 * handler that cannot be threaded, in a hard hrtimer or hard irq_work, in an
 * irq_chip callback; a mutex under a spinlock.  Correct nesting reports
 * nothing.  This file is compiled with IRQKIT_LOCKDEP; the validator goes on
 * after a report here (irqkit_lockdep_keep_reporting), except in the last
 * test, which checks that without it the first report turns it off.
 */
#define _GNU_SOURCE
#include "../../harness.h"
#include "../../testchip.h"

#include <irqkit/hrtimer.h>
#include <irqkit/irq_work.h>

#ifndef IRQKIT_LOCKDEP
#error "test_wait_context.c is built with IRQKIT_LOCKDEP"
#endif

#define REPORT	"[ BUG: Invalid wait context ]"

static int setup(void **state)
{
	irqkit_lockdep_keep_reporting(true);
	return det_setup(state);
}

/* Each case's locks have an init site of their own: a class, reported once each. */
static void test_spinlock_under_raw_spinlock(void **state)
{
	struct irqkit_spinlock raw, lock;
	unsigned long flags;

	(void)state;
	irqkit_spin_lock_init(&raw);
	irqkit_spin_lock_init(&lock);
	log_clear();
	/* right: a raw lock under a spinlock_t, a spinlock_t alone, a trylock anywhere */
	irqkit_spin_lock(&lock);
	irqkit_raw_spin_lock(&raw);
	irqkit_spin_unlock(&raw);
	irqkit_spin_unlock(&lock);
	flags = irqkit_raw_spin_lock_irqsave(&raw);
	assert_true(irqkit_spin_trylock(&lock));
	irqkit_spin_unlock(&lock);
	irqkit_spin_unlock_irqrestore(&raw, flags);
	assert_log_lacks(REPORT);
	/* wrong: a spinlock_t under a raw one */
	flags = irqkit_raw_spin_lock_irqsave(&raw);
	irqkit_spin_lock(&lock);
	irqkit_spin_unlock(&lock);
	irqkit_spin_unlock_irqrestore(&raw, flags);
	assert_log_contains(REPORT);
	assert_log_contains("is trying to lock:");
	assert_log_contains("context-{5:5}");		/* task context, then the raw lock's {2:2} */
	assert_log_contains("1 lock held by");
}

static struct irqkit_spinlock h_lock, h_raw;
static int h_calls;

static enum irqkit_irqreturn takes_spinlock(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	irqkit_spin_lock(&h_lock);
	h_calls++;
	irqkit_spin_unlock(&h_lock);
	return IRQKIT_HANDLED;
}

static enum irqkit_irqreturn takes_raw(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	irqkit_raw_spin_lock(&h_raw);
	h_calls++;
	irqkit_spin_unlock(&h_raw);
	return IRQKIT_HANDLED;
}

static enum irqkit_irqreturn wake(int irq, void *dev_id)
{
	return takes_spinlock(irq, dev_id) == IRQKIT_HANDLED ? IRQKIT_WAKE_THREAD : IRQKIT_NONE;
}

static enum irqkit_irqreturn thread_fn(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	return IRQKIT_HANDLED;
}

/*
 * A handler force threading would move may take a spinlock_t (it runs in a
 * thread on PREEMPT_RT); one that stays in hardirq (NO_THREAD, ONESHOT's
 * primary) may not, but may take a raw lock.
 */
static void test_spinlock_in_handlers(void **state)
{
	(void)state;
	irqkit_spin_lock_init(&h_lock);
	irqkit_spin_lock_init(&h_raw);
	log_clear();
	assert_int_equal(irqkit_request_irq(T_EDGE(1), takes_spinlock, 0, "threadable", NULL), 0);
	irqkit_sw_raise(T_EDGE(1));
	assert_int_equal(h_calls, 1);
	irqkit_free_irq(T_EDGE(1), NULL);
	assert_int_equal(irqkit_request_irq(T_EDGE(1), takes_raw, IRQKIT_F_NO_THREAD, "raw", NULL),
			 0);
	irqkit_sw_raise(T_EDGE(1));
	irqkit_free_irq(T_EDGE(1), NULL);
	assert_log_lacks(REPORT);
	assert_int_equal(irqkit_request_irq(T_EDGE(1), takes_spinlock, IRQKIT_F_NO_THREAD, "hard",
					    NULL), 0);
	irqkit_sw_raise(T_EDGE(1));
	irqkit_free_irq(T_EDGE(1), NULL);
	assert_log_contains(REPORT);
	assert_log_contains("context-{2:2}");
}

static void test_spinlock_in_a_oneshot_primary(void **state)
{
	(void)state;
	irqkit_spin_lock_init(&h_lock);		/* a class of this site */
	log_clear();
	assert_int_equal(irqkit_request_threaded_irq(T_EDGE(2), wake, thread_fn, IRQKIT_F_ONESHOT,
						     "oneshot", NULL), 0);
	irqkit_sw_raise(T_EDGE(2));
	irqkit_synchronize_irq(T_EDGE(2));
	irqkit_free_irq(T_EDGE(2), NULL);
	assert_log_contains(REPORT);
}

/* A hard hrtimer's callback spins on RT too; a plain one runs in softirq there. */
static struct irqkit_spinlock t_lock;
static int t_calls;

static enum irqkit_hrtimer_restart timer_takes_spinlock(struct irqkit_hrtimer *timer)
{
	(void)timer;
	irqkit_spin_lock(&t_lock);
	t_calls++;
	irqkit_spin_unlock(&t_lock);
	return IRQKIT_HRTIMER_NORESTART;
}

static void test_spinlock_in_hrtimers(void **state)
{
	struct irqkit_hrtimer plain, hard;

	(void)state;
	irqkit_spin_lock_init(&t_lock);
	log_clear();
	irqkit_hrtimer_setup(&plain, timer_takes_spinlock, IRQKIT_CLOCK_MONOTONIC,
			     IRQKIT_HRTIMER_MODE_REL);
	irqkit_hrtimer_start_range_ns(&plain, 1000, 0, IRQKIT_HRTIMER_MODE_REL);
	irqkit_clock_advance(1000000);
	irqkit_deliver_pending();
	assert_int_equal(t_calls, 1);
	assert_log_lacks(REPORT);
	irqkit_hrtimer_setup(&hard, timer_takes_spinlock, IRQKIT_CLOCK_MONOTONIC,
			     IRQKIT_HRTIMER_MODE_REL | IRQKIT_HRTIMER_MODE_HARD);
	irqkit_hrtimer_start_range_ns(&hard, 1000, 0,
				      IRQKIT_HRTIMER_MODE_REL | IRQKIT_HRTIMER_MODE_HARD);
	irqkit_clock_advance(1000000);
	irqkit_deliver_pending();
	assert_int_equal(t_calls, 2);
	assert_log_contains(REPORT);
}

/* An irq_work: a HARD one spins on RT, a plain one does not. */
static struct irqkit_spinlock w_lock;
static int w_calls;

static void work_takes_spinlock(struct irqkit_irq_work *work)
{
	(void)work;
	irqkit_spin_lock(&w_lock);
	w_calls++;
	irqkit_spin_unlock(&w_lock);
}

static void test_spinlock_in_irq_work(void **state)
{
	struct irqkit_irq_work plain = IRQKIT_IRQ_WORK_INIT(work_takes_spinlock);
	struct irqkit_irq_work hard = IRQKIT_IRQ_WORK_INIT_HARD(work_takes_spinlock);

	(void)state;
	irqkit_spin_lock_init(&w_lock);
	log_clear();
	assert_true(irqkit_irq_work_queue(&plain));
	irqkit_deliver_pending();
	assert_int_equal(w_calls, 1);
	assert_log_lacks(REPORT);
	assert_true(irqkit_irq_work_queue(&hard));
	irqkit_deliver_pending();
	assert_int_equal(w_calls, 2);
	assert_log_contains(REPORT);
}

/* An irq_chip callback runs under the descriptor's raw lock: no spinlock_t there. */
static struct irqkit_spinlock c_lock;

static void ack_takes_spinlock(struct irqkit_irq_data *d)
{
	(void)d;
	irqkit_spin_lock(&c_lock);
	irqkit_spin_unlock(&c_lock);
}

static void chip_nop(struct irqkit_irq_data *d)
{
	(void)d;
}

static struct irqkit_chip locking_chip = {
	.name		= "locking",
	.irq_ack	= ack_takes_spinlock,
	.irq_mask	= chip_nop,
	.irq_unmask	= chip_nop,
};

static enum irqkit_irqreturn handled(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	return IRQKIT_HANDLED;
}

static void test_spinlock_in_an_irq_chip_callback(void **state)
{
	(void)state;
	irqkit_spin_lock_init(&c_lock);
	testchip_attach(T_NOCHIP, &locking_chip, irqkit_handle_edge_irq);
	assert_int_equal(irqkit_request_irq(T_NOCHIP, handled, 0, "chip", NULL), 0);
	log_clear();
	testchip_fire(T_NOCHIP);		/* the flow acks it: the chip's callback */
	irqkit_free_irq(T_NOCHIP, NULL);
	assert_log_contains(REPORT);
}

/* A mutex under a spinlock_t: sleeping where RT spins only so far (and might_sleep too). */
static void test_mutex_under_a_spinlock(void **state)
{
	struct irqkit_spinlock lock;
	struct irqkit_mutex m;

	(void)state;
	irqkit_spin_lock_init(&lock);
	irqkit_mutex_init(&m);
	log_clear();
	irqkit_mutex_lock(&m);			/* alone, in task context: right */
	irqkit_mutex_unlock(&m);
	assert_log_lacks(REPORT);
	irqkit_spin_lock(&lock);
	irqkit_mutex_lock(&m);
	irqkit_mutex_unlock(&m);
	irqkit_spin_unlock(&lock);
	assert_log_contains(REPORT);
}

/* As Linux: the first report turns the validator off, unless it is kept reporting. */
static void test_a_report_turns_the_validator_off(void **state)
{
	struct irqkit_spinlock raw, lock;
	unsigned long flags;

	(void)state;
	irqkit_lockdep_keep_reporting(false);
	irqkit_spin_lock_init(&raw);
	irqkit_spin_lock_init(&lock);
	assert_true(irqkit_lockdep_enabled());
	flags = irqkit_raw_spin_lock_irqsave(&raw);
	irqkit_spin_lock(&lock);
	irqkit_spin_unlock(&lock);
	irqkit_spin_unlock_irqrestore(&raw, flags);
	assert_false(irqkit_lockdep_enabled());
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, det_teardown)
		T(test_spinlock_under_raw_spinlock),
		T(test_spinlock_in_handlers),
		T(test_spinlock_in_a_oneshot_primary),
		T(test_spinlock_in_hrtimers),
		T(test_spinlock_in_irq_work),
		T(test_spinlock_in_an_irq_chip_callback),
		T(test_mutex_under_a_spinlock),
		T(test_a_report_turns_the_validator_off),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
