// SPDX-License-Identifier: MIT
/*
 * Benchmarks of the interrupt core, each paired with its floor or a peer:
 * dispatch on the owning CPU, directly and through the pending path (single
 * and batched), spurious accounting on and off, raise to a CPU that polls
 * and to one that sleeps,
 * local_irq_save/restore, spinlocks, disable_irq_nosync+enable_irq and
 * synchronize_irq.
 */
#define _GNU_SOURCE
#include <irqkit/irqkit.h>

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>
#include <uv.h>

#include "bench.h"

static unsigned long counter;

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

#define BATCH	16	/* lines 1..BATCH carry the benchmark's handler */

static int start_with_lines(unsigned int flags)
{
	struct irqkit_config cfg = { .nr_irqs = 64, .nr_cpus = 1, .flags = flags };

	if (irqkit_start(&cfg) || irqkit_swchip_add(1, BATCH, IRQKIT_TYPE_EDGE_RISING))
		return -1;
	for (unsigned int irq = 1; irq <= BATCH; irq++)
		if (irqkit_request_irq(irq, bench_handler, 0, "bench", &counter))
			return -1;
	return 0;
}

static int setup_runtime(void)
{
	return start_with_lines(0);
}

static void teardown_runtime(void)
{
	for (unsigned int irq = 1; irq <= BATCH; irq++)
		irqkit_free_irq(irq, &counter);
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

/*
 * The same dispatch with the histograms, or the recorder, on: what watching
 * costs.  A dispatch is two samples (raise to handler, handler time) or two
 * events (the raise, the handler's slice).
 */
static void raise_on_own_cpu_hist(long n)
{
	irqkit_hist_enable(true);
	raise_on_own_cpu(n);
	irqkit_hist_enable(false);
}

static void raise_on_own_cpu_trace(long n)
{
	irqkit_trace_start(0);
	raise_on_own_cpu(n);
	irqkit_trace_stop();
}

/* Through the pending path: raised with interrupts off, taken at the restore. */
static void raise_pending_single(long n)
{
	for (long i = 0; i < n; i++) {
		unsigned long flags = irqkit_local_irq_save();

		irqkit_sw_raise(1);
		irqkit_local_irq_restore(flags);
	}
}

/* BATCH lines raised with interrupts off, all taken at one restore; per handler run. */
static void raise_pending_batched(long n)
{
	uint64_t t0 = bench_now_ns();
	long rounds = n / BATCH + 1;

	for (long i = 0; i < rounds; i++) {
		unsigned long flags = irqkit_local_irq_save();

		for (unsigned int irq = 1; irq <= BATCH; irq++)
			irqkit_sw_raise(irq);
		irqkit_local_irq_restore(flags);
	}
	bench_report_ns((double)(bench_now_ns() - t0) / (double)(rounds * BATCH));
}

/*
 * Spurious accounting (note_interrupt) on and off: each side starts its own
 * runtime, with and without IRQKIT_CFG_NOIRQDEBUG, and times only the raises.
 */
static void dispatch_in_runtime(long n, unsigned int flags)
{
	uint64_t t0;

	if (start_with_lines(flags) || irqkit_thread_bind(0))
		abort();
	t0 = bench_now_ns();
	for (long i = 0; i < n; i++)
		irqkit_sw_raise(1);
	bench_report_ns((double)(bench_now_ns() - t0) / (double)n);
	irqkit_thread_unbind();
	teardown_runtime();
}

static void dispatch_accounting(long n) { dispatch_in_runtime(n, 0); }
static void dispatch_noirqdebug(long n) { dispatch_in_runtime(n, IRQKIT_CFG_NOIRQDEBUG); }

/* ---- raise to another CPU that sleeps ------------------------------------------------------- */

#define REMOTE_IRQ	20

static enum irqkit_irqreturn remote_handler(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	bench_woke_at = bench_now_ns();
	bench_futex_set_wake(&bench_woke, 1);
	return IRQKIT_HANDLED;
}

/* Two virtual CPUs; REMOTE_IRQ routed to CPU 1 with @handler. */
static int start_remote(irqkit_handler_fn handler)
{
	struct irqkit_config cfg = { .nr_irqs = 64, .nr_cpus = 2 };

	return irqkit_start(&cfg) || irqkit_swchip_add(REMOTE_IRQ, 1, IRQKIT_TYPE_EDGE_RISING) ||
	       irqkit_irq_set_affinity(REMOTE_IRQ, 1u << 1) ||
	       irqkit_request_irq(REMOTE_IRQ, handler, 0, "remote", &counter) ? -1 : 0;
}

static void stop_remote(void)
{
	irqkit_free_irq(REMOTE_IRQ, &counter);
	irqkit_stop();
}

/* The raiser is an unbound thread; the line goes to CPU 1, whose dispatcher sleeps. */
static void kick_remote_irq(void)
{
	irqkit_sw_raise(REMOTE_IRQ);
}

static void raise_remote_asleep(long n)
{
	bench_wake_samples(n, kick_remote_irq, 200, false);	/* CPU 1 sleeps again */
}

/*
 * Raise to another CPU that is polling: a thread bound to CPU 1 spins in
 * irqkit_deliver_pending() (a delivery point), so CPU 1 takes the line at
 * once; against a thread spinning on an atomic word (the floor: one cache
 * line crossing) and one spinning on a non-blocking eventfd read.
 */
static int poll_stop, poll_word;
static pthread_t poll_thread;
static int poll_efd = -1;

static void *irqkit_poller(void *arg)
{
	(void)arg;
	if (irqkit_thread_bind(1))
		abort();
	while (!__atomic_load_n(&poll_stop, __ATOMIC_ACQUIRE))
		irqkit_deliver_pending();
	irqkit_thread_unbind();
	return NULL;
}

/* Only the side being measured has a poller spinning: the host has few CPUs. */
static void start_poller(void *(*fn)(void *))
{
	__atomic_store_n(&poll_stop, 0, __ATOMIC_RELEASE);
	if (pthread_create(&poll_thread, NULL, fn, NULL))
		abort();
	usleep(1000);				/* let it start spinning */
}

static void stop_poller(void)
{
	__atomic_store_n(&poll_stop, 1, __ATOMIC_RELEASE);
	pthread_join(poll_thread, NULL);
}

static void raise_remote_polling(long n)
{
	start_poller(irqkit_poller);
	bench_wake_samples(n, kick_remote_irq, 0, true);
	stop_poller();
}

static void *word_poller(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&poll_stop, __ATOMIC_ACQUIRE)) {
		if (__atomic_load_n(&poll_word, __ATOMIC_ACQUIRE)) {
			__atomic_store_n(&poll_word, 0, __ATOMIC_RELAXED);
			bench_woke_at = bench_now_ns();
			__atomic_store_n(&bench_woke, 1, __ATOMIC_RELEASE);
		}
	}
	return NULL;
}

