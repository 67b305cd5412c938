// SPDX-License-Identifier: MIT
/*
 * Recording a device's interrupts and replaying them (<irqkit/record.h>):
 * a recording made in threaded mode from GPIO event records (a pipe that
 * speaks the v2 uAPI's records), an eventfd and a UIO count replays in the
 * simulator with the same arrivals, lost events and records at the
 * recorded times; a driver race that needs two arrivals within its bottom
 * half's window is found from a recording of such a burst and not from a
 * recording of the same events spaced out; and every kind of bad input is
 * an error with a log line, nothing left bound.
 *
 * IRQKIT_RECORDING_DIR=DIR runs instead the tests of the guest rig's
 * recordings (tests/guest/run.sh): uio.rec and gpio-{slow,spaced,pairs,
 * burst}.rec, each with NAME.expect ("IRQ EVENTS LOST", what the
 * guest's chip counted while recording), replay in the simulator with the
 * same counts, and the driver of test 2 finds its race in the GPIO chip's
 * burst and not in its slow toggles.
 */
#define _GNU_SOURCE
#include "../harness.h"

#include <irqkit/explore.h>

#include <errno.h>
#include <fcntl.h>
#include <linux/gpio.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#define L(n)		(T_NOCHIP + (n))
#define GPIO_IRQ	L(7)
#define EFD_IRQ		L(8)
#define UIO_IRQ		L(9)

static char dir[64];

/* irqkit's clock (virtual in the simulator), to a jiffy */
static uint64_t now_ns(void)
{
	return irqkit_get_jiffies_64() * (1000000000ull / irqkit_hz());
}

/* The line is on no chip: nothing of a replay or recording is left on it. */
static bool unbound(unsigned int irq)
{
	return irqkit_irq_get_irq_data(irq)->chip == &irqkit_no_irq_chip;
}

static const char *path_of(const char *name)
{
	static char buf[4][128];
	static int next;
	char *p = buf[next++ % 4];

	snprintf(p, sizeof(buf[0]), "%s/%s", dir, name);
	return p;
}

/* ---- what a handler saw ------------------------------------------------------- */

#define SEEN_MAX	256

struct seen {
	atomic_int	calls;
	atomic_ullong	events, coalesced, lost;
	uint32_t	seq[SEEN_MAX];	/* GPIO: the last record's seqno at each call */
	uint64_t	when[SEEN_MAX];	/* ktime_get_ns() at each call */
};

static struct seen sg, se, su;

static enum irqkit_irqreturn note_handler(int irq, void *dev)
{
	struct seen *s = dev;
	struct irqkit_irq_events ev;
	struct gpio_v2_line_event rec;
	int n = atomic_load(&s->calls);

	if (irqkit_irq_get_events((unsigned int)irq, &ev))
		return IRQKIT_NONE;
	atomic_fetch_add(&s->events, ev.events);
	atomic_fetch_add(&s->coalesced, ev.coalesced);
	atomic_fetch_add(&s->lost, ev.lost);
	if (n < SEEN_MAX) {
		s->seq[n] = irqkit_fd_last_record((unsigned int)irq, &rec, sizeof(rec)) ==
			    (int)sizeof(rec) ? rec.seqno : 0;
		s->when[n] = now_ns();
	}
	atomic_store(&s->calls, n + 1);
	return IRQKIT_HANDLED;
}

/* ---- the device side when recording ------------------------------------------ */

static void gpio_event(int fd, uint32_t seqno)
{
	struct gpio_v2_line_event ev = { .timestamp_ns = seqno * 1000ull, .offset = 3,
					 .id = GPIO_V2_LINE_EVENT_RISING_EDGE,
					 .seqno = seqno, .line_seqno = seqno };

	assert_int_equal(write(fd, &ev, sizeof(ev)), (ssize_t)sizeof(ev));
}

static void efd_add(int fd, uint64_t v)
{
	assert_int_equal(write(fd, &v, sizeof(v)), (ssize_t)sizeof(v));
}

