/* SPDX-License-Identifier: MIT */
/*
 * Linux's <linux/cpuhotplug.h> over irqkit: the dynamic state of the
 * online section and its callbacks, run on each CPU as it comes up and
 * before it goes down.
 */
#ifndef IRQKIT_COMPAT_LINUX_CPUHOTPLUG_H
#define IRQKIT_COMPAT_LINUX_CPUHOTPLUG_H

#include <irqkit/cpu.h>

enum cpuhp_state {
	CPUHP_AP_ONLINE_DYN = IRQKIT_CPUHP_AP_ONLINE_DYN,
};

#define cpuhp_setup_state(state, name, startup, teardown)				\
	irqkit_cpuhp_setup_state((state), (name), (startup), (teardown))
#define cpuhp_setup_state_nocalls(state, name, startup, teardown)			\
	irqkit_cpuhp_setup_state_nocalls((state), (name), (startup), (teardown))
#define cpuhp_remove_state(state)		irqkit_cpuhp_remove_state(state)
#define cpuhp_remove_state_nocalls(state)	irqkit_cpuhp_remove_state_nocalls(state)

#endif
