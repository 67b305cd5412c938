// SPDX-License-Identifier: MIT
/* The test harness: log capture, test worlds, simulated devices. */
#define _GNU_SOURCE
#include "harness.h"

#include <dirent.h>
#include <sys/wait.h>

#include <stdlib.h>
#include <time.h>
#include <unistd.h>

struct logcap logcap = { .lock = PTHREAD_MUTEX_INITIALIZER };
char order_buf[256];

void logcap_hook(void *arg, int level, const char *line)
{
	(void)arg;
	pthread_mutex_lock(&logcap.lock);
	if (logcap.echo)
		fprintf(stderr, "  log<%d> %s\n", level, line);
	if (logcap.n < LOG_MAX_LINES) {
		snprintf(logcap.lines[logcap.n], LOG_LINE_LEN, "%s", line);
		logcap.levels[logcap.n] = level;
		logcap.n++;
	} else {
		logcap.dropped++;
	}
	pthread_mutex_unlock(&logcap.lock);
}

void log_clear(void)
{
	pthread_mutex_lock(&logcap.lock);
	logcap.n = 0;
	logcap.dropped = 0;
	pthread_mutex_unlock(&logcap.lock);
}

int log_find(const char *needle, int from)
{
	int found = -1;

	pthread_mutex_lock(&logcap.lock);
	for (int i = from < 0 ? 0 : from; i < logcap.n; i++) {
		if (strstr(logcap.lines[i], needle)) {
			found = i;
			break;
		}
	}
	pthread_mutex_unlock(&logcap.lock);
	return found;
}

int log_count(const char *needle)
{
	int n = 0;

	pthread_mutex_lock(&logcap.lock);
	for (int i = 0; i < logcap.n; i++)
		if (strstr(logcap.lines[i], needle))
			n++;
	pthread_mutex_unlock(&logcap.lock);
	return n;
}

bool log_contains(const char *needle)
{
	return log_find(needle, 0) >= 0;
}

void log_dump(void)
{
	pthread_mutex_lock(&logcap.lock);
	fprintf(stderr, "--- captured log (%d lines, %d dropped)\n", logcap.n, logcap.dropped);
	for (int i = 0; i < logcap.n && i < 200; i++)
		fprintf(stderr, "  %s\n", logcap.lines[i]);
	pthread_mutex_unlock(&logcap.lock);
}

static int add_lines(void)
{
	if (irqkit_swchip_add(T_EDGE(0), 16, IRQKIT_TYPE_EDGE_RISING))
		return -1;
	if (irqkit_swchip_add(T_LEVEL(0), 16, IRQKIT_TYPE_LEVEL_HIGH))
		return -1;
	return 0;
}

int start_world_cfg(struct irqkit_config cfg)
{
	const char *echo = getenv("IRQKIT_TEST_ECHO");

	cfg.log = logcap_hook;
	logcap.echo = echo && *echo == '1';
	log_clear();
	order_buf[0] = '\0';
	if (irqkit_start(&cfg))
		return -1;
	if (add_lines()) {
		irqkit_stop();
		return -1;
	}
	return 0;
}

static int start_world(enum irqkit_mode mode, unsigned int cpus, unsigned int nr_irqs,
		       unsigned int flags)
{
	return start_world_cfg((struct irqkit_config){
		.nr_irqs = nr_irqs, .nr_cpus = cpus, .mode = mode, .flags = flags });
}

int det_setup_flags(unsigned int cfg_flags)
{
	return start_world(IRQKIT_MODE_DETERMINISTIC, T_NR_CPUS, T_NR_IRQS, cfg_flags);
}

int det_setup(void **state)
{
	(void)state;
	return det_setup_flags(0);
}

int det_teardown(void **state)
{
	(void)state;
	irqkit_stop();
	return 0;
}

int thr_setup_cpus(unsigned int cpus, unsigned int nr_irqs)
{
	return start_world(IRQKIT_MODE_THREADED, cpus, nr_irqs, 0);
}

int thr_setup(void **state)
{
	(void)state;
	return thr_setup_cpus(T_NR_CPUS, T_NR_IRQS);
}

int thr_teardown(void **state)
{
	(void)state;
	irqkit_stop();
	return 0;
}

struct irqkit_irq_info info_of(unsigned int irq)
{
	struct irqkit_irq_info info;

