// SPDX-License-Identifier: MIT
/*
 * Inside the Linux guest (tests/guest/run.sh): QEMU's edu PCI device under
 * the kernel's uio_pci_generic, its INTx taken through irqkit's UIO source
 * (irqkit_fd_bind_uio) on a threaded-mode runtime, nothing mocked.
 *
 * The edu device raises INTx while its status register (0x24) is non-zero:
 * a write to 0x60 ORs a value into it, a write to 0x64 clears those bits.
 * uio_pci_generic has no irqcontrol: its kernel handler sets the INTx
 * disable bit of the PCI command register as it takes the interrupt, and
 * the UIO source must clear it after the handler, as that driver's users
 * do (the write of 1 that other UIO drivers take fails with ENOSYS here).
 *
 * Then a threaded bottom half (the re-enable comes after the thread), and
 * bad input: the device unbound from its driver under a requested line.
 *
 * Prints one "ok N - what" or "not ok N - what" line per check, then
 * "GUEST uio_edu: PASS" or "GUEST uio_edu: FAIL"; exits 0 on a pass.
 * Usage: uio_edu [UIO_INDEX]   (default 0)
 */
#define _GNU_SOURCE
#include <irqkit/irqkit.h>
#include <irqkit/fd.h>

#include "guest.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define LINE		5

static volatile uint32_t *bar;
static atomic_uint handled, declined;
static atomic_bool ack;			/* the handler acknowledges the device */

static uint32_t rd(unsigned int off)
{
	return bar[off / 4];
}

static void wr(unsigned int off, uint32_t v)
{
	bar[off / 4] = v;
}

/* The top half: whose interrupt is it?  Acknowledge it (while told to), or decline. */
static enum irqkit_irqreturn edu_ack_if_told(int irq, void *dev_id)
{
	uint32_t status = rd(EDU_STATUS);

	(void)irq;
	(void)dev_id;
	if (!status || !atomic_load(&ack)) {
		atomic_fetch_add(&declined, 1);
		return IRQKIT_NONE;
	}
	wr(EDU_ACK, status);
	atomic_fetch_add(&handled, 1);
	return IRQKIT_HANDLED;
}

/*
 * The same device with a threaded bottom half: the top half acknowledges
 * the device and wakes the thread; the thread reads the PCI command
 * register: the INTx disable bit the kernel set must still be set, since
 * the re-enable comes only once the thread is done.
 */
static int cfg_fd;
static atomic_uint threaded, masked_in_thread;

static enum irqkit_irqreturn edu_top_half(int irq, void *dev_id)
{
	uint32_t status = rd(EDU_STATUS);

	(void)irq;
	(void)dev_id;
	if (!status)
		return IRQKIT_NONE;
	wr(EDU_ACK, status);
	return IRQKIT_WAKE_THREAD;
}

static enum irqkit_irqreturn edu_bottom_half(int irq, void *dev_id)
{
	uint16_t cmd = 0;

	(void)irq;
	(void)dev_id;
	if (pread(cfg_fd, &cmd, sizeof(cmd), 4) == (ssize_t)sizeof(cmd) && (cmd & 0x400))
		atomic_fetch_add(&masked_in_thread, 1);
	atomic_fetch_add(&threaded, 1);
	return IRQKIT_HANDLED;
}

