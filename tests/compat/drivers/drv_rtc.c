// SPDX-License-Identifier: MIT
/*
 * An RTC-style driver as 2.6.9 drivers/char/rtc.c, genrtc.c and i8042.c
 * were written: their interrupt path, their blocking read with its signal
 * check, xchg() from <asm/system.h> and kmalloc() reached through
 * <linux/interrupt.h> (2.6 made <linux/slab.h> visible there until 2.6.34;
 * drivers of later versions include it, as this one does for them).
 * Built twice by the tests: for 2.6.10 and for current Linux.
 */
#include <linux/version.h>
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/types.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/interrupt.h>
#include <asm/system.h>
#if LINUX_VERSION_CODE >= KERNEL_VERSION(2, 6, 34)
#include <linux/slab.h>
#endif

#include "fakedev.h"
#include "drv_rtc.h"

static int rtc_irq = -1;
static unsigned long rtc_irq_data;	/* rtc_lock */
static DECLARE_WAIT_QUEUE_HEAD(rtc_wait);
#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 11)
static spinlock_t rtc_lock = SPIN_LOCK_UNLOCKED;
#else
static DEFINE_SPINLOCK(rtc_lock);
#endif
static unsigned long rtc_status;	/* genrtc's open flag, taken with xchg() */
static char *rtc_buf;			/* i8042's kmalloc'd buffer */
static int irq_count;

#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 19)
static irqreturn_t rtc_interrupt(int irq, void *dev_id, struct pt_regs *regs)
#else
static irqreturn_t rtc_interrupt(int irq, void *dev_id)
#endif
{
	(void)dev_id;
#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 19)
	(void)regs;
#endif
	if (!fakedev_status())
		return IRQ_NONE;
	fakedev_ack();
	spin_lock(&rtc_lock);
	/* as rtc.c: the count in the high bits, the kind in the low byte */
	rtc_irq_data += 0x100;
	rtc_irq_data &= ~0xff;
	rtc_irq_data |= 0x10;
	irq_count++;
	spin_unlock(&rtc_lock);
	wake_up_interruptible(&rtc_wait);
	return IRQ_HANDLED;
}

int rtc_open(void)
{
	if (xchg(&rtc_status, 1ul))
		return -EBUSY;
	rtc_buf = kmalloc(64, GFP_KERNEL);
	if (!rtc_buf) {
		rtc_status = 0;
		return -ENOMEM;
	}
	rtc_irq = 3;	/* the wire the tests use: rtc.c knew its line (RTC_IRQ) */
	if (request_irq(rtc_irq, rtc_interrupt, 0, "rtc", NULL)) {
		kfree(rtc_buf);
		rtc_status = 0;
		return -EIO;
	}
	return 0;
}

void rtc_release(void)
{
	free_irq(rtc_irq, NULL);
	kfree(rtc_buf);
	rtc_buf = NULL;
	(void)cmpxchg(&rtc_status, 1ul, 0ul);
}

/* 2.6.9's rtc_read, its loop as written there */
long rtc_read(unsigned long *out, int nonblock)
{
	DECLARE_WAITQUEUE(wait, current);
	unsigned long data;
	long retval = 0;

	add_wait_queue(&rtc_wait, &wait);
	do {
		__set_current_state(TASK_INTERRUPTIBLE);
		spin_lock_irq(&rtc_lock);
		data = rtc_irq_data;
		rtc_irq_data = 0;
		spin_unlock_irq(&rtc_lock);
		if (data != 0)
			break;
		if (nonblock) {
			retval = -EAGAIN;
			goto out;
		}
		if (signal_pending(current)) {
			retval = -ERESTARTSYS;
			goto out;
		}
		schedule();
	} while (1);
	*out = data;
	retval = sizeof(unsigned long);
out:
	__set_current_state(TASK_RUNNING);
	remove_wait_queue(&rtc_wait, &wait);
	return retval;
}

int rtc_irqs(void)
{
	unsigned long flags;
	int n;

	spin_lock_irqsave(&rtc_lock, flags);
	n = irq_count;
	spin_unlock_irqrestore(&rtc_lock, flags);
	return n;
}
