// SPDX-License-Identifier: MIT
/*
 * A benchmark inside the Linux guest (tests/guest/run.sh), not a test, of
 * the edu device under uio_pci_generic through irqkit against the plain
 * loop a UIO driver writes without it (a blocking read of /dev/uioN, the
 * acknowledgement, the PCI command register's INTx re-enable).  Like for
 * like: irqkit's CPU is played by the same single thread (a loop CPU,
 * irqkit_loop_fd() and irqkit_loop_run()), which sleeps in poll() where the
 * plain loop sleeps in read(), so each side is one thread that the
 * interrupt wakes.
 *  - round trip: the thread raises, sleeps until the interrupt, acks and
 *    re-enables (irqkit: the handler acks, the chip re-enables);
 *  - burst: a second thread raises as fast as it can for 300 ms; the
 *    interrupts the driver side took per second (the device's level folds
 *    the raises that come while one is pending).
 * Blocks of each alternate in one run; the medians and their ratios are
 * printed ("bench: ..." lines), never asserted: a TCG guest on a shared
 * machine is noisy.
 * Usage: bench_uio UIO_INDEX
 */
#define _GNU_SOURCE
#include <irqkit/irqkit.h>
#include <irqkit/fd.h>

#include "guest.h"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <sys/mman.h>

#define LINE	5
#define BLOCKS	7
#define TRIPS	100
#define BURST_MS 300

/* The plain driver's interrupt: a blocking read of the count, the ack, the re-enable. */
static bool plain_interrupt(int fd, int cfg)
{
	uint32_t count;
	uint16_t cmd;

	if (read(fd, &count, sizeof(count)) != (ssize_t)sizeof(count))
		return false;
	edu_bar[EDU_ACK / 4] = edu_bar[EDU_STATUS / 4];
	if (pread(cfg, &cmd, sizeof(cmd), 4) != (ssize_t)sizeof(cmd))
		return false;
	cmd &= (uint16_t)~0x400;
	return pwrite(cfg, &cmd, sizeof(cmd), 4) == (ssize_t)sizeof(cmd);
}

/* irqkit's: sleep until the loop CPU has something, then let it deliver (5 s at most). */
static bool irqkit_interrupt(void)
{
	unsigned int want = atomic_load(&edu_handled) + 1;
	struct pollfd p = { .fd = irqkit_loop_fd(0), .events = POLLIN };
	uint64_t limit = now_ns() + 5000000000ull;

	while (atomic_load(&edu_handled) < want) {
		if (now_ns() > limit || poll(&p, 1, 100) < 0 || irqkit_loop_run() < 0)
			return false;
	}
	return true;
}

/* @TRIPS round trips without irqkit; return ns per trip, or 0 on a failure. */
static uint64_t plain_block(int fd, int cfg)
{
	uint64_t t0;

	(void)fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);	/* irqkit's bind set it */
	t0 = now_ns();
	for (int i = 0; i < TRIPS; i++) {
		edu_bar[EDU_RAISE / 4] = 1;
		if (!plain_interrupt(fd, cfg))
			return 0;
	}
	return (now_ns() - t0) / TRIPS;
}

static int cookie;

static bool irqkit_on(int fd)
{
	return !irqkit_fd_bind_uio(LINE, fd) &&
	       !irqkit_request_irq(LINE, edu_interrupt, 0, "edu-bench", &cookie);
}

static bool irqkit_off(void)
{
	irqkit_free_irq(LINE, &cookie);
	return !irqkit_fd_unbind(LINE);
}

/* The same through irqkit: bound, requested, @TRIPS raises each waited for, freed, unbound. */
static uint64_t irqkit_block(int fd)
{
	uint64_t t0, t;

	if (!irqkit_on(fd))
		return 0;
	t0 = now_ns();
	for (unsigned int i = 0; i < TRIPS; i++) {
		edu_bar[EDU_RAISE / 4] = 1;
		if (!irqkit_interrupt())
			return 0;
	}
	t = (now_ns() - t0) / TRIPS;
	return irqkit_off() ? t : 0;
}

/* ---- burst: a device thread raising as fast as it can ---------------------------- */

static atomic_bool raising;

static void *raiser(void *arg)
{
	(void)arg;
	while (atomic_load(&raising))
		edu_bar[EDU_RAISE / 4] = 1;
	return NULL;
}

