// SPDX-License-Identifier: MIT
/*
 * Affinity spreading (src/core/irq/affinity.c) through Linux's names: the
 * masks Linux's irq_create_affinity_masks() and group_cpus_evenly() give
 * for one node without SMT siblings, case by case: CPU counts, vector
 * counts below, at and above them, pre and post vectors, several sets,
 * and the refusals.
 */
#include "../../harness.h"

#include <linux/group_cpus.h>
#include <linux/interrupt.h>
#include <linux/slab.h>

static int world(unsigned int cpus)
{
	return start_world_cfg((struct irqkit_config){ .nr_irqs = T_NR_IRQS, .nr_cpus = cpus,
						       .mode = IRQKIT_MODE_DETERMINISTIC });
}

static int teardown(void **state)
{
	(void)state;
	irqkit_stop();
	return 0;
}

struct expect {
	irqkit_cpumask	mask;
	bool		managed;
};

/* @nvecs masks for @affd on @cpus CPUs, each as @want says. */
static void check(unsigned int cpus, unsigned int nvecs, struct irq_affinity *affd,
		  const struct expect *want)
{
	struct irq_affinity_desc *masks;

	assert_int_equal(world(cpus), 0);
	masks = irq_create_affinity_masks(nvecs, affd);
	assert_non_null(masks);
	for (unsigned int v = 0; v < nvecs; v++) {
		if (irqkit_cpus_mask(&masks[v].mask) != want[v].mask ||
		    masks[v].is_managed != want[v].managed)
			test_printf("%u CPUs, %u vectors: vector %u has %#llx%s, Linux gives %#llx%s\n",
				    cpus, nvecs, v,
				    (unsigned long long)irqkit_cpus_mask(&masks[v].mask),
				    masks[v].is_managed ? " managed" : "",
				    (unsigned long long)want[v].mask, want[v].managed ? " managed" : "");
		assert_int_equal(irqkit_cpus_mask(&masks[v].mask), want[v].mask);
		assert_int_equal(masks[v].is_managed, want[v].managed);
	}
	kfree(masks);
	irqkit_stop();
}

#define M(m)	{ (m), true }		/* a managed vector's mask */
#define U(m)	{ (m), false }		/* an unmanaged one's (pre, post) */

static void test_one_cpu_per_vector_when_there_are_as_many(void **state)
{
	struct irq_affinity one_pre = { .pre_vectors = 1 };
	static const struct expect want[] = { U(0xf), M(0x1), M(0x2), M(0x4), M(0x8) };

	(void)state;
	check(4, 5, &one_pre, want);
}

static void test_fewer_vectors_take_neighbours_and_the_first_the_remainder(void **state)
{
	struct irq_affinity none = { 0 };
	static const struct expect two_of_4[] = { M(0x3), M(0xc) };
	static const struct expect three_of_5[] = { M(0x3), M(0xc), M(0x10) };
	static const struct expect three_of_8[] = { M(0x07), M(0x38), M(0xc0) };
	static const struct expect one_of_8[] = { M(0xff) };
	static const struct expect five_of_7[] = { M(0x03), M(0x0c), M(0x10), M(0x20), M(0x40) };

	(void)state;
	check(4, 2, &none, two_of_4);
	check(5, 3, &none, three_of_5);
	check(8, 3, &none, three_of_8);
	check(8, 1, &none, one_of_8);
	check(7, 5, &none, five_of_7);
}

/* More vectors than CPUs: the spread ones past the CPUs get every CPU (Linux 6.14 on). */
static void test_vectors_past_the_cpus_get_the_default_affinity(void **state)
{
	struct irq_affinity pre_post = { .pre_vectors = 1, .post_vectors = 1 };
	static const struct expect want[] = { U(0x3), M(0x1), M(0x2), M(0x3), M(0x3), U(0x3) };
	struct irq_affinity none = { 0 };
	static const struct expect one_cpu[] = { M(0x1), M(0x1), M(0x1) };

	(void)state;
	check(2, 6, &pre_post, want);
	check(1, 3, &none, one_cpu);
}

static void two_sets(struct irq_affinity *affd, unsigned int nvecs)
{
	affd->nr_sets = 2;
	affd->set_size[0] = nvecs - nvecs / 3;	/* read queues */
	affd->set_size[1] = nvecs / 3;		/* write queues */
}

