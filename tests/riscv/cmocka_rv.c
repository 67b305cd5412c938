// SPDX-License-Identifier: MIT
/*
 * The test runner of shim/cmocka.h: cmocka's words and order (setup, test,
 * teardown; a failed setup skips the test and counts as an error), one jump
 * buffer per test, and the count of failed tests as the result.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <irqkit/sched.h>

void rv_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static intptr_t cm_jump[5];		/* __builtin_setjmp's buffer */
static bool cm_armed;			/* a test runs: a failure may jump */
static struct irqkit_task *cm_runner;	/* the thread that runs the tests */
static unsigned int cm_failures;	/* of the current test, from any thread */

__attribute__((noinline)) static void cm_leave(void)
{
	__builtin_longjmp(cm_jump, 1);
}

void _cmocka_fail(const char *file, int line, const char *fmt, ...)
{
	char msg[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	rv_printf("%s\n[   LINE   ] --- %s:%d: error: Failure!\n", msg, file, line);
	__atomic_fetch_add(&cm_failures, 1, __ATOMIC_SEQ_CST);
	if (cm_armed && irqkit_current() == cm_runner)
		cm_leave();
}

void _cmocka_int_equal(uintmax_t a, uintmax_t b, bool want_equal, const char *file, int line)
{
	if ((a == b) != want_equal)
		_cmocka_fail(file, line, "0x%llx %s 0x%llx", (unsigned long long)a,
			     want_equal ? "!=" : "==", (unsigned long long)b);
}

void _cmocka_string_equal(const char *a, const char *b, bool want_equal, const char *file,
			  int line)
{
	bool eq = a && b ? !strcmp(a, b) : a == b;

	if (eq != want_equal)
		_cmocka_fail(file, line, "\"%s\" %s \"%s\"", a ? a : "(null)",
			     want_equal ? "!=" : "==", b ? b : "(null)");
}

void _cmocka_memory_equal(const void *a, const void *b, size_t n, bool want_equal,
			  const char *file, int line)
{
	if ((!memcmp(a, b, n)) != want_equal)
		_cmocka_fail(file, line, "%zu bytes at %p and %p %s", n, a, b,
			     want_equal ? "differ" : "are equal");
}

void _cmocka_in_range(uintmax_t v, uintmax_t lo, uintmax_t hi, const char *file, int line)
{
	if (v < lo || v > hi)
		_cmocka_fail(file, line, "%llu is not within the range %llu-%llu",
			     (unsigned long long)v, (unsigned long long)lo, (unsigned long long)hi);
}

/* One test: setup, the test (left by a jump on failure), teardown.  Return: 0 or 1 failed. */
static int run_one(const struct CMUnitTest *t)
{
	void *state = t->initial_state;
	int failed;

	rv_printf("[ RUN      ] %s\n", t->name);
	__atomic_store_n(&cm_failures, 0, __ATOMIC_SEQ_CST);
	if (t->setup_func && t->setup_func(&state)) {
		rv_printf("Could not run test: Test setup failed\n[  ERROR   ] %s\n", t->name);
		return 1;
	}
	if (!__builtin_setjmp(cm_jump)) {
		cm_armed = true;
		t->test_func(&state);
	}
	cm_armed = false;
	failed = __atomic_load_n(&cm_failures, __ATOMIC_SEQ_CST) != 0;
	if (t->teardown_func && t->teardown_func(&state)) {
		rv_printf("Test teardown failed\n");
		failed = 1;
	}
	rv_printf("[ %s ] %s\n", failed ? " FAILED " : "      OK", t->name);
	return failed;
}

int _cmocka_run_group_tests(const char *group, const struct CMUnitTest *tests, size_t n,
			    CMFixtureFunction group_setup, CMFixtureFunction group_teardown)
{
	void *state = NULL;
	int failed = 0;

	cm_runner = irqkit_current();
	rv_printf("[==========] %s: Running %zu test(s).\n", group, n);
	if (group_setup && group_setup(&state)) {
		rv_printf("[  ERROR   ] %s: group setup failed\n", group);
		return (int)n;
	}
	for (size_t i = 0; i < n; i++)
		failed += run_one(&tests[i]);
	if (group_teardown && group_teardown(&state))
		failed++;
	rv_printf("[==========] %s: %zu test(s) run.\n[  PASSED  ] %zu test(s).\n", group, n,
		  n - (size_t)failed);
	if (failed)
		rv_printf("[  FAILED  ] %s: %d test(s).\n", group, failed);
	return failed;
}
