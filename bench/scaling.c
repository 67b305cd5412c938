// SPDX-License-Identifier: MIT
/*
 * Scaling curves (irqkit-bench --scaling): the cost of a software-raised
 * dispatch on the owning CPU
 *   - against the number of registered lines (1 to 65,536): one line raised
 *     among K registered, and all K raised in turn (informational: it adds
 *     the cache misses of K descriptors);
 *   - against the number of actions sharing the line (1 to 32), with the
 *     per-action slope against one indirect call of the same handler;
 *   - against the number of virtual CPUs (1 to the host's CPUs), each CPU's
 *     thread pinned to its own host CPU and raising its own line.
 * Every point is the median over the repetitions, each repetition timed
 * interleaved with the floor (an indirect call plus a relaxed atomic
 * increment).  Output is a table gnuplot reads ('#' lines are comments), or
 * JSON with --json.
 */
#define _GNU_SOURCE
#include <irqkit/irqkit.h>

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"

static unsigned long hits;

/* one counter per CPU, each on its own cache line, so CPUs share nothing */
static struct {
	unsigned long	v;
} __attribute__((aligned(64))) cpu_hits[64];

/* The handler counts into its dev_id (the handler of the floor, too). */
static enum irqkit_irqreturn count_handler(int irq, void *dev)
{
	(void)irq;
	__atomic_fetch_add((unsigned long *)dev, 1, __ATOMIC_RELAXED);
	return IRQKIT_HANDLED;
}

static enum irqkit_irqreturn (*volatile floor_ptr)(int, void *) = count_handler;

static double time_floor(long n)
{
	uint64_t t0 = bench_now_ns();

	for (long i = 0; i < n; i++)
		floor_ptr(1, &hits);
	return (double)(bench_now_ns() - t0) / (double)n;
}

static double time_raise(unsigned int irq, long n)
{
	uint64_t t0 = bench_now_ns();

	for (long i = 0; i < n; i++)
		irqkit_sw_raise(irq);
	return (double)(bench_now_ns() - t0) / (double)n;
}

static double time_raise_rotating(unsigned int first, unsigned int count, long n)
{
	uint64_t t0 = bench_now_ns();
	unsigned int k = 0;

	for (long i = 0; i < n; i++) {
		irqkit_sw_raise(first + k);
		if (++k == count)
			k = 0;
	}
	return (double)(bench_now_ns() - t0) / (double)n;
}

static void header(bool json, bool *first, const char *curve, const char *cols)
{
	if (json)
		printf("%s\n  \"%s\": [", *first ? "" : ",", curve);
	else
		printf("%s# %s\n# %s\n", *first ? "" : "\n\n", curve, cols);
	*first = false;
}

/* ---- registered lines ------------------------------------------------------------------ */

static int curve_lines(bool quick, bool json, int reps, bool *first)
{
	static const unsigned int points[] = { 1, 16, 256, 4096, 65536 };
	long n = quick ? 20000 : 200000;
	double base = 0;

	/* ratio_to_1_line compares cost/floor at K with cost/floor at 1: frequency drift cancels */
	header(json, first, "lines", "lines ns_one_line ns_rotating floor_ns ratio_to_1_line");
	for (size_t p = 0; p < sizeof(points) / sizeof(points[0]); p++) {
		unsigned int k = points[p];
		struct irqkit_config cfg = { .nr_irqs = k + 1, .nr_cpus = 1 };
		double one[64], rot[64], flo[64], m1, mr, mf;

		if (irqkit_start(&cfg) || irqkit_swchip_add(1, k, IRQKIT_TYPE_EDGE_RISING))
			return -1;
		for (unsigned int irq = 1; irq <= k; irq++)
			if (irqkit_request_irq(irq, count_handler, 0, "scale", &hits))
				return -1;
		if (irqkit_thread_bind(0))
			return -1;
		for (int r = 0; r < reps; r++) {
			one[r] = time_raise(1 + k / 2, n);
			rot[r] = time_raise_rotating(1, k, n);
			flo[r] = time_floor(n);
		}
		irqkit_thread_unbind();
		for (unsigned int irq = 1; irq <= k; irq++)
			irqkit_free_irq(irq, &hits);
		irqkit_stop();
		m1 = bench_median(one, reps);
		mr = bench_median(rot, reps);
		mf = bench_median(flo, reps);
		if (!p)
			base = m1 / mf;
		if (json)
			printf("%s\n    {\"lines\": %u, \"ns_one_line\": %.2f, \"ns_rotating\": %.2f, "
			       "\"floor_ns\": %.2f, \"ratio_to_1_line\": %.3f}",
			       p ? "," : "", k, m1, mr, mf, m1 / mf / base);
		else
			printf("%u %.2f %.2f %.2f %.3f\n", k, m1, mr, mf, m1 / mf / base);
		fflush(stdout);
	}
	if (json)
		printf("\n  ]");
	return 0;
}

