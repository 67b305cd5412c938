/* SPDX-License-Identifier: MIT */
/* <asm/page.h>: the page size drivers size their buffers with (reached through <linux/sched.h>). */
#ifndef IRQKIT_COMPAT_ASM_PAGE_H
#define IRQKIT_COMPAT_ASM_PAGE_H

#define PAGE_SHIFT	12
#define PAGE_SIZE	(1UL << PAGE_SHIFT)
#define PAGE_MASK	(~(PAGE_SIZE - 1))

#endif
