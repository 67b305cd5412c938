/* SPDX-License-Identifier: MIT */
/* Bare metal: the uapi <linux/sched.h>'s scheduling policies. */
#ifndef IRQKIT_RV_UAPI_SCHED_H
#define IRQKIT_RV_UAPI_SCHED_H
#define SCHED_NORMAL	0
#define SCHED_FIFO	1
#define SCHED_RR	2
#define SCHED_BATCH	3
#define SCHED_IDLE	5
#define SCHED_DEADLINE	6
#endif
