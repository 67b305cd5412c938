// SPDX-License-Identifier: MIT
/*
 * irq domains in KUnit, as a chip driver's author tests them: linear, tree
 * and legacy maps, a consumer's fwspec through a named fwnode and
 * translate(), a two-level hierarchy whose lower chip does the work of the
 * upper one through the *_parent helpers, a chained demultiplexer on a
 * software line, the interrupt simulator, and the bad inputs.  Each case
 * gets a fresh runtime and removes the domains it made.
 */
#include <kunit/test.h>

#include <linux/completion.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irq_sim.h>
#include <linux/irqchip/chained_irq.h>
#include <linux/irqdomain.h>
#include <linux/kernel_stat.h>

#include <irqkit/irqkit.h>

/* ---- a flat controller: map/unmap counted, lines on the dummy chip ------------------- */

static atomic_t maps, unmaps;

static int flat_map(struct irq_domain *d, unsigned int virq, irq_hw_number_t hw)
{
	(void)d;
	(void)hw;
	atomic_inc(&maps);
	irq_set_chip_and_handler(virq, &dummy_irq_chip, handle_simple_irq);
	return 0;
}

static void flat_unmap(struct irq_domain *d, unsigned int virq)
{
	(void)d;
	(void)virq;
	atomic_inc(&unmaps);
}

/* hwirq in param[0], trigger type in param[1], as a two-cell binding */
static int flat_translate(struct irq_domain *d, struct irq_fwspec *fwspec,
			  irq_hw_number_t *hwirq, unsigned int *type)
{
	(void)d;
	if (fwspec->param_count != 2)
		return -EINVAL;
	*hwirq = fwspec->param[0];
	*type = fwspec->param[1] & IRQ_TYPE_SENSE_MASK;
	return 0;
}

static const struct irq_domain_ops flat_ops = {
	.map		= flat_map,
	.unmap		= flat_unmap,
	.translate	= flat_translate,
};

static int counters_init(struct kunit *test)
{
	(void)test;
	atomic_set(&maps, 0);
	atomic_set(&unmaps, 0);
	return 0;
}

static void linear_domain_maps_finds_and_disposes(struct kunit *test)
{
	struct irq_domain *d = irq_domain_create_linear(NULL, 8, &flat_ops, test);
	unsigned int virq;

	KUNIT_ASSERT_NOT_NULL(test, d);
	KUNIT_EXPECT_PTR_EQ(test, d->host_data, (void *)test);
	KUNIT_EXPECT_EQ(test, d->hwirq_max, 8);
	virq = irq_create_mapping(d, 3);
	KUNIT_ASSERT_GT(test, virq, 0);
	KUNIT_EXPECT_EQ(test, irq_create_mapping(d, 3), virq);	/* mapped once */
	KUNIT_EXPECT_EQ(test, atomic_read(&maps), 1);
	KUNIT_EXPECT_EQ(test, irq_find_mapping(d, 3), virq);
	KUNIT_EXPECT_EQ(test, irq_find_mapping(d, 4), 0);
	KUNIT_EXPECT_EQ(test, irqd_to_hwirq(irq_get_irq_data(virq)), 3);
	KUNIT_EXPECT_PTR_EQ(test, irq_get_irq_data(virq)->domain, d);
	KUNIT_EXPECT_PTR_EQ(test, irq_get_chip(virq), &dummy_irq_chip);
	KUNIT_EXPECT_EQ(test, d->mapcount, 1);
	/* a mapped line is requestable and served */
	KUNIT_EXPECT_TRUE(test, can_request_irq(virq, 0));
	/* past the domain's size: no line ("hwirq is too large") */
	KUNIT_EXPECT_EQ(test, irq_create_mapping(d, 8), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&maps), 1);
	irq_dispose_mapping(virq);
	KUNIT_EXPECT_EQ(test, atomic_read(&unmaps), 1);
	KUNIT_EXPECT_EQ(test, irq_find_mapping(d, 3), 0);
	KUNIT_EXPECT_EQ(test, d->mapcount, 0);
	KUNIT_EXPECT_PTR_EQ(test, irq_get_chip(virq), &no_irq_chip);
	irq_dispose_mapping(virq);				/* twice: a warning, nothing else */
	KUNIT_EXPECT_EQ(test, atomic_read(&unmaps), 1);
	/* the freed line is handed out again */
	KUNIT_EXPECT_EQ(test, irq_create_mapping(d, 3), virq);
	irq_dispose_mapping(virq);
	irq_domain_remove(d);
}

