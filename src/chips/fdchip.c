// SPDX-License-Identifier: MIT
/*
 * The fd chip (Linux user space): lines whose input is a file descriptor.
 * The descriptor sits in the set of descriptors that the line's virtual CPU
 * watches while idle, a service of the host platform (platform.h, "File
 * descriptors"; posix: an epoll set per CPU), which hands each ready
 * descriptor to fdchip_event() below, on that CPU's thread, awake,
 * interrupts on.
 *
 * Two families, as controllers have:
 *
 *  - edge sources (eventfd, timerfd, signalfd, GPIO events, VFIO MSI, any
 *    descriptor bound as edge): epoll's edge-triggered mode, handle_edge_irq.
 *    When the CPU takes the interrupt the chip reads what the arrival left
 *    (the counter, the expirations, the records) and counts it; then the
 *    flow runs, on the spot when the CPU is free (the direct path), else the
 *    arrival is latched and signalled to the CPU, whose claim takes the latch.
 *  - level sources (a tty's receive and transmit, TAP, any descriptor bound
 *    as level; also UIO and VFIO INTx, whose device keeps the line off until
 *    re-enabled): epoll's level-triggered mode, handle_fasteoi_irq.  The
 *    dispatcher is the only thread in epoll_wait on its set, so a descriptor
 *    still readable after the handler is simply reported again: no mask or
 *    unmask per interrupt.  The end of interrupt writes UIO's re-enable and
 *    VFIO's unmask; the chip is EOI_THREADED, so for a threaded handler that
 *    happens when the thread is done.
 *
 * Mask and unmask set the descriptor's epoll interest (none while masked),
 * so a masked line costs no wake-up and loses nothing: what arrives waits in
 * the descriptor and is reported when the interest returns.  A level
 * interrupt the CPU cannot take at once (another thread holds it with
 * interrupts off) is "parked": interest off until its end of interrupt, so
 * the dispatcher does not spin on a readable descriptor meanwhile.
 *
 * Reads of a descriptor happen on its CPU's thread between
 * irqkit_plat_fd_read_begin() and _end(); shutdown and unbind clear
 * STARTED and then wait for those (irqkit_plat_fd_quiesce()), after which
 * the descriptor is the owner's again.
 */
#define _GNU_SOURCE
#include <irqkit/irqkit.h>
#include <irqkit/fd.h>
#include <irqkit-core/irqchip.h>

#include "fdchip.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/gpio.h>
#include <linux/vfio.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>


enum fd_kind {
	K_EDGE, K_LEVEL, K_EVENTFD, K_TIMERFD, K_SIGNALFD, K_UIO, K_VFIO, K_GPIO,
	K_TTY_RX, K_TTY_TX, K_TAP,
};

static const struct fd_kind_desc {
	const char	*name;
	bool		edge;		/* edge family (else level: fasteoi, level-triggered epoll) */
	bool		et;		/* epoll edge-triggered (the counting sources) */
	uint32_t	events;		/* EPOLLIN, or EPOLLOUT for transmit */
	size_t		record;		/* bytes the chip reads per arrival; 0: the handler reads */
} kinds[] = {
	[K_EDGE]	= { "fd",	true,  true,  EPOLLIN,  0 },
	[K_LEVEL]	= { "fd",	false, false, EPOLLIN,  0 },
	[K_EVENTFD]	= { "eventfd",	true,  true,  EPOLLIN,  sizeof(uint64_t) },
	[K_TIMERFD]	= { "timerfd",	true,  true,  EPOLLIN,  sizeof(uint64_t) },
	[K_SIGNALFD]	= { "signalfd",	true,  true,  EPOLLIN,  sizeof(struct signalfd_siginfo) },
	[K_UIO]		= { "uio",	false, true,  EPOLLIN,  sizeof(uint32_t) },
	[K_VFIO]	= { "vfio",	true,  true,  EPOLLIN,  sizeof(uint64_t) },
	[K_GPIO]	= { "gpio",	true,  true,  EPOLLIN,  sizeof(struct gpio_v2_line_event) },
	[K_TTY_RX]	= { "tty-rx",	false, false, EPOLLIN,  0 },
	[K_TTY_TX]	= { "tty-tx",	false, false, EPOLLOUT, 0 },
	[K_TAP]		= { "tap",	false, false, EPOLLIN,  0 },
};

#define FL_BOUND	(1u << 0)
#define FL_STARTED	(1u << 1)	/* requested: the descriptor is watched and may be read */
#define FL_MASKED	(1u << 2)
#define FL_PARKED	(1u << 3)	/* level interrupt signalled, interest off until its eoi */
#define FL_LATCH	(1u << 4)	/* edge read and not yet delivered */
#define FL_LEVEL	(1u << 5)	/* level interrupt signalled to the CPU */
#define FL_DEAD		(1u << 6)	/* failed: never watched or read again */
#define FL_INSET	(1u << 7)	/* in the epoll set of cpu */
#define FL_SEEN		(1u << 8)	/* UIO count or GPIO seqno of a previous read is known */
#define FL_NOCTL	(1u << 9)	/* UIO without irqcontrol: no re-enable writes */
#define FL_OWN_FD	(1u << 10)	/* fd is our duplicate (tty transmit): closed at unbind */
#define FL_PCICMD	(1u << 11)	/* UIO re-enabled through the PCI command register (cfg_fd) */
#define FL_RECORD	(1u << 12)	/* what is read goes to the recording too (fdrecord.c) */
#define FL_REPLAY	(1u << 13)	/* no descriptor: a recording is the source (fdrecord.c) */

/* the largest record a descriptor gives: a signalfd_siginfo (a GPIO event is smaller) */
enum { RECORD_MAX = sizeof(struct signalfd_siginfo) };

struct fd_line {
	unsigned int	state;		/* FL_* */
	struct irqkit_spinlock lock;	/* serialises epoll_ctl on the descriptor */
	int		fd;
	int		eoi_fd;		/* UIO: fd; VFIO INTx: the unmask eventfd; else -1 */
	int		cfg_fd;		/* UIO without irqcontrol: its PCI config space, or -1 */
	enum fd_kind	kind;
	bool		edge;		/* edge family (handle_edge_irq); else level (fasteoi) */
	unsigned int	cpu;		/* whose epoll set holds fd (FL_INSET) */
	uint32_t	interest;	/* epoll events applied now */
	unsigned int	peer;		/* tty: the other line of the pair, or IRQKIT_FD_NO_IRQ */
	uint32_t	last_seq;	/* UIO count, GPIO seqno, of the last read (FL_SEEN) */
	/*
	 * CPUs reading an arrival not yet latched or run: a count, as two can
	 * read at once while the line moves (the CPU it leaves read before the
	 * move, the one it joins after).
	 */
	unsigned int	takers;
	uint64_t	acc_coalesced;	/* read and not yet handed to a delivery */
	uint64_t	acc_lost;
	uint64_t	cur_coalesced;	/* the delivery in progress */
	uint64_t	cur_lost;
	uint64_t	cur_ts;
	unsigned int	cur_turns;	/* the edge flow's later turns at that hand-over */
	uint64_t	last_ts;
	uint64_t	tot_arrivals;
	uint64_t	tot_coalesced;
	uint64_t	tot_lost;
	size_t		record_len;	/* of record[], 0: none read yet */
	unsigned char	*record;	/* the last record read (GPIO, signalfd) */
	uint64_t	sigs;		/* signalfd: the signals it takes, bit n - 1 for n */
};

