// SPDX-License-Identifier: MIT
/*
 * irqkit-demo: kernel-style drivers on virtual CPUs.
 *
 *  - eth0 and snd0 share edge line 5 and each claims only its own interrupts;
 *  - tmr0 ticks on edge line 7, routed to CPU 2;
 *  - disk0 and usb0 share level line 9; the disk's line gets stuck asserted and
 *    neither driver claims it: after 100,000 interrupts the kernel's "nobody
 *    cared" report appears and the line is disabled, while lines 5 and 7 are
 *    still served;
 *  - bottom halves: eth0's top half hands the packet to a tasklet, snd0's to a
 *    work item, and i2c0 (level line 11) has a threaded handler with
 *    IRQF_ONESHOT; each shows the context it runs in;
 *  - the run ends with /proc/interrupts.
 */
#define _GNU_SOURCE	/* pthread_getname_np */
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <irqkit/irqkit.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define IRQ_SHARED_EDGE	5
#define IRQ_TIMER	7
#define IRQ_STUCK	9
#define IRQ_I2C		11
#define DEMO_CPUS		3

/* A simulated device: a status register the handler reads and clears. */
struct device {
	const char	*name;
	atomic_uint	status;		/* nonzero: the device raised an interrupt */
	atomic_ulong	handled;	/* interrupts its driver claimed */
	spinlock_t	lock;		/* driver data shared with process context */
	unsigned long	bytes;		/* under lock */
};

static struct device eth0 = { .name = "eth0", .lock = __SPIN_LOCK_UNLOCKED(eth0.lock) };
static struct device snd0 = { .name = "snd0", .lock = __SPIN_LOCK_UNLOCKED(snd0.lock) };
static struct device tmr0 = { .name = "tmr0", .lock = __SPIN_LOCK_UNLOCKED(tmr0.lock) };
static struct device disk0 = { .name = "disk0", .lock = __SPIN_LOCK_UNLOCKED(disk0.lock) };
static struct device usb0 = { .name = "usb0", .lock = __SPIN_LOCK_UNLOCKED(usb0.lock) };

static struct device i2c0 = { .name = "i2c0", .lock = __SPIN_LOCK_UNLOCKED(i2c0.lock) };

static struct timespec t0;
static atomic_bool stop_devices;

/* Each bottom half says once where it runs. */
static void say_context(const char *who, atomic_bool *said)
{
	char thread[16];

	if (atomic_exchange(said, true))
		return;
	pthread_getname_np(pthread_self(), thread, sizeof(thread));
	printf("--- %-13s runs in %s context (in_irq %d, in_serving_softirq %d, in_task %d) "
	       "on CPU %d, thread %s\n", who,
	       in_irq() ? "hardirq" : in_serving_softirq() ? "softirq" : "process",
	       in_irq(), in_serving_softirq(), in_task(), smp_processor_id(), thread);
}

/* eth0's bottom half: a tasklet. */
static atomic_ulong eth0_packets;
static atomic_bool said_top, said_tasklet, said_work, said_thread;

static void eth0_rx(struct tasklet_struct *t)
{
	(void)t;
	say_context("eth0 tasklet", &said_tasklet);
	atomic_fetch_add(&eth0_packets, 1);
}
static DECLARE_TASKLET(eth0_tasklet, eth0_rx);

/* snd0's bottom half: a work item, process context. */
static atomic_ulong snd0_periods;

static void snd0_period(struct work_struct *work)
{
	(void)work;
	say_context("snd0 work item", &said_work);
	atomic_fetch_add(&snd0_periods, 1);
}
static DECLARE_WORK(snd0_work, snd0_period);

/* Every top half of this demo: claim the interrupt only if our device raised it. */
static irqreturn_t device_interrupt(int irq, void *dev_id)
{
	struct device *dev = dev_id;

	if (!atomic_exchange(&dev->status, 0))
		return IRQ_NONE;		/* shared line: not ours */
	spin_lock(&dev->lock);
	dev->bytes += 64;
	spin_unlock(&dev->lock);
	atomic_fetch_add(&dev->handled, 1);
	if (dev == &eth0) {
		say_context("eth0 top half", &said_top);
		tasklet_schedule(&eth0_tasklet);
	} else if (dev == &snd0) {
		schedule_work(&snd0_work);
	}
	return IRQ_HANDLED;
}

