/* SPDX-License-Identifier: MIT */
/* Interrupt controllers (chips) and flow handlers, for code that provides lines. */
#ifndef IRQKIT_CHIP_H
#define IRQKIT_CHIP_H

#include <irqkit/types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct irqkit_chip;
struct irqkit_desc;
struct irqkit_irq_events;
struct irqkit_irq_domain;

/*
 * struct irqkit_irq_data - the per-line data every chip operation receives
 * (Linux's struct irq_data).
 */
struct irqkit_irq_data {
	unsigned int		irq;		/* read-only: line number */
	unsigned int		state;		/* private: IRQD_* bits, descriptor lock */
	unsigned long		hwirq;		/* read-only: number within the chip */
	struct irqkit_chip	*chip;		/* read-only */
	void			*chip_data;	/* public: the chip's own */
	unsigned int		cpu;		/* read-only: target (effective) CPU */
	bool			has_domain;	/* read-only: hwirq is shown in /proc */
	struct irqkit_irq_domain *domain;	/* read-only: the domain that mapped it, or NULL */
	struct irqkit_irq_data	*parent_data;	/* read-only: the level below (hierarchy) */
	union {						/* read-only: requested CPUs */
		irqkit_cpumask		affinity;
		struct irqkit_cpus	affinity_cpus;	/* the same, as a struct cpumask */
	};
};

/* Chip flags, Linux's IRQCHIP_* (include/linux/irq.h). */
#define IRQKIT_CHIP_SET_TYPE_MASKED	(1u << 0)
#define IRQKIT_CHIP_EOI_IF_HANDLED	(1u << 1)
/* irq_set_irq_wake needs nothing of the chip: it succeeds without irq_set_wake. */
#define IRQKIT_CHIP_SKIP_SET_WAKE	(1u << 4)
#define IRQKIT_CHIP_ONESHOT_SAFE	(1u << 5)
#define IRQKIT_CHIP_EOI_THREADED	(1u << 6)

/* irqkit_chip.irq_get_irqchip_state @which */
#define IRQKIT_CHIPSTATE_PENDING	0
#define IRQKIT_CHIPSTATE_ACTIVE		1
#define IRQKIT_CHIPSTATE_MASKED		2

/*
 * struct irqkit_chip - an interrupt controller (Linux's struct irq_chip).
 *
 * Every operation is optional and is called with the descriptor lock held,
 * interrupts off, from any thread; it must not block.  A chip signals a CPU
 * with irqkit_cpu_signal() when one of its lines requests an interrupt.
 */
struct irqkit_chip {
	const char	*name;
	unsigned int	(*irq_startup)(struct irqkit_irq_data *d);
	void		(*irq_shutdown)(struct irqkit_irq_data *d);
	void		(*irq_enable)(struct irqkit_irq_data *d);
	void		(*irq_disable)(struct irqkit_irq_data *d);
	void		(*irq_ack)(struct irqkit_irq_data *d);
	void		(*irq_mask)(struct irqkit_irq_data *d);
	void		(*irq_mask_ack)(struct irqkit_irq_data *d);
	void		(*irq_unmask)(struct irqkit_irq_data *d);
	void		(*irq_eoi)(struct irqkit_irq_data *d);
	/*
	 * Route the line to a CPU of @dest (online CPUs only) and record the
	 * one chosen with irqkit_irq_data_update_effective_affinity().
	 */
	int		(*irq_set_affinity)(struct irqkit_irq_data *d,
					    const struct irqkit_cpus *dest, bool force);
	/* Return 1 when the chip re-raised the line, 0 when it cannot. */
	int		(*irq_retrigger)(struct irqkit_irq_data *d);
	/* Return 0 or -EINVAL; may switch the flow handler (irqkit_irq_set_handler_locked). */
	int		(*irq_set_type)(struct irqkit_irq_data *d, unsigned int flow_type);
	int		(*irq_get_irqchip_state)(struct irqkit_irq_data *d, int which,
						 bool *state);
	int		(*irq_set_irqchip_state)(struct irqkit_irq_data *d, int which,
						 bool state);
	/*
	 * irqkit addition, optional: called on the target CPU before the flow
	 * handler of a signalled line.  Return false when the line no longer
	 * requests an interrupt, and the signal is dropped (as a PLIC claim that
	 * returns 0).  Not called under the descriptor lock.
	 */
	bool		(*irq_claim)(struct irqkit_irq_data *d);
	unsigned long	flags;
	/*
	 * Arm (@on 1) or disarm the line as a wake-up source of the system
	 * (Linux's irq_set_wake), when its wake count goes 0 -> 1 or 1 -> 0.
	 * Descriptor lock held.  Return 0 or a -errno; without it, and without
	 * IRQKIT_CHIP_SKIP_SET_WAKE, irq_set_irq_wake() is -ENXIO.
	 */
	int		(*irq_set_wake)(struct irqkit_irq_data *d, unsigned int on);
	/*
	 * irqkit addition, optional: fill @ev's coalesced, lost and timestamp_ns
	 * for the delivery in progress, or with @total for every arrival so far,
	 * with events too if the chip counts them (see irqkit_irq_get_events()).
	 * Any context, no lock.
	 */
	void		(*irq_get_events)(struct irqkit_irq_data *d, struct irqkit_irq_events *ev,
					  bool total);
};