static struct fd_line *lines;
static unsigned int nr_lines;
static struct irqkit_spinlock bind_lock = IRQKIT_SPINLOCK_INIT;

extern struct irqkit_chip irqkit_fd_chip;

static inline unsigned int ld(const unsigned int *p)
{
	return a_load_acquire(p);
}

static inline unsigned int set_bits(unsigned int *p, unsigned int b)
{
	return a_fetch_or(p, b);
}

static inline unsigned int clear_bits(unsigned int *p, unsigned int b)
{
	return a_fetch_and(p, ~b);
}

static inline void add64(uint64_t *p, uint64_t v)
{
	if (v)
		a_add_relaxed(p, v);
}

static inline struct fd_line *line_of_data(struct irqkit_irq_data *d)
{
	return d->chip_data;
}

static unsigned int line_irq(const struct fd_line *l)
{
	return (unsigned int)(l - lines);
}

/* Edge family (handle_edge_irq); else level (handle_fasteoi_irq). */
static bool line_is_edge(const struct fd_line *l)
{
	return l->edge;
}

/* The bound line @irq, or NULL.  Any context. */
static struct fd_line *bound_line(unsigned int irq)
{
	if (!lines || irq >= nr_lines || !(ld(&lines[irq].state) & FL_BOUND))
		return NULL;
	return &lines[irq];
}

/*
 * A replayed line has no descriptor and no place in an epoll set: its
 * interest is only noted, and what epoll does for a descriptor that becomes
 * watched while readable (report it) is done by posting the line to its CPU.
 */
static void replay_rearm(struct fd_line *l)
{
	if (l->interest && irqkit__replay_unread(line_irq(l)))
		irqkit_plat_fd_post(l->cpu, line_irq(l));
}

/*
 * Bring the epoll interest in line with the state: the kind's events while
 * started, alive, unmasked and not parked; none otherwise.  Caller: l->lock.
 */
static void sync_interest(struct fd_line *l)
{
	const struct fd_kind_desc *k = &kinds[l->kind];
	unsigned int s = ld(&l->state);
	uint32_t want = 0;

	if (!(s & FL_INSET))
		return;
	if ((s & FL_STARTED) && !(s & (FL_DEAD | FL_MASKED | FL_PARKED)))
		want = k->events | (k->et ? EPOLLET : 0);
	if (want == l->interest)
		return;
	if (s & FL_REPLAY) {
		WRITE_ONCE(l->interest, want);
		replay_rearm(l);
	} else if (irqkit_plat_fd_ctl(l->cpu, IRQKIT_PLAT_FD_MOD, l->fd, want, line_irq(l)) == 0) {
		l->interest = want;
	}
}

/* Put the descriptor in CPU @cpu's set (caller: l->lock). */
static int set_add(struct fd_line *l, unsigned int cpu)
{
	const struct fd_kind_desc *k = &kinds[l->kind];
	unsigned int s = ld(&l->state);
	uint32_t want = 0;
	int ret;

	if ((s & FL_STARTED) && !(s & (FL_DEAD | FL_MASKED | FL_PARKED)))
		want = k->events | (k->et ? EPOLLET : 0);
	/*
	 * The line is @cpu's before the descriptor enters the set: epoll reports
	 * a ready descriptor at once, and that CPU must not drop the report as
	 * another CPU's (edge-triggered, it would not come again).
	 */
	a_store_seq(&l->cpu, cpu);
	set_bits(&l->state, FL_INSET);
	if (s & FL_REPLAY) {
		WRITE_ONCE(l->interest, want);
		replay_rearm(l);
		return 0;
	}
	ret = irqkit_plat_fd_ctl(cpu, IRQKIT_PLAT_FD_ADD, l->fd, want, line_irq(l));
	if (ret) {
		clear_bits(&l->state, FL_INSET);
		return ret;
	}
	l->interest = want;
	irqkit_plat_fd_count(cpu, 1);
	return 0;
}

/* Take it out (caller: l->lock).  A descriptor already closed is out already. */
static void set_del(struct fd_line *l)
{
	unsigned int old = clear_bits(&l->state, FL_INSET);

	if (!(old & FL_INSET))
		return;
	WRITE_ONCE(l->interest, 0);
	if (old & FL_REPLAY)
		return;
	(void)irqkit_plat_fd_ctl(l->cpu, IRQKIT_PLAT_FD_DEL, l->fd, 0, line_irq(l));
	irqkit_plat_fd_count(l->cpu, -1);
}

/*
 * The descriptor failed: say so, never watch or read it again, and disable
 * the line.  Any thread of the runtime, no descriptor lock held.
 */
static void line_fail(struct fd_line *l, const char *why, int err)
{
	unsigned int irq = line_irq(l);
	unsigned long lflags;

	if (set_bits(&l->state, FL_DEAD) & FL_DEAD)
		return;
	lflags = irqkit_spin_lock_irqsave(&l->lock);
	set_del(l);
	irqkit_spin_unlock_irqrestore(&l->lock, lflags);
	if (err)
		irqkit_printk(IRQKIT_LOG_ERR, "irq %u: fd %d (%s): %s (%s); disabling the line",
			      irq, l->fd, kinds[l->kind].name, why, strerror(err));
	else
		irqkit_printk(IRQKIT_LOG_ERR, "irq %u: fd %d (%s): %s; disabling the line",
			      irq, l->fd, kinds[l->kind].name, why);
	if (ld(&l->state) & FL_STARTED)
		irqkit_disable_irq_nosync(irq);
}

/* ---- reading what an arrival left ------------------------------------------ */

struct arrival {
	uint64_t	n;		/* arrivals read (0: nothing there) */
	uint64_t	lost;		/* of which never shown (count or sequence gaps) */
	const char	*error;		/* the descriptor failed: why */
	int		err;		/* and its errno, or 0 */
};

/*
 * Read the line's source: its descriptor, or for a replayed line what the
 * recording made readable by now.  What is read goes to the recording when
 * the line is recorded, as it was read: the chip derives everything it
 * counts from these bytes, so a replay that returns them counts the same.
 */
static ssize_t src_read(struct fd_line *l, void *buf, size_t len)
{
	unsigned int s = ld(&l->state);
	ssize_t r;

	if (s & FL_REPLAY)
		r = irqkit__replay_read(line_irq(l), buf, len);
	else
		r = read(l->fd, buf, len);
	if (unlikely(s & FL_RECORD) && r > 0)
		irqkit__record_note(line_irq(l), ld(&l->cpu), buf, (size_t)r);
	return r;
}

static void keep_record(struct fd_line *l, const void *rec, size_t len)
{
	if (l->record) {
		memcpy(l->record, rec, len);
		l->record_len = len;
	}
}

