// SPDX-License-Identifier: MIT
/*
 * A parallel-port-style driver written as 2.6 drivers were (2.6.10 era),
 * with the changes later kernels made behind LINUX_VERSION_CODE, the way
 * out-of-tree drivers carry them.  Built twice by the tests: for 2.6.10 and
 * for current Linux.
 */
#include <linux/version.h>
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/errno.h>
#include <linux/delay.h>
#include <linux/slab.h>
#include <linux/interrupt.h>
#include <linux/workqueue.h>
#include <linux/wait.h>
#include <linux/time.h>
#include <linux/spinlock.h>
#include <linux/atomic.h>
#include <string.h>

#include "fakedev.h"
#include "drv_parport.h"

#define RING	64		/* stamps: a power of two */
#define TEXT	4096

static int pp_irq = -1;
static enum parport_bh pp_bh;
/* counters bumped by the handler, the bottom half and readers: atomic_t */
static struct {
	atomic_t	top_halves, top_in_hardirq, bottom_halves, bottom_in_softirq,
			bottom_in_process, reader_sleeps, not_mine, overruns;
} pp_st;

/* stamps, written by the top half, read by the bottom half */
static unsigned long stamp_jiffies[RING];
static unsigned int stamp_head, stamp_tail;
#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 11)
static spinlock_t stamp_lock = SPIN_LOCK_UNLOCKED;
#else
static DEFINE_SPINLOCK(stamp_lock);
#endif

/* text for readers, written by the bottom half */
static char *text;
static size_t text_len;
#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 11)
static spinlock_t text_lock = SPIN_LOCK_UNLOCKED;
#else
static DEFINE_SPINLOCK(text_lock);
#endif
static DECLARE_WAIT_QUEUE_HEAD(pp_queue);

static void pp_do_bottom(void)
{
	unsigned long flags;
	char line[64];

	for (;;) {
		unsigned long j;
		int n;

		spin_lock_irqsave(&stamp_lock, flags);
		if (stamp_tail == stamp_head) {
			spin_unlock_irqrestore(&stamp_lock, flags);
			break;
		}
		j = stamp_jiffies[stamp_tail++ % RING];
		spin_unlock_irqrestore(&stamp_lock, flags);
		n = snprintf(line, sizeof(line), "%08lx\n", j);
		spin_lock_irqsave(&text_lock, flags);
		if (text_len + (size_t)n <= TEXT) {
			memcpy(text + text_len, line, (size_t)n);
			WRITE_ONCE(text_len, text_len + (size_t)n);	/* readers test it unlocked */
		}
		spin_unlock_irqrestore(&text_lock, flags);
	}
	atomic_inc(&pp_st.bottom_halves);
	wake_up_interruptible(&pp_queue);
}

/* ---- the bottom halves, in each version's form --------------------------------------- */

#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 9, 0)
static void pp_tasklet_fn(unsigned long unused)
#else
static void pp_tasklet_fn(struct tasklet_struct *unused)
#endif
{
	(void)unused;
	if (in_softirq() && !in_irq())
		atomic_inc(&pp_st.bottom_in_softirq);
	pp_do_bottom();
}
#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 9, 0)
static DECLARE_TASKLET(pp_tasklet, pp_tasklet_fn, 0);
#else
static DECLARE_TASKLET(pp_tasklet, pp_tasklet_fn);
#endif

static struct work_struct pp_work;
#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 20)
static void pp_work_fn(void *unused)
#else
static void pp_work_fn(struct work_struct *unused)
#endif
{
	(void)unused;
	if (!in_interrupt() && strncmp(current->comm, "kworker", 7) == 0)
		atomic_inc(&pp_st.bottom_in_process);
	pp_do_bottom();
}

/* ---- the top half ------------------------------------------------------------------------ */

#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 19)
static irqreturn_t pp_interrupt(int irq, void *dev_id, struct pt_regs *regs)
#else
static irqreturn_t pp_interrupt(int irq, void *dev_id)
#endif
{
	(void)irq;
	(void)dev_id;
#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 19)
	(void)regs;
#endif
	if (!fakedev_status()) {
		atomic_inc(&pp_st.not_mine);
		return IRQ_NONE;	/* a shared line: another device's */
	}
	fakedev_ack();
	spin_lock(&stamp_lock);
	if (stamp_head - stamp_tail < RING)
		stamp_jiffies[stamp_head++ % RING] = jiffies;
	else
		atomic_inc(&pp_st.overruns);	/* the bottom half is a ring behind */
	spin_unlock(&stamp_lock);
	atomic_inc(&pp_st.top_halves);
	if (in_irq())
		atomic_inc(&pp_st.top_in_hardirq);
	if (pp_bh == PARPORT_BH_TASKLET)
		tasklet_schedule(&pp_tasklet);
	else
		schedule_work(&pp_work);
	return IRQ_HANDLED;
}

