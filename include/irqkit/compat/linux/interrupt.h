/* SPDX-License-Identifier: MIT */
/*
 * Linux's <linux/interrupt.h> over irqkit: request_irq and friends, IRQF_*
 * flags, and the 2.6 porting aids (the pt_regs handler, SA_* flags, and
 * removed 2.4 interfaces that fail to compile with their replacement named).
 */
#ifndef IRQKIT_COMPAT_LINUX_INTERRUPT_H
#define IRQKIT_COMPAT_LINUX_INTERRUPT_H

#include <irqkit/irq.h>
#include <linux/kernel.h>
#include <linux/bitops.h>
#include <linux/atomic.h>
#include <linux/irqreturn.h>
#include <linux/irqflags.h>
#include <linux/hardirq.h>
#include <linux/bottom_half.h>
#include <linux/tqueue.h>
#include <linux/irqkit_args.h>
#include <linux/container_of.h>
#include <irqkit/softirq.h>

typedef irqreturn_t (*irq_handler_t)(int irq, void *dev_id);

#define IRQ_NOTCONNECTED	IRQKIT_NOTCONNECTED

#define IRQF_TRIGGER_NONE	IRQKIT_F_TRIGGER_NONE
#define IRQF_TRIGGER_RISING	IRQKIT_F_TRIGGER_RISING
#define IRQF_TRIGGER_FALLING	IRQKIT_F_TRIGGER_FALLING
#define IRQF_TRIGGER_HIGH	IRQKIT_F_TRIGGER_HIGH
#define IRQF_TRIGGER_LOW	IRQKIT_F_TRIGGER_LOW
#define IRQF_TRIGGER_MASK	IRQKIT_F_TRIGGER_MASK
#define IRQF_TRIGGER_PROBE	IRQKIT_F_TRIGGER_PROBE
#define IRQF_SHARED		IRQKIT_F_SHARED
#define IRQF_PROBE_SHARED	IRQKIT_F_PROBE_SHARED
#define __IRQF_TIMER		IRQKIT_F__TIMER
#define IRQF_PERCPU		IRQKIT_F_PERCPU
#define IRQF_NOBALANCING	IRQKIT_F_NOBALANCING
#define IRQF_IRQPOLL		IRQKIT_F_IRQPOLL
#define IRQF_ONESHOT		IRQKIT_F_ONESHOT
#define IRQF_NO_SUSPEND		IRQKIT_F_NO_SUSPEND
#define IRQF_FORCE_RESUME	IRQKIT_F_FORCE_RESUME
#define IRQF_NO_THREAD		IRQKIT_F_NO_THREAD
#define IRQF_EARLY_RESUME	IRQKIT_F_EARLY_RESUME
#define IRQF_COND_SUSPEND	IRQKIT_F_COND_SUSPEND
#define IRQF_NO_AUTOEN		IRQKIT_F_NO_AUTOEN
#define IRQF_NO_DEBUG		IRQKIT_F_NO_DEBUG
#define IRQF_COND_ONESHOT	IRQKIT_F_COND_ONESHOT
#define IRQF_TIMER		IRQKIT_F_TIMER

/*
 * 2.6-era flags, accepted with their Linux meaning: SA_SHIRQ became
 * IRQF_SHARED; SA_INTERRUPT became IRQF_DISABLED, a no-op since 2.6.35 (every
 * handler runs with interrupts off); SA_SAMPLE_RANDOM became
 * IRQF_SAMPLE_RANDOM, accepted and ignored (there is no entropy pool here).
 */
#define IRQF_DISABLED		IRQKIT_F_DISABLED
#define IRQF_SAMPLE_RANDOM	IRQKIT_F_SAMPLE_RANDOM
#define SA_SHIRQ		IRQF_SHARED
#ifdef SA_INTERRUPT		/* libc's <signal.h> has sigaction's historical flag */
#undef SA_INTERRUPT
#endif
#define SA_INTERRUPT		IRQF_DISABLED
#define SA_SAMPLE_RANDOM	IRQF_SAMPLE_RANDOM

/*
 * request_irq() takes the modern handler irqreturn_t (*)(int, void *) and the
 * 2.6.0-2.6.18 one with a third `struct pt_regs *` argument (which receives
 * NULL).  A handler returning void, the 2.4 form, stops the build.
 */
