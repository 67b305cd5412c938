// SPDX-License-Identifier: MIT
/*
 * Inside the Linux guest (tests/guest/run.sh): a gpio-sim chip (the
 * kernel's simulated GPIO chip, made through configfs; gpio-sim and irq_sim
 * built from the guest kernel's own source), one line requested for both
 * edges with the v2 character-device uAPI, its events taken through
 * irqkit's GPIO source (irqkit_fd_bind_gpio).  This program toggles the
 * line's simulated pull from sysfs; the kernel numbers each edge it
 * records, and irqkit's count must be that number.
 *
 * Prints "ok N - what" / "not ok N - what" lines and "GUEST gpio_sim:
 * PASS" or "FAIL"; exits 0 on a pass.
 * Usage: gpio_sim /dev/gpiochipN PULL_FILE [LIVE_FILE]
 * (PULL_FILE: …/sim_gpio0/pull; LIVE_FILE, the chip's configfs "live":
 * given, the chip is removed at the end under a requested line)
 */
#define _GNU_SOURCE
#include <irqkit/irqkit.h>
#include <irqkit/fd.h>

#include "guest.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/gpio.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#define LINE		7
#define SLOW		200	/* toggles with a pause between them */
#define PAIRS		50	/* two toggles, the second once the first was handled */
#define BURST		400	/* toggles as fast as sysfs takes them */

static atomic_uint handled, bad_records;
static atomic_uint kernel_seqno;	/* the last record's: the kernel's count of events */
static uint64_t last_ts;		/* the handler's only */
static int req_fd = -1;			/* the debounced request, kept for removed() */

/* One delivery: its records read by the chip; the last one is ours to look at. */
static enum irqkit_irqreturn gpio_interrupt(int irq, void *dev_id)
{
	struct gpio_v2_line_event ev;

	(void)dev_id;
	if (irqkit_fd_last_record((unsigned int)irq, &ev, sizeof(ev)) != (int)sizeof(ev))
		return IRQKIT_NONE;
	/* an edge of either kind, its time on from the last, its number past the last */
	if ((ev.id != GPIO_V2_LINE_EVENT_RISING_EDGE && ev.id != GPIO_V2_LINE_EVENT_FALLING_EDGE) ||
	    ev.timestamp_ns < last_ts || ev.seqno <= atomic_load(&kernel_seqno))
		atomic_fetch_add(&bad_records, 1);
	last_ts = ev.timestamp_ns;
	atomic_store(&kernel_seqno, ev.seqno);
	atomic_fetch_add(&handled, 1);
	return IRQKIT_HANDLED;
}

static bool set_pull(int fd, bool up)
{
	const char *v = up ? "pull-up" : "pull-down";

	return pwrite(fd, v, strlen(v), 0) == (ssize_t)strlen(v);
}

/*
 * Once the line is quiet (no new event for 300 ms, 20 s at most): irqkit's
 * totals, which must equal the kernel's own count, the last record's seqno.
 */
static bool settle(struct irqkit_irq_events *tot)
{
	unsigned int last = ~0u, quiet = 0;

	for (int i = 0; i < 2000 && quiet < 30; i++) {
		unsigned int now = atomic_load(&kernel_seqno);

		quiet = now == last ? quiet + 1 : 0;
		last = now;
		usleep(10000);
	}
	return !irqkit_irq_get_event_totals(LINE, tot) && tot->events == atomic_load(&kernel_seqno);
}

/* A request of line 0 for both edges, debounced by @debounce_us (0: not), or -1. */
static int request_line(int chip, unsigned int debounce_us)
{
	struct gpio_v2_line_request req = { .offsets = { 0 }, .num_lines = 1, .consumer = "irqkit",
					    .config.flags = GPIO_V2_LINE_FLAG_INPUT |
							    GPIO_V2_LINE_FLAG_EDGE_RISING |
							    GPIO_V2_LINE_FLAG_EDGE_FALLING };

	if (debounce_us) {
		req.config.num_attrs = 1;
		req.config.attrs[0].mask = 1;
		req.config.attrs[0].attr.id = GPIO_V2_LINE_ATTR_ID_DEBOUNCE;
		req.config.attrs[0].attr.debounce_period_us = debounce_us;
	}
	return ioctl(chip, GPIO_V2_GET_LINE_IOCTL, &req) == 0 ? req.fd : -1;
}

