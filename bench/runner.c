// SPDX-License-Identifier: MIT
/*
 * irqkit-bench: each benchmark runs interleaved with its floor in the same
 * process, on the same pinned thread, and reports the median of the
 * per-repetition ratios (subject / floor) with their min and max, plus the
 * absolute nanoseconds per operation as information.
 *
 *   irqkit-bench [--quick] [--json] [--reps N] [filter]
 */
#define _GNU_SOURCE
#include <irqkit/irqkit.h>

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef void (*bench_fn)(long n);

struct bench {
	const char	*name;
	const char	*floor_name;
	bench_fn	subject;
	bench_fn	floor;
	double		target;		/* the aim: ratio at most this */
	int		(*setup)(void);
	void		(*teardown)(void);
};

/* ---- shared pieces ------------------------------------------------------------------ */

static unsigned long counter;

/* Keep the compiler from folding a loop of operations into one. */
#define barrier()	__asm__ __volatile__("" ::: "memory")

static enum irqkit_irqreturn bench_handler(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	__atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED);
	return IRQKIT_HANDLED;
}

/* The floor of dispatch: call the same handler through a pointer the compiler cannot see. */
static enum irqkit_irqreturn (*volatile handler_ptr)(int, void *) = bench_handler;

static void floor_indirect_call_atomic_inc(long n)
{
	for (long i = 0; i < n; i++)
		handler_ptr(1, NULL);
}

static int setup_runtime(void)
{
	struct irqkit_config cfg = { .nr_irqs = 64, .nr_cpus = 1 };

	if (irqkit_start(&cfg) || irqkit_swchip_add(1, 1, IRQKIT_TYPE_EDGE_RISING) ||
	    irqkit_request_irq(1, bench_handler, 0, "bench", &counter))
		return -1;
	return 0;
}

static void teardown_runtime(void)
{
	irqkit_free_irq(1, &counter);
	irqkit_stop();
}

/* ---- dispatch ------------------------------------------------------------------------- */

static void raise_on_own_cpu(long n)
{
	for (long i = 0; i < n; i++)
		irqkit_sw_raise(1);
}

static int setup_bound(void)
{
	return setup_runtime() || irqkit_thread_bind(0) ? -1 : 0;
}

static void teardown_bound(void)
{
	irqkit_thread_unbind();
	teardown_runtime();
}

/* ---- local_irq_save / restore ------------------------------------------------------------ */

/* not static: the stores cannot be proven unobservable and dropped */
_Thread_local unsigned long bench_tls_word;

static void floor_tls_store(long n)
{
	for (long i = 0; i < n; i++) {
		bench_tls_word = (unsigned long)i;
		barrier();
	}
}

static void local_irq_save_restore(long n)
{
	for (long i = 0; i < n; i++) {
		unsigned long flags = irqkit_local_irq_save();

		barrier();
		irqkit_local_irq_restore(flags);
		barrier();
	}
}

/* ---- spinlocks ----------------------------------------------------------------------------- */

static struct irqkit_spinlock lock = IRQKIT_SPINLOCK_INIT;
static pthread_spinlock_t plock;

static void spin_lock_irqsave_pair(long n)
{
	for (long i = 0; i < n; i++) {
		unsigned long flags = irqkit_spin_lock_irqsave(&lock);

		barrier();
		irqkit_spin_unlock_irqrestore(&lock, flags);
		barrier();
	}
}

static void floor_pthread_spin(long n)
{
	for (long i = 0; i < n; i++) {
		pthread_spin_lock(&plock);
		barrier();
		pthread_spin_unlock(&plock);
		barrier();
	}
}

