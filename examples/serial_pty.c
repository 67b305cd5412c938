// SPDX-License-Identifier: MIT
/*
 * A 16550-style serial driver whose "UART" is a pty, in the kernel's shape:
 *
 *  - the receive interrupt (a level line, asserted while data waits) takes
 *    the bytes out of the device into the driver's buffer and schedules a
 *    tasklet, as 8250's receive_chars() feeds the tty layer;
 *  - the tasklet (the line discipline here) cuts lines and answers each
 *    with "echo: <line>", queueing it for transmission and turning the
 *    transmit interrupt on, as 8250 sets THRI in IER;
 *  - the transmit interrupt (asserted while the device can take more)
 *    writes from the transmit buffer and turns itself off when it is empty.
 *
 * The other end of the pty plays the terminal: this program writes lines to
 * it and reads the echoes back.  With --broken the receive handler never
 * reads and returns IRQ_NONE, the line screams, and Linux's spurious-IRQ
 * detector disables it ("irq N: nobody cared").
 *
 * Usage: example-serial-pty [--broken] [lines]; exit status 0 on success.
 */
#define _GNU_SOURCE
#include <irqkit/irqkit.h>

#include <poll.h>
#include <pty.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#define RX_IRQ	4
#define TX_IRQ	5
#define BUF	4096

struct uart {
	int			fd;		/* the device: the pty's master side */
	bool			broken;
	struct irqkit_spinlock	lock;		/* the buffers, shared with the tasklet */
	char			rx[BUF];	/* received, not yet seen by the tasklet */
	size_t			rx_len;
	char			line[256];	/* the line discipline's current line */
	size_t			line_len;
	char			tx[BUF];	/* queued for transmission */
	size_t			tx_head, tx_len;
	bool			tx_on;		/* THRI: the transmit interrupt is enabled */
	struct irqkit_tasklet	rx_tasklet;
	atomic_int		rx_irqs, tx_irqs, lines;
};

/* Queue @s for transmission and make sure the transmit interrupt is on.  Lock held. */
static void uart_queue_tx(struct uart *u, const char *s, size_t n)
{
	if (n > sizeof(u->tx) - u->tx_len)
		n = sizeof(u->tx) - u->tx_len;	/* a full FIFO drops, as a UART overruns */
	memcpy(u->tx + u->tx_len, s, n);
	u->tx_len += n;
	if (!u->tx_on) {
		u->tx_on = true;
		irqkit_enable_irq(TX_IRQ);
	}
}

static enum irqkit_irqreturn uart_rx_irq(int irq, void *dev_id)
{
	struct uart *u = dev_id;
	ssize_t n;

	(void)irq;
	if (u->broken)
		return IRQKIT_NONE;	/* never services the device: the line stays asserted */
	irqkit_spin_lock(&u->lock);
	n = read(u->fd, u->rx + u->rx_len, sizeof(u->rx) - u->rx_len);
	if (n > 0)
		u->rx_len += (size_t)n;
	irqkit_spin_unlock(&u->lock);
	atomic_fetch_add(&u->rx_irqs, 1);
	irqkit_tasklet_schedule(&u->rx_tasklet);
	return IRQKIT_HANDLED;
}

/* The line discipline: whole lines are answered. */
static void uart_rx_tasklet(unsigned long data)
{
	struct uart *u = (struct uart *)data;
	unsigned long flags;

	flags = irqkit_spin_lock_irqsave(&u->lock);
	for (size_t i = 0; i < u->rx_len; i++) {
		char c = u->rx[i];

		if (c != '\n' && u->line_len < sizeof(u->line) - 1) {
			u->line[u->line_len++] = c;
			continue;
		}
		uart_queue_tx(u, "echo: ", 6);
		uart_queue_tx(u, u->line, u->line_len);
		uart_queue_tx(u, "\n", 1);
		u->line_len = 0;
		atomic_fetch_add(&u->lines, 1);
	}
	u->rx_len = 0;
	irqkit_spin_unlock_irqrestore(&u->lock, flags);
}

