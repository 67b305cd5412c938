/* SPDX-License-Identifier: MIT */
/*
 * The part of cmocka's API the core's tests use, for the bare-metal images:
 * the same test sources build against it unchanged.  A failed assertion
 * prints cmocka's words, ends the test (a jump back to the runner) and marks
 * it failed; the runner prints cmocka's summary and returns the number of
 * tests that failed, which the image turns into its verdict.  An assertion
 * that fails on another thread than the runner's cannot end the test there:
 * it is printed and counted, and the test is failed when it returns.
 */
#ifndef IRQKIT_RV_CMOCKA_H
#define IRQKIT_RV_CMOCKA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef void (*CMUnitTestFunction)(void **state);
typedef int (*CMFixtureFunction)(void **state);

struct CMUnitTest {
	const char		*name;
	CMUnitTestFunction	test_func;
	CMFixtureFunction	setup_func;
	CMFixtureFunction	teardown_func;
	void			*initial_state;
};

#define cmocka_unit_test(f)			{ #f, f, NULL, NULL, NULL }
#define cmocka_unit_test_setup(f, s)		{ #f, f, s, NULL, NULL }
#define cmocka_unit_test_teardown(f, t)		{ #f, f, NULL, t, NULL }
#define cmocka_unit_test_setup_teardown(f, s, t) { #f, f, s, t, NULL }

int _cmocka_run_group_tests(const char *group, const struct CMUnitTest *tests, size_t n,
			    CMFixtureFunction group_setup, CMFixtureFunction group_teardown);
#define cmocka_run_group_tests(tests, gs, gt)					\
	_cmocka_run_group_tests(#tests, tests, sizeof(tests) / sizeof((tests)[0]), gs, gt)

void _cmocka_fail(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void _cmocka_int_equal(uintmax_t a, uintmax_t b, bool want_equal, const char *file, int line);
void _cmocka_string_equal(const char *a, const char *b, bool want_equal, const char *file,
			  int line);
void _cmocka_memory_equal(const void *a, const void *b, size_t n, bool want_equal,
			  const char *file, int line);
void _cmocka_in_range(uintmax_t v, uintmax_t lo, uintmax_t hi, const char *file, int line);

#define assert_true(c)								\
	do { if (!(c)) _cmocka_fail(__FILE__, __LINE__, "%s", #c); } while (0)
#define assert_false(c)								\
	do { if (c) _cmocka_fail(__FILE__, __LINE__, "%s", #c); } while (0)
#define assert_null(p)								\
	do { if ((p) != NULL) _cmocka_fail(__FILE__, __LINE__, "%s", #p); } while (0)
#define assert_non_null(p)							\
	do { if ((p) == NULL) _cmocka_fail(__FILE__, __LINE__, "%s", #p); } while (0)
#define assert_int_equal(a, b)							\
	_cmocka_int_equal((uintmax_t)(a), (uintmax_t)(b), true, __FILE__, __LINE__)
#define assert_int_not_equal(a, b)						\
	_cmocka_int_equal((uintmax_t)(a), (uintmax_t)(b), false, __FILE__, __LINE__)
#define assert_ptr_equal(a, b)							\
	_cmocka_int_equal((uintptr_t)(a), (uintptr_t)(b), true, __FILE__, __LINE__)
#define assert_ptr_not_equal(a, b)						\
	_cmocka_int_equal((uintptr_t)(a), (uintptr_t)(b), false, __FILE__, __LINE__)
#define assert_string_equal(a, b)						\
	_cmocka_string_equal((a), (b), true, __FILE__, __LINE__)
#define assert_string_not_equal(a, b)						\
	_cmocka_string_equal((a), (b), false, __FILE__, __LINE__)
#define assert_memory_equal(a, b, n)						\
	_cmocka_memory_equal((a), (b), (n), true, __FILE__, __LINE__)
#define assert_memory_not_equal(a, b, n)					\
	_cmocka_memory_equal((a), (b), (n), false, __FILE__, __LINE__)
#define assert_in_range(v, lo, hi)						\
	_cmocka_in_range((uintmax_t)(v), (uintmax_t)(lo), (uintmax_t)(hi), __FILE__, __LINE__)
#define fail()		_cmocka_fail(__FILE__, __LINE__, "%s", "fail()")
#define fail_msg(...)	_cmocka_fail(__FILE__, __LINE__, __VA_ARGS__)

/* The image's program is irqkit_main() (run as hart 0's first thread): a test's main() is it. */
int irqkit_main(void);
#define main irqkit_main

#endif /* IRQKIT_RV_CMOCKA_H */