#define IRQKIT__HANDLER_OK(h) _Generic((h),					\
	irqreturn_t (*)(int, void *): 1,					\
	irqreturn_t (*)(int, void *, struct pt_regs *): 1,			\
	void *: 1,								\
	default: 0)
#define request_irq(irq, handler, flags, name, dev)				\
	((void)sizeof(struct {							\
		_Static_assert(IRQKIT__HANDLER_OK(handler),			\
			"interrupt handlers return irqreturn_t since Linux 2.6: "	\
			"declare it irqreturn_t handler(int irq, void *dev_id) "	\
			"and return IRQ_HANDLED if your device interrupted, "	\
			"IRQ_NONE if not");					\
		int irqkit__unused;						\
	}),									\
	_Generic((handler),							\
		irqreturn_t (*)(int, void *, struct pt_regs *): irqkit_request_irq_regs, \
		default: irqkit_request_irq)((irq), (handler), (flags), (name), (dev)))

#define request_threaded_irq(irq, handler, thread_fn, flags, name, dev)		\
	irqkit_request_threaded_irq((irq), (handler), (thread_fn), (flags), (name), (dev))
#define irq_wake_thread(irq, dev_id)	irqkit_irq_wake_thread((irq), (dev_id))
#define free_irq(irq, dev_id)		irqkit_free_irq((irq), (dev_id))
#define can_request_irq(irq, flags)	irqkit_can_request_irq((irq), (flags))
#define probe_irq_on()			irqkit_probe_irq_on()
#define probe_irq_off(val)		irqkit_probe_irq_off(val)
#define probe_irq_mask(val)		irqkit_probe_irq_mask(val)
#define disable_irq(irq)		irqkit_disable_irq(irq)
/* the chip's view of a line (enum irqchip_irq_state) */
#include <irqkit/chip.h>
#ifndef IRQCHIP_STATE_PENDING
#define IRQCHIP_STATE_PENDING		IRQKIT_CHIPSTATE_PENDING
#define IRQCHIP_STATE_ACTIVE		IRQKIT_CHIPSTATE_ACTIVE
#define IRQCHIP_STATE_MASKED		IRQKIT_CHIPSTATE_MASKED
#endif
#define irq_get_irqchip_state(irq, which, state) \
	irqkit_irq_get_irqchip_state((irq), (which), (state))
#define irq_set_irqchip_state(irq, which, val) \
	irqkit_irq_set_irqchip_state((irq), (which), (val))
#define disable_irq_nosync(irq)		irqkit_disable_irq_nosync(irq)
#define disable_hardirq(irq)		irqkit_disable_hardirq(irq)
#define enable_irq(irq)			irqkit_enable_irq(irq)
/* Linux's form: a struct cpumask, as cpumask_of(cpu) gives */
#define irq_set_affinity(irq, mask)	irqkit_irq_set_affinity((irq), irqkit_cpus_mask(mask))

/* ---- softirqs and tasklets ---------------------------------- */

enum {
	HI_SOFTIRQ = IRQKIT_HI_SOFTIRQ,
	TIMER_SOFTIRQ = IRQKIT_TIMER_SOFTIRQ,
	NET_TX_SOFTIRQ = IRQKIT_NET_TX_SOFTIRQ,
	NET_RX_SOFTIRQ = IRQKIT_NET_RX_SOFTIRQ,
	BLOCK_SOFTIRQ = IRQKIT_BLOCK_SOFTIRQ,
	IRQ_POLL_SOFTIRQ = IRQKIT_IRQ_POLL_SOFTIRQ,
	TASKLET_SOFTIRQ = IRQKIT_TASKLET_SOFTIRQ,
	SCHED_SOFTIRQ = IRQKIT_SCHED_SOFTIRQ,
	HRTIMER_SOFTIRQ = IRQKIT_HRTIMER_SOFTIRQ,
	RCU_SOFTIRQ = IRQKIT_RCU_SOFTIRQ,
	NR_SOFTIRQS = IRQKIT_NR_SOFTIRQS
};

#define open_softirq(nr, action)	irqkit_open_softirq((nr), (action))
#define raise_softirq(nr)		irqkit_raise_softirq(nr)
#define raise_softirq_irqoff(nr)	irqkit_raise_softirq_irqoff(nr)
#define local_softirq_pending()		irqkit_softirq_pending(irqkit_smp_processor_id())

