// SPDX-License-Identifier: MIT
/*
 * The tests of docs/testing-drivers.md: mydev (examples/testing/) in the
 * deterministic mode, under the lock validator, fault injection and an
 * exploration of where the interrupt can come, and the simulator.  Built
 * twice: test_mydev_fixed (the driver as it should be) and test_mydev_buggy
 * (-DMYDEV_BUG_IRQ_UNSAFE: its reader takes the ring lock with spin_lock()).
 */
#include "../harness.h"

#include <irqkit/explore.h>
#include <irqkit/fault.h>
#include <linux/delay.h>

#include "mydev.h"

#define IRQ	T_EDGE(5)

static struct mydev dev;
static struct mydev_hw hw;

static int setup(void **state)
{
	if (det_setup(state))
		return -1;
	memset(&hw, 0, sizeof(hw));
	spin_lock_init(&hw.hw_lock);
	return mydev_probe(&dev, &hw, IRQ);
}

static int teardown(void **state)
{
	mydev_remove(&dev);
	return det_teardown(state);
}

/* The deterministic unit test: the handler runs where the test raises. */
static void test_received_data_reaches_the_reader(void **state)
{
	unsigned char buf[16] = { 0 };

	(void)state;
	mydev_hw_receive(&hw, IRQ, (const unsigned char *)"hello", 5);
	assert_int_equal(dev.irqs, 1);
	assert_int_equal(dev.received, 5);		/* the tasklet ran at irq_exit */
	assert_int_equal(mydev_read(&dev, buf, sizeof(buf)), 5);
	assert_memory_equal(buf, "hello", 5);
#ifdef MYDEV_BUG_IRQ_UNSAFE
	/* the validator: the ring lock is taken in the handler and with interrupts on */
	assert_log_contains("WARNING: inconsistent lock state");
	assert_log_contains("inconsistent {IN-HARDIRQ-W} -> {HARDIRQ-ON-W} usage.");
	assert_log_contains(" (&dev->ring_lock), at: mydev_read");
#ifdef IRQKIT_TEST_LIBDW
	assert_log_contains("mydev_interrupt");	/* a static function: named through libdw */
#endif
#else
	assert_log_lacks("inconsistent");
#endif
}

/* Fault injection: a lost interrupt and a doubled one lose no data. */
static void test_a_lost_and_a_doubled_interrupt(void **state)
{
	struct irqkit_fault_attr drop = { .kind = IRQKIT_FAULT_DROP, .probability = 100, .times = 1 };
	struct irqkit_fault_attr twice = { .kind = IRQKIT_FAULT_DUPLICATE, .probability = 100,
					   .times = 1 };
	struct irqkit_fault_stats st;
	unsigned char buf[16] = { 0 };

	(void)state;
	assert_int_equal(irqkit_fault_inject(IRQ, &drop), 0);
	mydev_hw_receive(&hw, IRQ, (const unsigned char *)"ab", 2);	/* its interrupt is lost */
	assert_int_equal(dev.irqs, 0);
	mydev_hw_receive(&hw, IRQ, (const unsigned char *)"cd", 2);	/* this one drains both */
	assert_int_equal(dev.irqs, 1);
	assert_int_equal(irqkit_fault_inject(IRQ, &twice), 0);
	mydev_hw_receive(&hw, IRQ, (const unsigned char *)"ef", 2);	/* and it comes twice */
	assert_int_equal(dev.irqs, 2);
	assert_int_equal(dev.spurious, 1);			/* the second found nothing: IRQ_NONE */
	assert_int_equal(mydev_read(&dev, buf, sizeof(buf)), 6);
	assert_memory_equal(buf, "abcdef", 6);
	assert_int_equal(irqkit_fault_get_stats(IRQ, &st), 0);
	assert_int_equal(st.dropped, 1);
	assert_int_equal(st.duplicated, 1);
}

/*
 * Exploration: the device receives a byte at every point, in turn, where an
 * interrupt can come, while the driver starts, reads "abc" and stops; the
 * reader must get every byte.  The body turns the validator off (in the run's
 * own process), so what the exploration finds in the buggy driver is the
 * hang itself: the interrupt comes while mydev_read() holds the ring lock
 * with interrupts on, and the handler spins on it for ever.
 */
static unsigned int injected;

static void one_byte_arrives(void *arg)
{
	(void)arg;
	injected++;
	mydev_hw_receive(&hw, IRQ, (const unsigned char *)"x", 1);
}

