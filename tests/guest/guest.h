/* SPDX-License-Identifier: MIT */
/*
 * What every program of the Linux guest's tests shares: its checks, each
 * printed as "ok N - what" or "not ok N - what", the monotonic clock in ms,
 * a bounded wait for a counter, the runtime's log on stdout, and the edu
 * device's registers.
 */
#ifndef IRQKIT_GUEST_H
#define IRQKIT_GUEST_H

#include <irqkit/irqkit.h>

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/*
 * QEMU's edu PCI device (1234:11e8), BAR0: it raises its interrupt while the
 * status register is non-zero; a write to RAISE ORs a value into it, a write
 * to ACK clears those bits.
 */
#define EDU_ID		0x00
#define EDU_STATUS	0x24
#define EDU_RAISE	0x60
#define EDU_ACK		0x64
#define EDU_ID_VALUE	0x010000edu

/*
 * QEMU's e1000e (an 82574, 8086:10d3), BAR0: its interrupt registers and
 * causes.  IVAR routes each queue cause and the "other" causes to an MSI-X
 * vector (a valid bit and the vector, 4 bits a cause); a write of a cause
 * to ICS raises it; with MSI-X on, a driver clears a cause by writing it
 * to ICR.
 */
#define E1000_ICR	0x000c0
#define E1000_ICS	0x000c8
#define E1000_IMS	0x000d0
#define E1000_IMC	0x000d8
#define E1000_EIAC	0x000dc
#define E1000_IVAR	0x000e4
#define ICR_RXQ0	(1u << 20)
#define ICR_RXQ1	(1u << 21)
#define ICR_TXQ0	(1u << 22)
#define ICR_TXQ1	(1u << 23)
#define ICR_OTHER	(1u << 24)
#define ICR_LSC		(1u << 2)	/* link status change: one of the "other" causes */
#define IVAR_VALID	0x8u

/*
 * The edu device's BAR0, mapped by the program, and a handler that
 * acknowledges the device and counts in edu_handled (unused by the programs
 * of other devices).
 */
static volatile uint32_t *edu_bar __attribute__((unused));
static atomic_uint edu_handled __attribute__((unused));

static inline enum irqkit_irqreturn edu_interrupt(int irq, void *dev_id)
{
	uint32_t status = edu_bar[EDU_STATUS / 4];

	(void)irq;
	(void)dev_id;
	if (!status)
		return IRQKIT_NONE;
	edu_bar[EDU_ACK / 4] = status;
	atomic_fetch_add(&edu_handled, 1);
	return IRQKIT_HANDLED;
}

static unsigned int checks, failures;

static inline void check(bool ok, const char *what)
{
	checks++;
	failures += !ok;
	printf("%s %u - %s\n", ok ? "ok" : "not ok", checks, what);
	fflush(stdout);
}

/* irqkit's CPU count: IRQKIT_GUEST_CPUS (the init script's passes), else @dflt. */
static inline unsigned int guest_cpus(unsigned int dflt)
{
	const char *s = getenv("IRQKIT_GUEST_CPUS");

	return s && *s ? (unsigned int)atoi(s) : dflt;
}

/* The program's verdict line (run.sh's init looks at the exit status). Return: the status. */
static inline int verdict(const char *name)
{
	printf("GUEST %s: %s (%u checks, %u failed)\n", name, failures ? "FAIL" : "PASS", checks,
	       failures);
	return failures ? 1 : 0;
}

static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline uint64_t now_ms(void)
{
	return now_ns() / 1000000u;
}

/* Wait until *@v reaches @want or @ms pass; return whether it did. */
static inline bool wait_for(atomic_uint *v, unsigned int want, unsigned int ms)
{
	uint64_t end = now_ms() + ms;

	while (atomic_load(v) < want) {
		if (now_ms() > end)
			return false;
		usleep(50);
	}
	return true;
}

/* irqkit_config.log: the runtime's lines, marked, among the checks. */
static inline void log_line(void *arg, int level, const char *line)
{
	(void)arg;
	printf("  irqkit<%d>: %s\n", level, line);
	fflush(stdout);
}

/*
 * Recording (<irqkit/record.h>) when IRQKIT_GUEST_RECORD_DIR names a
 * directory: line @irq's arrivals from rec_begin() to rec_end() go to
 * DIR/NAME.rec, and rec_end() prints what the chip counted meanwhile
 * ("record: NAME irq N events E lost L"), which a replay on the host must
 * count again (tests/guest/run.sh, tests/chips/test_record.c).
 */
static struct irqkit_irq_events rec_before;

static inline void rec_begin(const char *name, unsigned int irq)
{
	const char *dir = getenv("IRQKIT_GUEST_RECORD_DIR");
	char path[256];

	if (!dir || !*dir)
		return;
	snprintf(path, sizeof(path), "%s/%s.rec", dir, name);
	check(irqkit_irq_get_event_totals(irq, &rec_before) == 0 &&
	      irqkit_record_start(path, &irq, 1) == 0, "recording started");
}

static inline void rec_end(const char *name, unsigned int irq)
{
	struct irqkit_irq_events now;
	long n;

	if (!getenv("IRQKIT_GUEST_RECORD_DIR") || !*getenv("IRQKIT_GUEST_RECORD_DIR"))
		return;
	n = irqkit_record_stop();
	check(n > 0 && irqkit_irq_get_event_totals(irq, &now) == 0, "recording stopped");
	printf("record: %s irq %u events %llu lost %llu (%ld reads)\n", name, irq,
	       (unsigned long long)(now.events - rec_before.events),
	       (unsigned long long)(now.lost - rec_before.lost), n);
}

#endif /* IRQKIT_GUEST_H */
