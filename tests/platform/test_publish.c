// SPDX-License-Identifier: MIT
/*
 * Tests of src/platform/posix/publish.c: the tables published for other
 * processes (IRQKIT_CFG_PUBLISH, IRQKIT_PUBLISH, IRQKIT_PUBLISH_DIR).
 */
#define _GNU_SOURCE
#include "../harness.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static struct tdev dev;
static char base[64];
static char dir[128];

static int setup(void **state)
{
	(void)state;
	tdev_init(&dev);
	snprintf(base, sizeof(base), "/tmp/irqkit-publish-test-XXXXXX");
	if (!mkdtemp(base))
		return -1;
	snprintf(dir, sizeof(dir), "%s/%d", base, (int)getpid());
	setenv("IRQKIT_PUBLISH_DIR", base, 1);
	setenv("IRQKIT_PUBLISH", "20", 1);	/* every 20 ms */
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	irqkit_stop();
	unsetenv("IRQKIT_PUBLISH");
	unsetenv("IRQKIT_PUBLISH_DIR");
	rmdir(base);
	return 0;
}

static bool exists(const char *path)
{
	struct stat st;

	return !stat(path, &st);
}

/* The file @name of the published directory, NUL-terminated, in @buf; its length or -1. */
static long read_published(const char *name, char *buf, size_t size)
{
	char path[256];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fread(buf, 1, size - 1, f);
	fclose(f);
	buf[n] = '\0';
	return (long)n;
}

static char file[16384], mine[16384];

/* Is the published table the process's own now? */
static bool published_table_matches(void)
{
	int n = irqkit_show_interrupts_buf(mine, sizeof(mine), IRQKIT_SHOW_LINUX_ONLY);

	return n > 0 && read_published("interrupts", file, sizeof(file)) == n && !strcmp(file, mine);
}

static void start_publishing_world(void)
{
	tdev_init(&dev);
	assert_int_equal(start_world_cfg((struct irqkit_config){
		.nr_irqs = T_NR_IRQS, .nr_cpus = T_NR_CPUS, .mode = IRQKIT_MODE_THREADED,
		.flags = IRQKIT_CFG_PUBLISH }), 0);
	assert_int_equal(irqkit_request_irq(T_EDGE(3), tdev_handler, 0, "pubdev", &dev), 0);
	tdev_raise_served(&dev, T_EDGE(3), 50);
}

static void test_tables_are_published_and_removed_at_stop(void **state)
{
	char comm[64];

	(void)state;
	start_publishing_world();
	assert_true(wait_until(published_table_matches(), 10000));
	assert_non_null(strstr(file, "pubdev"));
	assert_non_null(strstr(file, "\nERR:"));
	assert_null(strstr(file, "irqkit:"));		/* Linux's table only */

	/* each file is replaced on its own: "irqkit" may still be the round's before */
	assert_true(wait_until(read_published("irqkit", file, sizeof(file)) > 0 &&
			       strstr(file, "  3:"), 10000));
	assert_true(!strncmp(file, "irqkit:", 7));

	assert_true(wait_until(read_published("softirqs", file, sizeof(file)) > 0, 10000));
	assert_non_null(strstr(file, "CPU0"));
	assert_non_null(strstr(file, "TASKLET:"));

	assert_true(wait_until(read_published("timer_list", file, sizeof(file)) > 0, 10000));
	assert_non_null(strstr(file, "Timer List Version"));
	assert_non_null(strstr(file, "cpu: 0"));

	assert_true(read_published("comm", comm, sizeof(comm)) > 0);
	assert_non_null(strstr(comm, "test_publish"));

	/* the counts move: 50 more interrupts show in the next table */
	tdev_raise_served(&dev, T_EDGE(3), 50);
	assert_true(wait_until(published_table_matches(), 10000));

	irqkit_stop();
	assert_false(exists(dir));
}

/* lsirq (util-linux) parses the published table as it parses /proc/interrupts. */
static void test_lsirq_reads_the_published_table(void **state)
{
	char cmd[512], out[4096] = "";
	unsigned long total = 0;
	size_t n;
	FILE *p;

	(void)state;
	if (geteuid() != 0 || system("command -v lsirq >/dev/null && command -v unshare >/dev/null"))
		skip();
	start_publishing_world();
	assert_true(wait_until(published_table_matches(), 10000));
	for (unsigned int cpu = 0; cpu < T_NR_CPUS; cpu++)
		total += irqkit_kstat_irqs_cpu(T_EDGE(3), cpu);
	/* lsirq reads /proc/interrupts only: show it the file there, in a mount namespace */
	snprintf(cmd, sizeof(cmd),
		 "unshare -m sh -c 'mount --bind %s/interrupts /proc/interrupts && lsirq -n -o IRQ,TOTAL,NAME' 2>&1",
		 dir);
	p = popen(cmd, "r");
	assert_non_null(p);
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = '\0';
	if (pclose(p) != 0 && strstr(out, "mount"))
		skip();				/* no mount namespace here */
	snprintf(cmd, sizeof(cmd), "%lu SW-IRQ 3 Edge pubdev", total);
	if (!strstr(out, cmd))
		fail_msg("lsirq printed:\n%s\nexpected a row with \"%s\"", out, cmd);
}

