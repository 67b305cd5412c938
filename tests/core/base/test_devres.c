// SPDX-License-Identifier: MIT
/*
 * Managed device resources, in Linux's names: released newest first when
 * the device's resources are released; a managed line freed there, after
 * its handlers, before the memory its handler uses; devm_free_irq early;
 * devm_add_action_or_reset running the action when it cannot add it; and
 * the bad input -- a line the device does not hold, memory it does not
 * own, an action it does not have, a device never initialised -- each a
 * WARNING and never a crash.  A stress run releases a device while another
 * CPU's handler of its line runs (ASan and TSan see the order).
 */
#include "../../harness.h"

#include <linux/device.h>
#include <linux/errno.h>
#include <linux/interrupt.h>
#include <linux/slab.h>

extern int irqkit__plat_alloc_fail;

static char order[64];

static void note_a(void *data)
{
	(void)data;
	strcat(order, "a");
}

static void note_b(void *data)
{
	(void)data;
	strcat(order, "b");
}

static void note_c(void *data)
{
	(void)data;
	strcat(order, "c");
}

static void test_actions_run_newest_first_and_once(void **state)
{
	struct device dev;

	(void)state;
	order[0] = '\0';
	device_initialize(&dev);
	dev_set_name(&dev, "mydev.%d", 3);
	assert_string_equal(dev_name(&dev), "mydev.3");
	assert_int_equal(devm_add_action(&dev, note_a, NULL), 0);
	assert_int_equal(devm_add_action(&dev, note_b, NULL), 0);
	assert_int_equal(devm_add_action(&dev, note_c, NULL), 0);
	assert_non_null(devm_kzalloc(&dev, 100, GFP_KERNEL));
	assert_int_equal(devres_release_all(&dev), 4);
	assert_string_equal(order, "cba");
	assert_int_equal(devres_release_all(&dev), 0);	/* nothing left: nothing twice */
	assert_string_equal(order, "cba");
}

static void test_remove_and_release_one_action(void **state)
{
	struct device dev;

	(void)state;
	order[0] = '\0';
	device_initialize(&dev);
	assert_int_equal(devm_add_action(&dev, note_a, NULL), 0);
	assert_int_equal(devm_add_action(&dev, note_b, NULL), 0);
	assert_int_equal(devm_add_action(&dev, note_c, NULL), 0);
	devm_remove_action(&dev, note_b, NULL);		/* forgotten, not run */
	devm_release_action(&dev, note_c, NULL);	/* run now */
	assert_string_equal(order, "c");
	assert_int_equal(devres_release_all(&dev), 1);
	assert_string_equal(order, "ca");
	/* one it does not have: Linux's WARN_ON, nothing else */
	log_clear();
	devm_remove_action(&dev, note_b, NULL);
	assert_log_contains("devm_remove_action: device  has no such action");
	devm_release_action(&dev, note_a, (void *)1);
	assert_log_contains("devm_release_action");
	assert_string_equal(order, "ca");
}

static void test_add_action_or_reset_runs_it_when_it_fails(void **state)
{
	struct device dev;

	(void)state;
	order[0] = '\0';
	device_initialize(&dev);
	irqkit__plat_alloc_fail = 1;		/* the resource's allocation */
	assert_int_equal(devm_add_action_or_reset(&dev, note_a, NULL), -ENOMEM);
	assert_string_equal(order, "a");	/* reset: run at once */
	assert_int_equal(devm_add_action(&dev, note_b, NULL), 0);
	irqkit__plat_alloc_fail = 1;
	assert_int_equal(devm_add_action(&dev, note_c, NULL), -ENOMEM);	/* plain: not run */
	assert_int_equal(devres_release_all(&dev), 1);
	assert_string_equal(order, "ab");
}

