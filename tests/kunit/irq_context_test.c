// SPDX-License-Identifier: MIT
/*
 * Code run in task, softirq and hardirq context at once, as kernel test
 * suites do it since Linux 6.17 (a hard hrtimer for hardirq context, a
 * BH work item for softirq context, the test's own loop for task context).
 * The helper here is this project's, written against the same kernel names
 * the kernel's <kunit/run-in-irq-context.h> uses (hrtimer_setup_on_stack,
 * HRTIMER_MODE_REL_HARD, INIT_WORK_ONSTACK, system_bh_wq and the destroy
 * calls), so that a suite built on the kernel's header builds here too.
 */
#include <kunit/test.h>

#include <linux/atomic.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

/* What one run of the three contexts shares. */
struct three_ctx {
	bool		(*fn)(void *arg);
	void		*arg;
	struct hrtimer	timer;
	struct work_struct bh;
	ktime_t		period;
	atomic_t	calls[3];	/* task, softirq, hardirq */
	bool		failed[3];
	bool		wrong_context;
};

enum { IN_TASK, IN_SOFTIRQ, IN_HARDIRQ };

static void three_ctx_bh(struct work_struct *work)
{
	struct three_ctx *c = container_of(work, struct three_ctx, bh);

	if (!in_serving_softirq())
		c->wrong_context = true;
	atomic_inc(&c->calls[IN_SOFTIRQ]);
	if (!c->fn(c->arg))
		c->failed[IN_SOFTIRQ] = true;
}

static enum hrtimer_restart three_ctx_timer(struct hrtimer *timer)
{
	struct three_ctx *c = container_of(timer, struct three_ctx, timer);

	if (!in_hardirq())
		c->wrong_context = true;
	atomic_inc(&c->calls[IN_HARDIRQ]);
	if (!c->fn(c->arg))
		c->failed[IN_HARDIRQ] = true;
	queue_work(system_bh_wq, &c->bh);	/* the softirq side, from here */
	hrtimer_forward_now(timer, c->period);
	return HRTIMER_RESTART;
}

/*
 * Call @fn in all three contexts until each has run at least @min times, or
 * for two seconds; the test fails if any call returned false or ran in the
 * wrong context.
 */
static void run_in_three_contexts(struct kunit *test, bool (*fn)(void *), void *arg, int min)
{
	struct three_ctx c = { .fn = fn, .arg = arg, .period = us_to_ktime(20) };
	unsigned long until = jiffies + 2 * HZ;

	hrtimer_setup_on_stack(&c.timer, three_ctx_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	INIT_WORK_ONSTACK(&c.bh, three_ctx_bh);
	hrtimer_start(&c.timer, c.period, HRTIMER_MODE_REL_HARD);
	while (!time_after(jiffies, until)) {
		if (!in_task())
			c.wrong_context = true;
		atomic_inc(&c.calls[IN_TASK]);
		if (!fn(arg))
			c.failed[IN_TASK] = true;
		if (atomic_read(&c.calls[IN_TASK]) >= min && atomic_read(&c.calls[IN_SOFTIRQ]) >= min &&
		    atomic_read(&c.calls[IN_HARDIRQ]) >= min)
			break;
		cond_resched();
	}
	hrtimer_cancel(&c.timer);
	flush_work(&c.bh);
	destroy_work_on_stack(&c.bh);
	destroy_hrtimer_on_stack(&c.timer);

	KUNIT_EXPECT_GE_MSG(test, atomic_read(&c.calls[IN_HARDIRQ]), min, "hardirq context not reached");
	KUNIT_EXPECT_GE_MSG(test, atomic_read(&c.calls[IN_SOFTIRQ]), min, "softirq context not reached");
	KUNIT_EXPECT_GE_MSG(test, atomic_read(&c.calls[IN_TASK]), min, "task context not reached");
	KUNIT_EXPECT_FALSE_MSG(test, c.wrong_context, "a call ran in another context");
	KUNIT_EXPECT_FALSE_MSG(test, c.failed[IN_TASK], "failure in task context");
	KUNIT_EXPECT_FALSE_MSG(test, c.failed[IN_SOFTIRQ], "failure in softirq context");
	KUNIT_EXPECT_FALSE_MSG(test, c.failed[IN_HARDIRQ], "failure in hardirq context");
}

/* ---- the cases ---------------------------------------------------------------------------- */

/* A counter under an irq-safe lock: the sum of what each context added is the counter. */
struct locked_counter {
	spinlock_t	lock;
	unsigned long	value;
	atomic_t	adds;
};

static bool add_under_irqsave(void *arg)
{
	struct locked_counter *lc = arg;
	unsigned long flags, before;

	spin_lock_irqsave(&lc->lock, flags);
	before = lc->value;
	lc->value = before + 1;
	spin_unlock_irqrestore(&lc->lock, flags);
	atomic_inc(&lc->adds);
	return true;
}

static void counter_under_irqsave_in_three_contexts(struct kunit *test)
{
	struct locked_counter lc = { .value = 0 };

	spin_lock_init(&lc.lock);
	run_in_three_contexts(test, add_under_irqsave, &lc, 5);
	KUNIT_EXPECT_EQ(test, lc.value, (unsigned long)atomic_read(&lc.adds));
}

/* What each context sees of itself: preempt_count's parts say where it is. */
static bool context_is_consistent(void *arg)
{
	(void)arg;
	if (in_hardirq())
		return in_interrupt() && !in_task() && irqs_disabled();
	if (in_serving_softirq())
		return in_interrupt() && !in_task();
	return in_task() && !in_interrupt();
}

static void contexts_know_themselves(struct kunit *test)
{
	run_in_three_contexts(test, context_is_consistent, NULL, 5);
}

static struct kunit_case irq_context_cases[] = {
	KUNIT_CASE(counter_under_irqsave_in_three_contexts),
	KUNIT_CASE(contexts_know_themselves),
	{}
};

static struct kunit_suite irq_context_suite = {
	.name = "irq_context",
	.test_cases = irq_context_cases,
};
kunit_test_suite(irq_context_suite);
