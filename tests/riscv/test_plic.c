// SPDX-License-Identifier: MIT
/*
 * Real interrupts from the PLIC: the 16550 UART's receive interrupt (source
 * 10 on QEMU virt, a level line while data waits), fed from
 * test_plic.input.  A handler that returns IRQ_NONE without reading the data
 * leaves the line asserted until the core finds that nobody cared and
 * disables it; the machine stays responsive.  Then the line shared by a
 * handler that declines and one that reads, disable_irq/enable_irq on the
 * source with data waiting, the source moved to another hart, and
 * synchronize_irq from one hart while the handler runs on another.  The
 * checks are on content and on what ran where, never on counts of
 * interrupts that depend on when the bytes arrived.
 */
#include <irqkit/arch/rv.h>
#include <irqkit/plic.h>
#include <irqkit/irqdomain.h>
#include <irqkit/swchip.h>

#include "rvtest.h"

#define UART		0x10000000ul
#define UART_RBR	0
#define UART_IER	1
#define UART_LSR	5
#define UART_SOURCE	10

static unsigned int nr_cpus, uart_irq;

static uint8_t uart_rd(unsigned int reg)
{
	return *(volatile uint8_t *)(UART + reg);
}

static void uart_wr(unsigned int reg, uint8_t v)
{
	*(volatile uint8_t *)(UART + reg) = v;
}

/* ---- 1. nobody cared --------------------------------------------------------------- */

static unsigned long ignored;

/*
 * A broken handler: it masks the device's receive interrupt while it works
 * and unmasks it at the end, as 8250 drivers do, but reads nothing and says
 * IRQ_NONE.  The data stays, so the line stays asserted.  (The unmask also
 * signals the line again: QEMU 7.2's PLIC re-pends a level source when its
 * device signals it, where a real gateway re-requests a level that is still
 * high after the completion.)
 */
static enum irqkit_irqreturn ignore_rx(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	ignored++;
	uart_wr(UART_IER, 0);
	uart_wr(UART_IER, 1);
	return IRQKIT_NONE;
}

static void test_nobody_cared(void)
{
	char want[64];
	unsigned int i = 0;
	unsigned long j0;
	int dummy;

	CHECK_EQ(irqkit_request_irq(uart_irq, ignore_rx, 0, "uart-ignore", &dummy), 0);
	uart_wr(UART_IER, 1);		/* receive interrupt on: data is waiting */
	for (i = 0; i < 1000 && !(irqkit_irqd_state(irqkit_irq_get_irq_data(uart_irq)) &
				  IRQKIT_IRQD_DISABLED); i++)
		irqkit_msleep(10);
	CHECK(irqkit_irqd_state(irqkit_irq_get_irq_data(uart_irq)) & IRQKIT_IRQD_DISABLED);
	CHECK(ignored >= 99900);
	/* Linux's words */
	want[0] = '\0';
	{
		char *w = want;
		const char *a = "irq ";
		unsigned int n = uart_irq, d = 1;

		while (*a)
			*w++ = *a++;
		while (n / d >= 10)
			d *= 10;
		for (; d; d /= 10)
			*w++ = (char)('0' + n / d % 10);
		a = ": nobody cared";
		while (*a)
			*w++ = *a++;
		*w = '\0';
	}
	CHECK(rvtest_log_has(want));
	CHECK(rvtest_log_has("Disabling IRQ #"));
	CHECK(rvtest_log_has("] ignore_rx"));		/* the handler named, from the image's table of names */
	/* the machine goes on: time moves, sleeps end */
	j0 = irqkit_jiffies();
	irqkit_msleep(20);
	CHECK(irqkit_jiffies() - j0 >= 20 * irqkit_hz() / 1000);
	uart_wr(UART_IER, 0);
	irqkit_free_irq(uart_irq, &dummy);
	rv_printf("  %lu interrupts nobody handled before the line was disabled\n", ignored);
}

/* ---- 2-5. a reader ------------------------------------------------------------------ */

struct reader {
	char		line[64];
	unsigned int	len;
	bool		done;
	unsigned int	cpu;		/* where the handler ran */
	unsigned int	calls;
	unsigned long	delay_us;	/* a slow handler (synchronize_irq) */
	volatile bool	running;
	volatile bool	seen;		/* the waiter saw it running */
	bool		armed;		/* a test waits for a line: read it */
	struct irqkit_completion complete;
};
static struct reader rd;
static unsigned int declined;