static void tree_domain_takes_sparse_hwirqs(struct kunit *test)
{
	static const irq_hw_number_t hw[] = { 1000000, 5, 77, 0xffffffffffful, 0, 4096 };
	struct irq_domain *d = irq_domain_create_tree(NULL, &flat_ops, NULL);
	unsigned int virq[20];

	KUNIT_ASSERT_NOT_NULL(test, d);
	for (unsigned int i = 0; i < ARRAY_SIZE(hw); i++) {
		virq[i] = irq_create_mapping(d, hw[i]);
		KUNIT_ASSERT_GT(test, virq[i], 0);
	}
	for (unsigned int i = ARRAY_SIZE(hw); i < 20; i++) {	/* the map grows past 8 */
		virq[i] = irq_create_mapping(d, 3000 - i * 7);
		KUNIT_ASSERT_GT(test, virq[i], 0);
	}
	KUNIT_EXPECT_EQ(test, d->mapcount, 20);
	for (unsigned int i = 0; i < ARRAY_SIZE(hw); i++)
		KUNIT_EXPECT_EQ(test, irq_find_mapping(d, hw[i]), virq[i]);
	irq_dispose_mapping(virq[2]);
	KUNIT_EXPECT_EQ(test, irq_find_mapping(d, 77), 0);
	KUNIT_EXPECT_EQ(test, irq_find_mapping(d, 5), virq[1]);
	KUNIT_EXPECT_EQ(test, irq_find_mapping(d, 1000000), virq[0]);
	/* a domain with lines mapped is not removed */
	irq_domain_remove(d);
	KUNIT_EXPECT_EQ(test, irq_find_mapping(d, 5), virq[1]);
	for (unsigned int i = 0; i < 20; i++)
		if (i != 2)
			irq_dispose_mapping(virq[i]);
	KUNIT_EXPECT_EQ(test, d->mapcount, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&unmaps), 20);
	irq_domain_remove(d);
}

static void legacy_and_simple_domains_map_fixed_lines(struct kunit *test)
{
	struct irq_domain *legacy, *simple, *again;

	legacy = irq_domain_create_legacy(NULL, 4, 20, 100, &flat_ops, NULL);
	KUNIT_ASSERT_NOT_NULL(test, legacy);
	KUNIT_EXPECT_EQ(test, irq_find_mapping(legacy, 100), 20);
	KUNIT_EXPECT_EQ(test, irq_find_mapping(legacy, 103), 23);
	KUNIT_EXPECT_EQ(test, irq_find_mapping(legacy, 99), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&maps), 4);
	/* its lines are taken: not handed out, not mapped twice */
	KUNIT_EXPECT_EQ(test, irq_alloc_desc_at(21, NUMA_NO_NODE), -EEXIST);
	again = irq_domain_create_legacy(NULL, 2, 22, 0, &flat_ops, NULL);
	KUNIT_EXPECT_NULL(test, again);
	KUNIT_EXPECT_EQ(test, irq_find_mapping(legacy, 102), 22);
	simple = irq_domain_create_simple(NULL, 3, 30, &flat_ops, NULL);
	KUNIT_ASSERT_NOT_NULL(test, simple);
	KUNIT_EXPECT_EQ(test, irq_find_mapping(simple, 0), 30);
	KUNIT_EXPECT_EQ(test, irq_find_mapping(simple, 2), 32);
	for (unsigned int i = 0; i < 4; i++)
		irq_dispose_mapping(20 + i);
	for (unsigned int i = 0; i < 3; i++)
		irq_dispose_mapping(30 + i);
	irq_domain_remove(legacy);
	irq_domain_remove(simple);
}

