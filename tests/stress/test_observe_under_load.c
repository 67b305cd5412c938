// SPDX-License-Identifier: MIT
/*
 * Stress of the histograms and the recorder (src/core/debug/observe.c,
 * src/platform/posix/tracefile.c): switched on and off, written and
 * restarted while threads raise lines, schedule tasklets and queue work on
 * both CPUs (under ThreadSanitizer too): counts only grow while on, and each
 * file written parses.
 */
#define _GNU_SOURCE
#include "../harness.h"

#include <json-c/json.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#define PRODUCERS 3

static struct tdev devs[PRODUCERS];
static atomic_bool done;
static atomic_int works_run;
static char path[64];

struct producer {
	int			id;
	struct irqkit_work	work;
	int			raises;
};

static void load_work(struct irqkit_work *w)
{
	(void)w;
	atomic_fetch_add(&works_run, 1);
}

static void *producer_main(void *arg)
{
	struct producer *p = arg;

	while (!atomic_load(&done)) {
		atomic_store(&devs[p->id].status, 1);
		if (irqkit_sw_raise(T_EDGE(2 + p->id)))
			break;
		__atomic_store_n(&p->raises, p->raises + 1, __ATOMIC_RELAXED);
		irqkit_queue_work(irqkit_system_wq(), &p->work);
		if (p->raises % 64 == 0)
			usleep(100);
	}
	return NULL;
}

static pthread_t threads[PRODUCERS];
static struct producer prods[PRODUCERS];

static int total_raises(void)
{
	int n = 0;

	for (int i = 0; i < PRODUCERS; i++)
		n += __atomic_load_n(&prods[i].raises, __ATOMIC_RELAXED);
	return n;
}
static int nr_started;

/* The producers end before the runtime, whether the test passed or failed. */
static int teardown(void **state)
{
	atomic_store(&done, true);
	for (int i = 0; i < nr_started; i++)
		pthread_join(threads[i], NULL);
	nr_started = 0;
	unlink(path);
	return thr_teardown(state);
}

static void test_switching_while_loaded(void **state)
{
	int rounds = stress_scale(40);
	static struct irqkit_work own_work;	/* outlives a failed test: teardown stops the runtime */

	(void)state;
	snprintf(path, sizeof(path), "/tmp/irqkit-trace-stress-%d.json", (int)getpid());
	atomic_store(&done, false);
	for (int i = 0; i < PRODUCERS; i++) {
		tdev_init(&devs[i]);
		assert_int_equal(irqkit_request_irq(T_EDGE(2 + i), tdev_handler, 0, "loaddev",
						    &devs[i]), 0);
		prods[i] = (struct producer){ .id = i };
		irqkit_init_work(&prods[i].work, load_work);
	}
	irqkit_init_work(&own_work, load_work);
	for (; nr_started < PRODUCERS; nr_started++)
		assert_int_equal(pthread_create(&threads[nr_started], NULL, producer_main,
						&prods[nr_started]), 0);
	for (int r = 0; r < rounds; r++) {
		struct irqkit_hist_data d;
		uint64_t before;
		long written;
		int raised;

		assert_int_equal(irqkit_hist_enable(true), 0);
		assert_int_equal(irqkit_trace_start(r % 2 ? 256 : 0), 0);
		raised = total_raises();
		assert_true(wait_until(total_raises() > raised + 10, 10000));
		/*
		 * Raises may all fold into a latched one while a CPU is slow to
		 * take it, recording nothing: one queue_work of an idle item is
		 * always recorded, so the file is never empty.
		 */
		irqkit_flush_work(&own_work);
		assert_true(irqkit_queue_work(irqkit_system_wq(), &own_work));
		/* a histogram never loses a sample it counted: counts only grow while on */
		assert_int_equal(irqkit_hist_read(IRQKIT_HIST_IRQ_DURATION, T_EDGE(2), &d), 0);
		before = d.count;
		usleep(1000);
		assert_int_equal(irqkit_hist_read(IRQKIT_HIST_IRQ_DURATION, T_EDGE(2), &d), 0);
		assert_true(d.count >= before);
		if (r % 4 == 0)
			assert_int_equal(irqkit_hist_enable(false), 0);
		/* the file's form in detail is test_tracefile's; here: it parses */
		written = irqkit_trace_write(path);
		if (written <= 0)
			fail_msg("round %d: irqkit_trace_write() = %ld", r, written);
		{
			json_object *root = json_object_from_file(path);

			if (!root)
				fail_msg("round %d: %s does not parse: %s", r, path,
					 json_util_get_last_err());
			json_object_put(root);
		}
	}
	atomic_store(&done, true);
	for (int i = 0; i < nr_started; i++)
		pthread_join(threads[i], NULL);
	nr_started = 0;
	for (int i = 0; i < PRODUCERS; i++)
		irqkit_cancel_work_sync(&prods[i].work);
	irqkit_cancel_work_sync(&own_work);
}

/*
 * Stop while the recorder is on and kworkers are finishing items: a worker
 * writes its item's end to its ring after the function returns, so the
 * rings must outlive the workers (freed before them, a worker wrote freed
 * memory: the API fuzzer found it under ASan).  Each round stops the
 * runtime while an item is at a random point of its run.
 */
static void short_work(struct irqkit_work *w)
{
	(void)w;
	usleep((unsigned int)(rand() % 200));
}

static void test_stop_while_recording_work(void **state)
{
	static struct irqkit_work items[4];

	(void)state;
	srand(test_seed());
	for (int round = 0; round < stress_scale(200); round++) {
		if (round)
			assert_int_equal(thr_setup_cpus(2, 64), 0);
		assert_int_equal(irqkit_trace_start(64), 0);
		for (int i = 0; i < 4; i++) {
			irqkit_init_work(&items[i], short_work);
			irqkit_queue_work_on(i & 1, irqkit_system_wq(), &items[i]);
		}
		usleep((unsigned int)(rand() % 300));
		irqkit_stop();
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_switching_while_loaded, thr_setup, teardown),
		cmocka_unit_test_setup_teardown(test_stop_while_recording_work, thr_setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
