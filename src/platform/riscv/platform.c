// SPDX-License-Identifier: MIT
/*
 * The host half of the contract on bare metal (platform.h): memory from a
 * free list over the RAM after the image, the clock from the time CSR, the
 * log on the 16550 UART, fatal ends through the SiFive test device, and the
 * device tree's hart count and timebase.
 */
#include "rv.h"

#include <stdarg.h>
#include <stdlib.h>

/* ---- the console ---------------------------------------------------------------- */

static rv_lock_t console_lock;

static void uart_putc(char c)
{
	while (!(mmio_read8(RV_UART0 + 5) & 0x20))	/* LSR.THRE */
		;
	mmio_write8(RV_UART0, (uint8_t)c);
}

static void puts_locked(const char *s)
{
	for (; *s; s++)
		uart_putc(*s);
}

void rv_puts(const char *s)
{
	unsigned long f = rv_irq_save();

	rv_lock(&console_lock);
	puts_locked(s);
	rv_unlock(&console_lock);
	rv_irq_restore(f);
}

/* One line, whole: lines of several harts never interleave. */
void rv_putline(const char *s)
{
	unsigned long f = rv_irq_save();

	rv_lock(&console_lock);
	puts_locked(s);
	uart_putc('\n');
	rv_unlock(&console_lock);
	rv_irq_restore(f);
}

struct outbuf {
	char	*p;
	size_t	n, len;
};

static void out_c(struct outbuf *o, char c)
{
	if (o->len + 1 < o->n)
		o->p[o->len] = c;
	o->len++;
}

static void out_u(struct outbuf *o, unsigned long long v, unsigned int base, int width, char pad)
{
	char d[24];
	int i = 0;

	do {
		d[i++] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	while (width-- > i)
		out_c(o, pad);
	while (i)
		out_c(o, d[--i]);
}

/*
 * The port's own formatter, and the C library's vsnprintf on bare metal:
 * %s %c %d %i %u %x %X %p %% with l, ll, z, a width, '0' and '-'.
 */
int vsnprintf(char *restrict buf, size_t n, const char *restrict fmt, va_list ap);
int vsnprintf(char *restrict buf, size_t n, const char *restrict fmt, va_list ap)
{
	struct outbuf o = { buf, n, 0 };

	for (; *fmt; fmt++) {
		int longs = 0, width = 0;
		char pad = ' ';
		bool left = false;

		if (*fmt != '%') {
			out_c(&o, *fmt);
			continue;
		}
		fmt++;
		if (*fmt == '-') {
			left = true;
			fmt++;
		}
		if (*fmt == '0')
			pad = '0';
		while (*fmt >= '0' && *fmt <= '9')
			width = width * 10 + (*fmt++ - '0');
		while (*fmt == 'l' || *fmt == 'z')
			longs += (*fmt++ == 'z') ? 2 : 1;
		switch (*fmt) {
		case 'i':
		case 'd': {
			long long v = longs >= 2 ? va_arg(ap, long long) :
				      longs ? va_arg(ap, long) : va_arg(ap, int);

			if (v < 0) {
				out_c(&o, '-');
				v = -v;
			}
			out_u(&o, (unsigned long long)v, 10, width, pad);
			break;
		}
		case 'u':
		case 'X':
		case 'x': {
			unsigned long long v = longs >= 2 ? va_arg(ap, unsigned long long) :
					       longs ? va_arg(ap, unsigned long) :
						       va_arg(ap, unsigned int);

			out_u(&o, v, *fmt == 'u' ? 10 : 16, width, pad);
			break;
		}
		case 'p':
			out_c(&o, '0');
			out_c(&o, 'x');
			out_u(&o, (unsigned long)va_arg(ap, void *), 16, 0, ' ');
			break;
		case 's': {
			const char *str = va_arg(ap, const char *);
			int len = 0;

			while (str && str[len])
				len++;
			for (; !left && width > len; width--)
				out_c(&o, ' ');
			for (int i = 0; i < len; i++)
				out_c(&o, str[i]);
			for (; left && width > len; width--)
				out_c(&o, ' ');
			break;
		}
		case 'c':
			out_c(&o, (char)va_arg(ap, int));
			break;
		case '%':
			out_c(&o, '%');
			break;
		default:
			out_c(&o, '?');
			break;
		}
	}
	if (n)
		buf[o.len < n ? o.len : n - 1] = '\0';
	return (int)o.len;
}

void rv_vprintf(const char *fmt, va_list ap)
{
	char line[256];

	vsnprintf(line, sizeof(line), fmt, ap);
	rv_puts(line);
}

void rv_printf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	rv_vprintf(fmt, ap);
	va_end(ap);
}