static void fwspec_finds_the_controller_and_its_type(struct kunit *test)
{
	struct fwnode_handle *fw = irq_domain_alloc_named_fwnode("gpio-test");
	struct fwnode_handle *other = irq_domain_alloc_named_fwnode("nobody");
	struct irq_fwspec spec = { .param_count = 2, .param = { 5, IRQ_TYPE_EDGE_FALLING } };
	struct irq_domain *d;
	unsigned int virq;

	KUNIT_ASSERT_NOT_NULL(test, fw);
	KUNIT_ASSERT_NOT_NULL(test, other);
	d = irq_domain_create_linear(fw, 16, &flat_ops, NULL);
	KUNIT_ASSERT_NOT_NULL(test, d);
	KUNIT_EXPECT_STREQ(test, d->name, "gpio-test");
	KUNIT_EXPECT_PTR_EQ(test, irq_find_matching_fwnode(fw, DOMAIN_BUS_ANY), d);
	KUNIT_EXPECT_NULL(test, irq_find_matching_fwnode(other, DOMAIN_BUS_ANY));
	spec.fwnode = fw;
	virq = irq_create_fwspec_mapping(&spec);
	KUNIT_ASSERT_GT(test, virq, 0);
	KUNIT_EXPECT_EQ(test, irq_find_mapping(d, 5), virq);
	KUNIT_EXPECT_EQ(test, irqd_get_trigger_type(irq_get_irq_data(virq)), IRQ_TYPE_EDGE_FALLING);
	KUNIT_EXPECT_EQ(test, irq_create_fwspec_mapping(&spec), virq);
	spec.param[1] = IRQ_TYPE_LEVEL_HIGH;			/* another type: a mismatch */
	KUNIT_EXPECT_EQ(test, irq_create_fwspec_mapping(&spec), 0);
	spec.param[1] = IRQ_TYPE_NONE;				/* none asked: the line as it is */
	KUNIT_EXPECT_EQ(test, irq_create_fwspec_mapping(&spec), virq);
	spec.param_count = 1;					/* translate() refuses it */
	KUNIT_EXPECT_EQ(test, irq_create_fwspec_mapping(&spec), 0);
	spec.fwnode = other;					/* no such controller */
	KUNIT_EXPECT_EQ(test, irq_create_fwspec_mapping(&spec), 0);
	irq_dispose_mapping(virq);
	irq_domain_remove(d);
	irq_domain_free_fwnode(fw);
	irq_domain_free_fwnode(other);
}

/* ---- a hierarchy: a GPIO block (top) on an interrupt controller (root) --------------- */

struct root_ctl {
	unsigned long	latched;	/* hwirq - 100, one bit each */
	unsigned long	masked;
	char		log[64];	/* "a" activate, "d" deactivate, "f" free, by level */
	unsigned int	nlog;
};

static void log_step(struct root_ctl *c, char level, char what)
{
	if (c->nlog + 2 < sizeof(c->log)) {
		c->log[c->nlog++] = level;
		c->log[c->nlog++] = what;
	}
}

static unsigned long bit_of(struct irq_data *d)
{
	return 1ul << (irqd_to_hwirq(d) - 100);
}

static void root_signal(struct irq_data *d)
{
	struct root_ctl *c = irq_data_get_irq_chip_data(d);

	if ((__atomic_load_n(&c->latched, __ATOMIC_ACQUIRE) & bit_of(d)) &&
	    !(__atomic_load_n(&c->masked, __ATOMIC_ACQUIRE) & bit_of(d)))
		irqkit_cpu_signal(READ_ONCE(d->cpu), d->irq);
}

static void root_mask(struct irq_data *d)
{
	struct root_ctl *c = irq_data_get_irq_chip_data(d);

	__atomic_fetch_or(&c->masked, bit_of(d), __ATOMIC_ACQ_REL);
}

static void root_unmask(struct irq_data *d)
{
	struct root_ctl *c = irq_data_get_irq_chip_data(d);

	__atomic_fetch_and(&c->masked, ~bit_of(d), __ATOMIC_ACQ_REL);
	root_signal(d);
}

static void root_ack(struct irq_data *d)
{
	struct root_ctl *c = irq_data_get_irq_chip_data(d);

	__atomic_fetch_and(&c->latched, ~bit_of(d), __ATOMIC_ACQ_REL);
}

static int root_set_affinity(struct irq_data *d, const struct cpumask *dest, bool force)
{
	(void)force;
	irq_data_update_effective_affinity(d, dest);
	return 0;
}

