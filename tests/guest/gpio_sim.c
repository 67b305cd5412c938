// SPDX-License-Identifier: MIT
/*
 * Inside the Linux guest (tests/guest/run.sh): a gpio-sim chip (the
 * kernel's simulated GPIO chip, made through configfs; gpio-sim and irq_sim
 * built from the guest kernel's own source), one line requested for both
 * edges with the v2 character-device uAPI, its events taken through
 * irqkit's GPIO source (irqkit_fd_bind_gpio).  This program toggles the
 * line's simulated pull from sysfs; every toggle is an edge the kernel
 * records with a sequence number.
 *
 * Prints "ok N - what" / "not ok N - what" lines and "GUEST gpio_sim:
 * PASS" or "FAIL"; exits 0 on a pass.
 * Usage: gpio_sim /dev/gpiochipN PULL_FILE   (…/sim_gpio0/pull)
 */
#define _GNU_SOURCE
#include <irqkit/irqkit.h>
#include <irqkit/fd.h>

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
#define BURST		400	/* toggles as fast as sysfs takes them */

static unsigned int checks, failures;
static atomic_uint handled, rising, falling, out_of_order;
static uint64_t last_ts;	/* the handler's only */
static uint32_t last_id;

static void check(bool ok, const char *what)
{
	checks++;
	failures += !ok;
	printf("%s %u - %s\n", ok ? "ok" : "not ok", checks, what);
	fflush(stdout);
}

/* One delivery: its records read by the chip; the last one is ours to look at. */
static enum irqkit_irqreturn gpio_interrupt(int irq, void *dev_id)
{
	struct gpio_v2_line_event ev;
	struct irqkit_irq_events e;

	(void)dev_id;
	if (irqkit_fd_last_record((unsigned int)irq, &ev, sizeof(ev)) != (int)sizeof(ev) ||
	    irqkit_irq_get_events((unsigned int)irq, &e))
		return IRQKIT_NONE;
	/* edges alternate (an even number of them since the last: the same edge); time goes on */
	if (last_id && (ev.timestamp_ns < last_ts || (ev.id == last_id) != !(e.events % 2)))
		atomic_fetch_add(&out_of_order, 1);
	last_ts = ev.timestamp_ns;
	last_id = ev.id;
	atomic_fetch_add(ev.id == GPIO_V2_LINE_EVENT_RISING_EDGE ? &rising : &falling, 1);
	atomic_fetch_add(&handled, 1);
	return IRQKIT_HANDLED;
}

static bool set_pull(int fd, bool up)
{
	const char *v = up ? "pull-up" : "pull-down";

	return pwrite(fd, v, strlen(v), 0) == (ssize_t)strlen(v);
}

static void log_line(void *arg, int level, const char *line)
{
	(void)arg;
	printf("  irqkit<%d>: %s\n", level, line);
	fflush(stdout);
}

/* Wait until the line's event totals reach @want, 10 s at most. */
static bool wait_events(uint64_t want, struct irqkit_irq_events *tot)
{
	for (int i = 0; i < 10000; i++) {
		if (!irqkit_irq_get_event_totals(LINE, tot) && tot->events >= want)
			return true;
		usleep(1000);
	}
	return false;
}

int main(int argc, char **argv)
{
	struct irqkit_config cfg = { .nr_irqs = 16, .nr_cpus = 2, .mode = IRQKIT_MODE_THREADED,
				     .log = log_line };
	struct gpio_v2_line_request req = { .offsets = { 0 }, .num_lines = 1, .consumer = "irqkit",
					    .config.flags = GPIO_V2_LINE_FLAG_INPUT |
							    GPIO_V2_LINE_FLAG_EDGE_RISING |
							    GPIO_V2_LINE_FLAG_EDGE_FALLING };
	struct irqkit_irq_events tot;
	int chip, pull, cookie;
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
	check(ioctl(chip, GPIO_V2_GET_LINE_IOCTL, &req) == 0 && req.fd >= 0,
	      "line 0 requested for both edges (GPIO_V2_GET_LINE_IOCTL)");
	check(irqkit_start(&cfg) == 0, "irqkit_start (threaded, 2 CPUs)");
	check(irqkit_fd_bind_gpio(LINE, req.fd) == 0, "irqkit_fd_bind_gpio");
	check(irqkit_request_irq(LINE, gpio_interrupt, 0, "gpio-sim", &cookie) == 0, "request_irq");

	for (unsigned int i = 0; i < SLOW; i++, up = !up) {
		set_pull(pull, up);
		usleep(2000);
	}
	check(wait_events(SLOW, &tot), "200 slow toggles: 200 events");
	printf("  slow: %u handled (%u rising, %u falling), events %llu, coalesced %llu, lost %llu\n",
	       atomic_load(&handled), atomic_load(&rising), atomic_load(&falling),
	       (unsigned long long)tot.events, (unsigned long long)tot.coalesced,
	       (unsigned long long)tot.lost);
	check(atomic_load(&rising) + atomic_load(&falling) == atomic_load(&handled) &&
	      atomic_load(&out_of_order) == 0, "edges alternate, timestamps monotonic");

	for (unsigned int i = 0; i < BURST; i++, up = !up)
		set_pull(pull, up);
	check(wait_events(SLOW + BURST, &tot), "a burst of 400 toggles: every one an event");
	printf("  burst: %u handled, events %llu, coalesced %llu, lost %llu (seqno gaps)\n",
	       atomic_load(&handled), (unsigned long long)tot.events,
	       (unsigned long long)tot.coalesced, (unsigned long long)tot.lost);
	check(tot.events == SLOW + BURST &&
	      tot.events == atomic_load(&handled) + tot.coalesced + tot.lost,
	      "events = handled + coalesced + lost, and no more than the toggles");
	irqkit_free_irq(LINE, &cookie);
	check(irqkit_fd_unbind(LINE) == 0, "unbind");
	irqkit_stop();
	close(req.fd);
	printf("GUEST gpio_sim: %s (%u checks, %u failed)\n", failures ? "FAIL" : "PASS", checks,
	       failures);
	return failures ? 1 : 0;
}
