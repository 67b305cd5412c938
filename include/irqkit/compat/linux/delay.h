/* SPDX-License-Identifier: MIT */
/* Linux's <linux/delay.h> over irqkit: msleep (may sleep). */
#ifndef IRQKIT_COMPAT_LINUX_DELAY_H
#define IRQKIT_COMPAT_LINUX_DELAY_H

#include <irqkit/timer.h>

#define msleep(ms)	irqkit_msleep(ms)

#endif