static struct irq_chip root_chip = {
	.name			= "ROOT",
	.irq_mask		= root_mask,
	.irq_unmask		= root_unmask,
	.irq_ack		= root_ack,
	.irq_set_affinity	= root_set_affinity,
};

/* the GPIO block does nothing itself: its parent does it */
static struct irq_chip gpio_chip = {
	.name			= "GPIOH",
	.irq_mask		= irq_chip_mask_parent,
	.irq_unmask		= irq_chip_unmask_parent,
	.irq_ack		= irq_chip_ack_parent,
	.irq_set_affinity	= irq_chip_set_affinity_parent,
	.irq_retrigger		= irq_chip_retrigger_hierarchy,
};

static int root_alloc(struct irq_domain *d, unsigned int virq, unsigned int nr, void *arg)
{
	struct irq_fwspec *spec = arg;

	for (unsigned int i = 0; i < nr; i++)
		irq_domain_set_hwirq_and_chip(d, virq + i, 100 + spec->param[0] + i, &root_chip,
					      d->host_data);
	return 0;
}

static void root_free(struct irq_domain *d, unsigned int virq, unsigned int nr)
{
	log_step(d->host_data, 'r', 'f');
	irq_domain_free_irqs_common(d, virq, nr);
}

static int root_activate(struct irq_domain *d, struct irq_data *irqd, bool reserve)
{
	(void)irqd;
	(void)reserve;
	log_step(d->host_data, 'r', 'a');
	return 0;
}

static void root_deactivate(struct irq_domain *d, struct irq_data *irqd)
{
	(void)irqd;
	log_step(d->host_data, 'r', 'd');
}

static const struct irq_domain_ops root_ops = {
	.alloc		= root_alloc,
	.free		= root_free,
	.activate	= root_activate,
	.deactivate	= root_deactivate,
};

static int gpio_alloc(struct irq_domain *d, unsigned int virq, unsigned int nr, void *arg)
{
	struct irq_fwspec *spec = arg;

	if (spec->param[0] >= 8)
		return -EINVAL;
	for (unsigned int i = 0; i < nr; i++)
		irq_domain_set_info(d, virq + i, spec->param[0] + i, &gpio_chip, NULL,
				    handle_edge_irq, NULL, "edge");
	return irq_domain_alloc_irqs_parent(d, virq, nr, arg);
}

static void gpio_free(struct irq_domain *d, unsigned int virq, unsigned int nr)
{
	log_step(d->parent->host_data, 'g', 'f');
	irq_domain_free_irqs_common(d, virq, nr);
}

static int gpio_activate(struct irq_domain *d, struct irq_data *irqd, bool reserve)
{
	(void)irqd;
	(void)reserve;
	log_step(d->parent->host_data, 'g', 'a');
	return 0;
}

static void gpio_deactivate(struct irq_domain *d, struct irq_data *irqd)
{
	(void)irqd;
	log_step(d->parent->host_data, 'g', 'd');
}

static const struct irq_domain_ops gpio_ops = {
	.alloc		= gpio_alloc,
	.free		= gpio_free,
	.activate	= gpio_activate,
	.deactivate	= gpio_deactivate,
};

static irqreturn_t count_handler(int irq, void *dev_id)
{
	(void)irq;
	atomic_inc(dev_id);
	return IRQ_HANDLED;
}

static void root_fire(struct root_ctl *c, unsigned int virq, struct irq_domain *root)
{
	struct irq_data *rd = irq_domain_get_irq_data(root, virq);

	__atomic_fetch_or(&c->latched, bit_of(rd), __ATOMIC_ACQ_REL);
	root_signal(rd);
}

