/* SPDX-License-Identifier: MIT */
/*
 * A pretend device for the 2.6-style test drivers: a status register and an
 * interrupt wire on a software line.  It stands in for the I/O ports of a
 * real driver (inb/outb), which are outside what irqkit models.
 */
#ifndef FAKEDEV_H
#define FAKEDEV_H

/* The test wires the device to a line; the driver does not know which (it probes). */
void fakedev_wire(unsigned int irq);
/* The device's status register: non-zero while it requests service. */
unsigned int fakedev_status(void);
/* The driver acknowledges: the device stops requesting. */
void fakedev_ack(void);
/* The device interrupts (sets its status, raises its line). */
void fakedev_trigger(void);

#endif