static void uio_count(int fd, uint32_t count)
{
	int32_t one;

	assert_int_equal(write(fd, &count, sizeof(count)), (ssize_t)sizeof(count));
	/* the chip re-enables after the handler: the device's side reads the 1 */
	assert_int_equal(read(fd, &one, sizeof(one)), (ssize_t)sizeof(one));
	assert_int_equal(one, 1);
}

/*
 * Record the GPIO line: @n events.  @burst: each even event follows the odd
 * one as soon as its handler ran (a burst, two arrivals some microseconds
 * apart); else every event 5 ms after the last was handled.  Seqno 5 is
 * skipped (lost, as a kernel FIFO overflow shows it).
 */
static long record_gpio(const char *path, int n, bool burst)
{
	unsigned int irqs[] = { GPIO_IRQ };
	int p[2], calls = 0;
	long ret;

	assert_int_equal(thr_setup_cpus(2, T_NR_IRQS), 0);
	assert_int_equal(pipe2(p, O_CLOEXEC), 0);
	memset(&sg, 0, sizeof(sg));
	assert_int_equal(irqkit_fd_bind_gpio(GPIO_IRQ, p[0]), 0);
	assert_int_equal(irqkit_record_start(path, irqs, 1), 0);
	assert_int_equal(irqkit_request_irq(GPIO_IRQ, note_handler, 0, "gpio-rec", &sg), 0);
	for (int i = 1, seq = 1; i <= n; i++, seq++) {
		if (seq == 5)
			seq++;
		gpio_event(p[1], (uint32_t)seq);
		calls++;
		assert_true(wait_until(atomic_load(&sg.calls) == calls, 5000));
		if (!burst || i % 2 == 0)
			usleep(5000);
	}
	irqkit_free_irq(GPIO_IRQ, &sg);
	ret = irqkit_record_stop();
	assert_int_equal(irqkit_fd_unbind(GPIO_IRQ), 0);
	close(p[0]);
	close(p[1]);
	thr_teardown(NULL);
	return ret;
}

static int sim_world(uint64_t seed)
{
	return start_world_cfg((struct irqkit_config){
		.nr_irqs = T_NR_IRQS, .nr_cpus = 2, .mode = IRQKIT_MODE_SIM, .sim_seed = seed });
}

/* ---- 1: what a handler sees is what it saw ----------------------------------------- */