#define tasklet_struct			irqkit_tasklet
#define TASKLET_STATE_SCHED		0
#define TASKLET_STATE_RUN		1

/*
 * DECLARE_TASKLET(name, callback) is the modern form (the callback gets the
 * tasklet; find your object with from_tasklet); DECLARE_TASKLET(name, func,
 * data) is the 2.6 form.  The argument count picks one.
 */
#define IRQKIT__DECLARE_TASKLET2(n, cb)		struct tasklet_struct n = IRQKIT_TASKLET_INIT(cb, 0)
#define IRQKIT__DECLARE_TASKLET3(n, f, d)		struct tasklet_struct n = IRQKIT_TASKLET_INIT_26(f, d, 0)
#define DECLARE_TASKLET(...)		IRQKIT__BY_NARGS(IRQKIT__DECLARE_TASKLET, __VA_ARGS__)
#define IRQKIT__DECLARE_TASKLET_DISABLED2(n, cb) 	struct tasklet_struct n = IRQKIT_TASKLET_INIT(cb, 1)
#define IRQKIT__DECLARE_TASKLET_DISABLED3(n, f, d) 	struct tasklet_struct n = IRQKIT_TASKLET_INIT_26(f, d, 1)
#define DECLARE_TASKLET_DISABLED(...)	IRQKIT__BY_NARGS(IRQKIT__DECLARE_TASKLET_DISABLED, __VA_ARGS__)
#define DECLARE_TASKLET_OLD(n, f)	struct tasklet_struct n = IRQKIT_TASKLET_INIT_26(f, 0, 0)

#define tasklet_init(t, func, data)	irqkit_tasklet_init((t), (func), (data))
#define tasklet_setup(t, callback)	irqkit_tasklet_setup((t), (callback))
#define tasklet_schedule(t)		irqkit_tasklet_schedule(t)
#define tasklet_hi_schedule(t)		irqkit_tasklet_hi_schedule(t)
#define tasklet_disable_nosync(t)	irqkit_tasklet_disable_nosync(t)
#define tasklet_disable(t)		irqkit_tasklet_disable(t)
#define tasklet_enable(t)		irqkit_tasklet_enable(t)
#define tasklet_kill(t)			irqkit_tasklet_kill(t)
#define from_tasklet(var, callback_tasklet, tasklet_fieldname)					((__typeof__(var))((char *)(callback_tasklet) -								   __builtin_offsetof(__typeof__(*(var)), tasklet_fieldname)))

/*
 * Bottom halves, removed in Linux 2.6: tasklets and softirqs replace them.
 */
__attribute__((unavailable("bottom halves are gone since Linux 2.6: schedule a tasklet "
	"(tasklet_schedule()) or a work item (schedule_work()) instead of mark_bh()")))
void irqkit__removed_mark_bh(void);
__attribute__((unavailable("bottom halves are gone since Linux 2.6: declare a tasklet "
	"with DECLARE_TASKLET()/tasklet_setup() instead of init_bh()")))
void irqkit__removed_init_bh(void);
__attribute__((unavailable("bottom halves are gone since Linux 2.6: use tasklet_kill() "
	"instead of remove_bh()")))
void irqkit__removed_remove_bh(void);
#define mark_bh(nr)		irqkit__removed_mark_bh()
#define init_bh(nr, routine)	irqkit__removed_init_bh()
#define remove_bh(nr)		irqkit__removed_remove_bh()

/* Request in the line's context: a nested-thread line's thread, else hardirq. */
#define IRQC_IS_HARDIRQ			IRQKIT_IRQC_IS_HARDIRQ
#define IRQC_IS_NESTED			IRQKIT_IRQC_IS_NESTED
#define request_any_context_irq(irq, handler, flags, name, dev_id)		\
	irqkit_request_any_context_irq((irq), (handler), (flags), (name), (dev_id))

/* NMIs: Linux's checks, and then -EINVAL: no chip here delivers them (<irqkit/irq.h>). */
#define request_nmi(irq, handler, flags, name, dev_id)				\
	irqkit_request_nmi((irq), (handler), (flags), (name), (dev_id))
#define free_nmi(irq, dev_id)		((const void *)irqkit_free_nmi((irq), (dev_id)))

