// SPDX-License-Identifier: MIT
/*
 * The fd chip (Linux user space): lines whose input is a file descriptor;
 * this file is its common part (binding, latching, delivery, counting and
 * the chip's operations), the kinds of source each have a file (fd.h).
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
#include "fd.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

/* A descriptor bound as a plain edge or level line (irqkit_fd_bind): the handler reads it. */
const struct irqkit__fd_kind irqkit__fd_kind_edge = {
	.name = "fd", .edge = true, .et = true, .events = EPOLLIN,
};

const struct irqkit__fd_kind irqkit__fd_kind_level = {
	.name = "fd", .edge = false, .et = false, .events = EPOLLIN,
};

/* Every kind, for a recording's source found by name. */
static const struct irqkit__fd_kind *const all_kinds[] = {
	&irqkit__fd_kind_edge, &irqkit__fd_kind_level, &irqkit__fd_kind_eventfd,
	&irqkit__fd_kind_timerfd, &irqkit__fd_kind_signalfd, &irqkit__fd_kind_uio,
	&irqkit__fd_kind_vfio, &irqkit__fd_kind_gpio, &irqkit__fd_kind_tty_rx,
	&irqkit__fd_kind_tty_tx, &irqkit__fd_kind_tap,
};

static struct fd_line *lines;
static unsigned int nr_lines;
static struct irqkit_spinlock bind_lock = IRQKIT_SPINLOCK_INIT;

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

unsigned int irqkit__fd_line_irq(const struct fd_line *l)
{
	return line_irq(l);
}

/* Edge family (handle_edge_irq); else level (handle_fasteoi_irq). */
static bool line_is_edge(const struct fd_line *l)
{
	return l->edge;
}

struct fd_line *irqkit__fd_bound_line(unsigned int irq)
{
	if (!lines || irq >= nr_lines || !(ld(&lines[irq].state) & FL_BOUND))
		return NULL;
	return &lines[irq];
}

#define bound_line	irqkit__fd_bound_line

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
	const struct irqkit__fd_kind *k = l->kind;
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
	const struct irqkit__fd_kind *k = l->kind;
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
			      irq, l->fd, l->kind->name, why, strerror(err));
	else
		irqkit_printk(IRQKIT_LOG_ERR, "irq %u: fd %d (%s): %s; disabling the line",
			      irq, l->fd, l->kind->name, why);
	if (ld(&l->state) & FL_STARTED)
		irqkit_disable_irq_nosync(irq);
}

/* ---- reading what an arrival left ------------------------------------------ */

/*
 * Read the line's source: its descriptor, or for a replayed line what the
 * recording made readable by now.  What is read goes to the recording when
 * the line is recorded, as it was read: the chip derives everything it
 * counts from these bytes, so a replay that returns them counts the same.
 */
ssize_t irqkit__fd_src_read(struct fd_line *l, void *buf, size_t len)
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

void irqkit__fd_keep_record(struct fd_line *l, const void *rec, size_t len)
{
	if (l->record) {
		memcpy(l->record, rec, len);
		l->record_len = len;
	}
}

