// SPDX-License-Identifier: MIT
/*
 * The descriptor as genirq's own tests reach it: lines numbered by
 * irq_domain_alloc_descs(), a chip written against Linux's struct irq_chip
 * (irq_set_affinity with a const struct cpumask *), struct irq_desc read
 * directly (depth under its lock, irq_data), the private steps of
 * "internals.h" (shutdown and deactivate, activate, managed startup) and
 * the cpumask helpers.  Built with -iquote on the documented internals
 * folder; each case gets a fresh runtime; run with 2 CPUs or more.
 */
#include <kunit/test.h>

#include <linux/cleanup.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irqdesc.h>
#include <linux/irqdomain.h>
#include <linux/nodemask.h>

#include "internals.h"

/* A chip that only counts what the core asks of it. */
static atomic_t startups, shutdowns, unmasks, affinities;

static unsigned int probe_startup(struct irq_data *d)
{
	(void)d;
	atomic_inc(&startups);
	return 0;
}
static void probe_shutdown(struct irq_data *d)
{
	(void)d;
	atomic_inc(&shutdowns);
}
static void probe_unmask(struct irq_data *d)
{
	(void)d;
	atomic_inc(&unmasks);
}
static void probe_nop(struct irq_data *d)
{
	(void)d;
}
static int probe_set_affinity(struct irq_data *d, const struct cpumask *dest, bool force)
{
	(void)force;
	atomic_inc(&affinities);
	irq_data_update_effective_affinity(d, dest);
	return 0;
}

static struct irq_chip probe_chip = {
	.name			= "probe",
	.irq_startup		= probe_startup,
	.irq_shutdown		= probe_shutdown,
	.irq_mask		= probe_nop,
	.irq_unmask		= probe_unmask,
	.irq_ack		= probe_nop,
	.irq_set_affinity	= probe_set_affinity,
	.flags			= IRQCHIP_SKIP_SET_WAKE,
};

static irqreturn_t quiet_handler(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	return IRQ_HANDLED;
}

static int counters_init(struct kunit *test)
{
	(void)test;
	atomic_set(&startups, 0);
	atomic_set(&shutdowns, 0);
	atomic_set(&unmasks, 0);
	atomic_set(&affinities, 0);
	return 0;
}

/* A line of the probe chip, requestable, as a chip driver sets one up. */
static int probe_line(struct kunit *test, struct irq_affinity_desc *affd)
{
	int virq = irq_domain_alloc_descs(-1, 1, 0, NUMA_NO_NODE, affd);

	KUNIT_ASSERT_GT(test, virq, 0);
	irq_set_chip_and_handler(virq, &probe_chip, handle_simple_irq);
	irq_settings_clr_norequest(irq_to_desc(virq));
	return virq;
}

static unsigned int depth_locked(struct irq_desc *desc)
{
	guard(raw_spinlock_irqsave)(&desc->lock);
	return desc->depth;
}

/* ---- numbering lines ----------------------------------------------------------------- */

static void alloc_descs_hands_out_free_lines(struct kunit *test)
{
	int a, b, c;

	a = irq_domain_alloc_descs(-1, 2, 0, NUMA_NO_NODE, NULL);
	KUNIT_ASSERT_GT(test, a, 0);			/* never line 0 */
	b = irq_domain_alloc_descs(-1, 1, 0, NUMA_NO_NODE, NULL);
	KUNIT_EXPECT_EQ(test, b, a + 2);		/* the next free one */
	/* a line wanted by number that is taken */
	KUNIT_EXPECT_EQ(test, irq_domain_alloc_descs(a, 1, 0, NUMA_NO_NODE, NULL), -EEXIST);
	/* lines a chip took by number are not free either */
	KUNIT_ASSERT_EQ(test, irq_alloc_desc_at(b + 1, NUMA_NO_NODE), b + 1);
	irq_set_chip_and_handler(b + 2, &probe_chip, handle_simple_irq);
	c = irq_alloc_desc(NUMA_NO_NODE);
	KUNIT_EXPECT_EQ(test, c, b + 3);
	/* freed lines come back, as they were allocated */
	irq_free_descs(a, 2);
	KUNIT_EXPECT_EQ(test, irq_domain_alloc_descs(-1, 2, 0, NUMA_NO_NODE, NULL), a);
	KUNIT_EXPECT_PTR_EQ(test, irq_desc_get_chip(irq_to_desc(a)), &no_irq_chip);
	KUNIT_EXPECT_EQ(test, irq_to_desc(a)->depth, 1);
	/* bad requests */
	KUNIT_EXPECT_EQ(test, irq_alloc_descs(-1, 1, 0, NUMA_NO_NODE), -EINVAL);
	KUNIT_EXPECT_EQ(test, irq_alloc_descs(3, 4, 1, NUMA_NO_NODE), -EINVAL);
	KUNIT_EXPECT_EQ(test, irq_alloc_descs(100000, 100000, 1, NUMA_NO_NODE), -EINVAL);
	KUNIT_EXPECT_EQ(test, irq_alloc_descs(-1, 1, irqkit_nr_irqs() - 1, NUMA_NO_NODE),
			-ENOMEM);
	KUNIT_EXPECT_NULL(test, irq_to_desc(100000));
}