static void hierarchy_of_two_levels(struct kunit *test)
{
	struct root_ctl ctl = { .masked = ~0ul };
	struct irq_fwspec spec = { .param_count = 1, .param = { 3 } };
	struct irq_domain *root, *gpio;
	struct irq_data *top, *low;
	atomic_t calls = ATOMIC_INIT(0);
	int virq;

	root = irq_domain_create_hierarchy(NULL, 0, 0, NULL, &root_ops, &ctl);
	KUNIT_ASSERT_NOT_NULL(test, root);
	gpio = irq_domain_create_hierarchy(root, 0, 8, NULL, &gpio_ops, NULL);
	KUNIT_ASSERT_NOT_NULL(test, gpio);
	KUNIT_EXPECT_TRUE(test, irq_domain_is_hierarchy(gpio));
	virq = irq_domain_alloc_irqs(gpio, 1, NUMA_NO_NODE, &spec);
	KUNIT_ASSERT_GT(test, virq, 0);
	/* each level has its data, its hwirq and its domain's map */
	top = irq_get_irq_data(virq);
	low = irq_domain_get_irq_data(root, virq);
	KUNIT_ASSERT_NOT_NULL(test, low);
	KUNIT_EXPECT_PTR_EQ(test, irq_domain_get_irq_data(gpio, virq), top);
	KUNIT_EXPECT_PTR_EQ(test, top->parent_data, low);
	KUNIT_EXPECT_EQ(test, irqd_to_hwirq(top), 3);
	KUNIT_EXPECT_EQ(test, irqd_to_hwirq(low), 103);
	KUNIT_EXPECT_PTR_EQ(test, low->chip, &root_chip);
	KUNIT_EXPECT_EQ(test, irq_find_mapping(gpio, 3), virq);
	KUNIT_EXPECT_EQ(test, irq_find_mapping(root, 103), virq);
	/* requested: activated from the root up; the root unmasks for the GPIO block */
	KUNIT_ASSERT_EQ(test, request_irq(virq, count_handler, 0, "gpio3", &calls), 0);
	KUNIT_EXPECT_STREQ(test, ctl.log, "raga");
	KUNIT_EXPECT_FALSE(test, READ_ONCE(ctl.masked) & (1ul << 3));
	KUNIT_EXPECT_TRUE(test, irqd_is_activated(low));	/* every level reads the line's state */
	root_fire(&ctl, (unsigned int)virq, root);
	KUNIT_ASSERT_EQ(test, irqkit_wait_delivered(virq, 5000), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&calls), 1);
	KUNIT_EXPECT_EQ(test, READ_ONCE(ctl.latched), 0);	/* acked through the parent */
	disable_irq(virq);
	free_irq(virq, &calls);
	KUNIT_EXPECT_STREQ(test, ctl.log, "ragagdrd");
	/* the root cannot go while the GPIO block stands on it */
	irq_domain_remove(root);
	KUNIT_EXPECT_EQ(test, irq_find_mapping(root, 103), virq);
	irq_domain_free_irqs(virq, 1);
	KUNIT_EXPECT_STREQ(test, ctl.log, "ragagdrdgfrf");
	KUNIT_EXPECT_EQ(test, irq_find_mapping(gpio, 3), 0);
	KUNIT_EXPECT_EQ(test, irq_find_mapping(root, 103), 0);
	KUNIT_EXPECT_EQ(test, gpio->mapcount + root->mapcount, 0);
	/* a GPIO the block does not have: alloc() refuses, nothing is left */
	spec.param[0] = 9;
	KUNIT_EXPECT_EQ(test, irq_domain_alloc_irqs(gpio, 1, NUMA_NO_NODE, &spec), -EINVAL);
	KUNIT_EXPECT_EQ(test, gpio->mapcount + root->mapcount, 0);
	/* through a fwspec too, and disposed as a mapping */
	spec.param[0] = 6;
	spec.fwnode = NULL;
	irq_set_default_host(gpio);
	virq = (int)irq_create_fwspec_mapping(&spec);
	KUNIT_ASSERT_GT(test, virq, 0);
	KUNIT_EXPECT_EQ(test, irq_find_mapping(root, 106), virq);
	irq_dispose_mapping(virq);
	KUNIT_EXPECT_EQ(test, irq_find_mapping(root, 106), 0);
	irq_set_default_host(NULL);
	irq_domain_remove(gpio);
	irq_domain_remove(root);
}

/* ---- a chained demultiplexer on a software line -------------------------------------- */

struct expander {
	unsigned long		status;
	struct irq_domain	*domain;
	struct completion	done;
	atomic_t		calls[4];
	atomic_t		in_hardirq;
};

static void exp_nop(struct irq_data *d)
{
	(void)d;
}

static struct irq_chip exp_chip = {
	.name		= "EXP",
	.irq_mask	= exp_nop,
	.irq_unmask	= exp_nop,
};