static json_object *member(json_object *o, const char *key)
{
	json_object *v = NULL;

	if (!json_object_object_get_ex(o, key, &v))
		fail_msg("no \"%s\" in %s", key, json_object_to_json_string(o));
	return v;
}

/* counters.json: every counter of the line, as the process sees them. */
static void test_counters_json_has_every_counter(void **state)
{
	json_object *root, *irqs, *line = NULL;
	uint64_t sum = 0;
	char hist[256];

	(void)state;
	start_publishing_world();
	assert_int_equal(irqkit_sw_raise(T_EDGE(3)), 0);	/* unclaimed: one IRQ_NONE */
	assert_true(wait_until(info_of(T_EDGE(3)).irqs_unhandled == 1, 5000));
	assert_true(wait_until(read_published("counters.json", file, sizeof(file)) > 0 &&
			       strstr(file, "\"unhandled\": 1"), 10000));
	root = json_tokener_parse(file);
	if (!root)
		fail_msg("counters.json does not parse:\n%s", file);
	assert_int_equal(json_object_get_int(member(root, "cpus")), T_NR_CPUS);
	irqs = member(root, "irqs");
	for (size_t i = 0; i < json_object_array_length(irqs); i++)
		if (json_object_get_int(member(json_object_array_get_idx(irqs, i), "irq")) == T_EDGE(3))
			line = json_object_array_get_idx(irqs, i);
	assert_non_null(line);
	assert_string_equal(json_object_get_string(
		json_object_array_get_idx(member(line, "actions"), 0)), "pubdev");
	for (size_t c = 0; c < T_NR_CPUS; c++)
		sum += (uint64_t)json_object_get_int64(json_object_array_get_idx(member(line, "per_cpu"), c));
	assert_int_equal(sum, 51);
	assert_int_equal(json_object_get_int64(member(line, "count")), 51);
	assert_int_equal(json_object_get_int(member(line, "unhandled")), 1);
	assert_false(json_object_get_boolean(member(line, "spurious_disabled")));
	assert_string_equal(json_object_get_string(member(line, "type")), "edge");
	(void)member(line, "coalesced");
	(void)member(line, "lost");
	(void)member(member(root, "softirqs"), "TASKLET");
	assert_false(json_object_get_boolean(member(root, "histograms")));
	json_object_put(root);

	/* the histograms, while they record */
	snprintf(hist, sizeof(hist), "%s/hist", dir);
	assert_false(exists(hist));
	assert_int_equal(irqkit_hist_enable(true), 0);
	tdev_raise_served(&dev, T_EDGE(3), 5);
	assert_true(wait_until(read_published("hist", file, sizeof(file)) > 0 &&
			       strstr(file, "irq 3 (pubdev): handlers: 5 samples"), 10000));
	irqkit_stop();
	assert_false(exists(dir));
}

static void test_publishing_off_and_bad_settings(void **state)
{
	(void)state;
	/* the flag with IRQKIT_PUBLISH=0: nothing */
	setenv("IRQKIT_PUBLISH", "0", 1);
	start_publishing_world();
	usleep(50000);
	assert_false(exists(dir));
	irqkit_stop();

	/* a value that is not an interval: reported, nothing, the runtime runs */
	setenv("IRQKIT_PUBLISH", "often", 1);
	start_publishing_world();
	assert_log_contains("IRQKIT_PUBLISH=often: not 0, 1 or an interval in ms");
	assert_false(exists(dir));
	irqkit_stop();

	/* a directory that cannot be made: reported once, the runtime runs */
	setenv("IRQKIT_PUBLISH", "1", 1);
	setenv("IRQKIT_PUBLISH_DIR", "/proc/irqkit-cannot-be-here", 1);
	start_publishing_world();
	assert_log_contains("cannot publish the tables in /proc/irqkit-cannot-be-here");
	assert_int_equal(log_count("cannot publish"), 1);
	irqkit_stop();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
		T(test_tables_are_published_and_removed_at_stop),
		T(test_lsirq_reads_the_published_table),
		T(test_counters_json_has_every_counter),
		T(test_publishing_off_and_bad_settings),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
