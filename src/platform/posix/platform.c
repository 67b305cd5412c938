// SPDX-License-Identifier: MIT
/*
 * The hooks of the port contract (src/core/include/irqkit-core/platform.h,
 * arch.h) on Linux user space: memory, time, futexes, logging, stacks.
 */
#define _GNU_SOURCE
#include <irqkit-core/platform.h>
#include <irqkit/types.h>
#include <irqkit/runtime.h>

#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <linux/futex.h>
#include <linux/membarrier.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "posix.h"

#define CACHELINE	64
/* From this size up, memory comes straight from mmap: zero, and not touched until used. */
#define ALLOC_MAPPED	(256u * 1024)

/*
 * Fault injection for tests, as SQLite swaps its allocator: set to n > 0, the
 * n-th allocation from now fails (once).
 */
int irqkit__plat_alloc_fail;
/* The same for a slow allocation (a loaded host): the next one first sleeps this long. */
unsigned int irqkit__plat_alloc_delay_us;

void *irqkit_plat_alloc(size_t size)
{
	void *p = NULL;
	size_t rounded = (size + CACHELINE - 1) & ~(size_t)(CACHELINE - 1);
	unsigned int delay;

	if (__atomic_load_n(&irqkit__plat_alloc_fail, __ATOMIC_RELAXED) > 0 &&
	    __atomic_sub_fetch(&irqkit__plat_alloc_fail, 1, __ATOMIC_RELAXED) == 0)
		return NULL;
	if (__atomic_load_n(&irqkit__plat_alloc_delay_us, __ATOMIC_RELAXED) &&
	    (delay = __atomic_exchange_n(&irqkit__plat_alloc_delay_us, 0, __ATOMIC_RELAXED)))
		usleep(delay);
	if (rounded >= ALLOC_MAPPED) {
		/* zero pages from the kernel, touched only when used (the recorder's rings) */
		p = mmap(NULL, rounded, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		return p == MAP_FAILED ? NULL : p;
	}
	if (posix_memalign(&p, CACHELINE, rounded ? rounded : CACHELINE))
		return NULL;
	memset(p, 0, rounded ? rounded : CACHELINE);
	return p;
}

void irqkit_plat_free(void *p, size_t size)
{
	size_t rounded = (size + CACHELINE - 1) & ~(size_t)(CACHELINE - 1);

	if (p && rounded >= ALLOC_MAPPED)
		munmap(p, rounded);
	else
		free(p);
}

/* ---- the scheduler: the host's, or one stacked on this platform ------------ */

static uint64_t host_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void host_spin(bool yield, const void *ip)
{
	(void)ip;
	if (yield) {
		sched_yield();
		return;
	}
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield" ::: "memory");
#endif
}

static void host_wait(const unsigned int *addr, unsigned int val, uint64_t ns, const void *ip)
{
	struct timespec ts = { .tv_sec = (time_t)(ns / 1000000000ull),
			       .tv_nsec = (long)(ns % 1000000000ull) };
	long r;

	(void)ip;
	if (!addr) {
		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
		return;
	}
	r = syscall(SYS_futex, addr, FUTEX_WAIT_PRIVATE, val, ns == UINT64_MAX ? NULL : &ts,
		    NULL, 0);
	if (r == -1 && errno != EAGAIN && errno != EINTR && errno != ETIMEDOUT)
		irqkit_plat_fatal("futex wait failed");
}

static void host_wake(const unsigned int *addr, const void *ip)
{
	(void)ip;
	if (syscall(SYS_futex, addr, FUTEX_WAKE_PRIVATE, 0x7fffffff, NULL, NULL, 0) == -1)
		irqkit_plat_fatal("futex wake failed");
}

/* A thread's id does not change: one system call each (a fork's child asks again). */
static __thread int host_tid;

static void host_tid_forget(void)
{
	host_tid = 0;
}

static void host_tid_register(void)
{
	(void)pthread_atfork(NULL, NULL, host_tid_forget);
}

static int host_thread_id(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	if (!host_tid) {
		(void)pthread_once(&once, host_tid_register);
		host_tid = (int)syscall(SYS_gettid);
	}
	return host_tid;
}

static int host_thread_new(struct sched_thread **out, const char *name)
{
	(void)name;
	*out = NULL;		/* the kernel runs it: nothing to keep */
	return 0;
}

const struct irqkit__posix_sched irqkit__posix_host = {
	.name		= "host",
	.now_ns		= host_now_ns,
	.spin		= host_spin,
	.wait		= host_wait,
	.wake		= host_wake,
	.thread_id	= host_thread_id,
	.thread_new	= host_thread_new,
};

static const struct irqkit__posix_sched *sched_cur = &irqkit__posix_host;

/* The scheduler in use: one relaxed load, then its operation. */
static inline const struct irqkit__posix_sched *sched(void)
{
	return __atomic_load_n(&sched_cur, __ATOMIC_RELAXED);
}

const struct irqkit__posix_sched *irqkit__posix_sched_current(void)
{
	return __atomic_load_n(&sched_cur, __ATOMIC_ACQUIRE);
}

void irqkit__posix_sched_install(const struct irqkit__posix_sched *s)
{
	__atomic_store_n(&sched_cur, s ? s : &irqkit__posix_host, __ATOMIC_RELEASE);
}

void irqkit__posix_sched_end(void)
{
	const struct irqkit__posix_sched *s = __atomic_load_n(&sched_cur, __ATOMIC_ACQUIRE);

	if (s->end)
		s->end();
}

uint64_t irqkit_plat_now_ns(void)
{
	return sched()->now_ns();
}

uint64_t irqkit_plat_realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void irqkit_arch_cpu_relax(void)
{
	sched()->spin(false, __builtin_return_address(0));
}

void irqkit_plat_yield(void)
{
	sched()->spin(true, __builtin_return_address(0));
}

void irqkit_plat_wait(unsigned int *addr, unsigned int val)
{
	sched()->wait(addr, val, UINT64_MAX, __builtin_return_address(0));
}

void irqkit_plat_wait_timeout(unsigned int *addr, unsigned int val, uint64_t ns)
{
	sched()->wait(addr, val, ns, __builtin_return_address(0));
}

/*
 * membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED), registered once per process
 * (Linux 4.14).  IRQKIT_MEMBARRIER=0 leaves it unused: the core then keeps
 * its full barriers, the form a platform without one runs (the tests run
 * both).
 */
bool irqkit_plat_barrier_heavy_init(void)
{
	static int registered;		/* 0 not yet asked, 1 yes, -1 no */
	const char *env = getenv("IRQKIT_MEMBARRIER");
	int r = __atomic_load_n(&registered, __ATOMIC_ACQUIRE);

	if (env && env[0] == '0' && !env[1])
		return false;
	if (!r) {
		r = syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) ? -1 : 1;
		__atomic_store_n(&registered, r, __ATOMIC_RELEASE);
	}
	return r > 0;
}

