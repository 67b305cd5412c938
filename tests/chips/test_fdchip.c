// SPDX-License-Identifier: MIT
/*
 * Tests of src/chips/fd/ (the fd chip) and the dispatcher's epoll wait
 * (src/platform/posix/idle.c): lines bound to eventfd, timerfd, signalfd,
 * a pty, and test doubles that speak UIO's, VFIO's and GPIO's bytes.
 */
#define _GNU_SOURCE
#include "../harness.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/gpio.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <termios.h>
#include <unistd.h>

#define L(n)	(T_NOCHIP + (n))	/* lines with no chip: ours to bind */

/* What a handler saw, per line. */
struct seen {
	atomic_int	calls;
	atomic_int	inside;		/* > 1 means the handler ran concurrently with itself */
	atomic_int	overlap;
	atomic_ullong	coalesced;
	atomic_ullong	lost;
	atomic_ullong	ts;
	atomic_int	cpu;
	atomic_bool	hardirq;
	int		fd;		/* level sources: what the handler drains */
	int		ret;		/* what it returns */
	char		buf[4096];
	atomic_int	len;
};

static struct seen s0, s1;

static void seen_init(struct seen *s, int fd)
{
	memset(s, 0, sizeof(*s));
	s->fd = fd;
	s->ret = IRQKIT_HANDLED;
}

static void note(struct seen *s, int irq)
{
	struct irqkit_irq_events ev;

	if (atomic_fetch_add(&s->inside, 1))
		atomic_store(&s->overlap, 1);
	assert_int_equal(irqkit_irq_get_events((unsigned int)irq, &ev), 0);
	assert_true(ev.events == 1 + ev.coalesced + ev.lost);
	atomic_fetch_add(&s->coalesced, ev.coalesced);
	atomic_fetch_add(&s->lost, ev.lost);
	atomic_store(&s->ts, ev.timestamp_ns);
	atomic_store(&s->cpu, irqkit_smp_processor_id());
	atomic_store(&s->hardirq, irqkit_in_hardirq());
	atomic_fetch_sub(&s->inside, 1);
	atomic_fetch_add(&s->calls, 1);
}

static enum irqkit_irqreturn count_handler(int irq, void *dev)
{
	struct seen *s = dev;

	note(s, irq);
	return (enum irqkit_irqreturn)s->ret;
}

/* Level source: read what waits (a driver's receive routine), then count. */
static enum irqkit_irqreturn drain_handler(int irq, void *dev)
{
	struct seen *s = dev;
	int len = atomic_load(&s->len);
	ssize_t r;

	if (s->ret == IRQKIT_NONE) {	/* a broken driver: never reads */
		note(s, irq);
		return IRQKIT_NONE;
	}
	while (len < (int)sizeof(s->buf) && (r = read(s->fd, s->buf + len, sizeof(s->buf) - (size_t)len)) > 0)
		len += (int)r;
	atomic_store(&s->len, len);
	note(s, irq);
	return IRQKIT_HANDLED;
}

static void efd_write(int fd, uint64_t v)
{
	assert_int_equal(write(fd, &v, sizeof(v)), (ssize_t)sizeof(v));
}

static int efd(void)
{
	int fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);

	assert_true(fd >= 0);
	return fd;
}

/* ---- eventfd ----------------------------------------------------------------- */

/* A handler that holds its first run until told to go. */
static atomic_int hold_entered, hold_go;
static atomic_ullong hold_events;

static enum irqkit_irqreturn hold_handler(int irq, void *dev)
{
	struct irqkit_irq_events ev;

	(void)dev;
	assert_int_equal(irqkit_irq_get_events((unsigned int)irq, &ev), 0);
	atomic_fetch_add(&hold_events, ev.events);
	if (atomic_fetch_add(&hold_entered, 1) == 0)
		while (!atomic_load(&hold_go))
			usleep(100);
	return IRQKIT_HANDLED;
}

static bool line_pending(unsigned int irq)
{
	struct irqkit_irq_info info;

	return irqkit_irq_get_info(irq, &info) == 0 && info.pending;
}

/*
 * An arrival that finds its line in progress on another CPU (the line moved
 * meanwhile) is remembered (PENDING), and the running CPU serves it in a
 * second turn with no ack: that turn's handler must be told the events it
 * stands for, not the first turn's again (regression: the fuzzer's
 * "11 events of 12").
 */
static void test_a_later_turn_counts_its_own_events(void **state)
{
	int fd = efd();

	(void)state;
	atomic_store(&hold_entered, 0);
	atomic_store(&hold_go, 0);
	atomic_store(&hold_events, 0);
	assert_int_equal(irqkit_fd_bind_eventfd(L(0), fd), 0);
	assert_int_equal(irqkit_request_irq(L(0), hold_handler, 0, "efd", NULL), 0);
	efd_write(fd, 1);
	assert_true(wait_until(atomic_load(&hold_entered) == 1, 5000));
	/* the first run holds CPU 0; the line moves and 3 events arrive on CPU 1 */
	assert_int_equal(irqkit_irq_set_affinity(L(0), 1ull << 1), 0);
	efd_write(fd, 3);
	assert_true(wait_until(line_pending(L(0)), 5000));	/* found it in progress */
	atomic_store(&hold_go, 1);
	assert_int_equal(irqkit_wait_delivered(L(0), 5000), 0);
	assert_int_equal(atomic_load(&hold_entered), 2);
	assert_int_equal(atomic_load(&hold_events), 4);
	irqkit_free_irq(L(0), NULL);
	assert_int_equal(irqkit_fd_unbind(L(0)), 0);
	close(fd);
}

