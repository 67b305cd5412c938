// SPDX-License-Identifier: MIT
/*
 * A driver written as for current Linux, unchanged over irqkit: its probe
 * takes its memory and its line with devm_*, reads the device in a threaded
 * handler (IRQF_ONESHOT, the hard half only wakes the thread), and, on a
 * board that wires no interrupt to it, polls the device with an hrtimer
 * instead, whose callback (hardirq context) queues the same read as work.
 * Remove is the driver core's devres_release_all(): the line is freed after
 * its handlers, the poll timer cancelled by a managed action, the memory
 * freed last.
 *
 * The device is a FIFO of samples filled by a thread; in interrupt mode it
 * signals an eventfd bound to the line.  Both modes run; each must read
 * every sample once, in order.  Usage: example-modern-sensor [SAMPLES]
 */
#include <linux/device.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/ktime.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <linux/compiler.h>
#include <linux/errno.h>

#include <irqkit/irqkit.h>	/* irqkit_start, and the eventfd line that plays the wire */
#include <irqkit/fd.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <unistd.h>

#define SENSOR_IRQ	5
#define FIFO_SIZE	1024

/* ---- the device ------------------------------------------------------------------- */

struct fake_sensor {
	unsigned int	fifo[FIFO_SIZE];
	atomic_uint	head;		/* samples produced */
	atomic_uint	tail;		/* samples the driver took (its read pointer register) */
	int		efd;		/* the interrupt wire, or -1: none */
	unsigned int	samples;
};

static void *produce(void *arg)
{
	struct fake_sensor *hw = arg;
	const uint64_t one = 1;

	for (unsigned int i = 0; i < hw->samples; i++) {
		while (i - atomic_load(&hw->tail) >= FIFO_SIZE)
			usleep(50);			/* full: the driver is behind */
		hw->fifo[i % FIFO_SIZE] = i;
		atomic_store_explicit(&hw->head, i + 1, memory_order_release);
		if (hw->efd >= 0 && write(hw->efd, &one, sizeof(one)) != sizeof(one))
			abort();
		if (i % 8 == 7)
			usleep(100);
	}
	return NULL;
}

/* ---- the driver ------------------------------------------------------------------- */

struct sensor {
	struct fake_sensor	*hw;
	unsigned int		count, out_of_order, reads, polls;
	struct hrtimer		poll;
	struct work_struct	read_work;
};

/* Process context: the irq thread, or the work the poll queues (never both). */
static void sensor_read(struct sensor *s)
{
	unsigned int head = atomic_load_explicit(&s->hw->head, memory_order_acquire);
	unsigned int tail = atomic_load(&s->hw->tail);

	/* the counters are read by the board while the driver runs: READ_ONCE/WRITE_ONCE */
	for (; tail != head; tail++) {
		if (s->hw->fifo[tail % FIFO_SIZE] != tail)
			WRITE_ONCE(s->out_of_order, s->out_of_order + 1);
		WRITE_ONCE(s->count, s->count + 1);
	}
	WRITE_ONCE(s->reads, s->reads + 1);
	atomic_store(&s->hw->tail, tail);
}

static irqreturn_t sensor_hardirq(int irq, void *data)
{
	(void)irq;
	(void)data;
	return IRQ_WAKE_THREAD;		/* the line stays masked until the thread is done */
}

static irqreturn_t sensor_thread(int irq, void *data)
{
	(void)irq;
	sensor_read(data);
	return IRQ_HANDLED;
}

static void sensor_read_work(struct work_struct *w)
{
	sensor_read(container_of(w, struct sensor, read_work));
}

static enum hrtimer_restart sensor_poll(struct hrtimer *t)
{
	struct sensor *s = container_of(t, struct sensor, poll);

	WRITE_ONCE(s->polls, READ_ONCE(s->polls) + 1);
	if (atomic_load(&s->hw->tail) != atomic_load(&s->hw->head))
		schedule_work(&s->read_work);
	hrtimer_forward_now(t, ms_to_ktime(1));
	return HRTIMER_RESTART;
}

static void sensor_stop_poll(void *data)
{
	struct sensor *s = data;

	hrtimer_cancel(&s->poll);		/* first: it queues the work */
	cancel_work_sync(&s->read_work);
}

static int sensor_probe(struct device *dev, struct fake_sensor *hw, int irq)
{
	struct sensor *s = devm_kzalloc(dev, sizeof(*s), GFP_KERNEL);
	int ret;

	if (!s)
		return -ENOMEM;
	s->hw = hw;
	INIT_WORK(&s->read_work, sensor_read_work);
	hrtimer_setup(&s->poll, sensor_poll, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	dev_set_drvdata(dev, s);
	if (irq > 0)
		return devm_request_threaded_irq(dev, (unsigned int)irq, sensor_hardirq, sensor_thread,
						 IRQF_ONESHOT, NULL, s);
	pr_info("%s: no interrupt, polling every 1 ms\n", dev_name(dev));
	ret = devm_add_action_or_reset(dev, sensor_stop_poll, s);
	if (ret)
		return ret;
	hrtimer_start(&s->poll, ms_to_ktime(1), HRTIMER_MODE_REL);
	return 0;
}

/* ---- the board: probe, run, remove ------------------------------------------------ */

static int run(const char *name, bool wired, unsigned int samples)
{
	struct fake_sensor *hw = calloc(1, sizeof(*hw));
	struct device dev;
	struct sensor *s;
	pthread_t producer;
	unsigned int count, out_of_order, reads, polls;
	int ret;

	if (!hw)
		return 1;
	hw->samples = samples;
	hw->efd = wired ? eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK) : -1;
	device_initialize(&dev);
	dev_set_name(&dev, "%s", name);
	if (wired && (hw->efd < 0 || irqkit_fd_bind_eventfd(SENSOR_IRQ, hw->efd))) {
		fprintf(stderr, "%s: cannot wire the interrupt\n", name);
		return 1;
	}
	ret = sensor_probe(&dev, hw, wired ? SENSOR_IRQ : -ENXIO);
	if (ret) {
		fprintf(stderr, "%s: probe: %d\n", name, ret);
		return 1;
	}
	s = dev_get_drvdata(&dev);
	pthread_create(&producer, NULL, produce, hw);
	pthread_join(producer, NULL);
	for (int i = 0; i < 5000 && atomic_load(&hw->tail) != samples; i++)
		usleep(1000);
	count = READ_ONCE(s->count);
	out_of_order = READ_ONCE(s->out_of_order);
	reads = READ_ONCE(s->reads);
	polls = READ_ONCE(s->polls);
	devres_release_all(&dev);		/* remove: line, timer, memory, newest first */
	if (wired) {
		irqkit_fd_unbind(SENSOR_IRQ);
		close(hw->efd);
	}
	free(hw);
	if (wired)
		printf("%s: %u samples by interrupt, %u thread runs, %u out of order\n", name, count,
		       reads, out_of_order);
	else
		printf("%s: %u samples by polling, %u polls, %u reads, %u out of order\n", name,
		       count, polls, reads, out_of_order);
	return count == samples && !out_of_order ? 0 : 1;
}

int main(int argc, char **argv)
{
	struct irqkit_config cfg = { .nr_irqs = 16, .nr_cpus = 2 };
	unsigned int samples = argc > 1 ? (unsigned int)atoi(argv[1]) : 2000;
	int ret;

	if (irqkit_start(&cfg)) {
		fprintf(stderr, "irqkit_start failed\n");
		return 1;
	}
	ret = run("sensor0", true, samples);
	ret |= run("sensor1", false, samples);
	irqkit_stop();
	return ret;
}
