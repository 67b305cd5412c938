// SPDX-License-Identifier: MIT
/*
 * mydev, in kernel style (see mydev.h).  Built twice by the tests: as it
 * should be, and with -DMYDEV_BUG_IRQ_UNSAFE, where mydev_read() takes the
 * ring lock with spin_lock() -- the bug the lock validator finds.
 */
#include "mydev.h"

#include <irqkit/swchip.h>
#include <linux/errno.h>
#include <linux/kernel.h>

static void mydev_rx_tasklet(unsigned long data)
{
	struct mydev *dev = (struct mydev *)data;
	unsigned long flags;

	spin_lock_irqsave(&dev->ring_lock, flags);
	dev->received += dev->pending;
	dev->pending = 0;
	spin_unlock_irqrestore(&dev->ring_lock, flags);
}

/*
 * The top half drains the whole FIFO, however many interrupts it took to
 * fill it: an interrupt lost, or two folded into one, loses no data.  One
 * that finds the FIFO empty was not this device's: IRQ_NONE.
 */
static irqreturn_t mydev_interrupt(int irq, void *dev_id)
{
	struct mydev *dev = dev_id;
	struct mydev_hw *hw = dev->hw;
	unsigned int n = 0;

	(void)irq;
	spin_lock(&hw->hw_lock);
	spin_lock(&dev->ring_lock);
	while (n < hw->fifo_len && (dev->head + 1) % MYDEV_RING != dev->tail) {
		dev->ring[dev->head] = hw->fifo[n++];
		dev->head = (dev->head + 1) % MYDEV_RING;
	}
	hw->fifo_len = 0;	/* reading the FIFO empties it (and drops what the ring cannot take) */
	dev->pending += n;
	if (n)
		dev->irqs++;
	else
		dev->spurious++;
	spin_unlock(&dev->ring_lock);
	spin_unlock(&hw->hw_lock);
	if (!n)
		return IRQ_NONE;
	tasklet_schedule(&dev->rx_tasklet);
	return IRQ_HANDLED;
}

int mydev_probe(struct mydev *dev, struct mydev_hw *hw, unsigned int irq)
{
	dev->hw = hw;
	dev->irq = irq;
	dev->head = dev->tail = 0;
	dev->received = dev->pending = dev->irqs = dev->spurious = 0;
	spin_lock_init(&dev->ring_lock);
	tasklet_init(&dev->rx_tasklet, mydev_rx_tasklet, (unsigned long)dev);
	return request_irq(irq, mydev_interrupt, IRQF_SHARED, "mydev", dev);
}

void mydev_remove(struct mydev *dev)
{
	free_irq(dev->irq, dev);
	tasklet_kill(&dev->rx_tasklet);
}

unsigned int mydev_read(struct mydev *dev, unsigned char *buf, unsigned int len)
{
	unsigned int n = 0;
#ifdef MYDEV_BUG_IRQ_UNSAFE
	spin_lock(&dev->ring_lock);		/* the bug: the handler can come now, on this CPU */
#else
	unsigned long flags;

	spin_lock_irqsave(&dev->ring_lock, flags);
#endif
	while (n < len && dev->tail != dev->head) {
		buf[n++] = dev->ring[dev->tail];
		dev->tail = (dev->tail + 1) % MYDEV_RING;
	}
#ifdef MYDEV_BUG_IRQ_UNSAFE
	spin_unlock(&dev->ring_lock);
#else
	spin_unlock_irqrestore(&dev->ring_lock, flags);
#endif
	return n;
}

void mydev_hw_receive(struct mydev_hw *hw, unsigned int irq, const unsigned char *data,
		      unsigned int len)
{
	unsigned long flags;

	spin_lock_irqsave(&hw->hw_lock, flags);
	for (unsigned int i = 0; i < len && hw->fifo_len < MYDEV_FIFO; i++)
		hw->fifo[hw->fifo_len++] = data[i];
	spin_unlock_irqrestore(&hw->hw_lock, flags);
	irqkit_sw_raise(irq);
}
