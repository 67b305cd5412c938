// SPDX-License-Identifier: MIT
/*
 * irqkit's KUnit runner: runs the suites that <kunit/test.h> files register
 * with kunit_test_suites(), and prints KTAP version 1 in the layout Linux's
 * KUnit prints it (version lines, plans, "# Subtest:", results, counts).
 *
 * Processes.  The runner walks the suites in the kunit_test_suites section.
 * For each it forks a child that runs the suite's init, then its cases in
 * order from a given one, each case in a fresh irqkit runtime; the child
 * prints each case's lines and result and records them in a page shared
 * with the runner.  The runner watches that page: a case that runs past the
 * timeout is killed with its child ("test case timed out"), a child that
 * dies is reported against the case it was running, and a new child goes on
 * from the next case (running the suite's init again).  The runner prints
 * the suite's counts and result.
 *
 * A case runs on the child's main thread.  Linux ends a case whose
 * assertion failed by ending its kthread; here the assertion longjmps back
 * to the frame that started the case, which then runs the suite's exit and
 * the case's deferred actions, as Linux's catch does.  An assertion that
 * fails on another thread (a handler on a virtual CPU) cannot end the case
 * that way: the child reports it and ends, the case fails, and the next
 * case goes on in a new child.
 */
#define _GNU_SOURCE
#include <kunit/test.h>
#include <kunit/test-bug.h>

#include <irqkit/irqkit.h>

#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define EXIT_OFF_THREAD	77	/* the child ended: an assertion failed on another thread */

/* ---- options ------------------------------------------------------------------------ */

static struct {
	const char	*filter;	/* "suite_glob" or "suite_glob.case_glob" */
	unsigned int	timeout_s;
	unsigned int	cpus;
	unsigned int	sim_runs;	/* 0: threaded mode; N: the simulator over seeds 1..N */
	uint64_t	sim_seed;	/* nonzero: the simulator with this seed only */
	bool		list;
} opt = { .timeout_s = 300, .cpus = 2 };

/* ---- what a child shares with the runner --------------------------------------------- */

struct stats {
	unsigned long	passed, failed, skipped, total;
};

struct shared {
	int		cur;		/* the case running now, -1: none */
	uint64_t	started_ns;	/* when it started */
	int		next;		/* the first case not yet reported */
	int		suite_init_err;
	bool		header_done;	/* the suite's "# Subtest" and plan are printed */
	bool		outside_failed;	/* the suite's init or exit died */
	struct stats	params;		/* every run, parameters one by one (Linux's Totals) */
	enum kunit_status status[];	/* each case's, once reported */
};

static struct shared *sh;

/* ---- the case running in this process ------------------------------------------------- */

struct resource {
	kunit_action_t	*action;	/* NULL: a block of memory */
	void		*ctx;
};

struct run {
	struct kunit	*test;
	pthread_t	thread;		/* the case's */
	sigjmp_buf	*abort;		/* where an assertion of the case's thread lands */
	struct resource	*res;
	size_t		nr_res, cap_res;
};

static struct run *cur_run;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

struct kunit *kunit_get_current_test(void)
{
	struct run *r = __atomic_load_n(&cur_run, __ATOMIC_ACQUIRE);

	return r ? r->test : NULL;
}

/* ---- output ---------------------------------------------------------------------------- */

static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

/* One line, whole, in the order of the calls (a handler may print beside the case). */
static void out(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void out(const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&out_lock);
	va_start(ap, fmt);
	/* NOLINTNEXTLINE(clang-analyzer-valist.Uninitialized): started just above */
	vfprintf(stdout, fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	fflush(stdout);
	pthread_mutex_unlock(&out_lock);
}

/* "    # case: text": each line of @text, the first with the prefix, the others as they are. */
static void out_case_text(const struct kunit *test, char *text)
{
	size_t n = strlen(text);
	char *line, *save = NULL;
	bool first = true;

	while (n && text[n - 1] == '\n')
		text[--n] = '\0';
	pthread_mutex_lock(&out_lock);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (first)
			fprintf(stdout, KUNIT_SUBTEST_INDENT "# %s: %s\n",
				test ? test->name : "kunit", line);
		else
			fprintf(stdout, "%s\n", line);
		first = false;
	}
	if (first)
		fprintf(stdout, KUNIT_SUBTEST_INDENT "# %s: \n", test ? test->name : "kunit");
	fflush(stdout);
	pthread_mutex_unlock(&out_lock);
}

