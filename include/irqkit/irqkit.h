/* SPDX-License-Identifier: MIT */
/* irqkit: the Linux interrupt-handling model as a C library.  The one header to include. */
#ifndef IRQKIT_IRQKIT_H
#define IRQKIT_IRQKIT_H

#include <irqkit/types.h>
#include <irqkit/task.h>
#include <irqkit/spinlock.h>
#include <irqkit/irq.h>
#include <irqkit/chip.h>
#include <irqkit/irqdesc.h>
#include <irqkit/irqdomain.h>
#include <irqkit/affinity.h>
#include <irqkit/irqsim.h>
#include <irqkit/runtime.h>
#include <irqkit/softirq.h>
#include <irqkit/timer.h>
#include <irqkit/sched.h>
#include <irqkit/wait.h>
#include <irqkit/kthread.h>
#include <irqkit/signal.h>
#include <irqkit/kernel.h>
#include <irqkit/workqueue.h>
#include <irqkit/irq_poll.h>
#include <irqkit/napi.h>
#include <irqkit/smp.h>
#include <irqkit/swchip.h>
#include <irqkit/proc.h>
#include <irqkit/hosted.h>
#include <irqkit/fd.h>
#include <irqkit/record.h>
#include <irqkit/device.h>
#include <irqkit/fault.h>
#include <irqkit/explore.h>
#include <irqkit/observe.h>
#include <irqkit/cpu.h>

#endif /* IRQKIT_IRQKIT_H */
