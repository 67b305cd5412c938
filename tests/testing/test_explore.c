// SPDX-License-Identifier: MIT
/*
 * irqkit_explore(): four classes of interrupt race, each found by the
 * exploration within its runs and its fixed version passing all of them;
 * replay by IRQKIT_SEED; the random runs finding what one interrupt per run
 * cannot; bad input.  Built with IRQKIT_LOCKDEP, so the spinlocks below are
 * interrupt points.
 */
#include "../harness.h"

#include <irqkit/explore.h>
#include <linux/interrupt.h>
#include <linux/spinlock.h>

#include <errno.h>

#define IRQ	T_EDGE(3)

/* The failed run's interrupt came at point @what, called from @fn (named where libdw is). */
#ifdef IRQKIT_TEST_LIBDW
#define assert_schedule(res, what, fn)	assert_non_null(strstr((res).schedule, what " from " fn "+"))
#else
#define assert_schedule(res, what, fn)	assert_non_null(strstr((res).schedule, what " from "))
#endif

/*
 * A crash (SIGSEGV, or SIGABRT where cmocka's handler caught it), or, in a
 * sanitizer build, the sanitizer's report and exit status.
 */
#define assert_crashed(res)							\
	assert_true(strcmp((res).why, "killed by SIGSEGV") == 0 ||		\
		    strcmp((res).why, "killed by SIGABRT") == 0 ||		\
		    strncmp((res).why, "exit status ", 12) == 0)

/* ---- 1: the device's interrupt enabled before what the handler uses --------- */

struct rxdev {
	int		*buf;		/* the handler stores here */
	bool		int_enabled;	/* the device's interrupt-enable register */
	int		received;
};

static struct rxdev rx;
static bool fixed;

static irqreturn_t rx_interrupt(int irq, void *dev_id)
{
	struct rxdev *d = dev_id;

	(void)irq;
	d->buf[d->received++ % 4] = 1;		/* the bug: buf may not be there yet */
	return IRQ_HANDLED;
}

/* The device: it interrupts only once its driver enabled it. */
static void rx_device_interrupts(void *arg)
{
	struct rxdev *d = arg;

	if (d->int_enabled)
		(void)irqkit_sw_raise(IRQ);
}

static int rx_probe_body(void *arg)
{
	static int storage[4];

	(void)arg;
	if (det_setup_flags(0))
		return -1;
	memset(&rx, 0, sizeof(rx));
	if (fixed)
		rx.buf = storage;
	if (request_irq(IRQ, rx_interrupt, 0, "rxdev", &rx))
		return -1;
	rx.int_enabled = true;			/* the register write: the device may */
	irqkit_sim_point();			/* interrupt from here on */
	rx.buf = storage;			/* (fixed: before request_irq) */
	free_irq(IRQ, &rx);
	irqkit_stop();
	return 0;
}

static void test_interrupt_enabled_before_init_is_found(void **state)
{
	struct irqkit_explore_cfg cfg = { .interrupt = rx_device_interrupts, .interrupt_arg = &rx,
					  .timeout_ms = 20000 };
	struct irqkit_explore_result res;

	(void)state;
	fixed = false;
	assert_int_equal(irqkit_explore(&cfg, rx_probe_body, NULL, &res), 1);
	assert_crashed(res);
	assert_in_range(res.failed_run, 1, res.points);	/* a systematic run found it */
	assert_schedule(res, "irqkit_sim_point", "rx_probe_body");

	fixed = true;
	assert_explore_passes(&cfg, rx_probe_body, NULL);
	assert_int_equal(irqkit_explore(&cfg, rx_probe_body, NULL, &res), 0);
	assert_true(res.points >= 3);	/* request_irq, the register write, free_irq */
	assert_int_equal(res.runs, res.points + 1);
}

/* ---- 2: a flag shared with the handler under spin_lock, without irqsave ------ */

struct flagdev {
	spinlock_t	lock;
	unsigned int	flags;
};

static struct flagdev fd_;

static irqreturn_t flag_interrupt(int irq, void *dev_id)
{
	struct flagdev *d = dev_id;

	(void)irq;
	spin_lock(&d->lock);
	d->flags |= 1;
	spin_unlock(&d->lock);
	return IRQ_HANDLED;
}