static void kick_word(void)
{
	__atomic_store_n(&poll_word, 1, __ATOMIC_RELEASE);
}

static void word_busy_poll(long n)
{
	start_poller(word_poller);
	bench_wake_samples(n, kick_word, 0, true);
	stop_poller();
}

static void *eventfd_poller(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&poll_stop, __ATOMIC_ACQUIRE)) {
		uint64_t val;

		if (read(poll_efd, &val, sizeof(val)) == sizeof(val)) {
			bench_woke_at = bench_now_ns();
			__atomic_store_n(&bench_woke, 1, __ATOMIC_RELEASE);
		}
	}
	return NULL;
}

static void kick_poll_eventfd(void)
{
	const uint64_t one = 1;

	if (write(poll_efd, &one, sizeof(one)) != sizeof(one))
		abort();
}

static void eventfd_busy_poll(long n)
{
	start_poller(eventfd_poller);
	bench_wake_samples(n, kick_poll_eventfd, 0, true);
	stop_poller();
}

static enum irqkit_irqreturn polled_handler(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	bench_woke_at = bench_now_ns();
	__atomic_store_n(&bench_woke, 1, __ATOMIC_RELEASE);
	return IRQKIT_HANDLED;
}

static int setup_polling(void)
{
	poll_efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	return poll_efd < 0 || start_remote(polled_handler) ? -1 : 0;
}

