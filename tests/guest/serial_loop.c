// SPDX-License-Identifier: MIT
/*
 * Inside the Linux guest (tests/guest/run.sh): the guest's second 16550 UART
 * (/dev/ttyS1, the kernel's 8250 driver) in its internal loopback
 * (TIOCM_LOOP: what it sends comes back to its receiver, no host side),
 * driven through irqkit's tty source as a 16550 driver drives its UART: the
 * receive interrupt (a level line while data waits) drains the port, the
 * transmit interrupt (a level line while the port can take more) is
 * enabled while the driver has bytes to send and disabled when it has
 * none, as 8250 sets and clears THRI.  Every byte sent comes back, in
 * order.
 *
 * Prints "ok N - what" / "not ok N - what" lines and "GUEST serial_loop:
 * PASS" or "FAIL"; exits 0 on a pass.  Usage: serial_loop [TTY]
 */
#define _GNU_SOURCE
#include <irqkit/irqkit.h>
#include <irqkit/fd.h>

#include "guest.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/serial.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#ifndef TIOCM_LOOP
#define TIOCM_LOOP	0x8000		/* the kernel's; glibc's headers lack it */
#endif

#define RX_IRQ		4
#define TX_IRQ		3
#define TOTAL		4096

static int fd;
static unsigned char out[TOTAL], in[TOTAL];
static atomic_uint sent, received, rx_irqs, tx_irqs;
static struct irqkit_spinlock tx_lock = IRQKIT_SPINLOCK_INIT;
static unsigned int tx_end;		/* bytes queued for sending so far (tx_lock) */
static bool tx_on;			/* the transmit interrupt is enabled (tx_lock) */

/* The receive interrupt: take what the port holds. */
static enum irqkit_irqreturn rx_interrupt(int irq, void *dev_id)
{
	unsigned int have = atomic_load(&received);
	ssize_t n;

	(void)irq;
	(void)dev_id;
	atomic_fetch_add(&rx_irqs, 1);
	n = read(fd, in + have, TOTAL - have);
	if (n <= 0)
		return IRQKIT_NONE;
	atomic_fetch_add(&received, (unsigned int)n);
	return IRQKIT_HANDLED;
}

/*
 * The transmit interrupt: feed the port; off once nothing is left.  As
 * 8250's transmit_chars and start_tx, the decision to turn it off and the
 * sender's to turn it on are taken under one lock, so neither is lost.
 */
static enum irqkit_irqreturn tx_interrupt(int irq, void *dev_id)
{
	unsigned int from;
	ssize_t n = 0;

	(void)dev_id;
	atomic_fetch_add(&tx_irqs, 1);
	irqkit_spin_lock(&tx_lock);
	from = atomic_load(&sent);
	if (from < tx_end)
		n = write(fd, out + from, tx_end - from > 64 ? 64 : tx_end - from);
	if (n > 0)
		atomic_fetch_add(&sent, (unsigned int)n);
	if (atomic_load(&sent) >= tx_end) {
		tx_on = false;
		irqkit_disable_irq_nosync((unsigned int)irq);	/* THRI off */
	}
	irqkit_spin_unlock(&tx_lock);
	return IRQKIT_HANDLED;
}

/*
 * Bytes the kernel counted as lost before irqkit could read them: the
 * UART's receive FIFO overran (the emulated 16550 under a slow guest) or
 * the tty's buffer was full.
 */
static unsigned int kernel_overruns(void)
{
	struct serial_icounter_struct ic;

	if (ioctl(fd, TIOCGICOUNT, &ic))
		return 0;
	return (unsigned int)(ic.overrun + ic.buf_overrun);
}

/* Queue @n more bytes for sending and turn the transmit interrupt on (THRI) if it is off. */
static void uart_send(unsigned int n)
{
	unsigned long flags = irqkit_spin_lock_irqsave(&tx_lock);
	bool start = !tx_on;

	tx_end += n;
	tx_on = true;
	irqkit_spin_unlock_irqrestore(&tx_lock, flags);
	if (start)
		irqkit_enable_irq(TX_IRQ);
}

