// SPDX-License-Identifier: MIT
/*
 * Tests of the timeline recorder (src/core/debug/observe.c) and its file
 * (src/platform/posix/tracefile.c): the JSON parses (json-c), slices on a
 * track nest, every flow has both ends, and each handler run and work item
 * run is there.
 */
#define _GNU_SOURCE
#include "../harness.h"

#include <errno.h>
#include <json-c/json.h>

/* The action's name: a quote, a backslash and a tab, which the file must escape */
#define TRACEDEV	"trace\"dev\\\t"
#include <stdlib.h>
#include <unistd.h>

static struct tdev dev;
static char path[64];

static int setup(void **state)
{
	(void)state;
	tdev_init(&dev);
	snprintf(path, sizeof(path), "/tmp/irqkit-trace-test-%d.json", (int)getpid());
	return thr_setup(state);
}

static int teardown(void **state)
{
	if (!getenv("KEEP_TRACE")) unlink(path);
	return thr_teardown(state);
}

static atomic_int work_runs;

/*
 * Not static: a build without libdw names functions through dladdr(), which
 * sees only the exported ones (the tests link with -rdynamic).
 */
void trace_work_fn(struct irqkit_work *w);
void trace_tasklet_fn(unsigned long data);

void trace_work_fn(struct irqkit_work *w)
{
	(void)w;
	atomic_fetch_add(&work_runs, 1);
}

void trace_tasklet_fn(unsigned long data)
{
	atomic_fetch_add((atomic_int *)data, 1);
}

static const char *str_of(json_object *o, const char *key)
{
	json_object *v;

	return json_object_object_get_ex(o, key, &v) ? json_object_get_string(v) : NULL;
}

static double num_of(json_object *o, const char *key)
{
	json_object *v;

	return json_object_object_get_ex(o, key, &v) ? json_object_get_double(v) : -1;
}

/* One slice, for the nesting check. */
struct slice {
	long	track;		/* pid << 32 | tid */
	double	ts, end;
};

static int by_track_then_start(const void *a, const void *b)
{
	const struct slice *x = a, *y = b;

	if (x->track != y->track)
		return x->track < y->track ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->end > y->end ? -1 : x->end < y->end;	/* the outer one first */
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

struct summary {
	int	handler_slices;		/* named TRACEDEV */
	int	work_slices;		/* named "trace_work_fn" */
	int	tasklet_slices;
	int	softirq_slices;
	int	raises;
	int	queue_instants;
	int	flow_starts, flow_ends, flows_matched;
	int	cpu_track_names;
	long	overwritten;
};

/* Parse @file, check its form, nesting and flows (asserts), and count what is in it. */
static struct summary check_trace(const char *file)
{
	struct summary s = { 0 };
	json_object *root = json_object_from_file(file), *events, *other;
	size_t n, nslices = 0;
	struct slice *slices;
	double *starts, *ends;
	size_t nstarts = 0;

	if (!root)
		fail_msg("%s does not parse: %s", file, json_util_get_last_err());
	assert_true(json_object_object_get_ex(root, "traceEvents", &events));
	assert_true(json_object_is_type(events, json_type_array));
	n = json_object_array_length(events);
	slices = calloc(n, sizeof(*slices));
	starts = calloc(n, sizeof(*starts));
	ends = calloc(n, sizeof(*ends));
	assert_non_null(slices);
	assert_non_null(starts);
	assert_non_null(ends);
	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(events, i);
		const char *ph = str_of(e, "ph"), *name = str_of(e, "name"), *cat;

		assert_non_null(ph);
		assert_non_null(name);
		assert_true(num_of(e, "pid") >= 1);
		if (!strcmp(ph, "M")) {
			json_object *args, *v;

			assert_true(json_object_object_get_ex(e, "args", &args));
			assert_true(json_object_object_get_ex(args, "name", &v));
			if (strstr(json_object_get_string(v), "CPU") == json_object_get_string(v))
				s.cpu_track_names++;
			continue;
		}
		cat = str_of(e, "cat");
		assert_non_null(cat);
		assert_true(num_of(e, "ts") >= 0);
		if (!strcmp(ph, "X")) {
			double dur = num_of(e, "dur");

			assert_true(dur >= 0);
			slices[nslices++] = (struct slice){
				.track = ((long)num_of(e, "pid") << 32) | (long)num_of(e, "tid"),
				.ts = num_of(e, "ts"), .end = num_of(e, "ts") + dur };
			if (!strcmp(name, TRACEDEV))
				s.handler_slices++;
			else if (!strcmp(name, "trace_work_fn"))
				s.work_slices++;
			else if (!strcmp(name, "trace_tasklet_fn"))
				s.tasklet_slices++;
			if (!strcmp(cat, "softirq"))
				s.softirq_slices++;
		} else if (!strcmp(ph, "i")) {
			if (!strcmp(cat, "irq"))
				s.raises++;
			else if (!strcmp(name, "queue_work trace_work_fn"))
				s.queue_instants++;
		} else if (!strcmp(ph, "s")) {
			s.flow_starts++;
			starts[nstarts++] = num_of(e, "id");
		} else if (!strcmp(ph, "f")) {
			assert_string_equal(str_of(e, "bp"), "e");
			ends[s.flow_ends++] = num_of(e, "id");
		} else {
			fail_msg("unexpected phase %s", ph);
		}
	}
	/* the demo's file has some 90,000 flows: look each end up in the sorted starts */
	qsort(starts, nstarts, sizeof(*starts), by_value);
	for (int i = 0; i < s.flow_ends; i++)
		if (bsearch(&ends[i], starts, nstarts, sizeof(*starts), by_value))
			s.flows_matched++;
	/* slices of one track nest: each starts after its outer one and ends before it ends */
	qsort(slices, nslices, sizeof(*slices), by_track_then_start);
	for (size_t i = 0; i < nslices; i++) {
		for (size_t j = i + 1; j < nslices && slices[j].track == slices[i].track &&
		     slices[j].ts < slices[i].end - 0.0005; j++)
			if (slices[j].end > slices[i].end + 0.0005)
				fail_msg("slices overlap on track %lx: [%.3f, %.3f] and [%.3f, %.3f]",
					 slices[i].track, slices[i].ts, slices[i].end, slices[j].ts,
					 slices[j].end);
	}
	assert_true(json_object_object_get_ex(root, "otherData", &other));
	s.overwritten = atol(str_of(other, "events_overwritten"));
	free(slices);
	free(starts);
	free(ends);
	json_object_put(root);
	return s;
}

