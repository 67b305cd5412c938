/* SPDX-License-Identifier: MIT */
/*
 * Test harness over cmocka: a deterministic runtime per test, a captured log,
 * and small simulated devices.  Each test builds its own world and tears it
 * down (setup/teardown below).
 */
#ifndef IRQKIT_TESTS_HARNESS_H
#define IRQKIT_TESTS_HARNESS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <irqkit/irqkit.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#ifndef container_of
#define container_of(ptr, type, member) ((type *)((char *)(ptr) - offsetof(type, member)))
#endif

/*
 * Virtual CPUs are host threads (the posix platform): a task bound to a CPU
 * runs beside that CPU's interrupts.  On bare metal a CPU is a hart, and a
 * storm on it starves its process context, as on a real machine.
 */
#define T_CPUS_ARE_THREADS	__STDC_HOSTED__

/* Lines of the standard test world: 0-15 software edge, 16-31 software level, 32+ no chip. */
#define T_EDGE(n)	(n)
#define T_LEVEL(n)	(16 + (n))
#define T_NOCHIP	40
#define T_NR_IRQS	64
#define T_NR_CPUS	2

/* ---- captured log ----------------------------------------------------------- */

#define LOG_MAX_LINES	4096
#define LOG_LINE_LEN	256

struct logcap {
	pthread_mutex_t	lock;
	int		n;
	int		dropped;
	char		lines[LOG_MAX_LINES][LOG_LINE_LEN];
	int		levels[LOG_MAX_LINES];
	bool		echo;	/* also print to stderr (IRQKIT_TEST_ECHO=1) */
};

extern struct logcap logcap;

void logcap_hook(void *arg, int level, const char *line);
void log_clear(void);
/* Number of captured lines containing @needle. */
int log_count(const char *needle);
bool log_contains(const char *needle);
/* Index of the first line at or after @from containing @needle, or -1. */
int log_find(const char *needle, int from);
void log_dump(void);

#define assert_log_contains(needle)					\
	do {								\
		if (!log_contains(needle)) {				\
			log_dump();					\
			fail_msg("log has no line containing \"%s\"", needle); \
		}							\
	} while (0)
#define assert_log_lacks(needle)					\
	do {								\
		if (log_contains(needle)) {				\
			log_dump();					\
			fail_msg("log has a line containing \"%s\"", needle); \
		}							\
	} while (0)

/* ---- worlds ------------------------------------------------------------------ */

/*
 * Deterministic world: this thread plays CPU 0; lines 0-15 are software edge
 * lines, 16-31 software level lines, all routed to CPU 0.
 */
int det_setup(void **state);
int det_setup_flags(unsigned int cfg_flags);
int det_teardown(void **state);

/* A world from @cfg (its log goes to the capture), the same lines. */
int start_world_cfg(struct irqkit_config cfg);

/* Threaded world with @cpus dispatchers and the same lines. */
int thr_setup_cpus(unsigned int cpus, unsigned int nr_irqs);
int thr_setup(void **state);
int thr_teardown(void **state);

/* ---- simulated devices -------------------------------------------------------- */

struct tdev {
	atomic_int	status;		/* the device requests service */
	atomic_int	calls;		/* handler invocations */
	atomic_int	handled;	/* invocations that returned HANDLED */
	int		ret;		/* forced return value when >= 0 */
	unsigned int	lower_irq;	/* level line to deassert on service, or 0 */
	atomic_bool	saw_irqs_off;	/* interrupts were off in the handler */
	atomic_bool	saw_hardirq;	/* in_hardirq() was true */
	atomic_int	cpu;		/* smp_processor_id() at the last call */
	void		(*hook)(struct tdev *dev, int irq);	/* called inside the handler */
	void		*arg;
	const char	*order;		/* appended to order_buf when called */
};

void tdev_init(struct tdev *dev);
/* irqkit_irq_get_info() of @irq, asserted to succeed. */
struct irqkit_irq_info info_of(unsigned int irq);
/* Claims the interrupt when dev->status was set (clearing it); or returns dev->ret if set. */
enum irqkit_irqreturn tdev_handler(int irq, void *dev_id);
/* Always returns dev->ret (IRQ_NONE unless set). */
enum irqkit_irqreturn tdev_fixed_handler(int irq, void *dev_id);

/*
 * @dev's device requests @n interrupts on edge line @irq, each claimed by
 * tdev_handler before the next (the raiser waits), then all n counted as
 * handled (asserted, 10 s at most).
 */
void tdev_raise_served(struct tdev *dev, unsigned int irq, int n);

/*
 * Host only: run @fn in a child process (it _exits 0 when @fn returns); return its
 * wait status and, in @out (@len bytes), what it wrote to stderr.
 */
int in_child(void (*fn)(void), char *out, size_t len);

extern char order_buf[256];

/* ---- the platform's part (harness_host.c; tests/riscv/harness_rv.c) ------------- */

/* Print to the tests' error stream (stderr; the console on bare metal). */
void test_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Whether the captured log is echoed as it is written (IRQKIT_TEST_ECHO=1). */
bool test_log_echo(void);

/*
 * Spin until @cond holds or @ms milliseconds pass.  The waits between looks
 * start short (a yield, then sleeps growing to 100 us), so a condition that
 * comes within microseconds is seen within microseconds.
 */
#define wait_until(cond, ms)						\
	({								\
		struct test_wait __w = test_wait_start(ms);		\
		bool __ok;						\
		while (!(__ok = (cond)) && test_wait_step(&__w))	\
			;						\
		__ok || (cond);						\
	})
struct test_wait {
	uint64_t	end;		/* the host: CLOCK_MONOTONIC ns; bare metal: steps left */
	unsigned int	steps;
};
struct test_wait test_wait_start(int ms);
/* Wait a little; false once the time is up. */
bool test_wait_step(struct test_wait *w);
void usleep_100(void);

/* Host only: threads of this process whose name starts with @prefix and lacks @without (NULL: any). */
int nr_threads_named(const char *prefix, const char *without);

/*
 * Host only: a thread bound to CPU @cpu calls @fn(@arg) (if set) with its
 * interrupts off and keeps them off, so that nothing of that CPU runs (its
 * hardirqs, softirqs) until cpu_hold_release(), which lets go and joins.
 * cpu_hold_start() returns once the CPU is held.
 */
struct cpu_hold {
	pthread_t	th;
	atomic_int	state;		/* 1: held; 2: let go */
	unsigned int	cpu;
	void		(*fn)(void *arg);
	void		*arg;
};
void cpu_hold_start(struct cpu_hold *h, unsigned int cpu, void (*fn)(void *arg), void *arg);
void cpu_hold_release(struct cpu_hold *h);
/* Host only: @fn(@arg) in a thread bound to CPU @cpu (process context there), joined. */
void run_on_cpu(unsigned int cpu, void (*fn)(void *arg), void *arg);

/* Stress tests: @n times IRQKIT_STRESS_SCALE (default 1); a busy loop of @n steps. */
int stress_scale(int n);
void stress_burn(int n);

/* A seed printed once per run, so a failing random test replays. */
unsigned int test_seed(void);

#endif /* IRQKIT_TESTS_HARNESS_H */
