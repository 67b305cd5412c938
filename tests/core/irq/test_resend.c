// SPDX-License-Identifier: MIT
/* Tests of src/core/irq/resend.c: replaying an edge on enable. */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>
#if __STDC_HOSTED__
#include <sys/wait.h>		/* the contract checks die in a child process */
#endif

#include "../../harness.h"
#include "../../testchip.h"
#include "irq/internals.h"

static struct tdev a;

static int setup(void **state)
{
	tdev_init(&a);
	a.ret = IRQKIT_HANDLED;
	return det_setup(state);
}

static void test_replay_is_marked_until_the_flow_runs_again(void **state)
{
	(void)state;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "a", &a), 0);
	assert_int_equal(irqkit_irq_set_affinity(T_EDGE(1), 1u << 1), 0);
	irqkit_disable_irq(T_EDGE(1));
	irqkit_sw_raise(T_EDGE(1));
	assert_int_equal(irqkit_cpu_run(1), 0);		/* the flow marks it pending */
	assert_true(info_of(T_EDGE(1)).pending);
	irqkit_enable_irq(T_EDGE(1));			/* retriggered at the chip */
	assert_true(info_of(T_EDGE(1)).replay);
	assert_false(info_of(T_EDGE(1)).pending);
	assert_int_equal(atomic_load(&a.calls), 0);
	assert_int_equal(irqkit_cpu_run(1), 0);
	assert_false(info_of(T_EDGE(1)).replay);	/* cleared at flow entry */
	assert_int_equal(atomic_load(&a.calls), 1);
}

/*
 * An edge flow that finds an older PENDING at entry (a replay that met a
 * replay in flight: -EBUSY) serves both in one run: the older one counts as
 * coalesced, and a line the older edge left masked is unmasked first.  On
 * the direct path (the raise taken on the CPU's own thread) and through the
 * dispatcher.
 */
static void stale_pending_served_once(bool direct)
{
	struct irqkit_desc *desc = irq_to_desc(T_EDGE(1));
	unsigned int cpu = direct ? 0 : 1;
	uint64_t coalesced = info_of(T_EDGE(1)).coalesced;

	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "a", &a), 0);
	assert_int_equal(irqkit_irq_set_affinity(T_EDGE(1), 1u << cpu), 0);
	desc_lock(desc);
	istate_set(desc, IRQS_PENDING);
	irqd_set(&desc->irq_data, IRQD_IRQ_MASKED);	/* the chip itself stays unmasked */
	desc_unlock(desc);
	irqkit_sw_raise(T_EDGE(1));
	if (!direct)
		assert_int_equal(irqkit_cpu_run(cpu), 0);
	assert_int_equal(atomic_load(&a.calls), 1);
	assert_int_equal(info_of(T_EDGE(1)).coalesced, coalesced + 1);
	assert_false(info_of(T_EDGE(1)).pending);
	assert_false(irqd_irq_masked(&desc->irq_data));
	irqkit_free_irq(T_EDGE(1), &a);
}

static void test_stale_pending_at_flow_entry_is_served_once(void **state)
{
	(void)state;
	stale_pending_served_once(true);
	tdev_init(&a);
	a.ret = IRQKIT_HANDLED;
	stale_pending_served_once(false);
}

static void test_check_irq_resend_return_values(void **state)
{
	struct irqkit_desc *desc;

	(void)state;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "a", &a), 0);
	assert_int_equal(irqkit_request_irq(T_LEVEL(1), tdev_handler, 0, "b", &a), 0);
	desc = irq_to_desc(T_EDGE(1));
	assert_int_equal(irqkit_irq_set_affinity(T_EDGE(1), 1u << 1), 0);
	desc_lock(desc);
	assert_int_equal(irqkit__check_irq_resend(desc, false), 0);	/* nothing pending */
	assert_false(istate_get(desc) & IRQS_REPLAY);
	istate_set(desc, IRQS_PENDING);
	assert_int_equal(irqkit__check_irq_resend(desc, false), 0);
	assert_true(istate_get(desc) & IRQS_REPLAY);
	istate_set(desc, IRQS_PENDING);
	assert_int_equal(irqkit__check_irq_resend(desc, false), -IRQKIT_EBUSY);
	desc_unlock(desc);

	desc = irq_to_desc(T_LEVEL(1));
	desc_lock(desc);
	istate_set(desc, IRQS_PENDING);
	assert_int_equal(irqkit__check_irq_resend(desc, false), -IRQKIT_EINVAL);
	assert_false(istate_get(desc) & IRQS_PENDING);
	desc_unlock(desc);
}

