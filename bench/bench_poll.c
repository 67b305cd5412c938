// SPDX-License-Identifier: MIT
/*
 * Interrupt-to-poll switching (NAPI) against a plain handler, on one eventfd
 * line that a device thread signals, as a VFIO MSI is signalled.  The device
 * posts events to a ring and writes the eventfd for each while its
 * interrupt is on; the driver is the same code in both sides but for how it
 * reaps:
 *
 *  - plain: the handler reaps what the ring holds (the device's interrupt
 *    stays on);
 *  - NAPI: the handler turns the device's interrupt off and schedules the
 *    poll (weight 64), which reaps and, when it reaped less than its weight,
 *    completes, turns the interrupt on and looks at the ring once more.
 *
 * Two figures:
 *
 *  - saturation: the device posts n events back to back (the ring holds
 *    4096); hardirqs per 1000 events, NAPI against plain (an eventfd folds
 *    writes that come while an interrupt is in service, so the plain side
 *    takes fewer than one an event: this is the ratio of the two);
 *  - sparse: an event every 200 us, the CPU idle between: the median of
 *    post-to-reap, NAPI (hardirq, then NET_RX) against plain (hardirq).
 *
 * And busy polling's post-to-reap against the interrupt path's (sparse).
 */
#define _GNU_SOURCE
#include <irqkit/irqkit.h>

#include <stdatomic.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "bench.h"

#define IRQ		1
#define RING		4096
#define WEIGHT		64

static struct {
	atomic_ulong		head, tail;	/* posted, reaped */
	atomic_bool		irq_on;
	int			efd;
	bool			napi;		/* the side: NAPI or plain */
	uint64_t		work_ns;	/* the driver's work per event (saturation) */
	atomic_ulong		hardirqs;
	uint64_t		stamp[RING];	/* each event's post time */
	double			*lat;		/* sparse: the sample of the event reaped */
	struct irqkit_net_device *ndev;
	struct irqkit_napi_struct *np;
} d;

static const uint64_t one = 1;

static void post(void)
{
	unsigned long h = atomic_load_explicit(&d.head, memory_order_relaxed);

	while (h - atomic_load_explicit(&d.tail, memory_order_acquire) >= RING)
		;	/* full: the driver is behind */
	d.stamp[h % RING] = bench_now_ns();
	atomic_store_explicit(&d.head, h + 1, memory_order_release);
	if (atomic_load_explicit(&d.irq_on, memory_order_acquire) &&
	    write(d.efd, &one, sizeof(one)) != sizeof(one))
		abort();
}

/* Reap up to @budget; a sparse run notes the last one's latency. */
static int reap(int budget)
{
	unsigned long t = atomic_load_explicit(&d.tail, memory_order_relaxed);
	unsigned long h = atomic_load_explicit(&d.head, memory_order_acquire);
	int done = 0;

	while (done < budget && t != h) {
		if (d.lat)
			*d.lat = (double)(bench_now_ns() - d.stamp[t % RING]);
		if (d.work_ns) {	/* what a driver does with an event (a packet up its stack) */
			uint64_t until = bench_now_ns() + d.work_ns;

			while (bench_now_ns() < until)
				;
		}
		t++;
		done++;
	}
	atomic_store_explicit(&d.tail, t, memory_order_release);
	return done;
}

static enum irqkit_irqreturn dev_irq(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	atomic_fetch_add_explicit(&d.hardirqs, 1, memory_order_relaxed);
	if (!d.napi) {
		(void)reap(RING);
		return IRQKIT_HANDLED;
	}
	if (irqkit_napi_schedule_prep(d.np)) {
		atomic_store(&d.irq_on, false);
		irqkit_napi_schedule_prepped_irqoff(d.np);
	}
	return IRQKIT_HANDLED;
}

static int dev_poll(struct irqkit_napi_struct *napi, int budget)
{
	int done = reap(budget);

	if (done < budget && irqkit_napi_complete_done(napi, done)) {
		atomic_store(&d.irq_on, true);
		/* an event since the last look raised nothing: look again */
		if (atomic_load(&d.head) != atomic_load(&d.tail) && irqkit_napi_schedule_prep(napi)) {
			atomic_store(&d.irq_on, false);
			irqkit_napi_schedule_prepped(napi);
		}
	}
	return done;
}

static int setup_poll(void)
{
	struct irqkit_config cfg = { .nr_irqs = 8, .nr_cpus = 1 };

	atomic_store(&d.head, 0);
	atomic_store(&d.tail, 0);
	atomic_store(&d.irq_on, true);
	d.efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (d.efd < 0 || irqkit_start(&cfg) || irqkit_fd_bind_eventfd(IRQ, d.efd))
		return -1;
	d.ndev = irqkit_alloc_netdev_dummy(sizeof(struct irqkit_napi_struct));
	if (!d.ndev)
		return -1;
	d.np = irqkit_netdev_priv(d.ndev);
	irqkit_netif_napi_add_weight(d.ndev, d.np, dev_poll, WEIGHT);
	irqkit_napi_enable(d.np);
	return irqkit_request_irq(IRQ, dev_irq, 0, "bench-dev", &d);
}

