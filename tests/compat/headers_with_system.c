// SPDX-License-Identifier: MIT
/*
 * Every header of the Linux-name layer in one file, together with the libc
 * headers that include the system's <linux/...> namesakes (<sys/param.h>:
 * linux/param.h, <sys/sysinfo.h>: linux/kernel.h, <errno.h>: linux/errno.h,
 * <signal.h>: SA_INTERRUPT), first or last (SYSTEM_LAST); and the 2.6 uses
 * of the time names: HZ a constant (#if, file scope), members and locals
 * named jiffies.  A compile test.
 */
#ifndef SYSTEM_LAST
#include <sys/param.h>
#include <sys/sysinfo.h>
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#endif
#include <linux/version.h>
#include <linux/kernel.h>
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/param.h>
#include <linux/jiffies.h>
#include <linux/timer.h>
#include <linux/delay.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/wait.h>
#include <linux/completion.h>
#include <linux/semaphore.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/gfp.h>
#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/smp.h>
#include <linux/time.h>
#include <linux/interrupt.h>
#include <linux/workqueue.h>
#include <linux/kthread.h>
#include <linux/signal.h>
#include <linux/err.h>
#include <linux/spinlock.h>
#include <linux/local_lock.h>
#include <linux/pci.h>
#include <linux/irq_poll.h>
#include <linux/netdevice.h>
#include <net/busy_poll.h>
#include <linux/hardirq.h>
#include <asm/hardirq.h>
#include <asm/irq.h>
#include <asm/atomic.h>
#include <asm/bitops.h>
#include <asm/system.h>
#include <asm/processor.h>
#include <asm/semaphore.h>
#include <asm/page.h>
#ifdef SYSTEM_LAST
#include <sys/param.h>
#include <sys/sysinfo.h>
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#endif

struct with_jiffies {
	unsigned long jiffies;
};
int delay = HZ;
#if HZ < 100
#error "HZ is not the kernel's"
#endif

/* a local named jiffies shadows the global object, as it does in Linux (-Wshadow says so) */
#pragma GCC diagnostic ignored "-Wshadow"
int use(struct with_jiffies *x);
int use(struct with_jiffies *x)
{
	unsigned long jiffies = x->jiffies;
	struct sysinfo si = { 0 };

	return (int)(jiffies + (unsigned long)si.uptime + EXEC_PAGESIZE + ENOENT + ERESTARTSYS +
		     WNOHANG + CLONE_VM + SA_INTERRUPT);
}