static enum irqkit_irqreturn decline_rx(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	declined++;
	return IRQKIT_NONE;
}

/* Read what waits; at a newline the device's interrupt goes off and the line is done. */
static enum irqkit_irqreturn read_rx(int irq, void *dev_id)
{
	struct reader *r = dev_id;
	bool got = false;

	(void)irq;
	/* a late call for a test that got its line (claimed before the device went quiet) */
	if (!__atomic_load_n(&r->armed, __ATOMIC_ACQUIRE))
		return IRQKIT_NONE;
	r->running = true;
	r->calls++;
	r->cpu = (unsigned int)irqkit_smp_processor_id();
	while (!r->done && (uart_rd(UART_LSR) & 1)) {
		char c = (char)uart_rd(UART_RBR);

		got = true;
		if (c == '\n') {
			r->done = true;
			__atomic_store_n(&r->armed, false, __ATOMIC_RELEASE);
			uart_wr(UART_IER, 0);
			irqkit_complete(&r->complete);
			if (r->delay_us) {
				/* held until the waiter has seen it running, then a while more */
				for (int i = 0; i < 5000 && !r->seen; i++)
					irqkit_udelay(1000);
				irqkit_udelay(r->delay_us);
			}
		} else if (r->len < sizeof(r->line) - 1) {
			r->line[r->len++] = c;
		}
	}
	r->running = false;
	return IRQKIT_RETVAL(got);
}

/* Before a test changes the reader: no call of the last one is still running anywhere. */
static void reader_reset(void)
{
	__atomic_store_n(&rd.armed, false, __ATOMIC_RELEASE);
	irqkit_synchronize_irq(uart_irq);
	rd.len = 0;
	rd.done = false;
	rd.calls = 0;
	rd.cpu = ~0u;
	rd.seen = false;
	__builtin_memset(rd.line, 0, sizeof(rd.line));
	irqkit_init_completion(&rd.complete);
}

/* The test's settings made: the reader may read, the device may interrupt. */
static void reader_arm(void)
{
	__atomic_store_n(&rd.armed, true, __ATOMIC_RELEASE);
	uart_wr(UART_IER, 1);
}

static bool line_is(const char *want)
{
	size_t n = 0;

	while (want[n])
		n++;
	return rd.len == n && !__builtin_memcmp(rd.line, want, n);
}

static void test_shared_line(void)
{
	int other;

	reader_reset();
	CHECK_EQ(irqkit_request_irq(uart_irq, decline_rx, IRQKIT_F_SHARED, "uart-other", &other), 0);
	CHECK_EQ(irqkit_request_irq(uart_irq, read_rx, IRQKIT_F_SHARED, "uart-read", &rd), 0);
	reader_arm();
	CHECK(irqkit_wait_for_completion_timeout(&rd.complete, 10 * irqkit_hz()) != 0);
	CHECK(line_is("first line"));
	CHECK(declined >= 1);		/* both handlers of the shared line ran */
	CHECK_EQ(rd.cpu, 0);
	irqkit_free_irq(uart_irq, &other);
	rv_printf("  read \"%s\" in %u interrupts\n", rd.line, rd.calls);
}

static void test_disable_enable(void)
{
	bool pending = false;

	reader_reset();
	irqkit_disable_irq(uart_irq);
	reader_arm();			/* the device asserts: data is waiting */
	irqkit_msleep(50);
	CHECK_EQ(rd.calls, 0);		/* disabled at the PLIC: nothing ran */
	CHECK_EQ(irqkit_irq_get_irqchip_state(uart_irq, IRQKIT_CHIPSTATE_PENDING, &pending), 0);
	CHECK(pending);			/* the gateway holds it */
	irqkit_enable_irq(uart_irq);
	CHECK(irqkit_wait_for_completion_timeout(&rd.complete, 10 * irqkit_hz()) != 0);
	CHECK(line_is("second line"));
}

static void test_affinity(void)
{
	unsigned int target = nr_cpus - 1;

	reader_reset();
	CHECK_EQ(irqkit_irq_set_affinity(uart_irq, 1ull << target), 0);
	reader_arm();
	CHECK(irqkit_wait_for_completion_timeout(&rd.complete, 10 * irqkit_hz()) != 0);
	CHECK(line_is("third line"));
	CHECK_EQ(rd.cpu, target);
}