static enum irqkit_irqreturn uart_tx_irq(int irq, void *dev_id)
{
	struct uart *u = dev_id;
	ssize_t n;

	irqkit_spin_lock(&u->lock);
	n = write(u->fd, u->tx + u->tx_head, u->tx_len - u->tx_head);
	if (n > 0)
		u->tx_head += (size_t)n;
	if (u->tx_head == u->tx_len) {		/* empty: THRI off */
		u->tx_head = u->tx_len = 0;
		u->tx_on = false;
		irqkit_disable_irq_nosync((unsigned int)irq);
	}
	irqkit_spin_unlock(&u->lock);
	atomic_fetch_add(&u->tx_irqs, 1);
	return IRQKIT_HANDLED;
}

/* The terminal: read until @want bytes came back or 5 s passed. */
static size_t term_read(int fd, char *buf, size_t want)
{
	size_t got = 0;

	while (got < want) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t n;

		if (poll(&p, 1, 5000) != 1)
			break;
		n = read(fd, buf + got, want - got);
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	return got;
}

static int run_broken(struct uart *u, int term)
{
	struct irqkit_irq_info info;

	if (write(term, "x", 1) != 1)
		return 1;
	for (int i = 0; i < 600; i++) {
		irqkit_irq_get_info(RX_IRQ, &info);
		if (info.spurious_disabled)
			break;
		usleep(10000);
	}
	printf("broken driver: %u unhandled of %u, line %s\n", info.irqs_unhandled, info.irq_count,
	       info.spurious_disabled ? "disabled as spurious (nobody cared)" : "still enabled");
	(void)u;
	return info.spurious_disabled ? 0 : 1;
}

int main(int argc, char **argv)
{
	static struct uart u;
	struct irqkit_config cfg = { .nr_irqs = 16, .nr_cpus = 2 };
	struct termios raw;
	int term, nlines = 20, ret = 0;
	char table[2048];

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--broken"))
			u.broken = true;
		else
			nlines = atoi(argv[i]);
	}
	if (openpty(&u.fd, &term, NULL, NULL, NULL)) {
		perror("openpty");
		return 1;
	}
	cfmakeraw(&raw);
	tcsetattr(term, TCSANOW, &raw);
	irqkit_spin_lock_init(&u.lock);
	irqkit_tasklet_init(&u.rx_tasklet, uart_rx_tasklet, (unsigned long)&u);
	if (irqkit_start(&cfg) || irqkit_fd_bind_tty(RX_IRQ, TX_IRQ, u.fd) ||
	    irqkit_request_irq(RX_IRQ, uart_rx_irq, 0, "ttyS0-rx", &u) ||
	    irqkit_request_irq(TX_IRQ, uart_tx_irq, IRQKIT_F_NO_AUTOEN, "ttyS0-tx", &u)) {
		fprintf(stderr, "set-up failed\n");
		return 1;
	}
	if (u.broken) {
		ret = run_broken(&u, term);
	} else {
		for (int i = 0; i < nlines && !ret; i++) {
			char out[64], want[80], got[80] = { 0 };
			size_t n = (size_t)snprintf(out, sizeof(out), "line %d\n", i);

			snprintf(want, sizeof(want), "echo: %s", out);
			if (write(term, out, n) != (ssize_t)n ||
			    term_read(term, got, strlen(want)) != strlen(want) || strcmp(got, want)) {
				fprintf(stderr, "line %d: sent \"line %d\", got \"%s\"\n", i, i, got);
				ret = 1;
			}
		}
		printf("%d lines echoed: %d receive interrupts, %d transmit interrupts\n",
		       atomic_load(&u.lines), atomic_load(&u.rx_irqs), atomic_load(&u.tx_irqs));
	}
	if (irqkit_show_interrupts_buf(table, sizeof(table), IRQKIT_SHOW_LINUX_ONLY) > 0)
		fputs(table, stdout);
	irqkit_free_irq(TX_IRQ, &u);
	irqkit_free_irq(RX_IRQ, &u);
	irqkit_tasklet_kill(&u.rx_tasklet);
	irqkit_stop();
	close(term);
	close(u.fd);
	return ret;
}
