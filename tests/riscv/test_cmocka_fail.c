// SPDX-License-Identifier: MIT
/*
 * The bare-metal cmocka of the core's tests can go red: a failed assertion
 * ends its test there and marks it failed, the next test still runs, and the
 * image's result is the number of failed tests (status 1 here; the runner
 * expects it with the failure's words).
 */
#include "../harness.h"

static int after_the_failure;

static void test_a_failed_assertion_ends_the_test(void **state)
{
	(void)state;
	assert_int_equal(1 + 1, 3);
	after_the_failure = 1;
}

static void test_the_next_test_still_runs(void **state)
{
	(void)state;
	assert_int_equal(after_the_failure, 0);
	assert_string_equal("irq", "irq");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_a_failed_assertion_ends_the_test, det_setup,
						det_teardown),
		cmocka_unit_test_setup_teardown(test_the_next_test_still_runs, det_setup,
						det_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
