// SPDX-License-Identifier: MIT
/*
 * A sensor driver with a kernel thread and a blocking read, in kernel style:
 * the kthread polls the sensor every 10 ms (it has no interrupt of its own
 * for "conversion done", so it starts one and the device interrupts when it
 * is done); the handler stores the sample and wakes the readers; read()
 * sleeps interruptibly until a sample comes, and a signal ends it with
 * -ERESTARTSYS, as a driver's read on Linux.  main() routes SIGINT into
 * irqkit's signals, so Ctrl-C ends the blocked read.
 *
 *   example-kthread-reader          read until Ctrl-C
 *   example-kthread-reader --auto   after 5 samples, send itself SIGINT
 *
 * Exits 0 when the read ended with -ERESTARTSYS for SIGINT, kthread_stop()
 * returned the kthread's count of conversions, and at least one sample
 * was read.
 */
#include <linux/interrupt.h>
#include <linux/kthread.h>
#include <linux/sched/signal.h>
#include <linux/signal.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/delay.h>
#include <linux/atomic.h>
#include <irqkit/irqkit.h>	/* irqkit_start, the software line that plays the sensor */

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define SENSOR_IRQ	6

struct sensor {
	spinlock_t		lock;
	unsigned int		sample;		/* the last conversion, lock */
	bool			fresh;		/* not read yet, lock */
	unsigned int		hw_value;	/* the "device": what the next conversion gives */
	wait_queue_head_t	readq;
	struct task_struct	*poller;
};

static struct sensor sensor;
static atomic_t samples_read = ATOMIC_INIT(0);

static irqreturn_t sensor_interrupt(int irq, void *dev_id)
{
	struct sensor *s = dev_id;

	(void)irq;
	spin_lock(&s->lock);
	s->sample = s->hw_value;
	WRITE_ONCE(s->fresh, true);	/* read locklessly by the wait condition */
	spin_unlock(&s->lock);
	wake_up_interruptible(&s->readq);
	return IRQ_HANDLED;
}

/* The polling kthread: start a conversion every 10 ms until stopped. */
static int sensor_poll(void *data)
{
	struct sensor *s = data;
	int conversions = 0;

	while (!kthread_should_stop()) {
		unsigned long flags;

		spin_lock_irqsave(&s->lock, flags);
		s->hw_value = 1000 + (unsigned int)conversions * 7;	/* the device converts */
		spin_unlock_irqrestore(&s->lock, flags);
		irqkit_sw_raise(SENSOR_IRQ);				/* and interrupts */
		conversions++;
		msleep_interruptible(10);
	}
	return conversions;
}

/* read(): the next sample; -ERESTARTSYS when a signal comes first. */
static long sensor_read(struct sensor *s, unsigned int *out)
{
	unsigned long flags;
	int ret;

	ret = wait_event_interruptible(s->readq, READ_ONCE(s->fresh));
	if (ret)
		return ret;
	spin_lock_irqsave(&s->lock, flags);
	*out = s->sample;
	WRITE_ONCE(s->fresh, false);
	spin_unlock_irqrestore(&s->lock, flags);
	return sizeof(*out);
}

static void *press_ctrl_c(void *arg)
{
	(void)arg;
	while (atomic_read(&samples_read) < 5)
		usleep(1000);
	printf("sending SIGINT, as Ctrl-C would\n");
	kill(getpid(), SIGINT);
	return NULL;
}

int main(int argc, char **argv)
{
	struct irqkit_config cfg = { .nr_irqs = 16, .nr_cpus = 2 };
	bool automatic = argc > 1 && !strcmp(argv[1], "--auto");
	unsigned int value = 0, samples = 0;
	pthread_t presser;
	long ret;
	int sig, conversions;

	if (irqkit_start(&cfg) || irqkit_swchip_add(SENSOR_IRQ, 1, IRQKIT_TYPE_EDGE_RISING)) {
		fprintf(stderr, "irqkit_start failed\n");
		return 1;
	}
	/* Ctrl-C becomes a signal to every task that is not a kernel thread */
	if (irqkit_route_signal(SIGINT)) {
		fprintf(stderr, "irqkit_route_signal failed\n");
		return 1;
	}
	spin_lock_init(&sensor.lock);
	init_waitqueue_head(&sensor.readq);
	if (request_irq(SENSOR_IRQ, sensor_interrupt, 0, "sensor", &sensor))
		return 1;
	sensor.poller = kthread_run(sensor_poll, &sensor, "sensor-poll");
	if (IS_ERR(sensor.poller))
		return 1;
	if (automatic)
		pthread_create(&presser, NULL, press_ctrl_c, NULL);
	else
		printf("reading the sensor; Ctrl-C to stop\n");

	/* the user's read loop: as a process blocked in read(2) on the device */
	while ((ret = sensor_read(&sensor, &value)) > 0) {
		samples++;
		atomic_inc(&samples_read);
		printf("sample %u: %u\n", samples, value);
	}
	sig = kernel_dequeue_signal();	/* taken, as the kernel does on its way back */
	printf("read ended: %ld (%s) by signal %d\n", ret,
	       ret == -ERESTARTSYS ? "-ERESTARTSYS" : "?", sig);

	if (automatic)
		pthread_join(presser, NULL);
	conversions = kthread_stop(sensor.poller);
	printf("kthread_stop: %d conversions\n", conversions);
	free_irq(SENSOR_IRQ, &sensor);
	irqkit_unroute_signal(SIGINT);
	irqkit_stop();
	return ret == -ERESTARTSYS && sig == SIGINT && samples > 0 && conversions >= (int)samples
	       ? 0 : 1;
}
