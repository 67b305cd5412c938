// SPDX-License-Identifier: MIT
/*
 * A timer/tasklet/jiffies driver in 2.6 style (2.6.10 era), with the later
 * forms behind LINUX_VERSION_CODE.  HZ is used as a constant at file scope
 * and in #if, as drivers of that time did.
 */
#include <linux/version.h>
#include <linux/kernel.h>
#include <linux/types.h>
#include <linux/sched.h>
#include <linux/time.h>
#include <linux/timer.h>
#include <linux/delay.h>
#include <linux/slab.h>
#include <linux/interrupt.h>
#include <linux/wait.h>
#include <asm/hardirq.h>
#include <string.h>

#include "drv_jit.h"

#if HZ < 100
#error "HZ must be at least 100 for these delays"
#endif

int delay = HZ / 10;		/* the default delay, in jiffies */

int jit_default_delay(void)
{
	return delay;
}

unsigned long jit_jiffies(void)
{
	return jiffies;
}

int jit_hz(void)
{
	return HZ;
}

void jit_delay(enum jit_how how, unsigned long *pj0, unsigned long *pj1)
{
	unsigned long j0, j1;
	wait_queue_head_t wait;

	init_waitqueue_head(&wait);
	j0 = jiffies;
	j1 = j0 + delay;
	switch (how) {
	case JIT_BUSY:
		while (time_before(jiffies, j1))
			cpu_relax();
		break;
	case JIT_SCHED:
		while (time_before(jiffies, j1))
			schedule();
		break;
	case JIT_QUEUE:
		wait_event_interruptible_timeout(wait, 0, delay);
		break;
	case JIT_SCHEDTO:
		set_current_state(TASK_INTERRUPTIBLE);
		schedule_timeout(delay);
		break;
	case JIT_MDELAY:
		mdelay(delay * 1000 / HZ);
		break;
	case JIT_MSLEEP:
		msleep(delay * 1000 / HZ);
		break;
	}
	j1 = jiffies;		/* actual value after the delay */
	*pj0 = j0;
	*pj1 = j1;
}

/* ---- the timer and the tasklet -------------------------------------------------------- */

struct jit_data {
	struct timer_list	timer;
	struct tasklet_struct	tlet;
	int			hi;
	wait_queue_head_t	wait;
	unsigned long		prevjiffies;
	int			tdelay;
	int			loops;
	int			n;
	struct jit_sample	*out;
};

static void jit_record(struct jit_data *data)
{
	struct jit_sample *s = &data->out[data->n++];

	s->j = jiffies;
	s->in_interrupt = in_interrupt() ? 1 : 0;
	s->in_softirq = in_softirq() && !in_irq();
	s->pid = current->pid;
	memcpy(s->comm, current->comm, sizeof(s->comm));	/* both TASK_COMM_LEN */
}

#if LINUX_VERSION_CODE < KERNEL_VERSION(4, 15, 0)
static void jit_timer_fn(unsigned long arg)
{
	struct jit_data *data = (struct jit_data *)arg;
#else
static void jit_timer_fn(struct timer_list *t)
{
	struct jit_data *data = from_timer(data, t, timer);
#endif
	jit_record(data);
	/* release: the samples written above are seen by whoever sees the count */
	smp_store_release(&data->loops, data->loops - 1);
	if (data->loops) {
		data->timer.expires += data->tdelay;
		data->prevjiffies = jiffies;
		add_timer(&data->timer);
	} else {
		wake_up_interruptible(&data->wait);
	}
}

void jit_timer(int tdelay, struct jit_sample *out)
{
	struct jit_data *data = kmalloc(sizeof(*data), GFP_KERNEL);
	unsigned long j;

	if (!data)
		return;
	memset(data, 0, sizeof(*data));
	init_waitqueue_head(&data->wait);
	data->out = out;
	data->tdelay = tdelay;
	data->loops = JIT_LOOPS;
	jit_record(data);			/* the process, for comparison */
	j = out[0].j;				/* the base of the expiries is the jiffies it shows */
	data->prevjiffies = j;
#if LINUX_VERSION_CODE < KERNEL_VERSION(4, 15, 0)
	init_timer(&data->timer);
	data->timer.data = (unsigned long)data;
	data->timer.function = jit_timer_fn;
#else
	timer_setup(&data->timer, jit_timer_fn, 0);
#endif
	data->timer.expires = j + tdelay;
	add_timer(&data->timer);
	wait_event_interruptible(data->wait, !smp_load_acquire(&data->loops));
	del_timer_sync(&data->timer);
	kfree(data);
}

#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 9, 0)
static void jit_tasklet_fn(unsigned long arg)
{
	struct jit_data *data = (struct jit_data *)arg;
#else
static void jit_tasklet_fn(struct tasklet_struct *t)
{
	struct jit_data *data = from_tasklet(data, t, tlet);
#endif
	jit_record(data);
	smp_store_release(&data->loops, data->loops - 1);
	if (data->loops) {
		data->prevjiffies = jiffies;
		if (data->hi)
			tasklet_hi_schedule(&data->tlet);
		else
			tasklet_schedule(&data->tlet);
	} else {
		wake_up_interruptible(&data->wait);
	}
}

void jit_tasklet(int hi, struct jit_sample *out)
{
	struct jit_data *data = kmalloc(sizeof(*data), GFP_KERNEL);

	if (!data)
		return;
	memset(data, 0, sizeof(*data));
	init_waitqueue_head(&data->wait);
	data->out = out;
	data->loops = JIT_LOOPS;
	data->hi = hi;
	jit_record(data);
	data->prevjiffies = jiffies;
#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 9, 0)
	tasklet_init(&data->tlet, jit_tasklet_fn, (unsigned long)data);
#else
	tasklet_setup(&data->tlet, jit_tasklet_fn);
#endif
	if (hi)
		tasklet_hi_schedule(&data->tlet);
	else
		tasklet_schedule(&data->tlet);
	wait_event_interruptible(data->wait, !smp_load_acquire(&data->loops));
	tasklet_kill(&data->tlet);
	kfree(data);
}