static int exp_map(struct irq_domain *d, unsigned int virq, irq_hw_number_t hw)
{
	(void)hw;
	irq_set_chip_and_handler(virq, &exp_chip, handle_simple_irq);
	irq_set_chip_data(virq, d->host_data);
	return 0;
}

static const struct irq_domain_ops exp_ops = { .map = exp_map };

static void exp_demux(struct irq_desc *desc)
{
	struct expander *e = irq_desc_get_handler_data(desc);
	unsigned long pending;

	chained_irq_enter(irq_desc_get_chip(desc), desc);
	pending = __atomic_exchange_n(&e->status, 0, __ATOMIC_ACQ_REL);
	while (pending) {
		unsigned int bit = (unsigned int)__builtin_ctzl(pending);

		pending &= pending - 1;
		generic_handle_domain_irq(e->domain, bit);
	}
	chained_irq_exit(irq_desc_get_chip(desc), desc);
}

static irqreturn_t pin_handler(int irq, void *dev_id)
{
	struct expander *e = dev_id;
	irq_hw_number_t hw = irqd_to_hwirq(irq_get_irq_data(irq));

	if (in_irq() && irqs_disabled())
		atomic_inc(&e->in_hardirq);
	if (atomic_inc_return(&e->calls[hw]) && hw == 2)
		complete(&e->done);
	return IRQ_HANDLED;
}

#define PARENT	9

static void chained_handler_demultiplexes(struct kunit *test)
{
	struct expander e = { 0 };
	unsigned int virq[4];

	init_completion(&e.done);
	KUNIT_ASSERT_EQ(test, irqkit_swchip_add(PARENT, 1, IRQKIT_TYPE_EDGE_RISING), 0);
	e.domain = irq_domain_create_linear(NULL, 4, &exp_ops, &e);
	KUNIT_ASSERT_NOT_NULL(test, e.domain);
	for (unsigned int i = 0; i < 4; i++) {
		virq[i] = irq_create_mapping(e.domain, i);
		KUNIT_ASSERT_GT(test, virq[i], 0);
		KUNIT_ASSERT_EQ(test, request_irq(virq[i], pin_handler, 0, "pin", &e), 0);
	}
	irq_set_chained_handler_and_data(PARENT, exp_demux, &e);
	KUNIT_EXPECT_PTR_EQ(test, irq_get_handler_data(PARENT), (void *)&e);
	/* the parent belongs to the demultiplexer now */
	KUNIT_EXPECT_EQ(test, request_irq(PARENT, pin_handler, 0, "thief", &e), -EINVAL);
	__atomic_fetch_or(&e.status, (1ul << 0) | (1ul << 2), __ATOMIC_ACQ_REL);
	KUNIT_ASSERT_EQ(test, irqkit_sw_raise(PARENT), 0);
	KUNIT_ASSERT_GT(test, wait_for_completion_timeout(&e.done, msecs_to_jiffies(5000)), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&e.calls[0]), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&e.calls[1]), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&e.calls[2]), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&e.in_hardirq), 2);
	KUNIT_EXPECT_EQ(test, kstat_irqs_cpu(virq[2], 0) + kstat_irqs_cpu(virq[2], 1), 1);
	irq_set_chained_handler(PARENT, NULL);
	KUNIT_EXPECT_TRUE(test, can_request_irq(PARENT, 0));
	for (unsigned int i = 0; i < 4; i++) {
		free_irq(virq[i], &e);
		irq_dispose_mapping(virq[i]);
	}
	irq_domain_remove(e.domain);
}

/* ---- the interrupt simulator ---------------------------------------------------------- */

static atomic_t sim_hard;	/* the runs in hardirq context */

static irqreturn_t sim_handler(int irq, void *dev_id)
{
	(void)irq;
	atomic_inc(dev_id);
	if (in_irq())
		atomic_inc(&sim_hard);
	return IRQ_HANDLED;
}

