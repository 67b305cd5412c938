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
 * Each repetition visits every point in turn, so the shared machine's slow
 * spells fall on all points alike; every point reports medians over the
 * repetitions, and its ratios are medians of per-repetition ratios (cost
 * over the floor, an indirect call plus a relaxed atomic increment, timed
 * at the same point).  Output is a table gnuplot reads ('#' lines are comments), or
 * JSON with --json.
 */
#define _GNU_SOURCE
#include <irqkit/irqkit.h>

#include <pthread.h>
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

/*
 * Every repetition visits every point in turn (a runtime started per point),
 * so a slow spell of the shared machine lands on all points alike; each
 * point's ratio is the median over repetitions of its cost/floor against the
 * 1-line point's cost/floor in the same repetition.
 */
#define NR_LINE_POINTS	5

static int lines_point(unsigned int k, long n, double *one, double *rot, double *flo)
{
	struct irqkit_config cfg = { .nr_irqs = k + 1, .nr_cpus = 1 };

	if (irqkit_start(&cfg) || irqkit_swchip_add(1, k, IRQKIT_TYPE_EDGE_RISING))
		return -1;
	for (unsigned int irq = 1; irq <= k; irq++)
		if (irqkit_request_irq(irq, count_handler, 0, "scale", &hits))
			return -1;
	if (irqkit_thread_bind(0))
		return -1;
	*one = time_raise(1 + k / 2, n);
	*rot = time_raise_rotating(1, k, n);
	*flo = time_floor(n);
	irqkit_thread_unbind();
	for (unsigned int irq = 1; irq <= k; irq++)
		irqkit_free_irq(irq, &hits);
	irqkit_stop();
	return 0;
}

static int curve_lines(bool quick, bool json, int reps, bool *first)
{
	static const unsigned int points[NR_LINE_POINTS] = { 1, 16, 256, 4096, 65536 };
	static double one[NR_LINE_POINTS][64], rot[NR_LINE_POINTS][64], flo[NR_LINE_POINTS][64];
	long n = quick ? 20000 : 200000;

	header(json, first, "lines", "lines ns_one_line ns_rotating floor_ns ratio_to_1_line");
	for (int r = 0; r < reps; r++)
		for (int p = 0; p < NR_LINE_POINTS; p++)
			if (lines_point(points[p], n, &one[p][r], &rot[p][r], &flo[p][r]))
				return -1;
	for (int p = 0; p < NR_LINE_POINTS; p++) {
		double ratio[64], m1, mr, mf, mratio;

		for (int r = 0; r < reps; r++)
			ratio[r] = (one[p][r] / flo[p][r]) / (one[0][r] / flo[0][r]);
		mratio = bench_median(ratio, reps);
		m1 = bench_median(one[p], reps);
		mr = bench_median(rot[p], reps);
		mf = bench_median(flo[p], reps);
		if (json)
			printf("%s\n    {\"lines\": %u, \"ns_one_line\": %.2f, \"ns_rotating\": %.2f, "
			       "\"floor_ns\": %.2f, \"ratio_to_1_line\": %.3f}",
			       p ? "," : "", points[p], m1, mr, mf, mratio);
		else
			printf("%u %.2f %.2f %.2f %.3f\n", points[p], m1, mr, mf, mratio);
	}
	if (json)
		printf("\n  ]");
	fflush(stdout);
	return 0;
}

/* ---- shared actions ------------------------------------------------------------------------ */

#define NR_ACTION_POINTS	6

static int actions_point(unsigned int a, long n, double *cost, double *flo)
{
	static struct {
		unsigned long	v;
	} devs[32];
	struct irqkit_config cfg = { .nr_irqs = 8, .nr_cpus = 1 };

	if (irqkit_start(&cfg) || irqkit_swchip_add(1, 1, IRQKIT_TYPE_EDGE_RISING))
		return -1;
	for (unsigned int i = 0; i < a; i++)
		if (irqkit_request_irq(1, count_handler, IRQKIT_F_SHARED, "shared", &devs[i].v))
			return -1;
	if (irqkit_thread_bind(0))
		return -1;
	*cost = time_raise(1, n);
	*flo = time_floor(n);
	irqkit_thread_unbind();
	for (unsigned int i = 0; i < a; i++)
		irqkit_free_irq(1, &devs[i].v);
	irqkit_stop();
	return 0;
}

/* Least-squares slope of @y against @x. */
static double ls_slope(const unsigned int *x, const double *y, int n)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0;

	for (int i = 0; i < n; i++) {
		sx += x[i];
		sy += y[i];
		sxx += (double)x[i] * x[i];
		sxy += x[i] * y[i];
	}
	return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

