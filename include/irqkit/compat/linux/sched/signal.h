/* SPDX-License-Identifier: MIT */
/* <linux/sched/signal.h> (4.11 and later): signal_pending(), always 0 here (no signals). */
#include <linux/sched.h>
