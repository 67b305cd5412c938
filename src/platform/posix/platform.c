// SPDX-License-Identifier: MIT
/* The hooks of src/core/platform.h on Linux user space: memory, time, futexes, logging, stacks. */
#define _GNU_SOURCE
#include "../../core/platform.h"

#include <errno.h>
#include <execinfo.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "posix.h"

#define CACHELINE	64

/*
 * Fault injection for tests, as SQLite swaps its allocator: set to n > 0, the
 * n-th allocation from now fails (once).
 */
int irqkit__plat_alloc_fail;

void *irqkit_plat_alloc(size_t size)
{
	void *p = NULL;
	size_t rounded = (size + CACHELINE - 1) & ~(size_t)(CACHELINE - 1);

	if (__atomic_load_n(&irqkit__plat_alloc_fail, __ATOMIC_RELAXED) > 0 &&
	    __atomic_sub_fetch(&irqkit__plat_alloc_fail, 1, __ATOMIC_RELAXED) == 0)
		return NULL;
	if (posix_memalign(&p, CACHELINE, rounded ? rounded : CACHELINE))
		return NULL;
	memset(p, 0, rounded ? rounded : CACHELINE);
	return p;
}

void irqkit_plat_free(void *p, size_t size)
{
	(void)size;
	free(p);
}

uint64_t irqkit_plat_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void irqkit_plat_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield" ::: "memory");
#endif
}

void irqkit_plat_yield(void)
{
	sched_yield();
}

void irqkit_plat_wait(unsigned int *addr, unsigned int val)
{
	long r = syscall(SYS_futex, addr, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);

	if (r == -1 && errno != EAGAIN && errno != EINTR)
		irqkit_plat_fatal("futex wait failed");
}

void irqkit_plat_wake(unsigned int *addr)
{
	if (syscall(SYS_futex, addr, FUTEX_WAKE_PRIVATE, 0x7fffffff, NULL, NULL, 0) == -1)
		irqkit_plat_fatal("futex wake failed");
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

int irqkit_plat_thread_id(void)
{
	return (int)syscall(SYS_gettid);
}

void irqkit_plat_thread_name(char *buf, size_t len)
{
	if (pthread_getname_np(pthread_self(), buf, len) != 0 && len)
		snprintf(buf, len, "?");
}

void irqkit_plat_fatal(const char *msg)
{
	fprintf(stderr, "irqkit: fatal: %s: %s\n", msg, strerror(errno));
	abort();
}

struct irqkit_plat_thread {
	pthread_t	thread;
	void		(*fn)(void *);
	void		*arg;
	char		name[16];
};

static void *plat_thread_main(void *p)
{
	struct irqkit_plat_thread *th = p;

	pthread_setname_np(pthread_self(), th->name);
	th->fn(th->arg);
	return NULL;
}

int irqkit_plat_thread_create(struct irqkit_plat_thread **out, const char *name,
			      void (*fn)(void *), void *arg)
{
	struct irqkit_plat_thread *th = irqkit_plat_alloc(sizeof(*th));	/* fault injection too */

	if (!th)
		return -12;	/* -ENOMEM, as kthread_create */
	th->fn = fn;
	th->arg = arg;
	snprintf(th->name, sizeof(th->name), "%s", name);	/* Linux cuts comm at 15 */
	if (pthread_create(&th->thread, NULL, plat_thread_main, th)) {
		irqkit_plat_free(th, sizeof(*th));
		return -12;
	}
	*out = th;
	return 0;
}

void irqkit_plat_thread_join(struct irqkit_plat_thread *th)
{
	pthread_join(th->thread, NULL);
	irqkit_plat_free(th, sizeof(*th));
}

void irqkit_plat_sleep_ns(uint64_t ns)
{
	struct timespec ts = { .tv_sec = (time_t)(ns / 1000000000ull),
			       .tv_nsec = (long)(ns % 1000000000ull) };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}
