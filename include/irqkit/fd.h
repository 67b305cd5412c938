/* SPDX-License-Identifier: MIT */
/*
 * Lines bound to file descriptors (Linux user space): the interrupts of
 * user-space drivers -- UIO, VFIO, GPIO line events, a serial port or pty,
 * a TUN/TAP device, eventfd, timerfd, signalfd, any pollable descriptor.
 */
#ifndef IRQKIT_FD_H
#define IRQKIT_FD_H

#include <irqkit/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * A bound line is served by the dispatcher of its virtual CPU itself: that
 * thread waits on the CPU's descriptors with epoll, so an interrupt costs no
 * extra thread and no hop.  The line is a line of the fd chip ("FD" in the
 * interrupt table, with the descriptor's number in the hwirq column), and
 * everything else is the kernel's model unchanged: request_irq, shared
 * lines, disable/enable, threaded handlers, "nobody cared", affinity.
 *
 * Triggers.  An edge source (eventfd, timerfd, signalfd, UIO, VFIO, GPIO)
 * raises the line once per arrival; the chip consumes the arrival the way
 * the source needs (reads the eventfd counter, the timerfd expirations, the
 * UIO count, the GPIO records, the signalfd records) when the CPU takes it,
 * so the handler never sees a stale or a doubled event, and counts what it
 * read (irqkit_irq_get_events()).  A level source (a tty's receive and
 * transmit, a TAP device, a descriptor bound as level) requests service for
 * as long as the descriptor is readable (writable, for transmit): the
 * handler must drain it, or it screams and is disabled as Linux does.
 *
 * Masking removes the descriptor's readiness interest (epoll) and unmasking
 * restores it; nothing that arrived meanwhile is lost: it is still in the
 * descriptor, and is taken on unmask.  For the sources the chip reads, an
 * arrival still in the descriptor is pending (irq_get_irqchip_state), so
 * irqkit_wait_delivered() after a write waits for its handler.
 *
 * Ownership.  The descriptor stays the caller's: binding switches it to
 * non-blocking mode and does not take it; the caller closes it after
 * irqkit_fd_unbind().  Once free_irq() of the line's last action has
 * returned, irqkit no longer reads the descriptor, and once
 * irqkit_fd_unbind() returned it no longer holds it in any epoll set.
 *
 * Failure.  A descriptor that hangs up or fails while bound (EPOLLHUP,
 * EPOLLERR, a read that fails or returns a malformed record) is reported
 * ("irq N: fd F (kind): ...; disabling the line") and its line disabled; it
 * is never read again.  Closing a descriptor while its line is requested is
 * a bug of the caller that irqkit survives: it is reported when noticed.
 *
 * Every bind needs a started runtime, a line with no handler that is not
 * bound already (a line of another chip, such as the software chip, is
 * taken over), and a descriptor not bound already.  Return: 0; -EINVAL (no
 * such line, runtime not started, bad type); -EBADF (fd not open); -EPERM
 * (fd cannot be polled, as epoll says for a regular file); -EBUSY (the line
 * has a handler or is bound, or the fd is bound to another line);
 * -EOPNOTSUPP (deterministic mode: no dispatcher waits; simulator mode: a
 * descriptor is not the simulator's to wait on); -ENOMEM.
 * Context: process context.
 */

/**
 * irqkit_fd_bind - bind a line to any pollable descriptor
 * @type: IRQKIT_TYPE_LEVEL_HIGH: the line requests while @fd is readable;
 *        IRQKIT_TYPE_EDGE_RISING: each wake-up of @fd is an edge (epoll's
 *        edge-triggered mode), the handler reads what it wants.
 */
IRQKIT_API IRQKIT_MUST_CHECK int irqkit_fd_bind(unsigned int irq, int fd, unsigned int type);

/** irqkit_fd_bind_eventfd - edge line; the counter read is the number of coalesced events. */
IRQKIT_API IRQKIT_MUST_CHECK int irqkit_fd_bind_eventfd(unsigned int irq, int efd);

/** irqkit_fd_bind_timerfd - edge line; the expirations read count as events (periodic or one-shot). */
IRQKIT_API IRQKIT_MUST_CHECK int irqkit_fd_bind_timerfd(unsigned int irq, int tfd);

/**
 * irqkit_fd_bind_signalfd - edge line; each struct signalfd_siginfo read is
 * an event, the last one is irqkit_fd_last_record()'s.  The signals must be
 * blocked in every thread: block them before irqkit_start(), whose threads
 * inherit the mask.
 */
IRQKIT_API IRQKIT_MUST_CHECK int irqkit_fd_bind_signalfd(unsigned int irq, int sfd);

/**
 * irqkit_fd_bind_uio - a UIO device (/dev/uioN): the 32-bit count is read
 * when the CPU takes the interrupt (a gap in it is lost interrupts), and 1 is
 * written to re-enable the interrupt after the handler -- or the threaded
 * handler -- has finished, and once at startup.  A UIO driver without
 * irqcontrol refuses the write; that is noted once and the writes stop.
 * The line uses the fasteoi flow: the re-enable is its end of interrupt.
 */
IRQKIT_API IRQKIT_MUST_CHECK int irqkit_fd_bind_uio(unsigned int irq, int uio_fd);

/**
 * irqkit_fd_bind_vfio - a VFIO interrupt: @trigger_fd is the eventfd VFIO
 * signals (one per vector); @unmask_fd, for INTx, is the eventfd given to
 * VFIO_IRQ_SET_ACTION_UNMASK, written after the handler finished to re-arm
 * the line (as UIO's re-enable); -1 for MSI and MSI-X vectors.
 */
IRQKIT_API IRQKIT_MUST_CHECK int irqkit_fd_bind_vfio(unsigned int irq, int trigger_fd,
						     int unmask_fd);

/**
 * irqkit_vfio_set_irqs - have VFIO signal eventfds for @count vectors of
 * interrupt @index (VFIO_PCI_INTX_IRQ_INDEX, _MSI_, _MSIX_) of @device_fd,
 * from vector 0: creates the eventfds, issues VFIO_DEVICE_SET_IRQS, and
 * returns them in @trigger_fds; for INTx also the unmask eventfd in
 * *@unmask_fd (else -1).  Bind each with irqkit_fd_bind_vfio().
 * Return: 0, or the ioctl's -errno (-ENOTTY for a descriptor that is not a
 * VFIO device), -EINVAL, -EMFILE.
 */
IRQKIT_API IRQKIT_MUST_CHECK int irqkit_vfio_set_irqs(int device_fd, unsigned int index,
						      unsigned int count, int *trigger_fds,
						      int *unmask_fd);

/**
 * irqkit_fd_bind_gpio - a GPIO character device line request (v2 uAPI, the
 * fd of GPIO_V2_GET_LINE_IOCTL with edge detection): an edge line; every
 * struct gpio_v2_line_event read is an event, a gap in its seqno is lost
 * events, its timestamp is the delivery's timestamp_ns and the last record
 * is irqkit_fd_last_record()'s.  A read that ends mid-record is a failure.
 */
IRQKIT_API IRQKIT_MUST_CHECK int irqkit_fd_bind_gpio(unsigned int irq, int request_fd);

/**
 * irqkit_fd_bind_tty - a serial port or pty as a UART's two interrupts:
 * @rx_irq a level line asserted while received data waits (the handler
 * reads it); @tx_irq a level line asserted while the port can take more
 * data, which the driver enables (enable_irq) while it has data to send and
 * disables when it has none, as a 16550 driver sets and clears THRI
 * (IRQKIT_FD_NO_IRQ: no transmit line).  The transmit line watches a
 * duplicate of @tty_fd, made here and closed at unbind.
 */
#define IRQKIT_FD_NO_IRQ	(~0u)
IRQKIT_API IRQKIT_MUST_CHECK int irqkit_fd_bind_tty(unsigned int rx_irq, unsigned int tx_irq,
						    int tty_fd);

/** irqkit_fd_bind_tap - a TUN/TAP device: a level line asserted while a packet waits. */
IRQKIT_API IRQKIT_MUST_CHECK int irqkit_fd_bind_tap(unsigned int irq, int tap_fd);

/**
 * irqkit_fd_unbind - take the descriptor off the line, which returns to no chip
 * Return: 0; -EINVAL if the line is not bound; -EBUSY while it has a handler
 * (free_irq first).  A tty pair is unbound by either of its lines.
 * Context: process context.
 */
IRQKIT_API int irqkit_fd_unbind(unsigned int irq);

/** irqkit_fd_of - the descriptor bound to @irq, or -EINVAL.  Context: any. */
IRQKIT_API int irqkit_fd_of(unsigned int irq);

/**
 * irqkit_fd_last_record - copy the last record the chip read from @irq's
 * source (struct gpio_v2_line_event for GPIO, struct signalfd_siginfo for
 * signalfd) into @buf, at most @len bytes.
 * Return: the record's size; -EINVAL for another kind or none read yet.
 * Context: the line's handler (the record of the delivery it serves).
 */
IRQKIT_API int irqkit_fd_last_record(unsigned int irq, void *buf, size_t len);

/*
 * ---- A virtual CPU inside another event loop -------------------------------
 *
 * A CPU listed in irqkit_config.loop_cpus has no dispatcher thread: a
 * program's own loop (epoll, libuv's uv_poll_t, GLib's g_unix_fd_add) plays
 * it.  irqkit_loop_fd() is readable while that CPU has something to deliver
 * (an interrupt signalled to it, a bound descriptor ready); the loop thread,
 * bound to the CPU (irqkit_thread_bind()), then calls irqkit_loop_run(),
 * which takes the ready descriptors' interrupts and delivers what is
 * pending, softirqs included, before it returns.  Handlers then run on the
 * loop's thread, in hardirq context, exactly as on a dispatcher.
 */

/** irqkit_loop_fd - the descriptor to watch for CPU @cpu.  Return: it, or -EINVAL. */
IRQKIT_API int irqkit_loop_fd(unsigned int cpu);

/**
 * irqkit_loop_run - deliver what is ready for the caller's CPU, without blocking
 * Context: a thread bound to a CPU of loop_cpus, interrupts on, outside
 * interrupt context.  Return: the number of descriptor events taken, or
 * -EINVAL (the caller plays no such CPU), -EBUSY (interrupts off, or in
 * interrupt context).
 */
IRQKIT_API int irqkit_loop_run(void);

#ifdef __cplusplus
}
#endif
#endif /* IRQKIT_FD_H */
