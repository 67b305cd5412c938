/* SPDX-License-Identifier: MIT */
/* Linux's <linux/bottom_half.h> over irqkit: local_bh_disable/enable. */
#ifndef IRQKIT_COMPAT_LINUX_BOTTOM_HALF_H
#define IRQKIT_COMPAT_LINUX_BOTTOM_HALF_H

#include <irqkit/task.h>

#define local_bh_disable()	irqkit_local_bh_disable()
#define local_bh_enable()	irqkit_local_bh_enable()

#endif
