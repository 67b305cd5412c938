/* SPDX-License-Identifier: MIT */
/* Spinlocks and reader-writer locks with every Linux variant. */
#ifndef IRQKIT_SPINLOCK_H
#define IRQKIT_SPINLOCK_H

#include <irqkit/task.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * struct irqkit_spinlock - a test-and-test-and-set lock.
 *
 * Threads are preemptible here, unlike kernel code holding a spinlock, so a
 * waiter that spins long yields its host CPU (see irqkit_spin_lock_slow()).
 * Taking the lock disables "preemption" (preempt_count += 1) so in_atomic()
 * and the sleeping-in-atomic checks see it.
 */
struct irqkit_spinlock {
	unsigned int	locked;		/* private */
};
#define IRQKIT_SPINLOCK_INIT	{ 0 }

IRQKIT_API void irqkit_spin_lock_slow(struct irqkit_spinlock *lock);

/*
 * The lock validator (Linux's lockdep), for code compiled with
 * -DIRQKIT_LOCKDEP: every spinlock taken or released there is checked
 * before it happens (irq-safety, lock order, recursion, bad releases) and
 * problems are reported in Linux's words.  Code compiled without it calls
 * nothing.  IRQKIT_LOCKDEP=0 in the environment turns it off at start.
 */
IRQKIT_API void irqkit_lockdep_init(const void *lock, const void *key, const char *name);
IRQKIT_API void irqkit_lockdep_acquire(const void *lock, bool trylock);
/*
 * Wait types, for the validator's wait-context check (Linux's LD_WAIT_* with
 * CONFIG_PROVE_RAW_LOCK_NESTING): what a lock's waiter does on PREEMPT_RT.
 * A raw spinlock spins; a spinlock_t or rwlock_t sleeps there (CONFIG); a
 * mutex sleeps.  A context allows what does not wait longer than it may:
 * hardirq context spins (CONFIG when the handler would be forced into a
 * thread, or is an hrtimer or irq_work that RT runs in softirq), softirq
 * context and anything under a spinlock_t is CONFIG, task context sleeps.
 */
#define IRQKIT_LD_WAIT_SPIN	2u
#define IRQKIT_LD_WAIT_CONFIG	3u
#define IRQKIT_LD_WAIT_SLEEP	4u
/** irqkit_lockdep_acquire_wait - irqkit_lockdep_acquire() of a lock of wait type @wait */
IRQKIT_API void irqkit_lockdep_acquire_wait(const void *lock, bool trylock, unsigned int wait);
/**
 * irqkit_lockdep_keep_reporting - after its first report Linux's validator
 * turns itself off; @keep lets it go on reporting (test suites that check
 * several reports in one process).  IRQKIT_LOCKDEP_KEEP=1 in the
 * environment sets it at start.
 */
IRQKIT_API void irqkit_lockdep_keep_reporting(bool keep);
IRQKIT_API void irqkit_lockdep_release(const void *lock, bool locked);
IRQKIT_API void irqkit_lockdep_acquire_rw(const void *lock, bool trylock, bool read);
IRQKIT_API void irqkit_lockdep_release_rw(const void *lock, bool locked);
/** irqkit_lockdep_is_held - does the calling thread hold @lock (as the validator saw it)? */
IRQKIT_API bool irqkit_lockdep_is_held(const void *lock);
/** lockdep_assert_held(): warn, with the caller, if the calling thread does not hold @lock. */
IRQKIT_API void irqkit_lockdep_assert_held(const void *lock);
/** lockdep_assert_irqs_disabled(): warn if interrupts are on. */
IRQKIT_API void irqkit_lockdep_assert_irqs_disabled(void);
IRQKIT_API void irqkit_lockdep_off(void);
IRQKIT_API bool irqkit_lockdep_enabled(void);
/** irqkit_lockdep_reports - how many reports the validator has made in this process */
IRQKIT_API unsigned long irqkit_lockdep_reports(void);
#ifdef IRQKIT_BUILD
/*
 * The library's own locks, in a build of it with IRQKIT_LOCKDEP
 * (IRQKIT_LOCKDEP_CORE): checked as the program's, but never interrupt points.
 */
