// SPDX-License-Identifier: MIT
/*
 * CPU hotplug in KUnit, as a kernel developer tests a driver's hotplug
 * handling: remove_cpu()/add_cpu() and Linux's answers, a line that moves
 * off a CPU going offline and is still served, and a driver's per-CPU
 * state kept by a dynamic hotplug state's callbacks.  Each case gets a
 * fresh runtime; run with --cpus=3.
 */
#include <kunit/test.h>

#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/module.h>
#include <linux/nodemask.h>

#include <irqkit/irqkit.h>

#define LINE	5

static void cpu_hotplug_answers(struct kunit *test)
{
	/* the checks a kernel test makes before it unplugs (as kernel/irq/irq_test.c) */
	if (!IS_ENABLED(CONFIG_SMP))
		kunit_skip(test, "requires CONFIG_SMP");
	if (!get_cpu_device(1) || !cpu_is_hotpluggable(1))
		kunit_skip(test, "CPU 1 must be hotpluggable");
	KUNIT_EXPECT_FALSE(test, IS_ENABLED(CONFIG_NOT_AN_OPTION));
	KUNIT_EXPECT_EQ(test, NUMA_NO_NODE, -1);
	KUNIT_EXPECT_NULL(test, get_cpu_device(64));
	if (num_online_cpus() < 3)
		kunit_skip(test, "needs 3 CPUs (--cpus=3)");
	KUNIT_EXPECT_TRUE(test, cpu_is_hotpluggable(1));
	KUNIT_EXPECT_EQ(test, remove_cpu(1), 0);
	KUNIT_EXPECT_FALSE(test, cpu_online(1));
	KUNIT_EXPECT_EQ(test, num_online_cpus(), 2);
	KUNIT_EXPECT_EQ(test, remove_cpu(1), 1);
	KUNIT_EXPECT_EQ(test, remove_cpu(2), 0);
	KUNIT_EXPECT_EQ(test, remove_cpu(0), -EBUSY);
	KUNIT_EXPECT_EQ(test, add_cpu(1), 0);
	KUNIT_EXPECT_EQ(test, add_cpu(1), 1);
	KUNIT_EXPECT_EQ(test, add_cpu(2), 0);
	KUNIT_EXPECT_EQ(test, num_online_cpus(), 3);
}

static atomic_t served;
static int served_on = -1;

static irqreturn_t line_handler(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	WRITE_ONCE(served_on, smp_processor_id());
	atomic_inc(&served);
	return IRQ_HANDLED;
}

static void line_moves_off_an_offline_cpu(struct kunit *test)
{
	atomic_set(&served, 0);
	KUNIT_ASSERT_EQ(test, irqkit_swchip_add(LINE, 1, IRQKIT_TYPE_EDGE_RISING), 0);
	KUNIT_ASSERT_EQ(test, request_irq(LINE, line_handler, 0, "hp", test), 0);
	KUNIT_ASSERT_EQ(test, irq_set_affinity(LINE, cpumask_of(1)), 0);
	KUNIT_ASSERT_EQ(test, remove_cpu(1), 0);
	KUNIT_ASSERT_EQ(test, irqkit_sw_raise(LINE), 0);
	KUNIT_ASSERT_EQ(test, irqkit_wait_delivered(LINE, 5000), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&served), 1);
	KUNIT_EXPECT_NE(test, READ_ONCE(served_on), 1);
	KUNIT_EXPECT_EQ(test, irq_set_affinity(LINE, cpumask_of(1)), -EINVAL);
	KUNIT_EXPECT_EQ(test, add_cpu(1), 0);
	free_irq(LINE, test);
}

/* A driver's per-CPU buffers, made when a CPU comes up and freed before it goes. */
static void *buffers[8];

static int drv_cpu_online(unsigned int cpu)
{
	buffers[cpu] = kzalloc(64, GFP_KERNEL);
	return buffers[cpu] ? 0 : -ENOMEM;
}

static int drv_cpu_offline(unsigned int cpu)
{
	kfree(buffers[cpu]);
	buffers[cpu] = NULL;
	return 0;
}

