/* SPDX-License-Identifier: MIT */
/*
 * The RTC-style test driver: shaped as 2.6.9's drivers/char/rtc.c (an
 * interrupt that stores its data and wakes readers; a blocking read that a
 * signal ends with -ERESTARTSYS), with genrtc.c's xchg() on the pending
 * flag and i8042.c's kmalloc() of its buffer, written with only the
 * includes those drivers had.
 */
#ifndef DRV_RTC_H
#define DRV_RTC_H

int rtc_open(void);		/* request_irq on the probed line; kmalloc's the buffer */
void rtc_release(void);
/* rtc_read: the next interrupt's data; -EAGAIN (nonblock), -ERESTARTSYS (signalled) */
long rtc_read(unsigned long *data, int nonblock);
int rtc_irqs(void);

#endif
