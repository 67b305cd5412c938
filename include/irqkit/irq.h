/* SPDX-License-Identifier: MIT */
/* The interrupt API: requesting lines, per-line disable and synchronisation, chips. */
#ifndef IRQKIT_IRQ_H
#define IRQKIT_IRQ_H

#include <irqkit/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * irqkit_request_irq - add a handler for an interrupt line
 * @irq: the line
 * @handler: called in hardirq context, interrupts off; returns IRQKIT_HANDLED
 *           when its device raised the interrupt, IRQKIT_NONE otherwise
 * @flags: IRQKIT_F_* (SHARED, trigger, NO_AUTOEN, ...)
 * @name: shown in /proc/interrupts; must stay valid until free_irq
 * @dev_id: cookie passed to the handler and used by free_irq; required if SHARED
 *
 * Behaves as Linux's request_irq(): request_threaded_irq() with no thread
 * function and IRQF_COND_ONESHOT added.  The line is started
 * (unmasked) by the first handler unless IRQKIT_F_NO_AUTOEN.
 *
 * Context: process context; may sleep.
 * Return: 0 on success;
 * -ENOTCONN for IRQKIT_NOTCONNECTED;
 * -EINVAL for a bad flag combination, an irq with no descriptor, a line marked
 *  NOREQUEST or per-CPU-devid, or a NULL handler;
 * -ENOSYS when the line has no chip;
 * -EBUSY when the line is in use and cannot be shared with these flags;
 * -ENOMEM when memory runs out.
 */
IRQKIT_API IRQKIT_MUST_CHECK int irqkit_request_irq(unsigned int irq, irqkit_handler_fn handler,
						    unsigned long flags, const char *name,
						    void *dev_id);

/**
 * irqkit_request_threaded_irq - add a handler with a thread
 * @handler: primary handler in hardirq context; returns IRQKIT_WAKE_THREAD to
 *           run @thread_fn; NULL installs one that always does (then
 *           IRQKIT_F_ONESHOT is required unless the chip is ONESHOT_SAFE)
 * @thread_fn: runs in the action's own thread "irq/N-name", process context,
 *             bound to the line's CPU; NULL: no thread
 *
 * With IRQKIT_F_ONESHOT the line stays masked after the hardirq until the
 * thread has run.  Several wakes before the thread runs give one run.
 * Context: process context; may sleep.
 * Return: as irqkit_request_irq(); -EINVAL also for a NULL handler without
 * ONESHOT, -EBUSY when every ONESHOT bit of the line is taken, -ENOMEM when
 * the thread cannot start.
 */
IRQKIT_API IRQKIT_MUST_CHECK int irqkit_request_threaded_irq(unsigned int irq,
							     irqkit_handler_fn handler,
							     irqkit_handler_fn thread_fn,
							     unsigned long flags,
							     const char *name, void *dev_id);

/** irqkit_irq_wake_thread - wake the thread of the action with @dev_id (1.14).  Context: any. */
IRQKIT_API void irqkit_irq_wake_thread(unsigned int irq, void *dev_id);

/**
 * irqkit_request_irq_regs - irqkit_request_irq() for a 2.6.0-2.6.18 handler
 * whose third argument is `struct pt_regs *`; it receives NULL.
 */
IRQKIT_API IRQKIT_MUST_CHECK int irqkit_request_irq_regs(unsigned int irq,
							 irqkit_handler_regs_fn handler,
							 unsigned long flags, const char *name,
							 void *dev_id);

/**
 * irqkit_free_irq - remove the handler registered with @dev_id
 *
 * Removes the first action whose dev_id equals @dev_id; shuts the line down if
 * it was the last.  Waits for running handlers of the line (synchronize_irq), so
 * on return the handler is not running and will not be called again.  Called
 * from the line's own handler it warns, returns at once and frees the action
 * when the handler returns, instead of deadlocking.
 *
 * Context: process context; may sleep.
 * Return: the name given at request, or NULL (with the Linux warning) when no
 * action has @dev_id.
 */
IRQKIT_API const char *irqkit_free_irq(unsigned int irq, void *dev_id);