static void test_eventfd_write_runs_the_handler_on_the_lines_cpu(void **state)
{
	int fd = efd();

	(void)state;
	seen_init(&s0, fd);
	assert_int_equal(irqkit_fd_bind_eventfd(L(0), fd), 0);
	assert_int_equal(irqkit_fd_of(L(0)), fd);
	assert_int_equal(irqkit_irq_set_affinity(L(0), 1ull << 1), 0);
	assert_int_equal(irqkit_request_irq(L(0), count_handler, 0, "efd", &s0), 0);
	for (int i = 1; i <= 20; i++) {
		efd_write(fd, 1);
		assert_true(wait_until(atomic_load(&s0.calls) == i, 5000));
	}
	assert_int_equal(atomic_load(&s0.cpu), 1);
	assert_true(atomic_load(&s0.hardirq));
	assert_int_equal(atomic_load(&s0.coalesced), 0);
	assert_int_equal(irqkit_kstat_irqs_cpu(L(0), 1), 20);
	irqkit_free_irq(L(0), &s0);
	assert_int_equal(irqkit_fd_unbind(L(0)), 0);
	close(fd);
}

/*
 * irqkit_wait_delivered() right after a write: the arrival is still in the
 * descriptor, not yet seen by the CPU's idle wait; it is undelivered, and
 * the wait returns only once the handler has run for it.
 */
static void test_wait_delivered_counts_an_arrival_still_in_the_descriptor(void **state)
{
	struct irqkit_irq_events tot;
	int fd = efd();

	(void)state;
	seen_init(&s0, fd);
	assert_int_equal(irqkit_fd_bind_eventfd(L(0), fd), 0);
	assert_int_equal(irqkit_request_irq(L(0), count_handler, 0, "efd", &s0), 0);
	for (int i = 1; i <= 200; i++) {
		efd_write(fd, 1);
		assert_int_equal(irqkit_wait_delivered(L(0), 5000), 0);
		assert_int_equal(irqkit_irq_get_event_totals(L(0), &tot), 0);
		assert_int_equal(tot.events, i);
	}
	/* masked, the arrival waits in the descriptor: not delivered, so the wait times out */
	irqkit_disable_irq(L(0));
	efd_write(fd, 1);
	assert_int_equal(irqkit_wait_delivered(L(0), 20), -IRQKIT_ETIMEDOUT);
	irqkit_enable_irq(L(0));
	assert_int_equal(irqkit_wait_delivered(L(0), 5000), 0);
	assert_int_equal(irqkit_irq_get_event_totals(L(0), &tot), 0);
	assert_int_equal(tot.events, 201);
	irqkit_free_irq(L(0), &s0);
	assert_int_equal(irqkit_fd_unbind(L(0)), 0);
	close(fd);
}

/* CPU hotplug: a bound line on a CPU going offline takes its descriptor to its new CPU. */
static void test_line_and_descriptor_leave_an_offline_cpu(void **state)
{
	struct irqkit_irq_events tot;
	int fd = efd();

	(void)state;
	seen_init(&s0, fd);
	assert_int_equal(irqkit_fd_bind_eventfd(L(0), fd), 0);
	assert_int_equal(irqkit_irq_set_affinity(L(0), 1ull << 1), 0);
	assert_int_equal(irqkit_request_irq(L(0), count_handler, 0, "efd", &s0), 0);
	efd_write(fd, 1);
	assert_int_equal(irqkit_wait_delivered(L(0), 5000), 0);
	assert_int_equal(atomic_load(&s0.cpu), 1);
	assert_int_equal(irqkit_remove_cpu(1), 0);
	for (int i = 0; i < 20; i++) {
		efd_write(fd, 1);
		assert_int_equal(irqkit_wait_delivered(L(0), 5000), 0);
	}
	assert_int_equal(atomic_load(&s0.cpu), 0);
	assert_int_equal(irqkit_irq_get_event_totals(L(0), &tot), 0);
	assert_int_equal(tot.events, 21);
	assert_int_equal(irqkit_add_cpu(1), 0);
	irqkit_free_irq(L(0), &s0);
	assert_int_equal(irqkit_fd_unbind(L(0)), 0);
	close(fd);
}

static void test_eventfd_counter_is_the_number_of_coalesced_events(void **state)
{
	struct irqkit_irq_events tot;
	int fd = efd();

	(void)state;
	seen_init(&s0, fd);
	assert_int_equal(irqkit_fd_bind_eventfd(L(0), fd), 0);
	/* not started yet: the events wait in the descriptor */
	assert_int_equal(irqkit_request_irq(L(0), count_handler, IRQKIT_F_NO_AUTOEN, "efd", &s0), 0);
	for (int i = 0; i < 7; i++)
		efd_write(fd, 1);
	usleep(20000);
	assert_int_equal(atomic_load(&s0.calls), 0);
	irqkit_enable_irq(L(0));
	assert_true(wait_until(atomic_load(&s0.calls) >= 1, 5000));
	usleep(20000);
	assert_int_equal(atomic_load(&s0.calls), 1);
	assert_int_equal(atomic_load(&s0.coalesced), 6);
	assert_int_equal(irqkit_irq_get_event_totals(L(0), &tot), 0);
	assert_int_equal(tot.events, 7);
	assert_int_equal(tot.coalesced, 6);

	/*
	 * Disabled while events come: the first is kept by the core (PENDING)
	 * and replayed at enable, the rest wait in the descriptor.  One or two
	 * interrupts, as a controller's latched edge plus the core's replay may
	 * give; every event is accounted either way.
	 */
	irqkit_disable_irq(L(0));
	for (int i = 0; i < 5; i++)
		efd_write(fd, 1);
	usleep(20000);
	assert_int_equal(atomic_load(&s0.calls), 1);
	irqkit_enable_irq(L(0));
	assert_true(wait_until(atomic_load(&s0.calls) >= 2, 5000));
	usleep(20000);
	assert_in_range(atomic_load(&s0.calls), 2, 3);
	assert_int_equal(atomic_load(&s0.calls) + (int)atomic_load(&s0.coalesced), 12);
	assert_int_equal(irqkit_irq_get_event_totals(L(0), &tot), 0);
	assert_int_equal(tot.events, 12);
	assert_int_equal(tot.events, atomic_load(&s0.calls) + tot.coalesced);
	irqkit_free_irq(L(0), &s0);
	close(fd);
}

