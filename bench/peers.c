// SPDX-License-Identifier: MIT
/*
 * What several benchmark files measure against or with: futex waits and
 * wakes, the wake-latency sampler (a kick, then the time until the woken side
 * ran), and the futex peer: a thread sleeping on a futex word.
 */
#define _GNU_SOURCE
#include <linux/futex.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bench.h"

int bench_woke;
uint64_t bench_woke_at;

void bench_futex_wait(int *word, int val)
{
	while (__atomic_load_n(word, __ATOMIC_ACQUIRE) == val)
		syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

void bench_futex_set_wake(int *word, int val)
{
	__atomic_store_n(word, val, __ATOMIC_RELEASE);
	syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

void bench_wake_samples(long n, void (*kick)(void), unsigned int sleep_us, bool spin)
{
	double *v = malloc(sizeof(*v) * (size_t)n);

	if (!v)
		abort();
	for (long i = 0; i < n; i++) {
		uint64_t t0;

		if (sleep_us)
			usleep(sleep_us);
		__atomic_store_n(&bench_woke, 0, __ATOMIC_RELAXED);
		t0 = bench_now_ns();
		kick();
		if (spin) {
			while (!__atomic_load_n(&bench_woke, __ATOMIC_ACQUIRE))
				;
		} else {
			bench_futex_wait(&bench_woke, 0);
		}
		v[i] = (double)(bench_woke_at - t0);
	}
	bench_report_samples(v, (int)n);
	free(v);
}

/* the peer: a thread sleeping on a futex word, woken by the caller */
static int go_word, peer_stop;
static pthread_t peer_thread;

static void *peer_main(void *arg)
{
	(void)arg;
	for (;;) {
		bench_futex_wait(&go_word, 0);
		__atomic_store_n(&go_word, 0, __ATOMIC_RELAXED);
		if (__atomic_load_n(&peer_stop, __ATOMIC_ACQUIRE))
			return NULL;
		bench_woke_at = bench_now_ns();
		bench_futex_set_wake(&bench_woke, 1);
	}
}

static void kick_futex_peer(void)
{
	bench_futex_set_wake(&go_word, 1);
}

void bench_futex_wake_thread(long n)
{
	bench_wake_samples(n, kick_futex_peer, 200, false);
}

int bench_futex_peer_start(void)
{
	peer_stop = 0;
	return pthread_create(&peer_thread, NULL, peer_main, NULL) ? -1 : 0;
}

void bench_futex_peer_stop(void)
{
	__atomic_store_n(&peer_stop, 1, __ATOMIC_RELEASE);
	bench_futex_set_wake(&go_word, 1);
	pthread_join(peer_thread, NULL);
}
