// SPDX-License-Identifier: MIT
/*
 * irqkit's own genirq suites in KUnit, as kernel developers write them:
 * request and free (sharing rules, the errors Linux returns), and the
 * disable depth (nesting, free of a disabled line, enable past zero), on
 * two virtual CPUs in threaded mode.  Each case gets a fresh runtime; the
 * suite's init gives it two software edge lines.
 */
#include <kunit/test.h>

#include <linux/interrupt.h>
#include <linux/irq.h>

#include <irqkit/irqkit.h>

#define LINE_A	3
#define LINE_B	4

struct dev {
	atomic_t	calls;
	bool		mine;		/* the device requests service */
	bool		hardirq;	/* in_irq() and irqs_disabled() at the last call */
};

static irqreturn_t dev_handler(int irq, void *dev_id)
{
	struct dev *d = dev_id;

	(void)irq;
	WRITE_ONCE(d->hardirq, in_irq() && irqs_disabled());
	atomic_inc(&d->calls);
	if (!READ_ONCE(d->mine))
		return IRQ_NONE;
	WRITE_ONCE(d->mine, false);
	return IRQ_HANDLED;
}

static struct irqkit_irq_info info_of(struct kunit *test, unsigned int irq)
{
	struct irqkit_irq_info info;

	KUNIT_ASSERT_EQ(test, irqkit_irq_get_info(irq, &info), 0);
	return info;
}

/* Raise @irq once and wait for its delivery. */
static void raise_and_wait(struct kunit *test, unsigned int irq)
{
	KUNIT_ASSERT_EQ(test, irqkit_sw_raise(irq), 0);
	KUNIT_ASSERT_EQ(test, irqkit_wait_delivered(irq, 5000), 0);
}

static int lines_init(struct kunit *test)
{
	(void)test;
	return irqkit_swchip_add(LINE_A, 2, IRQKIT_TYPE_EDGE_RISING);
}

/* ---- request and free ---------------------------------------------------------------- */

static void request_free_runs_the_handler_in_hardirq(struct kunit *test)
{
	struct dev d = { .mine = true };

	KUNIT_ASSERT_EQ(test, request_irq(LINE_A, dev_handler, 0, "a", &d), 0);
	raise_and_wait(test, LINE_A);
	KUNIT_EXPECT_EQ(test, atomic_read(&d.calls), 1);
	KUNIT_EXPECT_TRUE(test, READ_ONCE(d.hardirq));
	free_irq(LINE_A, &d);
	KUNIT_EXPECT_EQ(test, info_of(test, LINE_A).nr_actions, 0);
}

static void request_errors_are_linuxs(struct kunit *test)
{
	struct dev d = { 0 };

	KUNIT_EXPECT_EQ(test, request_irq(LINE_A, NULL, 0, "a", &d), -EINVAL);
	KUNIT_EXPECT_EQ(test, request_irq(LINE_A, dev_handler, IRQF_SHARED, "a", NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, request_irq(100000, dev_handler, 0, "a", &d), -EINVAL);
	/* a line without a chip */
	KUNIT_EXPECT_EQ(test, request_irq(LINE_B + 1, dev_handler, 0, "a", &d), -ENOSYS);
}

static void shared_lines_need_every_action_to_agree(struct kunit *test)
{
	struct dev a = { 0 }, b = { .mine = true };

	KUNIT_ASSERT_EQ(test, request_irq(LINE_A, dev_handler, IRQF_SHARED, "a", &a), 0);
	KUNIT_EXPECT_EQ(test, request_irq(LINE_A, dev_handler, 0, "b", &b), -EBUSY);
	KUNIT_ASSERT_EQ(test, request_irq(LINE_A, dev_handler, IRQF_SHARED, "b", &b), 0);
	KUNIT_EXPECT_EQ(test, info_of(test, LINE_A).nr_actions, 2);
	raise_and_wait(test, LINE_A);
	KUNIT_EXPECT_EQ(test, atomic_read(&a.calls), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&b.calls), 1);
	free_irq(LINE_A, &a);
	raise_and_wait(test, LINE_A);
	KUNIT_EXPECT_EQ(test, atomic_read(&a.calls), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&b.calls), 2);
	free_irq(LINE_A, &b);
}

static void can_request_irq_answers_as_request_would(struct kunit *test)
{
	struct dev a = { 0 };

	KUNIT_EXPECT_TRUE(test, can_request_irq(LINE_A, 0));
	KUNIT_ASSERT_EQ(test, request_irq(LINE_A, dev_handler, IRQF_SHARED, "a", &a), 0);
	KUNIT_EXPECT_FALSE(test, can_request_irq(LINE_A, 0));
	KUNIT_EXPECT_TRUE(test, can_request_irq(LINE_A, IRQF_SHARED));
	free_irq(LINE_A, &a);
}

