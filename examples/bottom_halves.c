// SPDX-License-Identifier: MIT
/*
 * The bottom halves, as a driver uses them: a network card whose top half
 * takes packets off the device into a ring and schedules its softirq-context
 * bottom half; that hands full batches to a work item (process context, may
 * sleep); a kernel timer checks that the device still interrupts; delayed
 * work reports the rate once in a while.  Kernel-style code: only Linux's
 * names, <linux/...> from irqkit's Linux layer.
 *
 * The softirq-context bottom half is written both ways, as drivers carry it
 * since Linux 6.9/6.10 converted them: a tasklet before, a work item on
 * system_bh_wq after (from_work() finds the card, disable_work_sync() stops
 * it at remove).  The version the driver is built for chooses:
 * example-bottom-halves is built for current Linux (the BH work item),
 * example-bottom-halves-tasklet for 6.8 (the tasklet).
 *
 *   example-bottom-halves [PACKETS]   (default 20000, in bursts of 64 every 0.2 ms)
 *
 * Exits 0 when every packet went through the top half and the tasklet (or
 * was dropped on a full ring) and the work item exactly once, and the timer
 * and the delayed work ran.
 */
#include <linux/version.h>
#include <linux/interrupt.h>
#include <linux/jiffies.h>
#include <linux/spinlock.h>
#include <linux/timer.h>
#include <linux/workqueue.h>
#include <irqkit/irqkit.h>	/* irqkit_start, the software line that plays the card */

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define CARD_IRQ	5
#define RING		256
#define BATCH		32

struct card {
	/* the device: packets it has received and not yet given to the driver */
	atomic_uint		hw_rx;
	/* top half -> tasklet: a ring under rx_lock */
	spinlock_t		rx_lock;
	unsigned int		ring[RING];
	unsigned int		head, tail;
	unsigned int		dropped;	/* ring full */
	/* tasklet -> work item: batches under batch_lock */
	spinlock_t		batch_lock;
	unsigned int		batch_packets;
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
	struct work_struct	rx_bh;		/* on system_bh_wq: softirq context */
#else
	struct tasklet_struct	rx_tasklet;
#endif
	struct work_struct	deliver_work;
	struct timer_list	watchdog;
	struct delayed_work	stats_work;
	/* what each stage saw */
	unsigned long		irqs, in_tasklet, delivered;
	unsigned long		last_irqs, watchdog_runs, stats_runs;	/* the timer's, the stats' */
	atomic_bool		stopping;
};

static struct card card;

/* Top half: hardirq context, interrupts off.  Take what the device has, quickly. */
static irqreturn_t card_interrupt(int irq, void *dev_id)
{
	struct card *c = dev_id;
	unsigned int n = atomic_exchange(&c->hw_rx, 0);

	(void)irq;
	if (!n)
		return IRQ_NONE;		/* not ours */
	spin_lock(&c->rx_lock);			/* interrupts are off already */
	c->irqs++;
	while (n--) {
		if (c->head - c->tail == RING) {
			c->dropped++;
			continue;
		}
		c->ring[c->head++ % RING] = 1;
	}
	spin_unlock(&c->rx_lock);
	/* the rest later, interrupts on */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
	queue_work(system_bh_wq, &c->rx_bh);
#else
	tasklet_schedule(&c->rx_tasklet);
#endif
	return IRQ_HANDLED;
}

/*
 * The bottom half: softirq context on the CPU that took the interrupt, never
 * two at once for one card.  Drain the ring.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
static void card_rx_bh(struct work_struct *work)
{
	struct card *c = from_work(c, work, rx_bh);
#else
static void card_rx_bh(unsigned long data)
{
	struct card *c = (struct card *)data;
#endif
	unsigned int taken = 0;

	spin_lock_irq(&c->rx_lock);		/* the top half takes it in hardirq context */
	while (c->tail != c->head) {
		taken += c->ring[c->tail++ % RING];
	}
	spin_unlock_irq(&c->rx_lock);
	c->in_tasklet += taken;
	spin_lock_bh(&c->batch_lock);		/* the work item takes it in process context */
	c->batch_packets += taken;
	spin_unlock_bh(&c->batch_lock);
	schedule_work(&c->deliver_work);	/* queued once however often it is scheduled */
}

/* Work item: process context on a kworker; it could sleep here (copy to a user, say). */
static void card_deliver(struct work_struct *work)
{
	struct card *c = container_of(work, struct card, deliver_work);
	unsigned int n;

	spin_lock_bh(&c->batch_lock);
	n = c->batch_packets;
	c->batch_packets = 0;
	spin_unlock_bh(&c->batch_lock);
	c->delivered += n;
}

