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

#include <irqkit-core/platform.h>
#include "testing.h"

#define SIM_RUNS_DEFAULT	100	/* schedules tried for a simulated body */

struct hit {
	unsigned long	point;
	const char	*what;		/* a string of the library: valid in the parent */
	const void	*ip;
};

/* The page a run's child shares with the parent. */
struct shared {
	unsigned long		points;
	unsigned int		nr_hits;
	struct hit		hit[IRQKIT_EXPLORE_MAX_DEPTH];
	char			why[96];
	uint64_t		steps;		/* a simulated body's switch points */
	struct irqkit__det_tail	tail;		/* its seed and last switches */
};

/* The plan of the run in progress (the child's copy is the one that acts). */
static struct {
	const struct irqkit_explore_cfg	*cfg;
	struct shared			*sh;
	unsigned long			target[IRQKIT_EXPLORE_MAX_DEPTH];
	unsigned int			nr_targets;
	unsigned int			next;
	unsigned long			run;
	bool				det;		/* the body runs the simulator */
	uint64_t			steps;		/* its switch points in run 0 */
	bool				verbose;	/* a replay: say where each interrupt comes */
} plan;

#define say(...)	irqkit__posix_say("irqkit_explore", __VA_ARGS__)

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

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* The simulator ends the run (a deadlock, a livelock): say why before it aborts. */
static void det_fail(const char *why)
{
	snprintf(plan.sh->why, sizeof(plan.sh->why), "%s", why);
}

/* The seed of simulated run @run. */
static uint64_t det_seed_of(unsigned long run)
{
	uint64_t x = plan.cfg->seed ^ ((uint64_t)run * 0xd6e8feb86659fd93ull);

	return splitmix64(&x);
}

/* The run in this process: the body's verdict, a validator report counting as a failure. */
static int run_here(int (*body)(void *), void *arg)
{
	unsigned long reports = irqkit_lockdep_reports();
	int rc;

	/* a body that starts the simulator runs the schedule of this run's seed */
	irqkit__det_plan = (struct irqkit__det_plan){
		.set = true, .seed = det_seed_of(plan.run), .depth = plan.cfg->depth,
		.steps = plan.steps, .verbose = plan.verbose, .tail = &plan.sh->tail,
		.fail = det_fail,
	};
	irqkit__core_explore_hook_set(point_hook);
	rc = body(arg);
	irqkit__core_explore_hook_set(NULL);
	if (irqkit_started())
		irqkit_stop();
	if (plan.sh->tail.active) {
		struct irqkit_sim_stats st;

		if (!irqkit_sim_stats(&st))
			plan.sh->steps = st.steps;
	}
	irqkit__det_plan = (struct irqkit__det_plan){ 0 };
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
	if (run == 0 || plan.det)
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
	if (sh->tail.active) {
		const struct irqkit__det_tail *tl = &sh->tail;
		uint64_t from = tl->switches > 4 ? tl->switches - 4 : 0;

		/* the seed, and the last switches (the whole schedule: IRQKIT_SIM_LOG) */
		n = (size_t)snprintf(buf, len, "seed %" PRIu64 ", %" PRIu64 " switches, the last:",
				     tl->seed, tl->switches);
		for (uint64_t s = from; s < tl->switches && n < len; s++) {
			const struct irqkit__det_switch *e = &tl->e[s % IRQKIT__DET_TAIL];

			n += (size_t)snprintf(buf + n, len - n, " %s%s -> %s at %s", s > from ? "; " : "",
					      e->from, e->to, e->what ? e->what : "start");
		}
		return;
	}
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
	plan.det = false;
	plan.steps = 0;

	/* run 0: the body undisturbed, counting the points */
	plan_run(cfg, 0, 0, 0);
	rc = run_child(cfg, body, arg);
	res->runs = 1;
	res->points = plan.sh->points;
	plan.det = plan.sh->tail.active;
	plan.steps = plan.sh->steps;
	if (plan.det) {
		/* a simulated body: each run after the first is the schedule of a seed */
		res->points = plan.steps;
		systematic = 0;
		total = cfg->random_runs ? cfg->random_runs : SIM_RUNS_DEFAULT;
		goto planned;
	}
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
planned:
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
