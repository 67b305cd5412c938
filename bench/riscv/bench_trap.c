// SPDX-License-Identifier: MIT
/*
 * Instructions on bare metal, counted by minstret under QEMU's -icount
 * (repeatable: bench/riscv.sh).  Each figure is the count from a start
 * point to the first statement of the handler, the minimum and the median
 * of 21 samples:
 *   trap, minimal   a software interrupt taken by a hand-written vector that
 *                   calls one C function (the floor);
 *   trap, irqkit    the same interrupt through the port and the core: a
 *                   software line raised for this hart with interrupts off,
 *                   counted from the local_irq_restore that lets the IPI in
 *                   to its handler (trap entry, the core's delivery, the
 *                   edge flow);
 *   raise, direct   irqkit_sw_raise() to the handler, taken at once on the
 *                   raising thread (interrupts on);
 *   tasklet         tasklet_schedule() in a bottom-half-off section to the
 *                   tasklet's function, run by local_bh_enable().
 */
#include <irqkit/swchip.h>

#include "rvtest.h"

#define LINE		40
#define SAMPLES		21

static inline uint64_t instret(void)
{
	uint64_t v;

	__asm__ __volatile__("csrr %0, minstret" : "=r"(v) : : "memory");
	return v;
}

static volatile uint64_t t_handler;

void bench_minimal_vector(void);
void bench_minimal_handler(void);
void bench_minimal_handler(void)
{
	t_handler = instret();
	*(volatile uint32_t *)0x02000000ul = 0;		/* hart 0's msip */
}

static enum irqkit_irqreturn handler(int irq, void *dev_id)
{
	t_handler = instret();
	(void)irq;
	(void)dev_id;
	return IRQKIT_HANDLED;
}

static void tasklet_fn(unsigned long data)
{
	t_handler = instret();
	(void)data;
}

static void sort(uint64_t *v, int n)
{
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
			uint64_t x = v[j];

			v[j] = v[j - 1];
			v[j - 1] = x;
		}
}

static void report(const char *what, uint64_t *v)
{
	sort(v, SAMPLES);
	rv_printf("%-16s min %4llu  median %4llu instructions\n", what, (unsigned long long)v[0],
		  (unsigned long long)v[SAMPLES / 2]);
}

static uint64_t minimal_trap(void)
{
	unsigned long vec, mie, t0;

	__asm__ __volatile__("csrci mstatus, 8" ::: "memory");
	__asm__ __volatile__("csrr %0, mtvec" : "=r"(vec));
	__asm__ __volatile__("csrr %0, mie" : "=r"(mie));
	__asm__ __volatile__("csrw mtvec, %0" : : "r"(bench_minimal_vector) : "memory");
	__asm__ __volatile__("csrw mie, %0" : : "r"(8ul) : "memory");	/* software interrupts only */
	*(volatile uint32_t *)0x02000000ul = 1;
	t0 = instret();
	__asm__ __volatile__("csrsi mstatus, 8" ::: "memory");	/* taken here */
	__asm__ __volatile__("csrci mstatus, 8" ::: "memory");
	__asm__ __volatile__("csrw mtvec, %0" : : "r"(vec) : "memory");
	__asm__ __volatile__("csrw mie, %0" : : "r"(mie) : "memory");
	__asm__ __volatile__("csrsi mstatus, 8" ::: "memory");
	return t_handler - t0;
}

int irqkit_main(void)
{
	static struct irqkit_tasklet tasklet;
	uint64_t v[SAMPLES];
	int dev;

	CHECK_EQ(irqkit_start(&(struct irqkit_config){ .nr_cpus = 1 }), 0);
	CHECK_EQ(irqkit_swchip_add(LINE, 1, IRQKIT_TYPE_EDGE_RISING), 0);
	CHECK_EQ(irqkit_request_irq(LINE, handler, 0, "bench", &dev), 0);
	irqkit_tasklet_init(&tasklet, tasklet_fn, 0);
	/* warm up every path once */
	(void)minimal_trap();
	CHECK_EQ(irqkit_sw_raise(LINE), 0);

	for (int i = 0; i < SAMPLES; i++)
		v[i] = minimal_trap();
	report("trap, minimal", v);
	for (int i = 0; i < SAMPLES; i++) {
		unsigned long flags = irqkit_local_irq_save();
		uint64_t t0;

		CHECK_EQ(irqkit_sw_raise(LINE), 0);	/* latched; the IPI waits */
		t0 = instret();
		irqkit_local_irq_restore(flags);
		v[i] = t_handler - t0;
	}
	report("trap, irqkit", v);
	for (int i = 0; i < SAMPLES; i++) {
		uint64_t t0 = instret();

		CHECK_EQ(irqkit_sw_raise(LINE), 0);
		v[i] = t_handler - t0;
	}
	report("raise, direct", v);
	for (int i = 0; i < SAMPLES; i++) {
		uint64_t t0;

		irqkit_local_bh_disable();
		t0 = instret();
		irqkit_tasklet_schedule(&tasklet);
		irqkit_local_bh_enable();
		v[i] = t_handler - t0;
	}
	report("tasklet", v);
	irqkit_free_irq(LINE, &dev);
	irqkit_stop();
	return rvtest_result();
}