static void test_free_irq_stops_reading_the_descriptor(void **state)
{
	uint64_t v = 0;
	int fd = efd();

	(void)state;
	seen_init(&s0, fd);
	assert_int_equal(irqkit_fd_bind_eventfd(L(0), fd), 0);
	assert_int_equal(irqkit_request_irq(L(0), count_handler, 0, "efd", &s0), 0);
	efd_write(fd, 1);
	assert_true(wait_until(atomic_load(&s0.calls) == 1, 5000));
	irqkit_free_irq(L(0), &s0);
	efd_write(fd, 3);
	usleep(20000);
	/* nobody took it: the counter is still there for its owner */
	assert_int_equal(read(fd, &v, sizeof(v)), (ssize_t)sizeof(v));
	assert_int_equal(v, 3);
	/* requested again, the line takes new events */
	assert_int_equal(irqkit_request_irq(L(0), count_handler, 0, "efd", &s0), 0);
	efd_write(fd, 1);
	assert_true(wait_until(atomic_load(&s0.calls) == 2, 5000));
	irqkit_free_irq(L(0), &s0);
	assert_int_equal(irqkit_fd_unbind(L(0)), 0);
	close(fd);
}

/* ---- timerfd ------------------------------------------------------------------ */

static void test_timerfd_periodic_and_one_shot(void **state)
{
	struct itimerspec per = { .it_interval = { 0, 2000000 }, .it_value = { 0, 2000000 } };
	struct itimerspec one = { .it_value = { 0, 1000000 } };
	struct itimerspec off = { 0 };
	struct irqkit_irq_events tot;
	int fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);

	(void)state;
	assert_true(fd >= 0);
	seen_init(&s0, fd);
	assert_int_equal(irqkit_fd_bind_timerfd(L(1), fd), 0);
	assert_int_equal(irqkit_request_irq(L(1), count_handler, 0, "tick", &s0), 0);
	assert_int_equal(timerfd_settime(fd, 0, &per, NULL), 0);
	assert_true(wait_until(atomic_load(&s0.calls) >= 10, 5000));
	assert_int_equal(timerfd_settime(fd, 0, &off, NULL), 0);
	usleep(10000);
	/* expirations: every one delivered or counted as coalesced */
	assert_int_equal(irqkit_irq_get_event_totals(L(1), &tot), 0);
	assert_true(tot.events == (uint64_t)atomic_load(&s0.calls) + atomic_load(&s0.coalesced));

	irqkit_free_irq(L(1), &s0);
	seen_init(&s1, fd);
	assert_int_equal(irqkit_request_irq(L(1), count_handler, 0, "tick", &s1), 0);
	assert_int_equal(timerfd_settime(fd, 0, &one, NULL), 0);
	assert_true(wait_until(atomic_load(&s1.calls) == 1, 5000));
	usleep(20000);
	assert_int_equal(atomic_load(&s1.calls), 1);
	irqkit_free_irq(L(1), &s1);
	close(fd);
}

/* ---- signalfd ----------------------------------------------------------------- */

static int sig_setup(void **state)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	/* blocked before start: every thread of the runtime inherits the mask */
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	return thr_setup(state);
}

static int sig_teardown(void **state)
{
	sigset_t set;
	int ret = thr_teardown(state);

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	return ret;
}

static void test_signalfd_delivers_the_signal_record(void **state)
{
	struct signalfd_siginfo si;
	sigset_t set;
	int fd;

	(void)state;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	fd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	assert_true(fd >= 0);
	seen_init(&s0, fd);
	assert_int_equal(irqkit_fd_bind_signalfd(L(2), fd), 0);
	assert_int_equal(irqkit_request_irq(L(2), count_handler, 0, "sig", &s0), 0);
	assert_int_equal(kill(getpid(), SIGUSR1), 0);
	assert_true(wait_until(atomic_load(&s0.calls) == 1, 5000));
	assert_int_equal(irqkit_fd_last_record(L(2), &si, sizeof(si)), (int)sizeof(si));
	assert_int_equal(si.ssi_signo, SIGUSR1);
	assert_int_equal(si.ssi_pid, getpid());
	irqkit_free_irq(L(2), &s0);
	close(fd);
}

/* ---- the host's signals routed to tasks (fd/sigroute.c) ---------------------------- */

static struct irqkit_wait_queue_head route_wq;

struct route_sleeper {
	atomic_bool	started, done;
	int		ret, sig;
};

static void *route_sleeper_main(void *p)
{
	struct route_sleeper *r = p;

	(void)irqkit_current();		/* a task: on the list that routed signals reach */
	atomic_store(&r->started, true);
	r->ret = irqkit_wait_event_interruptible(route_wq, 0);
	r->sig = irqkit_dequeue_signal();
	atomic_store(&r->done, true);
	return NULL;
}

