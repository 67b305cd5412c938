// SPDX-License-Identifier: MIT
/*
 * The rest of the C library that drivers and the Linux-name layer use on
 * bare metal (libc/include/): formatting into buffers, number parsing,
 * memory, the clocks, sleeping.  vsnprintf is the port's formatter
 * (platform.c); the string functions are in string.c.
 */
#include "rv.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

int snprintf(char *restrict buf, size_t n, const char *restrict fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vsnprintf(buf, n, fmt, ap);
	va_end(ap);
	return ret;
}

int sprintf(char *restrict buf, const char *restrict fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vsnprintf(buf, (size_t)-1 / 2, fmt, ap);
	va_end(ap);
	return ret;
}

static int digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'Z')
		return c - 'A' + 10;
	return 99;
}

/* As the C library's, without errno: an overflow gives the largest value. */
unsigned long strtoul(const char *restrict s, char **restrict end, int base)
{
	const char *p = s;
	unsigned long v = 0;
	bool neg = false, any = false;

	while (*p == ' ' || (*p >= '\t' && *p <= '\r'))
		p++;
	if (*p == '+' || *p == '-')
		neg = *p++ == '-';
	if ((base == 0 || base == 16) && p[0] == '0' && (p[1] == 'x' || p[1] == 'X') &&
	    digit(p[2]) < 16) {
		p += 2;
		base = 16;
	} else if (base == 0) {
		base = *p == '0' ? 8 : 10;
	}
	for (; digit(*p) < base; p++) {
		unsigned long next = v * (unsigned long)base + (unsigned long)digit(*p);

		v = next / (unsigned long)base == v ? next : ~0ul;
		any = true;
	}
	if (end)
		*end = (char *)(any ? p : s);
	return neg ? -v : v;
}

long strtol(const char *restrict s, char **restrict end, int base)
{
	return (long)strtoul(s, end, base);
}

#define GOLDFISH_RTC	0x00101000ul	/* QEMU virt: nanoseconds since the epoch */

static uint64_t realtime_ns(void)
{
	uint64_t lo = mmio_read32(GOLDFISH_RTC);	/* reading the low half latches the high */
	uint64_t hi = mmio_read32(GOLDFISH_RTC + 4);

	return hi << 32 | lo;
}

int clock_gettime(clockid_t clock, struct timespec *ts)
{
	uint64_t ns;

	switch (clock) {
	case CLOCK_REALTIME:
	case CLOCK_REALTIME_COARSE:
	case CLOCK_TAI:
		ns = realtime_ns();
		break;
	case CLOCK_MONOTONIC:
	case CLOCK_MONOTONIC_RAW:
	case CLOCK_MONOTONIC_COARSE:
	case CLOCK_BOOTTIME:
		ns = irqkit_plat_now_ns();
		break;
	default:
		return -1;
	}
	ts->tv_sec = (time_t)(ns / 1000000000u);
	ts->tv_nsec = (long)(ns % 1000000000u);
	return 0;
}

int gettimeofday(struct timeval *restrict tv, void *restrict tz)
{
	uint64_t ns = realtime_ns();

	(void)tz;
	tv->tv_sec = (time_t)(ns / 1000000000u);
	tv->tv_usec = (suseconds_t)(ns % 1000000000u / 1000u);
	return 0;
}

/*
 * malloc, calloc and free on the port's allocator, which takes the size
 * back at free: a block keeps its size in a 64-byte header, so that what
 * follows keeps the allocator's 64-byte alignment.  Zeroed, as the
 * allocator's blocks are.
 */
#define MALLOC_HEAD	64u

void *malloc(size_t size)
{
	char *p;

	if (size > SIZE_MAX - MALLOC_HEAD)
		return NULL;
	p = irqkit_plat_alloc(size + MALLOC_HEAD);
	if (!p)
		return NULL;
	*(size_t *)p = size;
	return p + MALLOC_HEAD;
}

void *calloc(size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		return NULL;
	return malloc(n * size);
}

void free(void *p)
{
	char *h;

	if (!p)
		return;
	h = (char *)p - MALLOC_HEAD;
	irqkit_plat_free(h, *(size_t *)h + MALLOC_HEAD);
}

/* The port's own sleep of the calling thread (the contract's irqkit_plat_sleep_ns). */
int usleep(useconds_t us)
{
	irqkit_plat_sleep_ns((uint64_t)us * 1000u);
	return 0;
}
