// SPDX-License-Identifier: MIT
// The native headers compile as C++ (a compile test; tests/CMakeLists.txt).
#include <irqkit/irqkit.h>
#include <irqkit/pci.h>

static enum irqkit_irqreturn handler(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	return IRQKIT_HANDLED;
}

int use(void);
int use(void)
{
	static struct irqkit_spinlock lock;
	unsigned long flags = irqkit_local_irq_save();

	irqkit_local_irq_restore(flags);
	irqkit_spin_lock_init(&lock);
	flags = irqkit_spin_lock_irqsave(&lock);
	irqkit_spin_unlock_irqrestore(&lock, flags);
	return irqkit_request_irq(1, handler, 0, "cxx", nullptr) +
	       (IRQKIT_VERSION == irqkit_version() ? 0 : 1);
}