static void test_routed_signal_ends_an_interruptible_sleep(void **state)
{
	struct route_sleeper r = { 0 };
	pthread_t th;

	(void)state;
	irqkit_init_waitqueue_head(&route_wq);
	assert_int_equal(irqkit_route_signal(SIGUSR2), 0);
	assert_int_equal(irqkit_route_signal(SIGUSR2), -IRQKIT_EALREADY);
	pthread_create(&th, NULL, route_sleeper_main, &r);
	assert_true(wait_until(atomic_load(&r.started), 5000));
	usleep(20000);
	assert_false(atomic_load(&r.done));
	assert_int_equal(kill(getpid(), SIGUSR2), 0);	/* as a terminal's signal comes */
	assert_true(wait_until(atomic_load(&r.done), 5000));
	pthread_join(th, NULL);
	assert_int_equal(r.ret, -IRQKIT_ERESTARTSYS);
	assert_int_equal(r.sig, SIGUSR2);
	assert_true(wait_until(irqkit_signal_pending(irqkit_current()), 5000));	/* this task too */
	irqkit_flush_signals(irqkit_current());
	assert_int_equal(irqkit_unroute_signal(SIGUSR2), 0);
	assert_int_equal(irqkit_unroute_signal(SIGUSR2), -IRQKIT_ENOENT);
	assert_int_equal(irqkit_route_signal(SIGKILL), -IRQKIT_EINVAL);
	assert_int_equal(irqkit_route_signal(0), -IRQKIT_EINVAL);
	assert_int_equal(irqkit_route_signal(65), -IRQKIT_EINVAL);
}

static void test_a_signal_goes_to_a_line_or_to_tasks(void **state)
{
	sigset_t set;
	int fd, fd2;

	(void)state;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	fd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	assert_int_equal(irqkit_fd_bind_signalfd(L(2), fd), 0);
	assert_int_equal(irqkit_route_signal(SIGUSR1), -IRQKIT_EBUSY);
	assert_log_contains("irqkit_route_signal(10): line 42's signalfd takes it");
	/* the other way round: routed first, then a signalfd that takes it */
	assert_int_equal(irqkit_route_signal(SIGUSR2), 0);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR2);
	fd2 = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	assert_int_equal(irqkit_fd_bind_signalfd(L(3), fd2), -IRQKIT_EBUSY);
	assert_log_contains("irqkit_fd_bind_signalfd(43): signal 12 is routed to tasks");
	assert_int_equal(irqkit_unroute_signal(SIGUSR2), 0);
	assert_int_equal(irqkit_fd_bind_signalfd(L(3), fd2), 0);
	close(fd);
	close(fd2);
}

/* ---- a pty as a UART ------------------------------------------------------------ */

static int open_pty(int *slave)
{
	struct termios raw;
	int master;

	assert_int_equal(openpty(&master, slave, NULL, NULL, NULL), 0);
	cfmakeraw(&raw);
	assert_int_equal(tcsetattr(*slave, TCSANOW, &raw), 0);
	return master;
}

static const char tx_msg[] = "transmitted by the tx interrupt";
static atomic_int tx_pos;

static enum irqkit_irqreturn tx_handler(int irq, void *dev)
{
	struct seen *s = dev;
	int pos = atomic_load(&tx_pos);
	ssize_t r = write(s->fd, tx_msg + pos, sizeof(tx_msg) - (size_t)pos);

	if (r > 0)
		atomic_store(&tx_pos, pos += (int)r);
	if (pos == (int)sizeof(tx_msg))
		irqkit_disable_irq_nosync((unsigned int)irq);	/* nothing left: THRI off */
	note(s, irq);
	return IRQKIT_HANDLED;
}

static void test_pty_receive_and_transmit_lines(void **state)
{
	char got[64] = { 0 };
	int slave, master = open_pty(&slave);
	size_t n = 0;

	(void)state;
	seen_init(&s0, master);
	seen_init(&s1, master);
	atomic_store(&tx_pos, 0);
	assert_int_equal(irqkit_fd_bind_tty(L(3), L(4), master), 0);
	assert_int_equal(irqkit_request_irq(L(3), drain_handler, 0, "ttyS0-rx", &s0), 0);
	assert_int_equal(irqkit_request_irq(L(4), tx_handler, IRQKIT_F_NO_AUTOEN, "ttyS0-tx", &s1), 0);
	assert_int_equal(write(slave, "hello", 5), 5);
	assert_true(wait_until(atomic_load(&s0.len) == 5, 5000));
	assert_memory_equal(s0.buf, "hello", 5);
	/* the driver has data to send: it turns the transmit interrupt on */
	irqkit_enable_irq(L(4));
	while (n < sizeof(tx_msg)) {
		struct pollfd p = { .fd = slave, .events = POLLIN };
		ssize_t r;

		assert_int_equal(poll(&p, 1, 5000), 1);
		r = read(slave, got + n, sizeof(got) - n);
		assert_true(r > 0);
		n += (size_t)r;
	}
	assert_string_equal(got, tx_msg);
	assert_true(wait_until(info_of(L(4)).disabled, 5000));	/* turned itself off */
	irqkit_free_irq(L(3), &s0);
	irqkit_free_irq(L(4), &s1);
	assert_int_equal(irqkit_fd_unbind(L(4)), 0);	/* either line unbinds the pair */
	assert_int_equal(irqkit_fd_of(L(3)), -IRQKIT_EINVAL);
	close(slave);
	close(master);
}

static void test_stuck_receive_line_ends_in_nobody_cared(void **state)
{
	int slave, master = open_pty(&slave);

	(void)state;
	seen_init(&s0, master);
	s0.ret = IRQKIT_NONE;
	assert_int_equal(irqkit_fd_bind_tty(L(3), IRQKIT_FD_NO_IRQ, master), 0);
	assert_int_equal(irqkit_request_irq(L(3), drain_handler, 0, "ttyS0", &s0), 0);
	assert_int_equal(write(slave, "x", 1), 1);
	assert_true(wait_until(info_of(L(3)).spurious_disabled, 60000));
	assert_log_contains("irq 43: nobody cared");
	assert_log_contains("Disabling IRQ #43");
	assert_true(atomic_load(&s0.calls) >= 99900);
	/* masked: the still readable descriptor wakes nobody */
	{
		int calls = atomic_load(&s0.calls);

		usleep(50000);
		assert_int_equal(atomic_load(&s0.calls), calls);
	}
	irqkit_free_irq(L(3), &s0);
	close(slave);
	close(master);
}