int main(int argc, char **argv)
{
	unsigned int idx = argc > 1 ? (unsigned int)atoi(argv[1]) : 0, i;
	struct irqkit_config cfg = { .nr_irqs = 16, .nr_cpus = guest_cpus(1),
				     .mode = IRQKIT_MODE_THREADED,
				     .log = log_line };
	struct irqkit_irq_events tot;
	struct irqkit_irq_info info;
	char path[96];
	int fd, res, dev;
	bool ok;

	snprintf(path, sizeof(path), "/dev/uio%u", idx);
	fd = open(path, O_RDWR | O_CLOEXEC);
	snprintf(path, sizeof(path), "/sys/class/uio/uio%u/device/resource0", idx);
	res = open(path, O_RDWR | O_SYNC | O_CLOEXEC);
	if (fd < 0 || res < 0) {
		printf("cannot open /dev/uio%u or its BAR0: %s\nGUEST uio_edu: FAIL\n", idx,
		       strerror(errno));
		return 1;
	}
	bar = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE, MAP_SHARED, res, 0);
	if (bar == MAP_FAILED) {
		printf("cannot map BAR0: %s\nGUEST uio_edu: FAIL\n", strerror(errno));
		return 1;
	}
	check(rd(EDU_ID) == EDU_ID_VALUE, "BAR0 is the edu device's (0x010000ed)");
	printf("  irqkit: threaded, %u CPU(s)\n", cfg.nr_cpus);
	check(irqkit_start(&cfg) == 0, "irqkit_start");
	check(irqkit_fd_bind_uio(LINE, fd) == 0, "irqkit_fd_bind_uio");
	rec_begin("uio", LINE);
	atomic_store(&ack, true);
	check(irqkit_request_irq(LINE, edu_ack_if_told, 0, "edu", &dev) == 0, "request_irq");

	/* one at a time: each raise is handled, through the re-enable of the last */
	ok = true;
	for (i = 0; i < 200 && ok; i++) {
		wr(EDU_RAISE, 1);
		ok = wait_for(&handled, i + 1, 5000);
	}
	check(ok && atomic_load(&handled) == 200, "200 raises one at a time: 200 handled");
	check(rd(EDU_STATUS) == 0, "the device is acknowledged");

	/* a burst: raises while one is pending fold into the level the device holds */
	{
		unsigned int before = atomic_load(&handled);

		for (i = 0; i < 50; i++)
			wr(EDU_RAISE, 1u << (i % 8));
		ok = wait_for(&handled, before + 1, 5000);
		usleep(200000);
		printf("  burst of 50: %u handled\n", atomic_load(&handled) - before);
		check(ok && atomic_load(&handled) - before <= 50 && rd(EDU_STATUS) == 0,
		      "a burst of 50: between 1 and 50 handled, the device acknowledged");
	}
	check(irqkit_irq_get_event_totals(LINE, &tot) == 0, "event totals");
	printf("  totals: events %llu, coalesced %llu, lost %llu (the UIO count's gaps)\n",
	       (unsigned long long)tot.events, (unsigned long long)tot.coalesced,
	       (unsigned long long)tot.lost);
	check(tot.events >= atomic_load(&handled), "the UIO count covers every handled interrupt");
	rec_end("uio", LINE);

	/*
	 * Nobody acknowledges: the device keeps INTx asserted; the kernel's
	 * handler masks it each time and the re-enable lets it in again, until
	 * irqkit's spurious detection disables the line (the kernel's own
	 * handler says IRQ_HANDLED each time: the kernel stays calm).
	 */
	atomic_store(&ack, false);
	wr(EDU_RAISE, 0x100);
	{
		uint64_t end = now_ms() + 120000;

		do {
			usleep(10000);
			(void)irqkit_irq_get_info(LINE, &info);
		} while (!info.spurious_disabled && now_ms() < end);
	}
	printf("  declined %u times\n", atomic_load(&declined));
	check(info.spurious_disabled, "a device nobody acknowledges: the line disabled (nobody cared)");
	wr(EDU_ACK, rd(EDU_STATUS));
	irqkit_free_irq(LINE, &dev);

	/* a threaded bottom half: the re-enable follows the thread, not the top half */
	snprintf(path, sizeof(path), "/sys/class/uio/uio%u/device/config", idx);
	cfg_fd = open(path, O_RDONLY | O_CLOEXEC);
	check(irqkit_request_threaded_irq(LINE, edu_top_half, edu_bottom_half, IRQKIT_F_ONESHOT,
					  "edu-threaded", &dev) == 0, "request_threaded_irq");
	ok = cfg_fd >= 0;
	for (i = 0; i < 100 && ok; i++) {
		wr(EDU_RAISE, 1);
		ok = wait_for(&threaded, i + 1, 5000);
	}
	printf("  threaded: %u bottom halves, %u saw INTx still disabled\n", atomic_load(&threaded),
	       atomic_load(&masked_in_thread));
	check(ok && atomic_load(&threaded) == 100, "100 raises: 100 bottom halves");
	check(atomic_load(&masked_in_thread) == atomic_load(&threaded),
	      "each bottom half ran with the kernel's INTx disable still set: re-enabled after it");

	/*
	 * Bad input: the device unbound from its driver while the line is
	 * requested.  The UIO descriptor fails; irqkit reports it and disables
	 * the line, and nothing hangs.
	 */
	{
		int unbind = open("/sys/bus/pci/drivers/uio_pci_generic/unbind", O_WRONLY);
		const char *addr = "0000:00:03.0";

		check(unbind >= 0 && write(unbind, addr, strlen(addr)) == (ssize_t)strlen(addr),
		      "the device unbound from uio_pci_generic under a requested line");
		if (unbind >= 0)
			close(unbind);
		for (i = 0; i < 500; i++) {
			(void)irqkit_irq_get_info(LINE, &info);
			if (info.disabled)
				break;
			usleep(10000);
		}
		check(info.disabled, "the line is disabled, with a report");
	}
	irqkit_free_irq(LINE, &dev);
	check(irqkit_fd_unbind(LINE) == 0, "irqkit_fd_unbind");
	irqkit_stop();
	close(fd);
	return verdict("uio_edu");
}
