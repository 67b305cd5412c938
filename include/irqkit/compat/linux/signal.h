/* SPDX-License-Identifier: MIT */
/*
 * Linux's <linux/signal.h> for driver code (<irqkit/signal.h>): send_sig,
 * force_sig, allow_signal, flush_signals, kernel_dequeue_signal.  It
 * shadows the system's UAPI header of the same name, whose <asm/signal.h>
 * types clash with the C library's <signal.h>; the signal numbers come from
 * the C library instead (on Linux they are the kernel's), so this header
 * and <signal.h> work in one file, in either order.
 */
#ifndef IRQKIT_COMPAT_LINUX_SIGNAL_H
#define IRQKIT_COMPAT_LINUX_SIGNAL_H

#include <signal.h>
#include <irqkit/signal.h>
#include <linux/version.h>
#include <linux/sched.h>

#define send_sig(sig, p, priv)		irqkit_send_sig((sig), (p), (priv))
#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 3, 0)
#define force_sig(sig, p)		irqkit_force_sig((sig), (p))
#else
#define force_sig(sig)			irqkit_force_sig((sig), irqkit_current())
#endif
#define allow_signal(sig)		irqkit_allow_signal(sig)
#define disallow_signal(sig)		irqkit_disallow_signal(sig)
#define flush_signals(p)		irqkit_flush_signals(p)
#define kernel_dequeue_signal()		irqkit_dequeue_signal()

#endif
