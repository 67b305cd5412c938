/* SPDX-License-Identifier: MIT */
/*
 * 2.6's <asm/system.h>: the barriers, the interrupt flag (local_irq_*
 * through <linux/irqflags.h>) and xchg()/cmpxchg(), as 2.6 drivers such as
 * genrtc.c found them there.  Linux split it up in 3.4; it stays here for
 * drivers of every version.
 */
#ifndef IRQKIT_COMPAT_ASM_SYSTEM_H
#define IRQKIT_COMPAT_ASM_SYSTEM_H

#include <linux/barrier.h>
#include <linux/irqflags.h>
#include <asm/cmpxchg.h>

#endif