/* Per-CPU lines with a per-CPU dev_id: Linux 3.1 and later. */
#if IRQKIT_LINUX_AT_LEAST(3, 1, 0)
#define request_percpu_irq(irq, handler, devname, percpu_dev_id)		\
	irqkit_request_percpu_irq((irq), (handler), (devname), (percpu_dev_id))
#define free_percpu_irq(irq, percpu_dev_id)	irqkit_free_percpu_irq((irq), (percpu_dev_id))
#define enable_percpu_irq(irq, type)	irqkit_enable_percpu_irq((irq), (unsigned int)(type))
#define disable_percpu_irq(irq)		irqkit_disable_percpu_irq(irq)
#define irq_percpu_is_enabled(irq)	irqkit_irq_percpu_is_enabled(irq)
#else
#define request_percpu_irq(irq, handler, devname, percpu_dev_id)		\
	IRQKIT_ERA_ERROR("request_percpu_irq is Linux 3.1 and later: build with "	\
			 "IRQKIT_LINUX_VERSION_CODE >= KERNEL_VERSION(3,1,0)")
#endif
#define enable_nmi(irq)			irqkit_enable_irq(irq)
#define disable_nmi_nosync(irq)		irqkit_disable_irq_nosync(irq)

/* Wake-up sources: nested, apart from the disable depth. */
#define enable_irq_wake(irq)		irqkit_irq_set_irq_wake((irq), 1)
#define disable_irq_wake(irq)		irqkit_irq_set_irq_wake((irq), 0)

/* The affinity hint for user space (irqbalance): 2.6.35's name, and 5.17's two. */
#define irq_set_affinity_hint(irq, m)	irqkit_irq_set_affinity_and_hint((irq), (m))
#define irq_update_affinity_hint(irq, m) irqkit_irq_update_affinity_hint((irq), (m))
#define irq_set_affinity_and_hint(irq, m) irqkit_irq_set_affinity_and_hint((irq), (m))

/*
 * The managed forms, here as in Linux, for a struct device of
 * <linux/device.h> (its first member is the native device, so a pointer to
 * one is a pointer to the other); this header only declares the struct.
 */
#include <irqkit/device.h>
struct device;
#define IRQKIT__DEV(dev)	((struct irqkit_device *)(void *)(dev))
#if IRQKIT_LINUX_AT_LEAST(2, 6, 21)
#define devm_request_threaded_irq(dev, irq, handler, thread_fn, flags, name, dev_id)	\
	irqkit_devm_request_threaded_irq(IRQKIT__DEV(dev), (irq), (handler), (thread_fn),	\
					 (flags), (name), (dev_id))
#define devm_request_irq(dev, irq, handler, flags, name, dev_id)		\
	irqkit_devm_request_irq(IRQKIT__DEV(dev), (irq), (handler), (flags), (name), (dev_id))
#define devm_free_irq(dev, irq, dev_id)	irqkit_devm_free_irq(IRQKIT__DEV(dev), (irq), (dev_id))
#define devm_request_any_context_irq(dev, irq, handler, flags, name, dev_id)	\
	irqkit_devm_request_any_context_irq(IRQKIT__DEV(dev), (irq), (handler), (flags), (name),	\
					    (dev_id))
#else
#define devm_request_irq(dev, irq, handler, flags, name, dev_id)		\
	IRQKIT_ERA_ERROR("devm_request_irq needs Linux 2.6.21 (devres); this build is for an older kernel")
#define devm_free_irq(dev, irq, dev_id)						\
	IRQKIT_ERA_ERROR("devm_free_irq needs Linux 2.6.21 (devres); this build is for an older kernel")
#endif

/*
 * Spreading a multi-queue device's vectors over the CPUs (<irqkit/affinity.h>):
 * struct irq_affinity (2.6.12 for the name; pre/post vectors 4.8, sets 5.0).
 */
#include <irqkit/affinity.h>
#define irq_affinity			irqkit_irq_affinity
#define irq_affinity_desc		irqkit_irq_affinity_desc
#define IRQ_AFFINITY_MAX_SETS		IRQKIT_IRQ_AFFINITY_MAX_SETS
#define irq_create_affinity_masks(nvecs, affd)	irqkit_irq_create_affinity_masks((nvecs), (affd))
#define irq_calc_affinity_vectors(minvec, maxvec, affd)				\
	irqkit_irq_calc_affinity_vectors((minvec), (maxvec), (affd))

#endif
