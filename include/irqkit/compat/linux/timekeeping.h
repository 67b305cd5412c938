/* SPDX-License-Identifier: MIT */
/* <linux/timekeeping.h>: the time-of-day and monotonic reads of <linux/time.h>. */
#include <linux/time.h>