static int flag_body(void *arg)
{
	unsigned long flags;

	(void)arg;
	if (det_setup_flags(0))
		return -1;
	spin_lock_init(&fd_.lock);
	fd_.flags = 0;
	if (request_irq(IRQ, flag_interrupt, 0, "flagdev", &fd_))
		return -1;
	if (fixed) {
		spin_lock_irqsave(&fd_.lock, flags);
		fd_.flags &= ~2u;
		spin_unlock_irqrestore(&fd_.lock, flags);
	} else {
		spin_lock(&fd_.lock);		/* the bug: the handler can come here */
		fd_.flags &= ~2u;
		spin_unlock(&fd_.lock);
	}
	free_irq(IRQ, &fd_);
	irqkit_stop();
	return 0;
}

static void test_irq_unsafe_lock_is_found(void **state)
{
	struct irqkit_explore_cfg cfg = { .irq = IRQ, .timeout_ms = 20000 };
	struct irqkit_explore_result res;

	(void)state;
	/* with the validator: its report (or the recursion it stops at) fails the run */
	fixed = false;
	assert_int_equal(irqkit_explore(&cfg, flag_body, NULL, &res), 1);
	assert_true(strcmp(res.why, "a report of the lock validator") == 0 ||
		    strcmp(res.why, "killed by SIGABRT") == 0);
	assert_schedule(res, "request_irq", "flag_body");	/* the driver's call, named */

	fixed = true;
	assert_explore_passes(&cfg, flag_body, NULL);
}

static void test_deadlock_ends_with_a_report(void **state)
{
	struct irqkit_explore_cfg cfg = { .irq = IRQ, .timeout_ms = 1500 };
	struct irqkit_explore_result res;

	(void)state;
	/* without the validator the handler spins on the lock its CPU holds: a hang */
	irqkit_lockdep_off();
	fixed = false;
	assert_int_equal(irqkit_explore(&cfg, flag_body, NULL, &res), 1);
	assert_non_null(strstr(res.why, "did not end within 1500 ms"));
	assert_schedule(res, "spin_unlock", "flag_body");
}

/* ---- 3: a count shared by the handler and a tasklet, updated in two steps ---- */

struct ringdev {
	unsigned int	produced;	/* by the handler */
	unsigned int	queued;		/* items not yet consumed */
	unsigned int	consumed;
	spinlock_t	lock;
	struct tasklet_struct bh;
};

static struct ringdev ring;

static irqreturn_t ring_interrupt(int irq, void *dev_id)
{
	struct ringdev *d = dev_id;

	(void)irq;
	d->produced++;
	d->queued++;
	tasklet_schedule(&d->bh);
	return IRQ_HANDLED;
}

static void ring_tasklet(unsigned long data)
{
	struct ringdev *d = (struct ringdev *)data;
	unsigned long flags;

	if (fixed) {
		spin_lock_irqsave(&d->lock, flags);
		d->consumed += d->queued;
		d->queued = 0;
		spin_unlock_irqrestore(&d->lock, flags);
		return;
	}
	unsigned int n = d->queued;		/* the bug: read here ... */

	irqkit_sim_point();			/* (processing the n items) */
	d->consumed += n;
	d->queued = 0;				/* ... emptied here, interrupts on */
	(void)flags;
}

static int ring_body(void *arg)
{
	(void)arg;
	if (det_setup_flags(0))
		return -1;
	memset(&ring, 0, sizeof(ring));
	spin_lock_init(&ring.lock);
	tasklet_init(&ring.bh, ring_tasklet, (unsigned long)&ring);
	if (request_irq(IRQ, ring_interrupt, 0, "ringdev", &ring))
		return -1;
	for (int i = 0; i < 3; i++)
		(void)irqkit_sw_raise(IRQ);	/* the device delivers three items */
	free_irq(IRQ, &ring);
	tasklet_kill(&ring.bh);
	irqkit_stop();
	/* every item produced is consumed or still queued */
	return ring.consumed + ring.queued == ring.produced ? 0 : 1;
}