/**
 * irqkit_can_request_irq - would a request with @flags find room on @irq?
 *
 * True when the irq exists and either has no action or the caller's flags and
 * the first action's flags both have SHARED.  Advisory only.
 * Context: any.
 */
IRQKIT_API bool irqkit_can_request_irq(unsigned int irq, unsigned long flags);

/**
 * irqkit_disable_irq_nosync - disable a line without waiting
 *
 * Nests: depth++; the first disable marks the line disabled (lazily:
 * masked at the next interrupt).  Context: any, a handler of the same line included.
 */
IRQKIT_API void irqkit_disable_irq_nosync(unsigned int irq);

/**
 * irqkit_disable_irq - disable a line and wait for its running handlers
 *
 * Context: process context; may sleep.  Called from the line's own handler or
 * while holding a lock that handler takes, Linux never returns; irqkit reports
 * the deadlock and returns without waiting.
 */
IRQKIT_API void irqkit_disable_irq(unsigned int irq);

/**
 * irqkit_disable_hardirq - disable a line and wait for its hardirq handlers only
 * Return: false if a threaded handler is still active or there is no descriptor.
 */
IRQKIT_API bool irqkit_disable_hardirq(unsigned int irq);

/**
 * irqkit_enable_irq - undo one disable
 *
 * depth 1 -> 0 restarts the line and replays an edge that arrived while it was
 * disabled.  depth 0 warns "Unbalanced enable for IRQ %d".
 * Context: any.
 */
IRQKIT_API void irqkit_enable_irq(unsigned int irq);

/**
 * irqkit_synchronize_irq - wait for running handlers of a line to finish
 *
 * Does not disable anything: new interrupts may start right after it returns.
 * Context: process context; may sleep.  From the line's own handler it reports
 * the deadlock instead of hanging.
 */
IRQKIT_API void irqkit_synchronize_irq(unsigned int irq);

/**
 * irqkit_wait_delivered - wait until every arrival on @irq so far has been handled
 *
 * irqkit's own, for programs and tests that raise a line and then look at
 * what its handler did: an arrival may still be latched in the chip,
 * signalled to its CPU, in its handler, marked pending or queued for a
 * replay, or in a threaded handler; this returns when none is.  An arrival
 * that cannot be delivered (its line disabled, or a level line held
 * asserted, or raised again and again) makes it wait until @timeout_ms.
 * Fault injection's delayed
 * arrivals are not waited for.  In deterministic mode it delivers what the
 * calling thread's CPU has pending and does not wait: another CPU's lines are
 * delivered by irqkit_cpu_run().
 * Return: 0; -EINVAL for a line that does not exist; -ETIMEDOUT; -EDEADLK
 * from the line's own handler or irq thread (with a report); -EAGAIN in deterministic mode
 * when an arrival is still there.
 * Context: process context; may sleep.
 */
IRQKIT_API int irqkit_wait_delivered(unsigned int irq, unsigned int timeout_ms);

/** irqkit_synchronize_hardirq - wait for hardirq handlers only; false if threads run. */
IRQKIT_API bool irqkit_synchronize_hardirq(unsigned int irq);

/**
 * irqkit_irq_set_irq_type - set the trigger type of a line (IRQKIT_TYPE_*)
 * Return: 0, -EINVAL without descriptor or chip support for the type.
 */
IRQKIT_API int irqkit_irq_set_irq_type(unsigned int irq, unsigned int type);

/**
 * irqkit_irq_update_affinity_hint - the mask a driver suggests for @irq
 * (Linux's irq_update_affinity_hint, /proc/irq/N/affinity_hint); NULL
 * clears it.  @m stays the caller's and must live until cleared: clear it
 * before free_irq (a hint left set is reported there and cleared).
 * Return: 0 or -EINVAL.  Context: process context.
 */
IRQKIT_API int irqkit_irq_update_affinity_hint(unsigned int irq, const struct irqkit_cpus *m);
/** irqkit_irq_set_affinity_and_hint - the same, and route the line to @m (irq_set_affinity_hint before 5.17). */
IRQKIT_API int irqkit_irq_set_affinity_and_hint(unsigned int irq, const struct irqkit_cpus *m);
/** irqkit_irq_get_affinity_hint - the hint as a mask, 0 when none (what /proc shows).  Context: any. */
IRQKIT_API irqkit_cpumask irqkit_irq_get_affinity_hint(unsigned int irq);

