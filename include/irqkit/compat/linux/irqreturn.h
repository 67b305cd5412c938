/* SPDX-License-Identifier: MIT */
/* Linux's <linux/irqreturn.h> over irqkit: what a handler returns. */
#ifndef IRQKIT_COMPAT_LINUX_IRQRETURN_H
#define IRQKIT_COMPAT_LINUX_IRQRETURN_H

#include <irqkit/types.h>

typedef enum irqkit_irqreturn irqreturn_t;

#define IRQ_NONE		IRQKIT_NONE
#define IRQ_HANDLED		IRQKIT_HANDLED
#define IRQ_WAKE_THREAD		IRQKIT_WAKE_THREAD
#define IRQ_RETVAL(x)		((x) ? IRQ_HANDLED : IRQ_NONE)

#endif