/* ---- probing: make the device interrupt and see which line fires -------------------------- */

static int pp_probe(void)
{
	int count = 0, irq;

	do {
		unsigned long mask = probe_irq_on();

		fakedev_ack();
		fakedev_trigger();		/* interrupt! */
		udelay(5);			/* give it some time */
		irq = probe_irq_off(mask);
		fakedev_ack();
		if (irq == 0) {
			printk(KERN_INFO "parport: no irq reported by probe\n");
			irq = -1;
		}
	} while (irq < 0 && count++ < 5);
	if (irq < 0)
		printk("parport: probe failed %i times, giving up\n", count);
	return irq;
}

int parport_init(enum parport_bh bh)
{
	int ret;

	memset(&pp_st, 0, sizeof(pp_st));	/* before any handler: atomic_set on each, in effect */
	pp_bh = bh;
	text = kmalloc(TEXT, GFP_KERNEL);
	if (!text)
		return -ENOMEM;
	WRITE_ONCE(text_len, 0);
	stamp_head = stamp_tail = 0;
#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 20)
	INIT_WORK(&pp_work, pp_work_fn, NULL);
#else
	INIT_WORK(&pp_work, pp_work_fn);
#endif
	pp_irq = pp_probe();
	if (pp_irq < 0) {
		kfree(text);
		return -ENODEV;
	}
#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 18)
	ret = request_irq(pp_irq, pp_interrupt, SA_SHIRQ | SA_INTERRUPT, "parport", &pp_st);
#else
	ret = request_irq(pp_irq, pp_interrupt, IRQF_SHARED, "parport", &pp_st);
#endif
	if (ret) {
		printk(KERN_INFO "parport: can't get assigned irq %i\n", pp_irq);
		kfree(text);
		return ret;
	}
	printk(KERN_INFO "parport: irq %i, %s bottom half\n", pp_irq,
	       bh == PARPORT_BH_TASKLET ? "tasklet" : "work queue");
	return 0;
}

size_t parport_read(char *buf, size_t len)
{
	unsigned long flags;
	size_t n;

	while (!READ_ONCE(text_len)) {
		DEFINE_WAIT(wait);

		prepare_to_wait(&pp_queue, &wait, TASK_INTERRUPTIBLE);
		if (!READ_ONCE(text_len)) {
			atomic_inc(&pp_st.reader_sleeps);
			schedule();
		}
		finish_wait(&pp_queue, &wait);
		if (signal_pending(current))
			return 0;	/* -ERESTARTSYS in a real read() */
	}
	spin_lock_irqsave(&text_lock, flags);
	n = text_len < len ? text_len : len;
	memcpy(buf, text, n);
	memmove(text, text + n, text_len - n);
	WRITE_ONCE(text_len, text_len - n);
	spin_unlock_irqrestore(&text_lock, flags);
	return n;
}

size_t parport_backlog(void)
{
	unsigned long flags;
	size_t n;

	spin_lock_irqsave(&stamp_lock, flags);
	n = stamp_head - stamp_tail;
	spin_unlock_irqrestore(&stamp_lock, flags);
	return n;
}

void parport_stats(struct parport_stats *st)
{
	st->irq = pp_irq;
	st->top_halves = atomic_read(&pp_st.top_halves);
	st->top_in_hardirq = atomic_read(&pp_st.top_in_hardirq);
	st->bottom_halves = atomic_read(&pp_st.bottom_halves);
	st->bottom_in_softirq = atomic_read(&pp_st.bottom_in_softirq);
	st->bottom_in_process = atomic_read(&pp_st.bottom_in_process);
	st->reader_sleeps = atomic_read(&pp_st.reader_sleeps);
	st->not_mine = atomic_read(&pp_st.not_mine);
	st->overruns = atomic_read(&pp_st.overruns);
}

void parport_exit(void)
{
	free_irq(pp_irq, &pp_st);
	tasklet_kill(&pp_tasklet);
	flush_scheduled_work();
	kfree(text);
	text = NULL;
}