static void test_handler_and_bottom_half_race_is_found(void **state)
{
	struct irqkit_explore_cfg cfg = { .irq = IRQ, .timeout_ms = 20000 };
	struct irqkit_explore_result res;

	(void)state;
	fixed = false;
	assert_int_equal(irqkit_explore(&cfg, ring_body, NULL, &res), 1);
	assert_string_equal(res.why, "the body returned 1");
	assert_schedule(res, "irqkit_sim_point", "ring_tasklet");

	fixed = true;
	assert_explore_passes(&cfg, ring_body, NULL);
}

/* ---- 4: teardown freeing what the handler uses before free_irq -------------- */

struct txdev {
	int	*stats;
};

static struct txdev tx;

static irqreturn_t tx_interrupt(int irq, void *dev_id)
{
	struct txdev *d = dev_id;

	(void)irq;
	d->stats[0]++;
	return IRQ_HANDLED;
}

static int tx_remove_body(void *arg)
{
	(void)arg;
	if (det_setup_flags(0))
		return -1;
	tx.stats = calloc(4, sizeof(int));
	if (!tx.stats || request_irq(IRQ, tx_interrupt, IRQF_SHARED, "txdev", &tx))
		return -1;
	if (fixed) {
		free_irq(IRQ, &tx);
		free(tx.stats);
		tx.stats = NULL;
	} else {
		free(tx.stats);			/* the bug: the handler may still come */
		tx.stats = NULL;
		free_irq(IRQ, &tx);
	}
	irqkit_stop();
	return 0;
}

static void test_teardown_before_free_irq_is_found(void **state)
{
	struct irqkit_explore_cfg cfg = { .irq = IRQ, .timeout_ms = 20000 };
	struct irqkit_explore_result res;

	(void)state;
	fixed = false;
	assert_int_equal(irqkit_explore(&cfg, tx_remove_body, NULL, &res), 1);
	assert_crashed(res);
	assert_schedule(res, "free_irq", "tx_remove_body");

	fixed = true;
	assert_explore_passes(&cfg, tx_remove_body, NULL);
}

/* ---- replay, and runs with more than one interrupt ------------------------- */

static void test_replay_runs_the_failed_run_in_process(void **state)
{
	struct irqkit_explore_cfg cfg = { .irq = IRQ, .timeout_ms = 20000 };
	struct irqkit_explore_result first, again;
	char seed[32];

	(void)state;
	fixed = false;
	assert_int_equal(irqkit_explore(&cfg, ring_body, NULL, &first), 1);
	/* the same program gives the same failed run */
	assert_int_equal(irqkit_explore(&cfg, ring_body, NULL, &again), 1);
	assert_int_equal(again.failed_run, first.failed_run);
	assert_string_equal(again.schedule, first.schedule);

	snprintf(seed, sizeof(seed), "%lu", first.failed_run);
	setenv("IRQKIT_SEED", seed, 1);
	assert_int_equal(irqkit_explore(&cfg, ring_body, NULL, &again), 1);
	assert_int_equal(again.failed_run, first.failed_run);
	assert_string_equal(again.schedule, first.schedule);
	assert_int_equal(again.runs, 2);			/* the count, then the run here */
	snprintf(seed, sizeof(seed), "%lu", first.failed_run - 1);
	setenv("IRQKIT_SEED", seed, 1);		/* the run before it passed */
	assert_int_equal(irqkit_explore(&cfg, ring_body, NULL, &again), 0);
	unsetenv("IRQKIT_SEED");
}

/* A one-slot mailbox: the second interrupt before the reader empties it is lost. */
static struct {
	bool	full;
	int	lost;
} box;

static irqreturn_t box_interrupt(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	if (box.full)
		box.lost++;
	box.full = true;
	return IRQ_HANDLED;
}

static int box_body(void *arg)
{
	(void)arg;
	if (det_setup_flags(0))
		return -1;
	memset(&box, 0, sizeof(box));
	if (request_irq(IRQ, box_interrupt, 0, "box", &box))
		return -1;
	for (int i = 0; i < 4; i++) {
		irqkit_sim_point();
		irqkit_sim_point();
		box.full = false;		/* the reader takes the message */
	}
	free_irq(IRQ, &box);
	irqkit_stop();
	return box.lost ? 1 : 0;
}

