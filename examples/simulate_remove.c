// SPDX-License-Identifier: MIT
/*
 * The simulator in a few lines: a driver's remove() frees the buffer its
 * handler uses and then calls free_irq(), while the device still interrupts
 * on the other CPU.  Every thread of the run (the remover on CPU 0, the
 * device on CPU 0, CPU 1's dispatcher taking the interrupt, the runtime's
 * own) runs one at a time in an order a seed decides; irqkit_explore() tries
 * one seed per run and finds the schedule where the handler, on CPU 1, reads
 * the freed buffer.  With free_irq() first (it waits for a handler running
 * on another CPU) every seed passes.  It prints both results, the replay
 * command and how many runs a second the exploration makes.
 *   cc simulate_remove.c $(pkg-config --cflags --libs irqkit)
 * Usage: example-simulate-remove [runs]   (default 200)
 */
#include <irqkit/irqkit.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define IRQ	3

static struct {
	int	*buf;		/* the handler counts into it */
	bool	int_enabled;	/* the device's interrupt-enable register */
	bool	used_freed;	/* the handler found it gone */
	bool	fixed;
} dev;

static enum irqkit_irqreturn rx_interrupt(int irq, void *dev_id)
{
	int *buf;

	(void)irq;
	(void)dev_id;
	irqkit_sim_point();		/* reading the device's status: a while */
	buf = __atomic_load_n(&dev.buf, __ATOMIC_RELAXED);
	if (!buf)
		dev.used_freed = true;	/* on a real machine: a use after free */
	else
		buf[0]++;
	return IRQKIT_HANDLED;
}

/* The device: three interrupts, some time apart, while its driver lets it. */
static int device(void *arg)
{
	(void)arg;
	for (int i = 0; i < 3; i++) {
		if (__atomic_load_n(&dev.int_enabled, __ATOMIC_RELAXED))
			(void)irqkit_sw_raise(IRQ);
		irqkit_sim_point();
	}
	return 0;
}

/* The device is told to stop first; an interrupt already taken may still be running. */
static void remove_device(void)
{
	__atomic_store_n(&dev.int_enabled, false, __ATOMIC_RELAXED);
	if (dev.fixed) {
		irqkit_free_irq(IRQ, &dev);	/* no handler runs after this, on any CPU */
		__atomic_store_n(&dev.buf, NULL, __ATOMIC_RELAXED);
	} else {
		__atomic_store_n(&dev.buf, NULL, __ATOMIC_RELAXED);	/* the bug */
		irqkit_free_irq(IRQ, &dev);
	}
}

/* Probe, let the device interrupt (handled on CPU 1), remove; 0 if nothing was used freed. */
static int body(void *arg)
{
	static int storage[1];
	struct irqkit_config cfg = { .nr_irqs = 8, .nr_cpus = 2, .mode = IRQKIT_MODE_SIM };
	struct irqkit_thread *dt;

	(void)arg;
	if (irqkit_start(&cfg) || irqkit_swchip_add(IRQ, 1, IRQKIT_TYPE_EDGE_RISING) ||
	    irqkit_irq_set_affinity(IRQ, 1u << 1))
		return -1;
	dev.buf = storage;
	dev.int_enabled = true;
	dev.used_freed = false;
	if (irqkit_request_irq(IRQ, rx_interrupt, 0, "rx", &dev) ||
	    irqkit_thread_start(&dt, 0, "device", device, NULL))
		return -1;
	irqkit_sim_point();
	remove_device();
	irqkit_thread_join(dt);
	irqkit_stop();
	return dev.used_freed ? 1 : 0;
}

static double seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	struct irqkit_explore_cfg cfg = { .seed = 1 };
	struct irqkit_explore_result res;
	double t0, t;
	int rc;

	cfg.random_runs = argc > 1 ? (unsigned int)strtoul(argv[1], NULL, 0) : 200;
	dev.fixed = false;
	rc = irqkit_explore(&cfg, body, NULL, &res);
	printf("remove() before free_irq(): %s at run %lu of %u (%s)\n",
	       rc == 1 ? "use after free found" : "NOT FOUND", res.failed_run, cfg.random_runs,
	       res.schedule);
	if (rc != 1)
		return 1;
	printf("replay it: IRQKIT_SEED=%lu example-simulate-remove\n", res.failed_run);

	dev.fixed = true;
	t0 = seconds();
	rc = irqkit_explore(&cfg, body, NULL, &res);
	t = seconds() - t0;
	printf("free_irq() first: %s, %lu runs in %.2f s: %.0f runs/s\n",
	       rc == 0 ? "every seed passed" : "FAILED", res.runs, t, (double)res.runs / t);
	return rc == 0 ? 0 : 1;
}