static int read_abc(void *arg)
{
	unsigned char buf[64];
	unsigned int got = 0;

	(void)arg;
	irqkit_lockdep_off();
	injected = 0;
	if (setup(NULL))
		return -1;
	mydev_hw_receive(&hw, IRQ, (const unsigned char *)"abc", 3);
	for (int i = 0; i < 3; i++)
		got += mydev_read(&dev, buf + got, sizeof(buf) - got);
	teardown(NULL);
	got += mydev_read(&dev, buf + got, sizeof(buf) - got);	/* what came meanwhile */
	/* "abc" in order, with each injected "x" wherever it came */
	unsigned int k = 0, xs = 0;

	for (unsigned int i = 0; i < got; i++) {
		if (buf[i] == 'x')
			xs++;
		else if (k < 3 && buf[i] == "abc"[k])
			k++;
		else
			return 1;
	}
	return k == 3 && xs == injected ? 0 : 1;
}

static void test_exploration(void **state)
{
	struct irqkit_explore_cfg cfg = { .interrupt = one_byte_arrives, .timeout_ms = 3000 };
	struct irqkit_explore_result res;

	(void)state;
#ifdef MYDEV_BUG_IRQ_UNSAFE
	assert_int_equal(irqkit_explore(&cfg, read_abc, NULL, &res), 1);
	assert_non_null(strstr(res.why, "did not end within 3000 ms"));
	assert_non_null(strstr(res.schedule, "(spin_unlock from "));
#ifdef IRQKIT_TEST_LIBDW
	assert_non_null(strstr(res.schedule, "(spin_unlock from mydev_read+"));
#endif
#else
	assert_explore_passes(&cfg, read_abc, NULL);
	assert_int_equal(irqkit_explore(&cfg, read_abc, NULL, &res), 0);
	assert_true(res.points >= 2);	/* request_irq and free_irq: the reader keeps them out */
#endif
}

/*
 * The simulator: the device sends from CPU 1, the reader reads on CPU 0,
 * every thread one at a time in the order of a seed.
 */
static int device_sends(void *arg)
{
	(void)arg;
	for (int i = 0; i < 3; i++) {
		mydev_hw_receive(&hw, IRQ, (const unsigned char *)"abc" + i, 1);
		irqkit_sim_point();
	}
	return 0;
}

static int read_abc_simulated(void *arg)
{
	struct irqkit_thread *device;
	unsigned char buf[8];
	unsigned int got = 0;

	(void)arg;
	if (start_world_cfg((struct irqkit_config){ .nr_irqs = T_NR_IRQS, .nr_cpus = 2,
						    .mode = IRQKIT_MODE_SIM }))
		return -1;
	irqkit_lockdep_off();			/* find the hang itself, not the report */
	memset(&hw, 0, sizeof(hw));
	spin_lock_init(&hw.hw_lock);
	if (mydev_probe(&dev, &hw, IRQ) ||
	    irqkit_thread_start(&device, 1, "device", device_sends, NULL))
		return -1;
	while (got < 3) {
		unsigned int n = (unsigned int)mydev_read(&dev, buf + got, sizeof(buf) - got);

		if (!n)
			msleep(1);		/* virtual time: nothing waits on the host */
		got += n;
	}
	irqkit_thread_join(device);
	mydev_remove(&dev);
	irqkit_stop();
	return memcmp(buf, "abc", 3) != 0;
}

static void test_simulator(void **state)
{
	struct irqkit_explore_cfg cfg = { .random_runs = 100, .seed = 1, .timeout_ms = 20000 };
	struct irqkit_explore_result res;

	(void)state;
#ifdef MYDEV_BUG_IRQ_UNSAFE
	/* CPU 0's handler spins on the ring lock that the reader it interrupted holds */
	assert_int_equal(irqkit_explore(&cfg, read_abc_simulated, NULL, &res), 1);
	/* (the device, on CPU 1, may be spinning too: on the FIFO's lock the reader's CPU holds) */
	assert_non_null(strstr(res.why, "livelock: only spinning threads can run (vcpu/0"));
	assert_non_null(strstr(res.schedule, "seed "));
#else
	assert_explore_passes(&cfg, read_abc_simulated, NULL);
	assert_int_equal(irqkit_explore(&cfg, read_abc_simulated, NULL, &res), 0);
	assert_int_equal(res.runs, 101);
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_received_data_reaches_the_reader, setup, teardown),
		cmocka_unit_test_setup_teardown(test_a_lost_and_a_doubled_interrupt, setup, teardown),
		cmocka_unit_test(test_exploration),
		cmocka_unit_test(test_simulator),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
