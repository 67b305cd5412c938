/* SPDX-License-Identifier: MIT */
/*
 * The host half of the port contract: the services a platform provides to
 * the core (memory, the clock, the log, threads and futex-style waits,
 * diagnostics, file descriptors where the host has them), and what the core
 * offers a platform in return (irqkit__core_*).  The CPU half (the
 * interrupt flag, the current task, idle and wake, the trap entry, the
 * timer) is arch.h.  Every hook is required unless marked optional; an
 * optional one has a default in the core (a weak definition,
 * src/core/hooks.c), so a port writes only what it has.  Each hook says
 * from which context the core calls it.  The core is freestanding: these
 * headers and the compiler's freestanding headers are all it includes.
 * docs/porting.md follows them hook by hook.
 */
#ifndef IRQKIT_CORE_PLATFORM_H
#define IRQKIT_CORE_PLATFORM_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arch.h"

/*
 * Memory.  irqkit_plat_alloc returns zeroed memory aligned to 64 bytes, or
 * NULL.  Any context, and it must not sleep: kmalloc(GFP_ATOMIC) calls it
 * from handlers (the core's own calls are from process context).  @size is
 * passed back to irqkit_plat_free.
 */
void *irqkit_plat_alloc(size_t size);
void irqkit_plat_free(void *p, size_t size);

/* A monotonic clock in nanoseconds.  Any context. */
uint64_t irqkit_plat_now_ns(void);

/*
 * The time of day in nanoseconds since 1970 (CLOCK_REALTIME), read once
 * per start: the real-time clock of hrtimers is irqkit's clock plus it.
 * Process context.  Optional: the default, 0, for a machine with no
 * clock of the day, starts the real-time clock at 1970.
 */
uint64_t irqkit_plat_realtime_ns(void);

/*
 * A long spin lets others run: on a host where threads are preempted this
 * yields the host CPU (the holder of what we wait for may be descheduled).
 * Bare metal: cpu_relax.  Any context.
 */
void irqkit_plat_yield(void);

/*
 * Wait and wake on a word (futex semantics).  irqkit_plat_wait blocks while
 * *addr == val and may return spuriously; irqkit_plat_wake wakes every waiter
 * on addr.  Wait is called from process context or a dispatcher; wake from any.
 */
void irqkit_plat_wait(unsigned int *addr, unsigned int val);
void irqkit_plat_wake(unsigned int *addr);

/*
 * Priority inheritance for PREEMPT_RT mode's sleeping locks: the contended
 * paths of a lock whose word holds 0 or its owner's irqkit_plat_thread_id(),
 * with bit 31 set while someone waits (a Linux PI futex's layout).  Lock
 * returns once the caller owns the word; unlock hands the word on (the
 * caller owns it, with bit 31 set).  A platform or a run without priority
 * inheritance returns false, and the core waits on the word itself.
 */
bool irqkit_plat_pi_lock(unsigned int *word);
bool irqkit_plat_pi_unlock(unsigned int *word);

/*
 * irqkit_plat_wait with a limit: blocks while *addr == val, at most @ns
 * nanoseconds.  May return early or spuriously.  Process context or a
 * thread of the runtime.  Used by the watchdog and by idle workers.
 */
void irqkit_plat_wait_timeout(unsigned int *addr, unsigned int val, uint64_t ns);

/*
 * The heavy side of an asymmetric barrier pair (Linux's membarrier()): a
 * full memory barrier on every thread of the process that runs at the time
 * of the call, so that the hot side of a Dekker pair needs only a compiler
 * barrier where it would need a full one.  irqkit_plat_barrier_heavy_init
 * says whether the platform has one (the core asks once per start, process
 * context); if it has not, the core keeps full barriers on the hot side and
 * never calls irqkit_plat_barrier_heavy.  irqkit_plat_barrier_heavy: a
 * thread about to sleep on a word (process context or a thread of the
 * runtime); it may sleep.  Optional: a platform without one returns false.
 */
bool irqkit_plat_barrier_heavy_init(void);
void irqkit_plat_barrier_heavy(void);

/* The default log sink: one line, no trailing newline.  Any context. */
void irqkit_plat_log(int level, const char *line);

/*
 * Optional diagnostics.  irqkit_plat_backtrace fills up to @max return
 * addresses of the caller (0 if unsupported); irqkit_plat_symbol writes the
 * name of the function containing @addr ("" if unknown) and returns the offset
 * into it.  Any context.
 */
int irqkit_plat_backtrace(void **frames, int max);
unsigned long irqkit_plat_symbol(const void *addr, char *buf, size_t len);

