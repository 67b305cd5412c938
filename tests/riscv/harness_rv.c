// SPDX-License-Identifier: MIT
/*
 * The test harness's bare-metal part (harness_host.c on the host): the
 * console for its messages, sleeps of the calling thread (the waits of
 * wait_until() let the hart's other threads run), no environment: a fixed
 * seed, scale 1, no echo.
 */
#include "../harness.h"

#include <unistd.h>

void rv_puts(const char *s);

void test_printf(const char *fmt, ...)
{
	char line[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	rv_puts(line);
}

bool test_log_echo(void)
{
	return false;
}

void usleep_100(void)
{
	usleep(100);
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

int stress_scale(int n)
{
	return n;
}