/* Read a whole number of @size-byte records; count them with @each. */
static void read_records(struct fd_line *l, struct arrival *a, size_t size,
			 void (*each)(struct fd_line *, struct arrival *, const void *))
{
	unsigned char buf[16 * RECORD_MAX];
	size_t want = (sizeof(buf) / size) * size;

	for (;;) {
		ssize_t r = src_read(l, buf, want);

		if (r < 0) {
			if (errno != EAGAIN && errno != EINTR) {
				a->error = "read failed";
				a->err = errno;
			}
			return;
		}
		if (r == 0) {
			a->error = "end of file";
			return;
		}
		if ((size_t)r % size) {
			a->error = "read ended in the middle of a record";
			return;
		}
		for (size_t off = 0; off < (size_t)r; off += size)
			each(l, a, buf + off);
		if ((size_t)r < want)
			return;
	}
}

static void each_siginfo(struct fd_line *l, struct arrival *a, const void *rec)
{
	a->n++;
	keep_record(l, rec, sizeof(struct signalfd_siginfo));
}

static void each_gpio(struct fd_line *l, struct arrival *a, const void *rec)
{
	struct gpio_v2_line_event ev;

	memcpy(&ev, rec, sizeof(ev));
	if (ld(&l->state) & FL_SEEN) {
		uint32_t gap = ev.seqno - l->last_seq - 1;

		if (gap < 0x80000000u) {	/* a reordered or restarted sequence is no gap */
			a->n += gap;
			a->lost += gap;
		}
	}
	set_bits(&l->state, FL_SEEN);
	l->last_seq = ev.seqno;
	l->last_ts = ev.timestamp_ns;
	a->n++;
	keep_record(l, rec, sizeof(ev));
}

static void read_arrival(struct fd_line *l, struct arrival *a)
{
	ssize_t r;

	switch (l->kind) {
	case K_EVENTFD:
	case K_TIMERFD:
	case K_VFIO: {
		uint64_t v;

		r = src_read(l, &v, sizeof(v));
		if (r == (ssize_t)sizeof(v))
			a->n = v;
		else if (r >= 0)
			a->error = "short read of the 8-byte counter";
		else if (errno != EAGAIN && errno != EINTR)
			a->error = "read failed", a->err = errno;
		return;
	}
	case K_UIO: {
		uint32_t count;

		r = src_read(l, &count, sizeof(count));
		if (r == (ssize_t)sizeof(count)) {
			uint32_t d = count - l->last_seq;

			if (!(ld(&l->state) & FL_SEEN) || d == 0 || d >= 0x80000000u)
				d = 1;	/* the first read, or a count that did not move on */
			set_bits(&l->state, FL_SEEN);
			l->last_seq = count;
			a->n = d;
			a->lost = d - 1;
		} else if (r >= 0) {
			a->error = "UIO read did not return the 4-byte count";
		} else if (errno != EAGAIN && errno != EINTR) {
			a->error = "read failed", a->err = errno;
		}
		return;
	}
	case K_SIGNALFD:
		read_records(l, a, sizeof(struct signalfd_siginfo), each_siginfo);
		return;
	case K_GPIO:
		read_records(l, a, sizeof(struct gpio_v2_line_event), each_gpio);
		return;
	default:
		a->n = 1;	/* the handler reads: each wake-up is one arrival */
		return;
	}
}

/*
 * @a's arrivals, to the next delivery and the totals: all but one coalesced
 * when they start an interrupt of their own (@own), all of them when they
 * fold into one already latched; the lost ones apart.
 */
static void account(struct fd_line *l, const struct arrival *a, bool own)
{
	uint64_t extra = a->n - a->lost - (own ? 1 : 0);

	add64(&l->tot_arrivals, a->n);
	add64(&l->acc_coalesced, extra);
	add64(&l->acc_lost, a->lost);
	add64(&l->tot_coalesced, extra);
	add64(&l->tot_lost, a->lost);
}

/* An interrupt already counted folds into one latched meanwhile. */
static void fold(struct fd_line *l)
{
	add64(&l->acc_coalesced, 1);
	add64(&l->tot_coalesced, 1);
}

/*
 * A delivery starts: it stands for what was read since the last one.  The
 * flow's ack (edge) or the claim (level) hands over; a later turn of the
 * edge flow has no ack, so its handler's get_events does (fdl_get_events).
 */
static void hand_over(struct fd_line *l)
{
	WRITE_ONCE(l->cur_turns,
		   irqkit__core_irq_edge_turns(irqkit_irq_get_irq_data(line_irq(l))));
	WRITE_ONCE(l->cur_coalesced, a_xchg_relaxed(&l->acc_coalesced, 0));
	WRITE_ONCE(l->cur_lost, a_xchg_relaxed(&l->acc_lost, 0));
	WRITE_ONCE(l->cur_ts, READ_ONCE(l->last_ts));
}

/* It did not start after all: back to the next one. */
static void take_back(struct fd_line *l)
{
	add64(&l->acc_coalesced, a_xchg_relaxed(&l->cur_coalesced, 0));
	add64(&l->acc_lost, a_xchg_relaxed(&l->cur_lost, 0));
}

/*
 * Edge family: @a->n arrivals were read; they make one interrupt, or fold
 * into the one already latched.  Their figures wait in acc_* for the flow's
 * ack, which the flow calls only when the handlers are about to run.
 */
static void edge_arrival(struct fd_line *l, unsigned int cpu, const struct arrival *a)
{
	unsigned int irq = line_irq(l), old = ld(&l->state);

	if (!(old & (FL_LATCH | FL_MASKED))) {
		account(l, a, true);
		if (irqkit_cpu_handle_now(cpu, irq)) {
			irqkit_deliver_pending();
			return;
		}
		old = set_bits(&l->state, FL_LATCH);
		if (old & FL_LATCH)	/* a latched arrival took this one's place meanwhile */
			fold(l);
	} else {
		/* (counted after the latch: a delivery that starts meanwhile leaves it to the next) */
		old = set_bits(&l->state, FL_LATCH);
		account(l, a, !(old & FL_LATCH));
	}
	if (!(old & (FL_LATCH | FL_MASKED)))
		irqkit_cpu_signal(ld(&l->cpu), irq);
}

/* Level family: the descriptor is ready. */
static void level_arrival(struct fd_line *l, unsigned int cpu, const struct arrival *a)
{
	unsigned int irq = line_irq(l);
	unsigned long lflags;

	if (ld(&l->state) & (FL_MASKED | FL_PARKED | FL_LEVEL)) {
		account(l, a, false);
		return;		/* reported before the interest went: it waits */
	}
	account(l, a, true);
	hand_over(l);
	if (irqkit_cpu_handle_now(cpu, irq)) {
		irqkit_deliver_pending();
		return;
	}
	take_back(l);
	lflags = irqkit_spin_lock_irqsave(&l->lock);
	set_bits(&l->state, FL_PARKED);
	sync_interest(l);
	irqkit_spin_unlock_irqrestore(&l->lock, lflags);
	if (!(set_bits(&l->state, FL_LEVEL) & FL_LEVEL))
		irqkit_cpu_signal(ld(&l->cpu), irq);
}