static int curve_actions(bool quick, bool json, int reps, bool *first)
{
	static const unsigned int points[NR_ACTION_POINTS] = { 1, 2, 4, 8, 16, 32 };
	static double cost[NR_ACTION_POINTS][64], flo[NR_ACTION_POINTS][64];
	long n = quick ? 20000 : 200000;
	double slope_ratio[64], slopes[64], floors[64], col[NR_ACTION_POINTS];

	header(json, first, "actions", "actions ns_per_dispatch floor_ns");
	for (int r = 0; r < reps; r++) {
		double fl[NR_ACTION_POINTS];

		for (int p = 0; p < NR_ACTION_POINTS; p++) {
			if (actions_point(points[p], n, &cost[p][r], &flo[p][r]))
				return -1;
			col[p] = cost[p][r];
			fl[p] = flo[p][r];
		}
		/* this repetition's slope against this repetition's floor */
		slopes[r] = ls_slope(points, col, NR_ACTION_POINTS);
		floors[r] = bench_median(fl, NR_ACTION_POINTS);
		slope_ratio[r] = slopes[r] / floors[r];
	}
	for (int p = 0; p < NR_ACTION_POINTS; p++) {
		double mc = bench_median(cost[p], reps), mf = bench_median(flo[p], reps);

		if (json)
			printf("%s\n    {\"actions\": %u, \"ns_per_dispatch\": %.2f, \"floor_ns\": %.2f}",
			       p ? "," : "", points[p], mc, mf);
		else
			printf("%u %.2f %.2f\n", points[p], mc, mf);
	}
	{
		double ms = bench_median(slopes, reps), mf = bench_median(floors, reps);
		double mr = bench_median(slope_ratio, reps);

		if (json)
			printf("\n  ],\n  \"actions_slope\": {\"ns_per_action\": %.3f, \"floor_ns\": %.3f, "
			       "\"ratio\": %.3f, \"target\": 1.5}", ms, mf, mr);
		else
			printf("# slope (least squares, median of repetitions) %.3f ns per action = "
			       "%.3fx one indirect call of the handler (%.3f ns); target 1.5x\n",
			       ms, mr, mf);
	}
	fflush(stdout);
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

	bench_pin_to((int)a->cpu);
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

/* One repetition at @ncpu virtual CPUs: ns per dispatch per CPU (wall time / n). */
static int cpus_point(unsigned int ncpu, long n, double *per)
{
	struct irqkit_config cfg = { .nr_irqs = 80, .nr_cpus = ncpu };

	if (irqkit_start(&cfg) || irqkit_swchip_add(1, ncpu, IRQKIT_TYPE_EDGE_RISING))
		return -1;
	for (unsigned int c = 0; c < ncpu; c++)
		if (irqkit_irq_set_affinity(1 + c, 1ull << c) ||
		    irqkit_request_irq(1 + c, count_handler, 0, "percpu", &cpu_hits[c].v))
			return -1;
	for (unsigned int c = 0; c < ncpu; c++)
		cpu_hits[c].v = 0;
	*per = run_cpus(ncpu, n) / (double)n;
	for (unsigned int c = 0; c < ncpu; c++)
		if (cpu_hits[c].v != (unsigned long)n)
			fprintf(stderr, "irqkit-bench: cpu %u: %lu handler runs for %ld raises\n",
				c, cpu_hits[c].v, n);
	for (unsigned int c = 0; c < ncpu; c++)
		irqkit_free_irq(1 + c, &cpu_hits[c].v);
	irqkit_stop();
	return 0;
}

/*
 * Every repetition runs 1..N CPUs in turn; the ratios are medians of the
 * per-repetition ratios against the 1-CPU run of the same repetition.
 */
static int curve_cpus(bool quick, bool json, int reps, bool *first)
{
	static double per[65][64];
	long host = sysconf(_SC_NPROCESSORS_ONLN);
	long n = quick ? 50000 : 500000;

	if (host > 64)
		host = 64;
	header(json, first, "cpus",
	       "cpus ns_per_op_per_cpu ratio_to_1_cpu throughput_mops ratio_to_n_times_1_cpu");
	for (int r = 0; r < reps; r++)
		for (unsigned int ncpu = 1; ncpu <= (unsigned int)host; ncpu++)
			if (cpus_point(ncpu, n, &per[ncpu][r]))
				return -1;
	for (unsigned int ncpu = 1; ncpu <= (unsigned int)host; ncpu++) {
		double cost_ratio[64], tput_ratio[64], cost, tput, mc, mt;

		for (int r = 0; r < reps; r++) {
			cost_ratio[r] = per[ncpu][r] / per[1][r];
			/* total throughput at N over N times the 1-CPU throughput */
			tput_ratio[r] = per[1][r] / per[ncpu][r];
		}
		mc = bench_median(cost_ratio, reps);
		mt = bench_median(tput_ratio, reps);
		cost = bench_median(per[ncpu], reps);
		tput = (double)ncpu * 1e3 / cost;	/* million dispatches per second, all CPUs */
		if (json)
			printf("%s\n    {\"cpus\": %u, \"ns_per_op_per_cpu\": %.2f, \"ratio_to_1_cpu\": %.3f, "
			       "\"throughput_mops\": %.2f, \"ratio_to_n_times_1_cpu\": %.3f}",
			       ncpu == 1 ? "" : ",", ncpu, cost, mc, tput, mt);
		else
			printf("%u %.2f %.3f %.2f %.3f\n", ncpu, cost, mc, tput, mt);
	}
	if (json)
		printf("\n  ]");
	fflush(stdout);
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
