/* SPDX-License-Identifier: MIT */
/* Basic types, error codes, handler results and request flags of irqkit. */
#ifndef IRQKIT_TYPES_H
#define IRQKIT_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(IRQKIT_BUILD) && defined(__GNUC__)
#define IRQKIT_API __attribute__((visibility("default")))
#else
#define IRQKIT_API
#endif

#define IRQKIT_MUST_CHECK __attribute__((warn_unused_result))

/*
 * Error codes, with the Linux values: the core runs where there is no <errno.h>,
 * and every function returns 0 or one of these negated.
 */
#define IRQKIT_EPERM	1
#define IRQKIT_ENOENT	2
#define IRQKIT_ESRCH	3
#define IRQKIT_EINTR	4
#define IRQKIT_EIO	5
#define IRQKIT_ENXIO	6
#define IRQKIT_EBADF	9
#define IRQKIT_EAGAIN	11
#define IRQKIT_ENOMEM	12
#define IRQKIT_EBUSY	16
#define IRQKIT_EEXIST	17
#define IRQKIT_ENODEV	19
#define IRQKIT_EINVAL	22
#define IRQKIT_EMFILE	24
#define IRQKIT_ENOSPC	28
#define IRQKIT_ERANGE	34
#define IRQKIT_EDEADLK	35
#define IRQKIT_ENOSYS	38
#define IRQKIT_ENODATA	61
#define IRQKIT_ETIME	62
#define IRQKIT_EPROTO	71
#define IRQKIT_EOPNOTSUPP	95
#define IRQKIT_ENOTCONN	107
#define IRQKIT_ETIMEDOUT	110
#define IRQKIT_EALREADY	114
#define IRQKIT_ERESTARTSYS	512	/* kernel-only: the call is restarted after the signal */
#define IRQKIT_ENOTSUPP		524	/* kernel-only: the operation is not supported */

/* What a handler returns; results of a shared line are OR-ed. */
enum irqkit_irqreturn {
	IRQKIT_NONE		= 0,	/* not my device */
	IRQKIT_HANDLED		= 1,	/* my device, handled */
	IRQKIT_WAKE_THREAD	= 2,	/* wake the handler thread */
};
#define IRQKIT_RETVAL(x)	((x) ? IRQKIT_HANDLED : IRQKIT_NONE)

/* A line that is not wired anywhere: request_irq gives -ENOTCONN. */
#define IRQKIT_NOTCONNECTED	(1U << 31)

/* The 2.6.0-2.6.18 handler's third argument; irqkit passes NULL. */
struct pt_regs;

typedef enum irqkit_irqreturn (*irqkit_handler_fn)(int irq, void *dev_id);
typedef enum irqkit_irqreturn (*irqkit_handler_regs_fn)(int irq, void *dev_id,
							 struct pt_regs *regs);

/* Request flags: the values of Linux's IRQF_* (include/linux/interrupt.h). */
#define IRQKIT_F_TRIGGER_NONE		0x00000000u
#define IRQKIT_F_TRIGGER_RISING		0x00000001u
#define IRQKIT_F_TRIGGER_FALLING	0x00000002u
#define IRQKIT_F_TRIGGER_HIGH		0x00000004u
#define IRQKIT_F_TRIGGER_LOW		0x00000008u
#define IRQKIT_F_TRIGGER_MASK		0x0000000fu
#define IRQKIT_F_TRIGGER_PROBE		0x00000010u
#define IRQKIT_F_DISABLED		0x00000020u	/* 2.6: no-op since 2.6.35 */
#define IRQKIT_F_SAMPLE_RANDOM		0x00000040u	/* 2.6: accepted, no entropy pool here */
#define IRQKIT_F_SHARED			0x00000080u
#define IRQKIT_F_PROBE_SHARED		0x00000100u
#define IRQKIT_F__TIMER			0x00000200u
#define IRQKIT_F_PERCPU			0x00000400u
#define IRQKIT_F_NOBALANCING		0x00000800u
#define IRQKIT_F_IRQPOLL		0x00001000u
#define IRQKIT_F_ONESHOT		0x00002000u
#define IRQKIT_F_NO_SUSPEND		0x00004000u
#define IRQKIT_F_FORCE_RESUME		0x00008000u
#define IRQKIT_F_NO_THREAD		0x00010000u
#define IRQKIT_F_EARLY_RESUME		0x00020000u
#define IRQKIT_F_COND_SUSPEND		0x00040000u
#define IRQKIT_F_NO_AUTOEN		0x00080000u
#define IRQKIT_F_NO_DEBUG		0x00100000u
#define IRQKIT_F_COND_ONESHOT		0x00200000u
#define IRQKIT_F_TIMER	(IRQKIT_F__TIMER | IRQKIT_F_NO_SUSPEND | IRQKIT_F_NO_THREAD)

