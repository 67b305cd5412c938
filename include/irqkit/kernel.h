/* SPDX-License-Identifier: MIT */
/*
 * What <linux/kernel.h>, <linux/printk.h>, <linux/bug.h> and <linux/slab.h>
 * give a driver: printk with its level prefix, WARN and BUG reports in
 * Linux's words, and kmalloc with GFP flags.
 */
#ifndef IRQKIT_KERNEL_H
#define IRQKIT_KERNEL_H

#include <stdarg.h>
#include <irqkit/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * irqkit_printk_linux - Linux's printk(): @fmt may start with a level, in
 * either form (KERN_SOH "\001" and a digit since Linux 3.6, "<N>" before);
 * without one the level is KERN_WARNING (4), Linux's default message level.
 * Each line goes to the log hook (see irqkit_set_log()).  Context: any.
 * Return: the number of characters of the message, as printk.
 */
IRQKIT_API int irqkit_printk_linux(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
IRQKIT_API int irqkit_vprintk_linux(const char *fmt, va_list ap);

/** irqkit_dump_stack - "CPU: c PID: p Comm: name" and the call trace.  Context: any. */
IRQKIT_API void irqkit_dump_stack(void);

/**
 * irqkit_warn_at - the report of WARN()/WARN_ON(): a "cut here" banner, the
 * message if @fmt, "WARNING: CPU: c PID: p at file:line", the call trace.
 * Execution goes on.  Context: any.
 */
IRQKIT_API void irqkit_warn_at(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/**
 * irqkit_bug_at - BUG(): "kernel BUG at file:line!", the call trace, then the
 * program ends (abort), as an oops ends the task that hit it.
 */
IRQKIT_API void irqkit_bug_at(const char *file, int line) __attribute__((noreturn));

/*
 * GFP flags, with Linux's meaning: DIRECT_RECLAIM is "may sleep" (2.6's
 * __GFP_WAIT), so GFP_KERNEL and its kin may sleep and GFP_ATOMIC/NOWAIT
 * may not.
 */
#define IRQKIT___GFP_DMA		0x0001u
#define IRQKIT___GFP_HIGHMEM		0x0002u
#define IRQKIT___GFP_DMA32		0x0004u
#define IRQKIT___GFP_HIGH		0x0020u
#define IRQKIT___GFP_IO			0x0040u
#define IRQKIT___GFP_FS			0x0080u
#define IRQKIT___GFP_ZERO		0x0100u
#define IRQKIT___GFP_DIRECT_RECLAIM	0x0400u
#define IRQKIT___GFP_KSWAPD_RECLAIM	0x0800u
#define IRQKIT___GFP_NOWARN		0x2000u
#define IRQKIT___GFP_HARDWALL		0x100000u
#define IRQKIT___GFP_RECLAIM		(IRQKIT___GFP_DIRECT_RECLAIM | IRQKIT___GFP_KSWAPD_RECLAIM)
#define IRQKIT_GFP_ATOMIC		(IRQKIT___GFP_HIGH | IRQKIT___GFP_KSWAPD_RECLAIM)
#define IRQKIT_GFP_NOWAIT		IRQKIT___GFP_KSWAPD_RECLAIM
#define IRQKIT_GFP_NOIO			IRQKIT___GFP_RECLAIM
#define IRQKIT_GFP_NOFS			(IRQKIT___GFP_RECLAIM | IRQKIT___GFP_IO)
#define IRQKIT_GFP_KERNEL		(IRQKIT___GFP_RECLAIM | IRQKIT___GFP_IO | IRQKIT___GFP_FS)
#define IRQKIT_GFP_USER			(IRQKIT_GFP_KERNEL | IRQKIT___GFP_HARDWALL)
#define IRQKIT_GFP_DMA			IRQKIT___GFP_DMA

/**
 * irqkit_kmalloc - @size bytes (16-byte aligned), or NULL.  A @flags that may
 * sleep (GFP_KERNEL) from atomic context is the report Linux gives ("BUG:
 * sleeping function called from invalid context"); the allocation is made
 * all the same.  __GFP_ZERO zeroes it.  Context: any, with GFP_ATOMIC.
 */
IRQKIT_API void *irqkit_kmalloc(size_t size, unsigned int flags);
IRQKIT_API void *irqkit_kzalloc(size_t size, unsigned int flags);
/** irqkit_kcalloc - @n * @size bytes, zeroed; NULL on overflow. */
IRQKIT_API void *irqkit_kcalloc(size_t n, size_t size, unsigned int flags);
/** irqkit_kfree - free what kmalloc gave; NULL is fine.  Context: any. */
IRQKIT_API void irqkit_kfree(const void *p);
/** irqkit_ksize - the size asked for at kmalloc. */
IRQKIT_API size_t irqkit_ksize(const void *p);

#ifdef __cplusplus
}
#endif
#endif /* IRQKIT_KERNEL_H */