/*
 * Handlers, softirqs, tasklets and work items are all in the file; slices
 * nest; each queue_work links to its item's run, and the raises that were
 * not folded into another link to a handler run.
 */
static void test_trace_file_parses_nests_and_links(void **state)
{
	static atomic_int tasklet_runs;
	struct irqkit_tasklet t;
	struct irqkit_work w;
	struct summary s;
	long written;

	(void)state;
	atomic_store(&work_runs, 0);
	irqkit_init_work(&w, trace_work_fn);
	irqkit_tasklet_init(&t, trace_tasklet_fn, (unsigned long)&tasklet_runs);
	assert_int_equal(irqkit_request_irq(T_EDGE(3), tdev_handler, 0, TRACEDEV, &dev), 0);
	assert_int_equal(irqkit_trace_start(0), 0);
	tdev_raise_served(&dev, T_EDGE(3), 20);
	for (int i = 0; i < 10; i++) {
		assert_true(irqkit_queue_work(irqkit_system_wq(), &w));
		irqkit_flush_work(&w);
	}
	assert_int_equal(atomic_load(&work_runs), 10);
	/* on a bound thread, the softirq runs (and ends) at local_bh_enable() */
	assert_int_equal(irqkit_thread_bind(1), 0);
	irqkit_local_bh_disable();
	irqkit_tasklet_schedule(&t);
	irqkit_local_bh_enable();
	assert_int_equal(atomic_load(&tasklet_runs), 1);
	irqkit_thread_unbind();
	written = irqkit_trace_write(path);
	assert_true(written > 0);

	s = check_trace(path);
	assert_int_equal(s.handler_slices, 20);
	assert_int_equal(s.work_slices, 10);
	assert_int_equal(s.queue_instants, 10);
	assert_int_equal(s.tasklet_slices, 1);
	assert_true(s.softirq_slices >= 1);
	assert_int_equal(s.raises, 20);
	assert_int_equal(s.flow_ends, s.flows_matched);	/* every link has its start */
	assert_true(s.flow_ends >= 10 + 1);		/* the items', and at least one raise's */
	assert_true(s.cpu_track_names >= 2);
	assert_int_equal(s.overwritten, 0);
	/* recording stopped with the write: nothing more is recorded */
	tdev_raise_served(&dev, T_EDGE(3), 5);
	assert_int_equal(irqkit_trace_write(path), written);
}

/* A ring that fills keeps the newest events and the file says how many went. */
static void test_full_ring_overwrites_the_oldest_and_says_so(void **state)
{
	struct summary s;

	(void)state;
	assert_int_equal(irqkit_request_irq(T_EDGE(3), tdev_handler, 0, TRACEDEV, &dev), 0);
	assert_int_equal(irqkit_trace_start(16), 0);
	tdev_raise_served(&dev, T_EDGE(3), 200);
	assert_true(irqkit_trace_write(path) > 0);
	s = check_trace(path);
	assert_true(s.overwritten > 0);
	assert_true(s.handler_slices <= 16);
	assert_log_contains("oldest events were overwritten");
}

