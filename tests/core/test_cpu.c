// SPDX-License-Identifier: MIT
/*
 * Tests of src/core/cpu.c and src/core/irq/cpuhotplug.c: CPU hotplug in
 * threaded mode.  Offline CPUs and their lines, pending arrivals, tasklets
 * and timers, the hotplug states' callbacks, and bad input.
 */
#include "../harness.h"
#include "../testchip.h"

#include <irqkit/cpu.h>

#include <pthread.h>
#include <unistd.h>

static struct tdev a;

static int setup3(void **state)
{
	(void)state;
	tdev_init(&a);
	return thr_setup_cpus(3, T_NR_IRQS);
}

static void raise_and_wait(unsigned int irq)
{
	assert_int_equal(irqkit_sw_raise(irq), 0);
	assert_int_equal(irqkit_wait_delivered(irq, 5000), 0);
}

static void test_bad_input_and_linuxs_answers(void **state)
{
	(void)state;
	assert_int_equal(irqkit_num_online_cpus(), 3);
	assert_int_equal(irqkit_remove_cpu(3), -IRQKIT_EINVAL);
	assert_int_equal(irqkit_add_cpu(64), -IRQKIT_EINVAL);
	assert_int_equal(irqkit_add_cpu(1), 1);		/* online already */
	assert_int_equal(irqkit_remove_cpu(1), 0);
	assert_false(irqkit_cpu_online(1));
	assert_int_equal(irqkit_cpu_online_mask(), 0x5);
	assert_int_equal(irqkit_remove_cpu(1), 1);	/* offline already */
	assert_int_equal(irqkit_remove_cpu(2), 0);
	assert_int_equal(irqkit_remove_cpu(0), -IRQKIT_EBUSY);	/* the last online CPU */
	assert_int_equal(irqkit_num_online_cpus(), 1);
	assert_int_equal(irqkit_add_cpu(2), 0);
	assert_int_equal(irqkit_add_cpu(1), 0);
	assert_int_equal(irqkit_cpu_online_mask(), 0x7);
}

static void test_a_thread_cannot_take_its_own_cpu_down(void **state)
{
	(void)state;
	assert_int_equal(irqkit_thread_bind(1), 0);
	assert_int_equal(irqkit_remove_cpu(1), -IRQKIT_EBUSY);
	assert_int_equal(irqkit_thread_unbind(), 0);
	assert_int_equal(irqkit_remove_cpu(1), 0);
}

static void test_lines_move_off_an_offline_cpu_and_stay(void **state)
{
	(void)state;
	assert_int_equal(irqkit_request_irq(T_EDGE(3), tdev_handler, 0, "a", &a), 0);
	assert_int_equal(irqkit_irq_set_affinity(T_EDGE(3), 1ull << 1 | 1ull << 2), 0);
	atomic_store(&a.status, 1);
	raise_and_wait(T_EDGE(3));
	assert_int_equal(atomic_load(&a.cpu), 1);
	assert_int_equal(irqkit_remove_cpu(1), 0);
	assert_int_equal(info_of(T_EDGE(3)).cpu, 2);	/* within its affinity */
	atomic_store(&a.status, 1);
	raise_and_wait(T_EDGE(3));
	assert_int_equal(atomic_load(&a.cpu), 2);
	assert_int_equal(atomic_load(&a.handled), 2);
	assert_log_lacks("no longer affine");
	/* an offline CPU is no target */
	assert_int_equal(irqkit_irq_set_affinity(T_EDGE(3), 1ull << 1), -IRQKIT_EINVAL);
	/* back online, the line does not move back by itself */
	assert_int_equal(irqkit_add_cpu(1), 0);
	assert_int_equal(info_of(T_EDGE(3)).cpu, 2);
	assert_int_equal(irqkit_irq_set_affinity(T_EDGE(3), 1ull << 1), 0);
	atomic_store(&a.status, 1);
	raise_and_wait(T_EDGE(3));
	assert_int_equal(atomic_load(&a.cpu), 1);
}

static void test_broken_affinity_is_told_at_debug_level(void **state)
{
	int i;

	(void)state;
	assert_int_equal(irqkit_request_irq(T_EDGE(3), tdev_handler, 0, "a", &a), 0);
	assert_int_equal(irqkit_irq_set_affinity(T_EDGE(3), 1ull << 1), 0);
	assert_int_equal(irqkit_remove_cpu(1), 0);
	i = log_find("IRQ 3: no longer affine to CPU1", 0);
	assert_true(i >= 0);
	assert_int_equal(logcap.levels[i], IRQKIT_LOG_DEBUG);
	assert_int_equal(info_of(T_EDGE(3)).cpu, 0);	/* the first online CPU */
	atomic_store(&a.status, 1);
	raise_and_wait(T_EDGE(3));
	assert_int_equal(atomic_load(&a.cpu), 0);
}