/* The dispatcher of @cpu (or a loop playing it): line @irq's descriptor reported @revents. */
static void fdchip_event(unsigned int cpu, unsigned int irq, uint32_t revents)
{
	struct fd_line *l = bound_line(irq);
	struct arrival a = { 0 };
	unsigned int s;

	if (!l)
		return;
	irqkit_plat_fd_read_begin(cpu, irq);
	s = ld(&l->state);
	if (!(s & FL_STARTED) || (s & FL_DEAD) || ld(&l->cpu) != cpu || !(s & FL_INSET)) {
		irqkit_plat_fd_read_end(cpu);
		return;		/* shut down, failed or moved since it was reported */
	}
	/* an arrival read is still pending until latched or run (fdl_get_state) */
	a_fetch_add(&l->takers, 1);
	if (revents & kinds[l->kind].events)
		read_arrival(l, &a);
	irqkit_plat_fd_read_end(cpu);
	if (a.n) {
		if (line_is_edge(l))
			edge_arrival(l, cpu, &a);
		else
			level_arrival(l, cpu, &a);
	}
	a_fetch_sub(&l->takers, 1);
	if (a.error)
		line_fail(l, a.error, a.err);
	else if (revents & EPOLLERR)
		line_fail(l, "error condition (EPOLLERR)", 0);
	else if (revents & EPOLLHUP)
		line_fail(l, "hung up (EPOLLHUP)", 0);
}

/* ---- the chip --------------------------------------------------------------- */

static void fdl_mask(struct irqkit_irq_data *d)
{
	struct fd_line *l = line_of_data(d);
	unsigned long lflags;

	lflags = irqkit_spin_lock_irqsave(&l->lock);
	set_bits(&l->state, FL_MASKED);
	sync_interest(l);
	irqkit_spin_unlock_irqrestore(&l->lock, lflags);
}

/*
 * An edge line being unmasked: what arrived while it was masked waits in the
 * descriptor, as an edge waits in a masked controller's latch.  Take it into
 * the latch now, so that a replay of the core's (enable_irq right after this)
 * folds into it instead of making a second interrupt.  Descriptor lock held:
 * a failure here is noted and the line goes silent, not disabled.
 */
static void take_masked_arrivals(struct fd_line *l)
{
	struct arrival a = { 0 };
	unsigned int old;

	if (kinds[l->kind].record) {
		read_arrival(l, &a);
	} else {
		struct pollfd p = { .fd = l->fd, .events = POLLIN };

		a.n = poll(&p, 1, 0) == 1 && (p.revents & POLLIN);
	}
	if (a.error) {
		set_bits(&l->state, FL_DEAD);
		irqkit_printk(IRQKIT_LOG_ERR, "irq %u: fd %d (%s): %s; the line stays silent",
			      line_irq(l), l->fd, kinds[l->kind].name, a.error);
		return;
	}
	if (!a.n)
		return;
	old = set_bits(&l->state, FL_LATCH);
	account(l, &a, !(old & FL_LATCH));
}

static void fdl_unmask(struct irqkit_irq_data *d)
{
	struct fd_line *l = line_of_data(d);
	unsigned int s = ld(&l->state);
	unsigned long lflags;

	if ((s & FL_MASKED) && (s & FL_STARTED) && !(s & FL_DEAD) && line_is_edge(l))
		take_masked_arrivals(l);
	lflags = irqkit_spin_lock_irqsave(&l->lock);
	s = clear_bits(&l->state, FL_MASKED);
	sync_interest(l);
	irqkit_spin_unlock_irqrestore(&l->lock, lflags);
	if ((s & FL_MASKED) && (s & FL_LATCH))
		irqkit_cpu_signal(ld(&l->cpu), d->irq);
}

/*
 * Edge flow's ack, called only when the handlers are about to run: the
 * arrival was read when the CPU took it, nothing is left in the descriptor;
 * what was read since the last delivery is this one's.
 */
static void fdl_ack(struct irqkit_irq_data *d)
{
	hand_over(line_of_data(d));
}

#define PCI_COMMAND			4
#define PCI_COMMAND_INTX_DISABLE	0x400

/*
 * The PCI configuration space of the device behind a UIO descriptor
 * (/sys/class/uio/uioN/device/config, N the descriptor's minor), open for
 * writing, or -1 when it is no PCI device or cannot be opened.
 */
static int uio_pci_config(int uio_fd)
{
	struct stat st;
	char path[64];

	if (fstat(uio_fd, &st) || !S_ISCHR(st.st_mode))
		return -1;
	snprintf(path, sizeof(path), "/sys/class/uio/uio%u/device/config", minor(st.st_rdev));
	return open(path, O_RDWR | O_CLOEXEC);
}

/*
 * uio_pci_generic's re-enable: its kernel handler sets the command
 * register's INTx disable bit as it takes the interrupt, and the driver
 * clears it once the device is served.  Return: 0 or -errno.
 */
static int pci_intx_enable(int cfg_fd)
{
	uint16_t cmd;

	if (pread(cfg_fd, &cmd, sizeof(cmd), PCI_COMMAND) != (ssize_t)sizeof(cmd))
		return -errno;
	if (!(cmd & PCI_COMMAND_INTX_DISABLE))
		return 0;
	cmd &= (uint16_t)~PCI_COMMAND_INTX_DISABLE;
	if (pwrite(cfg_fd, &cmd, sizeof(cmd), PCI_COMMAND) != (ssize_t)sizeof(cmd))
		return -errno;
	return 0;
}

/*
 * A UIO driver refused the re-enable write (no irqcontrol): re-enable
 * through the PCI command register if the device is a PCI one (as
 * uio_pci_generic's users must), else stop writing.  Return: whether the
 * command register is the way now.
 */
static bool uio_learn_reenable(struct fd_line *l, int err)
{
	int cfg = uio_pci_config(l->eoi_fd), none = -1;

	if (cfg >= 0 && !a_cas(&l->cfg_fd, &none, cfg))
		close(cfg);			/* another CPU's EOI found it first */
	if (cfg >= 0) {
		if (!(set_bits(&l->state, FL_PCICMD) & FL_PCICMD))
			irqkit_printk(IRQKIT_LOG_INFO,
				      "irq %u: fd %d (uio): the driver has no irqcontrol (%s); re-enabling through the PCI command register",
				      line_irq(l), l->fd, strerror(err));
		return true;
	}
	set_bits(&l->state, FL_NOCTL);
	irqkit_printk(IRQKIT_LOG_INFO,
		      "irq %u: fd %d (uio): the driver has no irqcontrol (%s); no re-enable writes",
		      line_irq(l), l->fd, strerror(err));
	return false;
}

