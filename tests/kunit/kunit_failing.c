// SPDX-License-Identifier: MIT
/*
 * A suite that fails on purpose, every way a case can: expectations that
 * go on, an assertion that ends its case, a skip after a failure, a crash,
 * a case that never returns (run with --timeout=2), a check that fails on a
 * virtual CPU's thread, a failing parameter, and a suite whose init fails.
 * ktap_check.sh holds the runner to reporting each as Linux's KUnit would,
 * going on to the next case each time, and exiting with status 1.
 */
#include <kunit/test.h>

#include <irqkit/irqkit.h>
#include <linux/interrupt.h>

#include <stdlib.h>
#include <unistd.h>

static void failing_exit(struct kunit *test)
{
	kunit_info(test, "exit ran");
}

static void test_expectations_go_on(struct kunit *test)
{
	int two = 1 + 1;

	KUNIT_EXPECT_EQ(test, two, 3);
	KUNIT_EXPECT_STREQ(test, "irq", "irqs");
	KUNIT_EXPECT_MEMEQ(test, "abcd", "abXd", 4);
	KUNIT_EXPECT_TRUE_MSG(test, two == 3, "two is %d", two);
	kunit_info(test, "reached the end");
}

static void test_assertion_ends_the_case(struct kunit *test)
{
	KUNIT_ASSERT_NOT_NULL(test, NULL);
	KUNIT_FAIL(test, "not reached");
}

static void test_skip_after_a_failure_stays_failed(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, 1, 2);
	kunit_skip(test, "too late");
}

static void test_crash(struct kunit *test)
{
	(void)test;
	abort();
}

static void test_never_returns(struct kunit *test)
{
	(void)test;
	for (;;)
		pause();
}

static irqreturn_t asserting_handler(int irq, void *dev_id)
{
	struct kunit *test = dev_id;

	KUNIT_ASSERT_EQ(test, irq, 0);
	return IRQ_HANDLED;
}

static void test_check_fails_on_a_virtual_cpu(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, irqkit_swchip_add(7, 1, IRQKIT_TYPE_EDGE_RISING), 0);
	KUNIT_ASSERT_EQ(test, request_irq(7, asserting_handler, 0, "kunit", test), 0);
	KUNIT_ASSERT_EQ(test, irqkit_sw_raise(7), 0);
	for (;;)
		pause();	/* the handler's failed assertion ends the case */
}

static const int values[] = { 1, 2, 3 };

KUNIT_ARRAY_PARAM(values, values, NULL);

static void test_one_parameter_fails(struct kunit *test)
{
	const int *v = test->param_value;

	KUNIT_EXPECT_NE(test, *v, 2);
}

static void test_passes_after_all_that(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, irqkit_started());
}

static struct kunit_case failing_cases[] = {
	KUNIT_CASE(test_expectations_go_on),
	KUNIT_CASE(test_assertion_ends_the_case),
	KUNIT_CASE(test_skip_after_a_failure_stays_failed),
	KUNIT_CASE(test_crash),
	KUNIT_CASE(test_never_returns),
	KUNIT_CASE(test_check_fails_on_a_virtual_cpu),
	KUNIT_CASE_PARAM(test_one_parameter_fails, values_gen_params),
	KUNIT_CASE(test_passes_after_all_that),
	{}
};

static struct kunit_suite failing_suite = {
	.name = "kunit_failing",
	.exit = failing_exit,
	.test_cases = failing_cases,
};

static int broken_suite_init(struct kunit_suite *suite)
{
	(void)suite;
	return -ENODEV;
}

static void test_not_run(struct kunit *test)
{
	KUNIT_FAIL(test, "the suite's init failed: no case runs");
}

static struct kunit_case broken_cases[] = {
	KUNIT_CASE(test_not_run),
	{}
};

static struct kunit_suite broken_suite = {
	.name = "kunit_broken_init",
	.suite_init = broken_suite_init,
	.test_cases = broken_cases,
};

kunit_test_suites(&failing_suite, &broken_suite);
