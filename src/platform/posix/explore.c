// SPDX-License-Identifier: MIT
/*
 * irqkit_explore() (<irqkit/explore.h>): each run is a child process that
 * runs the body with the core's interrupt-point hook installed; the hook
 * counts the points and raises the interrupt at the ones the run's plan
 * names.  What the child reached and why it failed goes to a shared page,
 * so that a child that crashes or hangs still says where its interrupts came.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <irqkit/explore.h>
#include <irqkit/runtime.h>
#include <irqkit/spinlock.h>
#include <irqkit/swchip.h>

#include "../../core/platform.h"

struct hit {
	unsigned long	point;
	const char	*what;		/* a string of the library: valid in the parent */
	const void	*ip;
};

/* The page a run's child shares with the parent. */
struct shared {
	unsigned long	points;
	unsigned int	nr_hits;
	struct hit	hit[IRQKIT_EXPLORE_MAX_DEPTH];
	char		why[96];
};

/* The plan of the run in progress (the child's copy is the one that acts). */
static struct {
	const struct irqkit_explore_cfg	*cfg;
	struct shared			*sh;
	unsigned long			target[IRQKIT_EXPLORE_MAX_DEPTH];
	unsigned int			nr_targets;
	unsigned int			next;
	unsigned long			run;
	bool				verbose;	/* a replay: say where each interrupt comes */
} plan;

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	fprintf(stderr, "irqkit_explore: %s\n", line);
}

/* "spin_unlock from mydev_read+0x2c" */
static void describe(char *buf, size_t len, const struct hit *h)
{
	char sym[128];
	unsigned long off = irqkit_plat_symbol(h->ip, sym, sizeof(sym));

	if (sym[0])
		snprintf(buf, len, "point %lu (%s from %s+0x%lx)", h->point, h->what, sym, off);
	else
		snprintf(buf, len, "point %lu (%s from %p)", h->point, h->what, h->ip);
}

static void point_hook(const char *what, const void *ip)
{
	struct shared *sh = plan.sh;
	unsigned long n = sh->points++;
	const struct irqkit_explore_cfg *cfg = plan.cfg;
	struct hit *h;

	if (plan.next >= plan.nr_targets || plan.target[plan.next] != n)
		return;
	plan.next++;
	h = &sh->hit[sh->nr_hits++];
	*h = (struct hit){ .point = n, .what = what, .ip = ip };
	if (plan.verbose) {
		char d[256];

		describe(d, sizeof(d), h);
		say("run %lu: an interrupt at %s", plan.run, d);
	}
	if (cfg->interrupt)
		cfg->interrupt(cfg->interrupt_arg);
	else
		(void)irqkit_sw_raise(cfg->irq);
}

/* The run in this process: the body's verdict, a validator report counting as a failure. */
static int run_here(int (*body)(void *), void *arg)
{
	unsigned long reports = irqkit_lockdep_reports();
	int rc;

	irqkit__explore_hook_set(point_hook);
	rc = body(arg);
	irqkit__explore_hook_set(NULL);
	if (irqkit_started())
		irqkit_stop();
	if (rc) {
		snprintf(plan.sh->why, sizeof(plan.sh->why), "the body returned %d", rc);
		return 1;
	}
	if (irqkit_lockdep_reports() != reports) {
		snprintf(plan.sh->why, sizeof(plan.sh->why), "a report of the lock validator");
		return 1;
	}
	return 0;
}

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static int cmp_ulong(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return (x > y) - (x < y);
}

/*
 * The plan of run @run: none for run 0, point run-1 for a systematic run,
 * @depth distinct points of the @points for a random one.
 */
static void plan_run(const struct irqkit_explore_cfg *cfg, unsigned long run,
		     unsigned long points, unsigned long systematic)
{
	plan.run = run;
	plan.next = 0;
	plan.nr_targets = 0;
	if (run == 0)
		return;
	if (run <= systematic) {
		plan.target[plan.nr_targets++] = run - 1;
		return;
	}
	uint64_t x = cfg->seed ^ ((uint64_t)run * 0xd6e8feb86659fd93ull);
	unsigned int depth = cfg->depth ? cfg->depth : 2;

	if (depth > points)
		depth = (unsigned int)points;
	while (plan.nr_targets < depth) {
		unsigned long p = (unsigned long)(splitmix64(&x) % points);
		bool dup = false;

		for (unsigned int i = 0; i < plan.nr_targets; i++)
			dup |= plan.target[i] == p;
		if (!dup)
			plan.target[plan.nr_targets++] = p;
	}
	qsort(plan.target, plan.nr_targets, sizeof(plan.target[0]), cmp_ulong);
}

static const char *signal_name(int sig)
{
	switch (sig) {
	case SIGSEGV: return "SIGSEGV";
	case SIGABRT: return "SIGABRT";
	case SIGBUS: return "SIGBUS";
	case SIGILL: return "SIGILL";
	case SIGFPE: return "SIGFPE";
	case SIGKILL: return "SIGKILL";
	case SIGTERM: return "SIGTERM";
	default: return NULL;
	}
}