static void test_each_set_is_spread_on_its_own(void **state)
{
	struct irq_affinity sets = { .pre_vectors = 1, .calc_sets = two_sets };
	static const struct expect want[] = { U(0xf), M(0x1), M(0x2), M(0x4), M(0x8), M(0x3),
					      M(0xc) };

	(void)state;
	check(4, 7, &sets, want);
	assert_int_equal(sets.nr_sets, 2);
	assert_int_equal(sets.set_size[0], 4);
	assert_int_equal(sets.set_size[1], 2);
}

static unsigned int sets_seen = ~0u;

static void note_sets(struct irq_affinity *affd, unsigned int nvecs)
{
	sets_seen = nvecs;
	affd->nr_sets = 1;
	affd->set_size[0] = nvecs;
}

static void too_many_sets(struct irq_affinity *affd, unsigned int nvecs)
{
	(void)nvecs;
	affd->nr_sets = IRQ_AFFINITY_MAX_SETS + 1;
}

static void sets_too_big(struct irq_affinity *affd, unsigned int nvecs)
{
	affd->nr_sets = 2;
	affd->set_size[0] = nvecs;
	affd->set_size[1] = 1;
}

static void test_nothing_to_spread_and_bad_sets_give_null(void **state)
{
	struct irq_affinity only_reserved = { .pre_vectors = 1, .post_vectors = 1,
					      .calc_sets = note_sets };
	struct irq_affinity bad = { .calc_sets = too_many_sets };
	struct irq_affinity big = { .calc_sets = sets_too_big };

	(void)state;
	assert_int_equal(world(4), 0);
	/* the driver's calc_sets still hears that nothing is left to spread */
	assert_null(irq_create_affinity_masks(2, &only_reserved));
	assert_int_equal(sets_seen, 0);
	log_clear();
	assert_null(irq_create_affinity_masks(4, &bad));
	assert_log_contains("WARNING");
	log_clear();
	assert_null(irq_create_affinity_masks(4, &big));
	assert_log_contains("irq_create_affinity_masks: sets of 5 vectors for 4");
}

static void test_calc_affinity_vectors(void **state)
{
	struct irq_affinity one_pre = { .pre_vectors = 1 };
	struct irq_affinity two_reserved = { .pre_vectors = 1, .post_vectors = 1 };
	struct irq_affinity sets = { .calc_sets = two_sets };

	(void)state;
	assert_int_equal(world(4), 0);
	/* the reserved ones and a vector per possible CPU, within the range */
	assert_int_equal(irq_calc_affinity_vectors(1, 16, &one_pre), 5);
	assert_int_equal(irq_calc_affinity_vectors(1, 3, &one_pre), 3);
	/* with sets the driver decides: all there is room for */
	assert_int_equal(irq_calc_affinity_vectors(1, 16, &sets), 16);
	/* the reserved ones do not fit in the minimum */
	assert_int_equal(irq_calc_affinity_vectors(1, 16, &two_reserved), 0);
	assert_int_equal(irq_calc_affinity_vectors(2, 16, &two_reserved), 6);
}

static void test_group_cpus_evenly(void **state)
{
	unsigned int n = 99;
	struct cpumask *g;

	(void)state;
	assert_int_equal(world(6), 0);
	g = group_cpus_evenly(4, &n);
	assert_non_null(g);
	assert_int_equal(n, 4);
	assert_int_equal(irqkit_cpus_mask(&g[0]), 0x03);
	assert_int_equal(irqkit_cpus_mask(&g[1]), 0x0c);
	assert_int_equal(irqkit_cpus_mask(&g[2]), 0x10);
	assert_int_equal(irqkit_cpus_mask(&g[3]), 0x20);
	kfree(g);
	g = group_cpus_evenly(9, &n);		/* more groups than CPUs: six get one */
	assert_int_equal(n, 6);
	for (unsigned int i = 0; i < 9; i++)
		assert_int_equal(irqkit_cpus_mask(&g[i]), i < 6 ? 1ull << i : 0);
	kfree(g);
	assert_null(group_cpus_evenly(0, &n));
	assert_int_equal(n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_teardown(fn, teardown)
		T(test_one_cpu_per_vector_when_there_are_as_many),
		T(test_fewer_vectors_take_neighbours_and_the_first_the_remainder),
		T(test_vectors_past_the_cpus_get_the_default_affinity),
		T(test_each_set_is_spread_on_its_own),
		T(test_nothing_to_spread_and_bad_sets_give_null),
		T(test_calc_affinity_vectors),
		T(test_group_cpus_evenly),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
