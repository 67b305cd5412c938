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
 *   irqkit-bench --scaling [--quick] [--json] [lines|actions|cpus]
 *   irqkit-bench --side subject|floor --ops N [--peer floor-name] name
 *	(one side, untimed: for bench/callgrind.sh)
 *   irqkit-bench --list
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

static const struct bench_set *const sets[] = { &bench_core_set, &bench_deferred_set, &bench_fd_set,
						  &bench_lockdep_set, &bench_poll_set };


static double time_per_op(bench_fn fn, long n, struct sample_pool *pool)
{
	uint64_t t0 = bench_now_ns();

	bench_reported_ns = -1;
	bench_cur_pool = pool;
	fn(n);
	bench_cur_pool = NULL;
	if (bench_reported_ns >= 0)
		return bench_reported_ns;
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

struct result {
	double	med, lo, hi, ms, mf, p99s, p99f;
	long	n;
};

static void run_bench(const struct bench *bn, bool quick, int reps, struct result *res)
{
	double ratio[64], subj[64], flo[64];
	struct sample_pool ps = { 0 }, pf = { 0 };
	long n;

	if (bn->flags & BENCH_LATENCY)
		n = quick ? (bn->fixed_n + 3) / 4 : bn->fixed_n;
	else
		n = calibrate(bn, quick ? 2e6 : 20e6);
	for (int r = 0; r < reps; r++) {
		/* alternate which side goes first */
		if (r % 2) {
			flo[r] = time_per_op(bn->floor, n, &pf);
			subj[r] = time_per_op(bn->subject, n, &ps);
		} else {
			subj[r] = time_per_op(bn->subject, n, &ps);
			flo[r] = time_per_op(bn->floor, n, &pf);
		}
		ratio[r] = subj[r] / flo[r];
	}
	*res = (struct result){ .n = n, .lo = ratio[0], .hi = ratio[0] };
	for (int r = 1; r < reps; r++) {
		res->lo = ratio[r] < res->lo ? ratio[r] : res->lo;
		res->hi = ratio[r] > res->hi ? ratio[r] : res->hi;
	}
	if (ps.n && pf.n) {
		res->p99s = bench_quantile(ps.buf.p, ps.n, 0.99);
		res->p99f = bench_quantile(pf.buf.p, pf.n, 0.99);
	}
	bench_buf_free(&ps.buf);
	bench_buf_free(&pf.buf);
	res->med = bench_median(ratio, reps);
	res->ms = bench_median(subj, reps);
	res->mf = bench_median(flo, reps);
}

static void print_result(const struct bench *bn, const struct result *r, bool json, bool first)
{
	const char *unit = bn->unit ? bn->unit : "ns/op";
	char target[16], p99[32];

	if (json) {
		printf("%s\n  {\"name\": \"%s\", \"floor\": \"%s\", \"ratio_median\": %.4f, "
		       "\"ratio_min\": %.4f, \"ratio_max\": %.4f, \"target\": %.4f, "
		       "\"unit\": \"%s\", \"subject\": %.3f, \"floor_value\": %.3f",
		       first ? "" : ",", bn->name, bn->floor_name, r->med, r->lo, r->hi,
		       bn->target, unit, r->ms, r->mf);
		if (bn->flags & BENCH_LATENCY)
			printf(", \"subject_p99\": %.1f, \"floor_p99\": %.1f", r->p99s, r->p99f);
		printf(", \"n\": %ld}", r->n);
		return;
	}
	if (bn->target > 0)
		snprintf(target, sizeof(target), "%.3g", bn->target);
	else
		snprintf(target, sizeof(target), "-");
	if (bn->flags & BENCH_LATENCY)
		snprintf(p99, sizeof(p99), "%.0f/%.0f", r->p99s, r->p99f);
	else
		snprintf(p99, sizeof(p99), "-");
	printf("%-26s %-26s %7.3g %7.3g %7.3g %6s %10.4g %10.4g %-8s %s\n", bn->name,
	       bn->floor_name, r->med, r->lo, r->hi, target, r->ms, r->mf, unit, p99);
}

/* --side subject|floor --ops N: run one side once, untimed (for callgrind). */
static int run_side(const struct bench *bn, const char *side, long ops)
{
	bench_fn fn = !strcmp(side, "floor") ? bn->floor : bn->subject;

	bench_pin(!(bn->flags & BENCH_UNPINNED));
	if (bn->setup && bn->setup())
		return 1;
	fn(ops);
	if (bn->teardown)
		bn->teardown();
	return 0;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: irqkit-bench [--quick] [--json] [--reps N] [filter]\n"
		"       irqkit-bench --scaling [--quick] [--json] [lines|actions|cpus]\n"
		"       irqkit-bench --list\n"
		"       irqkit-bench --side subject|floor --ops N [--peer floor-name] name\n"
		"                    (one side, untimed: for bench/callgrind.sh)\n");
}

