/* SPDX-License-Identifier: MIT */
/*
 * The fd chip's folder, its private face: a line bound to a descriptor
 * (struct fd_line), the kinds of source (struct irqkit__fd_kind: one file
 * each), and what the common part (line.c: binding, latching, delivery,
 * counting, the chip's operations) offers the kinds, the recorder
 * (record.c) and the routing of the host's signals (sigroute.c).
 *
 * A new kind of source is a file that defines its struct irqkit__fd_kind
 * and its bind function, and a line in line.c's list of kinds.
 */
#ifndef IRQKIT_CHIPS_FD_H
#define IRQKIT_CHIPS_FD_H

#include <irqkit/irqkit.h>
#include <irqkit/fd.h>
#include <irqkit/pci.h>
#include <irqkit-core/irqchip.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/signalfd.h>
#include <sys/types.h>

/* ---- a line and its state ------------------------------------------------------- */

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
#define FL_RECORD	(1u << 12)	/* what is read goes to the recording too (record.c) */
#define FL_REPLAY	(1u << 13)	/* no descriptor: a recording is the source (record.c) */

/* the largest record a descriptor gives: a signalfd_siginfo (a GPIO event is smaller) */
enum { RECORD_MAX = sizeof(struct signalfd_siginfo) };

struct irqkit__fd_kind;