static void test_random_runs_find_what_one_interrupt_cannot(void **state)
{
	struct irqkit_explore_cfg cfg = { .irq = IRQ, .timeout_ms = 20000 };
	struct irqkit_explore_result res;

	(void)state;
	assert_int_equal(irqkit_explore(&cfg, box_body, NULL, &res), 0);	/* one at a time */
	cfg.random_runs = 200;
	cfg.depth = 2;
	cfg.seed = 1;
	assert_int_equal(irqkit_explore(&cfg, box_body, NULL, &res), 1);
	assert_true(res.failed_run > res.points);		/* a random run */
	assert_non_null(strstr(res.schedule, "interrupts at point"));
	assert_non_null(strstr(res.schedule, ", point"));	/* two of them */
}

/* ---- interrupt sections are points in code built with IRQKIT_LOCKDEP -------- */

static bool busy, handler_saw_busy;

static irqreturn_t busy_interrupt(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	handler_saw_busy |= busy;
	return IRQ_HANDLED;
}

static int irq_section_body(void *arg)
{
	unsigned long flags;

	(void)arg;
	if (det_setup_flags(0) || request_irq(IRQ, busy_interrupt, 0, "busy", NULL))
		return -1;
	handler_saw_busy = false;
	local_irq_save(flags);
	busy = true;
	local_irq_restore(flags);	/* the handler can come here and see busy */
	busy = false;
	free_irq(IRQ, NULL);
	irqkit_stop();
	return handler_saw_busy ? 1 : 0;
}

static void test_interrupts_turned_back_on_are_a_point(void **state)
{
	struct irqkit_explore_cfg cfg = { .irq = IRQ, .timeout_ms = 20000 };
	struct irqkit_explore_result res;

	(void)state;
	assert_int_equal(irqkit_explore(&cfg, irq_section_body, NULL, &res), 1);
	assert_schedule(res, "local_irq_restore", "irq_section_body");
}

/* ---- bad input ---------------------------------------------------------------- */

static int no_runtime_body(void *arg)
{
	(void)arg;
	return 0;
}

static void test_bad_input_is_refused(void **state)
{
	struct irqkit_explore_cfg cfg = { .irq = IRQ };
	struct irqkit_explore_result res;

	(void)state;
	assert_int_equal(irqkit_explore(NULL, box_body, NULL, &res), -EINVAL);
	assert_int_equal(irqkit_explore(&cfg, NULL, NULL, &res), -EINVAL);
	cfg.depth = IRQKIT_EXPLORE_MAX_DEPTH + 1;
	assert_int_equal(irqkit_explore(&cfg, box_body, NULL, &res), -EINVAL);
	cfg.depth = 0;
	/* a body that never plays a CPU reaches no point */
	assert_int_equal(irqkit_explore(&cfg, no_runtime_body, NULL, &res), -EINVAL);
	setenv("IRQKIT_SEED", "twelve", 1);
	assert_int_equal(irqkit_explore(&cfg, box_body, NULL, &res), -EINVAL);
	setenv("IRQKIT_SEED", "100000", 1);
	assert_int_equal(irqkit_explore(&cfg, box_body, NULL, &res), -EINVAL);
	unsetenv("IRQKIT_SEED");
	/* the runtime running here: a child would have it without its threads */
	assert_int_equal(det_setup_flags(0), 0);
	assert_int_equal(irqkit_explore(&cfg, box_body, NULL, &res), -EBUSY);
	irqkit_stop();
	/* outside an exploration a point does nothing */
	irqkit_sim_point();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_interrupt_enabled_before_init_is_found),
		cmocka_unit_test(test_irq_unsafe_lock_is_found),
		cmocka_unit_test(test_handler_and_bottom_half_race_is_found),
		cmocka_unit_test(test_teardown_before_free_irq_is_found),
		cmocka_unit_test(test_replay_runs_the_failed_run_in_process),
		cmocka_unit_test(test_random_runs_find_what_one_interrupt_cannot),
		cmocka_unit_test(test_interrupts_turned_back_on_are_a_point),
		cmocka_unit_test(test_bad_input_is_refused),
		/* last: it turns the validator off for the process */
		cmocka_unit_test(test_deadlock_ends_with_a_report),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