/*
 * Interrupts per second the driver side takes while the raiser runs: @take
 * serves one; the raiser stops only after the last one was taken, so the
 * blocking read always has one coming.
 */
static uint64_t burst_block(bool (*take)(int, int), int fd, int cfg)
{
	pthread_t t;
	uint64_t t0, n = 0, ns;
	bool ok = true;

	atomic_store(&raising, true);
	if (pthread_create(&t, NULL, raiser, NULL))
		return 0;
	t0 = now_ns();
	while (ok && now_ns() - t0 < BURST_MS * 1000000ull) {
		ok = take(fd, cfg);
		n++;
	}
	ns = now_ns() - t0;
	atomic_store(&raising, false);
	pthread_join(t, NULL);
	edu_bar[EDU_ACK / 4] = edu_bar[EDU_STATUS / 4];
	return ok ? n * 1000000000ull / ns : 0;
}

static bool irqkit_take(int fd, int cfg)
{
	(void)fd;
	(void)cfg;
	return irqkit_interrupt();
}

static uint64_t plain_burst(int fd, int cfg)
{
	(void)fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return burst_block(plain_interrupt, fd, cfg);
}

static uint64_t irqkit_burst(int fd, int cfg)
{
	uint64_t r;

	if (!irqkit_on(fd))
		return 0;
	r = burst_block(irqkit_take, fd, cfg);
	return irqkit_off() ? r : 0;
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
				     .log = warnings_only, .loop_cpus = 1 };
	uint64_t plain[BLOCKS], kit[BLOCKS], plain_b[BLOCKS], kit_b[BLOCKS];
	char path[96];
	int fd, res, conf;

	snprintf(path, sizeof(path), "/dev/uio%s", argc > 1 ? argv[1] : "0");
	fd = open(path, O_RDWR | O_CLOEXEC);
	snprintf(path, sizeof(path), "/sys/class/uio/uio%s/device/resource0", argc > 1 ? argv[1] : "0");
	res = open(path, O_RDWR | O_SYNC | O_CLOEXEC);
	snprintf(path, sizeof(path), "/sys/class/uio/uio%s/device/config", argc > 1 ? argv[1] : "0");
	conf = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0 || res < 0 || conf < 0 || irqkit_start(&cfg) || irqkit_thread_bind(0)) {
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
		plain_b[b] = plain_burst(fd, conf);
		kit_b[b] = irqkit_burst(fd, conf);
		if (!plain[b] || !kit[b] || !plain_b[b] || !kit_b[b]) {
			printf("bench: block %d failed (plain %llu, irqkit %llu, bursts %llu, %llu)\n",
			       b, (unsigned long long)plain[b], (unsigned long long)kit[b],
			       (unsigned long long)plain_b[b], (unsigned long long)kit_b[b]);
			return 1;
		}
	}
	qsort(plain, BLOCKS, sizeof(plain[0]), cmp_u64);
	qsort(kit, BLOCKS, sizeof(kit[0]), cmp_u64);
	qsort(plain_b, BLOCKS, sizeof(plain_b[0]), cmp_u64);
	qsort(kit_b, BLOCKS, sizeof(kit_b[0]), cmp_u64);
	printf("bench: UIO round trip (edu raise, interrupt, ack, INTx re-enable), %d blocks of %d, "
	       "medians: plain read loop %llu us, irqkit (loop CPU) %llu us, ratio %.2f\n", BLOCKS,
	       TRIPS, (unsigned long long)plain[BLOCKS / 2] / 1000,
	       (unsigned long long)kit[BLOCKS / 2] / 1000,
	       (double)kit[BLOCKS / 2] / (double)plain[BLOCKS / 2]);
	printf("bench: UIO burst (a thread raising for %d ms), %d blocks, medians: plain read loop "
	       "%llu interrupts/s, irqkit (loop CPU) %llu/s, ratio %.2f\n", BURST_MS, BLOCKS,
	       (unsigned long long)plain_b[BLOCKS / 2], (unsigned long long)kit_b[BLOCKS / 2],
	       (double)kit_b[BLOCKS / 2] / (double)plain_b[BLOCKS / 2]);
	irqkit_stop();
	return 0;
}