/* Write the re-enable of UIO (a 32-bit 1) or VFIO INTx's unmask (an eventfd add). */
static void write_reenable(struct fd_line *l)
{
	ssize_t r;

	if (ld(&l->state) & FL_PCICMD) {
		int err = pci_intx_enable(a_load_acquire(&l->cfg_fd));

		if (err)
			irqkit_printk(IRQKIT_LOG_ERR,
				      "irq %u: fd %d (uio): PCI command register write failed (%s)",
				      line_irq(l), l->fd, strerror(-err));
		return;
	}
	if (l->kind == K_UIO) {
		int32_t one = 1;

		r = write(l->eoi_fd, &one, sizeof(one));
	} else {
		uint64_t one = 1;

		r = write(l->eoi_fd, &one, sizeof(one));
	}
	if (r >= 0 || errno == EAGAIN)
		return;
	if (l->kind == K_UIO && (errno == EIO || errno == ENOSYS || errno == EINVAL)) {
		if (uio_learn_reenable(l, errno))
			write_reenable(l);
	} else {
		irqkit_printk(IRQKIT_LOG_ERR, "irq %u: fd %d (%s): re-enable write failed (%s)",
			      line_irq(l), l->eoi_fd, kinds[l->kind].name, strerror(errno));
	}
}

/* Level flow's end of interrupt: re-enable the device's line; unpark. */
static void fdl_eoi(struct irqkit_irq_data *d)
{
	struct fd_line *l = line_of_data(d);
	unsigned int s = ld(&l->state);
	unsigned long lflags;

	if (l->eoi_fd >= 0 && (s & FL_STARTED) && !(s & (FL_DEAD | FL_NOCTL)))
		write_reenable(l);
	if (s & FL_PARKED) {
		lflags = irqkit_spin_lock_irqsave(&l->lock);
		clear_bits(&l->state, FL_PARKED);
		sync_interest(l);
		irqkit_spin_unlock_irqrestore(&l->lock, lflags);
	}
}

static unsigned int fdl_startup(struct irqkit_irq_data *d)
{
	struct fd_line *l = line_of_data(d);
	int ret = 0;
	unsigned long lflags;

	clear_bits(&l->state, FL_MASKED | FL_PARKED | FL_LEVEL);
	set_bits(&l->state, FL_STARTED);
	lflags = irqkit_spin_lock_irqsave(&l->lock);
	if (!(ld(&l->state) & (FL_INSET | FL_DEAD)))
		ret = set_add(l, READ_ONCE(d->cpu));
	irqkit_spin_unlock_irqrestore(&l->lock, lflags);
	if (ret) {
		set_bits(&l->state, FL_DEAD);
		irqkit_printk(IRQKIT_LOG_ERR, "irq %u: fd %d (%s): cannot watch it (%s); the line stays silent",
			      d->irq, l->fd, kinds[l->kind].name, strerror(-ret));
	} else if (l->eoi_fd >= 0 && !(ld(&l->state) & (FL_DEAD | FL_NOCTL)))
		write_reenable(l);	/* the device may have been left disabled */
	return 0;
}

static void fdl_shutdown(struct irqkit_irq_data *d)
{
	struct fd_line *l = line_of_data(d);
	unsigned long lflags;

	clear_bits(&l->state, FL_STARTED | FL_LATCH | FL_LEVEL | FL_PARKED);
	set_bits(&l->state, FL_MASKED);
	lflags = irqkit_spin_lock_irqsave(&l->lock);
	set_del(l);
	irqkit_spin_unlock_irqrestore(&l->lock, lflags);
	irqkit_plat_fd_quiesce(d->irq);
	WRITE_ONCE(l->acc_coalesced, 0);
	WRITE_ONCE(l->acc_lost, 0);
}

/* Replay an edge the core kept (disabled or in progress when it came). */
static int fdl_retrigger(struct irqkit_irq_data *d)
{
	struct fd_line *l = line_of_data(d);
	unsigned int old = set_bits(&l->state, FL_LATCH);

	if (old & FL_LATCH)
		fold(l);
	else if (!(old & FL_MASKED))
		irqkit_cpu_signal(ld(&l->cpu), d->irq);
	return 1;
}

static int fdl_set_type(struct irqkit_irq_data *d, unsigned int type)
{
	struct fd_line *l = line_of_data(d);
	bool level = type & IRQKIT_TYPE_LEVEL_MASK;
	unsigned long lflags;

	if (!(type & IRQKIT_TYPE_SENSE_MASK))
		return -IRQKIT_EINVAL;
	if (l->kind == K_EDGE || l->kind == K_LEVEL) {
		lflags = irqkit_spin_lock_irqsave(&l->lock);
		l->kind = level ? K_LEVEL : K_EDGE;
		l->edge = !level;
		sync_interest(l);
		irqkit_spin_unlock_irqrestore(&l->lock, lflags);
	} else if (level == line_is_edge(l)) {
		return -IRQKIT_EINVAL;	/* the source has one trigger */
	}
	irqkit_irq_set_handler_locked(d, line_is_edge(l) ? irqkit_handle_edge_irq :
							  irqkit_handle_fasteoi_irq);
	return 0;
}

/* Move the descriptor to the first CPU of @dest's epoll set. */
static int fdl_set_affinity(struct irqkit_irq_data *d, const struct irqkit_cpus *dest,
			    bool force)
{
	struct fd_line *l = line_of_data(d);
	irqkit_cpumask mask = irqkit_cpus_mask(dest);
	unsigned int cpu;
	int ret = 0;
	unsigned long lflags;

	(void)force;
	if (!mask)
		return -IRQKIT_EINVAL;
	cpu = (unsigned int)__builtin_ctzll(mask);
	lflags = irqkit_spin_lock_irqsave(&l->lock);
	if ((ld(&l->state) & FL_INSET) && l->cpu != cpu) {
		unsigned int from = l->cpu;

		set_del(l);
		ret = set_add(l, cpu);
		if (ret && set_add(l, from) == 0)
			cpu = from;
	}
	a_store_seq(&l->cpu, cpu);
	irqkit_spin_unlock_irqrestore(&l->lock, lflags);
	if (ret)
		return -IRQKIT_EINVAL;
	WRITE_ONCE(d->cpu, cpu);
	return 0;
}

/* On the target CPU, for a signalled line: is it still requesting? */
static bool fdl_claim(struct irqkit_irq_data *d)
{
	struct fd_line *l = line_of_data(d);

	if (!(clear_bits(&l->state, FL_LATCH | FL_LEVEL) & (FL_LATCH | FL_LEVEL)))
		return false;
	if (!line_is_edge(l))
		hand_over(l);	/* the edge flow's ack does it */
	return true;
}

/*
 * An arrival still in the descriptor, not yet seen by its CPU's idle wait:
 * for the sources whose arrivals the chip reads (a counter, records), a
 * readable descriptor is an arrival nobody took, so irqkit_wait_delivered()
 * waits for it as for a latched edge.  Where the handler reads the
 * descriptor itself, readable says nothing about arrivals.  The descriptor
 * is looked at before the state: a read that emptied it counted itself in takers
 * first, and clears it only once the arrival is latched or has run.
 */
