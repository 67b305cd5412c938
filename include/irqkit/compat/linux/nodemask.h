/* SPDX-License-Identifier: MIT */
/* Linux's <linux/nodemask.h>: one memory node; NUMA_NO_NODE says "any". */
#ifndef IRQKIT_COMPAT_LINUX_NODEMASK_H
#define IRQKIT_COMPAT_LINUX_NODEMASK_H

#define NUMA_NO_NODE	(-1)
#define MAX_NUMNODES	1
#define first_online_node	0

#endif