static void alloc_descs_gives_each_line_its_affinity(struct kunit *test)
{
	struct irq_affinity_desc affd[2] = { { .is_managed = 1 }, { .is_managed = 0 } };
	int virq;

	cpumask_copy(&affd[0].mask, cpumask_of(1));
	cpumask_copy(&affd[1].mask, cpu_possible_mask);
	virq = irq_domain_alloc_descs(-1, 2, 7, NUMA_NO_NODE, affd);
	KUNIT_ASSERT_EQ(test, virq, 7);			/* the hwirq is the hint */
	KUNIT_EXPECT_TRUE(test, irqd_affinity_is_managed(irq_get_irq_data(7)));
	KUNIT_EXPECT_FALSE(test, irqd_affinity_is_managed(irq_get_irq_data(8)));
	KUNIT_EXPECT_TRUE(test, cpumask_equal(irq_data_get_affinity_mask(irq_get_irq_data(7)),
					      cpumask_of(1)));
}

/* ---- the descriptor read directly ---------------------------------------------------- */

static void depth_nests_and_survives_free(struct kunit *test)
{
	int virq = probe_line(test, NULL);
	struct irq_desc *desc = irq_to_desc(virq);
	struct irq_data *data = irq_desc_get_irq_data(desc);

	KUNIT_ASSERT_PTR_EQ(test, data, irq_get_irq_data(virq));
	KUNIT_EXPECT_EQ(test, desc->depth, 1);		/* allocated lines start disabled */
	KUNIT_EXPECT_FALSE(test, irqd_is_started(data));
	KUNIT_ASSERT_EQ(test, request_irq(virq, quiet_handler, 0, "probe", NULL), 0);
	KUNIT_EXPECT_TRUE(test, irqd_is_started(data));
	KUNIT_EXPECT_TRUE(test, irqd_is_activated(data));
	KUNIT_EXPECT_EQ(test, atomic_read(&startups), 1);
	KUNIT_EXPECT_EQ(test, depth_locked(desc), 0);
	disable_irq(virq);
	disable_irq_nosync(virq);
	KUNIT_EXPECT_EQ(test, depth_locked(desc), 2);
	enable_irq(virq);
	KUNIT_EXPECT_EQ(test, depth_locked(desc), 1);
	free_irq(virq, NULL);				/* freed while disabled */
	KUNIT_EXPECT_GE(test, depth_locked(desc), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&shutdowns), 1);
	KUNIT_ASSERT_EQ(test, request_irq(virq, quiet_handler, 0, "probe", NULL), 0);
	KUNIT_EXPECT_EQ(test, depth_locked(desc), 0);	/* a request starts it afresh */
	KUNIT_EXPECT_EQ(test, atomic_read(&startups), 2);
	free_irq(virq, NULL);
}

static void internals_shut_down_and_start_a_managed_line(struct kunit *test)
{
	struct irq_affinity_desc affd = { .is_managed = 1, .mask = CPU_MASK_ALL };
	int virq = probe_line(test, &affd);
	struct irq_desc *desc = irq_to_desc(virq);
	struct irq_data *data = irq_desc_get_irq_data(desc);

	KUNIT_ASSERT_EQ(test, request_irq(virq, quiet_handler, 0, "probe", NULL), 0);
	KUNIT_EXPECT_TRUE(test, irqd_affinity_is_managed(data));
	/* not disabled this time: the shutdown alone counts as one disable */
	scoped_guard(raw_spinlock_irqsave, &desc->lock)
		irq_shutdown_and_deactivate(desc);
	KUNIT_EXPECT_FALSE(test, irqd_is_started(data));
	KUNIT_EXPECT_FALSE(test, irqd_is_activated(data));
	KUNIT_EXPECT_EQ(test, desc->depth, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&shutdowns), 1);
	KUNIT_EXPECT_EQ(test, irq_activate(desc), 0);
	KUNIT_EXPECT_TRUE(test, irqd_is_activated(data));
	KUNIT_EXPECT_FALSE(test, irqd_is_started(data));
	irq_startup_managed(desc);			/* depth 1 -> 0: it starts */
	KUNIT_EXPECT_EQ(test, desc->depth, 0);
	KUNIT_EXPECT_TRUE(test, irqd_is_started(data));
	KUNIT_EXPECT_EQ(test, atomic_read(&startups), 2);
	/* the same step with the lock held by the caller */
	scoped_guard(raw_spinlock_irqsave, &desc->lock) {
		irq_shutdown_and_deactivate(desc);
		KUNIT_EXPECT_EQ(test, irq_activate(desc), 0);
		irq_startup_managed(desc);
	}
	KUNIT_EXPECT_TRUE(test, irqd_is_started(data));
	KUNIT_EXPECT_EQ(test, desc->depth, 0);
	free_irq(virq, NULL);
}

