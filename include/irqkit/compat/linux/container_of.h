/* SPDX-License-Identifier: MIT */
/* Linux's container_of(), which <linux/kernel.h> brings to every driver. */
#ifndef IRQKIT_COMPAT_LINUX_CONTAINER_OF_H
#define IRQKIT_COMPAT_LINUX_CONTAINER_OF_H

#include <stddef.h>

#ifndef container_of
#define container_of(ptr, type, member)							\
	((type *)(void *)((char *)(ptr) - offsetof(type, member)))
#endif

#endif