static void test_pty_whose_other_end_closes_is_reported(void **state)
{
	int slave, master = open_pty(&slave);

	(void)state;
	seen_init(&s0, master);
	assert_int_equal(irqkit_fd_bind_tty(L(3), IRQKIT_FD_NO_IRQ, master), 0);
	assert_int_equal(irqkit_request_irq(L(3), drain_handler, 0, "ttyS0", &s0), 0);
	assert_int_equal(write(slave, "hi", 2), 2);
	assert_true(wait_until(atomic_load(&s0.len) == 2, 5000));
	close(slave);
	assert_true(wait_until(log_contains("irq 43: fd"), 5000));
	assert_true(wait_until(info_of(L(3)).disabled, 5000));
	assert_log_contains("(tty-rx)");
	irqkit_free_irq(L(3), &s0);
	assert_int_equal(irqkit_fd_unbind(L(3)), 0);
	close(master);
}

/* ---- UIO, VFIO and GPIO over test doubles ---------------------------------------- */

static atomic_int uio_done;

static enum irqkit_irqreturn uio_thread(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	usleep(2000);
	atomic_fetch_add(&uio_done, 1);
	return IRQKIT_HANDLED;
}

static enum irqkit_irqreturn uio_quick(int irq, void *dev)
{
	note(dev, irq);
	return IRQKIT_WAKE_THREAD;
}

/* The device side of the double: a count, and the re-enable the driver writes. */
static void uio_fire(int dev, uint32_t count)
{
	assert_int_equal(write(dev, &count, sizeof(count)), (ssize_t)sizeof(count));
}

static int32_t uio_reenable(int dev)
{
	struct pollfd p = { .fd = dev, .events = POLLIN };
	int32_t v = 0;

	assert_int_equal(poll(&p, 1, 5000), 1);
	assert_int_equal(read(dev, &v, sizeof(v)), (ssize_t)sizeof(v));
	return v;
}

static void test_uio_count_gaps_are_lost_and_reenable_follows_the_thread(void **state)
{
	int sv[2];

	(void)state;
	assert_int_equal(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv), 0);
	seen_init(&s0, sv[0]);
	atomic_store(&uio_done, 0);
	assert_int_equal(irqkit_fd_bind_uio(L(5), sv[0]), 0);
	assert_int_equal(irqkit_request_threaded_irq(L(5), uio_quick, uio_thread, IRQKIT_F_ONESHOT,
						     "uio0", &s0), 0);
	assert_int_equal(uio_reenable(sv[1]), 1);	/* enabled at startup */
	uio_fire(sv[1], 10);
	assert_int_equal(uio_reenable(sv[1]), 1);
	assert_int_equal(atomic_load(&uio_done), 1);	/* only once the thread finished */
	uio_fire(sv[1], 11);
	assert_int_equal(uio_reenable(sv[1]), 1);
	assert_int_equal(atomic_load(&uio_done), 2);
	assert_int_equal(atomic_load(&s0.lost), 0);
	uio_fire(sv[1], 14);				/* 12 and 13 never shown */
	assert_int_equal(uio_reenable(sv[1]), 1);
	assert_int_equal(atomic_load(&uio_done), 3);
	assert_int_equal(atomic_load(&s0.lost), 2);
	assert_int_equal(atomic_load(&s0.calls), 3);
	irqkit_free_irq(L(5), &s0);
	close(sv[0]);
	close(sv[1]);
}

static void test_uio_read_of_the_wrong_size_disables_the_line(void **state)
{
	int sv[2];

	(void)state;
	assert_int_equal(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv), 0);
	seen_init(&s0, sv[0]);
	assert_int_equal(irqkit_fd_bind_uio(L(5), sv[0]), 0);
	assert_int_equal(irqkit_request_irq(L(5), count_handler, 0, "uio0", &s0), 0);
	assert_int_equal(write(sv[1], "ab", 2), 2);
	assert_true(wait_until(log_contains("UIO read did not return the 4-byte count"), 5000));
	assert_log_contains("irq 45: fd");
	assert_true(wait_until(info_of(L(5)).disabled, 5000));
	assert_int_equal(atomic_load(&s0.calls), 0);
	irqkit_free_irq(L(5), &s0);
	close(sv[0]);
	close(sv[1]);
}

static void test_vfio_intx_is_unmasked_after_the_handler(void **state)
{
	int trig = efd(), unmask = efd(), junk[1], um;
	uint64_t v, total = 0;

	(void)state;
	seen_init(&s0, trig);
	assert_int_equal(irqkit_fd_bind_vfio(L(6), trig, unmask), 0);
	assert_int_equal(irqkit_request_irq(L(6), count_handler, 0, "vfio-intx", &s0), 0);
	efd_write(trig, 1);
	assert_true(wait_until(atomic_load(&s0.calls) == 1, 5000));
	/* one unmask at startup, one after the handler */
	assert_true(wait_until((read(unmask, &v, sizeof(v)) == sizeof(v) ? total += v : total) == 2,
			       5000));
	irqkit_free_irq(L(6), &s0);
	/* not a VFIO device: the ioctl's answer */
	assert_int_equal(irqkit_vfio_set_irqs(trig, 0, 1, junk, &um), -ENOTTY);
	close(trig);
	close(unmask);
}

