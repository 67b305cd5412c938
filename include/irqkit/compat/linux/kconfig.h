/* SPDX-License-Identifier: MIT */
/*
 * Linux's <linux/kconfig.h>: IS_ENABLED() and friends, and the options
 * irqkit's model has: SMP (several virtual CPUs) and CPU hotplug.  An
 * option not defined here is off, as an unset Kconfig symbol is.
 */
#ifndef IRQKIT_COMPAT_LINUX_KCONFIG_H
#define IRQKIT_COMPAT_LINUX_KCONFIG_H

#ifndef CONFIG_SMP
#define CONFIG_SMP		1
#endif
#ifndef CONFIG_HOTPLUG_CPU
#define CONFIG_HOTPLUG_CPU	1
#endif
#ifndef CONFIG_GENERIC_IRQ_MIGRATION
#define CONFIG_GENERIC_IRQ_MIGRATION 1
#endif

/* IS_ENABLED(CONFIG_X): 1 when the option is defined to 1, else 0 (Linux's trick) */
#define __IRQKIT_ARG_PLACEHOLDER_1		0,
#define __irqkit_take_second_arg(ignored, val, ...) val
#define ___irqkit_is_defined(val)		____irqkit_is_defined(__IRQKIT_ARG_PLACEHOLDER_##val)
#define ____irqkit_is_defined(arg1_or_junk)	__irqkit_take_second_arg(arg1_or_junk 1, 0)
#define __irqkit_is_defined(x)			___irqkit_is_defined(x)
#define IS_BUILTIN(option)	__irqkit_is_defined(option)
#define IS_MODULE(option)	0
#define IS_ENABLED(option)	IS_BUILTIN(option)
#define IS_REACHABLE(option)	IS_BUILTIN(option)

#endif
