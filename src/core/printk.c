// SPDX-License-Identifier: MIT
/* Kernel-style log output: a small freestanding printf, printk, WARN and dump_stack. */
#include "core.h"
#include "time/time.h"
#include <irqkit/kernel.h>

struct out {
	char	*buf;
	size_t	size;
	size_t	len;	/* what the whole output would take */
};

static void out_char(struct out *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void out_pad(struct out *o, char c, int n)
{
	while (n-- > 0)
		out_char(o, c);
}

static void out_str(struct out *o, const char *s, int width, int prec, bool left)
{
	int n = 0;

	if (!s)
		s = "(null)";
	while ((prec < 0 || n < prec) && s[n])
		n++;
	if (!left)
		out_pad(o, ' ', width - n);
	for (int i = 0; i < n; i++)
		out_char(o, s[i]);
	if (left)
		out_pad(o, ' ', width - n);
}

struct numspec {
	int	width;
	int	prec;
	bool	left, zero, plus, space, alt, upper;
	unsigned int base;
};

static void out_num(struct out *o, unsigned long long v, bool neg, const struct numspec *ns)
{
	char tmp[24];
	const char *digits = ns->upper ? "0123456789ABCDEF" : "0123456789abcdef";
	int n = 0, sign = 0, prefix = 0, zeros, pad;
	char sc = 0;

	do {
		tmp[n++] = digits[v % ns->base];
		v /= ns->base;
	} while (v);
	if (ns->prec == 0 && n == 1 && tmp[0] == '0')
		n = 0;
	if (neg)
		sc = '-';
	else if (ns->plus)
		sc = '+';
	else if (ns->space)
		sc = ' ';
	sign = sc != 0;
	if (ns->alt && ns->base == 16)
		prefix = 2;
	zeros = ns->prec > n ? ns->prec - n : 0;
	pad = ns->width - (sign + prefix + zeros + n);
	if (ns->zero && !ns->left && ns->prec < 0) {
		zeros += pad > 0 ? pad : 0;
		pad = 0;
	}
	if (!ns->left)
		out_pad(o, ' ', pad);
	if (sign)
		out_char(o, sc);
	if (prefix) {
		out_char(o, '0');
		out_char(o, ns->upper ? 'X' : 'x');
	}
	out_pad(o, '0', zeros);
	while (n)
		out_char(o, tmp[--n]);
	if (ns->left)
		out_pad(o, ' ', pad);
}

/*
 * irqkit__vsnprintf - C99 vsnprintf for the conversions the core uses:
 * flags "-0+ #", width and precision (also "*"), lengths hh h l ll z t,
 * conversions d i u x X o c s p %.  %p prints every hex digit without 0x, as
 * Linux's %px; Linux's %pS / %ps print the symbol of a code address.  Return: the length of the whole output, as snprintf.
 */
int irqkit__vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct out o = { buf, size, 0 };

	for (const char *p = fmt; *p; p++) {
		struct numspec ns = { .width = 0, .prec = -1, .base = 10 };
		int lng = 0;
		bool is_signed = false;
		unsigned long long u;
		long long s;

		if (*p != '%') {
			out_char(&o, *p);
			continue;
		}
		for (;; p++) {
			char f = p[1];

			if (f == '-')
				ns.left = true;
			else if (f == '0')
				ns.zero = true;
			else if (f == '+')
				ns.plus = true;
			else if (f == ' ')
				ns.space = true;
			else if (f == '#')
				ns.alt = true;
			else
				break;
		}
		p++;
		if (*p == '*') {
			ns.width = va_arg(ap, int);
			if (ns.width < 0) {
				ns.left = true;
				ns.width = -ns.width;
			}
			p++;
		} else {
			while (*p >= '0' && *p <= '9')
				ns.width = ns.width * 10 + (*p++ - '0');
		}
		if (*p == '.') {
			p++;
			ns.prec = 0;
			if (*p == '*') {
				ns.prec = va_arg(ap, int);
				p++;
			} else {
				while (*p >= '0' && *p <= '9')
					ns.prec = ns.prec * 10 + (*p++ - '0');
			}
		}
		for (;; p++) {
			if (*p == 'h')
				lng--;
			else if (*p == 'l')
				lng++;
			else if (*p == 'z' || *p == 't')
				lng = 1;
			else
				break;
		}
		switch (*p) {
		case '\0':
			p--;
			continue;
		case '%':
			out_char(&o, '%');
			continue;
		case 'c':
			out_pad(&o, ' ', ns.left ? 0 : ns.width - 1);
			out_char(&o, (char)va_arg(ap, int));
			out_pad(&o, ' ', ns.left ? ns.width - 1 : 0);
			continue;
		case 's':
			out_str(&o, va_arg(ap, const char *), ns.width, ns.prec, ns.left);
			continue;
		case 'p': {
			const void *ptr = va_arg(ap, const void *);

			if (p[1] == 'S' || p[1] == 's') {
				char sym[96];
				unsigned long off = irqkit_plat_symbol(ptr, sym, sizeof(sym));
				char tmp[128];

				if (!sym[0])
					irqkit__snprintf(tmp, sizeof(tmp), "%#lx",
							 (unsigned long)(uintptr_t)ptr);
				else if (p[1] == 'S' && off)
					irqkit__snprintf(tmp, sizeof(tmp), "%s+%#lx", sym, off);
				else
					irqkit__snprintf(tmp, sizeof(tmp), "%s", sym);
				out_str(&o, tmp, ns.width, -1, ns.left);
				p++;
				continue;
			}
			/* as Linux prints a raw %px: all hex digits, no 0x */
			if (!ns.width && ns.prec < 0)
				ns.prec = (int)sizeof(void *) * 2;
			ns.base = 16;
			out_num(&o, (uintptr_t)ptr, false, &ns);
			continue;
		}
		case 'd':
		case 'i':
			is_signed = true;
			break;
		case 'u':
			break;
		case 'x':
			ns.base = 16;
			break;
		case 'X':
			ns.base = 16;
			ns.upper = true;
			break;
		case 'o':
			ns.base = 8;
			break;
		default:
			out_char(&o, '%');
			out_char(&o, *p);
			continue;
		}
		if (is_signed) {
			if (lng >= 2)
				s = va_arg(ap, long long);
			else if (lng == 1)
				s = va_arg(ap, long);
			else
				s = va_arg(ap, int);
			if (lng == -1)
				s = (short)s;
			else if (lng <= -2)
				s = (signed char)s;
			u = s < 0 ? 0ull - (unsigned long long)s : (unsigned long long)s;
			out_num(&o, u, s < 0, &ns);
		} else {
			if (lng >= 2)
				u = va_arg(ap, unsigned long long);
			else if (lng == 1)
				u = va_arg(ap, unsigned long);
			else
				u = va_arg(ap, unsigned int);
			if (lng == -1)
				u = (unsigned short)u;
			else if (lng <= -2)
				u = (unsigned char)u;
			out_num(&o, u, false, &ns);
		}
	}
	if (size)
		buf[o.len < size ? o.len : size - 1] = '\0';
	return o.len > 0x7fffffff ? 0x7fffffff : (int)o.len;
}

