/* SPDX-License-Identifier: MIT */
/* Linux's <linux/slab.h> over irqkit: kmalloc with GFP flags (GFP_KERNEL may sleep). */
#ifndef IRQKIT_COMPAT_LINUX_SLAB_H
#define IRQKIT_COMPAT_LINUX_SLAB_H

#include <linux/gfp.h>

#define kmalloc(size, flags)		irqkit_kmalloc((size), (flags))
#define kzalloc(size, flags)		irqkit_kzalloc((size), (flags))
#define kcalloc(n, size, flags)		irqkit_kcalloc((n), (size), (flags))
#define kmalloc_array(n, size, flags)	irqkit_kcalloc((n), (size), (flags) & ~__GFP_ZERO)
#define kfree(p)			irqkit_kfree(p)
#define ksize(p)			irqkit_ksize(p)

#endif