/* The calling thread's id and name, for reports ("pid: N, name: comm"). */
int irqkit_plat_thread_id(void);
void irqkit_plat_thread_name(char *buf, size_t len);

/*
 * Optional, for the watchdog's reports about another thread: the name of
 * thread @tid ("" if unknown), and up to @max return addresses of its stack
 * as it is now (0 if unsupported or it did not answer).  Process context.
 */
void irqkit_plat_thread_name_of(int tid, char *buf, size_t len);
int irqkit_plat_backtrace_of(int tid, void **frames, int max);

/*
 * Threads of the core: ksoftirqd/N, kworkers, irq/N-name.  @fn(@arg) runs in
 * a new thread named @name; irqkit_plat_thread_join waits for it to return
 * and frees the handle.  Process context.  Return: 0 or -ENOMEM.
 */
struct irqkit_plat_thread;
int irqkit_plat_thread_create(struct irqkit_plat_thread **out, const char *name,
			      void (*fn)(void *), void *arg);
void irqkit_plat_thread_join(struct irqkit_plat_thread *th);
/*
 * irqkit_plat_thread_join with a limit: 0 once joined (the handle is freed),
 * -ETIMEDOUT if the thread still runs after @ns (the handle stays valid).
 */
int irqkit_plat_thread_join_timeout(struct irqkit_plat_thread *th, uint64_t ns);

/*
 * The task list (signals, the task listing).  A thread's task joins it at
 * its first irqkit_current(), its first sleep or its start as a kthread;
 * the core then calls irqkit_plat_task_track(@t) on that thread (any
 * context), and the platform must call irqkit__core_task_exit(@t) when the
 * thread ends, while @t's memory is still valid (posix: a thread-specific
 * key's destructor).  Optional: the default tracks nothing, right for a
 * host whose tasks never end.
 */
struct irqkit_task;
void irqkit_plat_task_track(struct irqkit_task *t);
void irqkit__core_task_exit(struct irqkit_task *t);

/*
 * File descriptors (optional; a host that has them: posix).  Each CPU's idle
 * wait (irqkit_arch_cpu_idle) also watches a set of descriptors, so that a
 * chip can take a descriptor's readiness as an interrupt source (the fd
 * chip) with no thread of its own.  One client registers, once per run, on
 * its first use; the platform then calls @event from irqkit_arch_cpu_poll()
 * (or from a program's loop that plays the CPU) for each descriptor of
 * @cpu's set that reported @events, with the @key it was added with.
 * @events and @want are the host's poll bits (EPOLLIN, EPOLLET, ...).
 * Optional, without a default: only a chip that a host with descriptors
 * builds (the fd chip) calls them, so a platform without descriptors
 * leaves them out.
 */
struct irqkit_plat_fd_client {
	void	(*event)(unsigned int cpu, unsigned int key, uint32_t events);
};
/* Register the client.  Process context. */
void irqkit_plat_fd_register(const struct irqkit_plat_fd_client *client);
enum { IRQKIT_PLAT_FD_ADD, IRQKIT_PLAT_FD_MOD, IRQKIT_PLAT_FD_DEL };
/*
 * Add @fd to @cpu's set (@op IRQKIT_PLAT_FD_ADD), change what it watches
 * (_MOD; @want 0: nothing) or take it out (_DEL).  Any thread, not from
 * @event.  Return: 0, -EINVAL (no such CPU) or the host's -errno.
 */
int irqkit_plat_fd_ctl(unsigned int cpu, int op, int fd, uint32_t want, unsigned int key);
/*
 * One descriptor more (@delta 1) or fewer (-1) in @cpu's set: the first one
 * wakes the CPU's idle wait, so that it watches the set from then on.
 */
void irqkit_plat_fd_count(unsigned int cpu, int delta);
/*
 * Reading @key's descriptor on @cpu: read_begin (a full barrier) before the
 * client checks that the descriptor is still its, read_end after the read.
 * quiesce(@key), once the client stopped using the descriptor, waits until
 * no CPU reads it: then its owner may close it.  Any thread of the runtime.
 */
void irqkit_plat_fd_read_begin(unsigned int cpu, unsigned int key);
void irqkit_plat_fd_read_end(unsigned int cpu);
void irqkit_plat_fd_quiesce(unsigned int key);
/*
 * Report @key to @cpu as ready for reading, as if a descriptor of its set
 * had become readable (a source with no descriptor: a replayed recording):
 * @event is called with the host's "readable" bit from the CPU's next poll,
 * and the CPU is woken for it.  Reports of one key before that poll merge.
 * Any thread of the runtime.
 */
void irqkit_plat_fd_post(unsigned int cpu, unsigned int key);

