// SPDX-License-Identifier: MIT
/*
 * The lost wake-up of interrupt-to-poll switching, found by exploration.
 *
 * A device raises its interrupt when an event lands in its ring, and only
 * if its interrupt is enabled at that moment (an edge on each new event,
 * as a virtqueue's or many NICs' are).  The NAPI driver's handler turns
 * the device's interrupt off and schedules the poll; the poll reaps the
 * ring under the driver's lock and, with less than its weight, completes
 * and turns the interrupt back on.  That last step is the bug: an event
 * that lands after the poll's last look at the ring and before the enable
 * raises nothing (the interrupt is off) and finds nobody polling, so it
 * waits for the next event, which may never come.  The fix, as virtio-net
 * does it: enable, then look at the ring once more, and if it is not empty,
 * turn the interrupt off again and schedule the poll.
 *
 * irqkit_explore() makes an event land at every point where a CPU could
 * take an interrupt (the driver's lock taken or dropped with interrupts
 * on, ...), finds the lost event in the buggy driver and names the point;
 * the simulator, with the device on one CPU and the poll on the other,
 * finds it too, with a seed that replays it; the fixed driver passes every
 * schedule both try.
 *   cc -DIRQKIT_LOCKDEP explore_napi.c $(pkg-config --cflags --libs irqkit)
 * Usage: example-explore-napi [random-runs]   (default 300)
 */
#include <irqkit/irqkit.h>

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#define IRQ	4

static struct {
	atomic_uint			ring;		/* events the device holds */
	atomic_bool			irq_on;		/* its interrupt-enable register */
	atomic_uint			reaped, events;
	struct irqkit_spinlock		lock;		/* the driver's, around the device */
	struct irqkit_net_device	*ndev;
	struct irqkit_napi_struct	napi;
	bool				fixed;
} dev;

/* The device: an event lands; it interrupts if its interrupt is on. */
static void device_event(void *arg)
{
	(void)arg;
	atomic_fetch_add(&dev.events, 1);
	atomic_fetch_add(&dev.ring, 1);
	if (atomic_load(&dev.irq_on))
		(void)irqkit_sw_raise(IRQ);
}

static void device_irq(bool on)
{
	unsigned long flags = irqkit_spin_lock_irqsave(&dev.lock);

	atomic_store(&dev.irq_on, on);
	irqkit_spin_unlock_irqrestore(&dev.lock, flags);
}

static enum irqkit_irqreturn rx_interrupt(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	if (irqkit_napi_schedule_prep(&dev.napi)) {
		atomic_store(&dev.irq_on, false);	/* in hardirq: no lock needed against ourselves */
		irqkit_napi_schedule_prepped_irqoff(&dev.napi);
	}
	return IRQKIT_HANDLED;
}

/* Take one event from the ring; false if it is empty. */
static bool ring_take(void)
{
	unsigned long flags = irqkit_spin_lock_irqsave(&dev.lock);
	bool got = atomic_load(&dev.ring) > 0;

	if (got)
		atomic_fetch_sub(&dev.ring, 1);
	irqkit_spin_unlock_irqrestore(&dev.lock, flags);
	return got;
}

static int rx_poll(struct irqkit_napi_struct *napi, int budget)
{
	int done = 0;

	while (done < budget && ring_take())
		done++;
	atomic_fetch_add(&dev.reaped, (unsigned int)done);
	if (done == budget)
		return done;		/* polled again */
	if (!irqkit_napi_complete_done(napi, done))
		return done;		/* polled again, or deferred: the interrupt stays off */
	device_irq(true);
	/* the bug is to stop here: an event since the last ring_take() raised nothing */
	if (dev.fixed && atomic_load(&dev.ring) > 0 && irqkit_napi_schedule_prep(napi)) {
		device_irq(false);
		irqkit_napi_schedule_prepped(napi);
	}
	return done;
}