static void teardown_polling(void)
{
	close(poll_efd);
	poll_efd = -1;
	stop_remote();
}

/* eventfd + epoll: a thread sleeping in epoll_wait, woken by a write */
static int efd = -1, epfd = -1, ev_stop;
static pthread_t ev_thread;

static void *ev_main(void *arg)
{
	(void)arg;
	for (;;) {
		struct epoll_event ev;
		uint64_t val;

		if (epoll_wait(epfd, &ev, 1, -1) != 1)
			continue;
		if (read(efd, &val, sizeof(val)) != sizeof(val))
			continue;
		if (__atomic_load_n(&ev_stop, __ATOMIC_ACQUIRE))
			return NULL;
		bench_woke_at = bench_now_ns();
		bench_futex_set_wake(&bench_woke, 1);
	}
}

static void kick_eventfd(void)
{
	const uint64_t one = 1;

	if (write(efd, &one, sizeof(one)) != sizeof(one))
		abort();
}

static void eventfd_wake(long n)
{
	bench_wake_samples(n, kick_eventfd, 200, false);
}

/* libuv: a loop thread woken by uv_async_send */
static uv_loop_t async_loop;
static uv_async_t async_handle;
static pthread_t async_thread;

static void async_cb(uv_async_t *h)
{
	if (__atomic_load_n(&ev_stop, __ATOMIC_ACQUIRE)) {
		uv_close((uv_handle_t *)h, NULL);
		return;
	}
	bench_woke_at = bench_now_ns();
	bench_futex_set_wake(&bench_woke, 1);
}

static void *async_main(void *arg)
{
	(void)arg;
	uv_run(&async_loop, UV_RUN_DEFAULT);
	return NULL;
}

static void kick_uv_async(void)
{
	uv_async_send(&async_handle);
}

static void uv_async_wake(long n)
{
	bench_wake_samples(n, kick_uv_async, 200, false);
}


/*
 * Raise to a CPU whose softirq is busy: ksoftirqd/1 runs a softirq vector that
 * raises itself again, each callback 20 us long.  A CPU runs one context at a
 * time, so the hardirq waits for the softirq holder's next delivery point
 * (the end of the callback); against the same raise to an idle CPU 1.
 */
#define BUSY_CALLBACK_NS	20000ull
static int busy_on;

static void busy_softirq(void)
{
	uint64_t end = bench_now_ns() + BUSY_CALLBACK_NS;

	while (bench_now_ns() < end)
		;
	if (__atomic_load_n(&busy_on, __ATOMIC_ACQUIRE))
		irqkit_raise_softirq_irqoff(IRQKIT_NET_RX_SOFTIRQ);
}

static void raise_remote_busy_softirq(long n)
{
	__atomic_store_n(&busy_on, 1, __ATOMIC_RELEASE);
	if (irqkit_thread_bind(1))
		abort();
	irqkit_raise_softirq(IRQKIT_NET_RX_SOFTIRQ);	/* process context: ksoftirqd/1 runs it */
	irqkit_thread_unbind();
	usleep(1000);
	bench_wake_samples(n, kick_remote_irq, 50, false);
	__atomic_store_n(&busy_on, 0, __ATOMIC_RELEASE);
	usleep(1000);					/* the last callback ends */
}

