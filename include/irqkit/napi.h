/* SPDX-License-Identifier: MIT */
/*
 * NAPI for any device (Linux's net/core/dev.c, the part a driver uses): the
 * driver's interrupt handler masks the device's interrupt and schedules a
 * poll; the NET_RX softirq calls the poll with the instance's weight on the
 * CPU that scheduled it; a poll that used less than its weight completes
 * and unmasks, one that used the whole weight is polled again.  A run of the
 * softirq stops at a budget (300) or two jiffies, counts a time squeeze and
 * raises itself again.  A schedule that comes while the instance is
 * scheduled marks it MISSED, and its complete then polls once more instead
 * of letting the driver unmask: the window between the driver's last look
 * at its ring and its unmask is closed there.
 *
 * irqkit has no network stack: the device is a dummy struct
 * irqkit_net_device (alloc_netdev_dummy), which holds the instances and
 * their deferral settings; "processed" in the softnet table is the work the
 * polls reported.  After a poll that did work, napi_defer_hard_irqs
 * completions in a row are turned into an hrtimer of gro_flush_timeout ns
 * that polls again, keeping the interrupt off (complete returns false).
 *
 * Context, as in Linux: schedule from any context; complete from the poll;
 * enable, disable, synchronize, add and del in process context.
 */
#ifndef IRQKIT_NAPI_H
#define IRQKIT_NAPI_H

#include <irqkit/hrtimer.h>
#include <irqkit/kthread.h>
#include <irqkit/wait.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Linux's NAPI_STATE_* bits of struct irqkit_napi_struct's @state. */
enum {
	IRQKIT_NAPI_STATE_SCHED,		/* polled, or held (disabled) */
	IRQKIT_NAPI_STATE_MISSED,		/* scheduled again while scheduled */
	IRQKIT_NAPI_STATE_DISABLE,		/* a disable waits for it */
	IRQKIT_NAPI_STATE_NPSVC,		/* disabled: complete does nothing */
	IRQKIT_NAPI_STATE_LISTED,		/* on its device's list (added) */
	IRQKIT_NAPI_STATE_NO_BUSY_POLL,		/* a transmit instance: no id */
	IRQKIT_NAPI_STATE_IN_BUSY_POLL,
	IRQKIT_NAPI_STATE_PREFER_BUSY_POLL,
	IRQKIT_NAPI_STATE_THREADED,
	IRQKIT_NAPI_STATE_SCHED_THREADED,
};
#define IRQKIT_NAPIF(bit)		(1ul << IRQKIT_NAPI_STATE_##bit)

/* The weight a driver should use, and above which an add complains (NAPI_POLL_WEIGHT). */
#define IRQKIT_NAPI_POLL_WEIGHT		64
#define IRQKIT_IFNAMSIZ			16

struct irqkit_net_device;
struct irqkit_napi_struct;
typedef int (irqkit_napi_poll_fn)(struct irqkit_napi_struct *napi, int budget);

/* Linux's struct napi_struct, the part the runtime uses. */
struct irqkit_napi_struct {
	struct irqkit_list_head	poll_list;	/* on a CPU's list while scheduled */
	unsigned long		state;		/* IRQKIT_NAPIF_*, atomic */
	int			weight;
	int			defer_hard_irqs_count;	/* deferred completions left */
	irqkit_napi_poll_fn	*poll;
	struct irqkit_net_device *dev;
	int			list_owner;	/* the CPU whose list holds it, or -1 */
	unsigned int		napi_id;	/* 0 for a transmit instance */
	unsigned int		defer_hard_irqs;	/* from its device (napi_defer_hard_irqs) */
	unsigned long		gro_flush_timeout;	/* ns, from its device */
	struct irqkit_hrtimer	timer;		/* the deferral's poll */
	struct irqkit_list_head	dev_list;	/* on dev->napi_list */
	struct irqkit_task	*thread;	/* napi/DEV-ID, threaded mode */
	struct irqkit_list_head	hash_node;	/* findable by id (busy polling), lock */
	unsigned int		busy_users;	/* busy loops holding it, lock */
};

/* Linux's struct net_device, as far as NAPI needs one (a dummy device's). */
struct irqkit_net_device {
	char			name[IRQKIT_IFNAMSIZ];
	struct irqkit_list_head	napi_list;
	unsigned int		napi_defer_hard_irqs;
	unsigned long		gro_flush_timeout;	/* ns */
	bool			dummy;		/* reg_state NETREG_DUMMY */
	bool			threaded;	/* dev_set_threaded */
	size_t			alloc_size;	/* from irqkit_alloc_netdev_dummy, else 0 */
};