/* i2c0: the top half only checks; the thread talks to the slow device. */
static atomic_ulong i2c0_transfers;

static irqreturn_t i2c0_hardirq(int irq, void *dev_id)
{
	struct device *dev = dev_id;

	(void)irq;
	return atomic_load(&dev->status) ? IRQ_WAKE_THREAD : IRQ_NONE;
}

static irqreturn_t i2c0_thread(int irq, void *dev_id)
{
	struct device *dev = dev_id;

	say_context("i2c0 thread", &said_thread);
	usleep(200);				/* a slow bus transfer: fine here */
	atomic_store(&dev->status, 0);
	irqkit_sw_set_level((unsigned int)irq, false);	/* the device lets go of the line */
	atomic_fetch_add(&i2c0_transfers, 1);
	return IRQ_HANDLED;
}

/*
 * The disk driver has a bug: it reads the wrong status register, so it never
 * sees that its device is the one asserting the line.
 */
static irqreturn_t buggy_disk_interrupt(int irq, void *dev_id)
{
	struct device *dev = dev_id;

	(void)dev;
	return IRQ_NONE;
}

static double uptime(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0.tv_sec) + (double)(t.tv_nsec - t0.tv_nsec) / 1e9;
}

/* The kernel log, dmesg style. */
static void log_line(void *arg, int level, const char *line)
{
	(void)arg;
	(void)level;
	printf("[%12.6f] %s\n", uptime(), line);
}

/* A device model thread: sets its status bit and raises its edge line. */
struct pulse {
	struct device	*dev;
	unsigned int	irq;
	useconds_t	period_us;
};

static void *device_thread(void *arg)
{
	struct pulse *p = arg;

	while (!atomic_load(&stop_devices)) {
		atomic_store(&p->dev->status, 1);
		if (p->irq == IRQ_I2C)
			irqkit_sw_set_level(p->irq, true);	/* a level line */
		else
			irqkit_sw_raise(p->irq);
		usleep(p->period_us);
	}
	return NULL;
}

static void report(const char *when)
{
	printf("--- %s: eth0 %lu, snd0 %lu, tmr0 %lu interrupts handled\n", when,
	       atomic_load(&eth0.handled), atomic_load(&snd0.handled),
	       atomic_load(&tmr0.handled));
}

/* What the table's numbers mean, from the same counters. */
static void explain_table(void)
{
	struct irqkit_irq_info shared, stuck, i2c;
	struct irqkit_irq_events ev;
	unsigned long eth = atomic_load(&eth0.handled), snd = atomic_load(&snd0.handled);

	if (irqkit_irq_get_info(IRQ_SHARED_EDGE, &shared) ||
	    irqkit_irq_get_event_totals(IRQ_SHARED_EDGE, &ev) ||
	    irqkit_irq_get_info(IRQ_STUCK, &stuck) || irqkit_irq_get_info(IRQ_I2C, &i2c))
		return;
	printf("--- reading the table\n");
	printf("    line %d: %lu interrupts for %lu raises: %lu came while an edge was still\n"
	       "      latched and were folded into it (coalesced, as a real edge line loses\n"
	       "      them); one interrupt serves every device waiting on the shared line, so\n"
	       "      eth0 + snd0 = %lu + %lu = %lu handled%s\n",
	       IRQ_SHARED_EDGE, (unsigned long)shared.count,
	       (unsigned long)(shared.count + ev.coalesced), (unsigned long)ev.coalesced,
	       eth, snd, eth + snd, eth + snd > shared.count ? ", more than the interrupts" : "");
	printf("    line %d: %lu interrupts in all; the irqkit section's count and unhandled\n"
	       "      are note_interrupt's window, which the 100,000th interrupt closed\n"
	       "      (disabling the line), so they start again from 0\n",
	       IRQ_STUCK, (unsigned long)stuck.count);
	if (i2c.irq_count != i2c.count)
		printf("    line %d: %lu interrupts, %u in the window: a threaded handler's verdict\n"
		       "      is judged at the line's next interrupt, so the last is not counted yet\n",
		       IRQ_I2C, (unsigned long)i2c.count, i2c.irq_count);
}

