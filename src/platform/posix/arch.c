// SPDX-License-Identifier: MIT
/*
 * The Linux user-space port's part of the CPU contract that is not inline
 * (<irqkit/arch/current.h>, <irqkit/arch/irqflags.h>): each thread's task,
 * a thread-local object reached at a fixed offset from the thread pointer.
 */
#include <irqkit/task.h>

_Thread_local struct irqkit_task irqkit_task_self;
