/* SPDX-License-Identifier: MIT */
/*
 * The CPU half of the port contract (as Zephyr's arch_interface.h and Linux's
 * arch/ hooks): what a port to a CPU provides so that the core can run on
 * it, grouped by topic, in the order a port brings them up.  The host half
 * (memory, clock, log, threads, waits) is platform.h.  Every hook is required
 * unless marked optional, and says from which context the core calls it and
 * what the core relies on.  docs/porting.md follows this file hook by hook,
 * with the Linux user-space port (src/platform/posix/) as the worked example.
 */
#ifndef IRQKIT_CORE_ARCH_H
#define IRQKIT_CORE_ARCH_H

#include <stdbool.h>
#include <stdint.h>

/*
 * ---- 1. The current task and CPU (required, inline) --------------------------
 *
 * The inline hooks of sections 1 and 2 are declared in <irqkit/task.h>, with
 * the signatures given here, before the port's headers that define them:
 * a port whose definition differs fails to build.
 *
 * The port's <irqkit/arch/current.h>, installed with the library and
 * included by <irqkit/task.h> after struct irqkit_task (Linux's
 * <asm/current.h>):
 *
 *   struct irqkit_task *irqkit_arch_current(void);
 *	The task that runs now: its preempt_count, interrupt flag, CPU and the
 *	per-task state of the core (the lock validator's held locks, the
 *	kworker or irq thread it is).  Any context; never NULL; the same
 *	pointer for the whole life of a thread.  All per-task state of the
 *	core hangs off it: the core keeps none in thread-local storage.
 *	Posix: a thread-local struct irqkit_task.  Bare metal: the task the
 *	hart runs, from a per-hart register (tp).
 *
 *   int irqkit_arch_smp_processor_id(void);
 *	The CPU the calling task runs on or acts for (Linux's
 *	raw_smp_processor_id()).  Any context.  Per-CPU state of the core is
 *	found from it.
 */

/*
 * ---- 2. The interrupt flag (required, inline) ---------------------------------
 *
 * The port's <irqkit/arch/irqflags.h> (Linux's <asm/irqflags.h>), included
 * by <irqkit/task.h>; local_irq_save() and its family are these, inline, in
 * every driver that uses them, so they must be cheap:
 *
 *   unsigned long irqkit_arch_local_irq_save(void);
 *   void irqkit_arch_local_irq_restore(unsigned long flags);
 *   unsigned long irqkit_arch_local_save_flags(void);
 *   bool irqkit_arch_irqs_disabled_flags(unsigned long flags);
 *	Any context.  Save turns the calling CPU's interrupts off and returns
 *	the state before; restore puts back exactly that state; an interrupt
 *	that arrived meanwhile is taken when the state goes back to on.
 *	local_irq_enable()/disable() are restore(0) and save().
 *
 *   unsigned long irqkit_arch_lock_irq_save(void);	(IRQKIT_BUILD only)
 *   void irqkit_arch_lock_irq_restore(unsigned long flags);
 *	What the core's own irqsave locks use: the flag with no delivery
 *	point at the end.  A port whose flag is the CPU's own: the same as
 *	save/restore.
 *
 *   void irqkit_arch_irq_flag_sync(struct irqkit_task *t, bool off);
 *	The core set (@off) or cleared the task's
 *	IRQKIT_TASK_IRQS_OFF itself, taking or letting go of its CPU's
 *	hardirq hold: a port whose flag is the CPU's own turns that flag the
 *	same way (bare metal: except in a trap's way out, which keeps it off
 *	until the return).  Posix: nothing, the task's flag is all there is.
 *
 *   unsigned long irqkit_arch_hold_begin(void);
 *   void irqkit_arch_hold_end(unsigned long f);
 *	Around the core's change of how a task holds its CPU (the CPU's
 *	slot word and the task's own bits, taken or let go together): a port
 *	whose interrupts trap on the running task keeps them off across, so
 *	no trap finds the two apart (bare metal: mstatus.MIE off, then as it
 *	was).  Posix: nothing, no trap interrupts a thread.
 *
 * Posix: a virtual CPU is a set of threads, so the flag is a word of the
 * task; a thread bound to a CPU joins that CPU's interrupts-off holders in
 * the core's slow paths (irqkit_local_irq_disable_slow/_enable_slow,
 * src/core/context.c), which deliver what was latched meanwhile.  Bare
 * metal: the CPU's own flag (RISC-V: sstatus.SIE with csrrci/csrs).
 */

/*
 * ---- 3. Spinning, idle and wake (required) -------------------------------------
 */

/* Inside a spin loop: a pause instruction or nothing.  Any context. */
void irqkit_arch_cpu_relax(void);

/*
 * The idle wait of CPU @cpu's dispatcher: block while *@kick == @seen (it may
 * return early or spuriously).  A platform with interrupt sources of its own
 * (posix: lines bound to file descriptors) also returns when one of @cpu's is
 * ready, and delivers it in irqkit_arch_cpu_poll(), which the dispatcher calls
 * after every idle wait, awake, with interrupts on, outside any handler.
 * irqkit_arch_cpu_wake() ends the wait (the IPI: kick another CPU); the core
 * calls it after changing *@kick, from any context.  A platform without such
 * sources: a futex wait, a futex wake and an empty poll.  Bare metal: wfi
 * with the interrupt flag re-enabled atomically, an IPI, nothing.
 */
void irqkit_arch_cpu_idle(unsigned int cpu, unsigned int *kick, unsigned int seen);
void irqkit_arch_cpu_wake(unsigned int cpu, unsigned int *kick);
void irqkit_arch_cpu_poll(unsigned int cpu);