/**
 * irqkit_irq_set_irq_wake - count @irq as a wake-up source (@on 1) or one
 * fewer (@on 0), as Linux's irq_set_irq_wake: nested, apart from the
 * disable depth; the chip's irq_set_wake is called on 0 -> 1 and 1 -> 0
 * (a chip with IRQKIT_CHIP_SKIP_SET_WAKE needs none).  An off at count 0
 * is "Unbalanced IRQ N wake disable".
 * Return: 0; the chip's -errno (the count unchanged); -ENXIO for a chip
 * that can do neither; -EINVAL for no such line.  Context: process context.
 */
IRQKIT_API int irqkit_irq_set_irq_wake(unsigned int irq, unsigned int on);

/**
 * irqkit_request_nmi - Linux's request_nmi: its checks, in its order
 * (-ENOTCONN for IRQKIT_NOTCONNECTED; -EINVAL for SHARED, COND_SUSPEND or
 * IRQPOLL, without PERCPU, a NULL handler, no such line, a line that would
 * start by itself (neither IRQKIT_IRQ_NOAUTOEN nor IRQKIT_F_NO_AUTOEN), a
 * NOREQUEST line, a per-CPU-devid line, reported), then -EINVAL always: no
 * chip of irqkit delivers NMIs.  Context: process context.
 */
IRQKIT_API int irqkit_request_nmi(unsigned int irq, irqkit_handler_fn handler, unsigned long flags,
				  const char *name, void *dev_id);
/** irqkit_free_nmi - Linux's free_nmi: no line is an NMI line here, so reported, NULL. */
IRQKIT_API const char *irqkit_free_nmi(unsigned int irq, void *dev_id);

/*
 * Per-CPU lines with a per-CPU dev_id (Linux's percpu_devid interrupts: a
 * CPU's local timer, its IPIs): one action, whose handler gets the running
 * CPU's copy of @percpu_dev_id (<irqkit/percpu.h>), each CPU enabling and
 * disabling the line for itself.  The line's flow is
 * irqkit_handle_percpu_devid_irq; its chip keeps a mask per CPU (the
 * banked software chip, irqkit_swchip_add_percpu).  The other interrupt
 * calls refuse such a line with a warning, as Linux's do.
 */
/**
 * irqkit_irq_set_percpu_devid - make @irq such a line: per-CPU, not
 * started by request, not threaded, not probed.
 * Return: 0; -EINVAL (no such line, or it is one already).  Context: process context.
 */
IRQKIT_API int irqkit_irq_set_percpu_devid(unsigned int irq);
/**
 * irqkit_request_percpu_irq - install @handler on per-CPU line @irq; it
 * stays disabled on every CPU until that CPU calls irqkit_enable_percpu_irq.
 * Return: 0; -EINVAL (no per-CPU pointer, not such a line); -EBUSY (taken).
 * Context: process context.
 */
IRQKIT_API int irqkit_request_percpu_irq(unsigned int irq, irqkit_handler_fn handler,
					 const char *devname, void *percpu_dev_id);
/**
 * irqkit_free_percpu_irq - remove it.  A @percpu_dev_id that is not the
 * action's ("Trying to free already-free IRQ"), or a line still enabled on
 * some CPU ("percpu IRQ N still enabled on CPUk!"), is Linux's warning, and
 * nothing is freed.  Context: process context.
 */
IRQKIT_API void irqkit_free_percpu_irq(unsigned int irq, void *percpu_dev_id);
/**
 * irqkit_enable_percpu_irq - enable @irq on the calling CPU, first setting
 * its trigger to @type unless IRQKIT_TYPE_NONE; irqkit_disable_percpu_irq
 * disables it there.  A line that is not per-CPU is refused with a warning
 * (Linux returns silently).  Context: any, on the CPU concerned (an unbound
 * thread acts for CPU 0).
 */
