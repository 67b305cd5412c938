// SPDX-License-Identifier: MIT
/*
 * Traps: the CLINT's software interrupt (IPIs, with per-hart message bits as
 * a doorbell, since back-to-back MSIP writes merge), its timer (the hart's
 * timed waits, and on hart 0 the core's one-shot timer), external
 * interrupts through the root handler a chip installs (the PLIC), and
 * exceptions, which are reported with their cause and PC and end the image
 * with a verdict.
 */
#include "rv.h"

#include <irqkit/arch/rv.h>
#include <irqkit/cpu.h>
#include <irqkit/irqkit.h>
#include <irqkit/irqdomain.h>
#include <irqkit/percpu.h>

unsigned int irqkit_rv_trap_depth[RV_MAX_HARTS];
volatile bool rv_core_up;

struct rv_frame {
	unsigned long regs[16];	/* ra, t0-t2, a0-a7, t3-t6 */
	unsigned long mepc, mstatus;
};

/* The root handler of external interrupts: the root chip's (irqkit_arch_set_handle_irq). */
static void (*ext_root)(void *arg);
static void *ext_arg;

int irqkit_arch_set_handle_irq(void (*root)(void *arg), void *arg)
{
	void (*none)(void *) = NULL;

	if (!root) {
		__atomic_store_n(&ext_root, NULL, __ATOMIC_RELEASE);
		return 0;
	}
	ext_arg = arg;
	if (!__atomic_compare_exchange_n(&ext_root, &none, root, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE))
		return root == none ? 0 : -16;	/* -EBUSY */
	/* every hart takes external interrupts from now on */
	for (unsigned int h = 0; h < rv_nr_harts; h++)
		rv_ipi_send(h, RV_IPI_EXT_ON);
	return 0;
}

void rv_ipi_send(unsigned int hart, unsigned int bits)
{
	__atomic_fetch_or(&rv_harts[hart].ipi, bits, __ATOMIC_SEQ_CST);
	mmio_write32(RV_CLINT_MSIP(hart), 1);
}

/* ---- the timer -------------------------------------------------------------------- */

static uint64_t core_deadline = UINT64_MAX;	/* ticks; hart 0's timer serves it */

uint64_t rv_core_deadline_ticks(void)
{
	return __atomic_load_n(&core_deadline, __ATOMIC_ACQUIRE);
}

/* Program @hart's mtimecmp for the earliest of what it serves.  Any hart. */
void rv_timer_update(unsigned int hart)
{
	struct rv_hart *h = &rv_harts[hart];
	unsigned long f = rv_irq_save();
	uint64_t d;

	rv_lock(&h->timer_lock);
	d = h->sleep_deadline;
	if (h->retry && h->retry_at < d)
		d = h->retry_at;
	if (hart == 0 && rv_core_deadline_ticks() < d)
		d = rv_core_deadline_ticks();
	mmio_write64(RV_CLINT_MTIMECMP(hart), d);
	rv_unlock(&h->timer_lock);
	rv_irq_restore(f);
}

/*
 * The core's one-shot timer (arch.h): hart 0's mtimecmp, written from any
 * hart (machine mode reaches every hart's).  Called under the core's timer
 * lock: nothing here calls back.
 */
void irqkit_arch_timer_program(uint64_t deadline_ns)
{
	uint64_t t = UINT64_MAX;

	if (deadline_ns != UINT64_MAX) {
		uint64_t now = irqkit_plat_now_ns();

		t = rv_ticks() + rv_ns_to_ticks(deadline_ns > now ? deadline_ns - now : 0);
	}
	__atomic_store_n(&core_deadline, t, __ATOMIC_RELEASE);
	rv_timer_update(0);
}

/* ---- interrupts --------------------------------------------------------------- */

/*
 * Enter the core for this hart's interrupt.  The interrupted task takes it
 * (current stays that task, as in Linux) when it is bound to this hart;
 * a task that is not (never bound, or leaving for another hart) lends the
 * trap to the hart's swapper, which is.  Return: the core's answer.
 */