static void gpio_event(int fd, uint32_t seqno, uint64_t ts, uint32_t id)
{
	struct gpio_v2_line_event ev = { .timestamp_ns = ts, .id = id, .offset = 7,
					 .seqno = seqno, .line_seqno = seqno };

	assert_int_equal(write(fd, &ev, sizeof(ev)), (ssize_t)sizeof(ev));
}

static void test_gpio_sequence_gaps_are_lost_events(void **state)
{
	struct gpio_v2_line_event last;
	int p[2];

	(void)state;
	assert_int_equal(pipe2(p, O_CLOEXEC), 0);
	seen_init(&s0, p[0]);
	assert_int_equal(irqkit_fd_bind_gpio(L(7), p[0]), 0);
	assert_int_equal(irqkit_request_irq(L(7), count_handler, 0, "gpio-button", &s0), 0);
	gpio_event(p[1], 1, 1000, GPIO_V2_LINE_EVENT_RISING_EDGE);
	assert_true(wait_until(atomic_load(&s0.calls) == 1, 5000));
	gpio_event(p[1], 2, 2000, GPIO_V2_LINE_EVENT_FALLING_EDGE);
	assert_true(wait_until(atomic_load(&s0.calls) == 2, 5000));
	assert_int_equal(atomic_load(&s0.lost), 0);
	gpio_event(p[1], 6, 6000, GPIO_V2_LINE_EVENT_RISING_EDGE);	/* 3, 4, 5 lost */
	assert_true(wait_until(atomic_load(&s0.calls) == 3, 5000));
	assert_int_equal(atomic_load(&s0.lost), 3);
	assert_int_equal(atomic_load(&s0.ts), 6000);
	assert_int_equal(irqkit_fd_last_record(L(7), &last, sizeof(last)), (int)sizeof(last));
	assert_int_equal(last.seqno, 6);
	assert_int_equal(last.id, GPIO_V2_LINE_EVENT_RISING_EDGE);
	/* a stream cut in the middle of a record */
	assert_int_equal(write(p[1], "0123456789", 10), 10);
	assert_true(wait_until(log_contains("read ended in the middle of a record"), 5000));
	assert_true(wait_until(info_of(L(7)).disabled, 5000));
	irqkit_free_irq(L(7), &s0);
	close(p[0]);
	close(p[1]);
}

/* ---- bad input ------------------------------------------------------------------ */

static void test_bad_descriptors_and_lines_are_refused(void **state)
{
	int fd = efd(), closed = efd(), file;
	char path[] = "/tmp/irqkit-fdchip-XXXXXX";

	(void)state;
	close(closed);
	assert_int_equal(irqkit_fd_bind_eventfd(L(0), closed), -IRQKIT_EBADF);
	assert_int_equal(irqkit_fd_bind_eventfd(L(0), -1), -IRQKIT_EBADF);
	file = mkstemp(path);
	assert_true(file >= 0);
	unlink(path);
	assert_int_equal(irqkit_fd_bind(L(0), file, IRQKIT_TYPE_LEVEL_HIGH), -IRQKIT_EPERM);
	close(file);
	assert_int_equal(irqkit_fd_bind(L(0), fd, IRQKIT_TYPE_LEVEL_HIGH | IRQKIT_TYPE_EDGE_RISING),
			 -IRQKIT_EINVAL);
	assert_int_equal(irqkit_fd_bind_eventfd(T_NR_IRQS, fd), -IRQKIT_EINVAL);
	assert_int_equal(irqkit_fd_bind_eventfd(L(0), fd), 0);
	assert_int_equal(irqkit_fd_bind_eventfd(L(1), fd), -IRQKIT_EBUSY);	/* fd on two lines */
	assert_int_equal(irqkit_fd_bind_tty(L(2), L(2), fd), -IRQKIT_EINVAL);
	assert_int_equal(irqkit_request_irq(L(0), count_handler, 0, "efd", &s0), 0);
	assert_int_equal(irqkit_fd_unbind(L(0)), -IRQKIT_EBUSY);		/* free_irq first */
	assert_int_equal(irqkit_irq_set_affinity(L(0), 1ull << 5), -IRQKIT_EINVAL);	/* no such CPU */
	assert_int_equal(irqkit_irq_set_irq_type(L(0), IRQKIT_TYPE_LEVEL_HIGH), -IRQKIT_EINVAL);
	irqkit_free_irq(L(0), &s0);
	assert_int_equal(irqkit_fd_unbind(L(0)), 0);
	assert_int_equal(irqkit_fd_unbind(L(0)), -IRQKIT_EINVAL);
	assert_int_equal(irqkit_fd_last_record(L(0), path, sizeof(path)), -IRQKIT_EINVAL);
	/* a swchip line can be taken over once it has no handler */
	assert_int_equal(irqkit_request_irq(T_EDGE(3), count_handler, 0, "sw", &s0), 0);
	assert_int_equal(irqkit_fd_bind_eventfd(T_EDGE(3), fd), -IRQKIT_EBUSY);
	irqkit_free_irq(T_EDGE(3), &s0);
	close(fd);
}

static void test_deterministic_mode_has_no_dispatcher_to_wait(void **state)
{
	int fd = efd();

	(void)state;
	assert_int_equal(det_setup(NULL), 0);
	assert_int_equal(irqkit_fd_bind_eventfd(L(0), fd), -IRQKIT_EOPNOTSUPP);
	irqkit_stop();
	assert_int_equal(irqkit_fd_bind_eventfd(L(0), fd), -IRQKIT_EINVAL);	/* not started */
	close(fd);
}