static void teardown_poll(void)
{
	irqkit_free_irq(IRQ, &d);
	irqkit_napi_disable(d.np);
	irqkit_free_netdev(d.ndev);
	irqkit_stop();
	close(d.efd);
}

/* Until the driver has reaped all that was posted. */
static void drain(void)
{
	while (atomic_load_explicit(&d.tail, memory_order_acquire) !=
	       atomic_load_explicit(&d.head, memory_order_relaxed))
		;
}

/* n events back to back: hardirqs per 1000 events, reported as the side's figure. */
static void saturate(long n, bool napi)
{
	unsigned long before;

	drain();
	d.napi = napi;
	d.work_ns = 1000;
	before = atomic_load(&d.hardirqs);
	for (long i = 0; i < n; i++)
		post();
	drain();
	d.work_ns = 0;
	bench_report_ns((double)(atomic_load(&d.hardirqs) - before) * 1000.0 / (double)n);
}

static void saturate_napi(long n)
{
	saturate(n, true);
}

static void saturate_plain(long n)
{
	saturate(n, false);
}

/* n events 200 us apart: post-to-reap, each a sample. */
static void sparse(long n, bool napi)
{
	double *v = malloc(sizeof(*v) * (size_t)n);

	if (!v)
		abort();
	drain();
	d.napi = napi;
	for (long i = 0; i < n; i++) {
		usleep(200);
		v[i] = -1;
		d.lat = &v[i];
		post();
		drain();
		d.lat = NULL;
	}
	bench_report_samples(v, (int)n);
	free(v);
}

static void sparse_napi(long n)
{
	sparse(n, true);
}

static void sparse_plain(long n)
{
	sparse(n, false);
}

/*
 * Busy polling: the bench's thread posts the event and polls for it with
 * napi_busy_loop, where the interrupt path (the floor: the sparse NAPI
 * side) waits for the CPU's dispatcher to wake, take the interrupt and run
 * NET_RX.  The interrupt still comes (the device's interrupt is on between
 * events) and may win the instance: as in Linux without prefer-busy-poll.
 */
static bool reaped_all(void *arg, unsigned long start)
{
	(void)start;
	return atomic_load_explicit(&d.tail, memory_order_acquire) == *(unsigned long *)arg;
}

static void busy_loop_side(long n, bool prefer)
{
	double *v = malloc(sizeof(*v) * (size_t)n);

	if (!v)
		abort();
	drain();
	d.napi = true;
	for (long i = 0; i < n; i++) {
		unsigned long want = atomic_load(&d.head) + 1;

		usleep(200);
		v[i] = -1;
		d.lat = &v[i];
		post();
		while (!reaped_all(&want, 0))
			irqkit_napi_busy_loop(d.np->napi_id, reaped_all, &want, prefer,
					      IRQKIT_BUSY_POLL_BUDGET);
		d.lat = NULL;
	}
	bench_report_samples(v, (int)n);
	free(v);
}

static void busy_side(long n)
{
	busy_loop_side(n, false);
}

/*
 * Prefer-busy-poll with deferral (2 polls, 1 ms apart, as an application
 * that busy polls sets them): the device's interrupt stays off between the
 * loops, so a post is a store, and the loop finds it.
 */
static void busy_prefer_side(long n)
{
	irqkit_netdev_set_defer_hard_irqs(d.ndev, 2);
	irqkit_netdev_set_gro_flush_timeout(d.ndev, 1000000);
	busy_loop_side(n, true);
	irqkit_netdev_set_defer_hard_irqs(d.ndev, 0);
	irqkit_netdev_set_gro_flush_timeout(d.ndev, 0);
	while (!atomic_load(&d.irq_on))
		usleep(100);	/* the deferral's last poll lets the interrupt back */
}

static const struct bench benches[] = {
	{ .name = "napi_saturated_irqs", .floor_name = "plain_saturated_irqs",
	  .subject = saturate_napi, .floor = saturate_plain, .target = 0,
	  .setup = setup_poll, .teardown = teardown_poll, .flags = BENCH_UNPINNED,
	  .unit = "irqs/1000 events" },
	{ .name = "napi_sparse_latency", .floor_name = "plain_sparse_latency",
	  .subject = sparse_napi, .floor = sparse_plain, .target = 1.10,
	  .setup = setup_poll, .teardown = teardown_poll,
	  .flags = BENCH_UNPINNED | BENCH_LATENCY, .fixed_n = 101, .unit = "ns" },
	{ .name = "busy_poll_latency", .floor_name = "napi_sparse_latency",
	  .subject = busy_side, .floor = sparse_napi, .target = 0,
	  .setup = setup_poll, .teardown = teardown_poll,
	  .flags = BENCH_UNPINNED | BENCH_LATENCY, .fixed_n = 101, .unit = "ns" },
	{ .name = "busy_poll_prefer_latency", .floor_name = "napi_sparse_latency",
	  .subject = busy_prefer_side, .floor = sparse_napi, .target = 0,
	  .setup = setup_poll, .teardown = teardown_poll,
	  .flags = BENCH_UNPINNED | BENCH_LATENCY, .fixed_n = 101, .unit = "ns" },
};

const struct bench_set bench_poll_set = { benches, sizeof(benches) / sizeof(benches[0]) };
