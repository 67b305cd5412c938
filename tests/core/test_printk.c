// SPDX-License-Identifier: MIT
/* Tests of src/core/printk.c: the freestanding printf against libc's, printk lines, WARN. */
#include "../harness.h"
#include "../../src/core/internals.h"

#include <limits.h>

#define CHECK(fmt, ...)								\
	do {									\
		char mine[256], libc[256];					\
		int n1 = irqkit__snprintf(mine, sizeof(mine), fmt, __VA_ARGS__);	\
		int n2 = snprintf(libc, sizeof(libc), fmt, __VA_ARGS__);	\
		assert_string_equal(mine, libc);				\
		assert_int_equal(n1, n2);					\
	} while (0)

static void test_vsnprintf_matches_libc(void **state)
{
	(void)state;
	CHECK("%d %i %u", -42, 17, 4000000000u);
	CHECK("%5d|%-5d|%05d|%+d|% d", 42, 42, 42, 42, 42);
	CHECK("%x %X %#x %08x %o", 0xbeefu, 0xbeefu, 0xbeefu, 0x2000081u, 8u);
	CHECK("%ld %lu %lx", LONG_MIN, ULONG_MAX, ULONG_MAX);
	CHECK("%lld %llu", LLONG_MIN, ULLONG_MAX);
	CHECK("%zu %hhu %hu", (size_t)12345, (unsigned char)300, (unsigned short)70000);
	CHECK("%s|%8s|%-8s|%.3s|%*s|%-*s|", "abc", "abc", "abc", "abcdef", 6, "ab", 6, "ab");
	CHECK("%c%c%% %.0d|%.5d", 'o', 'k', 0, 42);
	CHECK("%*d: %10u ", 3, 7, 123u);
	CHECK("CPU%-8d|%*s|", 12, 11, "");
}

static void test_vsnprintf_truncates_and_reports_full_length(void **state)
{
	char small[6];

	(void)state;
	assert_int_equal(irqkit__snprintf(small, sizeof(small), "%s-%d", "hello", 12345), 11);
	assert_string_equal(small, "hello");
	assert_int_equal(irqkit__snprintf(NULL, 0, "%d", 1234), 4);
}

static void test_pointer_formats_as_linux(void **state)
{
	char out[128];

	(void)state;
	irqkit__snprintf(out, sizeof(out), "[<%p>]", (void *)0x1234);
	assert_string_equal(out, "[<0000000000001234>]");
	irqkit__snprintf(out, sizeof(out), "%ps", (void *)test_vsnprintf_matches_libc);
	assert_string_equal(out, "test_vsnprintf_matches_libc");
	irqkit__snprintf(out, sizeof(out), "%pS", (char *)test_vsnprintf_matches_libc + 3);
	assert_string_equal(out, "test_vsnprintf_matches_libc+0x3");
}

static int lines_seen;

static void count_hook(void *arg, int level, const char *line)
{
	(void)arg;
	assert_int_equal(level, IRQKIT_LOG_ERR);
	assert_non_null(strstr(line, "line"));
	lines_seen++;
}

static void test_printk_sends_each_line_to_the_hook(void **state)
{
	(void)state;
	irqkit_set_log(count_hook, NULL);
	irqkit_printk(IRQKIT_LOG_ERR, "line %d\nline %d\nline %d\n", 1, 2, 3);
	irqkit_set_log(logcap_hook, NULL);
	assert_int_equal(lines_seen, 3);
}

static void test_warn_prints_cut_here_banner_and_end_marker(void **state)
{
	(void)state;
	log_clear();
	WARN(1, "something %s", "odd");
	assert_int_equal(log_find("------------[ cut here ]------------", 0), 0);
	assert_int_equal(log_find("something odd", 0), 1);
	assert_int_equal(log_find("WARNING: CPU: 0 PID:", 0), 2);
	assert_log_contains("test_printk.c");
	assert_log_contains("---[ end trace 0000000000000000 ]---");
	log_clear();
	assert_false(WARN(0, "never"));
	assert_int_equal(logcap.n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, det_setup, det_teardown)
		T(test_vsnprintf_matches_libc),
		T(test_vsnprintf_truncates_and_reports_full_length),
		T(test_pointer_formats_as_linux),
		T(test_printk_sends_each_line_to_the_hook),
		T(test_warn_prints_cut_here_banner_and_end_marker),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
