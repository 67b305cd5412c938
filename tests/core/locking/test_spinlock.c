// SPDX-License-Identifier: MIT
/* Tests of src/core/locking/spinlock.c and include/irqkit/spinlock.h: every Linux variant. */
#include "../../harness.h"

static struct irqkit_spinlock lock;
static struct irqkit_rwlock rw;

static int setup(void **state)
{
	irqkit_spin_lock_init(&lock);
	irqkit_rwlock_init(&rw);
	return det_setup(state);
}

static void test_spin_lock_disables_preemption_only(void **state)
{
	(void)state;
	irqkit_spin_lock(&lock);
	assert_true(irqkit_spin_is_locked(&lock));
	assert_int_equal(irqkit_preempt_count(), 1);
	assert_false(irqkit_irqs_disabled());
	irqkit_spin_unlock(&lock);
	assert_false(irqkit_spin_is_locked(&lock));
	assert_int_equal(irqkit_preempt_count(), 0);
}

static void test_spin_lock_irqsave_restores_the_saved_state(void **state)
{
	unsigned long f1, f2;
	struct irqkit_spinlock other = IRQKIT_SPINLOCK_INIT;

	(void)state;
	f1 = irqkit_spin_lock_irqsave(&lock);
	assert_true(irqkit_irqs_disabled());
	f2 = irqkit_spin_lock_irqsave(&other);
	irqkit_spin_unlock_irqrestore(&other, f2);
	assert_true(irqkit_irqs_disabled());		/* inner restore: still off */
	irqkit_spin_unlock_irqrestore(&lock, f1);
	assert_false(irqkit_irqs_disabled());
	assert_int_equal(irqkit_preempt_count(), 0);
}

static void test_spin_unlock_irq_enables_unconditionally(void **state)
{
	(void)state;
	irqkit_local_irq_disable();
	irqkit_spin_lock_irq(&lock);
	irqkit_spin_unlock_irq(&lock);
	assert_false(irqkit_irqs_disabled());
}

static void test_spin_lock_bh_disables_bottom_halves(void **state)
{
	(void)state;
	irqkit_spin_lock_bh(&lock);
	assert_int_equal(irqkit_preempt_count(), 0x201);
	assert_true(irqkit_in_softirq());
	irqkit_spin_unlock_bh(&lock);
	assert_int_equal(irqkit_preempt_count(), 0);
}

static void test_spin_trylocks(void **state)
{
	unsigned long flags = 99;

	(void)state;
	assert_true(irqkit_spin_trylock(&lock));
	assert_false(irqkit_spin_trylock(&lock));
	assert_int_equal(irqkit_preempt_count(), 1);		/* failure gives it back */
	assert_false(irqkit_spin_trylock_irqsave(&lock, &flags));
	assert_false(irqkit_irqs_disabled());
	assert_false(irqkit_spin_trylock_irq(&lock));
	assert_false(irqkit_irqs_disabled());
	assert_false(irqkit_spin_trylock_bh(&lock));
	assert_int_equal(irqkit_preempt_count(), 1);
	irqkit_spin_unlock(&lock);

	assert_true(irqkit_spin_trylock_irqsave(&lock, &flags));
	assert_true(irqkit_irqs_disabled());
	irqkit_spin_unlock_irqrestore(&lock, flags);
	assert_true(irqkit_spin_trylock_irq(&lock));
	irqkit_spin_unlock_irq(&lock);
	assert_true(irqkit_spin_trylock_bh(&lock));
	assert_int_equal(irqkit_preempt_count(), 0x201);
	irqkit_spin_unlock_bh(&lock);
	assert_int_equal(irqkit_preempt_count(), 0);
	assert_false(irqkit_irqs_disabled());
}

static void test_rwlock_readers_share_writers_exclude(void **state)
{
	(void)state;
	irqkit_read_lock(&rw);
	irqkit_read_lock(&rw);
	assert_true(irqkit_read_trylock(&rw));
	assert_false(irqkit_write_trylock(&rw));
	irqkit_read_unlock(&rw);
	irqkit_read_unlock(&rw);
	irqkit_read_unlock(&rw);
	assert_true(irqkit_write_trylock(&rw));
	assert_false(irqkit_read_trylock(&rw));
	assert_false(irqkit_write_trylock(&rw));
	irqkit_write_unlock(&rw);
	irqkit_write_lock(&rw);
	irqkit_write_unlock(&rw);
	assert_int_equal(irqkit_preempt_count(), 0);
}

static void test_rwlock_irq_and_bh_variants(void **state)
{
	unsigned long flags;

	(void)state;
	flags = irqkit_read_lock_irqsave(&rw);
	assert_true(irqkit_irqs_disabled());
	irqkit_read_unlock_irqrestore(&rw, flags);
	assert_false(irqkit_irqs_disabled());
	flags = irqkit_write_lock_irqsave(&rw);
	assert_true(irqkit_irqs_disabled());
	irqkit_write_unlock_irqrestore(&rw, flags);
	irqkit_read_lock_irq(&rw);
	irqkit_read_unlock_irq(&rw);
	irqkit_write_lock_irq(&rw);
	irqkit_write_unlock_irq(&rw);
	assert_false(irqkit_irqs_disabled());
	irqkit_read_lock_bh(&rw);
	assert_int_equal(irqkit_preempt_count(), 0x201);
	irqkit_read_unlock_bh(&rw);
	irqkit_write_lock_bh(&rw);
	assert_int_equal(irqkit_preempt_count(), 0x201);
	irqkit_write_unlock_bh(&rw);
	assert_int_equal(irqkit_preempt_count(), 0);
}

/* A reader in a handler gets in past a waiting writer (qrwlock's rule for interrupts). */
static bool reader_got_in;

static enum irqkit_irqreturn reader_handler(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	irqkit_read_lock(&rw);
	reader_got_in = true;
	irqkit_read_unlock(&rw);
	return IRQKIT_HANDLED;
}

static void test_interrupt_reader_ignores_a_waiting_writer(void **state)
{
	(void)state;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), reader_handler, 0, "r", &rw), 0);
	irqkit_read_lock(&rw);
	/* a writer announced itself and waits for the readers */
	__atomic_fetch_or(&rw.cnts, IRQKIT_RW_WAITING, __ATOMIC_RELAXED);
	irqkit_sw_raise(T_EDGE(1));
	assert_true(reader_got_in);
	__atomic_fetch_and(&rw.cnts, ~IRQKIT_RW_WAITING, __ATOMIC_RELAXED);
	irqkit_read_unlock(&rw);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, det_teardown)
		T(test_spin_lock_disables_preemption_only),
		T(test_spin_lock_irqsave_restores_the_saved_state),
		T(test_spin_unlock_irq_enables_unconditionally),
		T(test_spin_lock_bh_disables_bottom_halves),
		T(test_spin_trylocks),
		T(test_rwlock_readers_share_writers_exclude),
		T(test_rwlock_irq_and_bh_variants),
		T(test_interrupt_reader_ignores_a_waiting_writer),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