void irqkit_plat_log(int level, const char *line)
{
	(void)level;
	rv_putline(line);
}

/*
 * The verdict, through the SiFive test device: QEMU exits with status 0 for
 * a pass, @code (1..255) for a failure.
 */
void rv_exit(unsigned int code)
{
	code &= 0xff;
	for (;;)
		mmio_write32(RV_TEST, code ? (code << 16) | 0x3333 : 0x5555);
}

void irqkit_plat_fatal(const char *msg)
{
	rv_printf("irqkit: fatal: %s\n", msg);
	rv_puts("RESULT: FAIL fatal\n");
	rv_exit(98);
}

void irqkit_plat_oops(void)
{
	rv_puts("RESULT: FAIL oops\n");
	rv_exit(97);
}

/* ---- memory ----------------------------------------------------------------------- */

/*
 * A first-fit free list, kept in address order and merged on free, over the
 * RAM after the image.  Blocks are multiples of 64 bytes and aligned to 64;
 * the caller passes the size back to free, so a block has no header.
 */
struct rv_free {
	size_t		size;
	struct rv_free	*next;
};

extern char __heap_start[], __heap_end[];
static struct rv_free *free_list;
static rv_lock_t heap_lock;
static size_t heap_used, heap_peak;

#define ALIGN64(n)	(((n) + 63) & ~(size_t)63)

void rv_heap_init(void)
{
	uintptr_t s = ALIGN64((uintptr_t)__heap_start);

	free_list = (struct rv_free *)s;
	free_list->size = ((uintptr_t)__heap_end - s) & ~(size_t)63;
	free_list->next = NULL;
}

/* Fault injection for tests, as the host's: set to n > 0, the n-th allocation from now fails. */
int irqkit__plat_alloc_fail;
/*
 * The same for a slow allocation: the next one first waits this long, the
 * hart spinning (an allocation may come from any context).
 */
unsigned int irqkit__plat_alloc_delay_us;

void *irqkit_plat_alloc(size_t size)
{
	size_t n = ALIGN64(size ? size : 1);
	struct rv_free **pp, *b;
	void *p = NULL;
	unsigned long f;

	if (__atomic_load_n(&irqkit__plat_alloc_fail, __ATOMIC_RELAXED) > 0 &&
	    __atomic_sub_fetch(&irqkit__plat_alloc_fail, 1, __ATOMIC_RELAXED) == 0)
		return NULL;
	if (__atomic_load_n(&irqkit__plat_alloc_delay_us, __ATOMIC_RELAXED)) {
		uint64_t until = irqkit_plat_now_ns() +
			1000ull * __atomic_exchange_n(&irqkit__plat_alloc_delay_us, 0, __ATOMIC_RELAXED);

		while (irqkit_plat_now_ns() < until)
			irqkit_arch_cpu_relax();
	}
	f = rv_irq_save();
	rv_lock(&heap_lock);
	for (pp = &free_list; (b = *pp); pp = &b->next) {
		if (b->size < n)
			continue;
		if (b->size == n) {
			*pp = b->next;
		} else {
			struct rv_free *rest = (struct rv_free *)((char *)b + n);

			rest->size = b->size - n;
			rest->next = b->next;
			*pp = rest;
		}
		p = b;
		heap_used += n;
		if (heap_used > heap_peak)
			heap_peak = heap_used;
		break;
	}
	rv_unlock(&heap_lock);
	rv_irq_restore(f);
	if (p)
		__builtin_memset(p, 0, n);
	return p;
}

void irqkit_plat_free(void *p, size_t size)
{
	size_t n = ALIGN64(size ? size : 1);
	struct rv_free *b = p, **pp, *next;
	unsigned long f;

	if (!p)
		return;
	f = rv_irq_save();
	rv_lock(&heap_lock);
	for (pp = &free_list; *pp && *pp < b; pp = &(*pp)->next)
		;
	next = *pp;
	b->size = n;
	b->next = next;
	*pp = b;
	if (next && (char *)b + b->size == (char *)next) {
		b->size += next->size;
		b->next = next->next;
	}
	/* merge with the block before, if it ends here */
	if (pp != &free_list) {
		struct rv_free *prev = (struct rv_free *)((char *)pp - offsetof(struct rv_free, next));

		if ((char *)prev + prev->size == (char *)b) {
			prev->size += b->size;
			prev->next = b->next;
		}
	}
	heap_used -= n;
	rv_unlock(&heap_lock);
	rv_irq_restore(f);
}