IRQKIT_API void irqkit_enable_percpu_irq(unsigned int irq, unsigned int type);
IRQKIT_API void irqkit_disable_percpu_irq(unsigned int irq);
/** irqkit_irq_percpu_is_enabled - enabled on the calling CPU?  Context: any. */
IRQKIT_API bool irqkit_irq_percpu_is_enabled(unsigned int irq);
/** irqkit_irq_is_percpu_devid - made so by irqkit_irq_set_percpu_devid?  Context: any. */
IRQKIT_API bool irqkit_irq_is_percpu_devid(unsigned int irq);

/* irqkit_request_any_context_irq's answers (Linux's IRQC_IS_HARDIRQ, IRQC_IS_NESTED) */
#define IRQKIT_IRQC_IS_HARDIRQ	0
#define IRQKIT_IRQC_IS_NESTED	1
/**
 * irqkit_request_any_context_irq - request @irq with @handler in the context
 * the line calls for (Linux's request_any_context_irq): the thread function
 * of a nested-thread line, else the hardirq handler.
 * Return: IRQKIT_IRQC_IS_NESTED, IRQKIT_IRQC_IS_HARDIRQ, or the request's
 * -errno.  Context: process context; may sleep.
 */
IRQKIT_API int irqkit_request_any_context_irq(unsigned int irq, irqkit_handler_fn handler,
					      unsigned long flags, const char *name, void *dev_id);

/**
 * irqkit_irq_set_affinity - route a line to the first online CPU of @mask
 * Return: 0; -EINVAL without descriptor, chip support, or online CPU in @mask.
 */
IRQKIT_API int irqkit_irq_set_affinity(unsigned int irq, irqkit_cpumask mask);

/* Descriptor settings, Linux's IRQ_* status flags (include/linux/irq.h). */
#define IRQKIT_IRQ_LEVEL		(1u << 8)
#define IRQKIT_IRQ_PER_CPU		(1u << 9)
#define IRQKIT_IRQ_NOPROBE		(1u << 10)
#define IRQKIT_IRQ_NOREQUEST		(1u << 11)
#define IRQKIT_IRQ_NOAUTOEN		(1u << 12)
#define IRQKIT_IRQ_NO_BALANCING		(1u << 13)
#define IRQKIT_IRQ_NESTED_THREAD	(1u << 15)
#define IRQKIT_IRQ_NOTHREAD		(1u << 16)
#define IRQKIT_IRQ_PER_CPU_DEVID	(1u << 17)
#define IRQKIT_IRQ_IS_POLLED		(1u << 18)
#define IRQKIT_IRQ_DISABLE_UNLAZY	(1u << 19)
#define IRQKIT_IRQ_HIDDEN		(1u << 20)

/** irqkit_irq_modify_status - clear then set IRQKIT_IRQ_* settings of a line. */
IRQKIT_API void irqkit_irq_modify_status(unsigned int irq, unsigned long clr, unsigned long set);

/*
 * Diagnostic state of one line: the counters behind /proc/irq/N/spurious and a
 * few descriptor fields, read under the descriptor lock.
 */
struct irqkit_irq_info {
	unsigned int	depth;			/* disable nesting */
	unsigned int	irq_count;		/* interrupts in the current spurious window */
	unsigned int	irqs_unhandled;		/* unhandled in the current window */
	unsigned long	last_unhandled;		/* jiffies of the last IRQ_NONE */
	uint64_t	count;			/* all CPUs' counts, as /proc/interrupts */
	unsigned int	coalesced;		/* arrivals folded into one already pending */
	unsigned int	nr_actions;
	unsigned int	trigger;		/* IRQKIT_TYPE_* */
	int		cpu;			/* target CPU */
	bool		disabled;		/* IRQD_IRQ_DISABLED */
	bool		masked;			/* IRQD_IRQ_MASKED */
	bool		started;
	bool		pending;		/* IRQS_PENDING */
	bool		replay;			/* IRQS_REPLAY */
	bool		spurious_disabled;	/* IRQS_SPURIOUS_DISABLED */
	bool		inprogress;		/* a handler runs now */
	bool		activated;		/* IRQD_ACTIVATED: requested, not shut down */
	bool		managed;		/* IRQD_AFFINITY_MANAGED */
	bool		managed_shutdown;	/* shut down: no CPU of its mask online */
	unsigned int	wake_depth;		/* irq_set_irq_wake nesting */
	bool		wakeup;			/* IRQD_WAKEUP_STATE: armed as a wake-up source */
};