static int enter_core(unsigned int hart, void (*root)(void *), void *arg)
{
	struct irqkit_task *t = irqkit_arch_current();
	struct irqkit_task *idle = &rv_harts[hart].idle.task;
	bool lend = !(t->irqflags & IRQKIT_TASK_BOUND) || t->cpu_id != (int)hart;
	int ret;

	if (lend)
		__asm__ __volatile__("mv tp, %0" : : "r"(idle) : "memory");
	ret = irqkit__core_handle_arch_irq(root, arg);
	if (lend)
		__asm__ __volatile__("mv tp, %0" : : "r"(t) : "memory");
	if (ret) {
		rv_harts[hart].busy_count++;
		if (rv_harts[hart].busy_count == 1)
			rv_printf("irqkit: hart %u could not take an interrupt now (%d, task %s): tried again in 1 ms\n",
				  hart, ret, ((struct irqkit_plat_thread *)t)->name);
	}
	return ret;
}

/* Try @bits (RV_IPI_KICK, RV_IPI_EXT_ON) again a millisecond from now, on the hart's timer. */
static void retry_later(unsigned int hart, unsigned int bits)
{
	rv_harts[hart].retry |= bits;
	rv_harts[hart].retry_at = rv_ticks() + rv_timebase_hz / 1000;
	rv_timer_update(hart);
}

/*
 * The software interrupt's work: the message bits.  RV_IPI_KICK needs
 * nothing here: the core delivers what is pending on the CPU after the
 * interrupt's handlers.  RV_IPI_RESCHED: the idle loop or the running
 * thread looks at the queue itself.
 */
static unsigned int ipi_work(unsigned int hart)
{
	unsigned int bits;

	mmio_write32(RV_CLINT_MSIP(hart), 0);
	bits = __atomic_exchange_n(&rv_harts[hart].ipi, 0, __ATOMIC_SEQ_CST);
	if (bits & RV_IPI_TIMER)
		rv_timer_update(hart);
	if (bits & RV_IPI_EXT_ON)
		csr_set(mie, MIP_MEIP);
	return bits;
}

/*
 * The timer interrupt's work: the hart's timed waits that are due, a retry
 * that is due, and on hart 0 the core's one-shot timer (run here when
 * @core: in hardirq context from the timer line, or after a stop began).
 */
static void timer_work(unsigned int hart, bool core)
{
	struct rv_hart *h = &rv_harts[hart];
	bool core_due = false;

	rv_timer_expired(hart);
	if (h->retry && rv_ticks() >= h->retry_at) {
		/* the kept bits come back as this hart's own IPI, which does their work */
		rv_ipi_send(hart, h->retry);
		h->retry = 0;
		h->retry_at = UINT64_MAX;
	}
	if (hart == 0) {
		uint64_t d = rv_core_deadline_ticks();

		if (d != UINT64_MAX && rv_ticks() >= d) {
			__atomic_store_n(&core_deadline, UINT64_MAX, __ATOMIC_RELEASE);
			core_due = true;
		}
	}
	rv_timer_update(hart);
	if (core_due && core)
		irqkit__core_timer_interrupt();
}

/*
 * The hart's local interrupts as lines (Linux's riscv-intc): a domain whose
 * hwirqs are the interrupt causes, the software (3), timer (7) and external
 * (11) causes mapped at each start to per-CPU lines with a per-CPU dev_id
 * (handle_percpu_devid_irq).  The first two are requested here, named "IPI"
 * and "timer", with handlers that do the work above for the hart their
 * dev_id names, as Linux's timer does its work through its per-CPU clock
 * event device; counted per CPU as Linux counts its local timer and IPIs;
 * each CPU enables them in a hotplug state of the port's, run on that CPU
 * (Linux's CPU-starting step), and disables them when it goes down.  The
 * external line is the parent a PLIC chains under, as Linux's PLIC driver
 * does.  The chip's mask is a bit of the hart
 * (intc_on), and for the external cause its mie bit too; not mie for the
 * other two: the port's own waits (its threads' timed sleeps, the core's
 * kicks) need them between runs and on a line a driver disabled, and a trap
 * for a masked cause does the work itself without entering the core, as
 * between runs.
 */
static unsigned int intc_on[RV_MAX_HARTS];	/* causes unmasked on the hart, as bits */

static void intc_mask(struct irqkit_irq_data *d)
{
	__atomic_fetch_and(&intc_on[rv_hartid()], ~(1u << d->hwirq), __ATOMIC_RELEASE);
	if (d->hwirq == RV_CAUSE_EXT)
		csr_clear(mie, MIP_MEIP);	/* nothing of the port's own comes this way */
}

