/* SPDX-License-Identifier: MIT */
/* <linux/ktime.h>: the time-of-day and monotonic reads of <linux/time.h>. */
#include <linux/time.h>