/*
 * Debounce, where the request sets it: gpio-sim has no hardware debounce,
 * so the kernel's character device debounces in software.  Each round is
 * a glitch (two toggles a moment apart, back where it was) and one real
 * change held past the period; the kernel reports the real changes only,
 * and irqkit's count is still the kernel's seqno.
 */
#define DEBOUNCE_US	50000
#define ROUNDS		10

static void debounced(int chip, int pull, bool *up, int *cookie, bool keep)
{
	struct irqkit_irq_events tot;
	int fd = request_line(chip, DEBOUNCE_US);

	check(fd >= 0, "line 0 requested with a 50 ms debounce period");
	atomic_store(&kernel_seqno, 0);		/* a new request numbers from 1 */
	check(irqkit_fd_bind_gpio(LINE, fd) == 0 &&
	      irqkit_request_irq(LINE, gpio_interrupt, 0, "gpio-sim", cookie) == 0,
	      "the debounced request bound and requested");
	for (unsigned int i = 0; i < ROUNDS; i++) {
		set_pull(pull, *up);			/* a glitch */
		set_pull(pull, !*up);
		usleep(2 * DEBOUNCE_US);
		set_pull(pull, *up);			/* a change that stays */
		*up = !*up;
		usleep(2 * DEBOUNCE_US);
	}
	check(settle(&tot), "debounced: irqkit's events = the kernel's seqno");
	printf("  debounced: %u toggles, kernel seqno %u, events %llu\n", 3 * ROUNDS,
	       atomic_load(&kernel_seqno), (unsigned long long)tot.events);
	check(tot.events >= 1 && tot.events < 2 * ROUNDS,
	      "debounce honoured: fewer events than toggles (the real changes)");
	req_fd = fd;
	if (keep)
		return;		/* requested and bound still, for removed() */
	irqkit_free_irq(LINE, cookie);
	check(irqkit_fd_unbind(LINE) == 0, "unbind the debounced line");
	close(fd);
}

/*
 * Bad input: the chip goes away under a requested line -- another process
 * (here: this one, through configfs, as a test harness would) clears
 * gpio-sim's "live".  Linux 6.1 warns ("REMOVING GPIOCHIP WITH GPIOS STILL
 * REQUESTED") and wakes no waiter of the line request: its descriptor never
 * reports a hang-up, so the line goes silent rather than failed.  What must
 * hold: nothing hangs, free_irq, unbind and close return.
 */
static void removed(const char *live, int *cookie)
{
	struct irqkit_irq_info info;
	int fd = open(live, O_WRONLY | O_CLOEXEC);
	uint64_t start = now_ms();

	check(fd >= 0 && write(fd, "0", 1) == 1, "the gpio-sim chip removed under the requested line");
	if (fd >= 0)
		close(fd);
	usleep(200000);
	(void)irqkit_irq_get_info(LINE, &info);
	printf("  removed: the line %s\n", info.disabled ? "was disabled, with a report" :
		"stays silent (no hang-up reported on the request fd)");
	irqkit_free_irq(LINE, cookie);
	check(irqkit_fd_unbind(LINE) == 0, "unbind after the removal");
	close(req_fd);
	check(now_ms() - start < 5000, "free_irq, unbind and close returned");
}