/* 4096 bytes through the loop, in pieces as a tty layer hands a driver its writes. */
static void transfer(void)
{
	uint64_t end;

	for (unsigned int i = 0; i < TOTAL / 512; i++) {
		uart_send(512);
		end = now_ms() + 20000;
		while (atomic_load(&received) < (i + 1) * 512 && now_ms() < end)
			usleep(1000);
	}
}

int main(int argc, char **argv)
{
	const char *tty = argc > 1 ? argv[1] : "/dev/ttyS1";
	struct irqkit_config cfg = { .nr_irqs = 16, .nr_cpus = guest_cpus(2),
				     .mode = IRQKIT_MODE_THREADED,
				     .log = log_line };
	int loop = TIOCM_LOOP, cookie;
	struct termios t;

	fd = open(tty, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (fd < 0 || tcgetattr(fd, &t)) {
		printf("cannot open %s: %s\nGUEST serial_loop: FAIL\n", tty, strerror(errno));
		return 1;
	}
	cfmakeraw(&t);
	cfsetspeed(&t, B115200);
	check(tcsetattr(fd, TCSANOW, &t) == 0, "raw, 115200 baud");
	check(ioctl(fd, TIOCMBIS, &loop) == 0, "internal loopback on (TIOCM_LOOP)");
	tcflush(fd, TCIOFLUSH);
	for (unsigned int i = 0; i < TOTAL; i++)
		out[i] = (unsigned char)(i * 7 + i / 256);
	printf("  irqkit: threaded, %u CPU(s)\n", cfg.nr_cpus);
	check(irqkit_start(&cfg) == 0, "irqkit_start");
	check(irqkit_fd_bind_tty(RX_IRQ, TX_IRQ, fd) == 0, "irqkit_fd_bind_tty (receive, transmit)");
	check(irqkit_request_irq(RX_IRQ, rx_interrupt, 0, "ttyS1-rx", &cookie) == 0 &&
	      irqkit_request_irq(TX_IRQ, tx_interrupt, IRQKIT_F_NO_AUTOEN, "ttyS1-tx", &cookie) == 0,
	      "request_irq: receive, and transmit off until there is data");
	/*
	 * Again (at most twice more) when bytes were lost and the kernel says
	 * where: its UART or tty dropped them, under emulation, before any
	 * interrupt of irqkit's could see them.  A loss it did not count fails.
	 */
	for (unsigned int attempt = 1;; attempt++) {
		unsigned int lost_before = kernel_overruns(), lost;

		transfer();
		printf("  sent %u, received %u; %u receive and %u transmit interrupts\n",
		       atomic_load(&sent), atomic_load(&received), atomic_load(&rx_irqs),
		       atomic_load(&tx_irqs));
		lost = kernel_overruns() - lost_before;
		if (atomic_load(&received) == TOTAL || !lost || attempt == 3)
			break;
		printf("  the kernel counted %u bytes lost in its UART or tty: again\n", lost);
		tcflush(fd, TCIOFLUSH);
		irqkit_spin_lock(&tx_lock);
		atomic_store(&sent, 0);
		tx_end = 0;
		irqkit_spin_unlock(&tx_lock);
		atomic_store(&received, 0);
	}
	check(atomic_load(&received) == TOTAL && !memcmp(in, out, TOTAL),
	      "4096 bytes sent through the transmit interrupt came back, in order");
	check(atomic_load(&tx_irqs) >= TOTAL / 64, "the transmit line ran while there was data");
	irqkit_free_irq(TX_IRQ, &cookie);
	irqkit_free_irq(RX_IRQ, &cookie);
	check(irqkit_fd_unbind(RX_IRQ) == 0, "unbind");
	irqkit_stop();
	loop = TIOCM_LOOP;
	(void)ioctl(fd, TIOCMBIC, &loop);
	close(fd);
	return verdict("serial_loop");
}