static void test_recording_replays_the_same_arrivals_in_the_simulator(void **state)
{
	unsigned int irqs[] = { GPIO_IRQ, EFD_IRQ, UIO_IRQ };
	struct seen rg, re, ru;
	struct irqkit_replay *r;
	struct irqkit_replay_info info;
	int p[2], efd, sv[2];
	uint64_t t0;

	(void)state;
	/* recording, threaded mode: GPIO records with a gap, eventfd counts, a UIO count with a gap */
	assert_int_equal(thr_setup_cpus(2, T_NR_IRQS), 0);
	assert_int_equal(pipe2(p, O_CLOEXEC), 0);
	efd = eventfd(0, EFD_CLOEXEC);
	assert_true(efd >= 0);
	assert_int_equal(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv), 0);
	memset(&sg, 0, sizeof(sg));
	memset(&se, 0, sizeof(se));
	memset(&su, 0, sizeof(su));
	assert_int_equal(irqkit_fd_bind_gpio(GPIO_IRQ, p[0]), 0);
	assert_int_equal(irqkit_fd_bind_eventfd(EFD_IRQ, efd), 0);
	assert_int_equal(irqkit_fd_bind_uio(UIO_IRQ, sv[0]), 0);
	assert_int_equal(irqkit_record_start(path_of("one.rec"), irqs, 3), 0);
	assert_int_equal(irqkit_record_start(path_of("two.rec"), irqs, 1), -EBUSY);
	assert_int_equal(irqkit_request_irq(GPIO_IRQ, note_handler, 0, "gpio", &sg), 0);
	assert_int_equal(irqkit_request_irq(EFD_IRQ, note_handler, 0, "efd", &se), 0);
	assert_int_equal(irqkit_request_irq(UIO_IRQ, note_handler, 0, "uio", &su), 0);
	{
		int32_t one;	/* the re-enable written at startup */

		assert_int_equal(read(sv[1], &one, sizeof(one)), (ssize_t)sizeof(one));
	}
	t0 = now_ns();
	gpio_event(p[1], 1);
	assert_true(wait_until(atomic_load(&sg.calls) == 1, 5000));
	usleep(3000);
	gpio_event(p[1], 2);
	gpio_event(p[1], 5);		/* 3 and 4 lost; maybe read with 2, maybe alone */
	assert_true(wait_until(sg.events == 5, 5000));
	efd_add(efd, 3);
	assert_true(wait_until(atomic_load(&se.calls) == 1, 5000));
	usleep(2000);
	efd_add(efd, 1);
	assert_true(wait_until(atomic_load(&se.calls) == 2, 5000));
	uio_count(sv[1], 10);
	uio_count(sv[1], 13);		/* 11 and 12 lost */
	assert_true(wait_until(atomic_load(&su.calls) == 2, 5000));
	usleep(4000);
	gpio_event(p[1], 6);
	assert_true(wait_until(sg.events == 6, 5000));
	irqkit_free_irq(GPIO_IRQ, &sg);
	irqkit_free_irq(EFD_IRQ, &se);
	irqkit_free_irq(UIO_IRQ, &su);
	assert_true(irqkit_record_stop() >= 7);
	assert_int_equal(irqkit_record_stop(), -EINVAL);
	close(p[0]);
	close(p[1]);
	close(efd);
	close(sv[0]);
	close(sv[1]);
	thr_teardown(NULL);
	assert_int_equal(sg.lost, 2);
	assert_int_equal(su.lost, 2);
	assert_int_equal(se.events, 4);

	/* replay in the simulator: the same counts and records, at the recorded times */
	for (uint64_t seed = 1; seed <= 3; seed++) {
		assert_int_equal(sim_world(seed), 0);
		memset(&rg, 0, sizeof(rg));
		memset(&re, 0, sizeof(re));
		memset(&ru, 0, sizeof(ru));
		assert_int_equal(irqkit_replay_open(path_of("one.rec"), &r), 0);
		assert_int_equal(irqkit_replay_info(r, &info), 0);
		assert_int_equal(info.nr_lines, 3);
		assert_int_equal(info.irqs[0], GPIO_IRQ);
		assert_true(info.duration_ns >= 9000000);	/* the sleeps between them */
		assert_int_equal(irqkit_request_irq(GPIO_IRQ, note_handler, 0, "gpio", &rg), 0);
		assert_int_equal(irqkit_request_irq(EFD_IRQ, note_handler, 0, "efd", &re), 0);
		assert_int_equal(irqkit_request_irq(UIO_IRQ, note_handler, 0, "uio", &ru), 0);
		t0 = now_ns();
		assert_int_equal(irqkit_replay_start(r), 0);
		assert_int_equal(irqkit_replay_start(r), -EALREADY);
		assert_int_equal(irqkit_replay_wait(r), (long)info.arrivals);
		for (unsigned int i = 0; i < 3; i++)
			assert_int_equal(irqkit_wait_delivered(irqs[i], 1000), 0);
		assert_int_equal(irqkit_replay_close(r), -EBUSY);	/* handlers still there */
		assert_int_equal(rg.events, sg.events);
		assert_int_equal(rg.lost, sg.lost);
		assert_int_equal(re.events, se.events);
		assert_int_equal(ru.events, su.events);
		assert_int_equal(ru.lost, su.lost);
		/* the records, in order: the last one each call saw */
		assert_int_equal(rg.seq[atomic_load(&rg.calls) - 1], 6);
		assert_int_equal(rg.seq[0], 1);
		/* the times: the last GPIO arrival came after the sleeps, in virtual time */
		assert_true(rg.when[atomic_load(&rg.calls) - 1] - t0 >= 9000000 - 1000000000ull / irqkit_hz());
		irqkit_free_irq(GPIO_IRQ, &rg);
		irqkit_free_irq(EFD_IRQ, &re);
		irqkit_free_irq(UIO_IRQ, &ru);
		assert_int_equal(irqkit_replay_close(r), 0);
		assert_int_equal(unbound(GPIO_IRQ), true);	/* unbound again */
		irqkit_stop();
	}
}

