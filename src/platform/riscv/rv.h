/* SPDX-License-Identifier: MIT */
/*
 * Private to the RISC-V bare-metal port: QEMU virt's devices, the CSRs, the
 * port's threads and harts.  Machine mode, -bios none.
 */
#ifndef IRQKIT_RV_H
#define IRQKIT_RV_H

#include <irqkit-core/platform.h>
#include <irqkit/task.h>

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RV_MAX_HARTS		IRQKIT_RV_MAX_HARTS
#define RV_STACK_SIZE		(32u * 1024)	/* each thread's, and each hart's boot stack */
#define RV_STACK_GUARD		0x57ac6a2dd00dfeedull	/* the guard's pattern */
#define RV_GUARD_WORDS		32	/* the lowest 256 bytes of every stack: the guard */

/* QEMU virt (hw/riscv/virt.c) */
#define RV_UART0		0x10000000ul
#define RV_TEST			0x00100000ul	/* the SiFive test device: the verdict */
#define RV_CLINT		0x02000000ul
#define RV_CLINT_MSIP(h)	(RV_CLINT + 4ul * (h))
#define RV_CLINT_MTIMECMP(h)	(RV_CLINT + 0x4000ul + 8ul * (h))
#define RV_PLIC			0x0c000000ul
#define RV_UART0_IRQ		10		/* its PLIC source */

/* machine-mode interrupt causes: mcause's code, and the bit of mie and mip */
#define RV_CAUSE_SOFT		3u
#define RV_CAUSE_TIMER		7u
#define RV_CAUSE_EXT		11u
#define MIP_MSIP		(1ul << RV_CAUSE_SOFT)
#define MIP_MTIP		(1ul << RV_CAUSE_TIMER)
#define MIP_MEIP		(1ul << RV_CAUSE_EXT)
#define MCAUSE_INT		(1ul << 63)