int irqkit__snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = irqkit__vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

static void log_line(int level, const char *line)
{
	irqkit_log_fn fn = a_load_acquire(&irqkit__rt.log);

	if (fn)
		fn(READ_ONCE(irqkit__rt.log_arg), level, line);
	else
		irqkit_plat_log(level, line);
}

/* One printk call may hold several lines; each goes to the hook on its own. */
void irqkit__vprintk(int level, const char *fmt, va_list ap)
{
	char buf[512];
	char *line = buf;

	irqkit__vsnprintf(buf, sizeof(buf), fmt, ap);
	for (char *p = buf;; p++) {
		if (*p == '\n' || *p == '\0') {
			bool end = *p == '\0';

			*p = '\0';
			if (line != p || !end)
				log_line(level, line);
			if (end)
				break;
			line = p + 1;
		}
	}
}

void irqkit_printk(int level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	irqkit__vprintk(level, fmt, ap);
	va_end(ap);
}

void irqkit_set_log(irqkit_log_fn fn, void *arg)
{
	WRITE_ONCE(irqkit__rt.log_arg, arg);
	a_store_release(&irqkit__rt.log, fn);
}

/* Linux's dump_stack(): who, then the call trace. */
void irqkit__dump_stack(void)
{
	void *frames[24];
	char comm[32];
	int n = irqkit_plat_backtrace(frames, (int)ARRAY_SIZE(frames));

	irqkit_plat_thread_name(comm, sizeof(comm));
	pr_warn("CPU: %d PID: %d Comm: %s", irqkit_smp_processor_id(),
		irqkit_plat_thread_id(), comm);
	if (n <= 0)
		return;
	pr_warn("Call Trace:");
	/* frame 0 is dump_stack itself */
	for (int i = 1; i < n; i++)
		pr_warn(" %pS", frames[i]);
}

