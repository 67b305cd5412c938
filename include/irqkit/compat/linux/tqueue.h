/* SPDX-License-Identifier: MIT */
/*
 * Linux 2.4's <linux/tqueue.h>, removed in 2.6: task queues.  Every name here
 * fails to compile with the 2.6 replacement in the message.
 */
#ifndef IRQKIT_COMPAT_LINUX_TQUEUE_H
#define IRQKIT_COMPAT_LINUX_TQUEUE_H

/* Complete, with the 2.4 fields, so that a definition reports this message. */
struct __attribute__((unavailable("task queues are gone since Linux 2.6: "
	"use a struct work_struct with INIT_WORK()/schedule_work(), or a tasklet"))) tq_struct {
	void		*list;
	unsigned long	sync;
	void		(*routine)(void *);
	void		*data;
};

__attribute__((unavailable("queue_task() is gone since Linux 2.6: use schedule_work() "
	"or queue_work() for process context, tasklet_schedule() for interrupt-time work")))
int irqkit__removed_queue_task(void);
__attribute__((unavailable("run_task_queue() is gone since Linux 2.6: work queues run "
	"themselves; use flush_workqueue()/flush_scheduled_work() to wait for them")))
void irqkit__removed_run_task_queue(void);
#define queue_task(task, list)		irqkit__removed_queue_task()
#define run_task_queue(list)		irqkit__removed_run_task_queue()

#endif
