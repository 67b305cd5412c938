/* SPDX-License-Identifier: MIT */
/*
 * mydev: the small driver of docs/testing-drivers.md.  A device with a
 * receive FIFO raises an edge interrupt when data arrives; the top half
 * moves what the FIFO holds into the driver's ring, the tasklet counts it,
 * and process context reads the ring.
 */
#ifndef MYDEV_H
#define MYDEV_H

#include <linux/interrupt.h>
#include <linux/spinlock.h>

#define MYDEV_FIFO	16
#define MYDEV_RING	256

/* The device's side, as its registers would show it. */
struct mydev_hw {
	unsigned char	fifo[MYDEV_FIFO];
	unsigned int	fifo_len;
	spinlock_t	hw_lock;	/* the simulated hardware's own consistency */
};

struct mydev {
	struct mydev_hw		*hw;
	unsigned int		irq;
	spinlock_t		ring_lock;	/* ring: top half and readers */
	unsigned char		ring[MYDEV_RING];
	unsigned int		head, tail;
	unsigned long		received;	/* bytes, counted by the tasklet */
	unsigned long		pending;	/* bytes the tasklet has not counted yet */
	unsigned long		irqs, spurious;
	struct tasklet_struct	rx_tasklet;
};

int mydev_probe(struct mydev *dev, struct mydev_hw *hw, unsigned int irq);
void mydev_remove(struct mydev *dev);
/* Process context: copy up to @len received bytes out.  Return: bytes copied. */
unsigned int mydev_read(struct mydev *dev, unsigned char *buf, unsigned int len);

/* The simulated device: data arrives, the interrupt line rises. */
void mydev_hw_receive(struct mydev_hw *hw, unsigned int irq, const unsigned char *data,
		      unsigned int len);

#endif /* MYDEV_H */