/* ---- shared actions ------------------------------------------------------------------------ */

static int curve_actions(bool quick, bool json, int reps, bool *first)
{
	static const unsigned int points[] = { 1, 2, 4, 8, 16, 32 };
	static struct {
		unsigned long	v;
	} devs[32];
	long n = quick ? 20000 : 200000;
	double cost[6], floor_ns = 0, slope, flo_all[6];

	header(json, first, "actions", "actions ns_per_dispatch floor_ns");
	for (size_t p = 0; p < sizeof(points) / sizeof(points[0]); p++) {
		unsigned int a = points[p];
		struct irqkit_config cfg = { .nr_irqs = 8, .nr_cpus = 1 };
		double d[64], flo[64];

		if (irqkit_start(&cfg) || irqkit_swchip_add(1, 1, IRQKIT_TYPE_EDGE_RISING))
			return -1;
		for (unsigned int i = 0; i < a; i++)
			if (irqkit_request_irq(1, count_handler, IRQKIT_F_SHARED, "shared", &devs[i].v))
				return -1;
		if (irqkit_thread_bind(0))
			return -1;
		for (int r = 0; r < reps; r++) {
			d[r] = time_raise(1, n);
			flo[r] = time_floor(n);
		}
		irqkit_thread_unbind();
		for (unsigned int i = 0; i < a; i++)
			irqkit_free_irq(1, &devs[i].v);
		irqkit_stop();
		cost[p] = bench_median(d, reps);
		flo_all[p] = bench_median(flo, reps);
		if (json)
			printf("%s\n    {\"actions\": %u, \"ns_per_dispatch\": %.2f, \"floor_ns\": %.2f}",
			       p ? "," : "", a, cost[p], flo_all[p]);
		else
			printf("%u %.2f %.2f\n", a, cost[p], flo_all[p]);
		fflush(stdout);
	}
	floor_ns = bench_median(flo_all, 6);
	{
		/* least-squares slope of cost against actions */
		double sx = 0, sy = 0, sxx = 0, sxy = 0, k = 6;

		for (int i = 0; i < 6; i++) {
			sx += points[i];
			sy += cost[i];
			sxx += (double)points[i] * points[i];
			sxy += points[i] * cost[i];
		}
		slope = (k * sxy - sx * sy) / (k * sxx - sx * sx);
	}
	if (json)
		printf("\n  ],\n  \"actions_slope\": {\"ns_per_action\": %.3f, \"floor_ns\": %.3f, "
		       "\"ratio\": %.3f, \"target\": 1.5}", slope, floor_ns, slope / floor_ns);
	else
		printf("# slope (least squares) %.3f ns per action = %.3fx one indirect call of the "
		       "handler (%.3f ns, median of the points); target 1.5x\n", slope,
		       slope / floor_ns, floor_ns);
	return 0;
}

/* ---- virtual CPUs ---------------------------------------------------------------------------- */

struct cpu_arg {
	unsigned int	cpu;
	long		n;
	pthread_barrier_t *start;
	uint64_t	t0, t1;		/* this thread's first and last raise */
};

