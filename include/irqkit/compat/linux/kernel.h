/* SPDX-License-Identifier: MIT */
/*
 * Linux's <linux/kernel.h> over irqkit: printk and its levels, WARN/BUG,
 * container_of, ARRAY_SIZE, min/max.  The system's <linux/kernel.h> (struct
 * sysinfo, which <sys/sysinfo.h> includes it for) comes first.
 */
#ifndef IRQKIT_COMPAT_LINUX_KERNEL_H
#define IRQKIT_COMPAT_LINUX_KERNEL_H

#include_next <linux/kernel.h>
#include <stddef.h>
#include <linux/compiler.h>
#include <linux/printk.h>
#include <linux/bug.h>
#include <linux/container_of.h>
#include <linux/types.h>

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#endif
#define min(a, b)		({ __typeof__(a) __a = (a); __typeof__(b) __b = (b); __a < __b ? __a : __b; })
#define max(a, b)		({ __typeof__(a) __a = (a); __typeof__(b) __b = (b); __a > __b ? __a : __b; })
#define min_t(t, a, b)		min((t)(a), (t)(b))
#define max_t(t, a, b)		max((t)(a), (t)(b))
#define clamp(v, lo, hi)	min(max((v), (lo)), (hi))
#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))
#define roundup(x, y)		((((x) + ((y) - 1)) / (y)) * (y))

#endif