static void intc_unmask(struct irqkit_irq_data *d)
{
	__atomic_fetch_or(&intc_on[rv_hartid()], 1u << d->hwirq, __ATOMIC_RELEASE);
	if (d->hwirq == RV_CAUSE_EXT)
		csr_set(mie, MIP_MEIP);
}

static bool intc_unmasked(unsigned int hart, unsigned int cause)
{
	return __atomic_load_n(&intc_on[hart], __ATOMIC_ACQUIRE) & (1u << cause);
}

static struct irqkit_chip intc_chip = {
	.name		= "RISC-V INTC",
	.irq_mask	= intc_mask,
	.irq_unmask	= intc_unmask,
	.flags		= IRQKIT_CHIP_SKIP_SET_WAKE,
};

static int intc_map(struct irqkit_irq_domain *d, unsigned int virq, irqkit_hwirq_t hw)
{
	int ret;

	(void)d;
	(void)hw;
	ret = irqkit_irq_set_percpu_devid(virq);
	if (ret)
		return ret;
	return irqkit_irq_set_chip_and_handler_name(virq, &intc_chip,
						    irqkit_handle_percpu_devid_irq, "percpu_devid");
}

static const struct irqkit_irq_domain_ops intc_ops = { .map = intc_map };
static struct irqkit_irq_domain *intc_domain;	/* made once, kept across runs */
static unsigned int ipi_irq, timer_irq, ext_irq;	/* this run's lines, 0 between runs */

/* The per-CPU dev_id of both lines: the hart whose work a handler does. */
struct rv_local {
	unsigned int	hart;
};
static struct rv_local *intc_dev;		/* per-CPU; made once, kept across runs */

static enum irqkit_irqreturn ipi_handler(int irq, void *dev_id)
{
	const struct rv_local *l = dev_id;

	(void)irq;
	(void)ipi_work(l->hart);
	return IRQKIT_HANDLED;
}

static enum irqkit_irqreturn timer_handler(int irq, void *dev_id)
{
	const struct rv_local *l = dev_id;

	(void)irq;
	timer_work(l->hart, true);
	return IRQKIT_HANDLED;
}

unsigned int irqkit_rv_ipi_irq(void)
{
	return ipi_irq;
}

unsigned int irqkit_rv_timer_irq(void)
{
	return timer_irq;
}

unsigned int irqkit_rv_ext_irq(void)
{
	return ext_irq;
}

/*
 * The line of the hart-local interrupt @hw, at or above @from: the three take
 * the last line numbers, so that the low ones stay free for the lines a
 * program numbers itself (software lines, a 2.6 driver's fixed irq), as x86
 * keeps its dynamically allocated lines above its GSIs.  Return: it, or 0.
 */
static unsigned int intc_line(irqkit_hwirq_t hw, unsigned int from)
{
	unsigned int virq = irqkit_irq_find_mapping(intc_domain, hw);
	int v;

	if (virq)
		return virq;
	v = irqkit_irq_alloc_descs(-1, from, 1, NULL);
	if (v <= 0)
		return 0;
	if (irqkit_irq_domain_associate(intc_domain, (unsigned int)v, hw)) {
		irqkit_irq_free_descs((unsigned int)v, 1);
		return 0;
	}
	return (unsigned int)v;
}

/* Each CPU as it comes up (and every one at start), on that CPU: its lines on. */
static int intc_starting_cpu(unsigned int cpu)
{
	(void)cpu;
	irqkit_enable_percpu_irq(__atomic_load_n(&ipi_irq, __ATOMIC_ACQUIRE), IRQKIT_TYPE_NONE);
	irqkit_enable_percpu_irq(__atomic_load_n(&timer_irq, __ATOMIC_ACQUIRE), IRQKIT_TYPE_NONE);
	return 0;
}

static int intc_dying_cpu(unsigned int cpu)
{
	(void)cpu;
	irqkit_disable_percpu_irq(__atomic_load_n(&timer_irq, __ATOMIC_ACQUIRE));
	irqkit_disable_percpu_irq(__atomic_load_n(&ipi_irq, __ATOMIC_ACQUIRE));
	return 0;
}