static int check(int ret, const char *what)
{
	if (ret) {
		fprintf(stderr, "irqkit-demo: %s failed: %d\n", what, ret);
		exit(1);
	}
	return ret;
}

static void show_histograms(void)
{
	int n = irqkit_show_hist_buf(NULL, 0);
	char *buf = n > 0 ? malloc((size_t)n + 1) : NULL;

	if (!buf)
		return;
	irqkit_show_hist_buf(buf, (size_t)n + 1);
	printf("--- latency histograms (nanoseconds; raise to handler, handler time, bottom halves)\n%s",
	       buf);
	free(buf);
}

static void usage(void)
{
	fprintf(stderr, "usage: irqkit-demo [--trace FILE] [--hist]\n"
		"  --trace FILE  record a timeline, write it to FILE (Chrome trace JSON: open it in\n"
		"                https://ui.perfetto.dev or chrome://tracing)\n"
		"  --hist        print the latency histograms at the end\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *trace = NULL;
	bool hist = false;
	struct irqkit_config cfg = {
		.nr_irqs = 16, .nr_cpus = DEMO_CPUS, .log = log_line,
	};
	struct pulse pulses[] = {
		{ &eth0, IRQ_SHARED_EDGE, 700 },
		{ &snd0, IRQ_SHARED_EDGE, 1100 },
		{ &tmr0, IRQ_TIMER, 1000 },
		{ &i2c0, IRQ_I2C, 3000 },
	};
	pthread_t threads[4];
	struct irqkit_irq_info info;
	unsigned long before_eth, before_tmr;
	int waited_ms = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--trace") && i + 1 < argc)
			trace = argv[++i];
		else if (!strcmp(argv[i], "--hist"))
			hist = true;
		else
			usage();
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	check(irqkit_start(&cfg), "irqkit_start");
	if (trace)	/* rings of 2^18 events: the stuck line alone raises 100,000 */
		check(irqkit_trace_start(1u << 18), "irqkit_trace_start");
	if (hist)
		check(irqkit_hist_enable(true), "irqkit_hist_enable");
	check(irqkit_swchip_add(IRQ_SHARED_EDGE, 1, IRQ_TYPE_EDGE_RISING), "swchip_add 5");
	check(irqkit_swchip_add(IRQ_TIMER, 1, IRQ_TYPE_EDGE_RISING), "swchip_add 7");
	check(irqkit_swchip_add(IRQ_STUCK, 1, IRQ_TYPE_LEVEL_HIGH), "swchip_add 9");
	check(irqkit_swchip_add(IRQ_I2C, 1, IRQ_TYPE_LEVEL_HIGH), "swchip_add 11");
	check(irq_set_affinity(IRQ_SHARED_EDGE, cpumask_of(0)), "affinity 5");
	check(irq_set_affinity(IRQ_TIMER, cpumask_of(2)), "affinity 7");
	check(irq_set_affinity(IRQ_STUCK, cpumask_of(1)), "affinity 9");

	printf("irqkit demo: %d virtual CPUs; eth0+snd0 share line %d, tmr0 on line %d, "
	       "disk0+usb0 share level line %d, i2c0 has a threaded handler on line %d\n",
	       DEMO_CPUS, IRQ_SHARED_EDGE, IRQ_TIMER, IRQ_STUCK, IRQ_I2C);
	check(request_irq(IRQ_SHARED_EDGE, device_interrupt, IRQF_SHARED, "eth0", &eth0),
	      "request eth0");
	check(request_irq(IRQ_SHARED_EDGE, device_interrupt, IRQF_SHARED, "snd0", &snd0),
	      "request snd0");
	check(request_irq(IRQ_TIMER, device_interrupt, 0, "tmr0", &tmr0), "request tmr0");
	check(request_irq(IRQ_STUCK, buggy_disk_interrupt, IRQF_SHARED, "disk0", &disk0),
	      "request disk0");
	check(request_irq(IRQ_STUCK, device_interrupt, IRQF_SHARED, "usb0", &usb0), "request usb0");
	check(request_threaded_irq(IRQ_I2C, i2c0_hardirq, i2c0_thread, IRQF_ONESHOT, "i2c0", &i2c0),
	      "request i2c0");

	for (int i = 0; i < 4; i++)
		pthread_create(&threads[i], NULL, device_thread, &pulses[i]);
	usleep(200 * 1000);
	report("devices running");

	printf("--- disk0 asserts line %d and never lets go; its driver does not notice\n",
	       IRQ_STUCK);
	irqkit_sw_set_level(IRQ_STUCK, true);
	for (;;) {
		irqkit_irq_get_info(IRQ_STUCK, &info);
		if (info.spurious_disabled || waited_ms >= 20000)
			break;
		usleep(10 * 1000);
		waited_ms += 10;
	}
	if (!info.spurious_disabled) {
		fprintf(stderr, "irqkit-demo: line %d was not disabled\n", IRQ_STUCK);
		return 1;
	}
	printf("--- line %d: disabled as spurious, depth %u, %lu interrupts taken\n", IRQ_STUCK,
	       info.depth, (unsigned long)info.count);

	before_eth = atomic_load(&eth0.handled);
	before_tmr = atomic_load(&tmr0.handled);
	usleep(300 * 1000);
	report("300 ms later");
	if (atomic_load(&eth0.handled) <= before_eth || atomic_load(&tmr0.handled) <= before_tmr) {
		fprintf(stderr, "irqkit-demo: the other lines stopped being served\n");
		return 1;
	}
	printf("--- lines %d and %d are still served\n", IRQ_SHARED_EDGE, IRQ_TIMER);

	atomic_store(&stop_devices, true);
	for (int i = 0; i < 4; i++)
		pthread_join(threads[i], NULL);
	synchronize_irq(IRQ_I2C);
	tasklet_kill(&eth0_tasklet);
	flush_work(&snd0_work);
	printf("--- bottom halves: %lu eth0 tasklet runs, %lu snd0 work runs, %lu i2c0 thread runs\n"
	       "    (scheduling a tasklet or work item that is still pending does not queue it twice)\n",
	       atomic_load(&eth0_packets), atomic_load(&snd0_periods),
	       atomic_load(&i2c0_transfers));
	if (!atomic_load(&eth0_packets) || !atomic_load(&snd0_periods) ||
	    !atomic_load(&i2c0_transfers)) {
		fprintf(stderr, "irqkit-demo: a bottom half never ran\n");
		return 1;
	}
	printf("--- /proc/interrupts\n");
	irqkit_show_interrupts(stdout, IRQKIT_SHOW_IRQKIT);
	explain_table();
	if (hist)
		show_histograms();
	if (trace) {
		long n = irqkit_trace_write(trace);

		if (n < 0) {
			fprintf(stderr, "irqkit-demo: writing the trace to %s: %s\n", trace,
				strerror((int)-n));
			return 1;
		}
		printf("--- timeline: %ld events in %s (open it in https://ui.perfetto.dev)\n",
		       n, trace);
	}

	free_irq(IRQ_I2C, &i2c0);
	free_irq(IRQ_STUCK, &usb0);
	free_irq(IRQ_STUCK, &disk0);
	free_irq(IRQ_TIMER, &tmr0);
	free_irq(IRQ_SHARED_EDGE, &snd0);
	free_irq(IRQ_SHARED_EDGE, &eth0);
	irqkit_stop();
	return 0;
}
