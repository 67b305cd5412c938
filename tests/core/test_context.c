// SPDX-License-Identifier: MIT
/* Tests of src/core/context.c: local interrupt state, bottom halves, preempt_count, might_sleep. */
#define _GNU_SOURCE
#include "../harness.h"

#define ARRAY_SIZE_T(a) (sizeof(a) / sizeof((a)[0]))

static struct tdev a;

static int setup(void **state)
{
	tdev_init(&a);
	a.ret = IRQKIT_HANDLED;
	return det_setup(state);
}

/* ---- 5.1 --------------------------------------------------------------------------- */

static void test_save_restore_nests_and_restores_exactly(void **state)
{
	unsigned long outer, inner;

	(void)state;
	assert_false(irqkit_irqs_disabled());
	outer = irqkit_local_irq_save();
	assert_int_equal(outer, 0);
	assert_true(irqkit_irqs_disabled());
	inner = irqkit_local_irq_save();
	assert_int_not_equal(inner, 0);
	irqkit_local_irq_restore(inner);
	assert_true(irqkit_irqs_disabled());	/* inner restore keeps them off */
	irqkit_local_irq_restore(outer);
	assert_false(irqkit_irqs_disabled());
}

static void test_disable_enable_are_unconditional(void **state)
{
	unsigned long flags;

	(void)state;
	irqkit_local_irq_disable();
	irqkit_local_irq_disable();
	assert_true(irqkit_irqs_disabled());
	irqkit_local_irq_enable();
	assert_false(irqkit_irqs_disabled());
	/* a plain enable inside a save region breaks the outer section */
	flags = irqkit_local_irq_save();
	irqkit_local_irq_enable();
	assert_false(irqkit_irqs_disabled());
	irqkit_local_irq_restore(flags);
	assert_false(irqkit_irqs_disabled());
}

static void test_local_save_flags_reads_without_changing(void **state)
{
	unsigned long flags;

	(void)state;
	assert_int_equal(irqkit_local_save_flags(), 0);
	flags = irqkit_local_irq_save();
	assert_int_not_equal(irqkit_local_save_flags(), 0);
	assert_true(irqkit_irqs_disabled());
	irqkit_local_irq_restore(flags);
	assert_int_equal(irqkit_local_save_flags(), 0);
}

/* ---- delivery points (DESIGN, deterministic mode) ------------------------------------------ */

static void test_interrupts_off_latch_and_restore_delivers(void **state)
{
	unsigned long flags;

	(void)state;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "a", &a), 0);
	flags = irqkit_local_irq_save();
	irqkit_sw_raise(T_EDGE(1));
	irqkit_sw_raise(T_EDGE(1));	/* coalesces with the first */
	assert_int_equal(atomic_load(&a.calls), 0);
	irqkit_local_irq_restore(flags);
	assert_int_equal(atomic_load(&a.calls), 1);
}

static void test_nested_restore_delivers_only_at_the_outermost(void **state)
{
	unsigned long outer, inner;

	(void)state;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "a", &a), 0);
	outer = irqkit_local_irq_save();
	inner = irqkit_local_irq_save();
	irqkit_sw_raise(T_EDGE(1));
	irqkit_local_irq_restore(inner);
	assert_int_equal(atomic_load(&a.calls), 0);
	irqkit_local_irq_restore(outer);
	assert_int_equal(atomic_load(&a.calls), 1);
}

static void test_local_irq_enable_delivers(void **state)
{
	(void)state;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "a", &a), 0);
	irqkit_local_irq_disable();
	irqkit_sw_raise(T_EDGE(1));
	assert_int_equal(atomic_load(&a.calls), 0);
	irqkit_local_irq_enable();
	assert_int_equal(atomic_load(&a.calls), 1);
}

static void test_spin_unlock_irqrestore_delivers(void **state)
{
	struct irqkit_spinlock lock = IRQKIT_SPINLOCK_INIT;
	unsigned long flags;

	(void)state;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "a", &a), 0);
	flags = irqkit_spin_lock_irqsave(&lock);
	irqkit_sw_raise(T_EDGE(1));
	assert_int_equal(atomic_load(&a.calls), 0);
	irqkit_spin_unlock_irqrestore(&lock, flags);
	assert_int_equal(atomic_load(&a.calls), 1);
}

