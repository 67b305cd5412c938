// SPDX-License-Identifier: MIT
/*
 * Recording what the fd chip reads from its sources, and replaying it
 * (<irqkit/record.h>).
 *
 * The recorder sits where the chip reads (line.c, irqkit__fd_src_read): each read
 * that returned bytes on a recorded line is appended, with its time, to a
 * 64 KiB buffer under one mutex, and the buffer goes to the file when full.
 * The mutex is a host mutex, not an irqkit lock: a read happens on a CPU's
 * dispatcher (interrupts on) or in an unmask (descriptor lock held,
 * interrupts off), and the recorder must not add lock dependencies to
 * either.
 *
 * A replay is a descriptor made of the recording: for each line, the
 * arrivals made so far and the ones read so far.  A read returns what a
 * descriptor of that kind would return for the arrivals not yet read: the
 * sum of the counters (eventfd, timerfd, VFIO), the newest count (UIO), the
 * records in order (GPIO, signalfd); an arrival of another size (a device
 * that failed while recording) comes back alone, as it was, so the chip
 * fails the line again.  The arrivals are made by a kthread that sleeps
 * until each one's time.
 */
#define _GNU_SOURCE
#include <irqkit/irqkit.h>
#include <irqkit/kthread.h>
#include <irqkit/record.h>
#include <irqkit-core/irqchip.h>

#include "fd.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char magic[8] = "IRQKITRC";
enum { FORMAT_VERSION = 1, KIND_MAX = 15, LINES_MAX = 4096 };
enum { REC_BUF = 64 * 1024, REC_ENTRY_MAX = 64 };	/* an arrival's four numbers at most */

/* ---- variable-length integers (7 bits a byte, low first) ------------------- */

