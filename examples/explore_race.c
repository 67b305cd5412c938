// SPDX-License-Identifier: MIT
/*
 * Exploration in a few lines: a handler counts arrivals and a tasklet
 * consumes them; the tasklet reads the count, works, then empties it, with
 * interrupts on.  irqkit_explore() makes the interrupt come at every point
 * in turn and finds the arrival lost between the read and the store; with
 * the count taken under spin_lock_irqsave every run passes.  It prints both
 * results and how many runs a second the exploration makes.
 *   cc explore_race.c $(pkg-config --cflags --libs irqkit)
 * Usage: example-explore-race [random-runs]   (default 500)
 */
#include <irqkit/irqkit.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define IRQ	3

static struct {
	unsigned int		arrived, queued, consumed;
	struct irqkit_spinlock	lock;
	struct irqkit_tasklet	bh;
	bool			fixed;
} dev;

static enum irqkit_irqreturn rx_interrupt(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	dev.arrived++;
	dev.queued++;
	irqkit_tasklet_schedule(&dev.bh);
	return IRQKIT_HANDLED;
}

static void rx_tasklet(unsigned long data)
{
	unsigned int n;

	(void)data;
	if (dev.fixed) {
		unsigned long flags = irqkit_spin_lock_irqsave(&dev.lock);

		n = dev.queued;
		dev.queued = 0;
		irqkit_spin_unlock_irqrestore(&dev.lock, flags);
		irqkit_sim_point();		/* processing the n items */
		dev.consumed += n;
		return;
	}
	n = dev.queued;
	irqkit_sim_point();			/* processing: an interrupt may come */
	dev.consumed += n;
	dev.queued = 0;				/* the bug: what came meanwhile is lost */
}

/* Start, receive four items, stop; 0 when every item was consumed or is queued. */
static int body(void *arg)
{
	struct irqkit_config cfg = { .nr_irqs = 8, .mode = IRQKIT_MODE_DETERMINISTIC };

	(void)arg;
	if (irqkit_start(&cfg) || irqkit_swchip_add(IRQ, 1, IRQKIT_TYPE_EDGE_RISING))
		return -1;
	dev.arrived = dev.queued = dev.consumed = 0;
	irqkit_spin_lock_init(&dev.lock);
	irqkit_tasklet_init(&dev.bh, rx_tasklet, 0);
	if (irqkit_request_irq(IRQ, rx_interrupt, 0, "rx", &dev))
		return -1;
	for (int i = 0; i < 4; i++)
		(void)irqkit_sw_raise(IRQ);
	irqkit_free_irq(IRQ, &dev);
	irqkit_tasklet_kill(&dev.bh);
	irqkit_stop();
	return dev.consumed + dev.queued == dev.arrived ? 0 : 1;
}

static double seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	struct irqkit_explore_cfg cfg = { .irq = IRQ, .depth = 2, .seed = 1 };
	struct irqkit_explore_result res;
	double t0, t;
	int rc;

	cfg.random_runs = argc > 1 ? (unsigned int)strtoul(argv[1], NULL, 0) : 500;
	dev.fixed = false;
	rc = irqkit_explore(&cfg, body, NULL, &res);
	printf("racy tasklet: %s after %lu runs (%lu points)\n",
	       rc == 1 ? "race found" : "NOT FOUND", res.runs, res.points);
	if (rc != 1)
		return 1;

	dev.fixed = true;
	t0 = seconds();
	rc = irqkit_explore(&cfg, body, NULL, &res);
	t = seconds() - t0;
	printf("fixed tasklet: %s, %lu runs (%lu points, %u random of depth %u) in %.2f s: %.0f runs/s\n",
	       rc == 0 ? "every run passed" : "FAILED", res.runs, res.points, cfg.random_runs,
	       cfg.depth, t, (double)res.runs / t);
	return rc == 0 ? 0 : 1;
}