static void *cpu_main(void *p)
{
	struct cpu_arg *a = p;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(a->cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	if (irqkit_thread_bind(a->cpu))
		abort();
	pthread_barrier_wait(a->start);
	a->t0 = bench_now_ns();
	for (long i = 0; i < a->n; i++)
		irqkit_sw_raise(1 + a->cpu);
	a->t1 = bench_now_ns();
	irqkit_thread_unbind();
	return NULL;
}

/*
 * N threads, each on its own virtual and host CPU, raising its own line:
 * wall time from the first thread's first raise to the last one's last.
 */
static double run_cpus(unsigned int ncpu, long n)
{
	pthread_t th[64];
	struct cpu_arg args[64];
	pthread_barrier_t start;
	uint64_t t0 = UINT64_MAX, t1 = 0;

	pthread_barrier_init(&start, NULL, ncpu);
	for (unsigned int c = 0; c < ncpu; c++) {
		args[c] = (struct cpu_arg){ .cpu = c, .n = n, .start = &start };
		if (pthread_create(&th[c], NULL, cpu_main, &args[c]))
			abort();
	}
	for (unsigned int c = 0; c < ncpu; c++) {
		pthread_join(th[c], NULL);
		t0 = args[c].t0 < t0 ? args[c].t0 : t0;
		t1 = args[c].t1 > t1 ? args[c].t1 : t1;
	}
	pthread_barrier_destroy(&start);
	return (double)(t1 - t0);
}

static int curve_cpus(bool quick, bool json, int reps, bool *first)
{
	long host = sysconf(_SC_NPROCESSORS_ONLN);
	long n = quick ? 50000 : 500000;
	double one_tput = 0;

	if (host > 64)
		host = 64;
	header(json, first, "cpus",
	       "cpus ns_per_op_per_cpu ratio_to_1_cpu throughput_mops ratio_to_n_times_1_cpu");
	for (unsigned int ncpu = 1; ncpu <= (unsigned int)host; ncpu++) {
		struct irqkit_config cfg = { .nr_irqs = 80, .nr_cpus = ncpu };
		double per[64], cost, tput;
		static double cost1;

		if (irqkit_start(&cfg) || irqkit_swchip_add(1, ncpu, IRQKIT_TYPE_EDGE_RISING))
			return -1;
		for (unsigned int c = 0; c < ncpu; c++)
			if (irqkit_irq_set_affinity(1 + c, 1ull << c) ||
			    irqkit_request_irq(1 + c, count_handler, 0, "percpu", &cpu_hits[c].v))
				return -1;
		for (unsigned int c = 0; c < ncpu; c++)
			cpu_hits[c].v = 0;
		for (int r = 0; r < reps; r++)
			per[r] = run_cpus(ncpu, n) / (double)n;
		for (unsigned int c = 0; c < ncpu; c++)
			if (cpu_hits[c].v != (unsigned long)(n * reps))
				fprintf(stderr, "irqkit-bench: cpu %u: %lu handler runs for %ld raises\n",
					c, cpu_hits[c].v, n * reps);
		for (unsigned int c = 0; c < ncpu; c++)
			irqkit_free_irq(1 + c, &cpu_hits[c].v);
		irqkit_stop();
		cost = bench_median(per, reps);
		tput = (double)ncpu * 1e3 / cost;	/* million dispatches per second, all CPUs */
		if (ncpu == 1) {
			cost1 = cost;
			one_tput = tput;
		}
		if (json)
			printf("%s\n    {\"cpus\": %u, \"ns_per_op_per_cpu\": %.2f, \"ratio_to_1_cpu\": %.3f, "
			       "\"throughput_mops\": %.2f, \"ratio_to_n_times_1_cpu\": %.3f}",
			       ncpu == 1 ? "" : ",", ncpu, cost, cost / cost1, tput,
			       tput / (one_tput * ncpu));
		else
			printf("%u %.2f %.3f %.2f %.3f\n", ncpu, cost, cost / cost1, tput,
			       tput / (one_tput * ncpu));
		fflush(stdout);
	}
	if (json)
		printf("\n  ]");
	return 0;
}

int bench_scaling(const char *which, bool quick, bool json, int reps)
{
	bool first = true;
	int err = 0;

	bench_pin(true);
	if (json)
		printf("{");
	if (!err && (!which || !strcmp(which, "lines")))
		err = curve_lines(quick, json, reps, &first);
	if (!err && (!which || !strcmp(which, "actions")))
		err = curve_actions(quick, json, reps, &first);
	bench_pin(false);
	if (!err && (!which || !strcmp(which, "cpus")))
		err = curve_cpus(quick, json, reps, &first);
	if (json)
		printf("\n}\n");
	if (err)
		fprintf(stderr, "irqkit-bench: scaling setup failed\n");
	return err ? 1 : 0;
}
