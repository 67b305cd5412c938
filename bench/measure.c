// SPDX-License-Identifier: MIT
/*
 * Measuring, for the runner and the benchmark files alike: the clock, what a
 * side reports (a time per operation, or latency samples pooled over the
 * repetitions), growable buffers, medians and quantiles, pinning.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

double bench_reported_ns;		/* < 0: the runner's own timing counts */
struct sample_pool *bench_cur_pool;

uint64_t bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void bench_report_ns(double ns)
{
	bench_reported_ns = ns;
}

static int cmp_double_fwd(const void *a, const void *b);

void *bench_reserve(struct bench_buf *b, long n, size_t size)
{
	if (n > b->cap) {
		long cap = n > 2 * b->cap ? n : 2 * b->cap;
		void *p = realloc(b->p, size * (size_t)cap);

		if (!p)
			abort();
		b->p = p;
		b->cap = cap;
	}
	return b->p;
}

void bench_buf_free(struct bench_buf *b)
{
	free(b->p);
	*b = (struct bench_buf){ 0 };
}

void bench_report_samples(double *v, int n)
{
	struct sample_pool *p = bench_cur_pool;

	if (p && n > 0) {
		double *pool = bench_reserve(&p->buf, p->n + n, sizeof(*pool));

		memcpy(pool + p->n, v, sizeof(*v) * (size_t)n);
		p->n += n;
	}
	bench_reported_ns = bench_median(v, n);
}

double bench_quantile(double *v, long n, double q)
{
	long i;

	if (n <= 0)
		return 0;
	qsort(v, (size_t)n, sizeof(*v), cmp_double_fwd);
	i = (long)(q * (double)(n - 1) + 0.5);
	return v[i < n ? i : n - 1];
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

static int cmp_double_fwd(const void *a, const void *b)
{
	return cmp_double(a, b);
}

void bench_pin_to(int cpu)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu % (online > 0 ? (int)online : 1), &set);
	sched_setaffinity(0, sizeof(set), &set);
}

void bench_pin(bool one)
{
	cpu_set_t set;

	if (one) {
		bench_pin_to(0);
		return;
	}
	CPU_ZERO(&set);
	for (int i = 0; i < CPU_SETSIZE; i++)
		CPU_SET(i, &set);
	sched_setaffinity(0, sizeof(set), &set);
}