static void test_chip_without_retrigger_uses_the_software_resend(void **state)
{
	(void)state;
	testchip_attach(T_NOCHIP, &tchip_no_retrigger, irqkit_handle_edge_irq);
	assert_int_equal(irqkit_request_irq(T_NOCHIP, tdev_handler, 0, "a", &a), 0);
	irqkit_disable_irq(T_NOCHIP);
	testchip_fire(T_NOCHIP);
	assert_true(info_of(T_NOCHIP).pending);
	assert_int_equal(atomic_load(&a.calls), 0);
	irqkit_enable_irq(T_NOCHIP);
	assert_int_equal(tchip.retrigger, 0);
	assert_int_equal(atomic_load(&a.calls), 1);
	assert_false(info_of(T_NOCHIP).replay);
	assert_false(info_of(T_NOCHIP).pending);
}

static void test_shutdown_drops_a_queued_software_resend(void **state)
{
	unsigned long flags;

	(void)state;
	testchip_attach(T_NOCHIP, &tchip_no_retrigger, irqkit_handle_edge_irq);
	assert_int_equal(irqkit_request_irq(T_NOCHIP, tdev_handler, 0, "a", &a), 0);
	irqkit_disable_irq(T_NOCHIP);
	testchip_fire(T_NOCHIP);
	flags = irqkit_local_irq_save();
	irqkit_enable_irq(T_NOCHIP);		/* queued; CPU 0 cannot run it: interrupts off */
	irqkit_free_irq(T_NOCHIP, &a);
	/* a new handler must not receive the old line's queued replay */
	assert_int_equal(irqkit_request_irq(T_NOCHIP, tdev_handler, 0, "a", &a), 0);
	irqkit_local_irq_restore(flags);
	assert_int_equal(atomic_load(&a.calls), 0);
}

/*
 * A replay that meets its line in progress on another CPU is served by that
 * CPU's loop: it must not leave REPLAY behind, or the next enable's replay is
 * refused (-EBUSY) and that arrival waits for an edge that may never come
 * (DESIGN guarantee 6).  CPU 1 is played by a helper thread while CPU 0 runs
 * the handler.
 */
static pthread_t cpu1_thread;
static atomic_int cpu1_runs_asked, cpu1_runs_done;

static void *play_cpu1_on_request(void *arg)
{
	int done = 0;

	(void)arg;
	while (done < 2) {
		if (atomic_load(&cpu1_runs_asked) > done) {
			assert_int_equal(irqkit_cpu_run(1), 0);
			atomic_store(&cpu1_runs_done, ++done);
		} else {
			usleep(50);
		}
	}
	return NULL;
}

static void run_cpu1_from_other_thread(void)
{
	int want = atomic_fetch_add(&cpu1_runs_asked, 1) + 1;

	while (atomic_load(&cpu1_runs_done) < want)
		usleep(50);
}

static void replay_meets_busy_line(struct tdev *dev, int irq)
{
	unsigned int line = (unsigned int)irq;

	if (atomic_load(&dev->calls) != 1)
		return;
	irqkit_disable_irq_nosync(line);
	assert_int_equal(irqkit_irq_set_affinity(line, 1u << 1), 0);
	irqkit_sw_raise(line);			/* a second edge, for CPU 1 */
	run_cpu1_from_other_thread();		/* busy here: PENDING, masked */
	assert_true(info_of(line).pending);
	irqkit_enable_irq(line);		/* replayed: REPLAY, latched for CPU 1 */
	assert_true(info_of(line).replay);
	run_cpu1_from_other_thread();		/* the replay finds the line busy here */
	assert_true(info_of(line).pending);
}

