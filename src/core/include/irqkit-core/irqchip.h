/* SPDX-License-Identifier: MIT */
/*
 * What a chip built into the library may use of the core, as Linux's irqchip
 * drivers use <linux/irq.h> and never kernel/irq/internals.h: the public chip
 * interface (<irqkit/chip.h>), the atomics, the log and its rate limit,
 * static probes, the platform's memory, a tear-down hook at stop, and the
 * direct path's take-it-now.  The core's own files include this through
 * core.h; a chip includes this alone.
 */
#ifndef IRQKIT_CORE_IRQCHIP_H
#define IRQKIT_CORE_IRQCHIP_H

#include <irqkit/types.h>
#include <irqkit/task.h>
#include <irqkit/spinlock.h>
#include <irqkit/irq.h>
#include <irqkit/chip.h>
#include <irqkit/runtime.h>	/* irqkit_printk, irqkit_nr_irqs */

#include "atomic.h"
#include "trace.h"
#include "platform.h"

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#define HIDDEN		__attribute__((visibility("hidden")))

#define pr_emerg(...)	irqkit_printk(IRQKIT_LOG_EMERG, __VA_ARGS__)
#define pr_err(...)	irqkit_printk(IRQKIT_LOG_ERR, __VA_ARGS__)
#define pr_warn(...)	irqkit_printk(IRQKIT_LOG_WARNING, __VA_ARGS__)
#define pr_info(...)	irqkit_printk(IRQKIT_LOG_INFO, __VA_ARGS__)

/* printk_ratelimit(): at most 10 messages in 5 s, as Linux's default. */
HIDDEN bool irqkit__core_printk_ratelimit(void);

/* Tear-down of a part outside the core (a chip's state), run by irqkit__core_exit. */
struct irqkit__core_exit_hook {
	void			(*fn)(void);
	struct irqkit__core_exit_hook *next;
	bool			registered;
};

/* Register @hook once per run.  Context: process context, runtime started. */
HIDDEN void irqkit__core_exit_hook_add(struct irqkit__core_exit_hook *hook);

/*
 * A chip's direct path: irqkit_cpu_handle_now() for an arrival the chip
 * never latched.  The edge flow does not call its irq_ack (other flows, and
 * mask_ack when the line cannot be handled now, still reach the chip, which
 * knows the arrival by irqkit__core_irq_taken_direct()).  If the flow ran, what
 * became pending on the CPU meanwhile is delivered too and the return is 0;
 * if the CPU could not take it, the return is @not_taken(@irq), the chip's
 * latched path, called so that the chip keeps nothing across the call
 * (@irq first: it is already where that call wants it).
 */
HIDDEN int irqkit__core_cpu_handle_now(unsigned int irq, unsigned int cpu,
				  int (*not_taken)(unsigned int irq));

/*
 * Is the arrival on @d one that irqkit__core_cpu_handle_now() is delivering on
 * this thread (the chip latched nothing of it)?  For the chip's callbacks
 * the flow calls meanwhile: mask_ack, a flow's ack, get_events.
 */
static inline bool irqkit__core_irq_taken_direct(const struct irqkit_irq_data *d)
{
	return irqkit_arch_current()->direct_irq == d->irq + 1;
}

/*
 * How many later turns the edge flow has run on @d's line: handler runs
 * that serve an edge remembered as PENDING while the line was in progress,
 * with no ack before them (as Linux's handle_edge_irq loop).  A chip that
 * tells each run what it stands for (get_events) hands over at its ack and
 * again when this count moves.  Read under the descriptor lock or by the
 * line's running handler.
 */
HIDDEN unsigned int irqkit__core_irq_edge_turns(const struct irqkit_irq_data *d);

#endif /* IRQKIT_CORE_IRQCHIP_H */