/* ---- time ------------------------------------------------------------------------- */

uint64_t rv_timebase_hz = 10000000;	/* QEMU virt's; the device tree says */

uint64_t rv_ticks(void)
{
	return csr_read(time);
}

uint64_t rv_ns_to_ticks(uint64_t ns)
{
	if (ns >= UINT64_MAX / rv_timebase_hz)
		return UINT64_MAX / 2;
	return ns * rv_timebase_hz / 1000000000u;
}

uint64_t irqkit_plat_now_ns(void)
{
	uint64_t t = rv_ticks();

	/* 10 MHz: whole nanoseconds per tick */
	if (1000000000u % rv_timebase_hz == 0)
		return t * (1000000000u / rv_timebase_hz);
	return t / rv_timebase_hz * 1000000000u + t % rv_timebase_hz * 1000000000u / rv_timebase_hz;
}

void irqkit_arch_cpu_relax(void)
{
	__asm__ __volatile__("nop" ::: "memory");
}

/* ---- names of functions -------------------------------------------------------------- */

extern const char __irqkit_syms[];	/* link.ld; filled by syms.sh */

/*
 * The function that holds @addr, from the image's table of names (in
 * address order): its name into @buf, the offset into it returned.  ""
 * when the image has no table or @addr is outside every function.
 */
unsigned long irqkit_plat_symbol(const void *addr, char *buf, size_t len)
{
	const char *p = __irqkit_syms, *best = NULL;
	unsigned long a = (unsigned long)addr, best_at = 0;
	while (*p) {
		const char *line = p;
		char *end;
		unsigned long at = strtoul(p, &end, 16);

		if (at > a)
			break;
		best = line;
		best_at = at;
		p = end;
		while (*p && *p != '\n')
			p++;
		if (*p)
			p++;
	}
	if (len)
		buf[0] = '\0';
	if (!best || a - best_at > 64 * 1024)
		return 0;
	while (*best != ' ')
		best++;
	best++;
	for (size_t i = 0; len && i < len - 1 && best[i] && best[i] != '\n'; i++) {
		buf[i] = best[i];
		buf[i + 1] = '\0';
	}
	return a - best_at;
}

/* ---- the device tree ------------------------------------------------------------- */

static uint32_t be32(const void *p)
{
	const uint8_t *b = p;

	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

static bool str_starts(const char *s, const char *prefix)
{
	while (*prefix)
		if (*s++ != *prefix++)
			return false;
	return true;
}

/*
 * The harts of the machine: the nodes cpu@N under /cpus, and /cpus'
 * timebase-frequency.  0 when @fdt is no device tree.
 */
unsigned int rv_fdt_harts(const void *fdt, uint64_t *timebase)
{
	const uint8_t *base = fdt;
	const uint8_t *p;
	const char *strings;
	unsigned int depth = 0, harts = 0;
	bool in_cpus = false;

	if (!fdt || be32(base) != 0xd00dfeed)
		return 0;
	p = base + be32(base + 8);
	strings = (const char *)base + be32(base + 12);
	for (;;) {
		uint32_t tok = be32(p);

		p += 4;
		if (tok == 1) {		/* FDT_BEGIN_NODE */
			const char *name = (const char *)p;
			size_t len = 0;

			while (name[len])
				len++;
			depth++;
			if (depth == 2)
				in_cpus = str_starts(name, "cpus") && (name[4] == '\0' || name[4] == '@');
			else if (depth == 3 && in_cpus && str_starts(name, "cpu@"))
				harts++;
			p += (len + 4) & ~(size_t)3;
		} else if (tok == 2) {	/* FDT_END_NODE */
			if (depth == 2)
				in_cpus = false;
			depth--;
		} else if (tok == 3) {	/* FDT_PROP */
			uint32_t len = be32(p), nameoff = be32(p + 4);
			const char *pname = strings + nameoff;

			if (depth == 2 && in_cpus && len == 4 &&
			    str_starts(pname, "timebase-frequency") && timebase)
				*timebase = be32(p + 8);
			p += 8 + ((len + 3) & ~(uint32_t)3);
		} else if (tok == 4) {	/* FDT_NOP */
			continue;
		} else {
			break;		/* FDT_END */
		}
	}
	return harts;
}