static void test_replay_that_meets_a_busy_line_does_not_block_the_next(void **state)
{
	(void)state;
	atomic_store(&cpu1_runs_asked, 0);
	atomic_store(&cpu1_runs_done, 0);
	a.hook = replay_meets_busy_line;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "a", &a), 0);
	pthread_create(&cpu1_thread, NULL, play_cpu1_on_request, NULL);
	irqkit_sw_raise(T_EDGE(1));		/* runs here, on CPU 0; the loop serves the replay */
	pthread_join(cpu1_thread, NULL);
	assert_int_equal(atomic_load(&a.calls), 2);
	assert_false(info_of(T_EDGE(1)).pending);
	assert_false(info_of(T_EDGE(1)).replay);	/* the replay was served */

	/* the next arrival on a disabled line is replayed on enable */
	irqkit_disable_irq(T_EDGE(1));
	irqkit_sw_raise(T_EDGE(1));
	assert_int_equal(irqkit_cpu_run(1), 0);	/* disabled: PENDING */
	assert_true(info_of(T_EDGE(1)).pending);
	irqkit_enable_irq(T_EDGE(1));
	assert_false(info_of(T_EDGE(1)).pending);
	assert_int_equal(irqkit_cpu_run(1), 0);
	assert_int_equal(atomic_load(&a.calls), 3);
}

/*
 * ---- the checking build's contracts (IRQKIT_DEBUG) ----
 *
 * A helper whose comment says "Descriptor lock held" asserts it at entry:
 * called without the lock, the checking build stops the program with the
 * assertion; where the lock validator tracks the library's own locks
 * (IRQKIT_LOCKDEP_CORE), the lock must be held by the calling task, not by
 * another one.  A release build checks nothing: these tests then say so.
 */
#if defined(IRQKIT_DEBUG) && __STDC_HOSTED__
/* Run @fn in a child process: did it abort, saying @needle on stderr? */
static bool child_dies_saying(void (*fn)(void), const char *needle)
{
	char out[4096];
	int status = in_child(fn, out, sizeof(out));

	return WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT && strstr(out, needle);
}

static void clear_resend_without_the_lock(void)
{
	irqkit__clear_irq_resend(irq_to_desc(T_EDGE(2)));
}

static void clear_resend_with_the_lock(void)
{
	struct irqkit_desc *desc = irq_to_desc(T_EDGE(2));
	unsigned long flags = desc_lock_irqsave(desc);

	irqkit__clear_irq_resend(desc);
	desc_unlock_irqrestore(desc, flags);
}

static atomic_int other_holds;

static void *hold_the_lock(void *arg)
{
	struct irqkit_desc *desc = arg;
	unsigned long flags = desc_lock_irqsave(desc);

	atomic_store(&other_holds, 1);
	while (atomic_load(&other_holds) != 2)
		usleep(1000);
	desc_unlock_irqrestore(desc, flags);
	return NULL;
}

/* The lock is held, by another thread. */
static void clear_resend_while_another_holds_the_lock(void)
{
	struct irqkit_desc *desc = irq_to_desc(T_EDGE(2));
	pthread_t th;

	assert_int_equal(pthread_create(&th, NULL, hold_the_lock, desc), 0);
	while (!atomic_load(&other_holds))
		usleep(1000);
	irqkit__clear_irq_resend(desc);
	atomic_store(&other_holds, 2);
	pthread_join(th, NULL);
}

static void test_lock_contract_is_asserted_at_entry(void **state)
{
	(void)state;
	assert_true(child_dies_saying(clear_resend_without_the_lock,
				      "assertion failed: READ_ONCE"));
	assert_false(child_dies_saying(clear_resend_with_the_lock, "assertion failed"));
#ifdef IRQKIT_TEST_CORE_LOCKDEP
	/* the validator knows who holds it: another thread's hold is not the caller's */
	assert_true(child_dies_saying(clear_resend_while_another_holds_the_lock,
				      "irqkit__lockdep_holds"));
#else
	/* the lock word alone says held, by someone */
	assert_false(child_dies_saying(clear_resend_while_another_holds_the_lock,
				       "assertion failed"));
#endif
}
#elif __STDC_HOSTED__
static void test_lock_contract_is_asserted_at_entry(void **state)
{
	(void)state;
	skip();		/* a release build checks no contract */
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, det_teardown)
		T(test_replay_is_marked_until_the_flow_runs_again),
		T(test_check_irq_resend_return_values),
		T(test_stale_pending_at_flow_entry_is_served_once),
		T(test_chip_without_retrigger_uses_the_software_resend),
		T(test_shutdown_drops_a_queued_software_resend),
		T(test_replay_that_meets_a_busy_line_does_not_block_the_next),
#if __STDC_HOSTED__	/* bare metal has no child process to die */
		T(test_lock_contract_is_asserted_at_entry),
#endif
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