static int setup(struct irqkit_config *cfg)
{
	if (irqkit_start(cfg) || irqkit_swchip_add(IRQ, 1, IRQKIT_TYPE_EDGE_RISING))
		return -1;
	atomic_store(&dev.ring, 0);
	atomic_store(&dev.reaped, 0);
	atomic_store(&dev.events, 0);
	irqkit_spin_lock_init(&dev.lock);
	dev.ndev = irqkit_alloc_netdev_dummy(0);
	if (!dev.ndev)
		return -1;
	irqkit_netif_napi_add_weight(dev.ndev, &dev.napi, rx_poll, 2);
	irqkit_napi_enable(&dev.napi);
	atomic_store(&dev.irq_on, true);
	return irqkit_request_irq(IRQ, rx_interrupt, 0, "rx", &dev) ? -1 : 0;
}

/* No event may wait in the ring with nobody to poll it. */
static int teardown(void)
{
	unsigned int reaped = atomic_load(&dev.reaped), events = atomic_load(&dev.events);

	irqkit_free_irq(IRQ, &dev);
	irqkit_napi_disable(&dev.napi);
	irqkit_free_netdev(dev.ndev);
	irqkit_stop();
	if (reaped != events) {
		printf("  %u of %u events reaped; %u wait in the ring, the interrupt on, no poll scheduled\n",
		       reaped, events, atomic_load(&dev.ring));
		return 1;
	}
	return 0;
}

/* Exploration: four events, one CPU; more land where the explorer puts them. */
static int body(void *arg)
{
	struct irqkit_config cfg = { .nr_irqs = 8, .mode = IRQKIT_MODE_DETERMINISTIC };

	(void)arg;
	if (setup(&cfg))
		return -1;
	for (int i = 0; i < 4; i++)
		device_event(NULL);
	irqkit_deliver_pending();
	return teardown();
}

/* The device on CPU 0, some time apart; NET_RX on CPU 1, where the line is. */
static int device(void *arg)
{
	(void)arg;
	for (int i = 0; i < 6; i++) {
		device_event(NULL);
		irqkit_sim_point();
	}
	return 0;
}

/* The simulator: the device's thread and CPU 1's poll, interleaved as a seed decides. */
static int sim_body(void *arg)
{
	struct irqkit_config cfg = { .nr_irqs = 8, .nr_cpus = 2, .mode = IRQKIT_MODE_SIM };
	struct irqkit_thread *dt;

	(void)arg;
	if (setup(&cfg) || irqkit_irq_set_affinity(IRQ, 1u << 1) ||
	    irqkit_thread_start(&dt, 0, "device", device, NULL))
		return -1;
	irqkit_thread_join(dt);
	irqkit_msleep(20);		/* virtual time: whatever was scheduled has run */
	return teardown();
}

int main(int argc, char **argv)
{
	struct irqkit_explore_cfg cfg = { .interrupt = device_event, .depth = 2, .seed = 1 };
	struct irqkit_explore_cfg sim = { .seed = 1 };
	struct irqkit_explore_result res;
	int rc;

	cfg.random_runs = argc > 1 ? (unsigned int)strtoul(argv[1], NULL, 0) : 300;
	sim.random_runs = cfg.random_runs;
	dev.fixed = false;
	rc = irqkit_explore(&cfg, body, NULL, &res);
	printf("enable and stop: %s after %lu runs (%lu points)\n",
	       rc == 1 ? "lost event found" : "NOT FOUND", res.runs, res.points);
	if (rc != 1)
		return 1;
	printf("  the event came at: %s\n", res.schedule);
	rc = irqkit_explore(&sim, sim_body, NULL, &res);
	printf("enable and stop, two CPUs in the simulator: %s at run %lu of %u\n",
	       rc == 1 ? "lost event found" : "NOT FOUND", res.failed_run, sim.random_runs);
	if (rc != 1)
		return 1;
	printf("  replay it: IRQKIT_SEED=%lu\n", res.failed_run);

	dev.fixed = true;
	rc = irqkit_explore(&cfg, body, NULL, &res);
	printf("enable, then look again: %s, %lu runs (%lu points, %u random of depth %u)\n",
	       rc == 0 ? "every run passed" : "FAILED", res.runs, res.points, cfg.random_runs,
	       cfg.depth);
	if (rc)
		return 1;
	rc = irqkit_explore(&sim, sim_body, NULL, &res);
	printf("enable, then look again, two CPUs in the simulator: %s, %lu seeds\n",
	       rc == 0 ? "every seed passed" : "FAILED", res.runs);
	return rc == 0 ? 0 : 1;
}