/* Wait for @pid at most @ms; 0 and its status, or -ETIMEDOUT (the child is killed). */
static int wait_child(pid_t pid, unsigned int ms, int *status)
{
	int fd = (int)syscall(SYS_pidfd_open, pid, 0);
	struct timespec start, now;

	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		pid_t r = waitpid(pid, status, WNOHANG);
		long waited;

		if (r == pid)
			break;
		if (r < 0 && errno != EINTR) {
			*status = 0;
			break;
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		waited = (now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000;
		if (waited >= (long)ms) {
			kill(pid, SIGKILL);
			while (waitpid(pid, status, 0) < 0 && errno == EINTR)
				;
			if (fd >= 0)
				close(fd);
			return -ETIMEDOUT;
		}
		if (fd >= 0) {
			struct pollfd p = { .fd = fd, .events = POLLIN };

			(void)poll(&p, 1, (int)((long)ms - waited));
		} else {
			struct timespec ts = { 0, 1000000 };	/* no pidfd: look every millisecond */

			nanosleep(&ts, NULL);
		}
	}
	if (fd >= 0)
		close(fd);
	return 0;
}

/* One run in a child.  0: passed; 1: failed (why in the shared page); negative errno. */
static int run_child(const struct irqkit_explore_cfg *cfg, int (*body)(void *), void *arg)
{
	unsigned int ms = cfg->timeout_ms ? cfg->timeout_ms : 10000;
	struct shared *sh = plan.sh;
	pid_t pid;
	int status;

	memset(sh, 0, sizeof(*sh));
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		/* a failed cmocka assertion aborts instead of going on with the next test */
		setenv("CMOCKA_TEST_ABORT", "1", 1);
		int rc = run_here(body, arg);

		fflush(NULL);
		_exit(rc);
	}
	if (wait_child(pid, ms, &status) == -ETIMEDOUT) {
		snprintf(sh->why, sizeof(sh->why),
			 "it did not end within %u ms (a deadlock or an endless loop)", ms);
		return 1;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (sh->why[0])
		return 1;
	if (WIFSIGNALED(status)) {
		const char *name = signal_name(WTERMSIG(status));

		if (name)
			snprintf(sh->why, sizeof(sh->why), "killed by %s", name);
		else
			snprintf(sh->why, sizeof(sh->why), "killed by signal %d", WTERMSIG(status));
	} else {
		snprintf(sh->why, sizeof(sh->why), "exit status %d (a sanitizer report?)",
			 WEXITSTATUS(status));
	}
	return 1;
}

static void schedule_text(char *buf, size_t len, const struct shared *sh)
{
	size_t n = 0;

	buf[0] = '\0';
	if (!sh->nr_hits) {
		snprintf(buf, len, "no interrupt");
		return;
	}
	for (unsigned int i = 0; i < sh->nr_hits && n < len; i++) {
		char d[256];

		describe(d, sizeof(d), &sh->hit[i]);
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? ", " : "interrupts at ", d);
	}
}

static int parse_seed(const char *s, unsigned long *out)
{
	char *end;

	errno = 0;
	*out = strtoul(s, &end, 10);
	return (errno || end == s || *end || s[0] == '-') ? -EINVAL : 0;
}

int irqkit_explore(const struct irqkit_explore_cfg *cfg, int (*body)(void *arg), void *arg,
		   struct irqkit_explore_result *res)
{
	struct irqkit_explore_result local;
	unsigned long replay = 0, systematic, total, run;
	const char *env = getenv("IRQKIT_SEED");
	int rc = 0;

	if (!res)
		res = &local;
	memset(res, 0, sizeof(*res));
	if (!cfg || !body || cfg->depth > IRQKIT_EXPLORE_MAX_DEPTH) {
		say("refused: %s", !cfg || !body ? "no configuration or no body" :
		    "depth above IRQKIT_EXPLORE_MAX_DEPTH");
		return -EINVAL;
	}
	if (env && parse_seed(env, &replay)) {
		say("refused: IRQKIT_SEED=%s is not a run number", env);
		return -EINVAL;
	}
	if (irqkit_started()) {
		say("refused: the runtime runs in this process; the body must start and stop it");
		return -EBUSY;
	}
	plan.sh = mmap(NULL, sizeof(struct shared), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (plan.sh == MAP_FAILED) {
		plan.sh = NULL;
		return -ENOMEM;
	}
	plan.cfg = cfg;
	plan.verbose = false;

	/* run 0: the body undisturbed, counting the points */
	plan_run(cfg, 0, 0, 0);
	rc = run_child(cfg, body, arg);
	res->runs = 1;
	res->points = plan.sh->points;
	if (rc == 0 && res->points == 0) {
		say("refused: the body reached no interrupt point (it must run the runtime in "
		    "deterministic mode and call the kernel API with interrupts on)");
		rc = -EINVAL;
		goto out;
	}
	systematic = res->points;
	if (cfg->max_points && systematic > cfg->max_points)
		systematic = cfg->max_points;
	total = systematic + cfg->random_runs;

	if (env && rc == 0) {
		if (replay > total) {
			say("refused: IRQKIT_SEED=%lu, and this exploration has runs 0..%lu", replay,
			    total);
			rc = -EINVAL;
			goto out;
		}
		plan_run(cfg, replay, res->points, systematic);
		plan.verbose = true;
		memset(plan.sh, 0, sizeof(*plan.sh));
		say("replaying run %lu of %lu (IRQKIT_SEED)", replay, total);
		rc = run_here(body, arg);
		run = replay;
		res->runs++;
		goto done;
	}
	for (run = 1; rc == 0 && run <= total; run++) {
		plan_run(cfg, run, res->points, systematic);
		rc = run_child(cfg, body, arg);
		res->runs++;
	}
	run--;
done:
	if (rc < 0)
		goto out;
	if (rc == 1) {
		res->failed_run = run;
		snprintf(res->why, sizeof(res->why), "%s", plan.sh->why);
		schedule_text(res->schedule, sizeof(res->schedule), plan.sh);
		say("run %lu of %lu failed: %s", run, total, res->why);
		say("%s", res->schedule);
		say("replay it: IRQKIT_SEED=%lu", run);
	}
out:
	munmap(plan.sh, sizeof(struct shared));
	plan.sh = NULL;
	return rc;
}