#define csr_read(csr)							\
	({ unsigned long __v;						\
	   __asm__ __volatile__("csrr %0, " #csr : "=r"(__v) : : "memory");	\
	   __v; })
#define csr_write(csr, v)	__asm__ __volatile__("csrw " #csr ", %0" : : "r"(v) : "memory")
#define csr_set(csr, v)		__asm__ __volatile__("csrs " #csr ", %0" : : "r"(v) : "memory")
#define csr_clear(csr, v)	__asm__ __volatile__("csrc " #csr ", %0" : : "r"(v) : "memory")

static inline void mmio_write32(unsigned long a, uint32_t v)
{
	__asm__ __volatile__("fence w,o" : : : "memory");
	*(volatile uint32_t *)a = v;
}
static inline uint32_t mmio_read32(unsigned long a)
{
	uint32_t v = *(volatile uint32_t *)a;

	__asm__ __volatile__("fence i,r" : : : "memory");
	return v;
}
static inline void mmio_write64(unsigned long a, uint64_t v)
{
	__asm__ __volatile__("fence w,o" : : : "memory");
	*(volatile uint64_t *)a = v;
}
static inline void mmio_write8(unsigned long a, uint8_t v)
{
	*(volatile uint8_t *)a = v;
}
static inline uint8_t mmio_read8(unsigned long a)
{
	return *(volatile uint8_t *)a;
}

/* The hart's interrupts, raw: the port's own locks (no task flag, trap-safe). */
static inline unsigned long rv_irq_save(void)
{
	unsigned long old;

	__asm__ __volatile__("csrrci %0, mstatus, 8" : "=r"(old) : : "memory");
	return old & 8;
}
static inline void rv_irq_restore(unsigned long f)
{
	if (f)
		__asm__ __volatile__("csrsi mstatus, 8" : : : "memory");
}

/* Copy @src into @dst of @size bytes, cut and always NUL-terminated (Linux's strscpy). */
static inline void rv_strscpy(char *dst, const char *src, size_t size)
{
	size_t i = 0;

	if (!size)
		return;
	for (; src && src[i] && i < size - 1; i++)
		dst[i] = src[i];
	dst[i] = '\0';
}

/* A test-and-test-and-set lock on an atomic swap; callers keep interrupts off. */
typedef struct { unsigned int v; } rv_lock_t;
static inline void rv_lock(rv_lock_t *l)
{
	while (__atomic_exchange_n(&l->v, 1, __ATOMIC_ACQUIRE))
		while (__atomic_load_n(&l->v, __ATOMIC_RELAXED))
			;
}
static inline void rv_unlock(rv_lock_t *l)
{
	__atomic_store_n(&l->v, 0, __ATOMIC_RELEASE);
}

static inline unsigned int rv_hartid(void)
{
	return (unsigned int)csr_read(mhartid);
}

/* ---- threads (sched.c) -------------------------------------------------------- */

struct rv_ctx {			/* what a switch keeps: ra, sp, s0-s11 */
	unsigned long ra, sp, s[12];
};

enum rv_state { RV_RUNNING, RV_RUNNABLE, RV_BLOCKED, RV_MIGRATING, RV_EXITING, RV_DEAD };

struct irqkit_plat_thread {
	struct irqkit_task	task;		/* tp points here: irqkit_arch_current() */
	struct rv_ctx		ctx;
	unsigned int		state;		/* enum rv_state, under the hart's run-queue lock */
	unsigned int		hart;		/* where it runs or will */
	unsigned int		dead;		/* 1 once off its stack for good: join may free */
	int			tid;
	char			name[16];
	void			(*fn)(void *);
	void			*arg;
	unsigned long		*stack;		/* lowest RV_GUARD_WORDS words: RV_STACK_GUARD */
	size_t			stack_size;
	struct irqkit_plat_thread *rq_next;
	struct irqkit_plat_thread *all_next;	/* every thread, for reports */
};
extern struct irqkit_plat_thread *rv_all_threads;

struct rv_waiter;

struct rv_hart {
	struct irqkit_plat_thread idle;		/* the boot context: runs when nothing else does */
	struct irqkit_plat_thread *cur, *prev;
	rv_lock_t		rq_lock;
	struct irqkit_plat_thread *rq_head, *rq_tail;
	struct rv_waiter	*timed;		/* its threads' timed waits, this hart only */
	unsigned int		ipi;		/* RV_IPI_* bits */
	rv_lock_t		timer_lock;
	uint64_t		sleep_deadline;	/* earliest timed wait (ticks) */
	bool			online;
	bool			cpu_off;	/* its CPU is offline: traps leave the core alone */
	bool			kick_after_trap;	/* a kick from its own trap: an IPI at its end */
	unsigned long		busy_count;	/* interrupts the core could not take at once */
	unsigned int		retry;		/* RV_IPI_KICK, RV_IPI_EXT_ON: try again at retry_at */
	uint64_t		retry_at;
};

extern struct rv_hart rv_harts[RV_MAX_HARTS];
extern unsigned int rv_nr_harts;
extern uint64_t rv_timebase_hz;
extern volatile bool rv_core_up;	/* the runtime takes traps: between start and stop */
extern int irqkit__plat_alloc_fail;	/* tests: the n-th allocation from now fails */
extern unsigned int irqkit__plat_alloc_delay_us;	/* tests: the next allocation waits this long */

#define RV_IPI_RESCHED		1u	/* a thread became runnable there */
#define RV_IPI_KICK		2u	/* the core signalled the CPU (irqkit_arch_cpu_wake) */
#define RV_IPI_TIMER		4u	/* hart 0 reprograms the core's timer */
#define RV_IPI_EXT_ON		8u	/* a root handler is set: take external interrupts */

void rv_sched_init_hart(unsigned int hart);
void rv_idle_loop(void) __attribute__((noreturn));
void rv_make_runnable(struct irqkit_plat_thread *th);
void rv_schedule(void);
void rv_timer_expired(unsigned int hart);
void rv_timer_update(unsigned int hart);
void rv_ipi_send(unsigned int hart, unsigned int bits);
uint64_t rv_ticks(void);
uint64_t rv_ns_to_ticks(uint64_t ns);
struct irqkit_plat_thread *rv_self(void);
void rv_switch(struct rv_ctx *from, struct rv_ctx *to, struct irqkit_task *to_tp);
void rv_thread_start(void);		/* start.S: a new thread's first return address */

/* ---- console, verdict (platform.c) --------------------------------------------- */
void rv_puts(const char *s);
void rv_putline(const char *s);
void rv_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void rv_vprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
void rv_exit(unsigned int code) __attribute__((noreturn));
void rv_heap_init(void);
unsigned int rv_fdt_harts(const void *fdt, uint64_t *timebase);

/* ---- traps (trap.c) ------------------------------------------------------------ */
struct rv_frame;
void rv_trap(struct rv_frame *f);
uint64_t rv_core_deadline_ticks(void);
int rv_intc_start(void);
void rv_intc_stop(void);

/* the image's program, run as the first thread on hart 0 (tests/riscv/) */
int irqkit_main(void);

#endif /* IRQKIT_RV_H */
