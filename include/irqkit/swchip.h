/* SPDX-License-Identifier: MIT */
/* The software interrupt chip: lines raised (edge) or driven (level) by code. */
#ifndef IRQKIT_SWCHIP_H
#define IRQKIT_SWCHIP_H

#include <irqkit/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The software chip models a controller with one input per line:
 *
 *  - an edge line latches each raise; raises while the latch is set coalesce,
 *    as edges do on hardware, and are counted;
 *  - a level line follows its input: while asserted and unmasked it keeps
 *    requesting, so a device that never deasserts it screams;
 *  - a masked line keeps its latch or level and requests when unmasked.
 *
 * Edge lines use handle_edge_irq, level lines handle_level_irq; the trigger can
 * change with irqkit_irq_set_irq_type() or the trigger flags of request_irq.
 */

/**
 * irqkit_swchip_add - put @count lines starting at @first on the software chip
 * @type: IRQKIT_TYPE_EDGE_RISING (or another edge type) or IRQKIT_TYPE_LEVEL_HIGH/LOW
 * Context: process context, lines without handlers.
 * Return: 0; -EINVAL for lines out of range, in use, or a bad type; -ENOMEM.
 */
IRQKIT_API IRQKIT_MUST_CHECK int irqkit_swchip_add(unsigned int first, unsigned int count,
						   unsigned int type);

/**
 * irqkit_sw_raise - an edge arrives on a software line
 *
 * A thread bound to the line's target CPU, with interrupts on and outside
 * hardirq context, runs the handlers before this returns; otherwise the edge
 * is latched and delivered by the target CPU.  A level line has no edge to
 * raise: drive it with irqkit_sw_set_level().
 * Context: any, handlers included.
 * Return: 0; -EINVAL for an irq that is not a software edge line.
 */
IRQKIT_API int irqkit_sw_raise(unsigned int irq);

/**
 * irqkit_sw_set_level - drive a level line's input to its active level
 * (@asserted true: the device requests service) or away from it
 *
 * Asserting an unmasked line requests an interrupt, taken at once as by
 * irqkit_sw_raise() when the caller plays the target CPU; the line keeps
 * requesting after each handler run until it is deasserted.
 * Context: any.  Return: 0; -EINVAL for an irq that is not a level line of
 * the software chip.
 */
IRQKIT_API int irqkit_sw_set_level(unsigned int irq, bool asserted);

/*
 * Arrival accounting of one software line (DESIGN guarantee 6): every raise
 * of an edge line runs the handlers once or is counted here as coalesced, so
 * raises = handler runs + coalesced once the line is quiet.  Reprogramming
 * the line to a level trigger drops an edge still latched (it means nothing
 * to a level line): the count starts again there.
 */
struct irqkit_sw_stats {
	uint64_t	coalesced;	/* raises that met a set latch */
	uint64_t	resent;		/* replays asked by the core (retrigger) */
	bool		latched;	/* an edge waits in the latch */
	bool		level;		/* level input asserted */
	bool		masked;
};

/** irqkit_sw_get_stats - read a software line's accounting.  Return: 0 or -EINVAL. */
IRQKIT_API int irqkit_sw_get_stats(unsigned int irq, struct irqkit_sw_stats *st);

/**
 * irqkit_swchip_domain - the software chip's irq domain (Linux's way to get
 * its lines): hwirq N is line N for the lines irqkit_swchip_add() put on
 * the chip, and irqkit_irq_create_mapping(irqkit_swchip_domain(), hw) gives
 * a free line as a rising-edge software line.  Made at the first call and
 * kept across runs.  Return: the domain, or NULL (no memory).
 * Context: process context.
 */
struct irqkit_irq_domain;
IRQKIT_API struct irqkit_irq_domain *irqkit_swchip_domain(void);

/** The software chip itself, for irqkit_irq_set_chip_and_handler_name(). */
IRQKIT_API extern struct irqkit_chip irqkit_sw_chip;

/**
 * irqkit_swchip_add_percpu - put lines @first..@first+@count-1 on the
 * banked software chip ("SW-PERCPU"): per-CPU lines with a per-CPU dev_id
 * (irqkit_irq_set_percpu_devid, flow irqkit_handle_percpu_devid_irq), a
 * latch and a mask per CPU, masked on every CPU until each enables the
 * line for itself (irqkit_enable_percpu_irq).  Context: process context.
 * Return: 0; -EINVAL (lines out of range or with a handler); -ENOMEM.
 */
IRQKIT_API int irqkit_swchip_add_percpu(unsigned int first, unsigned int count);

/**
 * irqkit_sw_raise_on - an edge on per-CPU line @irq for CPU @cpu: latched
 * in @cpu's bank and signalled to it unless masked there (then it waits
 * for the unmask); a raise that meets a set latch coalesces.
 * Context: any.  Return: 0; -EINVAL (not a line of that chip, or no such CPU).
 */
IRQKIT_API int irqkit_sw_raise_on(unsigned int irq, unsigned int cpu);

/** The banked software chip itself. */
IRQKIT_API extern struct irqkit_chip irqkit_sw_percpu_chip;

#ifdef __cplusplus
}
#endif
#endif /* IRQKIT_SWCHIP_H */