/*
 * Linux's struct irq_affinity_desc: the CPUs a line may target (0: all),
 * and whether the kernel manages that affinity.  A managed line starts only
 * on an online CPU of its mask; when the last of them goes offline it is
 * shut down (its disable depth counting the shutdown) and when one comes
 * back it starts again unless something else disabled it meanwhile.
 */
struct irqkit_irq_affinity_desc {
	struct irqkit_cpus	mask;
	unsigned int	is_managed : 1;
};

/**
 * irqkit_irq_set_affinity_desc - give a line not requested yet its
 * affinity, managed or not (what Linux's irq_domain_alloc_descs does with
 * its affinity argument).
 * Return: 0; -EINVAL; -EBUSY while the line has a handler.
 */
IRQKIT_API int irqkit_irq_set_affinity_desc(unsigned int irq,
					    const struct irqkit_irq_affinity_desc *affd);

/** irqkit_irq_get_info - snapshot a line's state.  Return: 0 or -EINVAL. */
IRQKIT_API int irqkit_irq_get_info(unsigned int irq, struct irqkit_irq_info *info);

/*
 * What a line's source merged or lost: a chip that counts arrivals (the
 * software chip; the fd chip's eventfd, timerfd, signalfd, UIO and GPIO
 * sources) says how many arrivals one delivery stands for.  Always
 * events = 1 + coalesced + lost for a delivery.
 */
struct irqkit_irq_events {
	uint64_t	events;		/* arrivals this delivery (or all deliveries) stand for */
	uint64_t	coalesced;	/* arrivals folded into one delivery: an eventfd counter
					   above 1, timer expirations, edges raised while latched */
	uint64_t	lost;		/* arrivals the source counted and never showed: a gap
					   in a UIO count or a GPIO sequence number */
	uint64_t	timestamp_ns;	/* the source's time of the last arrival (GPIO), or 0 */
};

/**
 * irqkit_irq_get_events - what the delivery in progress stands for
 *
 * From the line's handler: the arrivals its source merged into this
 * delivery or lost since the last one.  From a threaded handler: those of
 * the delivery that woke it, unless another came meanwhile.  A chip that
 * does not count gives events 1.
 * Return: 0 or -EINVAL (no descriptor).  Context: any, meant for the handler.
 */
IRQKIT_API int irqkit_irq_get_events(unsigned int irq, struct irqkit_irq_events *ev);

/**
 * irqkit_irq_get_event_totals - every arrival of the line so far: events
 * as the chip counted them (a chip that does not count: the table's count
 * plus coalesced plus lost), coalesced including the edges the flow folded
 * into one already pending.  Once the line is quiet, events = handler runs
 * + coalesced + lost.
 * Return: 0 or -EINVAL.  Context: any.
 */
IRQKIT_API int irqkit_irq_get_event_totals(unsigned int irq, struct irqkit_irq_events *ev);

/** irqkit_kstat_irqs_cpu - handled-interrupt count of @irq on @cpu (/proc/interrupts). */
IRQKIT_API unsigned int irqkit_kstat_irqs_cpu(unsigned int irq, unsigned int cpu);

/** irqkit_irq_err_count - stray interrupts, the ERR row of /proc/interrupts. */
IRQKIT_API unsigned int irqkit_irq_err_count(void);

/*
 * Autodetection of a device's line (Linux's probe_irq_on/off): call
 * irqkit_probe_irq_on() (it sleeps about 120 ms while lines settle), make
 * the device interrupt, then irqkit_probe_irq_off() gives the line that
 * fired: 0 if none did, a negative number if several did (the first of
 * them).  Lines with handlers, without a chip, or marked IRQKIT_IRQ_NOPROBE
 * take no part.  One probe at a time.  Context: process context.
 */
IRQKIT_API unsigned long irqkit_probe_irq_on(void);
IRQKIT_API int irqkit_probe_irq_off(unsigned long val);
/** irqkit_probe_irq_mask - end the probe; the lines below 32 that fired, masked with @val. */
IRQKIT_API unsigned int irqkit_probe_irq_mask(unsigned long val);

#ifdef __cplusplus
}
#endif
#endif /* IRQKIT_IRQ_H */