/* ---- 2: a race that needs a burst ---------------------------------------------------- */

/*
 * A driver that keeps the device's status from its top half for its bottom
 * half in one field: the bottom half (a threaded handler, a bus transfer of
 * 1 ms first) processes whatever is there when it gets to it.  A second
 * arrival within that millisecond overwrites the first one's status: the
 * first event is never processed and the second twice.  Not IRQF_ONESHOT,
 * so the line stays unmasked while the thread runs.
 */
struct burstdrv {
	uint32_t	status;		/* written by the top half */
	uint32_t	done[SEEN_MAX];
	int		ndone;
	bool		twice;		/* an event processed twice */
};

static struct burstdrv bd;

static enum irqkit_irqreturn burst_top(int irq, void *dev)
{
	struct burstdrv *d = dev;
	struct gpio_v2_line_event rec;

	if (irqkit_fd_last_record((unsigned int)irq, &rec, sizeof(rec)) != (int)sizeof(rec))
		return IRQKIT_NONE;
	__atomic_store_n(&d->status, rec.seqno, __ATOMIC_RELAXED);
	return IRQKIT_WAKE_THREAD;
}

static enum irqkit_irqreturn burst_thread(int irq, void *dev)
{
	struct burstdrv *d = dev;
	uint32_t st;

	(void)irq;
	irqkit_usleep_range(1000, 1000);	/* the bus transfer before the status is used */
	st = __atomic_load_n(&d->status, __ATOMIC_RELAXED);
	for (int i = 0; i < d->ndone; i++)
		if (d->done[i] == st)
			d->twice = true;
	if (d->ndone < SEEN_MAX)
		d->done[d->ndone++] = st;
	return IRQKIT_HANDLED;
}

static const char *burst_path;

static int burst_body(void *arg)
{
	struct irqkit_replay *r;
	struct irqkit_replay_info info;
	unsigned int irq;

	(void)arg;
	if (sim_world(0))
		return -1;
	memset(&bd, 0, sizeof(bd));
	if (irqkit_replay_open(burst_path, &r) || irqkit_replay_info(r, &info))
		return -1;
	irq = info.irqs[0];		/* the recording's GPIO line */
	if (irqkit_request_threaded_irq(irq, burst_top, burst_thread, 0, "burstdrv", &bd) ||
	    irqkit_replay_start(r) || irqkit_replay_wait(r) < 0)
		return -1;
	irqkit_synchronize_irq(irq);
	irqkit_msleep(5);
	irqkit_synchronize_irq(irq);
	irqkit_free_irq(irq, &bd);
	if (irqkit_replay_close(r))
		return -1;
	irqkit_stop();
	return bd.twice ? 1 : 0;
}

static uint64_t gap_at[SEEN_MAX];
static atomic_int gap_n;

static enum irqkit_irqreturn gap_handler(int irq, void *dev)
{
	int n = atomic_load(&gap_n);

	(void)irq;
	(void)dev;
	if (n < SEEN_MAX)
		gap_at[n] = irqkit_ktime_get_ns();
	atomic_store(&gap_n, n + 1);
	return IRQKIT_HANDLED;
}

/* The shortest time between two arrivals of recording @path, as the simulator replays it. */
static uint64_t shortest_gap_ns(const char *path)
{
	struct irqkit_replay *r;
	struct irqkit_replay_info info;
	uint64_t gap = UINT64_MAX;

	atomic_store(&gap_n, 0);
	assert_int_equal(sim_world(1), 0);
	assert_int_equal(irqkit_replay_open(path, &r), 0);
	assert_int_equal(irqkit_replay_info(r, &info), 0);
	assert_int_equal(irqkit_request_irq(info.irqs[0], gap_handler, 0, "gap", NULL), 0);
	assert_int_equal(irqkit_replay_start(r), 0);
	assert_true(irqkit_replay_wait(r) > 0);
	assert_int_equal(irqkit_wait_delivered(info.irqs[0], 1000), 0);
	irqkit_free_irq(info.irqs[0], NULL);
	assert_int_equal(irqkit_replay_close(r), 0);
	irqkit_stop();
	for (int i = 1; i < atomic_load(&gap_n) && i < SEEN_MAX; i++)
		if (gap_at[i] - gap_at[i - 1] < gap)
			gap = gap_at[i] - gap_at[i - 1];
	return gap;
}

