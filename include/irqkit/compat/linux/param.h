/* SPDX-License-Identifier: MIT */
/*
 * <linux/param.h>: the system header first (<sys/param.h> includes it for
 * EXEC_PAGESIZE and friends), with the kernel's HZ, not user space's 100.
 */
#ifndef IRQKIT_COMPAT_LINUX_PARAM_H
#define IRQKIT_COMPAT_LINUX_PARAM_H

#include <linux/jiffies.h>
#include_next <linux/param.h>

#endif
