// SPDX-License-Identifier: MIT
/*
 * Start-up of every hart, irqkit_start()/irqkit_stop() on bare metal, and the
 * CPU hooks of the contract that the runtime uses: a hart is a CPU, whose
 * interrupts are taken by traps on whatever thread runs there, so no CPU has
 * a dispatcher thread; a signal to a CPU is an IPI.
 */
#include "rv.h"

#include <irqkit/irqkit.h>

static volatile unsigned int harts_ready;
static volatile bool harts_go;
static unsigned int start_gen;		/* bumped by each start: the swappers bind again */
static unsigned int swappers_bound;	/* how many did, for this start */
bool irqkit_rv_deterministic;
static unsigned int bound_gen[RV_MAX_HARTS];

extern void (*__init_array_start[])(void);
extern void (*__init_array_end[])(void);

/* The image's main thread: its constructors (as a C runtime runs them), then its main. */
static void main_thread(void *arg)
{
	int ret;

	(void)arg;
	for (void (**ctor)(void) = __init_array_start; ctor < __init_array_end; ctor++)
		(*ctor)();
	ret = irqkit_main();
	if (ret == 0) {
		rv_puts("RESULT: PASS\n");
		rv_exit(0);
	}
	rv_printf("RESULT: FAIL code=%d\n", ret);
	rv_exit(ret > 0 && ret < 256 ? (unsigned int)ret : 1);
}

/* Every hart, from start.S with its boot stack: its swapper, then its idle loop. */
void rv_hart_main(unsigned long hart, const void *fdt);
void rv_hart_main(unsigned long hart, const void *fdt)
{
	rv_sched_init_hart((unsigned int)hart);
	mmio_write64(RV_CLINT_MTIMECMP(hart), UINT64_MAX);
	mmio_write32(RV_CLINT_MSIP(hart), 0);
	csr_write(mie, MIP_MSIP | MIP_MTIP | MIP_MEIP);
	if (hart == 0) {
		struct irqkit_plat_thread *th;
		uint64_t tb = 0;
		unsigned int n = rv_fdt_harts(fdt, &tb);

		rv_nr_harts = n ? (n < RV_MAX_HARTS ? n : RV_MAX_HARTS) : 1;
		if (tb)
			rv_timebase_hz = tb;
		rv_heap_init();
		rv_printf("irqkit: RISC-V virt, %u hart%s, timebase %lu Hz\n", rv_nr_harts,
			  rv_nr_harts == 1 ? "" : "s", (unsigned long)rv_timebase_hz);
		rv_harts[0].online = true;
		harts_go = true;
		while (__atomic_load_n(&harts_ready, __ATOMIC_ACQUIRE) + 1 < rv_nr_harts)
			;
		if (irqkit_plat_thread_create(&th, "main", main_thread, NULL))
			irqkit_plat_fatal("no memory for the main thread");
	} else {
		while (!harts_go)
			;
		if (hart >= rv_nr_harts)
			for (;;)
				__asm__ __volatile__("wfi");	/* not in the device tree */
		rv_harts[hart].online = true;
		__atomic_fetch_add(&harts_ready, 1, __ATOMIC_RELEASE);
	}
	rv_idle_loop();
}

/*
 * Each hart's swapper binds to its CPU once per start, in its idle loop
 * (process context, interrupts on), so that a trap taken while it idles is
 * that CPU's.
 */
void rv_idle_bind(void);
void rv_idle_bind(void)
{
	unsigned int hart = rv_hartid();
	unsigned int gen = __atomic_load_n(&start_gen, __ATOMIC_ACQUIRE);

	if (bound_gen[hart] == gen)
		return;
	bound_gen[hart] = gen;
	if (rv_core_up && hart < irqkit__core_nr_cpus())
		(void)irqkit_thread_bind(hart);
	__atomic_fetch_add(&swappers_bound, 1, __ATOMIC_RELEASE);
	irqkit_plat_wake(&swappers_bound);
}

/* ---- the CPU hooks ------------------------------------------------------------- */

/* No CPU has a dispatcher thread here: only a stop asks one to end. */
void irqkit_arch_cpu_idle(unsigned int cpu, unsigned int *kick, unsigned int seen)
{
	(void)cpu;
	irqkit_plat_wait(kick, seen);
}

/*
 * The core signalled CPU @cpu: an IPI, whose trap delivers what is pending.
 * From a trap on that hart itself the IPI waits for the outermost trap's
 * end (rv_trap): what became pending while the core still looked is
 * delivered by this trap, and what it left for a later point (an arrival a
 * fault holds back, re-marked as the point ends) gets that point from the
 * IPI's trap right after.
 */
void irqkit_arch_cpu_wake(unsigned int cpu, unsigned int *kick)
{
	irqkit_plat_wake(kick);
	if (cpu >= rv_nr_harts)
		return;
	if (cpu == rv_hartid() && irqkit_rv_trap_depth[cpu]) {
		rv_harts[cpu].kick_after_trap = true;
		return;
	}
	rv_ipi_send(cpu, RV_IPI_KICK);
}

void irqkit_arch_cpu_poll(unsigned int cpu)
{
	(void)cpu;
}