static size_t put_varint(unsigned char *p, uint64_t v)
{
	size_t n = 0;

	while (v >= 0x80) {
		p[n++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	p[n++] = (unsigned char)v;
	return n;
}

struct cursor {
	const unsigned char	*p;
	size_t			len, off;
	const char		*bad;	/* what went wrong, at off */
};

static uint64_t get_varint(struct cursor *c)
{
	uint64_t v = 0;

	for (unsigned int shift = 0; !c->bad; shift += 7) {
		unsigned char b;

		if (c->off >= c->len) {
			c->bad = "truncated";
			break;
		}
		if (shift > 63) {
			c->bad = "a number longer than 64 bits";
			break;
		}
		b = c->p[c->off++];
		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return v;
	}
	return 0;
}

static const unsigned char *get_bytes(struct cursor *c, size_t n)
{
	const unsigned char *p = c->p + c->off;

	if (c->bad)
		return NULL;
	if (n > c->len - c->off) {
		c->bad = "truncated";
		return NULL;
	}
	c->off += n;
	return p;
}

/* ---- the recorder ------------------------------------------------------------ */

struct recorder {
	int		fd;
	unsigned char	*buf;
	size_t		len;
	uint64_t	t0, prev;
	unsigned long	arrivals;
	int		err;		/* the first write that failed */
	unsigned int	nr;
	unsigned int	*irqs;
	unsigned int	*index;		/* irq -> its place in irqs + 1, 0: not recorded */
};

static pthread_mutex_t rec_lock = PTHREAD_MUTEX_INITIALIZER;
static struct recorder *rec;		/* under rec_lock */

static void rec_write(struct recorder *r, const void *p, size_t n)
{
	while (n && !r->err) {
		ssize_t w = write(r->fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			r->err = w < 0 ? errno : EIO;
			irqkit_printk(IRQKIT_LOG_ERR, "irqkit: recording: write failed (%s); "
				      "the recording stops here", strerror(r->err));
			return;
		}
		p = (const unsigned char *)p + w;
		n -= (size_t)w;
	}
}

static void rec_flush(struct recorder *r)
{
	rec_write(r, r->buf, r->len);
	r->len = 0;
}

void irqkit__record_note(unsigned int irq, unsigned int cpu, const void *buf, size_t len)
{
	struct recorder *r;
	unsigned char *p;
	uint64_t now;

	pthread_mutex_lock(&rec_lock);
	r = rec;
	if (!r || irq >= irqkit_nr_irqs() || !r->index[irq] || r->err)
		goto out;
	if (r->len + REC_ENTRY_MAX + len > REC_BUF)
		rec_flush(r);
	now = irqkit_plat_now_ns();
	if (now < r->prev)
		now = r->prev;
	p = r->buf + r->len;
	p += put_varint(p, r->index[irq] - 1);
	p += put_varint(p, now - r->prev);
	p += put_varint(p, cpu);
	p += put_varint(p, len);
	if (len > REC_BUF - REC_ENTRY_MAX) {
		/* more than a block at once: through the file directly */
		r->len = (size_t)(p - r->buf);
		rec_flush(r);
		rec_write(r, buf, len);
	} else {
		memcpy(p, buf, len);
		r->len = (size_t)(p + len - r->buf);
	}
	r->prev = now;
	r->arrivals++;
out:
	pthread_mutex_unlock(&rec_lock);
}

static void rec_free(struct recorder *r)
{
	if (r->fd >= 0)
		close(r->fd);
	free(r->buf);
	free(r->irqs);
	free(r->index);
	free(r);
}

/* Stop recording @n lines of @irqs (those that were started). */
static void lines_off(const unsigned int *irqs, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		(void)irqkit__fd_record(irqs[i], false, NULL);
}

int irqkit_record_start(const char *path, const unsigned int *irqs, unsigned int nr)
{
	struct irqkit__fd_source src;
	struct recorder *r;
	unsigned char *p;
	unsigned int i;
	int ret;

	if (!irqkit_started() || !path || !irqs || !nr || nr > LINES_MAX)
		return -IRQKIT_EINVAL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -IRQKIT_ENOMEM;
	r->fd = -1;
	r->buf = malloc(REC_BUF);
	r->irqs = calloc(nr, sizeof(*r->irqs));
	r->index = calloc(irqkit_nr_irqs(), sizeof(*r->index));
	if (!r->buf || !r->irqs || !r->index) {
		rec_free(r);
		return -IRQKIT_ENOMEM;
	}
	for (i = 0; i < nr; i++) {
		if (irqs[i] >= irqkit_nr_irqs() || r->index[irqs[i]]) {
			rec_free(r);
			return -IRQKIT_EINVAL;
		}
		r->index[irqs[i]] = i + 1;
		r->irqs[i] = irqs[i];
	}
	r->nr = nr;
	pthread_mutex_lock(&rec_lock);
	if (rec) {
		pthread_mutex_unlock(&rec_lock);
		rec_free(r);
		return -IRQKIT_EBUSY;
	}
	r->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (r->fd < 0) {
		ret = -errno;
		pthread_mutex_unlock(&rec_lock);
		irqkit_printk(IRQKIT_LOG_ERR, "irqkit: recording: cannot create %s (%s)", path,
			      strerror(-ret));
		rec_free(r);
		return ret;
	}
	/* arrivals read meanwhile wait for the lock, and follow the header */
	rec = r;
	r->t0 = r->prev = irqkit_plat_now_ns();
	memcpy(r->buf, magic, sizeof(magic));
	p = r->buf + sizeof(magic);
	p += put_varint(p, FORMAT_VERSION);
	p += put_varint(p, nr);
	p += put_varint(p, irqkit_nr_cpus());
	/* each line as it stands: a line refused turns the whole start back */
	for (i = 0; i < nr; i++) {
		size_t klen;

		ret = irqkit__fd_record(irqs[i], true, &src);
		if (ret) {
			lines_off(irqs, i);
			rec = NULL;
			pthread_mutex_unlock(&rec_lock);
			if (ret == -IRQKIT_EOPNOTSUPP)
				irqkit_printk(IRQKIT_LOG_ERR, "irqkit: recording: irq %u: its handler "
					      "reads the descriptor; only sources the chip reads can "
					      "be recorded", irqs[i]);
			rec_free(r);
			(void)unlink(path);
			return ret;
		}
		klen = strlen(src.kind);
		p += put_varint(p, irqs[i]);
		p += put_varint(p, klen);
		memcpy(p, src.kind, klen);
		p += klen;
		*p++ = (unsigned char)((src.edge ? 1 : 0) | (src.seen ? 2 : 0));
		p += put_varint(p, src.last_seq);
		if ((size_t)(p - r->buf) > REC_BUF - 64) {
			r->len = (size_t)(p - r->buf);
			rec_flush(r);
			p = r->buf;
		}
	}
	r->len = (size_t)(p - r->buf);
	pthread_mutex_unlock(&rec_lock);
	return 0;
}

long irqkit_record_stop(void)
{
	struct recorder *r;
	unsigned char *p;
	long ret;

	pthread_mutex_lock(&rec_lock);
	r = rec;
	if (!r) {
		pthread_mutex_unlock(&rec_lock);
		return -IRQKIT_EINVAL;
	}
	rec = NULL;
	pthread_mutex_unlock(&rec_lock);
	/* a read in flight finds rec gone; the lines stop noting */
	lines_off(r->irqs, r->nr);
	if (r->len + 32 > REC_BUF)
		rec_flush(r);
	p = r->buf + r->len;
	p += put_varint(p, r->nr);	/* the end mark: a line number past the last */
	p += put_varint(p, r->arrivals);
	r->len = (size_t)(p - r->buf);
	rec_flush(r);
	if (!r->err && close(r->fd))
		r->err = errno;
	r->fd = -1;
	ret = r->err ? -r->err : (long)r->arrivals;
	rec_free(r);
	return ret;
}

/* ---- the replay ------------------------------------------------------------------ */

enum read_as { AS_COUNTER, AS_COUNT, AS_RECORDS };

struct arrival_rec {
	uint64_t	t;		/* since the start */
	unsigned int	line;
	uint32_t	len;
	const unsigned char *bytes;
};

struct replay_line {
	unsigned int	irq;
	char		kind[KIND_MAX + 1];
	struct irqkit__fd_source src;
	enum read_as	as;
	bool		bound;
	unsigned long	nr;		/* its arrivals */
	unsigned long	*order;		/* their places in arrivals[] */
	unsigned long	made, taken;	/* made readable, read */
};

struct irqkit_replay {
	unsigned char		*data;
	struct replay_line	*lines;
	unsigned int		nr_lines;
	unsigned int		*irqs;
	struct arrival_rec	*arrivals;
	unsigned long		nr_arrivals;
	unsigned long		made;
	struct irqkit_spinlock	lock;		/* made and taken of every line */
	struct irqkit_task	*feeder;
	struct irqkit_completion done;
	uint64_t		t0;
};

static pthread_mutex_t replay_lock = PTHREAD_MUTEX_INITIALIZER;
static struct irqkit_replay *active;	/* the open replay: set and cleared under replay_lock */

static struct replay_line *replay_line_of(struct irqkit_replay *r, unsigned int irq)
{
	for (unsigned int i = 0; r && i < r->nr_lines; i++)
		if (r->lines[i].irq == irq)
			return &r->lines[i];
	return NULL;
}

bool irqkit__replay_unread(unsigned int irq)
{
	struct irqkit_replay *r = READ_ONCE(active);
	struct replay_line *l = replay_line_of(r, irq);
	unsigned long flags;
	bool unread;

	if (!l)
		return false;
	flags = irqkit_spin_lock_irqsave(&r->lock);
	unread = l->taken < l->made;
	irqkit_spin_unlock_irqrestore(&r->lock, flags);
	return unread;
}

/* Read as a descriptor of @l's kind would be read; caller: r->lock. */
static ssize_t take(struct irqkit_replay *r, struct replay_line *l, unsigned char *buf, size_t len)
{
	const struct arrival_rec *a = &r->arrivals[l->order[l->taken]];
	size_t want = l->as == AS_COUNTER ? 8 : l->as == AS_COUNT ? 4 : 0;
	size_t n = 0;

	if (want && a->len == want) {
		uint64_t sum = 0, v;
		uint32_t c = 0;

		if (len < want)
			return -EINVAL;
		while (l->taken < l->made && (a = &r->arrivals[l->order[l->taken]])->len == want) {
			if (l->as == AS_COUNTER) {
				memcpy(&v, a->bytes, 8);
				sum += v;
			} else {
				memcpy(&c, a->bytes, 4);	/* a count: the newest is what is read */
			}
			l->taken++;
		}
		if (l->as == AS_COUNTER)
			memcpy(buf, &sum, 8);
		else
			memcpy(buf, &c, 4);
		return (ssize_t)want;
	}
	if (l->as == AS_RECORDS) {
		while (l->taken < l->made &&
		       (a = &r->arrivals[l->order[l->taken]])->len <= len - n && a->len) {
			memcpy(buf + n, a->bytes, a->len);
			n += a->len;
			l->taken++;
		}
		if (n)
			return (ssize_t)n;
	}
	/* a read of another size when recording: it comes back as it was, alone */
	n = a->len < len ? a->len : len;
	memcpy(buf, a->bytes, n);
	l->taken++;
	return (ssize_t)n;
}

ssize_t irqkit__replay_read(unsigned int irq, void *buf, size_t len)
{
	struct irqkit_replay *r = READ_ONCE(active);
	struct replay_line *l = replay_line_of(r, irq);
	unsigned long flags;
	ssize_t ret;

	if (!l) {
		errno = EBADF;
		return -1;
	}
	flags = irqkit_spin_lock_irqsave(&r->lock);
	ret = l->taken < l->made ? take(r, l, buf, len) : -EAGAIN;
	irqkit_spin_unlock_irqrestore(&r->lock, flags);
	if (ret < 0) {
		errno = (int)-ret;
		return -1;
	}
	return ret;
}

static void replay_free(struct irqkit_replay *r)
{
	for (unsigned int i = 0; r->lines && i < r->nr_lines; i++)
		free(r->lines[i].order);
	free(r->lines);
	free(r->irqs);
	free(r->arrivals);
	free(r->data);
	free(r);
}

static int bad_file(const char *path, const struct cursor *c, const char *what)
{
	irqkit_printk(IRQKIT_LOG_ERR, "irqkit: replay: %s: %s at byte %zu", path, what, c->off);
	return -IRQKIT_EPROTO;
}

static int read_file(const char *path, unsigned char **data, size_t *len)
{
	FILE *f = fopen(path, "rbe");
	unsigned char *p = NULL;
	size_t n = 0, cap = 0;
	int ret = 0;

	if (!f) {
		ret = -errno;
		irqkit_printk(IRQKIT_LOG_ERR, "irqkit: replay: cannot open %s (%s)", path,
			      strerror(errno));
		return ret;
	}
	for (;;) {
		size_t got;

		if (n == cap) {
			unsigned char *q = realloc(p, cap ? cap * 2 : 65536);

			if (!q) {
				ret = -IRQKIT_ENOMEM;
				break;
			}
			p = q;
			cap = cap ? cap * 2 : 65536;
		}
		got = fread(p + n, 1, cap - n, f);
		n += got;
		if (got == 0) {
			if (ferror(f))
				ret = -IRQKIT_EIO;
			break;
		}
	}
	fclose(f);
	if (ret) {
		free(p);
		return ret;
	}
	*data = p;
	*len = n;
	return 0;
}

static enum read_as read_as_of(const char *kind)
{
	if (!strcmp(kind, "uio"))
		return AS_COUNT;
	if (!strcmp(kind, "gpio") || !strcmp(kind, "signalfd"))
		return AS_RECORDS;
	return AS_COUNTER;
}

/* The header and the lines; the runtime is not looked at yet. */
static int parse_lines(struct irqkit_replay *r, struct cursor *c, const char *path)
{
	uint64_t version, nr;

	if (c->len < sizeof(magic) || memcmp(c->p, magic, sizeof(magic)))
		return bad_file(path, c, "not an irqkit recording (no \"IRQKITRC\" mark)");
	c->off = sizeof(magic);
	version = get_varint(c);
	if (!c->bad && version != FORMAT_VERSION) {
		irqkit_printk(IRQKIT_LOG_ERR, "irqkit: replay: %s: recording format version %llu; "
			      "this irqkit reads version %d", path, (unsigned long long)version,
			      FORMAT_VERSION);
		return -IRQKIT_EPROTO;
	}
	nr = get_varint(c);
	(void)get_varint(c);		/* the CPUs when recording: for the reader */
	if (c->bad)
		return bad_file(path, c, c->bad);
	if (!nr || nr > LINES_MAX)
		return bad_file(path, c, "a number of lines out of range");
	r->nr_lines = (unsigned int)nr;
	r->lines = calloc(nr, sizeof(*r->lines));
	r->irqs = calloc(nr, sizeof(*r->irqs));
	if (!r->lines || !r->irqs)
		return -IRQKIT_ENOMEM;
	for (unsigned int i = 0; i < r->nr_lines; i++) {
		struct replay_line *l = &r->lines[i];
		uint64_t irq = get_varint(c), klen = get_varint(c), seq;
		const unsigned char *kind, *fl;

		if (!c->bad && klen > KIND_MAX)
			return bad_file(path, c, "a source kind name too long");
		kind = get_bytes(c, klen);
		fl = get_bytes(c, 1);
		seq = get_varint(c);
		if (c->bad || !kind || !fl)
			return bad_file(path, c, c->bad ? c->bad : "truncated");
		if (irq > UINT32_MAX || seq > UINT32_MAX)
			return bad_file(path, c, "a line number or sequence out of range");
		memcpy(l->kind, kind, klen);
		l->irq = r->irqs[i] = (unsigned int)irq;
		l->as = read_as_of(l->kind);
		l->src.kind = l->kind;
		l->src.edge = fl[0] & 1;
		l->src.seen = fl[0] & 2;
		l->src.last_seq = (uint32_t)seq;
		for (unsigned int j = 0; j < i; j++)
			if (r->irqs[j] == l->irq)
				return bad_file(path, c, "a line listed twice");
	}
	return 0;
}

/* The arrivals up to the end mark, in two passes: count, then place. */
static int parse_arrivals(struct irqkit_replay *r, struct cursor *c, const char *path)
{
	size_t start = c->off;
	uint64_t t = 0, count;
	unsigned long n = 0;

	for (;;) {
		uint64_t line = get_varint(c), dt, len;

		if (c->bad)
			return bad_file(path, c, "truncated: no end mark (was the recording stopped?)");
		if (line == r->nr_lines)
			break;
		if (line > r->nr_lines)
			return bad_file(path, c, "an arrival on a line the recording does not list");
		dt = get_varint(c);
		(void)get_varint(c);	/* cpu */
		len = get_varint(c);
		if (!c->bad && len > 1u << 20)
			return bad_file(path, c, "an arrival longer than 1 MiB");
		(void)get_bytes(c, len);
		if (c->bad)
			return bad_file(path, c, "truncated inside an arrival");
		if (dt > UINT64_MAX - t)
			return bad_file(path, c, "a time out of range");
		t += dt;
		r->lines[line].nr++;
		n++;
	}
	count = get_varint(c);
	if (c->bad)
		return bad_file(path, c, "truncated inside the end mark");
	if (count != n)
		return bad_file(path, c, "the end mark's count differs from the arrivals");
	if (c->off != c->len)
		return bad_file(path, c, "bytes after the end mark");
	r->nr_arrivals = n;
	r->arrivals = calloc(n ? n : 1, sizeof(*r->arrivals));
	if (!r->arrivals)
		return -IRQKIT_ENOMEM;
	for (unsigned int i = 0; i < r->nr_lines; i++) {
		r->lines[i].order = calloc(r->lines[i].nr ? r->lines[i].nr : 1, sizeof(unsigned long));
		if (!r->lines[i].order)
			return -IRQKIT_ENOMEM;
		r->lines[i].nr = 0;
	}
	c->off = start;
	t = 0;
	for (unsigned long k = 0; k < n; k++) {
		struct arrival_rec *a = &r->arrivals[k];
		struct replay_line *l;

		a->line = (unsigned int)get_varint(c);
		t += get_varint(c);
		(void)get_varint(c);
		a->len = (uint32_t)get_varint(c);
		a->bytes = get_bytes(c, a->len);
		a->t = t;
		if (c->bad || a->line >= r->nr_lines)
			return bad_file(path, c, "changed while read");	/* checked in the first pass */
		l = &r->lines[a->line];
		l->order[l->nr++] = k;
	}
	return 0;
}

static void unbind_lines(struct irqkit_replay *r)
{
	for (unsigned int i = 0; i < r->nr_lines; i++)
		if (r->lines[i].bound && irqkit_fd_unbind(r->lines[i].irq) == 0)
			r->lines[i].bound = false;
}

int irqkit_replay_open(const char *path, struct irqkit_replay **out)
{
	struct irqkit_replay *r;
	struct cursor c = { 0 };
	enum irqkit_mode mode;
	int ret;

	if (!irqkit_started() || !path || !out)
		return -IRQKIT_EINVAL;
	mode = irqkit_mode();
	if (mode != IRQKIT_MODE_SIM && mode != IRQKIT_MODE_THREADED)
		return -IRQKIT_EOPNOTSUPP;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -IRQKIT_ENOMEM;
	ret = read_file(path, &r->data, &c.len);
	if (ret) {
		free(r);
		return ret;
	}
	c.p = r->data;
	ret = parse_lines(r, &c, path);
	if (!ret)
		ret = parse_arrivals(r, &c, path);
	if (ret)
		goto fail;
	for (unsigned int i = 0; i < r->nr_lines; i++) {
		if (r->lines[i].irq >= irqkit_nr_irqs()) {
			irqkit_printk(IRQKIT_LOG_ERR, "irqkit: replay: %s: irq %u of the recording: "
				      "this runtime has %u lines", path, r->lines[i].irq,
				      irqkit_nr_irqs());
			ret = -IRQKIT_ENODEV;
			goto fail;
		}
	}
	irqkit_spin_lock_init(&r->lock);
	irqkit_init_completion(&r->done);
	pthread_mutex_lock(&replay_lock);
	if (active) {
		pthread_mutex_unlock(&replay_lock);
		ret = -IRQKIT_EBUSY;
		goto fail;
	}
	WRITE_ONCE(active, r);
	pthread_mutex_unlock(&replay_lock);
	for (unsigned int i = 0; i < r->nr_lines; i++) {
		ret = irqkit__fd_bind_replay(r->lines[i].irq, &r->lines[i].src);
		if (ret) {
			irqkit_printk(IRQKIT_LOG_ERR, "irqkit: replay: %s: cannot bind irq %u (%s) (%s)",
				      path, r->lines[i].irq, r->lines[i].kind, strerror(-ret));
			unbind_lines(r);
			pthread_mutex_lock(&replay_lock);
			WRITE_ONCE(active, NULL);
			pthread_mutex_unlock(&replay_lock);
			goto fail;
		}
		r->lines[i].bound = true;
	}
	*out = r;
	return 0;
fail:
	replay_free(r);
	return ret;
}

int irqkit_replay_info(const struct irqkit_replay *r, struct irqkit_replay_info *info)
{
	if (!r || !info)
		return -IRQKIT_EINVAL;
	info->nr_lines = r->nr_lines;
	info->irqs = r->irqs;
	info->arrivals = r->nr_arrivals;
	info->duration_ns = r->nr_arrivals ? r->arrivals[r->nr_arrivals - 1].t : 0;
	info->made = READ_ONCE(r->made);
	return 0;
}

/* Sleep until @due (platform time), in slices, so that a stop is seen. */
static bool sleep_until(uint64_t due)
{
	for (;;) {
		uint64_t now = irqkit_plat_now_ns();

		if (irqkit_kthread_should_stop())
			return false;
		if (now >= due)
			return true;
		irqkit_plat_sleep_ns(due - now < 20000000 ? due - now : 20000000);
	}
}

static int feeder(void *arg)
{
	struct irqkit_replay *r = arg;

	for (unsigned long k = 0; k < r->nr_arrivals; k++) {
		const struct arrival_rec *a = &r->arrivals[k];
		struct replay_line *l = &r->lines[a->line];
		unsigned long flags;

		if (!sleep_until(r->t0 + a->t))
			break;
		flags = irqkit_spin_lock_irqsave(&r->lock);
		l->made++;
		irqkit_spin_unlock_irqrestore(&r->lock, flags);
		WRITE_ONCE(r->made, k + 1);
		irqkit__fd_replay_ready(l->irq);
	}
	irqkit_complete(&r->done);
	for (;;) {
		irqkit_set_current_state(IRQKIT_TASK_INTERRUPTIBLE);
		if (irqkit_kthread_should_stop())
			break;
		irqkit_schedule();
	}
	irqkit___set_current_state(IRQKIT_TASK_RUNNING);
	return 0;
}

int irqkit_replay_start(struct irqkit_replay *r)
{
	struct irqkit_task *k;

	if (!r)
		return -IRQKIT_EINVAL;
	if (r->feeder)
		return -IRQKIT_EALREADY;
	r->t0 = irqkit_plat_now_ns();
	k = irqkit_kthread_create(feeder, r, "irq-replay");
	if ((uintptr_t)k >= (uintptr_t)-4095)
		return (int)(intptr_t)k;	/* an error pointer */
	r->feeder = k;
	irqkit_wake_up_process(k);
	return 0;
}

long irqkit_replay_wait(struct irqkit_replay *r)
{
	if (!r || !r->feeder)
		return -IRQKIT_EINVAL;
	irqkit_wait_for_completion(&r->done);
	return (long)READ_ONCE(r->made);
}

int irqkit_replay_close(struct irqkit_replay *r)
{
	if (!r)
		return -IRQKIT_EINVAL;
	for (unsigned int i = 0; i < r->nr_lines; i++)
		if (r->lines[i].bound && irqkit_irq_has_action(r->lines[i].irq))
			return -IRQKIT_EBUSY;
	if (r->feeder) {
		(void)irqkit_kthread_stop(r->feeder);
		r->feeder = NULL;
	}
	unbind_lines(r);
	pthread_mutex_lock(&replay_lock);
	WRITE_ONCE(active, NULL);
	pthread_mutex_unlock(&replay_lock);
	replay_free(r);
	return 0;
}
