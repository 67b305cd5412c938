/* SPDX-License-Identifier: MIT */
/*
 * <linux/ktime.h>: ktime_t (nanoseconds in an int64_t, as Linux's since
 * 3.17) and its arithmetic, over the reads of <linux/time.h>.
 */
#ifndef IRQKIT_COMPAT_LINUX_KTIME_H
#define IRQKIT_COMPAT_LINUX_KTIME_H

#include <linux/time.h>

#define KTIME_MAX		((ktime_t)INT64_MAX)
#define KTIME_SEC_MAX		(KTIME_MAX / NSEC_PER_SEC)

static inline ktime_t ktime_set(int64_t secs, unsigned long nsecs)
{
	if (secs >= KTIME_SEC_MAX)
		return KTIME_MAX;
	return secs * NSEC_PER_SEC + (int64_t)nsecs;
}
#define ktime_add(a, b)		((ktime_t)((a) + (b)))
#define ktime_sub(a, b)		((ktime_t)((a) - (b)))
#define ktime_add_ns(kt, ns)	((ktime_t)((kt) + (int64_t)(ns)))
#define ktime_sub_ns(kt, ns)	((ktime_t)((kt) - (int64_t)(ns)))
#define ktime_add_us(kt, us)	ktime_add_ns((kt), (int64_t)(us) * NSEC_PER_USEC)
#define ktime_add_ms(kt, ms)	ktime_add_ns((kt), (int64_t)(ms) * NSEC_PER_MSEC)
#define ktime_sub_us(kt, us)	ktime_sub_ns((kt), (int64_t)(us) * NSEC_PER_USEC)
#define ktime_sub_ms(kt, ms)	ktime_sub_ns((kt), (int64_t)(ms) * NSEC_PER_MSEC)
#define ns_to_ktime(ns)		((ktime_t)(ns))
#define us_to_ktime(us)		((ktime_t)((int64_t)(us) * NSEC_PER_USEC))
#define ms_to_ktime(ms)		((ktime_t)((int64_t)(ms) * NSEC_PER_MSEC))
#define ktime_to_us(kt)		((int64_t)(kt) / NSEC_PER_USEC)
#define ktime_to_ms(kt)		((int64_t)(kt) / NSEC_PER_MSEC)
#define ktime_us_delta(later, earlier)	ktime_to_us(ktime_sub((later), (earlier)))
#define ktime_ms_delta(later, earlier)	ktime_to_ms(ktime_sub((later), (earlier)))
#define ktime_divns(kt, div)	((int64_t)(kt) / (int64_t)(div))

/* -1, 0 or 1 as @a is before, at or after @b */
static inline int ktime_compare(ktime_t a, ktime_t b)
{
	return a < b ? -1 : a > b;
}
static inline bool ktime_after(ktime_t a, ktime_t b)
{
	return ktime_compare(a, b) > 0;
}
static inline bool ktime_before(ktime_t a, ktime_t b)
{
	return ktime_compare(a, b) < 0;
}
static inline struct timespec64 ktime_to_timespec64(ktime_t kt)
{
	return ns_to_timespec64(kt);
}
static inline ktime_t timespec64_to_ktime(struct timespec64 ts)
{
	return ktime_set(ts.tv_sec, (unsigned long)ts.tv_nsec);
}

#endif