static void interrupt_simulator_fires_lines(struct kunit *test)
{
	struct irq_domain *sim = irq_domain_create_sim(NULL, 4);
	atomic_t calls = ATOMIC_INIT(0);
	unsigned int virq;
	bool pending = true;

	KUNIT_ASSERT_FALSE(test, IS_ERR(sim));
	virq = irq_create_mapping(sim, 2);
	KUNIT_ASSERT_GT(test, virq, 0);
	KUNIT_EXPECT_EQ(test, irqd_to_hwirq(irq_get_irq_data(virq)), 2);
	KUNIT_EXPECT_STREQ(test, irq_get_chip(virq)->name, "irq_sim");
	/* before a request the line is masked: a fire is dropped, not kept */
	KUNIT_EXPECT_EQ(test, irq_set_irqchip_state(virq, IRQCHIP_STATE_PENDING, true), 0);
	KUNIT_EXPECT_EQ(test, irq_get_irqchip_state(virq, IRQCHIP_STATE_PENDING, &pending), 0);
	KUNIT_EXPECT_FALSE(test, pending);
	KUNIT_ASSERT_EQ(test, request_irq(virq, sim_handler, 0, "sim", &calls), 0);
	KUNIT_EXPECT_EQ(test, irqkit_wait_delivered(virq, 5000), 0);	/* nothing to wait for */
	KUNIT_EXPECT_EQ(test, atomic_read(&calls), 0);
	/* fired: handled once, in hardirq context */
	atomic_set(&sim_hard, 0);
	KUNIT_EXPECT_EQ(test, irq_set_irqchip_state(virq, IRQCHIP_STATE_PENDING, true), 0);
	KUNIT_ASSERT_EQ(test, irqkit_wait_delivered(virq, 5000), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&calls), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&sim_hard), 1);
	KUNIT_EXPECT_EQ(test, irq_get_irqchip_state(virq, IRQCHIP_STATE_PENDING, &pending), 0);
	KUNIT_EXPECT_FALSE(test, pending);
	/*
	 * a fire while disabled (lazily: not masked) is replayed at enable: by
	 * the software resend, a tasklet, when the flow found the line
	 * disabled (the simulator has no retrigger), else as it comes
	 */
	disable_irq(virq);
	KUNIT_EXPECT_EQ(test, irq_set_irqchip_state(virq, IRQCHIP_STATE_PENDING, true), 0);
	enable_irq(virq);
	KUNIT_ASSERT_EQ(test, irqkit_wait_delivered(virq, 5000), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&calls), 2);
	/* edges only */
	KUNIT_EXPECT_EQ(test, irq_set_irq_type(virq, IRQ_TYPE_LEVEL_HIGH), -EINVAL);
	KUNIT_EXPECT_EQ(test, irq_set_irq_type(virq, IRQ_TYPE_EDGE_FALLING), 0);
	KUNIT_EXPECT_EQ(test, irq_set_irqchip_state(virq, IRQCHIP_STATE_ACTIVE, true), -EINVAL);
	free_irq(virq, &calls);
	irq_domain_remove_sim(sim);
}

/* ---- the software chip's own domain --------------------------------------------------- */

static void software_chip_lines_are_in_its_domain(struct kunit *test)
{
	struct irq_domain *sw = irqkit_swchip_domain();
	atomic_t calls = ATOMIC_INIT(0);
	unsigned int virq;

	KUNIT_ASSERT_NOT_NULL(test, sw);
	KUNIT_EXPECT_PTR_EQ(test, irqkit_swchip_domain(), sw);
	KUNIT_EXPECT_STREQ(test, sw->name, "irqkit-sw");
	/* lines put on the chip by number: hwirq N is line N */
	KUNIT_ASSERT_EQ(test, irqkit_swchip_add(5, 2, IRQKIT_TYPE_LEVEL_HIGH), 0);
	KUNIT_EXPECT_EQ(test, irq_find_mapping(sw, 5), 5);
	KUNIT_EXPECT_EQ(test, irq_find_mapping(sw, 6), 6);
	KUNIT_EXPECT_PTR_EQ(test, irq_get_irq_data(6)->domain, sw);
	KUNIT_EXPECT_EQ(test, irqd_get_trigger_type(irq_get_irq_data(6)), IRQ_TYPE_LEVEL_HIGH);
	/* put on it again (another trigger): the same mapping */
	KUNIT_ASSERT_EQ(test, irqkit_swchip_add(5, 1, IRQKIT_TYPE_EDGE_RISING), 0);
	KUNIT_EXPECT_EQ(test, irq_find_mapping(sw, 5), 5);
	KUNIT_EXPECT_EQ(test, sw->mapcount, 2);
	/* Linux's way: a free line mapped, a rising-edge software line */
	virq = irq_create_mapping(sw, 40);
	KUNIT_ASSERT_GT(test, virq, 0);
	KUNIT_EXPECT_EQ(test, irqd_to_hwirq(irq_get_irq_data(virq)), 40);
	KUNIT_ASSERT_EQ(test, request_irq(virq, count_handler, 0, "swmapped", &calls), 0);
	KUNIT_ASSERT_EQ(test, irqkit_sw_raise(virq), 0);
	KUNIT_ASSERT_EQ(test, irqkit_wait_delivered(virq, 5000), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&calls), 1);
	free_irq(virq, &calls);
	irq_dispose_mapping(virq);
	KUNIT_EXPECT_EQ(test, irqkit_sw_raise(virq), -EINVAL);	/* off the chip */
	KUNIT_EXPECT_EQ(test, irq_find_mapping(sw, 40), 0);
	/* the domain stays; its map is emptied when the run ends */
}

