// SPDX-License-Identifier: MIT
/*
 * A benchmark inside the Linux guest (tests/guest/run.sh), not a test: the
 * UIO interrupt round trip of the edu device under uio_pci_generic --
 * device raise, the interrupt taken, the device acknowledged, the line
 * re-enabled -- through irqkit (a handler on a bound line) against the
 * plain loop a UIO driver writes without it (a blocking read of /dev/uioN,
 * the acknowledgement, the PCI command register's INTx re-enable).  Blocks
 * of each alternate in one run; the medians of the blocks and their ratio
 * are printed ("bench: ..." lines), never asserted: a TCG guest on a shared
 * machine is noisy.
 * Usage: bench_uio UIO_INDEX
 */
#define _GNU_SOURCE
#include <irqkit/irqkit.h>
#include <irqkit/fd.h>

#include "guest.h"

#include <fcntl.h>
#include <sched.h>
#include <string.h>
#include <sys/mman.h>

#define LINE	5
#define BLOCKS	7
#define TRIPS	100

/* @TRIPS round trips without irqkit; return ns per trip, or 0 on a failure. */
static uint64_t plain_block(int fd, int cfg)
{
	uint64_t t0;

	(void)fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);	/* irqkit's bind set it */
	t0 = now_ns();

	for (int i = 0; i < TRIPS; i++) {
		uint32_t count;
		uint16_t cmd;

		edu_bar[EDU_RAISE / 4] = 1;
		if (read(fd, &count, sizeof(count)) != (ssize_t)sizeof(count))
			return 0;
		edu_bar[EDU_ACK / 4] = edu_bar[EDU_STATUS / 4];
		if (pread(cfg, &cmd, sizeof(cmd), 4) != (ssize_t)sizeof(cmd))
			return 0;
		cmd &= (uint16_t)~0x400;
		if (pwrite(cfg, &cmd, sizeof(cmd), 4) != (ssize_t)sizeof(cmd))
			return 0;
	}
	return (now_ns() - t0) / TRIPS;
}

/* The same through irqkit: bound, requested, @TRIPS raises each waited for, freed, unbound. */
static uint64_t irqkit_block(int fd)
{
	uint64_t t0, t;
	int cookie;

	if (irqkit_fd_bind_uio(LINE, fd) ||
	    irqkit_request_irq(LINE, edu_interrupt, 0, "edu-bench", &cookie))
		return 0;
	t0 = now_ns();
	for (unsigned int i = 0; i < TRIPS; i++) {
		unsigned int want = atomic_load(&edu_handled) + 1;
		uint64_t limit = now_ns() + 5000000000ull;

		edu_bar[EDU_RAISE / 4] = 1;
		while (atomic_load(&edu_handled) < want)
			if (now_ns() > limit)
				return 0;
			else
				sched_yield();
	}
	t = (now_ns() - t0) / TRIPS;
	irqkit_free_irq(LINE, &cookie);
	return irqkit_fd_unbind(LINE) ? 0 : t;
}

/* Each block binds the line anew and is told again that the driver has no irqcontrol. */
static void warnings_only(void *arg, int level, const char *line)
{
	if (level <= 4)
		log_line(arg, level, line);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	struct irqkit_config cfg = { .nr_irqs = 16, .nr_cpus = 1, .mode = IRQKIT_MODE_THREADED,
				     .log = warnings_only };
	uint64_t plain[BLOCKS], kit[BLOCKS];
	char path[96];
	int fd, res, conf;

	snprintf(path, sizeof(path), "/dev/uio%s", argc > 1 ? argv[1] : "0");
	fd = open(path, O_RDWR | O_CLOEXEC);
	snprintf(path, sizeof(path), "/sys/class/uio/uio%s/device/resource0", argc > 1 ? argv[1] : "0");
	res = open(path, O_RDWR | O_SYNC | O_CLOEXEC);
	snprintf(path, sizeof(path), "/sys/class/uio/uio%s/device/config", argc > 1 ? argv[1] : "0");
	conf = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0 || res < 0 || conf < 0 || irqkit_start(&cfg)) {
		printf("bench: uio set-up failed\n");
		return 1;
	}
	edu_bar = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE, MAP_SHARED, res, 0);
	if (edu_bar == MAP_FAILED) {
		printf("bench: cannot map BAR0\n");
		return 1;
	}
	/* the kernel masks INTx at each interrupt: start from a re-enabled line */
	{
		uint16_t cmd;

		if (pread(conf, &cmd, sizeof(cmd), 4) == (ssize_t)sizeof(cmd)) {
			cmd &= (uint16_t)~0x400;
			(void)!pwrite(conf, &cmd, sizeof(cmd), 4);
		}
	}
	for (int b = 0; b < BLOCKS; b++) {
		plain[b] = plain_block(fd, conf);
		kit[b] = irqkit_block(fd);
		if (!plain[b] || !kit[b]) {
			printf("bench: block %d failed (plain %llu, irqkit %llu)\n", b,
			       (unsigned long long)plain[b], (unsigned long long)kit[b]);
			return 1;
		}
	}
	qsort(plain, BLOCKS, sizeof(plain[0]), cmp_u64);
	qsort(kit, BLOCKS, sizeof(kit[0]), cmp_u64);
	printf("bench: UIO round trip (edu raise, interrupt, ack, INTx re-enable), %d blocks of %d, "
	       "medians: plain read loop %llu us, irqkit %llu us, ratio %.2f\n", BLOCKS, TRIPS,
	       (unsigned long long)plain[BLOCKS / 2] / 1000, (unsigned long long)kit[BLOCKS / 2] / 1000,
	       (double)kit[BLOCKS / 2] / (double)plain[BLOCKS / 2]);
	irqkit_stop();
	return 0;
}
