// SPDX-License-Identifier: MIT
/*
 * The test harness's host part: what needs the host's C library (the
 * environment, /proc, fork).  tests/riscv/harness_rv.c is the bare-metal one.
 */
#define _GNU_SOURCE
#include "harness.h"

#include <dirent.h>
#include <sched.h>
#include <sys/wait.h>

#include <stdlib.h>
#include <time.h>
#include <unistd.h>

void test_printf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

bool test_log_echo(void)
{
	const char *echo = getenv("IRQKIT_TEST_ECHO");

	return echo && *echo == '1';
}

void usleep_100(void)
{
	usleep(100);
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

struct test_wait test_wait_start(int ms)
{
	return (struct test_wait){ .end = mono_ns() + (uint64_t)ms * 1000000u };
}

/*
 * Eight yields, then sleeps of 10, 20, 40 and 80 us, then 100 us each: most
 * conditions a test waits for come within a wake-up's time, and a fixed
 * 100 us sleep made a loop of 20,000 such waits last seconds.
 */
bool test_wait_step(struct test_wait *w)
{
	unsigned int n = w->steps++;

	if (mono_ns() >= w->end)
		return false;
	if (n < 8)
		sched_yield();
	else
		usleep(n < 12 ? 10u << (n - 8) : 100);
	return true;
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

static void *cpu_hold_main(void *arg)
{
	struct cpu_hold *h = arg;
	unsigned long flags;

	assert_int_equal(irqkit_thread_bind(h->cpu), 0);
	flags = irqkit_local_irq_save();	/* the CPU's interrupts and softirqs cannot run now */
	if (h->fn)
		h->fn(h->arg);
	atomic_store(&h->state, 1);
	while (atomic_load(&h->state) != 2)
		usleep(1000);
	irqkit_local_irq_restore(flags);
	irqkit_thread_unbind();
	return NULL;
}

void cpu_hold_start(struct cpu_hold *h, unsigned int cpu, void (*fn)(void *arg), void *arg)
{
	h->cpu = cpu;
	h->fn = fn;
	h->arg = arg;
	atomic_store(&h->state, 0);
	assert_int_equal(pthread_create(&h->th, NULL, cpu_hold_main, h), 0);
	assert_true(wait_until(atomic_load(&h->state) == 1, 5000));
}

void cpu_hold_release(struct cpu_hold *h)
{
	atomic_store(&h->state, 2);
	pthread_join(h->th, NULL);
}

struct on_cpu {
	unsigned int	cpu;
	void		(*fn)(void *arg);
	void		*arg;
};

static void *on_cpu_main(void *arg)
{
	struct on_cpu *o = arg;

	assert_int_equal(irqkit_thread_bind(o->cpu), 0);
	o->fn(o->arg);
	irqkit_thread_unbind();
	return NULL;
}

void run_on_cpu(unsigned int cpu, void (*fn)(void *arg), void *arg)
{
	struct on_cpu o = { cpu, fn, arg };
	pthread_t th;

	assert_int_equal(pthread_create(&th, NULL, on_cpu_main, &o), 0);
	pthread_join(th, NULL);
}