/* ---- bad input ------------------------------------------------------------------------ */

static void bad_input_is_refused(struct kunit *test)
{
	struct irq_domain *d;

	KUNIT_EXPECT_NULL(test, irq_domain_create_linear(NULL, 0, &flat_ops, NULL));
	KUNIT_EXPECT_NULL(test, irq_domain_create_legacy(NULL, 2, 10, 1ul << 40, &flat_ops, NULL));
	KUNIT_EXPECT_NULL(test, irq_domain_create_legacy(NULL, 2, 100000, 0, &flat_ops, NULL));
	KUNIT_EXPECT_EQ(test, irq_create_mapping(NULL, 1), 0);	/* no default host */
	KUNIT_EXPECT_EQ(test, irq_find_mapping(NULL, 1), 0);
	d = irq_domain_create_linear(NULL, 2, &flat_ops, NULL);
	KUNIT_ASSERT_NOT_NULL(test, d);
	KUNIT_EXPECT_EQ(test, irq_domain_alloc_irqs(d, 1, NUMA_NO_NODE, NULL), -ENOSYS);
	KUNIT_EXPECT_EQ(test, irq_domain_alloc_irqs(NULL, 1, NUMA_NO_NODE, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, generic_handle_domain_irq(d, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, irq_domain_associate(d, 100000, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, irq_domain_associate(d, 12, 2), -EINVAL);	/* past the size */
	KUNIT_EXPECT_EQ(test, irq_domain_associate(d, 12, 1), 0);
	KUNIT_EXPECT_EQ(test, irq_domain_associate(d, 13, 1), -EEXIST);	/* hwirq mapped */
	KUNIT_EXPECT_EQ(test, irq_domain_associate(d, 12, 0), -EINVAL);	/* line mapped */
	irq_domain_free_irqs(12, 1);			/* not a hierarchy's: a warning */
	KUNIT_EXPECT_EQ(test, irq_find_mapping(d, 1), 12);
	irq_dispose_mapping(12);
	irq_dispose_mapping(13);			/* never mapped: a warning */
	irq_dispose_mapping(100000);
	irq_domain_remove(d);
	irq_domain_remove(NULL);
}

static struct kunit_case irq_domain_cases[] = {
	KUNIT_CASE(linear_domain_maps_finds_and_disposes),
	KUNIT_CASE(tree_domain_takes_sparse_hwirqs),
	KUNIT_CASE(legacy_and_simple_domains_map_fixed_lines),
	KUNIT_CASE(fwspec_finds_the_controller_and_its_type),
	KUNIT_CASE(hierarchy_of_two_levels),
	KUNIT_CASE(chained_handler_demultiplexes),
	KUNIT_CASE(interrupt_simulator_fires_lines),
	KUNIT_CASE(software_chip_lines_are_in_its_domain),
	KUNIT_CASE(bad_input_is_refused),
	{}
};

static struct kunit_suite irq_domain_suite = {
	.name		= "irqkit_irq_domain",
	.init		= counters_init,
	.test_cases	= irq_domain_cases,
};

kunit_test_suite(irq_domain_suite);
MODULE_LICENSE("GPL");
