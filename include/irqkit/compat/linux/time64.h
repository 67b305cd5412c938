/* SPDX-License-Identifier: MIT */
/* <linux/time64.h>: struct timespec64 and its conversions (in <linux/time.h> here). */
#include <linux/time.h>
