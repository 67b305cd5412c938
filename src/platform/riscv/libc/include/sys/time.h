/* SPDX-License-Identifier: MIT */
/* The C library on bare metal: the time of day. */
#ifndef IRQKIT_RV_SYS_TIME_H
#define IRQKIT_RV_SYS_TIME_H
#include <time.h>
typedef int64_t suseconds_t;
struct timeval {
	time_t		tv_sec;
	suseconds_t	tv_usec;
};
int gettimeofday(struct timeval *restrict tv, void *restrict tz);
#endif