/* Timer: softirq context, every 5 ms: has the card interrupted since last time? */
static void card_watchdog(struct timer_list *t)
{
	struct card *c = from_timer(c, t, watchdog);
	unsigned long irqs, flags;

	/* softirq context, interrupts on: the top half may come, so they go off */
	spin_lock_irqsave(&c->rx_lock, flags);
	irqs = c->irqs;
	spin_unlock_irqrestore(&c->rx_lock, flags);
	c->watchdog_runs++;
	c->last_irqs = irqs;
	if (!atomic_load(&c->stopping))
		mod_timer(&c->watchdog, jiffies + msecs_to_jiffies(5));
}

/* Delayed work: process context, every 20 ms. */
static void card_stats(struct work_struct *work)
{
	struct card *c = container_of(to_delayed_work(work), struct card, stats_work);

	c->stats_runs++;
	if (!atomic_load(&c->stopping))
		schedule_delayed_work(&c->stats_work, msecs_to_jiffies(20));
}

int main(int argc, char **argv)
{
	struct irqkit_config cfg = { .nr_irqs = 16, .nr_cpus = 2 };
	unsigned int packets = argc > 1 ? (unsigned int)atoi(argv[1]) : 20000;
	int ret;

	if (irqkit_start(&cfg) || irqkit_swchip_add(CARD_IRQ, 1, IRQKIT_TYPE_EDGE_RISING)) {
		fprintf(stderr, "bottom_halves: cannot start\n");
		return 1;
	}
	/* the driver's probe */
	spin_lock_init(&card.rx_lock);
	spin_lock_init(&card.batch_lock);
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
	INIT_WORK(&card.rx_bh, card_rx_bh);
#else
	tasklet_init(&card.rx_tasklet, card_rx_bh, (unsigned long)&card);
#endif
	INIT_WORK(&card.deliver_work, card_deliver);
	INIT_DELAYED_WORK(&card.stats_work, card_stats);
	timer_setup(&card.watchdog, card_watchdog, 0);
	ret = request_irq(CARD_IRQ, card_interrupt, IRQF_SHARED, "card0", &card);
	if (ret) {
		fprintf(stderr, "bottom_halves: request_irq: %d\n", ret);
		return 1;
	}
	mod_timer(&card.watchdog, jiffies + msecs_to_jiffies(5));
	schedule_delayed_work(&card.stats_work, msecs_to_jiffies(20));

	/* the wire: packets arrive one by one, the card interrupts for each; in bursts of 64 */
	for (unsigned int i = 1; i <= packets; i++) {
		atomic_fetch_add(&card.hw_rx, 1);
		irqkit_sw_raise(CARD_IRQ);
		if (i % 64 == 0) {
			struct timespec gap = { 0, 200000 };	/* 0.2 ms between bursts */

			irqkit_wait_delivered(CARD_IRQ, 1000);
			nanosleep(&gap, NULL);
		}
	}

	/* the driver's remove: stop each stage in the order data flows */
	atomic_store(&card.stopping, true);
	irqkit_wait_delivered(CARD_IRQ, 1000);
	free_irq(CARD_IRQ, &card);		/* no top half runs after this */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
	/*
	 * Unlike tasklet_kill, which lets a scheduled tasklet run first,
	 * disable_work_sync cancels a queued item: the last interrupt's may
	 * not have run yet (its softirq follows the handler), and its packets
	 * would stay in the ring.  Flush it, then disable.
	 */
	flush_work(&card.rx_bh);
	disable_work_sync(&card.rx_bh);		/* nor the bottom half it queued */
#else
	tasklet_kill(&card.rx_tasklet);		/* nor the bottom half it scheduled */
#endif
	flush_work(&card.deliver_work);		/* nor the work the bottom half queued */
	del_timer_sync(&card.watchdog);
	cancel_delayed_work_sync(&card.stats_work);

	printf("bottom_halves: %u packets, %lu interrupts (raises folded while one was pending), "
	       "%lu through the %s, %lu delivered by the work item, %u dropped; "
	       "watchdog ran %lu times, stats %lu times\n",
	       packets, card.irqs, card.in_tasklet,
	       LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0) ? "BH work item" : "tasklet",
	       card.delivered, card.dropped,
	       card.watchdog_runs, card.stats_runs);
	irqkit_stop();
	return card.in_tasklet + card.dropped == packets && card.delivered == card.in_tasklet &&
	       card.watchdog_runs && card.stats_runs ? 0 : 1;
}
