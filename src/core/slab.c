// SPDX-License-Identifier: MIT
/*
 * kmalloc and kfree over the platform's allocator: each block carries its
 * size in a 16-byte header, which irqkit_plat_free needs back.
 */
#include "core.h"
#include <irqkit/kernel.h>

#define KMALLOC_HEADER	16u

static void *kmalloc_common(size_t size, unsigned int flags)
{
	unsigned char *p;

	if (flags & IRQKIT___GFP_DIRECT_RECLAIM)
		might_sleep();		/* Linux's might_alloc(): GFP_KERNEL may sleep */
	if (size > (size_t)-1 - KMALLOC_HEADER)
		return NULL;
	p = irqkit_plat_alloc(size + KMALLOC_HEADER);	/* zeroed */
	if (!p)
		return NULL;
	*(size_t *)p = size;
	return p + KMALLOC_HEADER;
}

void *irqkit_kmalloc(size_t size, unsigned int flags)
{
	return kmalloc_common(size, flags);
}

void *irqkit_kzalloc(size_t size, unsigned int flags)
{
	return kmalloc_common(size, flags | IRQKIT___GFP_ZERO);
}

void *irqkit_kcalloc(size_t n, size_t size, unsigned int flags)
{
	if (size && n > (size_t)-1 / size)
		return NULL;
	return kmalloc_common(n * size, flags | IRQKIT___GFP_ZERO);
}

size_t irqkit_ksize(const void *p)
{
	return p ? *(const size_t *)((const unsigned char *)p - KMALLOC_HEADER) : 0;
}

void irqkit_kfree(const void *p)
{
	unsigned char *base;

	if (!p)
		return;
	base = (unsigned char *)p - KMALLOC_HEADER;
	irqkit_plat_free(base, *(size_t *)base + KMALLOC_HEADER);
}