static void dynamic_state_keeps_per_cpu_state(struct kunit *test)
{
	int state, cpu;

	state = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "drv:online", drv_cpu_online,
				  drv_cpu_offline);
	KUNIT_ASSERT_GT(test, state, 0);
	for_each_online_cpu(cpu)
		KUNIT_EXPECT_NOT_NULL(test, buffers[cpu]);
	KUNIT_ASSERT_EQ(test, remove_cpu(1), 0);
	KUNIT_EXPECT_NULL(test, buffers[1]);
	KUNIT_EXPECT_NOT_NULL(test, buffers[0]);
	KUNIT_ASSERT_EQ(test, add_cpu(1), 0);
	KUNIT_EXPECT_NOT_NULL(test, buffers[1]);
	cpuhp_remove_state(state);
	for_each_possible_cpu(cpu)
		KUNIT_EXPECT_NULL(test, buffers[cpu]);
}

static unsigned int depth_of(struct kunit *test, unsigned int irq)
{
	struct irqkit_irq_info info;

	KUNIT_ASSERT_EQ(test, irqkit_irq_get_info(irq, &info), 0);
	return info.depth;
}

/* The kernel's irq_cpuhotplug_test sequence, through irqkit's managed affinity. */
static void managed_line_disabled_across_hotplug(struct kunit *test)
{
	struct irq_affinity_desc affinity = { .is_managed = 1 };
	struct irq_data *data;

	cpumask_copy(&affinity.mask, cpumask_of(1));
	KUNIT_ASSERT_EQ(test, irqkit_swchip_add(LINE, 1, IRQKIT_TYPE_EDGE_RISING), 0);
	KUNIT_ASSERT_EQ(test, irqkit_irq_set_affinity_desc(LINE, &affinity), 0);
	data = irq_get_irq_data(LINE);
	KUNIT_ASSERT_NOT_NULL(test, data);
	KUNIT_ASSERT_EQ(test, request_irq(LINE, line_handler, 0, "test_irq", test), 0);
	KUNIT_EXPECT_TRUE(test, irqd_is_activated(data));
	KUNIT_EXPECT_TRUE(test, irqd_is_started(data));
	KUNIT_EXPECT_TRUE(test, irqd_affinity_is_managed(data));
	KUNIT_EXPECT_EQ(test, depth_of(test, LINE), 0);
	disable_irq(LINE);
	KUNIT_EXPECT_EQ(test, depth_of(test, LINE), 1);
	KUNIT_EXPECT_EQ(test, remove_cpu(1), 0);
	KUNIT_EXPECT_FALSE(test, irqd_is_activated(data));
	KUNIT_EXPECT_FALSE(test, irqd_is_started(data));
	KUNIT_EXPECT_TRUE(test, irqd_is_managed_and_shutdown(data));
	KUNIT_EXPECT_GE(test, depth_of(test, LINE), 1);
	KUNIT_EXPECT_EQ(test, add_cpu(1), 0);
	KUNIT_EXPECT_FALSE(test, irqd_is_activated(data));
	KUNIT_EXPECT_FALSE(test, irqd_is_started(data));
	KUNIT_EXPECT_EQ(test, depth_of(test, LINE), 1);
	enable_irq(LINE);
	KUNIT_EXPECT_TRUE(test, irqd_is_activated(data));
	KUNIT_EXPECT_TRUE(test, irqd_is_started(data));
	KUNIT_EXPECT_EQ(test, depth_of(test, LINE), 0);
	free_irq(LINE, test);
}

static struct kunit_case cpu_hotplug_cases[] = {
	KUNIT_CASE(cpu_hotplug_answers),
	KUNIT_CASE(line_moves_off_an_offline_cpu),
	KUNIT_CASE(dynamic_state_keeps_per_cpu_state),
	KUNIT_CASE(managed_line_disabled_across_hotplug),
	{}
};

static struct kunit_suite cpu_hotplug_suite = {
	.name = "irqkit_cpu_hotplug",
	.test_cases = cpu_hotplug_cases,
};

kunit_test_suite(cpu_hotplug_suite);
MODULE_DESCRIPTION("CPU hotplug tests");
MODULE_LICENSE("MIT");
