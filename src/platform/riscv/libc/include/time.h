/* SPDX-License-Identifier: MIT */
/*
 * The C library on bare metal: clocks.  CLOCK_REALTIME is QEMU virt's
 * Goldfish RTC, the monotonic clocks the time CSR since reset.
 */
#ifndef IRQKIT_RV_TIME_H
#define IRQKIT_RV_TIME_H
#include <stdint.h>
typedef int64_t time_t;
typedef int clockid_t;
struct timespec {
	time_t	tv_sec;
	long	tv_nsec;
};
#define CLOCK_REALTIME		0
#define CLOCK_MONOTONIC		1
#define CLOCK_MONOTONIC_RAW	4
#define CLOCK_REALTIME_COARSE	5
#define CLOCK_MONOTONIC_COARSE	6
#define CLOCK_BOOTTIME		7
#define CLOCK_TAI		11
int clock_gettime(clockid_t clock, struct timespec *ts);
#endif