static void test_managed_memory(void **state)
{
	struct device dev;
	unsigned char *p, *q;
	int *v;

	(void)state;
	device_initialize(&dev);
	p = devm_kzalloc(&dev, 64, GFP_KERNEL);
	q = devm_kmalloc(&dev, 32, GFP_KERNEL);
	v = devm_kcalloc(&dev, 8, sizeof(int), GFP_KERNEL);
	assert_non_null(p);
	assert_non_null(q);
	assert_non_null(v);
	for (int i = 0; i < 64; i++)
		assert_int_equal(p[i], 0);
	assert_null(devm_kcalloc(&dev, (size_t)-1 / 2, 4, GFP_KERNEL));	/* overflow */
	memset(q, 0xa5, 32);
	devm_kfree(&dev, p);				/* early */
	log_clear();
	devm_kfree(&dev, p);				/* twice: not its memory any more */
	assert_log_contains("devm_kfree");
	assert_int_equal(devres_release_all(&dev), 2);	/* q and v, freed (ASan sees leaks) */
}

/* ---- managed interrupt lines ---------------------------------------------------- */

struct mydev {
	struct device	dev;
	int		*counts;	/* devm memory the handler writes */
	atomic_int	calls;
};

static irqreturn_t mydev_interrupt(int irq, void *dev_id)
{
	struct mydev *m = dev_id;

	(void)irq;
	m->counts[0]++;
	atomic_fetch_add(&m->calls, 1);
	return IRQ_HANDLED;
}

static irqreturn_t mydev_thread(int irq, void *dev_id)
{
	struct mydev *m = dev_id;

	(void)irq;
	m->counts[1]++;
	return IRQ_HANDLED;
}

static int mydev_probe(struct mydev *m, unsigned int irq)
{
	m->counts = devm_kcalloc(&m->dev, 2, sizeof(int), GFP_KERNEL);
	if (!m->counts)
		return -ENOMEM;
	/* the memory first, the line after it: the line goes first at release */
	return devm_request_threaded_irq(&m->dev, irq, mydev_interrupt, mydev_thread, IRQF_ONESHOT,
					 NULL, m);
}

static void test_managed_line_is_freed_at_release(void **state)
{
	struct mydev m = { 0 };
	struct irqkit_irq_info info;

	(void)state;
	device_initialize(&m.dev);
	dev_set_name(&m.dev, "mydev0");
	assert_int_equal(mydev_probe(&m, T_EDGE(2)), 0);
	info = info_of(T_EDGE(2));
	assert_int_equal(info.nr_actions, 1);
	{
		char buf[4096];

		assert_true(irqkit_show_interrupts_buf(buf, sizeof(buf), 0) > 0);
		assert_non_null(strstr(buf, "mydev0"));	/* NULL name: dev_name() */
	}
	assert_int_equal(irqkit_sw_raise(T_EDGE(2)), 0);
	assert_int_equal(irqkit_wait_delivered(T_EDGE(2), 5000), 0);
	assert_int_equal(atomic_load(&m.calls), 1);
	assert_int_equal(devres_release_all(&m.dev), 2);
	assert_false(irqkit_irq_has_action(T_EDGE(2)));
	/* freed: a raise now reaches nobody, and touches no freed memory */
	assert_int_equal(irqkit_sw_raise(T_EDGE(2)), 0);
	assert_int_equal(atomic_load(&m.calls), 1);
}

static void test_devm_free_irq_early_and_bad(void **state)
{
	struct mydev m = { 0 };
	struct device other;

	(void)state;
	device_initialize(&m.dev);
	device_initialize(&other);
	assert_int_equal(mydev_probe(&m, T_EDGE(3)), 0);
	devm_free_irq(&m.dev, T_EDGE(3), &m);		/* early: freed, off the list */
	assert_false(irqkit_irq_has_action(T_EDGE(3)));
	log_clear();
	devm_free_irq(&m.dev, T_EDGE(3), &m);		/* again: a WARNING, and free_irq's own */
	assert_log_contains("WARNING");
	assert_log_contains("is not a managed line of device");
	assert_log_contains("Trying to free already-free IRQ");
	assert_int_equal(devres_release_all(&m.dev), 1);	/* the memory only */

	/* a line requested with plain request_irq: warned, then freed all the same, as Linux */
	assert_int_equal(request_irq(T_EDGE(4), mydev_interrupt, 0, "plain", &m), 0);
	log_clear();
	devm_free_irq(&other, T_EDGE(4), &m);
	assert_log_contains("is not a managed line of device");
	assert_false(irqkit_irq_has_action(T_EDGE(4)));
}

