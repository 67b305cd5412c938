/* SPDX-License-Identifier: MIT */
/*
 * Linux's <linux/sched/signal.h> (4.11 and later): signal_pending() and
 * friends (<linux/sched.h> has them too, as before 4.11), and the calls of
 * <linux/signal.h>.
 */
#include <linux/sched.h>
#include <linux/signal.h>
