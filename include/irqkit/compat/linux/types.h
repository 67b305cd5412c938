/* SPDX-License-Identifier: MIT */
/*
 * Linux's <linux/types.h> for driver code: the system's (the __u8 family)
 * first, then the kernel's short names.
 */
#ifndef IRQKIT_COMPAT_LINUX_TYPES_H
#define IRQKIT_COMPAT_LINUX_TYPES_H

#include_next <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef __u8	u8;
typedef __s8	s8;
typedef __u16	u16;
typedef __s16	s16;
typedef __u32	u32;
typedef __s32	s32;
typedef __u64	u64;
typedef __s64	s64;

#endif