	assert_int_equal(irqkit_irq_get_info(irq, &info), 0);
	return info;
}

void tdev_raise_served(struct tdev *dev, unsigned int irq, int n)
{
	int handled = atomic_load(&dev->handled);

	for (int i = 0; i < n; i++) {
		atomic_store(&dev->status, 1);
		assert_int_equal(irqkit_sw_raise(irq), 0);
		assert_true(wait_until(!atomic_load(&dev->status), 5000));
	}
	assert_true(wait_until(atomic_load(&dev->handled) == handled + n, 10000));
}

void tdev_init(struct tdev *dev)
{
	memset(dev, 0, sizeof(*dev));
	dev->ret = -1;
}

enum irqkit_irqreturn tdev_handler(int irq, void *dev_id)
{
	struct tdev *dev = dev_id;

	/* what the handler saw first, then the count a waiting test reads (seq_cst) */
	dev->saw_irqs_off = irqkit_irqs_disabled();
	dev->saw_hardirq = irqkit_in_hardirq();
	dev->cpu = irqkit_smp_processor_id();
	atomic_fetch_add(&dev->calls, 1);
	if (dev->order)
		strncat(order_buf, dev->order, sizeof(order_buf) - strlen(order_buf) - 1);
	if (dev->hook)
		dev->hook(dev, irq);
	if (dev->ret >= 0)
		return (enum irqkit_irqreturn)dev->ret;
	if (!atomic_exchange(&dev->status, 0))
		return IRQKIT_NONE;
	if (dev->lower_irq)
		irqkit_sw_set_level(dev->lower_irq, false);
	atomic_fetch_add(&dev->handled, 1);
	return IRQKIT_HANDLED;
}

enum irqkit_irqreturn tdev_fixed_handler(int irq, void *dev_id)
{
	struct tdev *dev = dev_id;

	(void)irq;
	atomic_fetch_add(&dev->calls, 1);
	if (dev->hook)
		dev->hook(dev, irq);
	return dev->ret >= 0 ? (enum irqkit_irqreturn)dev->ret : IRQKIT_NONE;
}

void usleep_100(void)
{
	usleep(100);
}

/* IRQKIT_TEST_FILTER=pattern runs only the matching tests (cmocka's filter). */
__attribute__((constructor)) static void apply_test_filter(void)
{
	const char *f = getenv("IRQKIT_TEST_FILTER");

	if (f && *f)
		cmocka_set_test_filter(f);
}

unsigned int test_seed(void)
{
	static unsigned int seed;

	if (!seed) {
		const char *env = getenv("IRQKIT_TEST_SEED");

		seed = env ? (unsigned int)strtoul(env, NULL, 0) : (unsigned int)time(NULL);
		if (!seed)
			seed = 1;
		fprintf(stderr, "seed %u (IRQKIT_TEST_SEED=%u replays)\n", seed, seed);
	}
	return seed;
}

int nr_threads_named(const char *prefix, const char *without)
{
	DIR *dir = opendir("/proc/self/task");
	struct dirent *e;
	int n = 0;

	while (dir && (e = readdir(dir))) {
		char path[300], comm[32] = "";
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm", e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f) && !strncmp(comm, prefix, strlen(prefix)) &&
		    !(without && strstr(comm, without)))
			n++;
		fclose(f);
	}
	if (dir)
		closedir(dir);
	return n;
}

int stress_scale(int n)
{
	const char *s = getenv("IRQKIT_STRESS_SCALE");
	int k = s ? atoi(s) : 1;

	return n * (k > 0 ? k : 1);
}

void stress_burn(int n)
{
	for (volatile int i = 0; i < n; i++)
		;
}

/* See harness.h. */
int in_child(void (*fn)(void), char *out, size_t len)
{
	int p[2], status = 0;
	ssize_t n, got = 0;
	pid_t pid;

	assert_int_equal(pipe(p), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(p[1], 2);
		close(p[0]);
		fn();
		_exit(0);
	}
	close(p[1]);
	while ((size_t)got < len - 1 && (n = read(p[0], out + got, len - 1 - (size_t)got)) > 0)
		got += n;
	out[got] = '\0';
	close(p[0]);
	waitpid(pid, &status, 0);
	return status;
}
