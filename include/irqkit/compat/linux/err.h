/* SPDX-License-Identifier: MIT */
/*
 * Linux's <linux/err.h>: an error code carried in a pointer.  The last page
 * of the address space (-4095..-1) is never a valid object, so a pointer in
 * it is a negative errno.
 */
#ifndef IRQKIT_COMPAT_LINUX_ERR_H
#define IRQKIT_COMPAT_LINUX_ERR_H

#include <stdbool.h>
#include <stdint.h>

#define MAX_ERRNO	4095
#define IS_ERR_VALUE(x)	((unsigned long)(void *)(x) >= (unsigned long)-MAX_ERRNO)

static inline void *ERR_PTR(long error)
{
	return (void *)error;
}

static inline long PTR_ERR(const void *ptr)
{
	return (long)ptr;
}

static inline bool IS_ERR(const void *ptr)
{
	return IS_ERR_VALUE((uintptr_t)ptr);
}

static inline bool IS_ERR_OR_NULL(const void *ptr)
{
	return !ptr || IS_ERR_VALUE((uintptr_t)ptr);
}

/* The pointer as another type, error or not. */
static inline void *ERR_CAST(const void *ptr)
{
	return (void *)ptr;
}

static inline int PTR_ERR_OR_ZERO(const void *ptr)
{
	return IS_ERR(ptr) ? (int)PTR_ERR(ptr) : 0;
}

#endif