static void managed_line_waits_for_its_cpu(struct kunit *test)
{
	struct irq_affinity_desc affd = { .is_managed = 1 };
	struct irq_data *data;
	int virq;

	if (!get_cpu_device(1) || !cpu_is_hotpluggable(1))
		kunit_skip(test, "CPU 1 must be hotpluggable");
	cpumask_copy(&affd.mask, cpumask_of(1));
	virq = probe_line(test, &affd);
	data = irq_get_irq_data(virq);
	KUNIT_ASSERT_EQ(test, request_irq(virq, quiet_handler, 0, "probe", NULL), 0);
	KUNIT_EXPECT_TRUE(test, cpumask_equal(irq_data_get_effective_affinity_mask(data),
					      cpumask_of(1)));
	KUNIT_EXPECT_GE(test, atomic_read(&affinities), 1);
	/* enabled this time: the CPU's return starts it again by itself */
	KUNIT_ASSERT_EQ(test, remove_cpu(1), 0);
	KUNIT_EXPECT_TRUE(test, irqd_is_managed_and_shutdown(data));
	KUNIT_EXPECT_EQ(test, irq_to_desc(virq)->depth, 1);
	KUNIT_ASSERT_EQ(test, add_cpu(1), 0);
	KUNIT_EXPECT_FALSE(test, irqd_is_managed_and_shutdown(data));
	KUNIT_EXPECT_TRUE(test, irqd_is_started(data));
	KUNIT_EXPECT_EQ(test, irq_to_desc(virq)->depth, 0);
	free_irq(virq, NULL);
}

/* ---- cpumask ------------------------------------------------------------------------- */

static void cpumask_helpers_are_linuxs(struct kunit *test)
{
	cpumask_var_t m;
	cpumask_t all = CPU_MASK_ALL, none = CPU_MASK_NONE;
	unsigned int cpu, n = 0;

	KUNIT_ASSERT_TRUE(test, zalloc_cpumask_var(&m, GFP_KERNEL));
	KUNIT_EXPECT_TRUE(test, cpumask_empty(m));
	KUNIT_EXPECT_TRUE(test, cpumask_empty(&none));
	KUNIT_EXPECT_TRUE(test, cpumask_full(&all));
	KUNIT_EXPECT_EQ(test, cpumask_weight(&all), nr_cpu_ids);
	KUNIT_EXPECT_TRUE(test, cpumask_equal(&all, cpu_possible_mask));
	cpumask_set_cpu(1, m);
	cpumask_set_cpu(0, m);
	KUNIT_EXPECT_EQ(test, cpumask_weight(m), 2);
	KUNIT_EXPECT_EQ(test, cpumask_first(m), 0);
	KUNIT_EXPECT_EQ(test, cpumask_next(0, m), 1);
	KUNIT_EXPECT_EQ(test, cpumask_next(1, m), nr_cpu_ids);
	for_each_cpu(cpu, m)
		n++;
	KUNIT_EXPECT_EQ(test, n, 2);
	cpumask_clear_cpu(0, m);
	KUNIT_EXPECT_TRUE(test, cpumask_equal(m, cpumask_of(1)));
	KUNIT_EXPECT_TRUE(test, cpumask_test_cpu(1, cpumask_of(1)));
	KUNIT_EXPECT_FALSE(test, cpumask_test_cpu(0, cpumask_of(1)));
	KUNIT_EXPECT_TRUE(test, cpumask_subset(m, cpu_online_mask));
	KUNIT_EXPECT_TRUE(test, cpumask_and(m, m, cpu_online_mask));
	KUNIT_EXPECT_FALSE(test, cpumask_and(m, m, cpumask_of(0)));
	if (!cpu_is_hotpluggable(1))
		kunit_skip(test, "CPU 1 must be hotpluggable");
	KUNIT_ASSERT_EQ(test, remove_cpu(1), 0);
	KUNIT_EXPECT_FALSE(test, cpumask_test_cpu(1, cpu_online_mask));
	KUNIT_EXPECT_EQ(test, cpumask_weight(cpu_online_mask), num_online_cpus());
	KUNIT_ASSERT_EQ(test, add_cpu(1), 0);
	KUNIT_EXPECT_TRUE(test, cpumask_test_cpu(1, cpu_online_mask));
	free_cpumask_var(m);
}

static struct kunit_case irq_desc_cases[] = {
	KUNIT_CASE(alloc_descs_hands_out_free_lines),
	KUNIT_CASE(alloc_descs_gives_each_line_its_affinity),
	KUNIT_CASE(depth_nests_and_survives_free),
	KUNIT_CASE(internals_shut_down_and_start_a_managed_line),
	KUNIT_CASE(managed_line_waits_for_its_cpu),
	KUNIT_CASE(cpumask_helpers_are_linuxs),
	{}
};

static struct kunit_suite irq_desc_suite = {
	.name		= "irqkit_irq_desc",
	.init		= counters_init,
	.test_cases	= irq_desc_cases,
};

kunit_test_suite(irq_desc_suite);
MODULE_LICENSE("GPL");