/*
 * irqkit__warn - the report of Linux's WARN(): a "cut here" banner, the
 * message, "WARNING: CPU: c PID: p at file:line", the call trace and the end
 * marker.  Execution continues.
 */
void irqkit__warn(const char *file, int line, const char *fmt, ...)
{
	pr_warn("------------[ cut here ]------------");
	if (fmt) {
		va_list ap;

		va_start(ap, fmt);
		irqkit__vprintk(IRQKIT_LOG_WARNING, fmt, ap);
		va_end(ap);
	}
	pr_warn("WARNING: CPU: %d PID: %d at %s:%d", irqkit_smp_processor_id(),
		irqkit_plat_thread_id(), file, line);
	irqkit__dump_stack();
	pr_warn("---[ end trace 0000000000000000 ]---");
}

/*
 * printk_ratelimit(): Linux's default of 10 messages per 5 seconds, shared by
 * all callers.
 */
bool irqkit__core_printk_ratelimit(void)
{
	static struct irqkit_spinlock lock = IRQKIT_SPINLOCK_INIT;
	static uint64_t begin;
	static unsigned int printed;
	const uint64_t interval = 5000000000ull;
	uint64_t now = irqkit__now_ns();
	bool ok;
	unsigned long lflags;

	lflags = irqkit_spin_lock_irqsave(&lock);
	if (!begin || now - begin >= interval) {
		begin = now ? now : 1;
		printed = 0;
	}
	ok = printed < 10;
	if (ok)
		printed++;
	irqkit_spin_unlock_irqrestore(&lock, lflags);
	return ok;
}

/* ---- Linux's printk, WARN and BUG for driver code ------------------------------- */

/* The level of a Linux message prefix, and where the text starts; -1: none. */
static int printk_level(const char **fmt)
{
	const char *p = *fmt;

	if (p[0] == '\001' && p[1]) {			/* KERN_SOH, since Linux 3.6 */
		if (p[1] >= '0' && p[1] <= '7') {
			*fmt = p + 2;
			return p[1] - '0';
		}
		*fmt = p + 2;				/* 'c' (KERN_CONT), 'd' (default) */
		return -1;
	}
	if (p[0] == '<' && p[1] >= '0' && p[1] <= '7' && p[2] == '>') {	/* "<N>", 2.6 */
		*fmt = p + 3;
		return p[1] - '0';
	}
	return -1;
}

int irqkit_vprintk_linux(const char *fmt, va_list ap)
{
	int level = printk_level(&fmt);
	va_list len_ap;
	int n;

	va_copy(len_ap, ap);
	n = irqkit__vsnprintf(NULL, 0, fmt, len_ap);
	va_end(len_ap);
	/* the default message level of 2.6 and of today: KERN_WARNING */
	irqkit__vprintk(level < 0 ? IRQKIT_LOG_WARNING : level, fmt, ap);
	return n;
}

int irqkit_printk_linux(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = irqkit_vprintk_linux(fmt, ap);
	va_end(ap);
	return n;
}

void irqkit_dump_stack(void)
{
	irqkit__dump_stack();
}

void irqkit_warn_at(const char *file, int line, const char *fmt, ...)
{
	char msg[256];

	if (fmt) {
		va_list ap;

		va_start(ap, fmt);
		irqkit__vsnprintf(msg, sizeof(msg), fmt, ap);
		va_end(ap);
	}
	irqkit__warn(file, line, fmt ? "%s" : NULL, msg);
}

void irqkit_bug_at(const char *file, int line)
{
	pr_emerg("------------[ cut here ]------------");
	pr_emerg("kernel BUG at %s:%d!", file, line);
	irqkit__dump_stack();
	pr_emerg("---[ end trace 0000000000000000 ]---");
	irqkit_plat_oops();
}

/* ---- tables of the observation interface (proc.c, hrtimer.c) ------------------------- */

void irqkit__sb_printf(struct irqkit__sbuf *sb, const char *fmt, ...)
{
	va_list ap;
	size_t room = sb->len < sb->size ? sb->size - sb->len : 0;
	char scratch[1];

	va_start(ap, fmt);
	sb->len += (size_t)irqkit__vsnprintf(room ? sb->buf + sb->len : scratch,
					     room ? room : sizeof(scratch), fmt, ap);
	va_end(ap);
}

int irqkit__sb_finish(struct irqkit__sbuf *sb)
{
	if (sb->size)
		sb->buf[sb->len < sb->size ? sb->len : sb->size - 1] = '\0';
	return sb->len > 0x7fffffff ? 0x7fffffff : (int)sb->len;
}
