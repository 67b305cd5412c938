// SPDX-License-Identifier: MIT
/*
 * Compile-failure cases: each CASE_x uses one interface removed in Linux 2.6 (or
 * a handler returning void) and must stop the build with a message naming the
 * replacement.  Without a CASE the file compiles: the control.
 */
#include <linux/interrupt.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

static irqreturn_t good_handler(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	return IRQ_HANDLED;
}

#if defined(CASE_void_handler)
static void void_handler(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
}
#elif defined(CASE_void_handler_regs)
static void void_handler(int irq, void *dev_id, struct pt_regs *regs)
{
	(void)irq;
	(void)dev_id;
	(void)regs;
}
#endif

int driver_init(void);
int driver_init(void)
{
	unsigned long flags = 0;
	int ret = request_irq(5, good_handler, IRQF_SHARED, "good", &flags);

	(void)flags;
#if defined(CASE_cli)
	cli();
#elif defined(CASE_sti)
	sti();
#elif defined(CASE_save_flags)
	save_flags(flags);
#elif defined(CASE_restore_flags)
	restore_flags(flags);
#elif defined(CASE_queue_task)
	queue_task(NULL, NULL);
#elif defined(CASE_tq_struct)
	{
		static struct tq_struct task = { .routine = NULL, .data = NULL };
		(void)task;
	}
#elif defined(CASE_run_task_queue)
	run_task_queue(NULL);
#elif defined(CASE_mark_bh)
	mark_bh(3);
#elif defined(CASE_init_bh)
	init_bh(3, NULL);
#elif defined(CASE_remove_bh)
	remove_bh(3);
#elif defined(CASE_delayed_work_26)
	{
		static struct work_struct work;	/* 2.6.0-2.6.19: the work carried its timer */
		schedule_delayed_work(&work, 10);
	}
#elif defined(CASE_queue_delayed_work_26)
	{
		static struct work_struct work;
		queue_delayed_work(system_wq, &work, 10);
	}
#elif defined(CASE_cancel_delayed_work_26)
	{
		static struct work_struct work;
		cancel_delayed_work(&work);
	}
#elif defined(CASE_void_handler) || defined(CASE_void_handler_regs)
	ret = request_irq(6, void_handler, 0, "bad", NULL);
#endif
#if !defined(CASE_delayed_work_26)
	{
		static struct delayed_work dwork;	/* the 2.6.20+ form compiles */
		if (schedule_delayed_work(&dwork, 10))
			(void)cancel_delayed_work(&dwork);
	}
#endif
	return ret;
}