static bool fdl_unread(const struct fd_line *l, unsigned int s)
{
	struct pollfd p = { .fd = l->fd, .events = POLLIN };

	if (!kinds[l->kind].record || (s & (FL_DEAD | FL_STARTED)) != FL_STARTED)
		return false;
	if (s & FL_REPLAY)
		return irqkit__replay_unread(line_irq(l));
	return poll(&p, 1, 0) == 1 && (p.revents & POLLIN);
}

static int fdl_get_state(struct irqkit_irq_data *d, int which, bool *state)
{
	struct fd_line *l = line_of_data(d);
	bool unread = which == IRQKIT_CHIPSTATE_PENDING && fdl_unread(l, ld(&l->state));
	unsigned int s;

	a_fence();
	s = ld(&l->state);
	return irqkit_irqchip_state(which, unread || (s & (FL_LATCH | FL_LEVEL)) ||
					    a_load_seq(&l->takers),
				    s & FL_MASKED, state);
}

static void fdl_get_events(struct irqkit_irq_data *d, struct irqkit_irq_events *ev, bool total)
{
	struct fd_line *l = line_of_data(d);

	if (total) {
		ev->events = READ_ONCE(l->tot_arrivals);
		ev->coalesced = READ_ONCE(l->tot_coalesced);
		ev->lost = READ_ONCE(l->tot_lost);
		ev->timestamp_ns = READ_ONCE(l->last_ts);
	} else {
		/* a later turn of the edge flow: what it stands for is what came since */
		if (irqkit__core_irq_edge_turns(d) != READ_ONCE(l->cur_turns))
			hand_over(l);
		ev->coalesced = READ_ONCE(l->cur_coalesced);
		ev->lost = READ_ONCE(l->cur_lost);
		ev->timestamp_ns = READ_ONCE(l->cur_ts);
	}
}

struct irqkit_chip irqkit_fd_chip = {
	.name			= "FD",
	.irq_startup		= fdl_startup,
	.irq_shutdown		= fdl_shutdown,
	.irq_ack		= fdl_ack,
	.irq_mask		= fdl_mask,
	.irq_mask_ack		= fdl_mask,
	.irq_unmask		= fdl_unmask,
	.irq_eoi		= fdl_eoi,
	.irq_retrigger		= fdl_retrigger,
	.irq_set_type		= fdl_set_type,
	.irq_set_affinity	= fdl_set_affinity,
	.irq_claim		= fdl_claim,
	.irq_get_irqchip_state	= fdl_get_state,
	.irq_get_events		= fdl_get_events,
	.flags			= IRQKIT_CHIP_EOI_THREADED,
};

/* ---- binding ------------------------------------------------------------------ */

static unsigned int *fd_owner;	/* fd -> irq + 1 of the line watching it */
static size_t nr_fd_owner;

static int own_fd(int fd, unsigned int irq)
{
	if ((size_t)fd >= nr_fd_owner) {
		size_t n = (size_t)fd * 2 + 64;
		unsigned int *p = realloc(fd_owner, n * sizeof(*p));

		if (!p)
			return -IRQKIT_ENOMEM;
		memset(p + nr_fd_owner, 0, (n - nr_fd_owner) * sizeof(*p));
		fd_owner = p;
		nr_fd_owner = n;
	}
	fd_owner[fd] = irq + 1;
	return 0;
}

static bool fd_taken(int fd)
{
	return (size_t)fd < nr_fd_owner && fd_owner[fd];
}

/* Is a virtual CPU there to wait on @irq's descriptor: a dispatcher, or a loop? */
static bool cpu_waits(unsigned int cpu)
{
	return irqkit_mode() == IRQKIT_MODE_THREADED && cpu < irqkit_nr_cpus();
}

static void fdchip_exit(void);
static struct irqkit__core_exit_hook fd_exit_hook = { .fn = fdchip_exit };
static const struct irqkit_plat_fd_client fd_client = { .event = fdchip_event };

/* The first bind of a run: the lines, the host's descriptor service, the end of the run. */
static int lines_init(void)
{
	unsigned int nr = irqkit_nr_irqs();

	if (lines)
		return 0;
	lines = calloc(nr, sizeof(*lines));
	if (!lines)
		return -IRQKIT_ENOMEM;
	nr_lines = nr;
	irqkit_plat_fd_register(&fd_client);
	irqkit__core_exit_hook_add(&fd_exit_hook);
	return 0;
}

/*
 * The kinds whose last record a handler may ask for (irqkit_fd_last_record)
 * keep a buffer for it.  Return: 0 or -ENOMEM.  Caller: bind_lock.
 */
static int record_alloc(struct fd_line *l, enum fd_kind kind)
{
	if (kind != K_GPIO && kind != K_SIGNALFD)
		return 0;
	l->record = calloc(1, RECORD_MAX);
	return l->record ? 0 : -IRQKIT_ENOMEM;
}

/* The line takes its source (caller: bind_lock, everything checked). */
static int bind_finish(struct fd_line *l, struct irqkit_irq_data *d, int fd, enum fd_kind kind,
		       bool edge, int eoi_fd, unsigned int flags)
{
	unsigned int irq = d->irq;

	l->fd = fd;
	l->eoi_fd = eoi_fd;
	l->cfg_fd = -1;
	l->kind = kind;
	l->edge = edge;
	WRITE_ONCE(l->cpu, d->cpu);
	l->interest = 0;
	l->peer = IRQKIT_FD_NO_IRQ;
	l->record_len = 0;
	l->acc_coalesced = l->acc_lost = l->cur_coalesced = l->cur_lost = 0;
	l->tot_arrivals = l->tot_coalesced = l->tot_lost = l->cur_ts = l->last_ts = 0;
	a_store_release(&l->state, FL_BOUND | FL_MASKED | flags);
	irqkit_irq_set_chip_data(irq, l);
	irqkit_irq_set_chip_and_handler_name(irq, &irqkit_fd_chip,
					     edge ? irqkit_handle_edge_irq : irqkit_handle_fasteoi_irq,
					     NULL);
	irqkit_irq_set_hwirq(irq, fd < 0 ? 0 : (unsigned long)fd);
	return irqkit_irq_set_default_type(irq, edge ? IRQKIT_TYPE_EDGE_RISING : IRQKIT_TYPE_LEVEL_HIGH);
}

