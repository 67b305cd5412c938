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
#include <stdio.h>		/* sprintf, snprintf, sscanf: the kernel has its own */
#include <stdlib.h>		/* strtoul, for simple_strtoul */
#include <linux/compiler.h>
#include <linux/barrier.h>
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
#define simple_strtoul(s, end, base)	strtoul((s), (end), (base))
#define simple_strtol(s, end, base)	strtol((s), (end), (base))
#define scnprintf(buf, size, ...)	({ size_t __sz = (size);				\
	int __n = snprintf((buf), __sz, __VA_ARGS__);					\
	__n < 0 ? 0 : (size_t)__n >= __sz ? (__sz ? (int)__sz - 1 : 0) : __n; })
#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))
#define roundup(x, y)		((((x) + ((y) - 1)) / (y)) * (y))

#endif
