// SPDX-License-Identifier: MIT
/*
 * The KUnit layer's own suite: every check passes, every kind of case
 * (plain, parameterised, skipped, with init/exit and suite init/exit,
 * managed memory and deferred actions) reports as Linux's KUnit would.
 * Its KTAP output is checked by ktap_check.sh (tests/CMakeLists.txt).
 */
#include <kunit/test.h>
#include <kunit/test-bug.h>

#include <linux/interrupt.h>
#include <irqkit/irqkit.h>

static int suite_inits, case_inits, case_exits;

static int selftest_suite_init(struct kunit_suite *suite)
{
	(void)suite;
	suite_inits++;
	return 0;
}

static int selftest_init(struct kunit *test)
{
	int *counter = kunit_kzalloc(test, sizeof(*counter), GFP_KERNEL);

	if (!counter)
		return -ENOMEM;
	test->priv = counter;
	case_inits++;
	return 0;
}

static void selftest_exit(struct kunit *test)
{
	KUNIT_EXPECT_NOT_NULL(test, test->priv);
	case_exits++;
}

static void test_every_check_passes(struct kunit *test)
{
	const char *s = "irqkit";
	char a[4] = { 1, 2, 3, 4 }, b[4] = { 1, 2, 3, 4 };
	int x = 3;

	KUNIT_EXPECT_TRUE(test, x == 3);
	KUNIT_EXPECT_FALSE(test, x == 4);
	KUNIT_EXPECT_EQ(test, x, 3);
	KUNIT_EXPECT_NE(test, x, 4);
	KUNIT_EXPECT_LT(test, x, 4);
	KUNIT_EXPECT_LE(test, x, 3);
	KUNIT_EXPECT_GT(test, x, 2);
	KUNIT_EXPECT_GE(test, x, 3);
	KUNIT_EXPECT_PTR_EQ(test, s, s);
	KUNIT_EXPECT_PTR_NE(test, s, s + 1);
	KUNIT_EXPECT_NULL(test, NULL);
	KUNIT_EXPECT_NOT_NULL(test, s);
	KUNIT_EXPECT_STREQ(test, s, "irqkit");
	KUNIT_EXPECT_STRNEQ(test, s, "linux");
	KUNIT_EXPECT_MEMEQ(test, a, b, sizeof(a));
	b[2] = 9;
	KUNIT_EXPECT_MEMNEQ(test, a, b, sizeof(a));
	KUNIT_EXPECT_NOT_ERR_OR_NULL(test, s);
	KUNIT_EXPECT_EQ_MSG(test, x, 3, "x is %d", x);
	KUNIT_ASSERT_EQ(test, x, 3);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, s);
	KUNIT_ASSERT_STREQ_MSG(test, s, "irqkit", "the name");
	KUNIT_SUCCEED(test);
}

static void test_init_ran_and_each_case_has_its_own_memory(struct kunit *test)
{
	int *counter = test->priv;

	KUNIT_ASSERT_NOT_NULL(test, counter);
	KUNIT_EXPECT_EQ(test, *counter, 0);
	*counter = 42;
	KUNIT_EXPECT_EQ(test, suite_inits, 1);
	KUNIT_EXPECT_GE(test, case_inits, 1);
	KUNIT_EXPECT_EQ(test, case_exits, case_inits - 1);
	KUNIT_EXPECT_PTR_EQ(test, kunit_get_current_test(), test);
}

static int action_log[4], action_nr;

static void record_action(void *ctx)
{
	action_log[action_nr++ % 4] = (int)(long)ctx;
}