int main(int argc, char **argv)
{
	struct irqkit_config cfg = { .nr_irqs = 16, .nr_cpus = guest_cpus(2),
				     .mode = IRQKIT_MODE_THREADED,
				     .log = log_line };
	struct irqkit_irq_events tot;
	int chip, pull, cookie, fd;
	bool up = true;

	if (argc < 3) {
		printf("usage: gpio_sim /dev/gpiochipN PULL_FILE\nGUEST gpio_sim: FAIL\n");
		return 1;
	}
	chip = open(argv[1], O_RDWR | O_CLOEXEC);
	pull = open(argv[2], O_WRONLY | O_CLOEXEC);
	if (chip < 0 || pull < 0) {
		printf("cannot open %s or %s: %s\nGUEST gpio_sim: FAIL\n", argv[1], argv[2],
		       strerror(errno));
		return 1;
	}
	check(set_pull(pull, false), "the line pulled down to start");
	fd = request_line(chip, 0);
	check(fd >= 0, "line 0 requested for both edges (GPIO_V2_GET_LINE_IOCTL)");
	printf("  irqkit: threaded, %u CPU(s)\n", cfg.nr_cpus);
	check(irqkit_start(&cfg) == 0, "irqkit_start");
	check(irqkit_fd_bind_gpio(LINE, fd) == 0, "irqkit_fd_bind_gpio");
	check(irqkit_request_irq(LINE, gpio_interrupt, 0, "gpio-sim", &cookie) == 0, "request_irq");

	/*
	 * Toggles are not all edges the kernel records: irq_sim folds an edge
	 * that comes before its irq_work ran for the last one (a loaded guest
	 * sees it).  The kernel's count is its sequence number; irqkit must
	 * account for every event it numbered, no more.
	 */
	rec_begin("gpio-slow", LINE);
	for (unsigned int i = 0; i < SLOW; i++, up = !up) {
		set_pull(pull, up);
		usleep(2000);
	}
	check(settle(&tot), "200 slow toggles: irqkit's events = the kernel's seqno");
	rec_end("gpio-slow", LINE);
	printf("  slow: kernel seqno %u, %u handled, events %llu, coalesced %llu, lost %llu\n",
	       atomic_load(&kernel_seqno), atomic_load(&handled), (unsigned long long)tot.events,
	       (unsigned long long)tot.coalesced, (unsigned long long)tot.lost);
	check(tot.events >= 1 && tot.events <= SLOW, "between 1 and 200 edges");

	/*
	 * The same 100 edges twice, in two shapes.  Spaced: each toggle 3 ms
	 * after the last one's handler ran, so no two arrivals are closer than
	 * that (the slow toggles above are not paced by the handler, and the
	 * guest's timers sometimes bring two within half a millisecond).
	 * Pairs: the second edge of each pair as soon as the first one's
	 * handler ran, a few hundred microseconds later, then a pause: the
	 * shape that a driver with a bottom half of a millisecond gets wrong
	 * (tests/chips/test_record.c finds it in this recording, not in the
	 * spaced one).
	 */
	rec_begin("gpio-spaced", LINE);
	for (unsigned int i = 0; i < 2 * PAIRS; i++) {
		unsigned int h = atomic_load(&handled);

		set_pull(pull, up);
		up = !up;
		(void)wait_for(&handled, h + 1, 1000);
		usleep(3000);
	}
	check(settle(&tot), "100 spaced toggles: irqkit's events = the kernel's seqno");
	rec_end("gpio-spaced", LINE);

	rec_begin("gpio-pairs", LINE);
	for (unsigned int i = 0; i < PAIRS; i++) {
		unsigned int h = atomic_load(&handled);

		set_pull(pull, up);
		up = !up;
		(void)wait_for(&handled, h + 1, 1000);
		set_pull(pull, up);
		up = !up;
		usleep(5000);
	}
	check(settle(&tot), "50 pairs of toggles: irqkit's events = the kernel's seqno");
	rec_end("gpio-pairs", LINE);

	rec_begin("gpio-burst", LINE);
	for (unsigned int i = 0; i < BURST; i++, up = !up)
		set_pull(pull, up);
	check(settle(&tot), "a burst of 400 toggles: irqkit's events = the kernel's seqno");
	rec_end("gpio-burst", LINE);
	printf("  burst: kernel seqno %u, %u handled, events %llu, coalesced %llu, lost %llu\n",
	       atomic_load(&kernel_seqno), atomic_load(&handled), (unsigned long long)tot.events,
	       (unsigned long long)tot.coalesced, (unsigned long long)tot.lost);
	check(tot.events <= SLOW + 4 * PAIRS + BURST &&
	      tot.events == atomic_load(&handled) + tot.coalesced + tot.lost,
	      "events = handled + coalesced + lost, no more than the toggles");
	check(atomic_load(&bad_records) == 0,
	      "every record an edge, timestamps monotonic, sequence numbers rising");
	irqkit_free_irq(LINE, &cookie);
	check(irqkit_fd_unbind(LINE) == 0, "unbind");
	close(fd);

	debounced(chip, pull, &up, &cookie, argc > 3);
	if (argc > 3)
		removed(argv[3], &cookie);
	irqkit_stop();
	return verdict("gpio_sim");
}