/* Trigger types of a line: Linux's IRQ_TYPE_* (include/linux/irq.h). */
#define IRQKIT_TYPE_NONE		0x0u
#define IRQKIT_TYPE_EDGE_RISING		0x1u
#define IRQKIT_TYPE_EDGE_FALLING	0x2u
#define IRQKIT_TYPE_EDGE_BOTH		0x3u
#define IRQKIT_TYPE_LEVEL_HIGH		0x4u
#define IRQKIT_TYPE_LEVEL_LOW		0x8u
#define IRQKIT_TYPE_LEVEL_MASK		0xcu
#define IRQKIT_TYPE_SENSE_MASK		0xfu
#define IRQKIT_TYPE_PROBE		0x10u	/* told to a chip's irq_set_type while probing */

/* Virtual CPUs: a mask holds up to this many. */
#define IRQKIT_NR_CPUS_MAX	64
typedef uint64_t irqkit_cpumask;

/*
 * struct irqkit_cpus - a set of CPUs passed by address, Linux's struct
 * cpumask: what a chip's irq_set_affinity receives and an affinity
 * descriptor holds.  The same CPUs as an irqkit_cpumask, in words of the
 * machine's long so that Linux's cpumask_bits() reads it.  irqkit_cpus_mask()
 * reads with relaxed loads: a set another thread changes (the online CPUs)
 * is read without a data race.
 */
#define IRQKIT_CPUS_LONGS	(IRQKIT_NR_CPUS_MAX / (8 * __SIZEOF_LONG__))
struct irqkit_cpus {
	unsigned long	bits[IRQKIT_CPUS_LONGS];
};

static inline irqkit_cpumask irqkit_cpus_mask(const struct irqkit_cpus *c)
{
	irqkit_cpumask m = 0;

	for (unsigned int i = 0; i < IRQKIT_CPUS_LONGS; i++)
		m |= (irqkit_cpumask)__atomic_load_n(&c->bits[i], __ATOMIC_RELAXED)
		     << (i * 8 * __SIZEOF_LONG__);
	return m;
}

static inline struct irqkit_cpus irqkit_cpus_of_mask(irqkit_cpumask m)
{
	struct irqkit_cpus c = { { 0 } };

	for (unsigned int i = 0; i < IRQKIT_CPUS_LONGS; i++)
		c.bits[i] = (unsigned long)(m >> (i * 8 * __SIZEOF_LONG__));
	return c;
}

/* A node of a timer queue (a pairing heap), inside each kind of timer: private. */
struct irqkit__heap_node {
	struct irqkit__heap_node	*child, *next, *prev;
};

/* Log levels: Linux's KERN_EMERG (0) .. KERN_DEBUG (7). */
#define IRQKIT_LOG_EMERG	0
#define IRQKIT_LOG_ALERT	1
#define IRQKIT_LOG_CRIT		2
#define IRQKIT_LOG_ERR		3
#define IRQKIT_LOG_WARNING	4
#define IRQKIT_LOG_NOTICE	5
#define IRQKIT_LOG_INFO		6
#define IRQKIT_LOG_DEBUG	7

/*
 * irqkit_log_fn - receives one line of kernel-style log output, without the
 * trailing newline.  Called from any context, handlers included.
 */
typedef void (*irqkit_log_fn)(void *arg, int level, const char *line);

#ifdef __cplusplus
}
#endif
#endif /* IRQKIT_TYPES_H */
