// SPDX-License-Identifier: MIT
/*
 * irqkit-bench: each benchmark runs interleaved with its floor (or peer) in
 * the same process and reports the median of the per-repetition ratios
 * (subject / floor) with their min and max, plus the absolute figures as
 * information.  Throughput benchmarks time n operations; latency benchmarks
 * (BENCH_LATENCY) take a fixed number of samples per repetition and report
 * their median.  Single-thread benchmarks run on one pinned host CPU; those
 * with a producer and a consumer (BENCH_UNPINNED) may use every host CPU.
 *
 *   irqkit-bench [--quick] [--json] [--reps N] [filter]
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"

static const struct bench_set *const sets[] = { &bench_core_set, &bench_deferred_set };

static double reported_ns;	/* < 0: the runner's own timing counts */

uint64_t bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void bench_report_ns(double ns)
{
	reported_ns = ns;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double bench_median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static double time_per_op(bench_fn fn, long n)
{
	uint64_t t0 = bench_now_ns();

	reported_ns = -1;
	fn(n);
	if (reported_ns >= 0)
		return reported_ns;
	return (double)(bench_now_ns() - t0) / (double)n;
}

/* Iterations for about @target_ns of the slower of the two. */
static long calibrate(const struct bench *b, double target_ns)
{
	long n = 1000;

	for (;;) {
		uint64_t t = bench_now_ns();

		b->subject(n);
		b->floor(n);
		t = bench_now_ns() - t;
		if ((double)t > target_ns / 4 || n > (1L << 30))
			return (long)((double)n * target_ns / (t > 1 ? (double)t : 1));
		n *= 4;
	}
}

static void pin(bool one)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	if (one) {
		CPU_SET(0, &set);
	} else {
		for (int i = 0; i < CPU_SETSIZE; i++)
			CPU_SET(i, &set);
	}
	sched_setaffinity(0, sizeof(set), &set);
}

int main(int argc, char **argv)
{
	bool quick = false, json = false;
	int reps = 11;
	const char *filter = NULL;
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
	if (reps > 64)
		reps = 64;

	if (json)
		printf("{\"reps\": %d, \"quick\": %s, \"benchmarks\": [", reps, quick ? "true" : "false");
	else
		printf("%-28s %-28s %7s %7s %7s %7s %10s %10s\n", "benchmark", "floor or peer",
		       "ratio", "min", "max", "target", "subject", "floor");
	for (size_t s = 0; s < sizeof(sets) / sizeof(sets[0]); s++) {
		for (size_t b = 0; b < sets[s]->count; b++) {
			const struct bench *bn = &sets[s]->benches[b];
			double ratio[64], subj[64], flo[64], lo, hi, med, ms, mf;
			long n;

			if (filter && !strstr(bn->name, filter) && !strstr(bn->floor_name, filter))
				continue;
			pin(!(bn->flags & BENCH_UNPINNED));
			if (bn->setup && bn->setup()) {
				fprintf(stderr, "%s: setup failed\n", bn->name);
				return 1;
			}
			if (bn->flags & BENCH_LATENCY)
				n = quick ? (bn->fixed_n + 3) / 4 : bn->fixed_n;
			else
				n = calibrate(bn, quick ? 2e6 : 20e6);
			for (int r = 0; r < reps; r++) {
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
			lo = hi = ratio[0];
			for (int r = 1; r < reps; r++) {
				lo = ratio[r] < lo ? ratio[r] : lo;
				hi = ratio[r] > hi ? ratio[r] : hi;
			}
			med = bench_median(ratio, reps);
			ms = bench_median(subj, reps);
			mf = bench_median(flo, reps);
			if (json)
				printf("%s{\"name\": \"%s\", \"floor\": \"%s\", \"ratio_median\": %.3f, "
				       "\"ratio_min\": %.3f, \"ratio_max\": %.3f, \"target\": %.2f, "
				       "\"unit\": \"%s\", \"subject\": %.3f, \"floor_value\": %.3f, "
				       "\"n\": %ld}",
				       first ? "" : ", ", bn->name, bn->floor_name, med, lo, hi,
				       bn->target, bn->unit ? bn->unit : "ns/op", ms, mf, n);
			else
				printf("%-28s %-28s %7.2f %7.2f %7.2f %7.2f %10.2f %10.2f %s\n",
				       bn->name, bn->floor_name, med, lo, hi, bn->target, ms, mf,
				       bn->unit ? bn->unit : "ns/op");
			fflush(stdout);
			first = 0;
		}
	}
	if (json)
		printf("]}\n");
	return 0;
}