/*
 * irqkit_arch_cpu_idle_until - irqkit_arch_cpu_idle, ending at @deadline_ns
 * of irqkit_plat_now_ns() at the latest (UINT64_MAX: none): the CPU's own
 * timer, as Linux's per-CPU clock event device, so that an hrtimer due on
 * the CPU wakes only its dispatcher.  Optional: the default returns false
 * at once, without waiting; the core then leaves the CPU's hrtimers to the
 * one-shot timer (section 5), one wake-up more.  A deadline already past
 * (the core passes 0 once, at the dispatcher's start, to ask) returns at
 * once.  Context: CPU @cpu's dispatcher, as irqkit_arch_cpu_idle.  Posix:
 * the futex or epoll wait with a timeout.  Return: true where the port has
 * the timer (whether it waited, returned early as irqkit_arch_cpu_idle may,
 * or found the deadline past).
 */
bool irqkit_arch_cpu_idle_until(unsigned int cpu, unsigned int *kick, unsigned int seen,
				uint64_t deadline_ns);

/*
 * ---- 4. The trap entry (offered by the core) -----------------------------------
 *
 * irqkit__core_handle_arch_irq - the way an interrupt trap enters the core
 * (Linux's generic_handle_arch_irq): on the calling task's CPU, enter
 * hardirq context with interrupts off, call @root(@arg) (the root interrupt
 * controller's handler: it asks the controller which lines are pending and
 * calls irqkit_generic_handle_irq() for each), then leave through irq_exit,
 * which runs the softirqs raised meanwhile unless the CPU was in a
 * bottom-half-off section, and deliver what became pending on the CPU.
 * Context: where the CPU takes an interrupt: a task that runs on (posix: is
 * bound to) a CPU, interrupts on, outside hardirq context.  Posix takes the
 * CPU's hardirq hold for the caller, as its dispatcher does.
 * Return: 0; -EINVAL when the caller runs on no CPU; -EBUSY when the CPU
 * cannot take an interrupt now (interrupts off, in hardirq context, or
 * another task holds it with interrupts off): nothing ran.
 */
int irqkit__core_handle_arch_irq(void (*root)(void *arg), void *arg);

/*
 * ---- 5. The timer (required) ---------------------------------------------------
 *
 * The one-shot timer: call irqkit__core_timer_interrupt() on some thread
 * bound to a CPU, at or after @deadline_ns of irqkit_plat_now_ns();
 * UINT64_MAX cancels.  Reprogramming replaces the previous deadline.  Not used
 * in deterministic mode, where irqkit_clock_advance() drives the timers.
 * Called with the core's timer lock held: must not call back into the core.
 * Posix: a thread (ktimerd) on a futex with a deadline.  Bare metal: the
 * CLINT's mtimecmp (or the SBI timer) and its interrupt.
 */
void irqkit_arch_timer_program(uint64_t deadline_ns);

/* The timer fired (see irqkit_arch_timer_program).  The timer's thread or trap. */
void irqkit__core_timer_interrupt(void);

/*
 * ---- 6. CPU up and down (optional: CPU hotplug) -------------------------------
 *
 * irqkit_arch_cpu_up - bring CPU @cpu to where it runs the core's dispatch
 * again (posix: start its dispatcher thread, which calls
 * irqkit__core_dispatcher_loop(); bare metal: release a parked hart).
 * irqkit_arch_cpu_down - the other way: ask the dispatch to end
 * (irqkit__core_dispatcher_stop()) and wait until it has, its handler
 * returned.  Called by irqkit_remove_cpu()/irqkit_add_cpu() in process
 * context, under the hotplug lock, in a mode whose CPUs have dispatchers;
 * down after the CPU left the online mask and its lines moved, up before
 * it joins the mask.  Return: 0 or a negative errno; the defaults return
 * -EOPNOTSUPP (a port without hotplug: remove_cpu() says so).
 */
int irqkit_arch_cpu_up(unsigned int cpu);
int irqkit_arch_cpu_down(unsigned int cpu);

/*
 * ---- 7. A task bound to a CPU (optional) --------------------------------------
 *
 * irqkit_arch_task_bound - the calling task @t was just bound to CPU
 * t->cpu_id (irqkit_thread_bind(), a kthread taking its CPU, either side of
 * irqkit_cpu_run()): a port whose CPUs are real moves it there before
 * returning, so that it runs where smp_processor_id() says and a trap taken
 * while it runs is that CPU's.  A task no longer bound (IRQKIT_TASK_BOUND
 * clear) stays where it is.  Process context, interrupts on, nothing held.
 * The default does nothing: a virtual CPU is wherever its threads run
 * (posix).  Bare metal (RISC-V): leave this hart and resume on the other.
 */
struct irqkit_task;
void irqkit_arch_task_bound(struct irqkit_task *t);

/*
 * ---- 8. The root interrupt handler (optional) ---------------------------------
 *
 * irqkit_arch_set_handle_irq - the chip of the root interrupt controller
 * names the handler that a CPU's external-interrupt trap runs (Linux's
 * set_handle_irq): @root(@arg), called inside irqkit__core_handle_arch_irq(),
 * asks the controller which lines are pending and runs each.  @root NULL
 * takes it away again (a stop).  Process context.  Return: 0; -EBUSY when
 * another is set; the default returns -EOPNOTSUPP (a host whose CPUs take
 * no traps: posix).  RISC-V: the machine external interrupt (mcause 11).
 */
int irqkit_arch_set_handle_irq(void (*root)(void *arg), void *arg);

#endif /* IRQKIT_CORE_ARCH_H */