/* synchronize_irq on hart 0 waits for the handler running on the last hart. */
static void test_synchronize_across_harts(void)
{
	reader_reset();
	rd.seen = nr_cpus == 1;		/* one hart: the handler runs on the waiter's, in a trap */
	rd.delay_us = 100000;		/* the handler holds on 100 ms after we saw it */
	reader_arm();
	CHECK(irqkit_wait_for_completion_timeout(&rd.complete, 10 * irqkit_hz()) != 0);
	if (nr_cpus > 1)
		CHECK(rd.running);	/* completed from inside the handler, on the other hart */
	rd.seen = true;
	irqkit_synchronize_irq(uart_irq);
	CHECK(!rd.running);
	CHECK(line_is("fourth line"));
	rd.delay_us = 0;
	irqkit_free_irq(uart_irq, &rd);
}

/* The PLIC's registers, for what a driver never does: enable a source behind the core's back. */
#define PLIC		0x0c000000ul
#define PLIC_PRIORITY(src)	(PLIC + 4ul * (src))
#define PLIC_ENABLE0	(PLIC + 0x2000ul)	/* hart 0's machine-mode context */

static uint32_t plic_rd(unsigned long a)
{
	return *(volatile uint32_t *)a;
}

static void plic_wr(unsigned long a, uint32_t v)
{
	*(volatile uint32_t *)a = v;
}

/*
 * A source that fires with no handler (enabled at the PLIC behind the
 * core's back, as firmware may leave one): the fasteoi flow completes it,
 * and since the line is disabled the completion leaves the source off at
 * the PLIC (Linux's flow and PLIC driver do the same).  A level line is not
 * resent in software (Linux's rule: the hardware asserts it again), so the
 * handler requested later reads the data once its device signals: on a
 * real PLIC the gateway forwards the level still high when the source is
 * enabled; QEMU 7.2's waits for the device, which the driver's start-up
 * gives it.
 */
static void test_source_without_action(void)
{
	unsigned int i;

	reader_reset();
	CHECK_EQ(irqkit_irq_set_affinity(uart_irq, 1), 0);
	plic_wr(PLIC_PRIORITY(UART_SOURCE), 1);
	plic_wr(PLIC_ENABLE0, plic_rd(PLIC_ENABLE0) | (1u << UART_SOURCE));
	uart_wr(UART_IER, 1);
	for (i = 0; i < 500 && (plic_rd(PLIC_ENABLE0) & (1u << UART_SOURCE)); i++)
		irqkit_msleep(2);
	/* off at the PLIC again: the line is disabled, so its completion left it so */
	CHECK_EQ(plic_rd(PLIC_ENABLE0) & (1u << UART_SOURCE), 0);
	CHECK_EQ(rd.calls, 0);
	__atomic_store_n(&rd.armed, true, __ATOMIC_RELEASE);
	CHECK_EQ(irqkit_request_irq(uart_irq, read_rx, 0, "uart-late", &rd), 0);
	/* the driver's start-up programs its device's interrupt (8250's writes IER) */
	uart_wr(UART_IER, 0);
	uart_wr(UART_IER, 1);
	CHECK(irqkit_wait_for_completion_timeout(&rd.complete, 10 * irqkit_hz()) != 0);
	CHECK(line_is("fifth line"));
	irqkit_free_irq(uart_irq, &rd);
}

/*
 * A source with no line at all: the claim loop says so (Linux's words) and
 * leaves it claimed, so it does not come back; the machine goes on.
 */
static void test_source_without_mapping(void)
{
	unsigned long j0;
	unsigned int i;

	irqkit_irq_dispose_mapping(uart_irq);
	CHECK_EQ(irqkit_irq_find_mapping(irqkit_plic_domain(), UART_SOURCE), 0);
	plic_wr(PLIC_PRIORITY(UART_SOURCE), 1);
	plic_wr(PLIC_ENABLE0, plic_rd(PLIC_ENABLE0) | (1u << UART_SOURCE));
	uart_wr(UART_IER, 1);		/* "sixth line" waits: the source fires */
	for (i = 0; i < 500 && !rvtest_log_has("can't find mapping for hwirq 10"); i++)
		irqkit_msleep(2);
	CHECK(rvtest_log_has("plic: can't find mapping for hwirq 10"));
	j0 = irqkit_jiffies();
	irqkit_msleep(20);
	CHECK(irqkit_jiffies() - j0 >= 20 * irqkit_hz() / 1000);
	uart_wr(UART_IER, 0);
}