void irqkit_plat_barrier_heavy(void)
{
	if (syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0))
		irqkit_plat_fatal("membarrier failed after it was registered");
}

void irqkit_plat_wake(unsigned int *addr)
{
	sched()->wake(addr, __builtin_return_address(0));
}

/*
 * The kernel's PI futex, when threads run in real time (a stacked scheduler
 * runs them itself, and the core then waits on the word).  The release
 * read-modify-write before the unlock and the acquire load after the lock
 * are for the thread sanitizer, which does not see the kernel hand the word
 * over; to the hardware they are one more atomic on a contended path.
 */
bool irqkit_plat_pi_lock(unsigned int *word)
{
	if (sched() != &irqkit__posix_host)
		return false;
	while (syscall(SYS_futex, word, FUTEX_LOCK_PI_PRIVATE, 0, NULL, NULL, 0) == -1)
		if (errno != EINTR && errno != EAGAIN)
			irqkit_plat_fatal("futex lock_pi failed");
	(void)__atomic_load_n(word, __ATOMIC_ACQUIRE);
	return true;
}

bool irqkit_plat_pi_unlock(unsigned int *word)
{
	if (sched() != &irqkit__posix_host)
		return false;
	(void)__atomic_fetch_or(word, 0, __ATOMIC_RELEASE);
	if (syscall(SYS_futex, word, FUTEX_UNLOCK_PI_PRIVATE, 0, NULL, NULL, 0) == -1)
		irqkit_plat_fatal("futex unlock_pi failed");
	return true;
}

void irqkit__posix_say(const char *who, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	/* NOLINTNEXTLINE(clang-analyzer-valist.Uninitialized): started just above */
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s: %s\n", who, line);
}

