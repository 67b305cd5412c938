// SPDX-License-Identifier: MIT
/*
 * CPU hotplug under load, with real threads: while CPUs 1 and 2 go offline
 * and come back in a loop, other threads raise edge lines routed all over,
 * move them, and their handlers schedule a tasklet and arm a timer.  At the
 * end every raise is accounted (runs + coalesced), no handler of a
 * dispatcher started on an offline CPU, and every tasklet schedule and
 * timer arming ran.
 */
#include "../harness.h"

#include <irqkit/cpu.h>

#include <pthread.h>
#include <stdlib.h>

#define NR_LINES	6
#define NR_RAISERS	2

static atomic_long raises[NR_LINES], runs[NR_LINES];
static atomic_int offline_runs, stop_raisers;
static atomic_long tasklet_runs, timer_arms, timer_runs;
static struct irqkit_tasklet tl;
static struct irqkit_timer_list tm;

static void tasklet_fn(unsigned long data)
{
	(void)data;
	atomic_fetch_add(&tasklet_runs, 1);
}

static void timer_fn(struct irqkit_timer_list *t)
{
	(void)t;
	atomic_fetch_add(&timer_runs, 1);
}

static enum irqkit_irqreturn handler(int irq, void *dev_id)
{
	int cpu = irqkit_smp_processor_id();

	(void)dev_id;
	if (!irqkit_cpu_online((unsigned int)cpu))
		atomic_fetch_add(&offline_runs, 1);
	atomic_fetch_add(&runs[irq - T_EDGE(1)], 1);
	irqkit_tasklet_schedule(&tl);
	if (!irqkit_timer_pending(&tm) && irqkit_mod_timer(&tm, irqkit_jiffies() + 1) == 0)
		atomic_fetch_add(&timer_arms, 1);
	return IRQKIT_HANDLED;
}

static void *raiser(void *arg)
{
	unsigned int seed = (unsigned int)(uintptr_t)arg;

	while (!atomic_load(&stop_raisers)) {
		unsigned int line = (unsigned int)rand_r(&seed) % NR_LINES;

		if (rand_r(&seed) % 16 == 0) {
			/* a move: to any CPUs, online or not (an offline one alone is refused) */
			(void)irqkit_irq_set_affinity(T_EDGE(1) + line,
						      1 + (irqkit_cpumask)(rand_r(&seed) % 7));
			continue;
		}
		if (irqkit_sw_raise(T_EDGE(1) + line) == 0)
			atomic_fetch_add(&raises[line], 1);
	}
	return NULL;
}

static void test_lines_raised_while_cpus_come_and_go_lose_and_double_nothing(void **state)
{
	pthread_t th[NR_RAISERS];
	int rounds = stress_scale(200);

	(void)state;
	irqkit_tasklet_init(&tl, tasklet_fn, 0);
	irqkit_timer_setup(&tm, timer_fn, 0);
	for (unsigned int i = 0; i < NR_LINES; i++) {
		assert_int_equal(irqkit_request_irq(T_EDGE(1) + i, handler, 0, "hp", NULL), 0);
		assert_int_equal(irqkit_irq_set_affinity(T_EDGE(1) + i, 1ull << (i % 3)), 0);
	}
	for (int i = 0; i < NR_RAISERS; i++)
		assert_int_equal(pthread_create(&th[i], NULL, raiser, (void *)(uintptr_t)(i + 1)),
				 0);
	for (int r = 0; r < rounds; r++) {
		unsigned int cpu = 1 + (unsigned int)(r % 2);

		assert_int_equal(irqkit_remove_cpu(cpu), 0);
		assert_false(irqkit_cpu_online(cpu));
		assert_int_equal(irqkit_add_cpu(cpu), 0);
	}
	atomic_store(&stop_raisers, 1);
	for (int i = 0; i < NR_RAISERS; i++)
		pthread_join(th[i], NULL);

	for (unsigned int i = 0; i < NR_LINES; i++) {
		struct irqkit_sw_stats st;
		struct irqkit_irq_info info;

		assert_int_equal(irqkit_wait_delivered(T_EDGE(1) + i, 10000), 0);
		assert_int_equal(irqkit_sw_get_stats(T_EDGE(1) + i, &st), 0);
		assert_int_equal(irqkit_irq_get_info(T_EDGE(1) + i, &info), 0);
		if (atomic_load(&raises[i]) !=
		    atomic_load(&runs[i]) + (long)st.coalesced + (long)info.coalesced)
			fail_msg("line %u: raised %ld, ran %ld, coalesced %llu + %u", i,
				 atomic_load(&raises[i]), atomic_load(&runs[i]),
				 (unsigned long long)st.coalesced, info.coalesced);
	}
	assert_int_equal(atomic_load(&offline_runs), 0);
	/*
	 * The last schedule and the last arming ran too, wherever their CPU
	 * went: tasklet_kill waits for a scheduled tasklet (a lost one hangs it).
	 */
	irqkit_tasklet_kill(&tl);
	assert_true(atomic_load(&tasklet_runs) >= 1);
	assert_false(__atomic_load_n(&tl.state, __ATOMIC_ACQUIRE) & IRQKIT_TASKLET_STATE_SCHED);
	assert_true(wait_until(!irqkit_timer_pending(&tm), 5000));
	assert_true(wait_until(atomic_load(&timer_runs) == atomic_load(&timer_arms), 5000));
	for (unsigned int i = 0; i < NR_LINES; i++)
		irqkit_free_irq(T_EDGE(1) + i, NULL);
}

static int setup(void **state)
{
	(void)state;
	return thr_setup_cpus(3, T_NR_IRQS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
			test_lines_raised_while_cpus_come_and_go_lose_and_double_nothing, setup,
			thr_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