/* Validate and bind; caller: bind_lock. */
static int bind_locked(unsigned int irq, int fd, enum fd_kind kind, int eoi_fd, unsigned int flags)
{
	struct irqkit_irq_data *d;
	struct fd_line *l;
	bool edge = kinds[kind].edge && eoi_fd < 0;
	int fl, ret;

	if (!irqkit_started() || irq >= irqkit_nr_irqs() || !(d = irqkit_irq_get_irq_data(irq)))
		return -IRQKIT_EINVAL;
	if (!cpu_waits(READ_ONCE(d->cpu)))
		return -IRQKIT_EOPNOTSUPP;
	if (fd < 0 || (fl = fcntl(fd, F_GETFL)) < 0)
		return -IRQKIT_EBADF;
	ret = lines_init();
	if (ret)
		return ret;
	l = &lines[irq];
	if (irqkit_irq_has_action(irq) || (ld(&l->state) & FL_BOUND) || fd_taken(fd))
		return -IRQKIT_EBUSY;
	/* pollable?  epoll refuses regular files and directories with EPERM */
	ret = irqkit_plat_fd_ctl(d->cpu, IRQKIT_PLAT_FD_ADD, fd, 0, irq);
	if (ret)
		return ret;
	(void)irqkit_plat_fd_ctl(d->cpu, IRQKIT_PLAT_FD_DEL, fd, 0, irq);
	ret = record_alloc(l, kind);
	if (ret)
		return ret;
	ret = own_fd(fd, irq);
	if (ret) {
		free(l->record);
		l->record = NULL;
		return ret;
	}
	if (!(fl & O_NONBLOCK))
		(void)fcntl(fd, F_SETFL, fl | O_NONBLOCK);
	return bind_finish(l, d, fd, kind, edge, eoi_fd, flags);
}

static int bind_kind(unsigned int irq, int fd, enum fd_kind kind, int eoi_fd)
{
	int ret;

	irqkit_spin_lock(&bind_lock);
	ret = bind_locked(irq, fd, kind, eoi_fd, 0);
	irqkit_spin_unlock(&bind_lock);
	return ret;
}

int irqkit_fd_bind(unsigned int irq, int fd, unsigned int type)
{
	if ((type & ~IRQKIT_TYPE_SENSE_MASK) || !(type & IRQKIT_TYPE_SENSE_MASK) ||
	    ((type & IRQKIT_TYPE_LEVEL_MASK) && (type & IRQKIT_TYPE_EDGE_BOTH)))
		return -IRQKIT_EINVAL;
	return bind_kind(irq, fd, (type & IRQKIT_TYPE_LEVEL_MASK) ? K_LEVEL : K_EDGE, -1);
}

int irqkit_fd_bind_eventfd(unsigned int irq, int efd)
{
	return bind_kind(irq, efd, K_EVENTFD, -1);
}

int irqkit_fd_bind_timerfd(unsigned int irq, int tfd)
{
	return bind_kind(irq, tfd, K_TIMERFD, -1);
}

/* The signals a signalfd takes: its mask, as /proc/self/fdinfo shows it ("sigmask:"). */
static uint64_t signalfd_signals(int fd)
{
	char path[64], line[128];
	unsigned long long mask = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "sigmask: %llx", &mask) == 1)
			break;
	fclose(f);
	return mask;
}

int irqkit_fd_bind_signalfd(unsigned int irq, int sfd)
{
	uint64_t sigs = sfd >= 0 ? signalfd_signals(sfd) : 0;
	uint64_t both;
	int ret;

	irqkit_spin_lock(&bind_lock);
	both = sigs & irqkit__fd_routed_signals();
	ret = both ? -IRQKIT_EBUSY : bind_locked(irq, sfd, K_SIGNALFD, -1, 0);
	if (!ret)
		lines[irq].sigs = sigs;
	irqkit_spin_unlock(&bind_lock);
	if (both)
		irqkit_printk(IRQKIT_LOG_ERR,
			      "irqkit_fd_bind_signalfd(%u): signal %d is routed to tasks (irqkit_route_signal); a signal goes to a line or to tasks, not both",
			      irq, __builtin_ctzll(both) + 1);
	return ret;
}

int irqkit__fd_signalfd_taker(int sig)
{
	int irq = -1;

	irqkit_spin_lock(&bind_lock);
	for (unsigned int i = 0; lines && i < nr_lines && irq < 0; i++)
		if ((ld(&lines[i].state) & FL_BOUND) && lines[i].kind == K_SIGNALFD &&
		    (lines[i].sigs & (1ull << (sig - 1))))
			irq = (int)i;
	irqkit_spin_unlock(&bind_lock);
	return irq;
}

int irqkit_fd_bind_uio(unsigned int irq, int uio_fd)
{
	return bind_kind(irq, uio_fd, K_UIO, uio_fd);
}

int irqkit_fd_bind_vfio(unsigned int irq, int trigger_fd, int unmask_fd)
{
	if (unmask_fd < -1 || (unmask_fd >= 0 && fcntl(unmask_fd, F_GETFL) < 0))
		return -IRQKIT_EBADF;
	return bind_kind(irq, trigger_fd, K_VFIO, unmask_fd);
}

int irqkit_fd_bind_gpio(unsigned int irq, int request_fd)
{
	return bind_kind(irq, request_fd, K_GPIO, -1);
}

int irqkit_fd_bind_tap(unsigned int irq, int tap_fd)
{
	return bind_kind(irq, tap_fd, K_TAP, -1);
}

/* Take line @l off its descriptor (no handler left); caller: bind_lock. */
static void unbind_locked(struct fd_line *l)
{
	unsigned int irq = line_irq(l);
	unsigned long lflags;

	clear_bits(&l->state, FL_STARTED);
	lflags = irqkit_spin_lock_irqsave(&l->lock);
	set_del(l);
	irqkit_spin_unlock_irqrestore(&l->lock, lflags);
	irqkit_plat_fd_quiesce(irq);
	irqkit_irq_set_chip_and_handler_name(irq, NULL, NULL, NULL);
	irqkit_irq_set_chip_data(irq, NULL);
	if ((size_t)l->fd < nr_fd_owner)
		fd_owner[l->fd] = 0;
	if (ld(&l->state) & FL_OWN_FD)
		close(l->fd);
	if (l->cfg_fd >= 0)
		close(l->cfg_fd);
	l->cfg_fd = -1;
	free(l->record);
	l->sigs = 0;
	l->record = NULL;
	l->fd = -1;
	a_store_release(&l->state, 0);
}

int irqkit_fd_bind_tty(unsigned int rx_irq, unsigned int tx_irq, int tty_fd)
{
	int ret, dup_fd = -1;

	if (rx_irq == tx_irq)
		return -IRQKIT_EINVAL;
	irqkit_spin_lock(&bind_lock);
	ret = bind_locked(rx_irq, tty_fd, K_TTY_RX, -1, 0);
	if (ret || tx_irq == IRQKIT_FD_NO_IRQ)
		goto out;
	/* epoll keys on the descriptor: transmit watches a duplicate of it */
	dup_fd = fcntl(tty_fd, F_DUPFD_CLOEXEC, 0);
	ret = dup_fd < 0 ? -IRQKIT_EMFILE : bind_locked(tx_irq, dup_fd, K_TTY_TX, -1, FL_OWN_FD);
	if (ret) {
		if (dup_fd >= 0)
			close(dup_fd);
		unbind_locked(&lines[rx_irq]);
		goto out;
	}
	lines[rx_irq].peer = tx_irq;
	lines[tx_irq].peer = rx_irq;
out:
	irqkit_spin_unlock(&bind_lock);
	return ret;
}