void irqkit_plat_log(int level, const char *line)
{
	(void)level;
	flockfile(stderr);
	fputs(line, stderr);
	fputc('\n', stderr);
	funlockfile(stderr);
}

int irqkit_plat_backtrace(void **frames, int max)
{
	return backtrace(frames, max);
}

/* Under a stacked scheduler a thread's number in the run, so that reports repeat with the seed. */
int irqkit_plat_thread_id(void)
{
	return sched()->thread_id();
}

void irqkit_plat_thread_name(char *buf, size_t len)
{
	if (pthread_getname_np(pthread_self(), buf, len) != 0 && len)
		snprintf(buf, len, "?");
}

void irqkit_plat_thread_name_of(int tid, char *buf, size_t len)
{
	char path[64];
	ssize_t n;
	int fd;

	if (!len)
		return;
	buf[0] = '\0';
	snprintf(path, sizeof(path), "/proc/self/task/%d/comm", tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0) {
		buf[0] = '\0';
		return;
	}
	buf[n] = '\0';
	if (buf[n - 1] == '\n')
		buf[n - 1] = '\0';
}

/*
 * Another thread's stack: ask it with a signal and let its handler copy its
 * own backtrace out.  One request at a time; the watchdog is the only caller.
 *
 * The signal is a real-time one the program leaves alone: the highest of
 * SIGRTMIN..SIGRTMAX whose handler is the default when the first request
 * comes (a program's runtime may own SIGURG, as Go's does for preemption,
 * or any classic signal); IRQKIT_BACKTRACE_SIGNAL=N chooses it instead (0:
 * none, no stacks of other threads).  Its handler stays installed, and
 * answers only when asked, so a late or stray one does no harm.
 */
#define BT_SKIP		2
static void *bt_frames[32];
static int bt_n, bt_done, bt_req;
static pthread_mutex_t bt_lock = PTHREAD_MUTEX_INITIALIZER;
static int bt_signal = -1;		/* -1: not chosen yet; 0: none */

static void bt_handler(int sig)
{
	int saved = errno;

	(void)sig;
	/* only a requested signal answers (the acquire orders it after the last read) */
	if (!__atomic_exchange_n(&bt_req, 0, __ATOMIC_ACQ_REL))
		return;
	__atomic_store_n(&bt_n, backtrace(bt_frames, (int)(sizeof(bt_frames) / sizeof(bt_frames[0]))),
			 __ATOMIC_RELAXED);
	__atomic_store_n(&bt_done, 1, __ATOMIC_RELEASE);
	errno = saved;
}

/* The signal to ask with (see above), its handler installed; 0 when none.  bt_lock held. */
static int bt_signal_install(void)
{
	struct sigaction sa = { .sa_handler = bt_handler, .sa_flags = SA_RESTART };
	const char *env = getenv("IRQKIT_BACKTRACE_SIGNAL");
	void *warm[2];
	int sig = 0;

	if (bt_signal >= 0)
		return bt_signal;
	if (env && *env) {
		char *end;
		long v = strtol(env, &end, 10);

		if (*end || v < 0 || v > SIGRTMAX || v == SIGKILL || v == SIGSTOP) {
			irqkit_printk(IRQKIT_LOG_WARNING,
				      "irqkit: IRQKIT_BACKTRACE_SIGNAL=%s is not a signal number; no stacks of other threads",
				      env);
			v = 0;
		}
		sig = (int)v;
	} else {
		for (int s = SIGRTMAX; s >= SIGRTMIN && !sig; s--) {
			struct sigaction old;

			if (sigaction(s, NULL, &old) == 0 && !(old.sa_flags & SA_SIGINFO) &&
			    old.sa_handler == SIG_DFL)
				sig = s;
		}
	}
	if (sig) {
		backtrace(warm, 2);	/* load the unwinder now, not inside the handler */
		sigemptyset(&sa.sa_mask);
		if (sigaction(sig, &sa, NULL) != 0)
			sig = 0;
	}
	bt_signal = sig;
	return sig;
}