/* A flow handler: runs one interrupt of a line through its chip and actions. */
typedef void (*irqkit_flow_fn)(struct irqkit_desc *desc);

/* The flow handlers, as Linux's kernel/irq/chip.c. */
IRQKIT_API void irqkit_handle_level_irq(struct irqkit_desc *desc);
IRQKIT_API void irqkit_handle_edge_irq(struct irqkit_desc *desc);
IRQKIT_API void irqkit_handle_fasteoi_irq(struct irqkit_desc *desc);
IRQKIT_API void irqkit_handle_simple_irq(struct irqkit_desc *desc);
IRQKIT_API void irqkit_handle_percpu_irq(struct irqkit_desc *desc);
/*
 * irqkit_handle_percpu_devid_irq - the flow of a per-CPU line with a
 * per-CPU dev_id: count, ack, the one action with this CPU's dev_id, eoi;
 * no lock, no spurious accounting.  With no action the line is disabled on
 * this CPU and "Spurious percpu IRQn on CPUk" said once.
 */
IRQKIT_API void irqkit_handle_percpu_devid_irq(struct irqkit_desc *desc);
IRQKIT_API void irqkit_handle_untracked_irq(struct irqkit_desc *desc);
IRQKIT_API void irqkit_handle_bad_irq(struct irqkit_desc *desc);

/**
 * irqkit_handle_nested_irq - run a nested line's thread functions in the
 * caller's thread: a threaded parent demultiplexing its
 * children.  Context: process context (the parent's thread).
 */
IRQKIT_API void irqkit_handle_nested_irq(unsigned int irq);

/* A chip with no operations, as Linux's no_irq_chip: lines start with it. */
IRQKIT_API extern struct irqkit_chip irqkit_no_irq_chip;
/* A chip whose operations do nothing, as Linux's dummy_irq_chip. */
IRQKIT_API extern struct irqkit_chip irqkit_dummy_irq_chip;

/**
 * irqkit_irq_set_chip_and_handler - attach a line to a chip and a flow handler
 * @name: flow name shown after the trigger in /proc/interrupts, or NULL
 * Context: process context.  Return: 0 or -EINVAL for a line with no descriptor.
 */
IRQKIT_API int irqkit_irq_set_chip_and_handler_name(unsigned int irq, struct irqkit_chip *chip,
						    irqkit_flow_fn handle, const char *name);
IRQKIT_API int irqkit_irq_set_chip_data(unsigned int irq, void *data);
/** irqkit_irq_set_hwirq - the line's number within its chip, shown in /proc/interrupts. */
IRQKIT_API int irqkit_irq_set_hwirq(unsigned int irq, unsigned long hwirq);
/** Replace the flow handler from a chip's irq_set_type (descriptor lock held). */
IRQKIT_API void irqkit_irq_set_handler_locked(struct irqkit_irq_data *d, irqkit_flow_fn handle);
IRQKIT_API struct irqkit_irq_data *irqkit_irq_get_irq_data(unsigned int irq);

/**
 * irqkit_irq_data_update_effective_affinity - record the CPU a chip's
 * irq_set_affinity routed the line to: the first CPU of @m (Linux keeps a
 * mask; an irqkit line targets one CPU at a time).  An empty @m changes
 * nothing.  Context: the chip's irq_set_affinity (descriptor lock held).
 */
IRQKIT_API void irqkit_irq_data_update_effective_affinity(struct irqkit_irq_data *d,
							  const struct irqkit_cpus *m);
IRQKIT_API unsigned int irqkit_irqd_get_trigger_type(const struct irqkit_irq_data *d);

/**
 * irqkit_irqd_state - the line's state as Linux's irqd_* helpers read it:
 * IRQKIT_IRQD_* bits (started, activated, disabled, masked, in progress,
 * level, per-CPU, managed affinity, managed and shut down).
 * Context: any; a snapshot.
 */
#define IRQKIT_IRQD_STARTED		(1u << 0)
#define IRQKIT_IRQD_ACTIVATED		(1u << 1)
#define IRQKIT_IRQD_DISABLED		(1u << 2)
#define IRQKIT_IRQD_MASKED		(1u << 3)
#define IRQKIT_IRQD_INPROGRESS		(1u << 4)
#define IRQKIT_IRQD_LEVEL		(1u << 5)
#define IRQKIT_IRQD_PER_CPU		(1u << 6)
#define IRQKIT_IRQD_AFFINITY_MANAGED	(1u << 7)
#define IRQKIT_IRQD_MANAGED_SHUTDOWN	(1u << 8)
#define IRQKIT_IRQD_WAKEUP_STATE	(1u << 9)	/* armed as a wake-up source */
IRQKIT_API unsigned int irqkit_irqd_state(const struct irqkit_irq_data *d);