static const struct bench benches[] = {
	{ "dispatch_own_cpu", "indirect_call_atomic_inc", raise_on_own_cpu,
	  floor_indirect_call_atomic_inc, 2.0, setup_bound, teardown_bound },
	{ "local_irq_save_restore", "tls_store", local_irq_save_restore, floor_tls_store, 1.5,
	  setup_runtime, teardown_runtime },
	{ "spin_lock_irqsave", "pthread_spin_lock", spin_lock_irqsave_pair, floor_pthread_spin, 1.0,
	  setup_runtime, teardown_runtime },
};

/* ---- the runner ---------------------------------------------------------------------------- */

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static double time_per_op(bench_fn fn, long n)
{
	double t0 = now_ns();

	fn(n);
	return (now_ns() - t0) / (double)n;
}

/* Iterations for about @target_ns of the slower of the two. */
static long calibrate(const struct bench *b, double target_ns)
{
	long n = 1000;

	for (;;) {
		double t = now_ns();

		b->subject(n);
		b->floor(n);
		t = now_ns() - t;
		if (t > target_ns / 4 || n > (1L << 30))
			return (long)((double)n * target_ns / (t > 1 ? t : 1));
		n *= 4;
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv)
{
	bool quick = false, json = false;
	int reps = 11;
	const char *filter = NULL;
	cpu_set_t set;
	int first = 1;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--quick"))
			quick = true;
		else if (!strcmp(argv[i], "--json"))
			json = true;
		else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
			reps = atoi(argv[++i]);
		else
			filter = argv[i];
	}
	if (reps < 7)
		reps = 7;
	/* both sides run on the same pinned host CPU */
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);
	pthread_spin_init(&plock, PTHREAD_PROCESS_PRIVATE);

	if (json)
		printf("{\"reps\": %d, \"quick\": %s, \"benchmarks\": [", reps, quick ? "true" : "false");
	else
		printf("%-24s %-26s %8s %8s %8s %7s %10s %10s\n", "benchmark", "floor", "ratio", "min",
		       "max", "target", "ns/op", "floor ns");
	for (size_t b = 0; b < sizeof(benches) / sizeof(benches[0]); b++) {
		const struct bench *bn = &benches[b];
		double ratio[64], subj[64], flo[64];
		long n;

		if (filter && !strstr(bn->name, filter))
			continue;
		if (bn->setup && bn->setup()) {
			fprintf(stderr, "%s: setup failed\n", bn->name);
			return 1;
		}
		n = calibrate(bn, quick ? 2e6 : 20e6);
		for (int r = 0; r < reps && r < 64; r++) {
			/* alternate which side goes first */
			if (r % 2) {
				flo[r] = time_per_op(bn->floor, n);
				subj[r] = time_per_op(bn->subject, n);
			} else {
				subj[r] = time_per_op(bn->subject, n);
				flo[r] = time_per_op(bn->floor, n);
			}
			ratio[r] = subj[r] / flo[r];
		}
		if (bn->teardown)
			bn->teardown();
		{
			double lo = ratio[0], hi = ratio[0];

			for (int r = 1; r < reps; r++) {
				lo = ratio[r] < lo ? ratio[r] : lo;
				hi = ratio[r] > hi ? ratio[r] : hi;
			}
			double med = median(ratio, reps);
			double ms = median(subj, reps), mf = median(flo, reps);

			if (json)
				printf("%s{\"name\": \"%s\", \"floor\": \"%s\", \"ratio_median\": %.3f, "
				       "\"ratio_min\": %.3f, \"ratio_max\": %.3f, \"target\": %.2f, "
				       "\"ns_per_op\": %.3f, \"floor_ns_per_op\": %.3f, \"iterations\": %ld}",
				       first ? "" : ", ", bn->name, bn->floor_name, med, lo, hi,
				       bn->target, ms, mf, n);
			else
				printf("%-24s %-26s %8.2f %8.2f %8.2f %7.2f %10.2f %10.2f\n", bn->name,
				       bn->floor_name, med, lo, hi, bn->target, ms, mf);
			first = 0;
		}
	}
	if (json)
		printf("]}\n");
	return 0;
}