/*
 * CPU hotplug.  A CPU is a hart, and the hart stays: what goes is the
 * core's dispatch on it, which is its traps.  Down: from now on a trap of
 * that hart does the port's own work without entering the core (as between
 * runs), and one inside the core ends its handler first.  Its threads keep
 * running there, as a host thread of an offline CPU does on the posix
 * platform; the core keeps them from its interrupts.  Up: traps enter again.
 * Process context, under the core's hotplug lock, the caller not bound to
 * @cpu (remove_cpu refuses that).
 */
int irqkit_arch_cpu_down(unsigned int cpu)
{
	if (cpu >= rv_nr_harts)
		return -IRQKIT_EINVAL;
	__atomic_store_n(&rv_harts[cpu].cpu_off, true, __ATOMIC_SEQ_CST);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	while (__atomic_load_n(&irqkit_rv_trap_depth[cpu], __ATOMIC_ACQUIRE) && cpu != rv_hartid())
		irqkit_arch_cpu_relax();
	return 0;
}

int irqkit_arch_cpu_up(unsigned int cpu)
{
	if (cpu >= rv_nr_harts)
		return -IRQKIT_EINVAL;
	__atomic_store_n(&rv_harts[cpu].cpu_off, false, __ATOMIC_SEQ_CST);
	return 0;
}

/* ---- start and stop ------------------------------------------------------------ */

int irqkit_start(const struct irqkit_config *cfg)
{
	struct irqkit_config c = cfg ? *cfg : (struct irqkit_config){ 0 };
	int ret;

	if (!c.nr_cpus)
		c.nr_cpus = c.mode == IRQKIT_MODE_DETERMINISTIC ? 1 : rv_nr_harts;
	/* deterministic mode's CPUs are played by threads, so need no hart each */
	if (c.mode == IRQKIT_MODE_THREADED && c.nr_cpus > rv_nr_harts) {
		irqkit_printk(IRQKIT_LOG_ERR, "irqkit_start: %u CPUs asked for, the machine has %u harts",
			      c.nr_cpus, rv_nr_harts);
		return -IRQKIT_EINVAL;
	}
	if (c.mode != IRQKIT_MODE_THREADED && c.mode != IRQKIT_MODE_DETERMINISTIC) {
		irqkit_printk(IRQKIT_LOG_ERR,
			      "irqkit_start: mode %u runs on the posix platform's threads, not on bare metal",
			      (unsigned int)c.mode);
		return -IRQKIT_EOPNOTSUPP;
	}
	if (c.loop_cpus) {
		irqkit_printk(IRQKIT_LOG_ERR, "irqkit_start: no program loops play CPUs on bare metal");
		return -IRQKIT_EINVAL;
	}
	ret = irqkit__core_init(&c);
	if (ret)
		return ret;
	if (irqkit__core_deterministic()) {
		/*
		 * The caller plays CPU 0 (moved to hart 0 if it is not there) and
		 * takes its interrupts at its points; no trap enters the core, and
		 * the harts' timers and IPIs serve only the port's own waits.
		 */
		ret = irqkit_thread_bind(0);
		if (ret) {
			irqkit__core_exit();
			return ret;
		}
		irqkit_rv_deterministic = true;
		irqkit__core_started();
		return 0;
	}
	for (unsigned int i = 0; i < c.nr_cpus; i++) {
		irqkit__core_dispatcher_external(i);
		__atomic_store_n(&rv_harts[i].cpu_off, false, __ATOMIC_RELEASE);
	}
	__atomic_store_n(&swappers_bound, 0, __ATOMIC_RELEASE);
	rv_core_up = true;
	__atomic_fetch_add(&start_gen, 1, __ATOMIC_RELEASE);
	/* every swapper binds in its idle loop; the caller binds to CPU 0 below */
	for (unsigned int i = 0; i < rv_nr_harts; i++)
		if (i != rv_hartid())
			rv_ipi_send(i, RV_IPI_RESCHED);
	for (;;) {
		unsigned int n = __atomic_load_n(&swappers_bound, __ATOMIC_ACQUIRE);

		if (n >= rv_nr_harts)
			break;
		irqkit_plat_wait_timeout(&swappers_bound, n, 1000000);
	}
	(void)irqkit_thread_bind(0);	/* as in deterministic mode: on hart 0, whatever ran before */
	irqkit__core_started();
	/* the hart's timer and IPIs as per-CPU lines of the core, each turned on by its CPU */
	ret = rv_intc_start();
	if (ret)
		irqkit_printk(IRQKIT_LOG_ERR, "irqkit_start: no per-CPU lines for the timer and IPIs (%d): the port serves them itself",
			      ret);
	return 0;
}

void irqkit_stop(void)
{
	if (irqkit__core_stop_refused())
		return;
	if (!irqkit__core_stopping())
		return;
	irqkit_rv_deterministic = false;
	rv_intc_stop();
	if (irqkit__core_softirq_stop(2 * irqkit__core_watchdog_ns()))
		return;
	/* no trap enters the core from here on; wait for those inside it */
	rv_core_up = false;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	for (unsigned int i = 0; i < rv_nr_harts; i++)
		while (__atomic_load_n(&irqkit_rv_trap_depth[i], __ATOMIC_ACQUIRE) && i != rv_hartid())
			irqkit_arch_cpu_relax();
	irqkit_arch_timer_program(UINT64_MAX);
	irqkit__core_exit();
}