void irqkit__lockdep_acquire_own(const void *lock, bool trylock, bool read, bool rw);
void irqkit__lockdep_release_own(const void *lock, bool locked, bool rw);
#endif

/*
 * Under the validator the lock functions are always inlined, even at -O0,
 * so a report names the function that took the lock, not a helper.
 */
#ifdef IRQKIT_LOCKDEP
#define IRQKIT__LOCKFN	static inline __attribute__((always_inline))
#else
#define IRQKIT__LOCKFN	static inline
#endif

/*
 * PREEMPT_RT mode (IRQKIT_CFG_PREEMPT_RT, <irqkit/runtime.h>): a spinlock_t
 * or rwlock_t of the program is a sleeping lock there, as on an RT kernel,
 * and its _irq/_irqsave forms leave interrupts on; a raw spinlock still
 * spins with preemption (and, in the irq forms, interrupts) off.  The
 * mode is read at each lock of wait type CONFIG; the library's own locks
 * (IRQKIT_BUILD) are raw and never read it.
 */
IRQKIT_API extern bool irqkit__preempt_rt;
IRQKIT_API void irqkit_rt_spin_lock(struct irqkit_spinlock *lock);
IRQKIT_API bool irqkit_rt_spin_trylock(struct irqkit_spinlock *lock);
IRQKIT_API void irqkit_rt_spin_unlock(struct irqkit_spinlock *lock);
/** irqkit_preempt_rt - is the runtime in PREEMPT_RT mode?  Context: any. */
static inline bool irqkit_preempt_rt(void)
{
	return __atomic_load_n(&irqkit__preempt_rt, __ATOMIC_RELAXED);
}
/*
 * An irq form reads the mode once and then calls the plain helpers with
 * IRQKIT__RT_READ added to the wait type, which tells them it was read.
 */
#define IRQKIT__RT_READ		0x100u
#define IRQKIT__WAIT(wait)	((wait) & 0xffu)
#ifdef IRQKIT_BUILD
#define IRQKIT__RT(wait)	((void)(wait), 0)
#else
#define IRQKIT__RT(wait)							\
	((wait) == IRQKIT_LD_WAIT_CONFIG && __builtin_expect(irqkit_preempt_rt(), 0))
#endif

static inline void irqkit__spin_lock_init_plain(struct irqkit_spinlock *lock)
{
	__atomic_store_n(&lock->locked, 0, __ATOMIC_RELAXED);
}

#ifdef IRQKIT_LOCKDEP
/*
 * Initialise @lock (of @type, with @plain) as a member of the class of this
 * call site, as Linux's spin_lock_init() makes it: a static key per site.
 */
