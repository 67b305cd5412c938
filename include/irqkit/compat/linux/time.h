/* SPDX-License-Identifier: MIT */
/*
 * Time of day as drivers read it: 2.6's do_gettimeofday() and
 * current_kernel_time(), today's ktime_get_*ts64().  (Not the system's
 * <linux/time.h>, whose struct timespec clashes with libc's <time.h>;
 * libc's <time.h> and <sys/time.h> are included instead.)
 */
#ifndef IRQKIT_COMPAT_LINUX_TIME_H
#define IRQKIT_COMPAT_LINUX_TIME_H

#include <stdint.h>
#include <time.h>
#include <sys/time.h>
#include <linux/jiffies.h>

typedef int64_t time64_t;
typedef int64_t ktime_t;
struct timespec64 {
	time64_t	tv_sec;
	long		tv_nsec;
};

#define NSEC_PER_USEC	1000L
#define NSEC_PER_MSEC	1000000L
#define USEC_PER_SEC	1000000L
#define NSEC_PER_SEC	1000000000L
#define MSEC_PER_SEC	1000L

static inline struct timespec64 irqkit__ts64(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (struct timespec64){ ts.tv_sec, ts.tv_nsec };
}

static inline void do_gettimeofday(struct timeval *tv)
{
	gettimeofday(tv, NULL);
}
static inline struct timespec current_kernel_time(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME_COARSE, &ts);
	return ts;
}
static inline void getnstimeofday(struct timespec *ts)
{
	clock_gettime(CLOCK_REALTIME, ts);
}
static inline void ktime_get_real_ts64(struct timespec64 *ts)
{
	int64_t ns = irqkit_ktime_get_real_ns();

	*ts = (struct timespec64){ (time64_t)(ns / NSEC_PER_SEC), (long)(ns % NSEC_PER_SEC) };
}
static inline void ktime_get_coarse_real_ts64(struct timespec64 *ts)
{
	*ts = irqkit__ts64(CLOCK_REALTIME_COARSE);
}
static inline void ktime_get_ts64(struct timespec64 *ts)
{
	uint64_t ns = irqkit_ktime_get_ns();

	*ts = (struct timespec64){ (time64_t)(ns / NSEC_PER_SEC), (long)(ns % NSEC_PER_SEC) };
}
/*
 * The monotonic reads are irqkit's clock (<irqkit/timer.h>): since the
 * runtime started, as Linux's since boot, and virtual where the runtime's
 * time is (deterministic mode, the simulator), so a driver's reads agree
 * with its jiffies and timers.  ktime_get_real*() read the real-time
 * clock of hrtimers, irqkit's clock plus the host's time of day at start;
 * the 2.6 reads (do_gettimeofday() and the like) are the host's.
 */
static inline ktime_t ktime_get(void)
{
	return (ktime_t)irqkit_ktime_get_ns();
}
#define ktime_get_ns()		irqkit_ktime_get_ns()
/* The real-time reads of hrtimers' CLOCK_REALTIME: irqkit's clock plus the time of day at start */
#define ktime_get_real()	((ktime_t)irqkit_ktime_get_real_ns())
#define ktime_get_real_ns()	((uint64_t)irqkit_ktime_get_real_ns())
#define ktime_get_clocktai()	ktime_get_real()
#define ktime_get_clocktai_ns()	ktime_get_real_ns()
#define ktime_get_boottime()	ktime_get()
#define ktime_get_boottime_ns()	ktime_get_ns()
#define ktime_get_raw()		ktime_get()
#define ktime_get_raw_ns()	ktime_get_ns()
#define ktime_to_ns(kt)		((int64_t)(kt))
#define ktime_get_real_seconds() ((time64_t)time(NULL))

/* <linux/time64.h>: struct timespec64 to and from nanoseconds */
static inline int64_t timespec64_to_ns(const struct timespec64 *ts)
{
	return ts->tv_sec * NSEC_PER_SEC + ts->tv_nsec;
}
/* A negative time has a negative tv_sec and a tv_nsec in 0..999999999, as Linux's. */
static inline struct timespec64 ns_to_timespec64(int64_t nsec)
{
	struct timespec64 ts = { nsec / NSEC_PER_SEC, (long)(nsec % NSEC_PER_SEC) };

	if (ts.tv_nsec < 0) {
		ts.tv_sec--;
		ts.tv_nsec += NSEC_PER_SEC;
	}
	return ts;
}

#endif
