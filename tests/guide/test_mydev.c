// SPDX-License-Identifier: MIT
/*
 * The tests of docs/testing-drivers.md: mydev (examples/testing/) in the
 * deterministic mode, under the lock validator and fault injection.  Built
 * twice: test_mydev_fixed (the driver as it should be) and test_mydev_buggy
 * (-DMYDEV_BUG_IRQ_UNSAFE: its reader takes the ring lock with spin_lock()).
 */
#include "../harness.h"

#include <irqkit/fault.h>

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_received_data_reaches_the_reader, setup, teardown),
		cmocka_unit_test_setup_teardown(test_a_lost_and_a_doubled_interrupt, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