static void test_burst_race_is_found_from_a_recording_of_a_burst_only(void **state)
{
	struct irqkit_explore_cfg cfg = { .random_runs = 30, .seed = 5, .timeout_ms = 20000 };
	struct irqkit_explore_result res;
	uint64_t gap = UINT64_MAX;

	(void)state;
	assert_int_equal(record_gpio(path_of("steady.rec"), 8, false), 8);
	/*
	 * A burst is two arrivals within the bottom half's millisecond.  The
	 * recording is of real time: on a loaded machine the second write may
	 * come late, so the burst is recorded again until the recording has
	 * one (the race needs a burst; the timing is the machine's).
	 */
	for (int try = 0; try < 10 && gap >= 500000; try++) {
		assert_int_equal(record_gpio(path_of("burst.rec"), 8, true), 8);
		gap = shortest_gap_ns(path_of("burst.rec"));
		if (gap >= 500000)
			test_printf("  the burst was recorded %llu us apart: recording it again\n",
				    (unsigned long long)(gap / 1000));
	}
	assert_true(gap < 500000);
	/* the same events spaced out: no schedule shows the race */
	burst_path = path_of("steady.rec");
	assert_explore_passes(&cfg, burst_body, NULL);
	/* two arrivals within the bottom half's millisecond: found */
	burst_path = path_of("burst.rec");
	assert_int_equal(irqkit_explore(&cfg, burst_body, NULL, &res), 1);
	assert_string_equal(res.why, "the body returned 1");
}

/* ---- 3: bad input ---------------------------------------------------------------------- */

static void write_file(const char *path, const void *p, size_t n)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(p, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
}

static size_t read_whole(const char *path, unsigned char *buf, size_t cap)
{
	FILE *f = fopen(path, "rb");
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, cap, f);
	fclose(f);
	return n;
}

static void assert_refused(const char *path, int err, const char *why)
{
	struct irqkit_replay *r = NULL;

	log_clear();
	assert_int_equal(irqkit_replay_open(path, &r), err);
	assert_null(r);
	assert_log_contains(why);
	assert_int_equal(unbound(GPIO_IRQ), true);	/* nothing left bound */
}

static void test_bad_recordings_are_refused_with_a_reason(void **state)
{
	unsigned char good[4096], bad[4096];
	const char *p = path_of("bad.rec");
	struct irqkit_replay *r;
	size_t n;
	int ret;

	(void)state;
	assert_int_equal(record_gpio(path_of("good.rec"), 4, false), 4);
	n = read_whole(path_of("good.rec"), good, sizeof(good));
	assert_true(n > 20 && n < sizeof(good));

	assert_int_equal(sim_world(1), 0);
	assert_refused(path_of("none.rec"), -ENOENT, "cannot open");
	write_file(p, "not a recording at all", 22);
	assert_refused(p, -EPROTO, "not an irqkit recording");
	memcpy(bad, good, n);
	bad[8] = 2;			/* the format version */
	write_file(p, bad, n);
	assert_refused(p, -EPROTO, "recording format version 2; this irqkit reads version 1");
	/* every cut of the file: truncated, never a crash or a line left bound */
	for (size_t cut = 0; cut < n; cut++) {
		write_file(p, good, cut);
		log_clear();
		ret = irqkit_replay_open(p, &r);
		if (ret != -EPROTO)
			fail_msg("a recording cut at byte %zu of %zu: %d", cut, n, ret);
		assert_int_equal(unbound(GPIO_IRQ), true);
	}
	assert_log_contains("truncated");
	/* a line the runtime does not have: the recording says irq 200 */
	memcpy(bad, good, n);
	assert_int_equal(bad[11], GPIO_IRQ);	/* magic, version, lines, cpus, then the irq */
	bad[11] = 0xc8;
	bad[12] = 0x01;			/* 200, in two bytes: shift the rest */
	memcpy(bad + 13, good + 12, n - 12);
	write_file(p, bad, n + 1);
	assert_refused(p, -ENODEV, "irq 200 of the recording: this runtime has 64 lines");
	/* a line that is busy */
	assert_int_equal(irqkit_swchip_add(GPIO_IRQ, 1, IRQKIT_TYPE_EDGE_RISING), 0);
	assert_int_equal(irqkit_request_irq(GPIO_IRQ, note_handler, 0, "busy", &sg), 0);
	log_clear();
	assert_int_equal(irqkit_replay_open(path_of("good.rec"), &r), -EBUSY);
	assert_log_contains("cannot bind irq");
	irqkit_free_irq(GPIO_IRQ, &sg);
	/* one replay at a time */
	assert_int_equal(irqkit_replay_open(path_of("good.rec"), &r), 0);
	{
		struct irqkit_replay *r2 = NULL;

		assert_int_equal(irqkit_replay_open(path_of("good.rec"), &r2), -EBUSY);
		assert_null(r2);
	}
	assert_int_equal(irqkit_replay_wait(r), -EINVAL);	/* not started */
	assert_int_equal(irqkit_replay_close(r), 0);
	assert_int_equal(irqkit_replay_close(NULL), -EINVAL);
	irqkit_stop();

	/* deterministic mode has no CPU that waits for a source */
	assert_int_equal(det_setup(NULL), 0);
	assert_int_equal(irqkit_replay_open(path_of("good.rec"), &r), -EOPNOTSUPP);
	det_teardown(NULL);
}

