/* SPDX-License-Identifier: MIT */
/*
 * Linux's <linux/errno.h>: the system's values (libc's <errno.h> includes
 * it) and the kernel-only codes drivers return.
 */
#ifndef IRQKIT_COMPAT_LINUX_ERRNO_H
#define IRQKIT_COMPAT_LINUX_ERRNO_H

#include_next <linux/errno.h>

#define ERESTARTSYS		512
#define ERESTARTNOINTR		513
#define ERESTARTNOHAND		514
#define ENOIOCTLCMD		515
#define ENOTSUPP		524

#endif
