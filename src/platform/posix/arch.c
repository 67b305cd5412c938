// SPDX-License-Identifier: MIT
/*
 * The Linux user-space port's part of the CPU contract that is not inline
 * (<irqkit/arch/current.h>, <irqkit/arch/irqflags.h>): each thread's task,
 * a thread-local object reached at a fixed offset from the thread pointer.
 */
#include <irqkit/task.h>

_Thread_local struct irqkit_task irqkit_task_self;

/* ---- the task list: a task leaves it when its thread ends ---------------------- */

#include <pthread.h>

#include <irqkit-core/platform.h>

static pthread_key_t task_key;
static pthread_once_t task_key_once = PTHREAD_ONCE_INIT;

/* A key's destructor runs as the thread ends, before its thread-local memory goes. */
static void task_ended(void *t)
{
	irqkit__core_task_exit(t);
}

static void task_key_make(void)
{
	if (pthread_key_create(&task_key, task_ended))
		irqkit_plat_fatal("pthread_key_create failed: the task list cannot track thread ends");
}

void irqkit_plat_task_track(struct irqkit_task *t)
{
	pthread_once(&task_key_once, task_key_make);
	pthread_setspecific(task_key, t);
}
