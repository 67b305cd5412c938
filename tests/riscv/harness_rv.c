// SPDX-License-Identifier: MIT
/*
 * The test harness's bare-metal part (harness_host.c on the host): the
 * console for its messages, sleeps of the calling thread (the waits of
 * wait_until() let the hart's other threads run), no environment: a fixed
 * seed, scale 1, no echo.
 */
#include "../harness.h"

#include <unistd.h>

void rv_vprintf(const char *fmt, va_list ap);	/* the port's console */

void test_printf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	rv_vprintf(fmt, ap);
	va_end(ap);
}

bool test_log_echo(void)
{
	return false;
}

void usleep_100(void)
{
	usleep(100);
}

/* Here the time is counted in sleeps of 100 us: @end is the number left. */
struct test_wait test_wait_start(int ms)
{
	return (struct test_wait){ .end = (uint64_t)ms * 10u };
}

bool test_wait_step(struct test_wait *w)
{
	if (!w->end)
		return false;
	w->end--;
	usleep(100);
	return true;
}

unsigned int test_seed(void)
{
	static unsigned int seed;

	if (!seed) {
		seed = 1;
		test_printf("seed %u\n", seed);
	}
	return seed;
}

/* The host reads /proc/self/task; here the port's list of threads. */
unsigned int rv_threads_named(const char *prefix, const char *without);

int nr_threads_named(const char *prefix, const char *without)
{
	return (int)rv_threads_named(prefix, without);
}

int stress_scale(int n)
{
	return n;
}