/** irqkit_alloc_netdev_dummy - a dummy device named "dummy#" with @sizeof_priv bytes for the driver.  Process context; NULL without memory. */
IRQKIT_API struct irqkit_net_device *irqkit_alloc_netdev_dummy(int sizeof_priv);
/** irqkit_init_dummy_netdev - make @dev (the caller's memory) a dummy device with no name (Linux 6.1's form). */
IRQKIT_API void irqkit_init_dummy_netdev(struct irqkit_net_device *dev);
/** irqkit_free_netdev - delete @dev's instances and free it (if irqkit_alloc_netdev_dummy made it). */
IRQKIT_API void irqkit_free_netdev(struct irqkit_net_device *dev);
/** irqkit_netdev_priv - the driver's area of a device from irqkit_alloc_netdev_dummy. */
IRQKIT_API void *irqkit_netdev_priv(const struct irqkit_net_device *dev);
/**
 * irqkit_netdev_set_defer_hard_irqs - /sys/class/net/DEV/napi_defer_hard_irqs:
 * @dev's and each of its instances' (Linux 6.13 on keeps one per instance).
 */
IRQKIT_API void irqkit_netdev_set_defer_hard_irqs(struct irqkit_net_device *dev, unsigned int n);
/** irqkit_netdev_set_gro_flush_timeout - /sys/class/net/DEV/gro_flush_timeout (ns), likewise. */
IRQKIT_API void irqkit_netdev_set_gro_flush_timeout(struct irqkit_net_device *dev,
						     unsigned long ns);

/**
 * irqkit_dev_set_threaded - poll @dev's instances in a kthread each
 * (napi/DEV-ID, polling in process context with bottom halves off) or,
 * @threaded false, in the NET_RX softirq again; an instance that is being
 * polled switches at its next schedule.  Instances added later follow.
 * Return: 0, or the kthread's error (the device stays unthreaded).
 * Context: process context.
 */
IRQKIT_API int irqkit_dev_set_threaded(struct irqkit_net_device *dev, bool threaded);

/**
 * irqkit_netif_napi_add_weight - set @napi up on @dev, disabled, polled by
 * @poll with @weight.  A weight over 64 is taken, with an error line once;
 * an instance added twice is warned about and left as it was.
 */
IRQKIT_API void irqkit_netif_napi_add_weight(struct irqkit_net_device *dev,
					     struct irqkit_napi_struct *napi,
					     irqkit_napi_poll_fn *poll, int weight);
/** irqkit_netif_napi_add_tx_weight - the same for a transmit instance (no busy polling, no id). */
IRQKIT_API void irqkit_netif_napi_add_tx_weight(struct irqkit_net_device *dev,
						struct irqkit_napi_struct *napi,
						irqkit_napi_poll_fn *poll, int weight);
/** irqkit_netif_napi_del - take @napi off its device; it should be disabled (a warning if not). */
IRQKIT_API void irqkit_netif_napi_del(struct irqkit_napi_struct *napi);

/** irqkit_napi_enable - let @napi be scheduled.  BUG if it was not disabled. */
IRQKIT_API void irqkit_napi_enable(struct irqkit_napi_struct *napi);
/** irqkit_napi_disable - wait until @napi is not scheduled, then hold it so.  Sleeps. */
IRQKIT_API void irqkit_napi_disable(struct irqkit_napi_struct *napi);
/** irqkit_napi_synchronize - wait until @napi is not scheduled (a poll running ends).  Sleeps. */
IRQKIT_API void irqkit_napi_synchronize(const struct irqkit_napi_struct *napi);

/**
 * irqkit_napi_schedule_prep - claim @napi for a poll: true if the caller
 * must now schedule it (irqkit_napi_schedule_prepped); false if it is
 * disabled, or scheduled already, which marks it MISSED.
 */
IRQKIT_API bool irqkit_napi_schedule_prep(struct irqkit_napi_struct *napi);
/** irqkit_napi_schedule_prepped - Linux's __napi_schedule: put a claimed @napi on this CPU's list. */
IRQKIT_API void irqkit_napi_schedule_prepped(struct irqkit_napi_struct *napi);
/** irqkit_napi_schedule_prepped_irqoff - the same, the caller has interrupts off. */
IRQKIT_API void irqkit_napi_schedule_prepped_irqoff(struct irqkit_napi_struct *napi);
/** irqkit_napi_schedule - prep and schedule; true if this call scheduled it. */
IRQKIT_API bool irqkit_napi_schedule(struct irqkit_napi_struct *napi);
/** irqkit_napi_schedule_irqoff - the same, interrupts off. */
IRQKIT_API bool irqkit_napi_schedule_irqoff(struct irqkit_napi_struct *napi);
/**
 * irqkit_napi_if_scheduled_mark_missed - if @napi is scheduled, mark it
 * MISSED (polled once more) and return true; false if it is not scheduled.
 */
