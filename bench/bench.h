/* SPDX-License-Identifier: MIT */
/*
 * irqkit-bench: benchmarks paired with a floor or a peer in the same run.
 * Each side is a function that performs n operations; the runner times it, or
 * the side reports its own per-operation figure (a latency median) through
 * bench_report_ns().
 */
#ifndef IRQKIT_BENCH_H
#define IRQKIT_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef void (*bench_fn)(long n);

#define BENCH_UNPINNED	(1u << 0)	/* threads on every host CPU (producer/consumer pairs) */
#define BENCH_LATENCY	(1u << 1)	/* sides report a median latency; n is fixed */

struct bench {
	const char	*name;
	const char	*floor_name;
	bench_fn	subject;
	bench_fn	floor;
	double		target;		/* the aim: ratio at most this */
	int		(*setup)(void);
	void		(*teardown)(void);
	unsigned int	flags;
	long		fixed_n;	/* BENCH_LATENCY: samples per repetition */
	const char	*unit;		/* what ns/op means, for the table: NULL is "ns/op" */
};

struct bench_set {
	const struct bench	*benches;
	size_t			count;
};

extern const struct bench_set bench_core_set;
extern const struct bench_set bench_deferred_set;
extern const struct bench_set bench_fd_set;
extern const struct bench_set bench_lockdep_set;
extern const struct bench_set bench_poll_set;

/* n spin_lock_irqsave/unlock_irqrestore pairs on one lock, compiled without the validator. */
void bench_spin_lock_irqsave_pairs(long n);

/* The scaling curves (scaling.c): lines, shared actions, virtual CPUs. */
int bench_scaling(const char *which, bool quick, bool json, int reps);

/* Pin the calling thread to host CPU 0 (@one) or let it run anywhere. */
void bench_pin(bool one);
/* Pin the calling thread to host CPU @cpu (modulo the CPUs there are). */
void bench_pin_to(int cpu);

/* Keep the compiler from folding a loop of operations into one. */
#define barrier()	__asm__ __volatile__("" ::: "memory")

uint64_t bench_now_ns(void);

/* A side that measures itself: its per-operation figure for this repetition. */
void bench_report_ns(double ns);

/*
 * A latency side: report its @n samples (ns).  The repetition's figure is
 * their median; the runner pools every repetition's samples for the p99.
 */
void bench_report_samples(double *v, int n);

/*
 * A wake-up latency side: @n samples of "clear bench_woke, note the time,
 * kick() the other side, wait until it set bench_woke", each sample
 * bench_woke_at minus that time.  @sleep_us before each sample lets the
 * other side fall asleep again; @spin waits by spinning (for polling peers),
 * else on the futex.  Reports the samples.
 */
void bench_wake_samples(long n, void (*kick)(void), unsigned int sleep_us, bool spin);

/* A growable array of fixed-size elements (zero-initialised: empty). */
struct bench_buf {
	void	*p;
	long	cap;		/* elements */
};

/* What the side being timed reported (measure.c); the runner reads and resets it. */
extern double bench_reported_ns;
/* Latency samples of the side being timed, pooled over the repetitions. */
struct sample_pool {
	struct bench_buf	buf;	/* of double */
	long			n;
};
extern struct sample_pool *bench_cur_pool;


/* Room for at least @n elements of @size bytes; returns the array.  Aborts on ENOMEM. */
void *bench_reserve(struct bench_buf *b, long n, size_t size);
void bench_buf_free(struct bench_buf *b);

/* The median of @n values (sorts them). */
double bench_median(double *v, int n);

/* The @q quantile (0..1) of @n values (sorts them). */
double bench_quantile(double *v, long n, double q);

/* The pair of the cross-CPU benchmarks: a futex wake of a sleeping thread (bench_deferred.c). */
void bench_futex_wake_thread(long n);
int bench_futex_peer_start(void);
void bench_futex_peer_stop(void);
extern uint64_t bench_woke_at;		/* when the woken side started */
extern int bench_woke;			/* set to 1 (and futex-woken) by the woken side */
void bench_futex_wait(int *word, int val);
void bench_futex_set_wake(int *word, int val);

#endif
