/* SPDX-License-Identifier: MIT */
/*
 * Fault injection per line, in the spirit of Linux's fault-injection
 * attributes (probability, interval, times): what a driver must survive --
 * an interrupt lost, one more than the device raised, one taken late.
 */
#ifndef IRQKIT_FAULT_H
#define IRQKIT_FAULT_H

#include <irqkit/types.h>

#ifdef __cplusplus
extern "C" {
#endif

enum irqkit_fault_kind {
	IRQKIT_FAULT_OFF = 0,
	/*
	 * The CPU takes the interrupt and it is lost: the chip is acknowledged
	 * (an edge is gone; a level line still asserted requests again), no
	 * handler runs.
	 */
	IRQKIT_FAULT_DROP,
	/* The handlers run, then once more: the interrupt arrives twice. */
	IRQKIT_FAULT_DUPLICATE,
	/*
	 * After the real interrupt, one that no device raised (on a shared
	 * line every handler should answer IRQ_NONE to it).  The same delivery
	 * as DUPLICATE; counted apart, for the tests that mean it.
	 */
	IRQKIT_FAULT_SPURIOUS,
	/*
	 * The CPU takes the interrupt @delay_us late (it spins, as a busy CPU),
	 * or, with @delay_points, runs its handlers only at the
	 * @delay_points-th delivery point of that CPU after the one where it
	 * arrived (a delivery point: where the CPU looks for interrupts, as a
	 * local_irq_restore, a spin_unlock_irqrestore, irqkit_deliver_pending()
	 * or a pass of its dispatcher).  Meanwhile the line's new arrivals wait
	 * in the chip, and irqkit_wait_delivered() waits for it.
	 */
	IRQKIT_FAULT_DELAY,
	/*
	 * A level line stuck: after the interrupt the line stays asserted for
	 * @stuck_ms whatever its device does, so the CPU takes it again and
	 * again (each time through the software resend, between other work);
	 * the handlers find nothing, and Linux's spurious detection may disable
	 * the line ("nobody cared").  Edge lines are left alone.
	 */
	IRQKIT_FAULT_STUCK,
};

/*
 * When an arrival is faulted, as Linux's should_fail(): never once @times
 * faults were injected (-1: no limit); of the arrivals, only every
 * @interval-th is considered (0 and 1: each); of those, @probability
 * percent, drawn from a generator seeded with @seed (the same seed, the same
 * choices for the same sequence of arrivals).
 */
struct irqkit_fault_attr {
	enum irqkit_fault_kind	kind;
	unsigned int		probability;	/* 0..100 */
	unsigned int		interval;
	int			times;
	unsigned int		delay_us;	/* IRQKIT_FAULT_DELAY, up to 1,000,000 */
	unsigned int		seed;
	unsigned int		stuck_ms;	/* IRQKIT_FAULT_STUCK, up to 60,000 */
	unsigned int		delay_points;	/* IRQKIT_FAULT_DELAY instead of delay_us, up to 1,000 */
};

struct irqkit_fault_stats {
	uint64_t	considered;	/* arrivals the attribute looked at */
	uint64_t	dropped;
	uint64_t	duplicated;
	uint64_t	spurious;
	uint64_t	delayed;
	uint64_t	stuck;		/* deliveries of a line held stuck */
};

/**
 * irqkit_fault_inject - fault @irq's arrivals as @attr says (NULL or kind
 * OFF: stop).  The statistics keep counting across changes.
 * Return: 0; -EINVAL for a line that does not exist, an unknown kind, a
 * probability above 100, times below -1, a delay above a second or 1,000
 * delivery points, both kinds of delay at once, or a stuck time above a
 * minute (logged);
 * -ENOMEM.  Context: process context.
 */
IRQKIT_API int irqkit_fault_inject(unsigned int irq, const struct irqkit_fault_attr *attr);

/** irqkit_fault_get_stats - what was injected into @irq.  Return: 0 or -EINVAL.  Context: any. */
IRQKIT_API int irqkit_fault_get_stats(unsigned int irq, struct irqkit_fault_stats *st);

/**
 * irqkit_fault_parse - apply a fault specification, the format of the
 * environment variable IRQKIT_FAULT_IRQ that irqkit_start() reads:
 * entries separated by ';', each "IRQ:KIND[:key=value,...]" with KIND one of
 * drop, duplicate, spurious, delay, stuck and keys probability, interval,
 * times, delay_us, delay_points, stuck_ms, seed (defaults: probability 100,
 * interval 1, times -1).
 * Example: "5:drop:probability=10,times=100;9:delay:delay_us=200;7:delay:delay_points=3".
 * Return: 0, or -EINVAL at the first bad entry (logged; the entries before
 * it are applied).  Context: process context.
 */
IRQKIT_API int irqkit_fault_parse(const char *spec);

#ifdef __cplusplus
}
#endif
#endif /* IRQKIT_FAULT_H */