/*
 * An arrival pending for the CPU when it goes (a thread of that CPU holds
 * interrupts off, so it could not be taken) is delivered on the line's new
 * CPU, once.  Host only: the holder sleeps with interrupts off, which on
 * bare metal lets its hart's other threads run with them on (a kernel
 * would call it scheduling while atomic), and they take the arrival.
 */
#if T_CPUS_ARE_THREADS
static void test_pending_arrival_moves_with_its_line(void **state)
{
	struct cpu_hold hold;

	(void)state;
	assert_int_equal(irqkit_request_irq(T_EDGE(3), tdev_handler, 0, "a", &a), 0);
	assert_int_equal(irqkit_irq_set_affinity(T_EDGE(3), 1ull << 1), 0);
	cpu_hold_start(&hold, 1, NULL, NULL);
	atomic_store(&a.status, 1);
	assert_int_equal(irqkit_sw_raise(T_EDGE(3)), 0);
	usleep(20000);
	assert_int_equal(atomic_load(&a.calls), 0);	/* held off on CPU 1 */
	assert_int_equal(irqkit_remove_cpu(1), 0);
	assert_int_equal(irqkit_wait_delivered(T_EDGE(3), 5000), 0);
	assert_int_equal(atomic_load(&a.calls), 1);
	assert_int_equal(atomic_load(&a.cpu), 0);
	cpu_hold_release(&hold);
	usleep(10000);
	assert_int_equal(atomic_load(&a.calls), 1);	/* not again on CPU 1 */
}
#endif

/* A tasklet queued and a timer armed on the CPU run on an online CPU after it goes. */
static atomic_int tasklet_cpu = -1, timer_cpu = -1;
static atomic_int bh_holder;	/* 1: bottom halves off on CPU 1, work queued; 2: let go */
static struct irqkit_tasklet tl;
static struct irqkit_timer_list tm;

static void tasklet_fn(unsigned long data)
{
	(void)data;
	atomic_store(&tasklet_cpu, irqkit_smp_processor_id());
}

static void timer_fn(struct irqkit_timer_list *t)
{
	(void)t;
	atomic_store(&timer_cpu, irqkit_smp_processor_id());
}

static void *queue_on_cpu1_bh_off(void *arg)
{
	(void)arg;
	assert_int_equal(irqkit_thread_bind(1), 0);
	irqkit_local_bh_disable();
	irqkit_tasklet_schedule(&tl);
	irqkit_mod_timer(&tm, irqkit_jiffies() + irqkit_msecs_to_jiffies(30));
	atomic_store(&bh_holder, 1);
	while (atomic_load(&bh_holder) != 2)
		usleep(1000);
	irqkit_local_bh_enable();
	irqkit_thread_unbind();
	return NULL;
}

static void test_tasklets_and_timers_move_to_an_online_cpu(void **state)
{
	pthread_t th;

	(void)state;
	atomic_store(&bh_holder, 0);
	atomic_store(&tasklet_cpu, -1);
	atomic_store(&timer_cpu, -1);
	irqkit_tasklet_init(&tl, tasklet_fn, 0);
	irqkit_timer_setup(&tm, timer_fn, 0);
	assert_int_equal(pthread_create(&th, NULL, queue_on_cpu1_bh_off, NULL), 0);
	assert_true(wait_until(atomic_load(&bh_holder) == 1, 5000));
	usleep(10000);
	assert_int_equal(atomic_load(&tasklet_cpu), -1);	/* bottom halves off on CPU 1 */
	assert_int_equal(irqkit_remove_cpu(1), 0);
	assert_true(wait_until(atomic_load(&tasklet_cpu) >= 0, 5000));
	assert_int_equal(atomic_load(&tasklet_cpu), 0);
	assert_true(wait_until(atomic_load(&timer_cpu) >= 0, 5000));
	assert_int_equal(atomic_load(&timer_cpu), 0);
	atomic_store(&bh_holder, 2);
	pthread_join(th, NULL);
	irqkit_tasklet_kill(&tl);
}

/* ---- hotplug states --------------------------------------------------------------------- */

static atomic_int ups[4], downs[4], wrong_cpu, fail_up_on;

static int state_up(unsigned int cpu)
{
	if ((unsigned int)irqkit_smp_processor_id() != cpu || irqkit_in_interrupt())
		atomic_fetch_add(&wrong_cpu, 1);
	if ((int)cpu == atomic_load(&fail_up_on))
		return -IRQKIT_ENOMEM;
	atomic_fetch_add(&ups[cpu], 1);
	return 0;
}