/*
 * The PLIC chained under the hart's external line, as Linux's driver sets
 * it up: the parent is a per-CPU line that nobody may request, on on every
 * CPU (turned on by the PLIC's hotplug state on each), and its flow is the
 * claim loop.  A parent that is not per-CPU is refused.
 */
static void check_chained(unsigned int ext)
{
	static int dev;

	CHECK(ext != 0);
	CHECK_EQ(irqkit_request_irq(ext, ignore_rx, 0, "parent", &dev), -IRQKIT_EINVAL);
	for (unsigned int c = 0; c < nr_cpus; c++) {
		CHECK_EQ(irqkit_thread_bind(c), 0);
		CHECK(irqkit_irq_percpu_is_enabled(ext));
	}
	CHECK_EQ(irqkit_thread_bind(0), 0);
}

/*
 * Without a parent the claim loop is the CPUs' root handler.  No input is
 * needed: the UART's transmitter-empty interrupt is asserted as soon as it
 * is enabled, and the handler turns it off.
 */
static unsigned int thre_calls, thre_not_hardirq;

static enum irqkit_irqreturn thre_handler(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	thre_calls++;
	thre_not_hardirq += !irqkit_in_hardirq();
	uart_wr(UART_IER, 0);
	return IRQKIT_HANDLED;
}

static void test_root_handler_without_parent(void)
{
	struct irqkit_config cfg = { .log = rvtest_capture };
	struct irqkit_plic_config pc = { .base = 0x0c000000, .nr_sources = 95,
					 .ctx_per_cpu = 2, .ctx_first = 0 };
	unsigned int irq;
	int dev;

	CHECK_EQ(irqkit_start(&cfg), 0);
	CHECK_EQ(irqkit_plic_init(&pc), 0);
	CHECK(!irqkit_irq_percpu_is_enabled(irqkit_rv_ext_irq()));
	irq = irqkit_irq_create_mapping_affinity(irqkit_plic_domain(), UART_SOURCE, NULL);
	CHECK(irq != 0);
	CHECK_EQ(irqkit_request_irq(irq, thre_handler, 0, "uart-thre", &dev), 0);
	uart_wr(UART_IER, 2);
	for (int i = 0; i < 500 && !thre_calls; i++)
		irqkit_msleep(2);
	CHECK_EQ(thre_calls, 1);
	CHECK_EQ(thre_not_hardirq, 0);
	irqkit_free_irq(irq, &dev);
	irqkit_stop();
}

int irqkit_main(void)
{
	struct irqkit_config cfg = { .log = rvtest_capture };
	struct irqkit_plic_config pc = { .base = 0x0c000000, .nr_sources = 95,
					 .ctx_per_cpu = 2, .ctx_first = 0 };

	/* first: the last test leaves the UART's source claimed, as Linux would */
	RUN(test_root_handler_without_parent);
	CHECK_EQ(irqkit_start(&cfg), 0);
	nr_cpus = irqkit_nr_cpus();
	pc.parent_irq = irqkit_rv_ipi_irq();	/* per-CPU, but taken */
	CHECK_EQ(irqkit_plic_init(&pc), -IRQKIT_EBUSY);
	pc.parent_irq = 40;			/* no per-CPU line */
	CHECK_EQ(irqkit_plic_init(&pc), -IRQKIT_EINVAL);
	CHECK(rvtest_log_has("plic: parent irq 40 is not a per-CPU line"));
	pc.parent_irq = irqkit_rv_ext_irq();
	CHECK_EQ(irqkit_plic_init(&pc), 0);
	CHECK_EQ(irqkit_plic_init(&pc), -IRQKIT_EBUSY);
	check_chained(pc.parent_irq);
	uart_irq = irqkit_irq_create_mapping_affinity(irqkit_plic_domain(), UART_SOURCE, NULL);
	CHECK(uart_irq != 0);
	RUN(test_nobody_cared);
	RUN(test_shared_line);
	RUN(test_disable_enable);
	RUN(test_affinity);
	RUN(test_synchronize_across_harts);
	RUN(test_source_without_action);
	RUN(test_source_without_mapping);
	for (unsigned int c = 0; c < nr_cpus; c++)
		rv_printf("  cpu %u: %lu spurious claims\n", c, irqkit_plic_spurious_claims(c));
	irqkit_stop();
	return rvtest_result();
}