IRQKIT_API bool irqkit_napi_if_scheduled_mark_missed(struct irqkit_napi_struct *napi);

/**
 * irqkit_napi_complete_done - the poll that did @work_done (less than its
 * weight) is done.  Return: true if the driver may unmask its interrupt;
 * false if it must not: the instance is disabled or busy polled, a
 * schedule came during the poll (polled again), or deferral keeps the
 * interrupt off (an hrtimer polls again).
 */
IRQKIT_API bool irqkit_napi_complete_done(struct irqkit_napi_struct *napi, int work_done);
/** irqkit_napi_complete - irqkit_napi_complete_done(napi, 0). */
IRQKIT_API bool irqkit_napi_complete(struct irqkit_napi_struct *napi);

static inline bool irqkit_napi_disable_pending(const struct irqkit_napi_struct *napi)
{
	return __atomic_load_n(&napi->state, __ATOMIC_RELAXED) & IRQKIT_NAPIF(DISABLE);
}

static inline bool irqkit_napi_is_scheduled(const struct irqkit_napi_struct *napi)
{
	return __atomic_load_n(&napi->state, __ATOMIC_RELAXED) & IRQKIT_NAPIF(SCHED);
}

/* Busy polling (net/core/dev.c's napi_busy_loop, the socket's side left out). */
#define IRQKIT_BUSY_POLL_BUDGET		8
/** irqkit_busy_loop_current_time - the clock of a busy loop's @start_time: about microseconds. */
IRQKIT_API unsigned long irqkit_busy_loop_current_time(void);
/**
 * irqkit_napi_busy_loop - poll the instance with id @napi_id from the
 * calling thread, @budget a poll, until @loop_end(@loop_end_arg,
 * start_time) says so (one round if @loop_end is NULL).  The loop owns the
 * instance while it polls: its complete returns false, so the driver leaves
 * its interrupt off, and a schedule meanwhile only marks it MISSED.  At the
 * end it polls once more without the claim, which lets the driver complete
 * and unmask; with @prefer_busy_poll and the instance's deferral set, an
 * hrtimer polls next instead, and the interrupt stays off.  An instance
 * the softirq or a thread owns is not polled; with @prefer_busy_poll it is
 * marked so that its next full poll completes (and stays off) rather than
 * polling again.  An unknown id: nothing.  Context: process context.
 */
IRQKIT_API void irqkit_napi_busy_loop(unsigned int napi_id,
				      bool (*loop_end)(void *arg, unsigned long start_time),
				      void *loop_end_arg, bool prefer_busy_poll, uint16_t budget);

/* The NET_RX softirq's limits (sysctl net.core.netdev_budget and netdev_budget_usecs). */
#define IRQKIT_NETDEV_BUDGET		300
/**
 * irqkit_set_netdev_budget - the work one NET_RX run does at most, and the
 * microseconds it may take (default 300 and two jiffies).  Process context.
 */
IRQKIT_API void irqkit_set_netdev_budget(int budget, unsigned int budget_usecs);

/* One CPU's row of /proc/net/softnet_stat. */
struct irqkit_softnet_stat {
	unsigned int	processed;	/* the work its polls reported */
	unsigned int	dropped;	/* always 0: no backlog queue to drop from */
	unsigned int	time_squeeze;	/* NET_RX runs ended by the budget or the time */
};
/** irqkit_softnet_stat - CPU @cpu's counts.  Return: 0, -EINVAL for no such CPU. */
IRQKIT_API int irqkit_softnet_stat(unsigned int cpu, struct irqkit_softnet_stat *st);
/**
 * irqkit_show_softnet_stat_buf - /proc/net/softnet_stat as Linux prints
 * it: a row of 15 hex columns per online CPU (processed, dropped,
 * time_squeeze, zeros where the stack's counts go, the CPU's number in
 * the 13th).  Return: snprintf's.
 */
IRQKIT_API int irqkit_show_softnet_stat_buf(char *buf, size_t size);

#ifdef __cplusplus
}
#endif
#endif /* IRQKIT_NAPI_H */
