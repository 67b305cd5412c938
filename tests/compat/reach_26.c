// SPDX-License-Identifier: MIT
/*
 * What 2.6 drivers reached through <linux/interrupt.h> without including it
 * themselves: i8042.c's kmalloc()/kfree()/GFP_KERNEL (<linux/slab.h>, until
 * 2.6.34) and genrtc.c's xchg() (<asm/system.h>, until 3.4).  Built with
 * 2.6.10 it must compile; built for current Linux the kmalloc case must
 * not (drivers of that version include <linux/slab.h>), while xchg() still
 * comes with <linux/interrupt.h> through <linux/atomic.h>, as it does on
 * current Linux.
 */
#include <linux/module.h>
#include <linux/interrupt.h>

static unsigned long flag;

int reach(void);
int reach(void)
{
	unsigned long was = xchg(&flag, 1ul);

	(void)cmpxchg(&flag, 1ul, 2ul);
#ifndef XCHG_ONLY
	{
		char *buf = kmalloc(16, GFP_KERNEL);

		kfree(buf);
	}
#endif
	return (int)was;
}