static void *raise_from_other_thread(void *arg)
{
	irqkit_sw_raise((unsigned int)(uintptr_t)arg);
	return NULL;
}

static void test_local_bh_enable_delivers_what_another_thread_raised(void **state)
{
	pthread_t t;

	(void)state;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "a", &a), 0);
	irqkit_local_bh_disable();
	pthread_create(&t, NULL, raise_from_other_thread, (void *)(uintptr_t)T_EDGE(1));
	pthread_join(t, NULL);
	/* deterministic: a raise from another thread waits for a delivery point */
	assert_int_equal(atomic_load(&a.calls), 0);
	irqkit_local_bh_enable();
	assert_int_equal(atomic_load(&a.calls), 1);
}

static void test_deliver_pending_is_a_delivery_point(void **state)
{
	pthread_t t;

	(void)state;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "a", &a), 0);
	pthread_create(&t, NULL, raise_from_other_thread, (void *)(uintptr_t)T_EDGE(1));
	pthread_join(t, NULL);
	assert_int_equal(atomic_load(&a.calls), 0);
	irqkit_deliver_pending();
	assert_int_equal(atomic_load(&a.calls), 1);
}

static void nop_work(struct irqkit_work *w) { (void)w; }
static void nop_tasklet(struct irqkit_tasklet *t) { (void)t; }
static void nop_timer(struct irqkit_timer_list *t) { (void)t; }

/*
 * irqkit's own interrupts-off sections (timer, tasklet and work-pool locks)
 * are no delivery points: a test picks where interrupts come, and mod_timer
 * or queue_work is not such a place.
 */
static void test_irqkit_calls_are_not_delivery_points(void **state)
{
	/* static: a failed assertion leaves them queued past this frame */
	static struct irqkit_timer_list timer;
	static struct irqkit_tasklet tl;
	static struct irqkit_work work;
	pthread_t t;

	(void)state;
	irqkit_timer_setup(&timer, nop_timer, 0);
	irqkit_tasklet_setup(&tl, nop_tasklet);
	irqkit_init_work(&work, nop_work);
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "a", &a), 0);
	pthread_create(&t, NULL, raise_from_other_thread, (void *)(uintptr_t)T_EDGE(1));
	pthread_join(t, NULL);
	irqkit_mod_timer(&timer, irqkit_jiffies() + 100);
	irqkit_del_timer(&timer);
	irqkit_queue_work(irqkit_system_wq(), &work);
	irqkit_flush_work(&work);
	irqkit_local_bh_disable();	/* the tasklet stays queued: no softirq point here */
	irqkit_tasklet_schedule(&tl);
	assert_int_equal(atomic_load(&a.calls), 0);
	irqkit_local_bh_enable();	/* this is a point: the interrupt, then the tasklet */
	assert_int_equal(atomic_load(&a.calls), 1);
	irqkit_tasklet_kill(&tl);
}

static void test_unbound_thread_records_state_and_excludes_nothing(void **state)
{
	(void)state;
	assert_int_equal(irqkit_thread_unbind(), 0);
	irqkit_local_irq_disable();
	assert_true(irqkit_irqs_disabled());
	assert_int_equal(irqkit_thread_bind(0), -IRQKIT_EBUSY);	/* not with interrupts off */
	irqkit_local_irq_enable();
	assert_int_equal(irqkit_thread_bind(0), 0);
	assert_int_equal(irqkit_thread_bind(7), -IRQKIT_EINVAL);
}

/* ---- 5.2, 5.5, 5.6 ------------------------------------------------------------------------- */

static void test_bh_disable_adds_0x200_and_nests(void **state)
{
	(void)state;
	assert_int_equal(irqkit_preempt_count(), 0);
	irqkit_local_bh_disable();
	assert_int_equal(irqkit_preempt_count(), 0x200);
	assert_true(irqkit_in_softirq());
	assert_true(irqkit_in_interrupt());
	assert_false(irqkit_in_serving_softirq());
	assert_true(irqkit_in_task());
	irqkit_local_bh_disable();
	assert_int_equal(irqkit_preempt_count(), 0x400);
	irqkit_local_bh_enable();
	irqkit_local_bh_enable();
	assert_int_equal(irqkit_preempt_count(), 0);
	assert_false(irqkit_in_interrupt());
}