static int state_down(unsigned int cpu)
{
	if ((unsigned int)irqkit_smp_processor_id() != cpu || irqkit_in_interrupt())
		atomic_fetch_add(&wrong_cpu, 1);
	atomic_fetch_add(&downs[cpu], 1);
	return 0;
}

static void reset_counts(void)
{
	for (int i = 0; i < 4; i++) {
		atomic_store(&ups[i], 0);
		atomic_store(&downs[i], 0);
	}
	atomic_store(&wrong_cpu, 0);
	atomic_store(&fail_up_on, -1);
}

static void test_state_callbacks_run_on_their_cpu(void **state)
{
	int st;

	(void)state;
	reset_counts();
	st = irqkit_cpuhp_setup_state(IRQKIT_CPUHP_AP_ONLINE_DYN, "test:online", state_up,
				      state_down);
	assert_true(st > 0);
	for (int i = 0; i < 3; i++)
		assert_int_equal(atomic_load(&ups[i]), 1);
	assert_int_equal(irqkit_remove_cpu(2), 0);
	assert_int_equal(atomic_load(&downs[2]), 1);
	assert_int_equal(atomic_load(&downs[1]), 0);
	assert_int_equal(irqkit_add_cpu(2), 0);
	assert_int_equal(atomic_load(&ups[2]), 2);
	/* a startup that fails leaves the CPU offline, the states done undone */
	assert_int_equal(irqkit_remove_cpu(2), 0);
	atomic_store(&fail_up_on, 2);
	assert_int_equal(irqkit_add_cpu(2), -IRQKIT_ENOMEM);
	assert_false(irqkit_cpu_online(2));
	assert_log_contains("CPU2: test:online startup failed: -12");
	atomic_store(&fail_up_on, -1);
	assert_int_equal(irqkit_add_cpu(2), 0);
	irqkit_cpuhp_remove_state(st);
	for (int i = 0; i < 3; i++)
		assert_true(atomic_load(&downs[i]) >= 1);
	assert_int_equal(atomic_load(&wrong_cpu), 0);
	/* removed: no callback any more */
	reset_counts();
	assert_int_equal(irqkit_remove_cpu(1), 0);
	assert_int_equal(atomic_load(&downs[1]), 0);
}

static void test_state_setup_errors(void **state)
{
	int st[40], n = 0, ret;

	(void)state;
	reset_counts();
	assert_int_equal(irqkit_cpuhp_setup_state(5, "x", state_up, state_down), -IRQKIT_EINVAL);
	assert_int_equal(irqkit_cpuhp_setup_state(IRQKIT_CPUHP_AP_ONLINE_DYN, NULL, state_up,
						  state_down), -IRQKIT_EINVAL);
	/* a startup failing on CPU 1 undoes CPU 0 */
	atomic_store(&fail_up_on, 1);
	assert_int_equal(irqkit_cpuhp_setup_state(IRQKIT_CPUHP_AP_ONLINE_DYN, "f", state_up,
						  state_down), -IRQKIT_ENOMEM);
	assert_int_equal(atomic_load(&downs[0]), 1);
	atomic_store(&fail_up_on, -1);
	/* every dynamic state taken: -ENOSPC */
	while ((ret = irqkit_cpuhp_setup_state_nocalls(IRQKIT_CPUHP_AP_ONLINE_DYN, "n", NULL,
						       NULL)) > 0 && n < 40)
		st[n++] = ret;
	assert_int_equal(ret, -IRQKIT_ENOSPC);
	assert_true(n >= 8);
	while (n--)
		irqkit_cpuhp_remove_state_nocalls(st[n]);
}

/* ---- managed lines -------------------------------------------------------------------- */

static void make_managed_on_cpu1(unsigned int irq)
{
	struct irqkit_irq_affinity_desc affd = { .mask = irqkit_cpus_of_mask(1ull << 1),
						 .is_managed = 1 };

	assert_int_equal(irqkit_irq_set_affinity_desc(irq, &affd), 0);
}

