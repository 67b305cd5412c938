/* SPDX-License-Identifier: MIT */
/*
 * Recording a device's interrupts, and replaying them in the simulator.
 *
 * A recording keeps every arrival on the chosen lines of the fd chip
 * (<irqkit/fd.h>): the line, the virtual CPU that took it, the time since
 * the recording began, and the bytes the chip read from the source -- the
 * UIO count, the eventfd/timerfd/VFIO counter, the GPIO event records with
 * their sequence numbers and timestamps, the signalfd records.  Everything
 * the chip counts (arrivals, coalesced, lost, the last record) is derived
 * from those bytes, so it is not stored twice.  Only such sources can be
 * recorded: a descriptor whose handler reads it itself (a tty, TAP, a plain
 * fd) is refused, since what the handler read is not the chip's to keep.
 *
 * A replay binds the recording's lines, by their numbers, to no descriptor:
 * the recording is their source.  At each arrival's time (from
 * irqkit_replay_start(); in the simulator virtual time, so the arrival
 * pattern is exact whatever the schedule) its bytes become readable and the
 * line's CPU is told, as epoll tells it of a descriptor; the fd chip then
 * reads and counts them as it did when recording.  A handler sees the same
 * arrivals, counts, lost events and records; what may differ is only what
 * the schedule decides (in the simulator, the seed): which arrivals fold
 * into one interrupt because the line was still busy.  Replay runs in the
 * simulator (IRQKIT_MODE_SIM) and in threaded mode (real time), not in
 * deterministic mode, which has no CPU that waits for a source.
 *
 * The file: the 8 bytes "IRQKITRC", a format version, the lines (number,
 * source kind, flow, what was known of its sequence), then the arrivals as
 * variable-length integers (line, time since the previous arrival, CPU,
 * length, bytes), and an end mark with the number of arrivals.  A file
 * without its end mark (a program killed while recording) is refused as
 * truncated.  docs/testing-drivers.md shows the workflow.
 */
#ifndef IRQKIT_RECORD_H
#define IRQKIT_RECORD_H

#include <irqkit/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * irqkit_record_start - record the arrivals of @nr lines of the fd chip to @path
 * @irqs: the lines, each bound (irqkit_fd_bind_uio(), _gpio(), ...)
 *
 * The file is created (or truncated).  Arrivals are buffered and written
 * in blocks of 64 KiB by the CPU that took them: a recorded arrival costs
 * the CPU a clock read, an uncontended mutex and a copy of its bytes.
 * One recording at a time per runtime.  Start it before the lines are
 * requested: a read in flight while it starts may be left out of the
 * recording although the line's starting state (the UIO count, the GPIO
 * seqno known) already includes it, so the replay's first arrival could
 * count one lost event more or fewer than the original did.
 * Context: process context, runtime started (threaded or simulator mode).
 * Return: 0; -EINVAL (no runtime, no lines, a line not bound to the fd chip,
 * a line twice); -EOPNOTSUPP (a line whose handler reads its descriptor);
 * -EBUSY (a recording runs); -ENOMEM; the -errno of creating @path.
 */
IRQKIT_API IRQKIT_MUST_CHECK int irqkit_record_start(const char *path, const unsigned int *irqs,
						     unsigned int nr);

/**
 * irqkit_record_stop - stop the recording, write its end and close the file
 * Context: process context.
 * Return: the number of arrivals recorded; -EINVAL when no recording runs;
 * the -errno of a write that failed (-ENOSPC, -EIO, ...), reported when
 * it failed: the file then has no end mark, and a replay refuses it.
 */
IRQKIT_API long irqkit_record_stop(void);

struct irqkit_replay;

struct irqkit_replay_info {
	unsigned int		nr_lines;
	const unsigned int	*irqs;		/* the recording's lines, nr_lines of them */
	unsigned long		arrivals;
	uint64_t		duration_ns;	/* from the start to the last arrival */
	unsigned long		made;		/* arrivals the replay made so far */
};

/**
 * irqkit_replay_open - read and check recording @path, and bind its lines
 * @out: the replay, for the calls below
 *
 * Each line of the recording must be a line of the runtime with no handler
 * and bound to nothing; it is bound to the replay (its chip is the fd
 * chip's, "FD" in the interrupt table), ready for request_irq.  Nothing
 * arrives before irqkit_replay_start().  One replay at a time.
 * Context: process context, runtime started in simulator or threaded mode.
 * Return: 0; the -errno of opening or reading @path; -EPROTO for a file that
 * is not a recording, is of another format version, is truncated or
 * malformed (each said in a log line with the byte where it went wrong);
 * -ENODEV for a line the runtime does not have (too few lines); -EBUSY for
 * a line that has a handler or is bound, or a replay that runs;
 * -EOPNOTSUPP in deterministic mode; -EINVAL without a runtime; -ENOMEM.
 * On failure nothing stays bound.
 */
IRQKIT_API IRQKIT_MUST_CHECK int irqkit_replay_open(const char *path, struct irqkit_replay **out);

/** irqkit_replay_info - what the recording holds, and how far the replay is.  Return: 0 or -EINVAL. */
IRQKIT_API int irqkit_replay_info(const struct irqkit_replay *r, struct irqkit_replay_info *info);

/**
 * irqkit_replay_start - make the arrivals, each at its time from now
 * The arrivals come from a kthread ("irq-replay"), bound to no CPU, as a
 * device's come from outside the CPUs.
 * Context: process context.  Return: 0; -EINVAL (NULL); -EALREADY (started
 * before); -ENOMEM.
 */
IRQKIT_API IRQKIT_MUST_CHECK int irqkit_replay_start(struct irqkit_replay *r);

/**
 * irqkit_replay_wait - wait until every arrival of the recording was made
 * (their handlers may still run: irqkit_wait_delivered() waits for those).
 * Context: process context, may sleep.
 * Return: the number of arrivals made; -EINVAL (NULL, or not started).
 */
IRQKIT_API long irqkit_replay_wait(struct irqkit_replay *r);

/**
 * irqkit_replay_close - stop making arrivals, unbind the lines, free @r
 * Free the lines' handlers first (free_irq).
 * Context: process context.  Return: 0; -EBUSY when a line still has a
 * handler (nothing is done: free it and close again); -EINVAL (NULL).
 */
IRQKIT_API int irqkit_replay_close(struct irqkit_replay *r);

#ifdef __cplusplus
}
#endif
#endif /* IRQKIT_RECORD_H */