static void test_bad_calls_are_refused(void **state)
{
	(void)state;
	assert_int_equal(irqkit_trace_write(path), -ENODATA);	/* nothing recorded */
	assert_int_equal(irqkit_trace_start((1u << 24) + 1), -IRQKIT_EINVAL);
	assert_int_equal(irqkit_trace_write(NULL), -IRQKIT_EINVAL);
	assert_int_equal(irqkit_request_irq(T_EDGE(3), tdev_handler, 0, TRACEDEV, &dev), 0);
	assert_int_equal(irqkit_trace_start(0), 0);
	tdev_raise_served(&dev, T_EDGE(3), 1);
	assert_int_equal(irqkit_trace_write("/nonexistent-dir/trace.json"), -ENOENT);
	assert_log_contains("cannot write the trace to /nonexistent-dir/trace.json");
	irqkit_stop();
	assert_int_equal(irqkit_trace_start(0), -IRQKIT_ENODEV);
	assert_int_equal(irqkit_trace_write(path), -ENODATA);	/* freed with the runtime */
}

/* IRQKIT_TRACE=FILE: recorded from the start, written at stop. */
static void test_environment_records_and_writes_at_stop(void **state)
{
	struct summary s;

	(void)state;
	thr_teardown(state);
	setenv("IRQKIT_TRACE", path, 1);
	assert_int_equal(thr_setup(state), 0);
	unsetenv("IRQKIT_TRACE");
	assert_int_equal(irqkit_request_irq(T_EDGE(3), tdev_handler, 0, TRACEDEV, &dev), 0);
	tdev_raise_served(&dev, T_EDGE(3), 3);
	irqkit_stop();
	s = check_trace(path);
	assert_int_equal(s.handler_slices, 3);
}

/*
 * Rings and histograms end with the runtime and start again with the next:
 * five runs, each recording its own raises (ASan: no ring of an earlier run
 * is touched; the threads' rings of a new run are new).
 */
static void test_each_run_records_its_own(void **state)
{
	struct irqkit_hist_data d;
	struct summary s;

	for (int run = 0; run < 5; run++) {
		if (run) {
			thr_teardown(state);
			assert_int_equal(thr_setup(state), 0);
			tdev_init(&dev);
		}
		assert_int_equal(irqkit_request_irq(T_EDGE(3), tdev_handler, 0, TRACEDEV, &dev), 0);
		assert_int_equal(irqkit_hist_read(IRQKIT_HIST_IRQ_DURATION, T_EDGE(3), &d),
				 -IRQKIT_ENODATA);
		assert_int_equal(irqkit_trace_start(run % 2 ? 64 : 0), 0);
		assert_int_equal(irqkit_hist_enable(true), 0);
		tdev_raise_served(&dev, T_EDGE(3), 10 + run);
		assert_int_equal(irqkit_hist_read(IRQKIT_HIST_IRQ_DURATION, T_EDGE(3), &d), 0);
		assert_int_equal(d.count, 10 + run);
		assert_true(irqkit_trace_write(path) > 0);
		s = check_trace(path);
		assert_int_equal(s.handler_slices, 10 + run);
	}
}

#ifdef IRQKIT_DEMO
/* The demo's --trace: the whole program's timeline, a stuck line's 100,000 interrupts included. */
static void test_demo_writes_a_trace_that_nests(void **state)
{
	char cmd[512];
	struct summary s;

	(void)state;
	thr_teardown(state);
	snprintf(cmd, sizeof(cmd), "%s --trace %s >/dev/null 2>&1", IRQKIT_DEMO, path);
	assert_int_equal(system(cmd), 0);
	s = check_trace(path);
	assert_true(s.handler_slices == 0);	/* the demo's names are its devices' */
	assert_true(s.softirq_slices > 0);
	assert_true(s.raises > 0);
	assert_true(s.flow_ends > 0);
	if (!s.overwritten)		/* else a start may be among the overwritten */
		assert_int_equal(s.flow_ends, s.flows_matched);
	assert_true(s.flows_matched > 0);
	assert_true(thr_setup(state) == 0);
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_trace_file_parses_nests_and_links, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_full_ring_overwrites_the_oldest_and_says_so, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_bad_calls_are_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_environment_records_and_writes_at_stop, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_each_run_records_its_own, setup, teardown),
#ifdef IRQKIT_DEMO
		cmocka_unit_test_setup_teardown(test_demo_writes_a_trace_that_nests, setup, teardown),
#endif
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