/*
 * Give way to the other runnable threads of the caller's CPU, if any (the
 * cond_resched() between work items).  Optional: by default nothing, for a
 * host whose kernel preempts its threads; a cooperative scheduler (bare
 * metal) yields.  Process context.
 */
void irqkit_plat_cond_resched(void);

/* Sleep at least @ns (msleep).  Process context. */
void irqkit_plat_sleep_ns(uint64_t ns);

/* Impossible failure of the platform (a failed futex): report and stop. */
void irqkit_plat_fatal(const char *msg) __attribute__((noreturn));

/* The end of the program after an oops (BUG()), reported already: posix aborts. */
void irqkit_plat_oops(void) __attribute__((noreturn));

/*
 * ---- What the core offers a platform ----------------------------------------
 *
 * The platform implements irqkit_start()/irqkit_stop() and the threads that
 * play the CPUs with these, and touches no field of the core.  Every name
 * here begins irqkit__core_.
 */
struct irqkit_config;

/*
 * Start: validate @cfg, build lines and CPUs, start the core's own threads
 * (ksoftirqd, kworkers, the watchdog).  Return: 0, -EINVAL, -EBUSY (a start
 * already won), -ENOMEM.  Then irqkit__core_started() once the platform's
 * threads run.  Process context.
 */
int irqkit__core_init(const struct irqkit_config *cfg);
void irqkit__core_started(void);
/*
 * Stop, in three steps: irqkit__core_stopping() (true for exactly one
 * caller, false and a report from interrupt context or a thread of the
 * runtime); the platform ends its CPU threads (irqkit__core_dispatcher_stop)
 * and ksoftirqd (irqkit__core_softirq_stop); irqkit__core_exit() frees
 * everything.
 */
bool irqkit__core_stopping(void);
void irqkit__core_exit(void);
/* True, with a report, when the caller may not stop the runtime (before any wait). */
bool irqkit__core_stop_refused(void);
int irqkit__core_softirq_stop(uint64_t limit_ns);

/* The run being started or stopped: its CPUs, mode, flags, watchdog threshold (0: off). */
unsigned int irqkit__core_nr_cpus(void);
bool irqkit__core_deterministic(void);
unsigned int irqkit__core_flags(void);
uint64_t irqkit__core_watchdog_ns(void);
/* The CPUs a program's loop plays (irqkit_config.loop_cpus): no dispatcher for them. */
uint64_t irqkit__core_loop_cpus(void);

/*
 * Exploration (<irqkit/explore.h>): @fn is called at every interrupt point
 * (see point.c) that the thread playing its CPU in deterministic mode
 * reaches with interrupts on, outside hardirq context, with what the point is
 * ("spin_lock", "queue_work", ...) and the program's call site.  It may raise
 * interrupts: they are delivered before the point returns.  NULL: no hook.
 */
typedef void (*irqkit__core_point_fn)(const char *what, const void *ip);
void irqkit__core_explore_hook_set(irqkit__core_point_fn fn);

/*
 * Race windows of the checking build (IRQKIT_DEBUG): every thread that
 * passes window @name waits @ns there (0: not at all), so that a test makes
 * the interleaving a race needs happen every run.  Windows: "wake_worker" (a
 * worker taken off its pool's idle list and marked woken, before its waker
 * wakes it).  Each run starts with every window closed.  Any context.
 * Return: 0; -EINVAL for an unknown name; -EOPNOTSUPP in a build without
 * IRQKIT_DEBUG.
 */
int irqkit__core_window_set(const char *name, uint64_t ns);

/*
 * The body of CPU @cpu's thread in threaded mode: deliver, sleep, until
 * irqkit__core_dispatcher_stop(@cpu).  irqkit__core_dispatcher_running_fn()
 * names what that CPU's hardirq holder runs now (for a report about a stuck
 * one).
 */
void irqkit__core_dispatcher_loop(unsigned int cpu);
/*
 * CPU @cpu has no dispatcher: a program's loop plays it.  Every signal to it
 * then ends in irqkit_arch_cpu_wake(), which makes the loop's descriptor
 * readable.  Before irqkit__core_started().
 */
void irqkit__core_dispatcher_external(unsigned int cpu);
void irqkit__core_dispatcher_stop(unsigned int cpu);
const void *irqkit__core_dispatcher_running_fn(unsigned int cpu);

/*
 * @s as a JSON string, in its quotes (quotes, backslashes and control
 * characters escaped), handed to @put in pieces.  Any context.
 */
void irqkit__core_json_string(const char *s, void (*put)(void *arg, const char *p, size_t n),
			      void *arg);

#endif /* IRQKIT_CORE_PLATFORM_H */