struct fd_line {
	unsigned int	state;		/* FL_* */
	struct irqkit_spinlock lock;	/* serialises epoll_ctl on the descriptor */
	int		fd;
	int		eoi_fd;		/* UIO: fd; VFIO INTx: the unmask eventfd; else -1 */
	int		cfg_fd;		/* UIO without irqcontrol: its PCI config space, or -1 */
	const struct irqkit__fd_kind *kind;
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

/* What one look at a descriptor read: arrivals, lost ones, or a failure. */
struct fd_arrival {
	uint64_t	n;		/* arrivals read (0: nothing there) */
	uint64_t	lost;		/* of which never shown (count or sequence gaps) */
	const char	*error;		/* the descriptor failed: why */
	int		err;		/* and its errno, or 0 */
};

/* ---- the kinds of source (a file each) ------------------------------------------------ */

struct irqkit__fd_kind {
	const char	*name;		/* in reports and recordings */
	bool		edge;		/* edge family (else level: fasteoi, level-triggered epoll) */
	bool		et;		/* epoll edge-triggered (the counting sources) */
	uint32_t	events;		/* EPOLLIN, or EPOLLOUT for transmit */
	size_t		record;		/* bytes the chip reads per arrival; 0: the handler reads */
	bool		keeps_record;	/* the last record is kept for irqkit_fd_last_record() */
	/*
	 * Read what an arrival left into @a (NULL: the handler reads, each
	 * wake-up is one arrival).  On the line's CPU, between
	 * irqkit_plat_fd_read_begin() and _end().
	 */
	void		(*read)(struct fd_line *l, struct fd_arrival *a);
	/* The end of interrupt's write that re-enables the device (lines with an eoi_fd). */
	void		(*reenable)(struct fd_line *l);
};

extern const struct irqkit__fd_kind irqkit__fd_kind_edge, irqkit__fd_kind_level;	/* line.c */
extern const struct irqkit__fd_kind irqkit__fd_kind_eventfd, irqkit__fd_kind_timerfd;	/* counter.c */
extern const struct irqkit__fd_kind irqkit__fd_kind_signalfd;				/* signalfd.c */
extern const struct irqkit__fd_kind irqkit__fd_kind_uio;				/* uio.c */
extern const struct irqkit__fd_kind irqkit__fd_kind_vfio;				/* vfio.c */
extern const struct irqkit__fd_kind irqkit__fd_kind_gpio;				/* gpio.c */
extern const struct irqkit__fd_kind irqkit__fd_kind_tty_rx, irqkit__fd_kind_tty_tx;	/* tty.c */
extern const struct irqkit__fd_kind irqkit__fd_kind_tap;				/* tap.c */

/* ---- what line.c offers the kinds ---------------------------------------------------- */

/* The chip of every bound line ("FD"); a PCI device's vectors use a copy named by their domain. */
extern struct irqkit_chip irqkit_fd_chip;

/* The bound line @irq, or NULL.  Any context. */
struct fd_line *irqkit__fd_bound_line(unsigned int irq);
/* @l's interrupt number. */
unsigned int irqkit__fd_line_irq(const struct fd_line *l);

/* The bind lock: binding, unbinding, and reading the lines' bindings. */
void irqkit__fd_bind_lock(void);
void irqkit__fd_bind_unlock(void);
/*
 * Validate and bind @irq to @fd as a source of @kind (@eoi_fd: the
 * descriptor the end of interrupt writes, or -1; @flags: FL_* to start
 * with).  Return: 0, or the errno of <irqkit/fd.h>'s binds.  Caller: the bind lock.
 */
int irqkit__fd_bind_locked(unsigned int irq, int fd, const struct irqkit__fd_kind *kind, int eoi_fd,
			   unsigned int flags);
/* The same, taking the bind lock. */
int irqkit__fd_bind_kind(unsigned int irq, int fd, const struct irqkit__fd_kind *kind, int eoi_fd);
/* Take @l off its descriptor (no handler left).  Caller: the bind lock. */
void irqkit__fd_unbind_locked(struct fd_line *l);

/*
 * Read @l's source (its descriptor, or what a replay made readable); what is
 * read goes to the recording when the line is recorded.
 */
ssize_t irqkit__fd_src_read(struct fd_line *l, void *buf, size_t len);
/* Read a whole number of @size-byte records into @a, each counted by @each. */
void irqkit__fd_read_records(struct fd_line *l, struct fd_arrival *a, size_t size,
			     void (*each)(struct fd_line *, struct fd_arrival *, const void *));
/* Keep @rec as the line's last record (kinds that keep one). */
void irqkit__fd_keep_record(struct fd_line *l, const void *rec, size_t len);
/* Read an 8-byte counter (eventfd, timerfd, VFIO's trigger eventfd): its value is the arrivals. */
void irqkit__fd_read_counter(struct fd_line *l, struct fd_arrival *a);

/* ---- VFIO (vfio.c) ---------------------------------------------------------------------- */

/*
 * VFIO_DEVICE_SET_IRQS through @ioctl_fn (@data its device): @count
 * eventfds @fds from vector @start with @action, or (@fds NULL, @count 0)
 * the index off.  Return: 0 or -errno.
 */
int irqkit__vfio_irq_set(int (*ioctl_fn)(void *data, unsigned long req, void *arg), void *data,
			 unsigned int index, uint32_t action, unsigned int start, unsigned int count,
			 const int *fds);
/* An ioctl on the VFIO device descriptor *@data: 0 or -errno. */
int irqkit__vfio_fd_ioctl(void *data, unsigned long req, void *arg);

/* ---- PCI devices (pci.c), over VFIO or the simulated device (pcisim.c) ----------------- */

/*
 * Where a PCI device's VFIO calls go: the device's descriptor, or the
 * simulated device.  @ioctl takes VFIO_DEVICE_* requests and returns 0 or
 * -errno; @config reads or writes configuration space; @release ends the
 * backend when the device is closed.
 */
struct irqkit__pci_mapping {
	void	*addr;
	size_t	len;
};

struct irqkit__pci_backend {
	int	(*ioctl)(void *data, unsigned long req, void *arg);
	int	(*config)(void *data, void *buf, unsigned int len, unsigned int where, bool write);
	/* BAR @bar mapped, @maxlen bytes at most (0: all); addr NULL: cannot */
	struct irqkit__pci_mapping (*map)(void *data, unsigned int bar, size_t maxlen);
	void	(*unmap)(void *data, void *addr, size_t len);
	void	(*release)(void *data);
};

/* A device named @addr over @be: its INTx line set up.  Return: 0 or -errno. */
int irqkit__pci_new(const char *addr, const struct irqkit__pci_backend *be, void *data,
		    struct irqkit_pci_dev **out);
/* The backend data of @pdev if its backend is @be, else NULL. */
void *irqkit__pci_backend_data(struct irqkit_pci_dev *pdev, const struct irqkit__pci_backend *be);

/* ---- signals: a line's signalfd or the tasks, never both (sigroute.c) ------------------ */

/* The signals routed to tasks now (bit n - 1 for signal n).  Any thread. */
uint64_t irqkit__fd_routed_signals(void);
/*
 * The line whose signalfd takes @sig, or -1.  Reads the lines under the
 * chip's bind lock, so a bind that raced a route either saw the route or
 * is seen here.  Process context.
 */
int irqkit__fd_signalfd_taker(int sig);

/* ---- recording and replay (record.c) --------------------------------------------------- */

/*
 * A line's source as a recording describes it: the kind's name ("gpio",
 * "uio", ...), its flow, and what the chip knew of its sequence when
 * recording began.
 */
struct irqkit__fd_source {
	const char	*kind;
	bool		edge;
	bool		seen;		/* last_seq is known */
	uint32_t	last_seq;	/* UIO count or GPIO seqno of the last read */
};
/*
 * Start (@on) or stop recording what bound line @irq reads, and describe its
 * source in @src (may be NULL).  Return: 0; -EINVAL (not bound);
 * -EOPNOTSUPP (its handler reads the descriptor).  Process context.
 */
int irqkit__fd_record(unsigned int irq, bool on, struct irqkit__fd_source *src);
/*
 * Bind line @irq to no descriptor: what it reads comes from
 * irqkit__replay_read().  Return: as the binds of <irqkit/fd.h>, and
 * -EINVAL for a kind that cannot be replayed.  Process context.
 */
int irqkit__fd_bind_replay(unsigned int irq, const struct irqkit__fd_source *src);
/* The replay made something readable on @irq: report it as epoll would.  Any thread. */
void irqkit__fd_replay_ready(unsigned int irq);

/* record.c: what line @irq read on @cpu, for the recording.  Any thread of the runtime. */
void irqkit__record_note(unsigned int irq, unsigned int cpu, const void *buf, size_t len);
/* record.c: read replayed line @irq as its descriptor would be read (-1 and errno EAGAIN: empty). */
ssize_t irqkit__replay_read(unsigned int irq, void *buf, size_t len);
/* record.c: something of @irq's is readable. */
bool irqkit__replay_unread(unsigned int irq);

#endif