int irqkit_fd_unbind(unsigned int irq)
{
	struct fd_line *l;
	int ret = 0;

	irqkit_spin_lock(&bind_lock);
	l = bound_line(irq);
	if (!l) {
		ret = -IRQKIT_EINVAL;
	} else if (irqkit_irq_has_action(irq) ||
		   (l->peer != IRQKIT_FD_NO_IRQ && irqkit_irq_has_action(l->peer))) {
		ret = -IRQKIT_EBUSY;
	} else {
		if (l->peer != IRQKIT_FD_NO_IRQ)
			unbind_locked(&lines[l->peer]);
		unbind_locked(l);
	}
	irqkit_spin_unlock(&bind_lock);
	return ret;
}

int irqkit_fd_of(unsigned int irq)
{
	struct fd_line *l = bound_line(irq);

	return l && !(ld(&l->state) & FL_REPLAY) ? l->fd : -IRQKIT_EINVAL;
}

int irqkit_fd_last_record(unsigned int irq, void *buf, size_t len)
{
	struct fd_line *l = bound_line(irq);

	if (!l || !l->record || !l->record_len || !buf)
		return -IRQKIT_EINVAL;
	memcpy(buf, l->record, len < l->record_len ? len : l->record_len);
	return (int)l->record_len;
}

/* ---- recording and replay (fdrecord.c) ----------------------------------------- */

/*
 * A source whose arrivals the chip reads (a counter, records) can be
 * recorded and replayed; a descriptor its handler reads itself cannot: what
 * the handler read is not the chip's to keep.
 */
static bool replayable(enum fd_kind k)
{
	return kinds[k].record != 0;
}

int irqkit__fd_record(unsigned int irq, bool on, struct irqkit__fd_source *src)
{
	struct fd_line *l;
	int ret = 0;

	irqkit_spin_lock(&bind_lock);
	l = bound_line(irq);
	if (!l) {
		ret = -IRQKIT_EINVAL;
	} else if (!replayable(l->kind)) {
		ret = -IRQKIT_EOPNOTSUPP;
	} else {
		if (src) {
			src->kind = kinds[l->kind].name;
			src->edge = l->edge;
			src->seen = ld(&l->state) & FL_SEEN;
			src->last_seq = READ_ONCE(l->last_seq);
		}
		if (on)
			set_bits(&l->state, FL_RECORD);
		else
			clear_bits(&l->state, FL_RECORD);
	}
	irqkit_spin_unlock(&bind_lock);
	return ret;
}

int irqkit__fd_bind_replay(unsigned int irq, const struct irqkit__fd_source *src)
{
	struct irqkit_irq_data *d;
	struct fd_line *l;
	enum fd_kind kind = K_EDGE;
	enum irqkit_mode mode = irqkit_mode();
	int ret;

	for (unsigned int k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
		if (replayable((enum fd_kind)k) && !strcmp(kinds[k].name, src->kind))
			kind = (enum fd_kind)k;
	if (!replayable(kind))
		return -IRQKIT_EINVAL;
	if (!irqkit_started() || irq >= irqkit_nr_irqs() || !(d = irqkit_irq_get_irq_data(irq)))
		return -IRQKIT_EINVAL;
	if (mode != IRQKIT_MODE_THREADED && mode != IRQKIT_MODE_SIM)
		return -IRQKIT_EOPNOTSUPP;
	irqkit_spin_lock(&bind_lock);
	ret = lines_init();
	l = lines ? &lines[irq] : NULL;
	if (ret)
		goto out;
	if (irqkit_irq_has_action(irq) || (ld(&l->state) & FL_BOUND)) {
		ret = -IRQKIT_EBUSY;
		goto out;
	}
	ret = record_alloc(l, kind);
	if (ret)
		goto out;
	l->last_seq = src->last_seq;
	ret = bind_finish(l, d, -1, kind, src->edge, -1, FL_REPLAY | (src->seen ? FL_SEEN : 0));
out:
	irqkit_spin_unlock(&bind_lock);
	return ret;
}

void irqkit__fd_replay_ready(unsigned int irq)
{
	struct fd_line *l = bound_line(irq);

	if (l && (ld(&l->state) & FL_REPLAY) && READ_ONCE(l->interest))
		irqkit_plat_fd_post(ld(&l->cpu), irq);
}

int irqkit_vfio_set_irqs(int device_fd, unsigned int index, unsigned int count, int *trigger_fds,
			 int *unmask_fd)
{
	size_t size = sizeof(struct vfio_irq_set) + sizeof(int32_t) * (count ? count : 1);
	struct vfio_irq_set *set;
	int ret = 0;

	if (!count || !trigger_fds || count > 2048 ||
	    (index == VFIO_PCI_INTX_IRQ_INDEX && (count != 1 || !unmask_fd)))
		return -IRQKIT_EINVAL;
	set = calloc(1, size);
	if (!set)
		return -IRQKIT_ENOMEM;
	for (unsigned int i = 0; i < count; i++)
		trigger_fds[i] = -1;
	if (unmask_fd)
		*unmask_fd = -1;
	for (unsigned int i = 0; i < count; i++) {
		trigger_fds[i] = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		if (trigger_fds[i] < 0) {
			ret = -IRQKIT_EMFILE;
			goto fail;
		}
	}
	*set = (struct vfio_irq_set){ .argsz = (uint32_t)size,
				      .flags = VFIO_IRQ_SET_DATA_EVENTFD | VFIO_IRQ_SET_ACTION_TRIGGER,
				      .index = index, .start = 0, .count = count };
	memcpy(set->data, trigger_fds, sizeof(int32_t) * count);
	if (ioctl(device_fd, VFIO_DEVICE_SET_IRQS, set)) {
		ret = -errno;
		goto fail;
	}
	if (index == VFIO_PCI_INTX_IRQ_INDEX) {
		*unmask_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		if (*unmask_fd < 0) {
			ret = -IRQKIT_EMFILE;
			goto fail;
		}
		set->flags = VFIO_IRQ_SET_DATA_EVENTFD | VFIO_IRQ_SET_ACTION_UNMASK;
		set->count = 1;
		memcpy(set->data, unmask_fd, sizeof(int32_t));
		if (ioctl(device_fd, VFIO_DEVICE_SET_IRQS, set)) {
			ret = -errno;
			goto fail;
		}
	}
	free(set);
	return 0;
fail:
	for (unsigned int i = 0; i < count; i++)
		if (trigger_fds[i] >= 0)
			close(trigger_fds[i]);
	if (unmask_fd && *unmask_fd >= 0)
		close(*unmask_fd);
	free(set);
	return ret;
}

/*
 * The run ends (the core's exit hook): the host's sets go with it; our
 * duplicates and records go here.
 */
static void fdchip_exit(void)
{
	for (unsigned int i = 0; lines && i < nr_lines; i++) {
		if ((lines[i].state & FL_OWN_FD) && lines[i].fd >= 0)
			close(lines[i].fd);
		if ((lines[i].state & FL_BOUND) && lines[i].cfg_fd >= 0)
			close(lines[i].cfg_fd);
		free(lines[i].record);
	}
	free(lines);
	lines = NULL;
	nr_lines = 0;
	free(fd_owner);
	fd_owner = NULL;
	nr_fd_owner = 0;
}