void kunit_printk_line(const char *lvl, const struct kunit *test, const char *fmt, ...)
{
	char *text = NULL;
	va_list ap;

	(void)lvl;
	va_start(ap, fmt);
	if (vasprintf(&text, fmt, ap) < 0)
		text = NULL;
	va_end(ap);
	if (text)
		out_case_text(test, text);
	free(text);
}

/*
 * The runtime's log (warnings, "nobody cared"): diagnostic lines of the
 * suite; debug lines left out, as the console's default level leaves
 * Linux's pr_debug out of a KUnit run.
 */
static void log_line(void *arg, int level, const char *line)
{
	(void)arg;
	if (level >= IRQKIT_LOG_DEBUG)
		return;
	out(KUNIT_SUBTEST_INDENT "# %s", line);
}

/* ---- failures ------------------------------------------------------------------------------ */

static void set_failure(struct kunit *test)
{
	__atomic_store_n(&test->status, KUNIT_FAILURE, __ATOMIC_RELAXED);
}

void __kunit_abort(struct kunit *test)
{
	struct run *r = __atomic_load_n(&cur_run, __ATOMIC_ACQUIRE);

	if (r && r->test == test && pthread_equal(pthread_self(), r->thread))
		siglongjmp(*r->abort, 1);
	/* another thread: it cannot be ended, so the case's process ends */
	set_failure(test);
	out(KUNIT_SUBTEST_INDENT "# %s: the check failed on a thread other than the case's; "
	    "the case ends without its exit and cleanup", test->name);
	fflush(stdout);
	_exit(EXIT_OFF_THREAD);
}

void __kunit_mark_skipped(struct kunit *test, const char *fmt, ...)
{
	va_list ap;

	if (__atomic_load_n(&test->status, __ATOMIC_RELAXED) == KUNIT_FAILURE) {
		/* Linux would hide the failure; the case stays failed, and says why */
		out(KUNIT_SUBTEST_INDENT "# %s: skipped after a failure: the case stays failed",
		    test->name);
		return;
	}
	va_start(ap, fmt);
	/* NOLINTNEXTLINE(clang-analyzer-valist.Uninitialized): started just above */
	vsnprintf(test->status_comment, sizeof(test->status_comment), fmt, ap);
	va_end(ap);
	__atomic_store_n(&test->status, KUNIT_SKIPPED, __ATOMIC_RELAXED);
}