static void test_hangup_is_reported_and_the_line_disabled(void **state)
{
	int p[2];

	(void)state;
	assert_int_equal(pipe2(p, O_CLOEXEC), 0);
	seen_init(&s0, p[0]);
	assert_int_equal(irqkit_fd_bind(L(8), p[0], IRQKIT_TYPE_LEVEL_HIGH), 0);
	assert_int_equal(irqkit_request_irq(L(8), drain_handler, 0, "pipe", &s0), 0);
	assert_int_equal(write(p[1], "abc", 3), 3);
	assert_true(wait_until(atomic_load(&s0.len) == 3, 5000));
	close(p[1]);
	assert_true(wait_until(log_contains("hung up (EPOLLHUP); disabling the line"), 5000));
	assert_true(wait_until(info_of(L(8)).disabled, 5000));
	{
		int calls = atomic_load(&s0.calls);

		usleep(50000);	/* no busy loop on a descriptor that keeps saying HUP */
		assert_int_equal(atomic_load(&s0.calls), calls);
		assert_int_equal(log_count("hung up"), 1);
	}
	irqkit_free_irq(L(8), &s0);
	assert_int_equal(irqkit_fd_unbind(L(8)), 0);
	close(p[0]);
}

/* ---- a CPU played by the program's own loop ------------------------------------- */

static atomic_bool loop_writer_stop;
static pid_t loop_tid;

static enum irqkit_irqreturn loop_handler(int irq, void *dev)
{
	struct seen *s = dev;

	if (gettid() != loop_tid)
		atomic_store(&s->overlap, 1);	/* ran elsewhere than on the loop's thread */
	note(s, irq);
	return IRQKIT_HANDLED;
}

static void *loop_device(void *arg)
{
	int fd = (int)(intptr_t)arg;

	for (int i = 0; i < 200 && !atomic_load(&loop_writer_stop); i++) {
		efd_write(fd, 1);
		assert_int_equal(irqkit_sw_raise(T_EDGE(2)), 0);
		usleep(200);
	}
	return NULL;
}

static int loop_setup(void **state)
{
	(void)state;
	return start_world_cfg((struct irqkit_config){ .nr_irqs = T_NR_IRQS, .nr_cpus = 2,
						      .loop_cpus = 1ull << 1 });
}

static void test_loop_cpu_is_played_by_the_programs_epoll_loop(void **state)
{
	struct epoll_event ev = { .events = EPOLLIN };
	int fd = efd(), ep = epoll_create1(EPOLL_CLOEXEC);
	struct irqkit_irq_events tot;
	pthread_t dev;

	(void)state;
	assert_int_equal(nr_threads_named("vcpu/1", NULL), 0);	/* no dispatcher */
	assert_int_equal(irqkit_loop_fd(0), -IRQKIT_EINVAL);		/* CPU 0 has one */
	assert_int_equal(irqkit_loop_run(), -IRQKIT_EINVAL);		/* not bound to CPU 1 */
	seen_init(&s0, fd);
	seen_init(&s1, -1);
	loop_tid = gettid();
	assert_int_equal(irqkit_fd_bind_eventfd(L(0), fd), 0);
	assert_int_equal(irqkit_irq_set_affinity(L(0), 1ull << 1), 0);
	assert_int_equal(irqkit_request_irq(L(0), loop_handler, 0, "efd", &s0), 0);
	assert_int_equal(irqkit_irq_set_affinity(T_EDGE(2), 1ull << 1), 0);
	assert_int_equal(irqkit_request_irq(T_EDGE(2), loop_handler, 0, "sw", &s1), 0);
	assert_int_equal(irqkit_thread_bind(1), 0);
	ev.data.fd = irqkit_loop_fd(1);
	assert_true(ev.data.fd >= 0);
	assert_int_equal(epoll_ctl(ep, EPOLL_CTL_ADD, ev.data.fd, &ev), 0);
	atomic_store(&loop_writer_stop, false);
	assert_int_equal(pthread_create(&dev, NULL, loop_device, (void *)(intptr_t)fd), 0);
	for (;;) {
		struct irqkit_irq_events sw;
		struct epoll_event got;

		assert_int_equal(irqkit_irq_get_event_totals(L(0), &tot), 0);
		assert_int_equal(irqkit_irq_get_event_totals(T_EDGE(2), &sw), 0);
		if (tot.events == 200 && atomic_load(&s0.calls) + tot.coalesced == 200 &&
		    atomic_load(&s1.calls) + sw.coalesced == 200)
			break;
		if (epoll_wait(ep, &got, 1, 5000) != 1) {
			atomic_store(&loop_writer_stop, true);
			fail_msg("the loop's descriptor did not become readable: fd events %llu, "
				 "fd runs %d + coalesced %llu, sw runs %d + coalesced %llu, sw pending %d",
				 (unsigned long long)tot.events, atomic_load(&s0.calls),
				 (unsigned long long)tot.coalesced,
				 atomic_load(&s1.calls), (unsigned long long)sw.coalesced,
				 info_of(T_EDGE(2)).pending);
		}
		assert_true(irqkit_loop_run() >= 0);
	}
	pthread_join(dev, NULL);
	assert_int_equal(atomic_load(&s0.calls) + (int)tot.coalesced, 200);
	assert_false(atomic_load(&s0.overlap));
	assert_false(atomic_load(&s1.overlap));
	irqkit_local_irq_disable();
	assert_int_equal(irqkit_loop_run(), -IRQKIT_EBUSY);
	irqkit_local_irq_enable();
	assert_int_equal(irqkit_thread_unbind(), 0);
	irqkit_free_irq(L(0), &s0);
	irqkit_free_irq(T_EDGE(2), &s1);
	close(ep);
	close(fd);
}