int main(int argc, char **argv)
{
	bool quick = false, json = false, scaling = false, list = false;
	int reps = 11;
	const char *filter = NULL, *side = NULL, *peer = NULL;
	long ops = 0;
	bool first = true;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--quick"))
			quick = true;
		else if (!strcmp(argv[i], "--json"))
			json = true;
		else if (!strcmp(argv[i], "--scaling"))
			scaling = true;
		else if (!strcmp(argv[i], "--list"))
			list = true;
		else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
			reps = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--side") && i + 1 < argc)
			side = argv[++i];
		else if (!strcmp(argv[i], "--peer") && i + 1 < argc)
			peer = argv[++i];
		else if (!strcmp(argv[i], "--ops") && i + 1 < argc)
			ops = atol(argv[++i]);
		else if (argv[i][0] == '-') {
			usage();
			return 2;
		} else
			filter = argv[i];
	}
	if (reps < 7)
		reps = 7;
	if (reps > 64)
		reps = 64;
	if (scaling)
		return bench_scaling(filter, quick, json, reps);

	for (size_t s = 0; s < sizeof(sets) / sizeof(sets[0]); s++) {
		for (size_t b = 0; b < sets[s]->count; b++) {
			const struct bench *bn = &sets[s]->benches[b];

			if (list)
				printf("%s %s %s %g\n", bn->name, bn->floor_name,
				       bn->flags & BENCH_LATENCY ? "latency" :
				       bn->flags & BENCH_UNPINNED ? "threads" : "cpu", bn->target);
			else if (side && filter && !strcmp(bn->name, filter) &&
				 (!peer || !strcmp(bn->floor_name, peer)))
				return run_side(bn, side, ops > 0 ? ops : 100000);
		}
	}
	if (list)
		return 0;
	if (side) {
		usage();
		return 2;
	}

	if (json)
		printf("{\"reps\": %d, \"quick\": %s, \"benchmarks\": [", reps, quick ? "true" : "false");
	else
		printf("%-26s %-26s %7s %7s %7s %6s %10s %10s %-8s %s\n", "benchmark",
		       "floor or peer", "ratio", "min", "max", "target", "subject", "floor",
		       "unit", "p99 s/f");
	for (size_t s = 0; s < sizeof(sets) / sizeof(sets[0]); s++) {
		for (size_t b = 0; b < sets[s]->count; b++) {
			const struct bench *bn = &sets[s]->benches[b];
			struct result res;

			if (filter && !strstr(bn->name, filter) && !strstr(bn->floor_name, filter))
				continue;
			bench_pin(!(bn->flags & BENCH_UNPINNED));
			if (bn->setup && bn->setup()) {
				fprintf(stderr, "%s: setup failed\n", bn->name);
				return 1;
			}
			run_bench(bn, quick, reps, &res);
			if (bn->teardown)
				bn->teardown();
			print_result(bn, &res, json, first);
			fflush(stdout);
			first = false;
		}
	}
	if (json)
		printf("\n]}\n");
	return 0;
}
