/* SPDX-License-Identifier: MIT */
/*
 * Linux's <linux/group_cpus.h> (6.3): group_cpus_evenly(), the CPUs in
 * groups of neighbours (<irqkit/affinity.h>).  From 6.14 it also says how
 * many groups got CPUs; before, the groups past the CPU count are empty.
 */
#ifndef IRQKIT_COMPAT_LINUX_GROUP_CPUS_H
#define IRQKIT_COMPAT_LINUX_GROUP_CPUS_H

#include <linux/version.h>
#include <linux/cpumask.h>
#include <irqkit/affinity.h>

#if IRQKIT_LINUX_AT_LEAST(6, 14, 0)
#define group_cpus_evenly(numgrps, nummasks)	irqkit_group_cpus_evenly((numgrps), (nummasks))
#elif IRQKIT_LINUX_AT_LEAST(6, 3, 0)
static inline struct cpumask *group_cpus_evenly(unsigned int numgrps)
{
	unsigned int nummasks;

	return irqkit_group_cpus_evenly(numgrps, &nummasks);
}
#else
#define group_cpus_evenly(...)	IRQKIT_ERA_ERROR("group_cpus_evenly needs Linux 6.3; this build is for an older kernel")
#endif

#endif