static struct kunit_case irq_request_cases[] = {
	KUNIT_CASE(request_free_runs_the_handler_in_hardirq),
	KUNIT_CASE(request_errors_are_linuxs),
	KUNIT_CASE(shared_lines_need_every_action_to_agree),
	KUNIT_CASE(can_request_irq_answers_as_request_would),
	{}
};

static struct kunit_suite irq_request_suite = {
	.name = "irqkit_request_free",
	.init = lines_init,
	.test_cases = irq_request_cases,
};

/* ---- disable depth -------------------------------------------------------------------- */

static void disable_depth_nests(struct kunit *test)
{
	struct dev d = { 0 };

	KUNIT_ASSERT_EQ(test, request_irq(LINE_A, dev_handler, 0, "a", &d), 0);
	KUNIT_EXPECT_EQ(test, info_of(test, LINE_A).depth, 0);
	disable_irq(LINE_A);
	disable_irq_nosync(LINE_A);
	KUNIT_EXPECT_EQ(test, info_of(test, LINE_A).depth, 2);
	enable_irq(LINE_A);
	KUNIT_EXPECT_EQ(test, info_of(test, LINE_A).depth, 1);
	KUNIT_EXPECT_TRUE(test, info_of(test, LINE_A).disabled);
	enable_irq(LINE_A);
	KUNIT_EXPECT_EQ(test, info_of(test, LINE_A).depth, 0);
	KUNIT_EXPECT_FALSE(test, info_of(test, LINE_A).disabled);
	free_irq(LINE_A, &d);
}

/* An edge that comes while the line is disabled is kept and replayed at enable. */
static void edge_while_disabled_is_replayed(struct kunit *test)
{
	struct dev d = { .mine = true };

	KUNIT_ASSERT_EQ(test, request_irq(LINE_A, dev_handler, 0, "a", &d), 0);
	disable_irq(LINE_A);
	KUNIT_ASSERT_EQ(test, irqkit_sw_raise(LINE_A), 0);
	KUNIT_EXPECT_EQ(test, irqkit_wait_delivered(LINE_A, 20), -ETIMEDOUT);
	KUNIT_EXPECT_EQ(test, atomic_read(&d.calls), 0);
	enable_irq(LINE_A);
	KUNIT_ASSERT_EQ(test, irqkit_wait_delivered(LINE_A, 5000), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&d.calls), 1);
	free_irq(LINE_A, &d);
}

/* As the kernel's own irq_free_disabled_test: a new request starts at depth 0. */
static void free_of_a_disabled_line_then_request(struct kunit *test)
{
	struct dev d = { 0 };

	KUNIT_ASSERT_EQ(test, request_irq(LINE_A, dev_handler, 0, "a", &d), 0);
	disable_irq(LINE_A);
	KUNIT_EXPECT_EQ(test, info_of(test, LINE_A).depth, 1);
	free_irq(LINE_A, &d);
	KUNIT_EXPECT_GE(test, info_of(test, LINE_A).depth, 1);
	KUNIT_ASSERT_EQ(test, request_irq(LINE_A, dev_handler, 0, "a", &d), 0);
	KUNIT_EXPECT_EQ(test, info_of(test, LINE_A).depth, 0);
	free_irq(LINE_A, &d);
}

static void enable_past_zero_warns_and_stays_at_zero(struct kunit *test)
{
	struct dev d = { 0 };

	KUNIT_ASSERT_EQ(test, request_irq(LINE_A, dev_handler, 0, "a", &d), 0);
	enable_irq(LINE_A);		/* "Unbalanced enable for IRQ 3" */
	KUNIT_EXPECT_EQ(test, info_of(test, LINE_A).depth, 0);
	free_irq(LINE_A, &d);
}

static struct kunit_case irq_depth_cases[] = {
	KUNIT_CASE(disable_depth_nests),
	KUNIT_CASE(edge_while_disabled_is_replayed),
	KUNIT_CASE(free_of_a_disabled_line_then_request),
	KUNIT_CASE(enable_past_zero_warns_and_stays_at_zero),
	{}
};

static struct kunit_suite irq_depth_suite = {
	.name = "irqkit_disable_depth",
	.init = lines_init,
	.test_cases = irq_depth_cases,
};

kunit_test_suites(&irq_request_suite, &irq_depth_suite);