int irqkit_plat_backtrace_of(int tid, void **frames, int max)
{
	int n = 0;
	int sig;

	pthread_mutex_lock(&bt_lock);
	sig = bt_signal_install();
	__atomic_store_n(&bt_done, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&bt_req, 1, __ATOMIC_RELEASE);
	if (sig && syscall(SYS_tgkill, getpid(), tid, sig) == 0) {
		for (int i = 0; i < 1000 && !__atomic_load_n(&bt_done, __ATOMIC_ACQUIRE); i++)
			irqkit_plat_sleep_ns(100000);
		if (__atomic_load_n(&bt_done, __ATOMIC_ACQUIRE)) {
			/* the first two frames are the handler and the signal trampoline */
			n = __atomic_load_n(&bt_n, __ATOMIC_RELAXED) - BT_SKIP;
			n = n < 0 ? 0 : n < max ? n : max;
			memcpy(frames, bt_frames + BT_SKIP, sizeof(void *) * (size_t)n);
		}
	}
	/* unanswered: a late handler finds no request and writes nothing */
	if (!__atomic_load_n(&bt_done, __ATOMIC_ACQUIRE))
		__atomic_exchange_n(&bt_req, 0, __ATOMIC_ACQ_REL);
	pthread_mutex_unlock(&bt_lock);
	return n;
}

void irqkit_plat_fatal(const char *msg)
{
	fprintf(stderr, "irqkit: fatal: %s: %s\n", msg, strerror(errno));
	abort();
}

void irqkit_plat_oops(void)
{
	abort();
}

struct irqkit_plat_thread {
	pthread_t	thread;
	void		(*fn)(void *);
	void		*arg;
	char		name[16];
	/* the record of the scheduler that runs it (@sched), or NULL: the kernel's */
	const struct irqkit__posix_sched *sched;
	struct sched_thread *st;
};

/* Does @th's scheduler still run it (a run that ended lets its threads go)? */
static bool sched_runs(const struct irqkit_plat_thread *th)
{
	return th->st && th->sched == sched();
}

static void *plat_thread_main(void *p)
{
	struct irqkit_plat_thread *th = p;

	pthread_setname_np(pthread_self(), th->name);
	/* ksoftirqd sleeps until its CPU's next timer: wake on time, not 50 us late (best effort) */
	prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
	if (th->st)
		th->sched->thread_enter(th->st);
	th->fn(th->arg);
	if (sched_runs(th))
		th->sched->thread_exit(th->st);
	return NULL;
}

int irqkit_plat_thread_create(struct irqkit_plat_thread **out, const char *name,
			      void (*fn)(void *), void *arg)
{
	struct irqkit_plat_thread *th = irqkit_plat_alloc(sizeof(*th));	/* fault injection too */
	int ret;

	if (!th)
		return -IRQKIT_ENOMEM;	/* as kthread_create */
	th->fn = fn;
	th->arg = arg;
	snprintf(th->name, sizeof(th->name), "%s", name);	/* Linux cuts comm at 15 */
	/* made runnable now, by its maker: a stacked scheduler's order does not hang on the host's */
	th->sched = sched();
	ret = th->sched->thread_new(&th->st, th->name);
	if (ret) {
		irqkit_plat_free(th, sizeof(*th));
		return ret;
	}
	if (pthread_create(&th->thread, NULL, plat_thread_main, th)) {
		if (th->st)
			th->sched->thread_abandon(th->st);
		irqkit_plat_free(th, sizeof(*th));
		return -IRQKIT_ENOMEM;
	}
	*out = th;
	return 0;
}

void irqkit_plat_thread_join(struct irqkit_plat_thread *th)
{
	if (sched_runs(th))
		th->sched->thread_join(th->st, __builtin_return_address(0));
	pthread_join(th->thread, NULL);
	irqkit_plat_free(th, sizeof(*th));
}

int irqkit_plat_thread_join_timeout(struct irqkit_plat_thread *th, uint64_t ns)
{
	struct timespec ts;
	uint64_t at;

	if (sched_runs(th)) {
		/* no limit in virtual time: a thread that never ends is the scheduler's deadlock */
		irqkit_plat_thread_join(th);
		return 0;
	}
	clock_gettime(CLOCK_REALTIME, &ts);	/* pthread_timedjoin_np's clock */
	at = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec + ns;
	ts.tv_sec = (time_t)(at / 1000000000ull);
	ts.tv_nsec = (long)(at % 1000000000ull);
	if (pthread_timedjoin_np(th->thread, NULL, &ts))
		return -IRQKIT_ETIMEDOUT;
	irqkit_plat_free(th, sizeof(*th));
	return 0;
}


void irqkit_plat_sleep_ns(uint64_t ns)
{
	sched()->wait(NULL, 0, ns, __builtin_return_address(0));
}