static void test_actions_run_last_first_at_the_end(struct kunit *test)
{
	char *p = kunit_kmalloc(test, 64, GFP_KERNEL);
	char *q = kunit_kstrdup(test, "dup", GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_NOT_NULL(test, q);
	KUNIT_EXPECT_STREQ(test, q, "dup");
	kunit_kfree(test, p);
	action_nr = 0;
	KUNIT_ASSERT_EQ(test, kunit_add_action(test, record_action, (void *)1L), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action(test, record_action, (void *)2L), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action(test, record_action, (void *)3L), 0);
	kunit_remove_action(test, record_action, (void *)3L);
	kunit_release_action(test, record_action, (void *)2L);
	KUNIT_EXPECT_EQ(test, action_nr, 1);
	KUNIT_EXPECT_EQ(test, action_log[0], 2);
}

/* The actions of the case before ran when it ended: 1 only (2 was released, 3 removed). */
static void test_actions_of_the_last_case_ran(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, action_nr, 2);
	KUNIT_EXPECT_EQ(test, action_log[1], 1);
}

static void test_skip_ends_the_case(struct kunit *test)
{
	kunit_skip(test, "no %s here", "hardware");
	KUNIT_FAIL(test, "not reached");
}

static void test_mark_skipped_goes_on(struct kunit *test)
{
	kunit_mark_skipped(test, "marked");
	KUNIT_EXPECT_EQ(test, 1, 1);
}

struct speed {
	int		mhz;
	const char	*name;
};

static const struct speed speeds[] = { { 100, "slow" }, { 400, "fast" }, { 1000, "fastest" } };

static void speed_desc(const struct speed *s, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s %d MHz", s->name, s->mhz);
}

KUNIT_ARRAY_PARAM(speed, speeds, speed_desc);
KUNIT_ARRAY_PARAM_DESC(speed_named, speeds, name);

static void test_params(struct kunit *test)
{
	const struct speed *s = test->param_value;

	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_EXPECT_GE(test, s->mhz, 100);
	KUNIT_EXPECT_PTR_EQ(test, s, &speeds[test->param_index]);
	if (s->mhz == 1000)
		kunit_skip(test, "too fast for this board");
}

/* The runtime of the case: started, with at least 2 CPUs; a software line answers. */
static irqreturn_t count_irq(int irq, void *dev_id)
{
	(void)irq;
	(*(int *)dev_id)++;
	return IRQ_HANDLED;
}

static void test_each_case_has_a_runtime(struct kunit *test)
{
	int count = 0;

	KUNIT_ASSERT_TRUE(test, irqkit_started());
	KUNIT_EXPECT_GE(test, irqkit_nr_cpus(), 2);
	KUNIT_ASSERT_EQ(test, irqkit_swchip_add(5, 1, IRQKIT_TYPE_EDGE_RISING), 0);
	KUNIT_ASSERT_EQ(test, request_irq(5, count_irq, 0, "kunit", &count), 0);
	KUNIT_ASSERT_EQ(test, irqkit_sw_raise(5), 0);
	KUNIT_ASSERT_EQ(test, irqkit_wait_delivered(5, 5000), 0);
	KUNIT_EXPECT_EQ(test, count, 1);
	free_irq(5, &count);
}

static struct kunit_case selftest_cases[] = {
	KUNIT_CASE(test_every_check_passes),
	KUNIT_CASE(test_init_ran_and_each_case_has_its_own_memory),
	KUNIT_CASE(test_actions_run_last_first_at_the_end),
	KUNIT_CASE(test_actions_of_the_last_case_ran),
	KUNIT_CASE(test_skip_ends_the_case),
	KUNIT_CASE(test_mark_skipped_goes_on),
	KUNIT_CASE_PARAM(test_params, speed_gen_params),
	KUNIT_CASE_PARAM(test_params, speed_named_gen_params),
	KUNIT_CASE(test_each_case_has_a_runtime),
	{}
};

static struct kunit_suite selftest_suite = {
	.name = "kunit_selftest",
	.suite_init = selftest_suite_init,
	.init = selftest_init,
	.exit = selftest_exit,
	.test_cases = selftest_cases,
};

static void test_second_suite(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, 2 + 2, 4);
}

static struct kunit_case second_cases[] = {
	KUNIT_CASE(test_second_suite),
	{}
};

static struct kunit_suite second_suite = {
	.name = "kunit_selftest_second",
	.test_cases = second_cases,
};

kunit_test_suites(&selftest_suite, &second_suite);