/*
 * At start, once the CPUs are bound: the lines, the handlers of two, and
 * their hotplug state, which turns them on in every CPU before it returns.
 * Return: 0 or -errno.
 */
int rv_intc_start(void)
{
	unsigned int ipi, timer, ext, nr = irqkit_nr_irqs();
	int ret;

	if (!intc_domain)
		intc_domain = irqkit_irq_domain_create_linear(NULL, 16, &intc_ops, NULL);
	if (!intc_dev) {
		intc_dev = irqkit_alloc_percpu(sizeof(*intc_dev), _Alignof(struct rv_local));
		for (unsigned int c = 0; intc_dev && c < rv_nr_harts; c++)
			((struct rv_local *)irqkit_per_cpu_ptr(intc_dev, c))->hart = c;
	}
	if (!intc_domain || !intc_dev)
		return -12;	/* -ENOMEM */
	ext = intc_line(RV_CAUSE_EXT, nr > 3 ? nr - 3 : 1);
	ipi = intc_line(RV_CAUSE_SOFT, nr > 3 ? nr - 2 : 1);
	timer = intc_line(RV_CAUSE_TIMER, nr > 3 ? nr - 1 : 1);
	if (!ipi || !timer || !ext)
		return -12;
	ret = irqkit_request_percpu_irq(ipi, ipi_handler, "IPI", intc_dev);
	if (ret)
		return ret;
	ret = irqkit_request_percpu_irq(timer, timer_handler, "timer", intc_dev);
	if (ret) {
		irqkit_free_percpu_irq(ipi, intc_dev);
		return ret;
	}
	__atomic_store_n(&ipi_irq, ipi, __ATOMIC_RELEASE);
	__atomic_store_n(&timer_irq, timer, __ATOMIC_RELEASE);
	__atomic_store_n(&ext_irq, ext, __ATOMIC_RELEASE);
	ret = irqkit_cpuhp_setup_state(IRQKIT_CPUHP_AP_ONLINE_DYN, "irqchip/riscv/intc:starting",
				       intc_starting_cpu, intc_dying_cpu);
	if (ret < 0) {
		rv_intc_stop();
		irqkit_free_percpu_irq(timer, intc_dev);
		irqkit_free_percpu_irq(ipi, intc_dev);
		return ret;
	}
	return 0;
}

/* At stop, before the core frees the lines: traps do their work directly again. */
void rv_intc_stop(void)
{
	__atomic_store_n(&ipi_irq, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&timer_irq, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&ext_irq, 0, __ATOMIC_RELEASE);
	for (unsigned int h = 0; h < RV_MAX_HARTS; h++)
		__atomic_store_n(&intc_on[h], 0, __ATOMIC_RELEASE);
}

static void root_intc(void *arg)
{
	(void)irqkit_generic_handle_domain_irq(intc_domain, (irqkit_hwirq_t)(uintptr_t)arg);
}

static void root_none(void *arg)
{
	(void)arg;		/* a kick: what the core signalled is delivered after it */
}

/* Does a trap on @hart enter the core?  Between start and stop, on an online CPU's hart. */
static bool hart_in_core(unsigned int hart)
{
	return rv_core_up && hart < irqkit__core_nr_cpus() &&
	       !__atomic_load_n(&rv_harts[hart].cpu_off, __ATOMIC_ACQUIRE);
}

/*
 * Is @hart's interrupt of @cause its line @line's (this run's, 0 between
 * runs), on for the hart?  Inline, as its callers: the trap path.
 */
static inline __attribute__((always_inline)) bool line_on(unsigned int hart,
							   const unsigned int *line,
							   unsigned int cause)
{
	return __atomic_load_n(line, __ATOMIC_ACQUIRE) && intc_unmasked(hart, cause);
}

/* Take it as that line if so and the core takes it now.  Return: false: the caller must. */
static inline __attribute__((always_inline)) bool take_as_line(unsigned int hart,
								const unsigned int *line,
								unsigned int cause)
{
	return line_on(hart, line, cause) &&
	       !enter_core(hart, root_intc, (void *)(unsigned long)cause);
}