static void test_loop_cpus_are_checked_at_start(void **state)
{
	(void)state;
	assert_int_equal(irqkit_start(&(struct irqkit_config){ .nr_cpus = 2, .loop_cpus = 1ull << 2 }),
			 -IRQKIT_EINVAL);
	assert_int_equal(irqkit_start(&(struct irqkit_config){ .nr_cpus = 2, .loop_cpus = 1,
							       .mode = IRQKIT_MODE_DETERMINISTIC }),
			 -IRQKIT_EINVAL);
}

/* A pipe's write end whose reader went away is in error (EPOLLERR): reported, disabled. */
static void test_error_condition_is_reported_and_the_line_disabled(void **state)
{
	int p[2];

	(void)state;
	assert_int_equal(pipe2(p, O_CLOEXEC), 0);
	seen_init(&s0, p[1]);
	assert_int_equal(irqkit_fd_bind(L(8), p[1], IRQKIT_TYPE_LEVEL_HIGH), 0);
	assert_int_equal(irqkit_request_irq(L(8), count_handler, 0, "pipe-w", &s0), 0);
	close(p[0]);
	assert_true(wait_until(log_contains("error condition (EPOLLERR); disabling the line"), 5000));
	assert_true(wait_until(info_of(L(8)).disabled, 5000));
	usleep(20000);
	assert_int_equal(log_count("error condition"), 1);
	irqkit_free_irq(L(8), &s0);
	assert_int_equal(irqkit_fd_unbind(L(8)), 0);
	close(p[1]);
}

/*
 * The caller closes the bound descriptor while its line is requested and
 * the file lives on through another descriptor: epoll still reports it, the
 * read fails with EBADF, and that is reported and the line disabled.
 */
static void test_descriptor_closed_under_a_requested_line_is_reported(void **state)
{
	int fd = efd(), other = fcntl(fd, F_DUPFD_CLOEXEC, 0);

	(void)state;
	seen_init(&s0, fd);
	assert_int_equal(irqkit_fd_bind_eventfd(L(0), fd), 0);
	assert_int_equal(irqkit_request_irq(L(0), count_handler, 0, "efd", &s0), 0);
	efd_write(other, 1);
	assert_true(wait_until(atomic_load(&s0.calls) == 1, 5000));
	close(fd);
	efd_write(other, 1);
	assert_true(wait_until(log_contains("read failed (Bad file descriptor); disabling the line"),
			       5000));
	assert_true(wait_until(info_of(L(0)).disabled, 5000));
	assert_int_equal(atomic_load(&s0.calls), 1);
	irqkit_free_irq(L(0), &s0);
	assert_int_equal(irqkit_fd_unbind(L(0)), 0);
	close(other);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_eventfd_write_runs_the_handler_on_the_lines_cpu,
						thr_setup, thr_teardown),
		cmocka_unit_test_setup_teardown(test_wait_delivered_counts_an_arrival_still_in_the_descriptor,
						thr_setup, thr_teardown),
		cmocka_unit_test_setup_teardown(test_a_later_turn_counts_its_own_events,
						thr_setup, thr_teardown),
		cmocka_unit_test_setup_teardown(test_line_and_descriptor_leave_an_offline_cpu,
						thr_setup, thr_teardown),
		cmocka_unit_test_setup_teardown(test_eventfd_counter_is_the_number_of_coalesced_events,
						thr_setup, thr_teardown),
		cmocka_unit_test_setup_teardown(test_free_irq_stops_reading_the_descriptor,
						thr_setup, thr_teardown),
		cmocka_unit_test_setup_teardown(test_timerfd_periodic_and_one_shot,
						thr_setup, thr_teardown),
		cmocka_unit_test_setup_teardown(test_routed_signal_ends_an_interruptible_sleep,
						thr_setup, thr_teardown),
		cmocka_unit_test_setup_teardown(test_a_signal_goes_to_a_line_or_to_tasks, sig_setup,
						sig_teardown),
		cmocka_unit_test_setup_teardown(test_signalfd_delivers_the_signal_record,
						sig_setup, sig_teardown),
		cmocka_unit_test_setup_teardown(test_pty_receive_and_transmit_lines,
						thr_setup, thr_teardown),
		cmocka_unit_test_setup_teardown(test_stuck_receive_line_ends_in_nobody_cared,
						thr_setup, thr_teardown),
		cmocka_unit_test_setup_teardown(test_pty_whose_other_end_closes_is_reported,
						thr_setup, thr_teardown),
		cmocka_unit_test_setup_teardown(test_uio_count_gaps_are_lost_and_reenable_follows_the_thread,
						thr_setup, thr_teardown),
		cmocka_unit_test_setup_teardown(test_uio_read_of_the_wrong_size_disables_the_line,
						thr_setup, thr_teardown),
		cmocka_unit_test_setup_teardown(test_vfio_intx_is_unmasked_after_the_handler,
						thr_setup, thr_teardown),
		cmocka_unit_test_setup_teardown(test_gpio_sequence_gaps_are_lost_events,
						thr_setup, thr_teardown),
		cmocka_unit_test_setup_teardown(test_bad_descriptors_and_lines_are_refused,
						thr_setup, thr_teardown),
		cmocka_unit_test(test_deterministic_mode_has_no_dispatcher_to_wait),
		cmocka_unit_test_setup_teardown(test_hangup_is_reported_and_the_line_disabled,
						thr_setup, thr_teardown),
		cmocka_unit_test_setup_teardown(test_descriptor_closed_under_a_requested_line_is_reported,
						thr_setup, thr_teardown),
		cmocka_unit_test_setup_teardown(test_error_condition_is_reported_and_the_line_disabled,
						thr_setup, thr_teardown),
		cmocka_unit_test_setup_teardown(test_loop_cpu_is_played_by_the_programs_epoll_loop,
						loop_setup, thr_teardown),
		cmocka_unit_test(test_loop_cpus_are_checked_at_start),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