static void test_bad_recording_starts(void **state)
{
	unsigned int two[] = { L(3), L(3) }, tty[] = { L(4) }, unbound[] = { L(6) };
	int p[2];

	(void)state;
	assert_int_equal(irqkit_record_start(path_of("x.rec"), tty, 1), -EINVAL);	/* no runtime */
	assert_int_equal(thr_setup_cpus(2, T_NR_IRQS), 0);
	assert_int_equal(pipe2(p, O_CLOEXEC), 0);
	assert_int_equal(irqkit_record_start(path_of("x.rec"), NULL, 1), -EINVAL);
	assert_int_equal(irqkit_record_start(path_of("x.rec"), tty, 0), -EINVAL);
	assert_int_equal(irqkit_record_start(path_of("x.rec"), unbound, 1), -EINVAL);
	assert_int_equal(irqkit_fd_bind_gpio(L(3), p[0]), 0);
	assert_int_equal(irqkit_record_start(path_of("x.rec"), two, 2), -EINVAL);
	/* a descriptor its handler reads: what it read is not the chip's to keep */
	assert_int_equal(irqkit_fd_bind(L(4), p[1], IRQKIT_TYPE_LEVEL_HIGH), 0);
	log_clear();
	assert_int_equal(irqkit_record_start(path_of("x.rec"), tty, 1), -EOPNOTSUPP);
	assert_log_contains("only sources the chip reads can be recorded");
	log_clear();
	assert_int_equal(irqkit_record_start("/nonexistent/dir/x.rec", two, 1), -ENOENT);
	assert_log_contains("cannot create");
	assert_int_equal(irqkit_record_stop(), -EINVAL);
	/* a full disk: the write fails, is said, and the stop returns it */
	if (access("/dev/full", W_OK) == 0) {
		assert_int_equal(irqkit_record_start("/dev/full", two, 1), 0);
		log_clear();
		assert_int_equal(irqkit_record_stop(), -ENOSPC);
		assert_log_contains("recording: write failed");
	}
	assert_int_equal(irqkit_fd_unbind(L(3)), 0);
	assert_int_equal(irqkit_fd_unbind(L(4)), 0);
	close(p[0]);
	close(p[1]);
	thr_teardown(NULL);
}

/* ---- 4: recordings made elsewhere (the guest rig's) ----------------------------------- */

static const char *outside_dir;

static bool read_expect(const char *name, unsigned int *irq, unsigned long long *events,
			unsigned long long *lost)
{
	char path[512];
	FILE *f;
	int n;

	snprintf(path, sizeof(path), "%s/%s.expect", outside_dir, name);
	f = fopen(path, "r");
	if (!f)
		return false;
	n = fscanf(f, "%u %llu %llu", irq, events, lost);
	fclose(f);
	return n == 3;
}

