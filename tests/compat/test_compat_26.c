// SPDX-License-Identifier: MIT
/*
 * Code written for Linux 2.6 builds unchanged over the Linux-name layer and
 * behaves as it did: a handler with the 2.6.0-2.6.18 `struct pt_regs *`
 * argument, SA_* flags, IRQ_RETVAL, local_irq_save, spinlocks; and a modern
 * driver beside it.
 */
#include "../harness.h"

#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/spinlock.h>
#include <linux/lockdep.h>
#include <linux/hardirq.h>
#include <linux/bottom_half.h>

/* ---- a 2.6.9-era driver ---------------------------------------------------------- */

struct old_card {
	spinlock_t	lock;
	int		status;
	int		irqs;
	int		in_irq_seen;
};

static irqreturn_t old_card_interrupt(int irq, void *dev_id, struct pt_regs *regs)
{
	struct old_card *card = dev_id;
	int handled;

	(void)irq;
	(void)regs;
	spin_lock(&card->lock);
	handled = card->status;
	card->status = 0;
	if (handled)
		card->irqs++;
	card->in_irq_seen = in_interrupt() && in_irq();
	spin_unlock(&card->lock);
	return IRQ_RETVAL(handled);
}

static struct old_card card = { .lock = __SPIN_LOCK_UNLOCKED(card.lock) };

/* ---- a modern driver ---------------------------------------------------------------- */

static int modern_irqs;

static irqreturn_t modern_interrupt(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	modern_irqs++;
	return IRQ_NONE;	/* shares the line; never its device here */
}

static void test_26_driver_builds_and_runs_beside_a_modern_one(void **state)
{
	unsigned long flags;
	int irq = T_EDGE(3);

	(void)state;
	assert_true(can_request_irq(irq, SA_SHIRQ));
	assert_int_equal(request_irq(irq, old_card_interrupt, SA_SHIRQ | SA_INTERRUPT |
				     SA_SAMPLE_RANDOM, "oldcard", &card), 0);
	assert_int_equal(request_irq(irq, modern_interrupt, IRQF_SHARED | IRQF_DISABLED, "modern",
				     &modern_irqs), 0);

	spin_lock_irqsave(&card.lock, flags);
	lockdep_assert_held(&card.lock);	/* without IRQKIT_LOCKDEP: nothing, as without CONFIG_LOCKDEP */
	lockdep_assert_irqs_disabled();
	card.status = 1;
	irqkit_sw_raise((unsigned int)irq);	/* latched: interrupts are off */
	assert_int_equal(card.irqs, 0);
	spin_unlock_irqrestore(&card.lock, flags);
	assert_int_equal(card.irqs, 1);
	assert_true(card.in_irq_seen);
	assert_int_equal(modern_irqs, 1);

	local_irq_save(flags);
	assert_true(irqs_disabled());
	local_irq_restore(flags);
	assert_false(irqs_disabled());

	disable_irq(irq);
	card.status = 1;
	irqkit_sw_raise((unsigned int)irq);
	assert_int_equal(card.irqs, 1);
	enable_irq(irq);
	assert_int_equal(card.irqs, 2);
	synchronize_irq(irq);

	free_irq(irq, &modern_irqs);
	free_irq(irq, &card);
	assert_false(irqkit_irq_has_action((unsigned int)irq));
}

static void test_linux_names_have_linux_values(void **state)
{
	(void)state;
	assert_int_equal(IRQ_NONE, 0);
	assert_int_equal(IRQ_HANDLED, 1);
	assert_int_equal(IRQ_WAKE_THREAD, 2);
	assert_int_equal(IRQ_RETVAL(42), IRQ_HANDLED);
	assert_int_equal(IRQF_SHARED, 0x80);
	assert_int_equal(IRQF_ONESHOT, 0x2000);
	assert_int_equal(IRQF_NO_AUTOEN, 0x80000);
	assert_int_equal(IRQF_TRIGGER_HIGH, 0x4);
	assert_int_equal(SA_SHIRQ, IRQF_SHARED);
	assert_int_equal(IRQ_TYPE_LEVEL_HIGH, 4);
	assert_int_equal(IRQ_NOTCONNECTED, 0x80000000u);
	assert_int_equal(SOFTIRQ_DISABLE_OFFSET, 0x200);
	assert_int_equal(HARDIRQ_OFFSET, 0x10000);
	local_bh_disable();
	assert_true(in_softirq());
	assert_int_equal(preempt_count(), 0x200);
	local_bh_enable();
	assert_true(in_task());
}

static void test_rwlock_and_trylock_macros(void **state)
{
	DEFINE_RWLOCK(rw);
	DEFINE_SPINLOCK(sl);
	unsigned long flags;

	(void)state;
	read_lock_irqsave(&rw, flags);
	assert_false(write_trylock(&rw));
	read_unlock_irqrestore(&rw, flags);
	assert_true(write_trylock_irqsave(&rw, flags));
	assert_true(irqs_disabled());
	write_unlock_irqrestore(&rw, flags);
	assert_true(spin_trylock_irqsave(&sl, flags));
	assert_true(spin_is_locked(&sl));
	spin_unlock_irqrestore(&sl, flags);
	assert_false(irqs_disabled());
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, det_setup, det_teardown)
		T(test_26_driver_builds_and_runs_beside_a_modern_one),
		T(test_linux_names_have_linux_values),
		T(test_rwlock_and_trylock_macros),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