static int setup_remote_busy(void)
{
	if (start_remote(remote_handler))
		return -1;
	irqkit_open_softirq(IRQKIT_NET_RX_SOFTIRQ, busy_softirq);
	return 0;
}

static int setup_remote_futex(void)
{
	return start_remote(remote_handler) || bench_futex_peer_start() ? -1 : 0;
}

static void teardown_remote_futex(void)
{
	bench_futex_peer_stop();
	stop_remote();
}

static int setup_remote_eventfd(void)
{
	struct epoll_event ev = { .events = EPOLLIN };

	if (start_remote(remote_handler))
		return -1;
	efd = eventfd(0, EFD_CLOEXEC);
	epfd = epoll_create1(EPOLL_CLOEXEC);
	ev_stop = 0;
	if (efd < 0 || epfd < 0 || epoll_ctl(epfd, EPOLL_CTL_ADD, efd, &ev))
		return -1;
	return pthread_create(&ev_thread, NULL, ev_main, NULL) ? -1 : 0;
}

static void teardown_remote_eventfd(void)
{
	const uint64_t one = 1;

	__atomic_store_n(&ev_stop, 1, __ATOMIC_RELEASE);
	if (write(efd, &one, sizeof(one)) != sizeof(one))
		abort();
	pthread_join(ev_thread, NULL);
	close(epfd);
	close(efd);
	stop_remote();
}

static int setup_remote_uv(void)
{
	if (start_remote(remote_handler) || uv_loop_init(&async_loop) ||
	    uv_async_init(&async_loop, &async_handle, async_cb))
		return -1;
	ev_stop = 0;
	return pthread_create(&async_thread, NULL, async_main, NULL) ? -1 : 0;
}