#define IRQKIT__LOCKDEP_INIT(type, plain, lock)					\
	do {									\
		static const char irqkit__lock_key_ = 0;			\
		type *irqkit__l_ = (lock);					\
										\
		plain(irqkit__l_);						\
		irqkit_lockdep_init(irqkit__l_, &irqkit__lock_key_, #lock);	\
	} while (0)
#define irqkit_spin_lock_init(lock)						\
	IRQKIT__LOCKDEP_INIT(struct irqkit_spinlock, irqkit__spin_lock_init_plain, lock)
#ifdef IRQKIT_BUILD
/* the library's own locks are Linux's raw ones: the validator takes them as spinning */
#define IRQKIT__LOCKDEP_ACQUIRE(l, try, w)	irqkit__lockdep_acquire_own((l), (try), false, false)
#define IRQKIT__LOCKDEP_RELEASE(l)						\
	irqkit__lockdep_release_own((l), __atomic_load_n(&(l)->locked, __ATOMIC_RELAXED) != 0, false)
#else
#define IRQKIT__LOCKDEP_ACQUIRE(l, try, w)	irqkit_lockdep_acquire_wait((l), (try), (w))
#define IRQKIT__LOCKDEP_RELEASE(l)						\
	irqkit_lockdep_release((l), __atomic_load_n(&(l)->locked, __ATOMIC_RELAXED) != 0)
#endif
#else
static inline void irqkit_spin_lock_init(struct irqkit_spinlock *lock)
{
	irqkit__spin_lock_init_plain(lock);
}
#define IRQKIT__LOCKDEP_ACQUIRE(l, try, w)	((void)(w))
#define IRQKIT__LOCKDEP_RELEASE(l)	((void)0)
#endif

static inline bool irqkit_spin_is_locked(struct irqkit_spinlock *lock)
{
	return __atomic_load_n(&lock->locked, __ATOMIC_RELAXED) != 0;
}

/* The lock and trylock of every variant, for a lock of wait type @wait (the validator's). */
IRQKIT__LOCKFN void irqkit__spin_lock_w(struct irqkit_spinlock *lock, unsigned int wait)
{
	if (IRQKIT__RT(wait)) {
		IRQKIT__LOCKDEP_ACQUIRE(lock, false, IRQKIT__WAIT(wait));
		irqkit_rt_spin_lock(lock);
		return;
	}
	irqkit_preempt_disable();
	IRQKIT__LOCKDEP_ACQUIRE(lock, false, IRQKIT__WAIT(wait));	/* before it spins: a report, not a hang */
	if (__builtin_expect(__atomic_exchange_n(&lock->locked, 1, __ATOMIC_ACQUIRE), 0))
		irqkit_spin_lock_slow(lock);
}

IRQKIT__LOCKFN bool irqkit__spin_trylock_w(struct irqkit_spinlock *lock, unsigned int wait)
{
	if (IRQKIT__RT(wait)) {
		if (!irqkit_rt_spin_trylock(lock))
			return false;
		IRQKIT__LOCKDEP_ACQUIRE(lock, true, IRQKIT__WAIT(wait));
		return true;
	}
	irqkit_preempt_disable();
	if (!__atomic_load_n(&lock->locked, __ATOMIC_RELAXED) &&
	    !__atomic_exchange_n(&lock->locked, 1, __ATOMIC_ACQUIRE)) {
		IRQKIT__LOCKDEP_ACQUIRE(lock, true, IRQKIT__WAIT(wait));
		return true;
	}
	irqkit_preempt_enable();
	return false;
}

/**
 * irqkit_spin_lock - acquire; disables preemption.  Context: any.  Linux's
 * spin_lock on a spinlock_t: to the validator a lock that sleeps on
 * PREEMPT_RT (irqkit_raw_spin_lock is raw_spin_lock).
 */
IRQKIT__LOCKFN void irqkit_spin_lock(struct irqkit_spinlock *lock)
{
	irqkit__spin_lock_w(lock, IRQKIT_LD_WAIT_CONFIG);
}

/** irqkit_spin_trylock - acquire if free.  Return: true if acquired.  Context: any. */
IRQKIT__LOCKFN bool irqkit_spin_trylock(struct irqkit_spinlock *lock)
{
	return irqkit__spin_trylock_w(lock, IRQKIT_LD_WAIT_CONFIG);
}

IRQKIT__LOCKFN void irqkit__spin_unlock_w(struct irqkit_spinlock *lock, unsigned int wait)
{
	IRQKIT__LOCKDEP_RELEASE(lock);
	if (IRQKIT__RT(wait)) {
		irqkit_rt_spin_unlock(lock);
		return;
	}
	__atomic_store_n(&lock->locked, 0, __ATOMIC_RELEASE);
	irqkit_preempt_enable();
}

IRQKIT__LOCKFN void irqkit_spin_unlock(struct irqkit_spinlock *lock)
{
	irqkit__spin_unlock_w(lock, IRQKIT_LD_WAIT_CONFIG);
}

/** irqkit_raw_spin_unlock - Linux's raw_spin_unlock (of irqkit_raw_spin_lock). */
IRQKIT__LOCKFN void irqkit_raw_spin_unlock(struct irqkit_spinlock *lock)
{
	irqkit__spin_unlock_w(lock, IRQKIT_LD_WAIT_SPIN);
}

/* The interrupt-disabling forms, for a lock of wait type @wait (spin and raw share them). */
IRQKIT__LOCKFN unsigned long irqkit__spin_lock_irqsave_w(struct irqkit_spinlock *lock,
							unsigned int wait)
{
	unsigned long flags;

	if (IRQKIT__RT(wait)) {		/* RT: interrupts stay on; flags 0, as there */
		irqkit__spin_lock_w(lock, wait);
		return 0;
	}
	flags = IRQKIT__LOCK_IRQ_SAVE();
	irqkit__spin_lock_w(lock, wait | IRQKIT__RT_READ);
	return flags;
}

IRQKIT__LOCKFN void irqkit__spin_lock_irq_w(struct irqkit_spinlock *lock, unsigned int wait)
{
	if (IRQKIT__RT(wait)) {
		irqkit__spin_lock_w(lock, wait);
		return;
	}
	(void)IRQKIT__LOCK_IRQ_SAVE();
	irqkit__spin_lock_w(lock, wait | IRQKIT__RT_READ);
}

IRQKIT__LOCKFN bool irqkit__spin_trylock_irqsave_w(struct irqkit_spinlock *lock,
						   unsigned long *flags, unsigned int wait)
{
	if (IRQKIT__RT(wait)) {
		*flags = 0;
		return irqkit__spin_trylock_w(lock, wait);
	}
	*flags = IRQKIT__LOCK_IRQ_SAVE();
	if (irqkit__spin_trylock_w(lock, wait | IRQKIT__RT_READ))
		return true;
	IRQKIT__LOCK_IRQ_RESTORE(*flags);
	return false;
}

IRQKIT__LOCKFN void irqkit__spin_unlock_irqrestore_w(struct irqkit_spinlock *lock,
						     unsigned long flags, unsigned int wait)
{
	if (IRQKIT__RT(wait)) {
		irqkit__spin_unlock_w(lock, wait);
		return;
	}
	irqkit__spin_unlock_w(lock, wait | IRQKIT__RT_READ);
	IRQKIT__LOCK_IRQ_RESTORE(flags);
}

/**
 * irqkit_spin_lock_irqsave - save the interrupt state, disable interrupts, acquire
 *
 * The form to use between a handler and any other context.
 * Return: the saved state for irqkit_spin_unlock_irqrestore().
 */
IRQKIT__LOCKFN unsigned long irqkit_spin_lock_irqsave(struct irqkit_spinlock *lock)
{
	return irqkit__spin_lock_irqsave_w(lock, IRQKIT_LD_WAIT_CONFIG);
}

/** irqkit_spin_unlock_irqrestore - release, then restore the saved state (a delivery point). */
IRQKIT__LOCKFN void irqkit_spin_unlock_irqrestore(struct irqkit_spinlock *lock,
						 unsigned long flags)
{
	irqkit__spin_unlock_irqrestore_w(lock, flags, IRQKIT_LD_WAIT_CONFIG);
}

/** irqkit_spin_lock_irq - disable interrupts unconditionally, acquire. */
IRQKIT__LOCKFN void irqkit_spin_lock_irq(struct irqkit_spinlock *lock)
{
	irqkit__spin_lock_irq_w(lock, IRQKIT_LD_WAIT_CONFIG);
}

/** irqkit_spin_unlock_irq - release, then enable interrupts unconditionally. */
IRQKIT__LOCKFN void irqkit_spin_unlock_irq(struct irqkit_spinlock *lock)
{
	irqkit__spin_unlock_irqrestore_w(lock, 0, IRQKIT_LD_WAIT_CONFIG);
}

/** irqkit_spin_lock_bh - disable bottom halves, then acquire. */
IRQKIT__LOCKFN void irqkit_spin_lock_bh(struct irqkit_spinlock *lock)
{
	irqkit_local_bh_disable();
	irqkit_spin_lock(lock);
}

/** irqkit_spin_unlock_bh - release, then enable bottom halves. */
IRQKIT__LOCKFN void irqkit_spin_unlock_bh(struct irqkit_spinlock *lock)
{
	irqkit_spin_unlock(lock);
	irqkit_local_bh_enable();
}

IRQKIT__LOCKFN bool irqkit_spin_trylock_irqsave(struct irqkit_spinlock *lock,
					       unsigned long *flags)
{
	return irqkit__spin_trylock_irqsave_w(lock, flags, IRQKIT_LD_WAIT_CONFIG);
}

IRQKIT__LOCKFN bool irqkit_spin_trylock_irq(struct irqkit_spinlock *lock)
{
	if (IRQKIT__RT(IRQKIT_LD_WAIT_CONFIG))
		return irqkit_spin_trylock(lock);
	(void)IRQKIT__LOCK_IRQ_SAVE();
	if (irqkit_spin_trylock(lock))
		return true;
	IRQKIT__LOCK_IRQ_RESTORE(0);
	return false;
}

IRQKIT__LOCKFN bool irqkit_spin_trylock_bh(struct irqkit_spinlock *lock)
{
	irqkit_local_bh_disable();
	if (irqkit_spin_trylock(lock))
		return true;
	irqkit_local_bh_enable();
	return false;
}

/*
 * The raw_spinlock_t operations: the same lock, which the validator's wait
 * check takes as spinning and PREEMPT_RT mode leaves spinning, as Linux's.
 */
IRQKIT__LOCKFN void irqkit_raw_spin_lock(struct irqkit_spinlock *lock)
{
	irqkit__spin_lock_w(lock, IRQKIT_LD_WAIT_SPIN);
}

IRQKIT__LOCKFN bool irqkit_raw_spin_trylock(struct irqkit_spinlock *lock)
{
	return irqkit__spin_trylock_w(lock, IRQKIT_LD_WAIT_SPIN);
}

IRQKIT__LOCKFN unsigned long irqkit_raw_spin_lock_irqsave(struct irqkit_spinlock *lock)
{
	return irqkit__spin_lock_irqsave_w(lock, IRQKIT_LD_WAIT_SPIN);
}

IRQKIT__LOCKFN void irqkit_raw_spin_lock_irq(struct irqkit_spinlock *lock)
{
	irqkit__spin_lock_irq_w(lock, IRQKIT_LD_WAIT_SPIN);
}

IRQKIT__LOCKFN bool irqkit_raw_spin_trylock_irqsave(struct irqkit_spinlock *lock,
						   unsigned long *flags)
{
	return irqkit__spin_trylock_irqsave_w(lock, flags, IRQKIT_LD_WAIT_SPIN);
}

IRQKIT__LOCKFN void irqkit_raw_spin_unlock_irqrestore(struct irqkit_spinlock *lock,
						     unsigned long flags)
{
	irqkit__spin_unlock_irqrestore_w(lock, flags, IRQKIT_LD_WAIT_SPIN);
}

IRQKIT__LOCKFN void irqkit_raw_spin_unlock_irq(struct irqkit_spinlock *lock)
{
	irqkit__spin_unlock_irqrestore_w(lock, 0, IRQKIT_LD_WAIT_SPIN);
}

/*
 * struct irqkit_rwlock - reader-writer spinlock, laid out as Linux's qrwlock:
 * bits 0-7 the writer (0xff when held), bit 8 a waiting writer, readers counted
 * from bit 9.  Readers in interrupt context ignore a waiting writer, so a reader
 * in a handler never deadlocks against a writer queued behind a reader it
 * interrupted; other readers queue behind waiting writers.
 */
struct irqkit_rwlock {
	unsigned int		cnts;		/* private */
	struct irqkit_spinlock	wait_lock;	/* private */
};
#define IRQKIT_RWLOCK_INIT	{ 0, IRQKIT_SPINLOCK_INIT }
#define IRQKIT_RW_WLOCKED	0xffu
#define IRQKIT_RW_WAITING	0x100u
#define IRQKIT_RW_BIAS		0x200u

IRQKIT_API void irqkit_read_lock_slow(struct irqkit_rwlock *lock);
IRQKIT_API void irqkit_write_lock_slow(struct irqkit_rwlock *lock);
/* PREEMPT_RT mode's rwlock_t: sleeping, writers preferred, a writer's wait with PI */
IRQKIT_API void irqkit_rt_read_lock(struct irqkit_rwlock *lock);
IRQKIT_API bool irqkit_rt_read_trylock(struct irqkit_rwlock *lock);
IRQKIT_API void irqkit_rt_read_unlock(struct irqkit_rwlock *lock);
IRQKIT_API void irqkit_rt_write_lock(struct irqkit_rwlock *lock);
IRQKIT_API bool irqkit_rt_write_trylock(struct irqkit_rwlock *lock);
IRQKIT_API void irqkit_rt_write_unlock(struct irqkit_rwlock *lock);
#define IRQKIT__RW_RT()		IRQKIT__RT(IRQKIT_LD_WAIT_CONFIG)

static inline void irqkit__rwlock_init_plain(struct irqkit_rwlock *lock)
{
	__atomic_store_n(&lock->cnts, 0, __ATOMIC_RELAXED);
	irqkit__spin_lock_init_plain(&lock->wait_lock);
}

#ifdef IRQKIT_LOCKDEP
/* Readers are checked as readers: they share the lock with each other. */
#define irqkit_rwlock_init(lock)						\
	IRQKIT__LOCKDEP_INIT(struct irqkit_rwlock, irqkit__rwlock_init_plain, lock)
#ifdef IRQKIT_BUILD
#define IRQKIT__LOCKDEP_RW_ACQUIRE(l, try, rd)	irqkit__lockdep_acquire_own((l), (try), (rd), true)
#define IRQKIT__LOCKDEP_RW_RELEASE_FN(l, locked)	irqkit__lockdep_release_own((l), (locked), true)
#else
#define IRQKIT__LOCKDEP_RW_ACQUIRE(l, try, rd)	irqkit_lockdep_acquire_rw((l), (try), (rd))
#define IRQKIT__LOCKDEP_RW_RELEASE_FN(l, locked)	irqkit_lockdep_release_rw((l), (locked))
#endif
#define IRQKIT__LOCKDEP_RW_RELEASE(l, rd)					\
	IRQKIT__LOCKDEP_RW_RELEASE_FN((l), (rd) ?				\
		__atomic_load_n(&(l)->cnts, __ATOMIC_RELAXED) >= IRQKIT_RW_BIAS :	\
		(__atomic_load_n(&(l)->cnts, __ATOMIC_RELAXED) & IRQKIT_RW_WLOCKED) != 0)
#else
static inline void irqkit_rwlock_init(struct irqkit_rwlock *lock)
{
	irqkit__rwlock_init_plain(lock);
}
#define IRQKIT__LOCKDEP_RW_ACQUIRE(l, try, rd)	((void)0)
#define IRQKIT__LOCKDEP_RW_RELEASE(l, rd)	((void)0)
#endif

IRQKIT__LOCKFN void irqkit_read_lock(struct irqkit_rwlock *lock)
{
	if (IRQKIT__RW_RT()) {
		IRQKIT__LOCKDEP_RW_ACQUIRE(lock, false, true);
		irqkit_rt_read_lock(lock);
		return;
	}
	irqkit_preempt_disable();
	IRQKIT__LOCKDEP_RW_ACQUIRE(lock, false, true);
	if (__builtin_expect(__atomic_fetch_add(&lock->cnts, IRQKIT_RW_BIAS, __ATOMIC_ACQUIRE) &
			     (IRQKIT_RW_WLOCKED | IRQKIT_RW_WAITING), 0))
		irqkit_read_lock_slow(lock);
}

IRQKIT__LOCKFN bool irqkit_read_trylock(struct irqkit_rwlock *lock)
{
	unsigned int c = __atomic_load_n(&lock->cnts, __ATOMIC_RELAXED);

	if (IRQKIT__RW_RT()) {
		if (!irqkit_rt_read_trylock(lock))
			return false;
		IRQKIT__LOCKDEP_RW_ACQUIRE(lock, true, true);
		return true;
	}
	irqkit_preempt_disable();
	if (!(c & IRQKIT_RW_WLOCKED)) {
		c = __atomic_fetch_add(&lock->cnts, IRQKIT_RW_BIAS, __ATOMIC_ACQUIRE);
		if (!(c & IRQKIT_RW_WLOCKED)) {
			IRQKIT__LOCKDEP_RW_ACQUIRE(lock, true, true);
			return true;
		}
		__atomic_fetch_sub(&lock->cnts, IRQKIT_RW_BIAS, __ATOMIC_RELAXED);
	}
	irqkit_preempt_enable();
	return false;
}

IRQKIT__LOCKFN void irqkit_read_unlock(struct irqkit_rwlock *lock)
{
	IRQKIT__LOCKDEP_RW_RELEASE(lock, true);
	if (IRQKIT__RW_RT()) {
		irqkit_rt_read_unlock(lock);
		return;
	}
	__atomic_fetch_sub(&lock->cnts, IRQKIT_RW_BIAS, __ATOMIC_RELEASE);
	irqkit_preempt_enable();
}

IRQKIT__LOCKFN void irqkit_write_lock(struct irqkit_rwlock *lock)
{
	if (IRQKIT__RW_RT()) {
		IRQKIT__LOCKDEP_RW_ACQUIRE(lock, false, false);
		irqkit_rt_write_lock(lock);
		return;
	}
	unsigned int zero = 0;

	irqkit_preempt_disable();
	IRQKIT__LOCKDEP_RW_ACQUIRE(lock, false, false);
	if (__builtin_expect(!__atomic_compare_exchange_n(&lock->cnts, &zero, IRQKIT_RW_WLOCKED,
							  false, __ATOMIC_ACQUIRE,
							  __ATOMIC_RELAXED), 0))
		irqkit_write_lock_slow(lock);
}

IRQKIT__LOCKFN bool irqkit_write_trylock(struct irqkit_rwlock *lock)
{
	unsigned int zero = 0;

	if (IRQKIT__RW_RT()) {
		if (!irqkit_rt_write_trylock(lock))
			return false;
		IRQKIT__LOCKDEP_RW_ACQUIRE(lock, true, false);
		return true;
	}
	irqkit_preempt_disable();
	if (__atomic_compare_exchange_n(&lock->cnts, &zero, IRQKIT_RW_WLOCKED, false,
					__ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
		IRQKIT__LOCKDEP_RW_ACQUIRE(lock, true, false);
		return true;
	}
	irqkit_preempt_enable();
	return false;
}

IRQKIT__LOCKFN void irqkit_write_unlock(struct irqkit_rwlock *lock)
{
	IRQKIT__LOCKDEP_RW_RELEASE(lock, false);
	if (IRQKIT__RW_RT()) {
		irqkit_rt_write_unlock(lock);
		return;
	}
	__atomic_fetch_sub(&lock->cnts, IRQKIT_RW_WLOCKED, __ATOMIC_RELEASE);
	irqkit_preempt_enable();
}

#define IRQKIT__RW_VARIANTS(op)							\
IRQKIT__LOCKFN unsigned long irqkit_##op##_lock_irqsave(struct irqkit_rwlock *l)	\
{										\
	unsigned long flags = IRQKIT__RW_RT() ? 0 : IRQKIT__LOCK_IRQ_SAVE();	\
	irqkit_##op##_lock(l);							\
	return flags;								\
}										\
IRQKIT__LOCKFN void irqkit_##op##_unlock_irqrestore(struct irqkit_rwlock *l,	\
						     unsigned long flags)	\
{										\
	irqkit_##op##_unlock(l);						\
	if (!IRQKIT__RW_RT())							\
		IRQKIT__LOCK_IRQ_RESTORE(flags);				\
}										\
IRQKIT__LOCKFN void irqkit_##op##_lock_irq(struct irqkit_rwlock *l)		\
{										\
	if (!IRQKIT__RW_RT())							\
		(void)IRQKIT__LOCK_IRQ_SAVE();					\
	irqkit_##op##_lock(l);							\
}										\
IRQKIT__LOCKFN void irqkit_##op##_unlock_irq(struct irqkit_rwlock *l)		\
{										\
	irqkit_##op##_unlock(l);						\
	if (!IRQKIT__RW_RT())							\
		IRQKIT__LOCK_IRQ_RESTORE(0);					\
}										\
IRQKIT__LOCKFN void irqkit_##op##_lock_bh(struct irqkit_rwlock *l)		\
{										\
	irqkit_local_bh_disable();						\
	irqkit_##op##_lock(l);							\
}										\
IRQKIT__LOCKFN void irqkit_##op##_unlock_bh(struct irqkit_rwlock *l)		\
{										\
	irqkit_##op##_unlock(l);						\
	irqkit_local_bh_enable();						\
}
IRQKIT__RW_VARIANTS(read)
IRQKIT__RW_VARIANTS(write)
#undef IRQKIT__RW_VARIANTS

#ifdef __cplusplus
}
#endif
#endif /* IRQKIT_SPINLOCK_H */