/* A failed check: its text, the message if any, the case failed. */
static void report(struct kunit *test, enum kunit_assert_type type, const char *file, int line,
		   const char *body, const char *fmt, va_list ap)
{
	char *text = NULL, *msg = NULL;

	set_failure(test);
	if (fmt && vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	if (asprintf(&text, "%s FAILED at %s:%d\n%s%s%s%s",
		     type == KUNIT_ASSERTION ? "ASSERTION" : "EXPECTATION", file, line, body,
		     *body ? "\n" : "", msg ? KUNIT_SUBTEST_INDENT : "", msg ? msg : "") < 0)
		text = NULL;
	if (text)
		out_case_text(test, text);
	free(text);
	free(msg);
}

/* Is @text the literal of @v (so that "3 == 3" is not printed)? */
static bool is_literal(const char *text, long long v)
{
	char *end;
	long long x;

	errno = 0;
	x = strtoll(text, &end, 0);
	if (errno || end == text)
		return false;
	while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L')
		end++;
	return !*end && x == v;
}

/* Is @text the string literal of @v ("irq" for irq)? */
static bool is_str_literal(const char *text, const char *v)
{
	size_t n = strlen(text);

	return v && n >= 2 && text[0] == '"' && text[n - 1] == '"' && strlen(v) == n - 2 &&
	       !strncmp(text + 1, v, n - 2);
}

/* The text of a failed check, built a piece at a time; what does not fit is cut. */
struct text {
	char	s[2048];
	size_t	n;
};

static void text_add(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void text_add(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (t->n >= sizeof(t->s) - 1)
		return;
	va_start(ap, fmt);
	/* NOLINTNEXTLINE(clang-analyzer-valist.Uninitialized): started just above */
	k = vsnprintf(t->s + t->n, sizeof(t->s) - t->n, fmt, ap);
	va_end(ap);
	if (k > 0)
		t->n = t->n + (size_t)k < sizeof(t->s) ? t->n + (size_t)k : sizeof(t->s) - 1;
}

/* "Expected l op r, but": the first line of a binary check's text. */
static void text_expected(struct text *t, const char *left, const char *op, const char *right)
{
	text_add(t, KUNIT_SUBTEST_INDENT "Expected %s %s %s, but", left, op, right);
}

#define REPORT(test, type, file, line, t, fmt)						\
	do {										\
		va_list ap;								\
											\
		va_start(ap, fmt);							\
		report(test, type, file, line, (t)->s, fmt, ap);			\
		va_end(ap);								\
	} while (0)

void __kunit_check_int(struct kunit *test, enum kunit_assert_type type, const char *file,
		       int line, const char *left, const char *op, const char *right,
		       long long lv, long long rv, const char *fmt, ...)
{
	struct text t = { .n = 0 };

	text_expected(&t, left, op, right);
	if (!is_literal(left, lv))
		text_add(&t, "\n" KUNIT_SUBSUBTEST_INDENT "%s == %lld (0x%llx)", left, lv,
			 (unsigned long long)lv);
	if (!is_literal(right, rv))
		text_add(&t, "\n" KUNIT_SUBSUBTEST_INDENT "%s == %lld (0x%llx)", right, rv,
			 (unsigned long long)rv);
	REPORT(test, type, file, line, &t, fmt);
}

void __kunit_check_ptr(struct kunit *test, enum kunit_assert_type type, const char *file,
		       int line, const char *left, const char *op, const char *right,
		       const void *lv, const void *rv, const char *fmt, ...)
{
	struct text t = { .n = 0 };

	text_expected(&t, left, op, right);
	text_add(&t, "\n" KUNIT_SUBSUBTEST_INDENT "%s == %016" PRIxPTR, left, (uintptr_t)lv);
	if (strcmp(right, "NULL"))
		text_add(&t, "\n" KUNIT_SUBSUBTEST_INDENT "%s == %016" PRIxPTR, right,
			 (uintptr_t)rv);
	REPORT(test, type, file, line, &t, fmt);
}

/* "name == "value"", unless the name is the value's literal. */
static void text_str(struct text *t, const char *name, const char *v)
{
	if (!is_str_literal(name, v))
		text_add(t, "\n" KUNIT_SUBSUBTEST_INDENT "%s == %s%s%s", name, v ? "\"" : "",
			 v ? v : "(null)", v ? "\"" : "");
}

void __kunit_check_str(struct kunit *test, enum kunit_assert_type type, const char *file,
		       int line, const char *left, const char *op, const char *right,
		       const char *lv, const char *rv, const char *fmt, ...)
{
	struct text t = { .n = 0 };

	text_expected(&t, left, op, right);
	text_str(&t, left, lv);
	text_str(&t, right, rv);
	REPORT(test, type, file, line, &t, fmt);
}

/* "name ==" and up to 16 bytes of @p, the ones that differ from @q in <>. */
static void text_bytes(struct text *t, const char *name, const unsigned char *p,
		       const unsigned char *q, size_t size)
{
	text_add(t, "\n" KUNIT_SUBSUBTEST_INDENT "%s ==\n" KUNIT_SUBSUBTEST_INDENT, name);
	for (size_t i = 0; i < size && i < 16; i++)
		text_add(t, p[i] != q[i] ? "<%02x>" : " %02x ", p[i]);
	if (size > 16)
		text_add(t, " ...");
}

void __kunit_check_mem(struct kunit *test, enum kunit_assert_type type, const char *file,
		       int line, const char *left, const char *op, const char *right,
		       const void *lv, const void *rv, size_t size, const char *fmt, ...)
{
	struct text t = { .n = 0 };

	text_expected(&t, left, op, right);
	if (!lv || !rv) {
		text_add(&t, "\n" KUNIT_SUBSUBTEST_INDENT "%s is NULL", lv ? right : left);
	} else {
		text_bytes(&t, left, lv, rv, size);
		text_bytes(&t, right, rv, lv, size);
	}
	REPORT(test, type, file, line, &t, fmt);
}

void __kunit_check_unary(struct kunit *test, enum kunit_assert_type type, const char *file,
			 int line, const char *expr, bool expected, const char *fmt, ...)
{
	struct text t = { .n = 0 };

	text_add(&t, KUNIT_SUBTEST_INDENT "Expected %s to be %s, but is %s", expr,
		 expected ? "true" : "false", expected ? "false" : "true");
	REPORT(test, type, file, line, &t, fmt);
}

void __kunit_check_not_err(struct kunit *test, enum kunit_assert_type type, const char *file,
			   int line, const char *expr, const void *ptr, const char *fmt, ...)
{
	struct text t = { .n = 0 };

	if (!ptr)
		text_add(&t, KUNIT_SUBTEST_INDENT "Expected %s is not null, but is", expr);
	else
		text_add(&t, KUNIT_SUBTEST_INDENT "Expected %s is not error, but is: %ld", expr,
			 PTR_ERR(ptr));
	REPORT(test, type, file, line, &t, fmt);
}

void __kunit_check_fail(struct kunit *test, enum kunit_assert_type type, const char *file,
			int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report(test, type, file, line, "", fmt, ap);
	va_end(ap);
}

void __kunit_fail_current_test(const char *file, int line, const char *fmt, ...)
{
	struct kunit *test = kunit_get_current_test();
	char *msg = NULL;
	va_list ap;

	if (!test)
		return;
	set_failure(test);
	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	kunit_err(test, "%s:%d: %s", file, line, msg ? msg : fmt);
	free(msg);
}

/* ---- managed memory and actions ------------------------------------------------------------ */

static struct run *run_of(struct kunit *test)
{
	return test ? (struct run *)test->runner : NULL;
}

static int add_resource(struct kunit *test, kunit_action_t *action, void *ctx)
{
	struct run *r = run_of(test);

	if (!r)
		return -ENOMEM;
	if (r->nr_res == r->cap_res) {
		size_t cap = r->cap_res ? 2 * r->cap_res : 16;
		struct resource *n = realloc(r->res, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		r->res = n;
		r->cap_res = cap;
	}
	r->res[r->nr_res++] = (struct resource){ .action = action, .ctx = ctx };
	return 0;
}

/* The last resource with @action and @ctx, or -1. */
static long find_resource(struct run *r, kunit_action_t *action, const void *ctx)
{
	for (size_t i = r ? r->nr_res : 0; i-- > 0;)
		if (r->res[i].action == action && r->res[i].ctx == ctx)
			return (long)i;
	return -1;
}

static void drop_resource(struct run *r, long i)
{
	memmove(&r->res[i], &r->res[i + 1], (r->nr_res - (size_t)i - 1) * sizeof(r->res[0]));
	r->nr_res--;
}

int kunit_add_action(struct kunit *test, kunit_action_t *action, void *ctx)
{
	if (!action)
		return -EINVAL;
	return add_resource(test, action, ctx);
}

int kunit_add_action_or_reset(struct kunit *test, kunit_action_t *action, void *ctx)
{
	int ret = kunit_add_action(test, action, ctx);

	if (ret && action)
		action(ctx);
	return ret;
}

void kunit_remove_action(struct kunit *test, kunit_action_t *action, void *ctx)
{
	struct run *r = run_of(test);
	long i = find_resource(r, action, ctx);

	if (i >= 0)
		drop_resource(r, i);
}

void kunit_release_action(struct kunit *test, kunit_action_t *action, void *ctx)
{
	struct run *r = run_of(test);
	long i = find_resource(r, action, ctx);

	if (i >= 0) {
		drop_resource(r, i);
		action(ctx);
	}
}

void *kunit_kmalloc_array(struct kunit *test, size_t n, size_t size, gfp_t gfp)
{
	void *p;
	size_t bytes;

	if (size && n > SIZE_MAX / size)
		return NULL;
	bytes = n * size != 0 ? n * size : 1;
	p = (gfp & __GFP_ZERO) ? calloc(1, bytes) : malloc(bytes);
	if (p && add_resource(test, NULL, p)) {
		free(p);
		return NULL;
	}
	return p;
}

void kunit_kfree(struct kunit *test, const void *ptr)
{
	struct run *r = run_of(test);
	long i = find_resource(r, NULL, ptr);

	if (!ptr)
		return;
	if (i < 0) {
		kunit_err(test, "kunit_kfree of %p, which kunit_kmalloc did not give", ptr);
		return;
	}
	drop_resource(r, i);
	free((void *)ptr);
}

char *kunit_kstrdup(struct kunit *test, const char *str, gfp_t gfp)
{
	size_t n = str ? strlen(str) + 1 : 0;
	char *p = str ? kunit_kmalloc(test, n, gfp) : NULL;

	if (p)
		memcpy(p, str, n);
	return p;
}

/* The end of a run: every resource, last added first. */
static void release_all(struct run *r)
{
	while (r->nr_res) {
		struct resource res = r->res[--r->nr_res];

		if (res.action)
			res.action(res.ctx);
		else
			free(res.ctx);
	}
	free(r->res);
	r->res = NULL;
	r->cap_res = 0;
}

/* ---- running a case --------------------------------------------------------------------- */

static int start_runtime(uint64_t seed)
{
	struct irqkit_config cfg = {
		.nr_cpus = opt.cpus,
		.mode = seed ? IRQKIT_MODE_SIM : IRQKIT_MODE_THREADED,
		.sim_seed = seed,
		.log = log_line,
	};

	return irqkit_start(&cfg);
}

/*
 * One run of @c (one parameter): a fresh runtime, the suite's init, the
 * case, the suite's exit, the deferred actions, the runtime stopped.
 * @seed: 0 threaded mode, else the simulator's seed.
 */
static void run_once(struct kunit_suite *s, struct kunit_case *c, struct kunit *t, uint64_t seed)
{
	struct run r = { .test = t, .thread = pthread_self() };
	sigjmp_buf env;
	int ret;

	t->name = c->name;
	t->status = KUNIT_SUCCESS;
	t->status_comment[0] = '\0';
	t->runner = NULL;
	ret = start_runtime(seed);
	if (ret) {
		kunit_err(t, "irqkit_start failed: %d", ret);
		set_failure(t);
		return;
	}
	/* cppcheck-suppress autoVariables ; cleared below, before this frame ends */
	t->runner = &r;
	r.abort = &env;
	__atomic_store_n(&cur_run, &r, __ATOMIC_RELEASE);
	if (!sigsetjmp(env, 0)) {
		ret = s->init ? s->init(t) : 0;
		if (ret) {
			kunit_err(t, "failed to initialize: %d", ret);
			set_failure(t);
		} else {
			c->run_case(t);
		}
	}
	/* its own catch: an assertion in exit ends exit only */
	if (!sigsetjmp(env, 0) && s->exit)
		s->exit(t);
	release_all(&r);
	__atomic_store_n(&cur_run, NULL, __ATOMIC_RELEASE);
	irqkit_stop();
	t->runner = NULL;
}

/* A run, once or under the simulator over the seeds asked for: the first failing seed is told. */
static void run_maybe_simulated(struct kunit_suite *s, struct kunit_case *c, struct kunit *t)
{
	if (opt.sim_seed) {
		run_once(s, c, t, opt.sim_seed);
		if (t->status == KUNIT_FAILURE)
			kunit_err(t, "failed with simulator seed %" PRIu64, opt.sim_seed);
		return;
	}
	if (!opt.sim_runs) {
		run_once(s, c, t, 0);
		return;
	}
	for (uint64_t seed = 1; seed <= opt.sim_runs; seed++) {
		run_once(s, c, t, seed);
		if (t->status == KUNIT_FAILURE) {
			kunit_err(t, "failed with simulator seed %" PRIu64 " (replay: --sim-seed=%" PRIu64 ")",
				  seed, seed);
			return;
		}
		if (t->status == KUNIT_SKIPPED)
			return;
	}
}

static void count(struct stats *st, enum kunit_status status)
{
	if (status == KUNIT_SUCCESS)
		st->passed++;
	else if (status == KUNIT_SKIPPED)
		st->skipped++;
	else
		st->failed++;
	st->total++;
}

static void print_stats(const char *indent, const char *name, const struct stats *st)
{
	if (st->total > 1)
		out("%s# %s: pass:%lu fail:%lu skip:%lu total:%lu", indent, name, st->passed,
		    st->failed, st->skipped, st->total);
}

static void print_result(const char *indent, enum kunit_status status, long num,
			 const char *name, const char *comment)
{
	out("%s%s %ld %s%s%s", indent, status == KUNIT_FAILURE ? "not ok" : "ok", num, name,
	    status == KUNIT_SKIPPED ? " # SKIP " : "", status == KUNIT_SKIPPED ? comment : "");
}

/* Case @idx (number @num in the suite's plan): its result, recorded and printed. */
static enum kunit_status run_case(struct kunit_suite *s, struct kunit_case *c, long num)
{
	struct kunit t = { 0 };
	struct stats params = { 0 };
	char desc[KUNIT_PARAM_DESC_SIZE];

	if (!c->generate_params) {
		run_maybe_simulated(s, c, &t);
		count(&params, t.status);
		c->status = t.status;
	} else {
		c->status = KUNIT_SKIPPED;
		out(KUNIT_SUBTEST_INDENT KUNIT_SUBTEST_INDENT "KTAP version 1");
		out(KUNIT_SUBTEST_INDENT KUNIT_SUBTEST_INDENT "# Subtest: %s", c->name);
		desc[0] = '\0';
		t.param_value = c->generate_params(NULL, desc);
		for (t.param_index = 0; t.param_value; t.param_index++) {
			run_maybe_simulated(s, c, &t);
			if (!desc[0])
				snprintf(desc, sizeof(desc), "param-%d", t.param_index);
			print_result(KUNIT_SUBTEST_INDENT KUNIT_SUBTEST_INDENT, t.status,
				     t.param_index + 1, desc, t.status_comment);
			if (t.status == KUNIT_FAILURE)
				c->status = KUNIT_FAILURE;
			else if (t.status == KUNIT_SUCCESS && c->status != KUNIT_FAILURE)
				c->status = KUNIT_SUCCESS;
			count(&params, t.status);
			desc[0] = '\0';
			t.param_value = c->generate_params(t.param_value, desc);
		}
		print_stats(KUNIT_SUBTEST_INDENT, c->name, &params);
	}
	print_result(KUNIT_SUBTEST_INDENT, c->status, num, c->name, t.status_comment);
	sh->params.passed += params.passed;
	sh->params.failed += params.failed;
	sh->params.skipped += params.skipped;
	sh->params.total += params.total;
	return c->status;
}

/* ---- the suites --------------------------------------------------------------------------- */

extern struct kunit_suite *__start_kunit_test_suites[] __attribute__((weak));
extern struct kunit_suite *__stop_kunit_test_suites[] __attribute__((weak));

static bool case_selected(const struct kunit_suite *s, const struct kunit_case *c)
{
	const char *dot;
	char suite_glob[256];

	if (!opt.filter)
		return true;
	dot = strchr(opt.filter, '.');
	if (!dot)
		return !fnmatch(opt.filter, s->name, 0);
	snprintf(suite_glob, sizeof(suite_glob), "%.*s", (int)(dot - opt.filter), opt.filter);
	return !fnmatch(suite_glob, s->name, 0) && !fnmatch(dot + 1, c->name, 0);
}

/* The selected cases of @s, in order, into @out; their number. */
static int selected_cases(struct kunit_suite *s, struct kunit_case **out_cases, int max)
{
	int n = 0;

	for (struct kunit_case *c = s->test_cases; c && c->run_case; c++)
		if (case_selected(s, c) && n < max)
			out_cases[n++] = c;
	return n;
}

/* The child: the suite's init, then its cases from @first on. */
static void __attribute__((noreturn))
suite_child(struct kunit_suite *s, struct kunit_case **cases, int nr, int first)
{
	if (s->suite_init) {
		int err = s->suite_init(s);

		if (err) {
			sh->suite_init_err = err;
			out(KUNIT_SUBTEST_INDENT "# failed to initialize (%d)", err);
			_exit(0);
		}
	}
	if (!sh->header_done) {
		out(KUNIT_SUBTEST_INDENT "KTAP version 1");
		out(KUNIT_SUBTEST_INDENT "# Subtest: %s", s->name);
		out(KUNIT_SUBTEST_INDENT "1..%d", nr);
		sh->header_done = true;
	}
	for (int i = first; i < nr; i++) {
		__atomic_store_n(&sh->started_ns, now_ns(), __ATOMIC_RELAXED);
		__atomic_store_n(&sh->cur, i, __ATOMIC_RELEASE);
		sh->status[i] = run_case(s, cases[i], i + 1);
		__atomic_store_n(&sh->cur, -1, __ATOMIC_RELEASE);
		__atomic_store_n(&sh->next, i + 1, __ATOMIC_RELEASE);
	}
	if (s->suite_exit)
		s->suite_exit(s);
	fflush(stdout);
	_exit(0);
}

/*
 * Wait for the child @pid and report how a case it did not finish ended:
 * timed out (killed here), a check failed on another thread, or died.
 * Return: true when the child finished what it was given by itself.
 */
static bool watch_child(pid_t pid, const char *suite, struct kunit_case **cases)
{
	uint64_t limit = (uint64_t)opt.timeout_s * 1000000000ull;
	const char *why = NULL;
	char buf[160];
	int st = 0, cur;

	for (;;) {
		pid_t w = waitpid(pid, &st, WNOHANG);
		uint64_t started, now;

		if (w == pid || (w < 0 && errno != EINTR))
			break;
		cur = __atomic_load_n(&sh->cur, __ATOMIC_ACQUIRE);
		/*
		 * The start first, then the clock: read the other way round, a
		 * case that began between the two reads looked started after
		 * "now", and the unsigned difference killed it at once.
		 */
		started = __atomic_load_n(&sh->started_ns, __ATOMIC_ACQUIRE);
		now = now_ns();
		if (cur >= 0 && now > started && now - started > limit) {
			kill(pid, SIGKILL);
			waitpid(pid, &st, 0);
			why = "test case timed out";
			break;
		}
		usleep(5000);
	}
	if (!why && WIFEXITED(st) && WEXITSTATUS(st) == EXIT_OFF_THREAD) {
		why = "ended by a check that failed on another thread";
	} else if (!why && WIFSIGNALED(st)) {
		snprintf(buf, sizeof(buf), "the process died of signal %d (%s)", WTERMSIG(st),
			 strsignal(WTERMSIG(st)));
		why = buf;
	} else if (!why && (!WIFEXITED(st) || WEXITSTATUS(st))) {
		snprintf(buf, sizeof(buf), "the process exited with status %d",
			 WIFEXITED(st) ? WEXITSTATUS(st) : -1);
		why = buf;
	}
	if (!why)
		return true;
	cur = __atomic_load_n(&sh->cur, __ATOMIC_ACQUIRE);
	if (cur < 0) {
		/* in the suite's init or exit, not in a case */
		out(KUNIT_SUBTEST_INDENT "# %s: outside its cases, %s", suite, why);
		if (!sh->suite_init_err && !sh->header_done)
			sh->suite_init_err = -EFAULT;
		sh->outside_failed = true;
		return false;
	}
	out(KUNIT_SUBTEST_INDENT "# %s: %s", cases[cur]->name, why);
	print_result(KUNIT_SUBTEST_INDENT, KUNIT_FAILURE, cur + 1, cases[cur]->name, "");
	sh->status[cur] = KUNIT_FAILURE;
	sh->params.failed++;
	sh->params.total++;
	sh->next = cur + 1;
	sh->cur = -1;
	return false;
}

/* One suite: its header, cases and result.  The suite's status. */
static enum kunit_status run_suite(struct kunit_suite *s, long num)
{
	struct kunit_case *cases[1024] = { NULL };
	int nr = selected_cases(s, cases, 1024);
	size_t size = sizeof(struct shared) + (size_t)nr * sizeof(enum kunit_status);
	enum kunit_status status = KUNIT_SKIPPED;
	struct stats st = { 0 };

	sh = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		out("# %s: no memory for the suite's page", s->name);
		return KUNIT_FAILURE;
	}
	sh->cur = -1;
	for (int i = 0; i < nr; i++)
		sh->status[i] = KUNIT_SKIPPED;
	s->status_comment[0] = '\0';
	while (sh->next < nr && !sh->suite_init_err && !sh->outside_failed) {
		pid_t pid;

		fflush(stdout);
		pid = fork();
		if (pid < 0) {
			out("# %s: fork failed: %s", s->name, strerror(errno));
			status = KUNIT_FAILURE;
			break;
		}
		if (!pid)
			suite_child(s, cases, nr, sh->next);
		if (watch_child(pid, s->name, cases))
			break;	/* done, or its init failed */
	}
	s->suite_init_err = sh->suite_init_err;
	for (int i = 0; i < nr; i++) {
		count(&st, sh->status[i]);
		if (sh->status[i] == KUNIT_FAILURE)
			status = KUNIT_FAILURE;
		else if (sh->status[i] == KUNIT_SUCCESS && status != KUNIT_FAILURE)
			status = KUNIT_SUCCESS;
	}
	if (sh->suite_init_err || sh->outside_failed || sh->next < nr)
		status = KUNIT_FAILURE;
	if (!sh->suite_init_err) {
		print_stats("", s->name, &st);
		if (sh->params.total > 1)
			out("# Totals: pass:%lu fail:%lu skip:%lu total:%lu", sh->params.passed,
			    sh->params.failed, sh->params.skipped, sh->params.total);
	}
	print_result("", status, num, s->name, s->status_comment);
	munmap(sh, size);
	sh = NULL;
	return status;
}

static void usage(FILE *f, const char *prog)
{
	fprintf(f,
		"usage: %s [options]\n"
		"Runs the KUnit suites linked into this program; prints KTAP version 1.\n"
		"  --filter_glob=GLOB  suites (\"irq_*\") or cases (\"irq_*.test_free*\") to run\n"
		"  --list              the suites and cases, one \"suite.case\" a line\n"
		"  --timeout=SECONDS   a case that runs longer fails (default 300)\n"
		"  --cpus=N            virtual CPUs of each case's runtime (default 2)\n"
		"  --sim=N             run each case under the simulator, seeds 1..N\n"
		"  --sim-seed=S        run each case under the simulator with seed S\n"
		"Exit status: 0 when no case failed, 1 otherwise, 2 for a bad option.\n",
		prog);
}

static bool parse_uint(const char *arg, const char *name, unsigned long long *v)
{
	size_t n = strlen(name);
	char *end;

	if (strncmp(arg, name, n) || arg[n] != '=')
		return false;
	errno = 0;
	*v = strtoull(arg + n + 1, &end, 0);
	if (errno || end == arg + n + 1 || *end) {
		fprintf(stderr, "kunit: %s: not a number\n", arg);
		exit(2);
	}
	return true;
}

int irqkit_kunit_main(int argc, char **argv)
{
	struct kunit_suite **start = __start_kunit_test_suites, **stop = __stop_kunit_test_suites;
	size_t nr_suites;
	long nr = 0, num = 0;
	bool failed = false;

	for (int i = 1; i < argc; i++) {
		unsigned long long v;

		if (!strncmp(argv[i], "--filter_glob=", 14))
			opt.filter = argv[i] + 14;
		else if (!strcmp(argv[i], "--list"))
			opt.list = true;
		else if (parse_uint(argv[i], "--timeout", &v) && v && v < 100000)
			opt.timeout_s = (unsigned int)v;
		else if (parse_uint(argv[i], "--cpus", &v) && v >= 1 && v <= 64)
			opt.cpus = (unsigned int)v;
		else if (parse_uint(argv[i], "--sim", &v) && v <= 1000000)
			opt.sim_runs = (unsigned int)v;
		else if (parse_uint(argv[i], "--sim-seed", &v) && v)
			opt.sim_seed = v;
		else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout, argv[0]);
			return 0;
		} else {
			fprintf(stderr, "kunit: %s: unknown or out-of-range option\n", argv[i]);
			usage(stderr, argv[0]);
			return 2;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	/* the linker's bounds of the section, as addresses: two symbols, one array */
	nr_suites = start && stop ? ((uintptr_t)stop - (uintptr_t)start) / sizeof(*start) : 0;
	for (size_t k = 0; k < nr_suites; k++) {
		struct kunit_case *cases[1024] = { NULL };
		int n = selected_cases(start[k], cases, 1024);

		if (opt.list)
			for (int i = 0; i < n; i++)
				printf("%s.%s\n", start[k]->name, cases[i]->name);
		nr += n > 0;
	}
	if (opt.list)
		return 0;
	out("KTAP version 1");
	out("1..%ld", nr);
	for (size_t k = 0; k < nr_suites; k++) {
		struct kunit_case *cases[1024] = { NULL };

		if (!selected_cases(start[k], cases, 1024))
			continue;
		failed |= run_suite(start[k], ++num) == KUNIT_FAILURE;
	}
	return failed ? 1 : 0;
}