void irqkit__fd_read_records(struct fd_line *l, struct fd_arrival *a, size_t size,
			 void (*each)(struct fd_line *, struct fd_arrival *, const void *))
{
	unsigned char buf[16 * RECORD_MAX];
	size_t want = (sizeof(buf) / size) * size;

	for (;;) {
		ssize_t r = irqkit__fd_src_read(l, buf, want);

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

/* What an arrival left: the kind reads it, or each wake-up is one arrival (the handler reads). */
static void read_arrival(struct fd_line *l, struct fd_arrival *a)
{
	if (l->kind->read)
		l->kind->read(l, a);
	else
		a->n = 1;
}

/*
 * @a's arrivals, to the next delivery and the totals: all but one coalesced
 * when they start an interrupt of their own (@own), all of them when they
 * fold into one already latched; the lost ones apart.
 */
static void account(struct fd_line *l, const struct fd_arrival *a, bool own)
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
static void edge_arrival(struct fd_line *l, unsigned int cpu, const struct fd_arrival *a)
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
static void level_arrival(struct fd_line *l, unsigned int cpu, const struct fd_arrival *a)
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
	struct fd_arrival a = { 0 };
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
	if (revents & l->kind->events)
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
	struct fd_arrival a = { 0 };
	unsigned int old;

	if (l->kind->record) {
		read_arrival(l, &a);
	} else {
		struct pollfd p = { .fd = l->fd, .events = POLLIN };

		a.n = poll(&p, 1, 0) == 1 && (p.revents & POLLIN);
	}
	if (a.error) {
		set_bits(&l->state, FL_DEAD);
		irqkit_printk(IRQKIT_LOG_ERR, "irq %u: fd %d (%s): %s; the line stays silent",
			      line_irq(l), l->fd, l->kind->name, a.error);
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

/* Level flow's end of interrupt: re-enable the device's line; unpark. */
static void fdl_eoi(struct irqkit_irq_data *d)
{
	struct fd_line *l = line_of_data(d);
	unsigned int s = ld(&l->state);
	unsigned long lflags;

	if (l->eoi_fd >= 0 && (s & FL_STARTED) && !(s & (FL_DEAD | FL_NOCTL)))
		l->kind->reenable(l);
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
			      d->irq, l->fd, l->kind->name, strerror(-ret));
	} else if (l->eoi_fd >= 0 && !(ld(&l->state) & (FL_DEAD | FL_NOCTL)))
		l->kind->reenable(l);	/* the device may have been left disabled */
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
	if (l->kind == &irqkit__fd_kind_edge || l->kind == &irqkit__fd_kind_level) {
		lflags = irqkit_spin_lock_irqsave(&l->lock);
		l->kind = level ? &irqkit__fd_kind_level : &irqkit__fd_kind_edge;
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

	if (!l->kind->record || (s & (FL_DEAD | FL_STARTED)) != FL_STARTED)
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
static int record_alloc(struct fd_line *l, const struct irqkit__fd_kind *kind)
{
	if (!kind->keeps_record)
		return 0;
	l->record = calloc(1, RECORD_MAX);
	return l->record ? 0 : -IRQKIT_ENOMEM;
}

/* The line takes its source (caller: bind_lock, everything checked). */
static int bind_finish(struct fd_line *l, struct irqkit_irq_data *d, int fd,
		       const struct irqkit__fd_kind *kind,
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
	/* the descriptor is the hwirq, unless a domain numbers the line (a PCI vector) */
	if (!READ_ONCE(d->domain))
		irqkit_irq_set_hwirq(irq, fd < 0 ? 0 : (unsigned long)fd);
	return irqkit_irq_set_default_type(irq, edge ? IRQKIT_TYPE_EDGE_RISING : IRQKIT_TYPE_LEVEL_HIGH);
}

int irqkit__fd_bind_locked(unsigned int irq, int fd, const struct irqkit__fd_kind *kind, int eoi_fd,
			   unsigned int flags)
{
	struct irqkit_irq_data *d;
	struct fd_line *l;
	bool edge = kind->edge && eoi_fd < 0;
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

int irqkit__fd_bind_kind(unsigned int irq, int fd, const struct irqkit__fd_kind *kind, int eoi_fd)
{
	int ret;

	irqkit_spin_lock(&bind_lock);
	ret = irqkit__fd_bind_locked(irq, fd, kind, eoi_fd, 0);
	irqkit_spin_unlock(&bind_lock);
	return ret;
}

void irqkit__fd_bind_lock(void)
{
	irqkit_spin_lock(&bind_lock);
}

void irqkit__fd_bind_unlock(void)
{
	irqkit_spin_unlock(&bind_lock);
}

int irqkit_fd_bind(unsigned int irq, int fd, unsigned int type)
{
	if ((type & ~IRQKIT_TYPE_SENSE_MASK) || !(type & IRQKIT_TYPE_SENSE_MASK) ||
	    ((type & IRQKIT_TYPE_LEVEL_MASK) && (type & IRQKIT_TYPE_EDGE_BOTH)))
		return -IRQKIT_EINVAL;
	return irqkit__fd_bind_kind(irq, fd, (type & IRQKIT_TYPE_LEVEL_MASK) ? &irqkit__fd_kind_level :
									 &irqkit__fd_kind_edge, -1);
}

void irqkit__fd_unbind_locked(struct fd_line *l)
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
			irqkit__fd_unbind_locked(&lines[l->peer]);
		irqkit__fd_unbind_locked(l);
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

/* ---- recording and replay (record.c) ----------------------------------------- */

/*
 * A source whose arrivals the chip reads (a counter, records) can be
 * recorded and replayed; a descriptor its handler reads itself cannot: what
 * the handler read is not the chip's to keep.
 */
static bool replayable(const struct irqkit__fd_kind *k)
{
	return k->record != 0;
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
			src->kind = l->kind->name;
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
	const struct irqkit__fd_kind *kind = &irqkit__fd_kind_edge;
	enum irqkit_mode mode = irqkit_mode();
	int ret;

	for (size_t k = 0; k < sizeof(all_kinds) / sizeof(all_kinds[0]); k++)
		if (replayable(all_kinds[k]) && !strcmp(all_kinds[k]->name, src->kind))
			kind = all_kinds[k];
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