/**
 * irqkit_irq_get_irqchip_state - ask the line's chip (the first level of a
 * hierarchy that can answer) whether it is pending, active or masked
 * (Linux's irq_get_irqchip_state); irqkit_irq_set_irqchip_state sets it
 * (a pending software edge, say: in deterministic mode a delivery point
 * when the caller plays the line's CPU with interrupts on, as a raise is).
 * @which: IRQKIT_CHIPSTATE_*.
 * Return: 0; -EINVAL (no such line, or no chip answers @which).
 * Context: any, but not under the line's descriptor lock.
 */
IRQKIT_API int irqkit_irq_get_irqchip_state(unsigned int irq, int which, bool *state);
IRQKIT_API int irqkit_irq_set_irqchip_state(unsigned int irq, int which, bool val);

/**
 * irqkit_irqchip_state - answer irq_get_irqchip_state for a chip that knows
 * whether a line requests (@pending) and whether it is masked (@masked).
 * Return: 0 with *@state set, or -EINVAL for another @which (ACTIVE).
 */
IRQKIT_API int irqkit_irqchip_state(int which, bool pending, bool masked, bool *state);

/**
 * irqkit_cpu_signal - a line of a chip requests an interrupt on a virtual CPU
 *
 * Latches the line in the CPU's pending set and wakes the CPU if it sleeps.
 * The CPU runs the line's flow handler when it can: at once if it is idle, or
 * when the thread that has interrupts off on it turns them on.
 * Context: any, the descriptor lock included; never delivers on the caller.
 */
IRQKIT_API void irqkit_cpu_signal(unsigned int cpu, unsigned int irq);

/**
 * irqkit_cpu_raise - a line requests an interrupt on @cpu, taken at once if possible
 *
 * As irqkit_cpu_signal(), except that a thread bound to @cpu, with interrupts
 * on and outside hardirq context, runs the flow handler itself before this
 * returns: the interrupt is taken at once, as by a CPU interrupted while it
 * runs that thread.  Context: any, but never under a descriptor lock.
 */
IRQKIT_API void irqkit_cpu_raise(unsigned int cpu, unsigned int irq);

/**
 * irqkit_cpu_handle_now - run @irq's flow handler now if the caller can take it
 *
 * When the calling thread is bound to @cpu, has interrupts on, is outside
 * hardirq context and the CPU is free, the flow handler runs on it before
 * this returns (no claim is asked of the chip): the path of an interrupt that
 * never needed latching.  Otherwise nothing happens; nor for a line with
 * faults injected (<irqkit/fault.h>), whose arrivals go through the claim.  Interrupts that became
 * pending meanwhile are left for irqkit_deliver_pending(), which the caller
 * calls next, once it no longer treats the line specially.
 * Context: any, but never under a descriptor lock.
 * Return: true if the flow handler ran.
 */
IRQKIT_API bool irqkit_cpu_handle_now(unsigned int cpu, unsigned int irq);

/**
 * irqkit_irq_set_default_type - program a line's trigger and record it as the
 * line's default, as firmware or an irq domain mapping does in Linux (the
 * type a shared request must match).  Return: 0 or -EINVAL.
 */
IRQKIT_API int irqkit_irq_set_default_type(unsigned int irq, unsigned int type);

/**
 * irqkit_irq_set_chained_handler_and_data - make @irq a chained line: @handle,
 * a demultiplexer that runs its children's lines (with
 * irqkit_generic_handle_domain_irq(), between irqkit_chained_irq_enter() and
 * _exit() of <irqkit/irqdesc.h>), is its flow and runs with no action; the
 * line is marked not requestable, not probed, not threaded, and started now (Linux's
 * irq_set_chained_handler_and_data).  @handle NULL undoes it.  @data is the
 * line's handler data (irqkit_irq_get_handler_data).
 * Return: 0; -EINVAL (no such line); -EBUSY (a driver requested it).
 * Context: process context.
 */
IRQKIT_API int irqkit_irq_set_chained_handler_and_data(unsigned int irq, irqkit_flow_fn handle,
						       void *data);
/** The flow's own data of a line (Linux's irq_set_handler_data).  Return: 0 or -EINVAL. */
IRQKIT_API int irqkit_irq_set_handler_data(unsigned int irq, void *data);
IRQKIT_API void *irqkit_irq_get_handler_data(unsigned int irq);

/** irqkit_irq_has_action - does the line have a handler now?  Context: any. */
IRQKIT_API bool irqkit_irq_has_action(unsigned int irq);

/**
 * irqkit_generic_handle_irq - run a line's flow handler now, on the calling CPU
 * Context: hardirq (a chained handler).  Return: 0, or -EINVAL without descriptor.
 */
IRQKIT_API int irqkit_generic_handle_irq(unsigned int irq);

/**
 * irqkit_deliver_pending - deliver the interrupts latched for the caller's CPU
 *
 * A delivery point: a thread bound to a CPU, with interrupts on and outside
 * hardirq context, runs that CPU's pending flow handlers itself.  Otherwise
 * nothing happens.  Context: any.
 */
IRQKIT_API void irqkit_deliver_pending(void);

#ifdef __cplusplus
}
#endif
#endif /* IRQKIT_CHIP_H */