static void teardown_remote_uv(void)
{
	__atomic_store_n(&ev_stop, 1, __ATOMIC_RELEASE);
	uv_async_send(&async_handle);
	pthread_join(async_thread, NULL);
	uv_loop_close(&async_loop);
	stop_remote();
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

/* The anti-peer: masking every signal of the thread, as 2.4-style code ported naively would. */
static void sigmask_block_restore(long n)
{
	sigset_t all, old;

	sigfillset(&all);
	for (long i = 0; i < n; i++) {
		pthread_sigmask(SIG_BLOCK, &all, &old);
		barrier();
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		barrier();
	}
}

/* ---- spinlocks ----------------------------------------------------------------------------- */

static struct irqkit_spinlock lock = IRQKIT_SPINLOCK_INIT;
static pthread_spinlock_t plock;

void bench_spin_lock_irqsave_pairs(long n)
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

static int tas_word;

static void floor_tas_lock(long n)
{
	for (long i = 0; i < n; i++) {
		while (__atomic_exchange_n(&tas_word, 1, __ATOMIC_ACQUIRE))
			;
		barrier();
		__atomic_store_n(&tas_word, 0, __ATOMIC_RELEASE);
		barrier();
	}
}

/* ---- disable_irq_nosync + enable_irq, synchronize_irq -------------------------------------------- */

static void disable_enable(long n)
{
	for (long i = 0; i < n; i++) {
		irqkit_disable_irq_nosync(1);
		irqkit_enable_irq(1);
	}
}

static unsigned long rmw_word;

static void floor_two_rmw(long n)
{
	for (long i = 0; i < n; i++) {
		__atomic_fetch_add(&rmw_word, 1, __ATOMIC_SEQ_CST);
		__atomic_fetch_sub(&rmw_word, 1, __ATOMIC_SEQ_CST);
	}
}

static void synchronize_idle(long n)
{
	for (long i = 0; i < n; i++)
		irqkit_synchronize_irq(1);
}

static int setup_spin(void)
{
	pthread_spin_init(&plock, PTHREAD_PROCESS_PRIVATE);
	return setup_runtime();
}

/*
 * PREEMPT_RT mode (IRQKIT_CFG_PREEMPT_RT): its spinlock_t, uncontended (a
 * compare-and-swap with the caller's thread id, the might-sleep check, no
 * interrupt flag), against the raw spinlock it leaves spinning; and its
 * dispatch, a forced thread per handler, against the same handler forced
 * into a thread by threadirqs (interrupts and bottom halves off around it)
 * and against the default hardirq dispatch: a bound thread raises line 1
 * and waits until the handler has run, one sample per raise.
 */
static int setup_spin_rt(void)
{
	return start_with_lines(IRQKIT_CFG_PREEMPT_RT);
}

static void raw_spin_lock_irqsave_pairs(long n)
{
	for (long i = 0; i < n; i++) {
		unsigned long flags = irqkit_raw_spin_lock_irqsave(&lock);

		barrier();
		irqkit_raw_spin_unlock_irqrestore(&lock, flags);
		barrier();
	}
}

static void dispatch_waited(long n, unsigned int flags)
{
	double *v = malloc((size_t)n * sizeof(*v));

	if (!v || start_with_lines(flags) || irqkit_thread_bind(0))
		abort();
	for (long i = 0; i < n; i++) {
		unsigned long seen = __atomic_load_n(&counter, __ATOMIC_ACQUIRE);
		uint64_t t0 = bench_now_ns();

		irqkit_sw_raise(1);
		while (__atomic_load_n(&counter, __ATOMIC_ACQUIRE) == seen)
			barrier();
		v[i] = (double)(bench_now_ns() - t0);
	}
	irqkit_thread_unbind();
	teardown_runtime();
	bench_report_samples(v, (int)n);
	free(v);
}

static void dispatch_waited_rt(long n) { dispatch_waited(n, IRQKIT_CFG_PREEMPT_RT); }
static void dispatch_waited_threadirqs(long n) { dispatch_waited(n, IRQKIT_CFG_THREADIRQS); }
static void dispatch_waited_hardirq(long n) { dispatch_waited(n, 0); }

#define LAT	(BENCH_UNPINNED | BENCH_LATENCY)

static const struct bench benches[] = {
	{ .name = "dispatch_own_cpu", .floor_name = "indirect_call_atomic_inc",
	  .subject = raise_on_own_cpu, .floor = floor_indirect_call_atomic_inc, .target = 1.5,
	  .setup = setup_bound, .teardown = teardown_bound },
	{ .name = "dispatch_hist_on", .floor_name = "dispatch_own_cpu",
	  .subject = raise_on_own_cpu_hist, .floor = raise_on_own_cpu,
	  .setup = setup_bound, .teardown = teardown_bound },
	{ .name = "dispatch_trace_on", .floor_name = "dispatch_own_cpu",
	  .subject = raise_on_own_cpu_trace, .floor = raise_on_own_cpu,
	  .setup = setup_bound, .teardown = teardown_bound },
	{ .name = "raise_pending_single", .floor_name = "indirect_call_atomic_inc",
	  .subject = raise_pending_single, .floor = floor_indirect_call_atomic_inc,
	  .setup = setup_bound, .teardown = teardown_bound },
	{ .name = "raise_pending_batched16", .floor_name = "indirect_call_atomic_inc",
	  .subject = raise_pending_batched, .floor = floor_indirect_call_atomic_inc,
	  .setup = setup_bound, .teardown = teardown_bound, .unit = "ns/run" },
	{ .name = "dispatch_spurious_acct", .floor_name = "dispatch_noirqdebug",
	  .subject = dispatch_accounting, .floor = dispatch_noirqdebug, .target = 1.05 },
	{ .name = "raise_remote_asleep", .floor_name = "futex_wake",
	  .subject = raise_remote_asleep, .floor = bench_futex_wake_thread, .target = 1.05,
	  .setup = setup_remote_futex, .teardown = teardown_remote_futex, .flags = LAT,
	  .fixed_n = 101, .unit = "ns" },
	{ .name = "raise_remote_asleep", .floor_name = "eventfd_epoll_wake",
	  .subject = raise_remote_asleep, .floor = eventfd_wake, .target = 1.05,
	  .setup = setup_remote_eventfd, .teardown = teardown_remote_eventfd, .flags = LAT,
	  .fixed_n = 101, .unit = "ns" },
	{ .name = "raise_remote_asleep", .floor_name = "uv_async_send",
	  .subject = raise_remote_asleep, .floor = uv_async_wake, .setup = setup_remote_uv,
	  .teardown = teardown_remote_uv, .flags = LAT, .fixed_n = 101, .unit = "ns" },
	{ .name = "raise_remote_busy_softirq", .floor_name = "raise_remote_asleep",
	  .subject = raise_remote_busy_softirq, .floor = raise_remote_asleep,
	  .setup = setup_remote_busy, .teardown = stop_remote, .flags = LAT, .fixed_n = 501,
	  .unit = "ns" },
	{ .name = "raise_remote_polling", .floor_name = "atomic_word_busy_poll",
	  .subject = raise_remote_polling, .floor = word_busy_poll, .setup = setup_polling,
	  .teardown = teardown_polling, .flags = LAT, .fixed_n = 2001, .unit = "ns" },
	{ .name = "raise_remote_polling", .floor_name = "eventfd_busy_poll",
	  .subject = raise_remote_polling, .floor = eventfd_busy_poll, .setup = setup_polling,
	  .teardown = teardown_polling, .flags = LAT, .fixed_n = 2001, .unit = "ns" },
	{ .name = "local_irq_save_restore", .floor_name = "tls_store",
	  .subject = local_irq_save_restore, .floor = floor_tls_store, .target = 1.2,
	  .setup = setup_runtime, .teardown = teardown_runtime },
	{ .name = "local_irq_save_restore", .floor_name = "pthread_sigmask",
	  .subject = local_irq_save_restore, .floor = sigmask_block_restore, .target = 0.005,
	  .setup = setup_runtime, .teardown = teardown_runtime },
	{ .name = "spin_lock_irqsave", .floor_name = "tas_lock",
	  .subject = bench_spin_lock_irqsave_pairs, .floor = floor_tas_lock, .target = 1.2,
	  .setup = setup_spin, .teardown = teardown_runtime },
	{ .name = "spin_lock_irqsave", .floor_name = "pthread_spin_lock",
	  .subject = bench_spin_lock_irqsave_pairs, .floor = floor_pthread_spin, .target = 0.6,
	  .setup = setup_spin, .teardown = teardown_runtime },
	{ .name = "spin_lock_irqsave_rt", .floor_name = "raw_spin_lock_irqsave",
	  .subject = bench_spin_lock_irqsave_pairs, .floor = raw_spin_lock_irqsave_pairs,
	  .setup = setup_spin_rt, .teardown = teardown_runtime },
	{ .name = "dispatch_rt", .floor_name = "dispatch_threadirqs",
	  .subject = dispatch_waited_rt, .floor = dispatch_waited_threadirqs, .flags = LAT,
	  .fixed_n = 2001, .unit = "ns" },
	{ .name = "dispatch_rt", .floor_name = "dispatch_hardirq",
	  .subject = dispatch_waited_rt, .floor = dispatch_waited_hardirq, .flags = LAT,
	  .fixed_n = 2001, .unit = "ns" },
	{ .name = "disable_nosync_enable", .floor_name = "two_atomic_rmw",
	  .subject = disable_enable, .floor = floor_two_rmw, .target = 2.0,
	  .setup = setup_runtime, .teardown = teardown_runtime },
	{ .name = "synchronize_irq_idle", .floor_name = "tas_lock",
	  .subject = synchronize_idle, .floor = floor_tas_lock, .setup = setup_runtime,
	  .teardown = teardown_runtime },
};

const struct bench_set bench_core_set = { benches, sizeof(benches) / sizeof(benches[0]) };