struct ctx_seen {
	unsigned int	pc;
	bool		in_irq, in_interrupt, in_task, in_softirq, in_atomic;
};

static struct ctx_seen seen;

static void record_ctx(struct tdev *dev, int irq)
{
	(void)dev;
	(void)irq;
	seen.pc = irqkit_preempt_count();
	seen.in_irq = irqkit_in_hardirq();
	seen.in_interrupt = irqkit_in_interrupt();
	seen.in_task = irqkit_in_task();
	seen.in_softirq = irqkit_in_softirq();
	seen.in_atomic = irqkit_in_atomic();
}

static void test_handler_context_predicates(void **state)
{
	(void)state;
	a.hook = record_ctx;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "a", &a), 0);
	irqkit_sw_raise(T_EDGE(1));
	assert_int_equal(seen.pc & IRQKIT_HARDIRQ_MASK, IRQKIT_HARDIRQ_OFFSET);
	assert_true(seen.in_irq);
	assert_true(seen.in_interrupt);
	assert_false(seen.in_task);
	assert_false(seen.in_softirq);
	assert_true(seen.in_atomic);
	assert_true(irqkit_in_task());
	assert_false(irqkit_in_atomic());
}

static void test_context_in_bh_disabled_section_with_interrupt(void **state)
{
	(void)state;
	a.hook = record_ctx;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "a", &a), 0);
	irqkit_local_bh_disable();
	irqkit_sw_raise(T_EDGE(1));	/* hardirqs still run with bottom halves off */
	irqkit_local_bh_enable();
	assert_int_equal(atomic_load(&a.calls), 1);
	assert_int_equal(seen.pc, IRQKIT_HARDIRQ_OFFSET | IRQKIT_SOFTIRQ_DISABLE_OFFSET);
}

static void bh_enable_in_handler(struct tdev *dev, int irq)
{
	(void)dev;
	(void)irq;
	irqkit_local_bh_disable();
	irqkit_local_bh_enable();
}

static void test_local_bh_enable_in_hardirq_warns(void **state)
{
	(void)state;
	a.hook = bh_enable_in_handler;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "a", &a), 0);
	irqkit_sw_raise(T_EDGE(1));
	assert_log_contains("WARNING: CPU: 0 PID:");
	assert_log_contains("context.c");
}

static void test_local_bh_enable_with_interrupts_off_warns(void **state)
{
	(void)state;
	irqkit_local_irq_disable();
	irqkit_local_bh_disable();
	irqkit_local_bh_enable();
	irqkit_local_irq_enable();
	assert_log_contains("WARNING: CPU: 0 PID:");
	assert_int_equal(irqkit_preempt_count(), 0);
}

static void test_spin_lock_makes_context_atomic_and_might_sleep_reports(void **state)
{
	struct irqkit_spinlock lock = IRQKIT_SPINLOCK_INIT;

	(void)state;
	irqkit_spin_lock(&lock);
	assert_true(irqkit_in_atomic());
	assert_int_equal(irqkit_preempt_count(), 1);
	irqkit_synchronize_irq(T_EDGE(1));
	irqkit_spin_unlock(&lock);
	assert_log_contains("BUG: sleeping function called from invalid context at");
	assert_log_contains("in_atomic(): 1, irqs_disabled(): 0, non_block: 0, pid:");
	assert_log_contains("preempt_count: 1, expected: 0");
	/* once a second at most */
	log_clear();
	irqkit_spin_lock(&lock);
	irqkit_synchronize_irq(T_EDGE(1));
	irqkit_spin_unlock(&lock);
	assert_log_lacks("BUG:");
	irqkit_clock_advance(1001000000ull);
	irqkit_spin_lock(&lock);
	irqkit_synchronize_irq(T_EDGE(1));
	irqkit_spin_unlock(&lock);
	assert_log_contains("BUG: sleeping function");
}