/* NAME.rec replays with what NAME.expect says the guest's chip counted. */
static void replay_outside(const char *name)
{
	char path[512];
	struct irqkit_replay *r;
	struct irqkit_replay_info info;
	unsigned int irq;
	unsigned long long events, lost;
	struct irqkit_irq_events tot;

	if (!read_expect(name, &irq, &events, &lost))
		fail_msg("%s/%s.expect: missing or unreadable", outside_dir, name);
	snprintf(path, sizeof(path), "%s/%s.rec", outside_dir, name);
	assert_int_equal(sim_world(1), 0);
	assert_int_equal(irqkit_replay_open(path, &r), 0);
	assert_int_equal(irqkit_replay_info(r, &info), 0);
	assert_int_equal(info.nr_lines, 1);
	assert_int_equal(info.irqs[0], irq);
	memset(&sg, 0, sizeof(sg));
	assert_int_equal(irqkit_request_irq(irq, note_handler, 0, "replayed", &sg), 0);
	assert_int_equal(irqkit_replay_start(r), 0);
	assert_int_equal(irqkit_replay_wait(r), (long)info.arrivals);
	assert_int_equal(irqkit_wait_delivered(irq, 1000), 0);
	assert_int_equal(irqkit_irq_get_event_totals(irq, &tot), 0);
	test_printf("# %s: %lu reads over %.3f s; the guest counted %llu events, %llu lost; "
		    "the replay %llu events, %llu lost, in %d calls\n", name, info.arrivals,
		    info.duration_ns / 1e9, events, lost, (unsigned long long)tot.events,
		    (unsigned long long)tot.lost, atomic_load(&sg.calls));
	assert_int_equal(tot.events, events);
	assert_int_equal(tot.lost, lost);
	irqkit_free_irq(irq, &sg);
	assert_int_equal(irqkit_replay_close(r), 0);
	irqkit_stop();
}

static void test_guest_uio_recording_replays(void **state)
{
	(void)state;
	replay_outside("uio");
}

static void test_guest_gpio_recordings_replay(void **state)
{
	(void)state;
	replay_outside("gpio-slow");
	replay_outside("gpio-spaced");
	replay_outside("gpio-pairs");
	replay_outside("gpio-burst");
}

/*
 * The driver of test 2 on the real GPIO chip's arrivals: the pairs (a
 * second edge a few hundred microseconds after the first was handled) show
 * its race; the same number of edges spaced 3 ms after each handler do not.
 */
static void test_guest_burst_shows_the_race(void **state)
{
	struct irqkit_explore_cfg cfg = { .random_runs = 20, .seed = 9, .timeout_ms = 60000 };
	struct irqkit_explore_result res;
	char slow[512], burst[512];

	(void)state;
	snprintf(slow, sizeof(slow), "%s/gpio-spaced.rec", outside_dir);
	snprintf(burst, sizeof(burst), "%s/gpio-pairs.rec", outside_dir);
	burst_path = slow;
	assert_explore_passes(&cfg, burst_body, NULL);
	burst_path = burst;
	assert_int_equal(irqkit_explore(&cfg, burst_body, NULL, &res), 1);
	assert_string_equal(res.why, "the body returned 1");
}

static int group_setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/irqkit-rec-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int group_teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_recording_replays_the_same_arrivals_in_the_simulator),
		cmocka_unit_test(test_burst_race_is_found_from_a_recording_of_a_burst_only),
		cmocka_unit_test(test_bad_recordings_are_refused_with_a_reason),
		cmocka_unit_test(test_bad_recording_starts),
	};
	const struct CMUnitTest outside[] = {
		cmocka_unit_test(test_guest_uio_recording_replays),
		cmocka_unit_test(test_guest_gpio_recordings_replay),
		cmocka_unit_test(test_guest_burst_shows_the_race),
	};

	/* the guest rig's recordings: only the tests that need them */
	outside_dir = getenv("IRQKIT_RECORDING_DIR");
	if (outside_dir && *outside_dir)
		return cmocka_run_group_tests(outside, NULL, NULL);
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