static void software_interrupt(unsigned int hart)
{
	bool core = hart_in_core(hart);
	unsigned int bits;

	if (core && take_as_line(hart, &ipi_irq, RV_CAUSE_SOFT))
		return;
	/* no line (a stop under way), no core, or the core could not take it now */
	bits = ipi_work(hart);
	if ((bits & RV_IPI_KICK) && core && enter_core(hart, root_none, NULL))
		retry_later(hart, RV_IPI_KICK);
}

static void timer_interrupt(unsigned int hart)
{
	if (hart_in_core(hart) && take_as_line(hart, &timer_irq, RV_CAUSE_TIMER))
		return;
	/* the core's timer still runs while a stop is under way (outside hardirq context) */
	timer_work(hart, rv_core_up);
}

/*
 * The external line's chained handler (a PLIC's) if the line is on for this
 * hart, else a root handler if one is set; the retry of a busy core comes
 * back to whichever it was.
 */
static void external_interrupt(unsigned int hart)
{
	void (*root)(void *arg) = NULL;
	void *arg = NULL;

	if (!hart_in_core(hart)) {
		/* nobody */
	} else if (line_on(hart, &ext_irq, RV_CAUSE_EXT)) {
		root = root_intc;
		arg = (void *)(unsigned long)RV_CAUSE_EXT;
	} else {
		root = __atomic_load_n(&ext_root, __ATOMIC_ACQUIRE);
		arg = ext_arg;
	}
	if (root) {
		if (!enter_core(hart, root, arg))
			return;
		retry_later(hart, RV_IPI_EXT_ON);
	}
	csr_clear(mie, MIP_MEIP);	/* nobody serves it now: masked until one does or the retry */
}

static const char *const exc_names[] = {
	"instruction address misaligned", "instruction access fault", "illegal instruction",
	"breakpoint", "load address misaligned", "load access fault",
	"store address misaligned", "store access fault", "ecall from U", "ecall from S",
	"reserved", "ecall from M", "instruction page fault", "load page fault",
	"reserved", "store page fault",
};

void rv_trap(struct rv_frame *f)
{
	unsigned long cause = csr_read(mcause);
	unsigned int hart = rv_hartid();

	if (!(cause & MCAUSE_INT)) {
		struct irqkit_task *t = irqkit_arch_current();

		const char *ctx = (t->preempt_count & IRQKIT_HARDIRQ_MASK) ? "hardirq" :
				  (t->preempt_count & IRQKIT_SOFTIRQ_OFFSET) ? "softirq" :
				  irqkit_rv_trap_depth[hart] ? "a trap" : "process";

		char pc_name[48], ra_name[48];
		unsigned long pc_off = irqkit_plat_symbol((void *)f->mepc, pc_name, sizeof(pc_name));
		unsigned long ra_off = irqkit_plat_symbol((void *)f->regs[0], ra_name, sizeof(ra_name));

		rv_printf("irqkit: exception on hart %u: %s (mcause %lu) at pc %p (%s+0x%lx), mtval %lx, ra %p (%s+0x%lx), in %s context of task %s\n",
			  hart, cause < 16 ? exc_names[cause] : "unknown", cause,
			  (void *)f->mepc, pc_name, pc_off, csr_read(mtval), (void *)f->regs[0],
			  ra_name, ra_off, ctx, ((struct irqkit_plat_thread *)t)->name);
		rv_puts("RESULT: FAIL exception\n");
		rv_exit(99);
	}
	irqkit_rv_trap_depth[hart]++;
	/* seen inside before this reads whether to enter: a stop or a CPU going down waits for it */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	switch (cause & ~MCAUSE_INT) {
	case RV_CAUSE_SOFT:
		software_interrupt(hart);
		break;
	case RV_CAUSE_TIMER:
		timer_interrupt(hart);
		break;
	case RV_CAUSE_EXT:
		external_interrupt(hart);
		break;
	default:
		rv_printf("irqkit: unexpected interrupt %lu on hart %u\n", cause & ~MCAUSE_INT, hart);
		break;
	}
	__asm__ __volatile__("csrci mstatus, 8" ::: "memory");
	if (irqkit_rv_trap_depth[hart] == 1 && rv_harts[hart].kick_after_trap) {
		rv_harts[hart].kick_after_trap = false;
		rv_ipi_send(hart, RV_IPI_KICK);	/* taken right after mret: the next point */
	}
	irqkit_rv_trap_depth[hart]--;
}