/* ---- issue 3's context rules: each call that may sleep, from atomic context ------------ */

static struct irqkit_work idle_work;
static struct irqkit_tasklet idle_tasklet;
static struct irqkit_timer_list idle_timer;
static struct irqkit_workqueue *spare_wq;
static int which_call;

static const char *const sleeping_calls[] = {
	"flush_work", "cancel_work_sync", "synchronize_irq", "disable_irq", "tasklet_kill",
	"del_timer_sync", "msleep", "destroy_workqueue",
};

static void make_sleeping_call(int which)
{
	switch (which) {
	case 0: irqkit_flush_work(&idle_work); break;
	case 1: irqkit_cancel_work_sync(&idle_work); break;
	case 2: irqkit_synchronize_irq(T_EDGE(2)); break;
	case 3: irqkit_disable_irq(T_EDGE(2)); irqkit_enable_irq(T_EDGE(2)); break;
	case 4: irqkit_tasklet_kill(&idle_tasklet); break;
	case 5: irqkit_del_timer_sync(&idle_timer); break;
	case 6: irqkit_msleep(0); break;
	default: irqkit_destroy_workqueue(spare_wq); break;
	}
}

static void call_in_handler(struct tdev *dev, int irq)
{
	(void)dev;
	(void)irq;
	make_sleeping_call(which_call);
}

static void call_in_tasklet(struct irqkit_tasklet *t)
{
	(void)t;
	make_sleeping_call(which_call);
}

static void test_calls_that_may_sleep_report_from_hardirq_and_softirq(void **state)
{
	struct irqkit_tasklet caller;

	(void)state;
	irqkit_init_work(&idle_work, nop_work);
	irqkit_tasklet_setup(&idle_tasklet, nop_tasklet);
	irqkit_timer_setup(&idle_timer, nop_timer, 0);
	irqkit_tasklet_setup(&caller, call_in_tasklet);
	a.hook = call_in_handler;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "a", &a), 0);
	for (int i = 0; i < (int)ARRAY_SIZE_T(sleeping_calls); i++) {
		for (int ctx = 0; ctx < 2; ctx++) {
			spare_wq = irqkit_alloc_workqueue("spare", 0, 0);
			which_call = i;
			irqkit_clock_advance(1100000000ull);	/* the report is once a second */
			log_clear();
			if (ctx == 0) {
				irqkit_sw_raise(T_EDGE(1));
			} else {
				irqkit_tasklet_schedule(&caller);
				irqkit_deliver_pending();
			}
			if (!log_contains("BUG: sleeping function called from invalid context at")) {
				log_dump();
				fail_msg("%s from %s: no report", sleeping_calls[i],
					 ctx ? "softirq" : "hardirq");
			}
			assert_log_contains(ctx ? "in_atomic(): 1, irqs_disabled(): 0" :
						  "in_atomic(): 1, irqs_disabled(): 1");
			if (i != 7)
				irqkit_destroy_workqueue(spare_wq);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, det_teardown)
		T(test_save_restore_nests_and_restores_exactly),
		T(test_disable_enable_are_unconditional),
		T(test_local_save_flags_reads_without_changing),
		T(test_interrupts_off_latch_and_restore_delivers),
		T(test_nested_restore_delivers_only_at_the_outermost),
		T(test_local_irq_enable_delivers),
		T(test_spin_unlock_irqrestore_delivers),
		T(test_local_bh_enable_delivers_what_another_thread_raised),
		T(test_deliver_pending_is_a_delivery_point),
		T(test_irqkit_calls_are_not_delivery_points),
		T(test_unbound_thread_records_state_and_excludes_nothing),
		T(test_bh_disable_adds_0x200_and_nests),
		T(test_handler_context_predicates),
		T(test_context_in_bh_disabled_section_with_interrupt),
		T(test_local_bh_enable_in_hardirq_warns),
		T(test_local_bh_enable_with_interrupts_off_warns),
		T(test_spin_lock_makes_context_atomic_and_might_sleep_reports),
		T(test_calls_that_may_sleep_report_from_hardirq_and_softirq),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
