// SPDX-License-Identifier: MIT
/* Tests of src/core/printk.c: the freestanding printf against libc's, printk lines, WARN. */
#include "../harness.h"
#include "irq/internals.h"

#include <limits.h>
#include <unistd.h>
#if __STDC_HOSTED__
#include <signal.h>
#include <sys/wait.h>		/* BUG() ends a child process */
#endif

#define CHECK(fmt, ...)								\
	do {									\
		char mine[256], libc[256];					\
		int n1 = irqkit__snprintf(mine, sizeof(mine), fmt, __VA_ARGS__);	\
		int n2 = snprintf(libc, sizeof(libc), fmt, __VA_ARGS__);	\
		assert_string_equal(mine, libc);				\
		assert_int_equal(n1, n2);					\
	} while (0)

/*
 * Host only, as the reference is the host's C library (bare metal's is the
 * port's smaller formatter).
 */
#if __STDC_HOSTED__
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
#endif

static void test_vsnprintf_truncates_and_reports_full_length(void **state)
{
	char small[6];

	(void)state;
	assert_int_equal(irqkit__snprintf(small, sizeof(small), "%s-%d", "hello", 12345), 11);
	assert_string_equal(small, "hello");
	assert_int_equal(irqkit__snprintf(NULL, 0, "%d", 1234), 4);
}

/* an exported function (named with libdw or with dladdr alone), longer than 3 bytes */
static volatile int printk_sink;
void printk_named_fn(void);
void printk_named_fn(void)
{
	printk_sink++;
	printk_sink++;
}

static void test_pointer_formats_as_linux(void **state)
{
	char out[128];

	(void)state;
	irqkit__snprintf(out, sizeof(out), "[<%p>]", (void *)0x1234);
	assert_string_equal(out, "[<0000000000001234>]");
	irqkit__snprintf(out, sizeof(out), "%ps", (void *)printk_named_fn);
	assert_string_equal(out, "printk_named_fn");
	irqkit__snprintf(out, sizeof(out), "%pS", (char *)printk_named_fn + 3);
	assert_string_equal(out, "printk_named_fn+0x3");
#ifdef IRQKIT_TEST_LIBDW
	/* with libdw, static functions (most handlers) have names too */
	irqkit__snprintf(out, sizeof(out), "%ps", (void *)test_vsnprintf_matches_libc);
	assert_string_equal(out, "test_vsnprintf_matches_libc");
#endif
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

/* ---- Linux's printk: the level prefix in either form ---------------------------------- */

static void test_printk_linux_reads_the_level_in_either_form(void **state)
{
	(void)state;
	log_clear();
	assert_int_equal(irqkit_printk_linux("<3>old form %d\n", 26), 12);
	assert_int_equal(irqkit_printk_linux("\0016new form\n"), 9);
	assert_int_equal(irqkit_printk_linux("no level\n"), 9);
	assert_int_equal(irqkit_printk_linux("\001cgoes on\n"), 8);
	assert_int_equal(logcap.n, 4);
	assert_string_equal(logcap.lines[0], "old form 26");
	assert_int_equal(logcap.levels[0], IRQKIT_LOG_ERR);
	assert_string_equal(logcap.lines[1], "new form");
	assert_int_equal(logcap.levels[1], IRQKIT_LOG_INFO);
	assert_string_equal(logcap.lines[2], "no level");
	assert_int_equal(logcap.levels[2], IRQKIT_LOG_WARNING);	/* Linux's default level */
	assert_string_equal(logcap.lines[3], "goes on");
}

static void test_warn_at_reports_in_linux_words(void **state)
{
	(void)state;
	irqkit_warn_at("drv.c", 42, "bad state %d", 7);
	assert_log_contains("------------[ cut here ]------------");
	assert_log_contains("bad state 7");
	assert_log_contains("WARNING: CPU: 0 PID:");
	assert_log_contains(" at drv.c:42");
}

/*
 * BUG(): the report, then the program ends (here: a child process, which
 * aborts; bare metal has none).
 */
#if __STDC_HOSTED__
static void bug_in_drv_c(void)
{
	irqkit_set_log(NULL, NULL);		/* to stderr, the pipe */
	irqkit_bug_at("drv.c", 99);
}

static void test_bug_reports_and_ends_the_program(void **state)
{
	char out[4096];
	int status;

	(void)state;
	status = in_child(bug_in_drv_c, out, sizeof(out));
	assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
	assert_non_null(strstr(out, "kernel BUG at drv.c:99!"));
	assert_non_null(strstr(out, "Call Trace:"));
}
#endif

/* ---- kmalloc ------------------------------------------------------------------------------ */

static void test_kmalloc_sizes_zeroes_and_frees(void **state)
{
	unsigned char *p = irqkit_kmalloc(100, IRQKIT_GFP_KERNEL);
	unsigned char *z = irqkit_kzalloc(64, IRQKIT_GFP_ATOMIC);
	unsigned int *c = irqkit_kcalloc(10, sizeof(unsigned int), IRQKIT_GFP_KERNEL);

	(void)state;
	assert_non_null(p);
	assert_int_equal((uintptr_t)p % 16, 0);
	assert_int_equal(irqkit_ksize(p), 100);
	memset(p, 0xa5, 100);
	for (int i = 0; i < 64; i++)
		assert_int_equal(z[i], 0);
	for (int i = 0; i < 10; i++)
		assert_int_equal(c[i], 0);
	assert_null(irqkit_kcalloc(SIZE_MAX / 2, 4, IRQKIT_GFP_KERNEL));	/* overflow */
	irqkit_kfree(p);
	irqkit_kfree(z);
	irqkit_kfree(c);
	irqkit_kfree(NULL);
	assert_log_lacks("BUG:");
}

/* GFP_KERNEL may sleep: from atomic context it is Linux's report; GFP_ATOMIC is fine there. */
static void test_gfp_kernel_in_atomic_context_is_reported(void **state)
{
	void *a, *k;

	(void)state;
	irqkit_local_bh_disable();
	a = irqkit_kmalloc(8, IRQKIT_GFP_ATOMIC);
	assert_log_lacks("BUG: sleeping function called from invalid context");
	k = irqkit_kmalloc(8, IRQKIT_GFP_KERNEL);
	irqkit_local_bh_enable();
	assert_log_contains("BUG: sleeping function called from invalid context");
	assert_non_null(a);
	assert_non_null(k);			/* made all the same, as Linux */
	irqkit_kfree(a);
	irqkit_kfree(k);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, det_setup, det_teardown)
#if __STDC_HOSTED__
		T(test_vsnprintf_matches_libc),
#endif
		T(test_vsnprintf_truncates_and_reports_full_length),
		T(test_pointer_formats_as_linux),
		T(test_printk_sends_each_line_to_the_hook),
		T(test_warn_prints_cut_here_banner_and_end_marker),
		T(test_printk_linux_reads_the_level_in_either_form),
		T(test_warn_at_reports_in_linux_words),
#if __STDC_HOSTED__
		T(test_bug_reports_and_ends_the_program),
#endif
		T(test_kmalloc_sizes_zeroes_and_frees),
		T(test_gfp_kernel_in_atomic_context_is_reported),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