static void test_managed_line_shuts_down_and_comes_back(void **state)
{
	struct irqkit_irq_info info;

	(void)state;
	make_managed_on_cpu1(T_EDGE(3));
	assert_int_equal(irqkit_request_irq(T_EDGE(3), tdev_handler, 0, "a", &a), 0);
	info = info_of(T_EDGE(3));
	assert_true(info.managed && info.activated && info.started);
	assert_int_equal(info.cpu, 1);
	assert_int_equal(irqkit_irq_set_affinity_desc(T_EDGE(3), &(struct irqkit_irq_affinity_desc){
				 .mask = irqkit_cpus_of_mask(1) }), -IRQKIT_EBUSY);
	assert_int_equal(irqkit_remove_cpu(1), 0);
	info = info_of(T_EDGE(3));
	assert_true(info.managed_shutdown);
	assert_false(info.activated);
	assert_false(info.started);
	assert_int_equal(info.depth, 1);
	assert_log_lacks("no longer affine");		/* managed: shut down, not moved */
	assert_int_equal(irqkit_add_cpu(1), 0);
	info = info_of(T_EDGE(3));
	assert_false(info.managed_shutdown);
	assert_true(info.activated && info.started);
	assert_int_equal(info.depth, 0);
	assert_int_equal(info.cpu, 1);
	atomic_store(&a.status, 1);
	raise_and_wait(T_EDGE(3));
	assert_int_equal(atomic_load(&a.handled), 1);
	assert_int_equal(atomic_load(&a.cpu), 1);
}

/* As the kernel's irq_cpuhotplug_test: a disable, an unplug and a plug leave it disabled. */
static void test_managed_line_disabled_across_hotplug_stays_disabled(void **state)
{
	struct irqkit_irq_info info;

	(void)state;
	make_managed_on_cpu1(T_EDGE(3));
	assert_int_equal(irqkit_request_irq(T_EDGE(3), tdev_handler, 0, "a", &a), 0);
	irqkit_disable_irq(T_EDGE(3));
	assert_int_equal(info_of(T_EDGE(3)).depth, 1);
	assert_int_equal(irqkit_remove_cpu(1), 0);
	info = info_of(T_EDGE(3));
	assert_false(info.activated || info.started);
	assert_true(info.depth >= 1);
	assert_int_equal(irqkit_add_cpu(1), 0);
	info = info_of(T_EDGE(3));
	assert_false(info.activated || info.started);
	assert_int_equal(info.depth, 1);
	irqkit_enable_irq(T_EDGE(3));
	info = info_of(T_EDGE(3));
	assert_true(info.activated && info.started);
	assert_int_equal(info.depth, 0);
}

static void test_managed_line_requested_with_its_cpus_offline_waits(void **state)
{
	struct irqkit_irq_info info;

	(void)state;
	assert_int_equal(irqkit_remove_cpu(1), 0);
	make_managed_on_cpu1(T_EDGE(3));
	assert_int_equal(irqkit_request_irq(T_EDGE(3), tdev_handler, 0, "a", &a), 0);
	info = info_of(T_EDGE(3));
	assert_true(info.managed_shutdown);
	assert_false(info.started);
	assert_int_equal(info.depth, 1);
	assert_int_equal(irqkit_add_cpu(1), 0);
	info = info_of(T_EDGE(3));
	assert_true(info.started && info.activated);
	assert_int_equal(info.depth, 0);
	assert_int_equal(info.cpu, 1);
}

/* Deterministic mode: no dispatchers; the lines move, the player delivers them on CPU 0. */
static void test_deterministic_mode_moves_lines_too(void **state)
{
	(void)state;
	thr_teardown(NULL);
	assert_int_equal(det_setup(NULL), 0);
	assert_int_equal(irqkit_request_irq(T_EDGE(3), tdev_handler, 0, "a", &a), 0);
	assert_int_equal(irqkit_irq_set_affinity(T_EDGE(3), 1ull << 1), 0);
	assert_int_equal(irqkit_remove_cpu(0), -IRQKIT_EBUSY);	/* the player's own CPU */
	assert_int_equal(irqkit_remove_cpu(1), 0);
	assert_int_equal(info_of(T_EDGE(3)).cpu, 0);
	atomic_store(&a.status, 1);
	irqkit_sw_raise(T_EDGE(3));
	assert_int_equal(atomic_load(&a.handled), 1);
	assert_int_equal(atomic_load(&a.cpu), 0);
	assert_int_equal(irqkit_add_cpu(1), 0);
	det_teardown(NULL);
	assert_int_equal(thr_setup_cpus(3, T_NR_IRQS), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup3, thr_teardown)
		T(test_bad_input_and_linuxs_answers),
		T(test_a_thread_cannot_take_its_own_cpu_down),
		T(test_lines_move_off_an_offline_cpu_and_stay),
		T(test_broken_affinity_is_told_at_debug_level),
#if T_CPUS_ARE_THREADS
		T(test_pending_arrival_moves_with_its_line),
#endif
		T(test_tasklets_and_timers_move_to_an_online_cpu),
		T(test_state_callbacks_run_on_their_cpu),
		T(test_state_setup_errors),
		T(test_managed_line_shuts_down_and_comes_back),
		T(test_managed_line_disabled_across_hotplug_stays_disabled),
		T(test_managed_line_requested_with_its_cpus_offline_waits),
		T(test_deterministic_mode_moves_lines_too),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