static void test_failed_request_adds_nothing(void **state)
{
	struct device dev;
	int cookie;

	(void)state;
	device_initialize(&dev);
	assert_int_equal(request_irq(T_EDGE(5), mydev_interrupt, 0, "first", &cookie), 0);
	dev_set_name(&dev, "second.0");
	log_clear();
	assert_int_equal(devm_request_irq(&dev, T_EDGE(5), mydev_interrupt, 0, "second", &dev),
			 -EBUSY);
	assert_log_contains("second.0: failed to request interrupt");
	assert_int_equal(devm_request_irq(&dev, T_NOCHIP, mydev_interrupt, 0, "nochip", &dev),
			 -ENOSYS);
	assert_int_equal(devres_release_all(&dev), 0);
	assert_true(irqkit_irq_has_action(T_EDGE(5)));	/* the other owner's line stays */
	free_irq(T_EDGE(5), &cookie);
}

static void test_uninitialised_device_is_refused(void **state)
{
	struct device dev;
	int cookie;

	(void)state;
	memset(&dev, 0, sizeof(dev));
	log_clear();
	assert_int_equal(devm_request_irq(&dev, T_EDGE(6), mydev_interrupt, 0, "x", &cookie),
			 -EINVAL);
	assert_log_contains("an uninitialised device");
	assert_false(irqkit_irq_has_action(T_EDGE(6)));
	assert_null(devm_kzalloc(&dev, 8, GFP_KERNEL));
	assert_int_equal(devres_release_all(&dev), -ENODEV);
	assert_int_equal(devm_add_action(NULL, note_a, NULL), -EINVAL);
	assert_log_contains("a NULL device");
}

/* ---- stress: release while another CPU's handler runs ------------------------------ */

static atomic_bool raising;

static void *raiser(void *arg)
{
	(void)arg;
	while (atomic_load(&raising)) {
		(void)irqkit_sw_raise(T_EDGE(7));
#if !T_CPUS_ARE_THREADS
		/* a hart's threads do not preempt this loop: it gives way to them */
		usleep_100();
#endif
	}
	return NULL;
}

static void test_release_waits_for_a_running_handler(void **state)
{
	pthread_t t;

	(void)state;
	assert_int_equal(irqkit_irq_set_affinity(T_EDGE(7), 1u << 1), 0);
	atomic_store(&raising, true);
	assert_int_equal(pthread_create(&t, NULL, raiser, NULL), 0);
	for (int i = 0; i < stress_scale(300); i++) {
		struct mydev *m = calloc(1, sizeof(*m));

		assert_non_null(m);
		device_initialize(&m->dev);
		assert_int_equal(mydev_probe(m, T_EDGE(7)), 0);
		assert_int_equal(devres_release_all(&m->dev), 2);
		free(m);			/* a handler still inside would write freed memory */
	}
	atomic_store(&raising, false);
	pthread_join(t, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_actions_run_newest_first_and_once, det_setup,
						det_teardown),
		cmocka_unit_test_setup_teardown(test_remove_and_release_one_action, det_setup,
						det_teardown),
		cmocka_unit_test_setup_teardown(test_add_action_or_reset_runs_it_when_it_fails,
						det_setup, det_teardown),
		cmocka_unit_test_setup_teardown(test_managed_memory, det_setup, det_teardown),
		cmocka_unit_test_setup_teardown(test_managed_line_is_freed_at_release, thr_setup,
						thr_teardown),
		cmocka_unit_test_setup_teardown(test_devm_free_irq_early_and_bad, thr_setup,
						thr_teardown),
		cmocka_unit_test_setup_teardown(test_failed_request_adds_nothing, det_setup,
						det_teardown),
		cmocka_unit_test_setup_teardown(test_uninitialised_device_is_refused, det_setup,
						det_teardown),
		cmocka_unit_test_setup_teardown(test_release_waits_for_a_running_handler, thr_setup,
						thr_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
