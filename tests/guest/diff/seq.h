/* SPDX-License-Identifier: MIT */
/*
 * Sequences of interrupt API calls run the same way in the Linux kernel (a
 * module of the guest) and in irqkit, so that what each returns, runs and
 * says can be compared line by line.  seq.c is the one executor: it calls
 * Linux's names only (request_threaded_irq, free_irq, disable_irq, ...),
 * which the kernel's headers give it in the module and irqkit's Linux-name
 * layer gives it on the host.  What differs, the chip under the lines and
 * how a run waits for its handlers, is the side's (struct seq_side).
 *
 * A sequence is text, one step a line, '#' to the end of a line a comment:
 *
 *   line N edge|level|absent|nochip|sim
 *                            line N (1-36) of the side's chip, with an edge
 *                            or a level flow; an irq number with no
 *                            descriptor on either side (100000), whose
 *                            calls Linux answers as bad input; a
 *                            descriptor with no chip; or a line
 *                            of the interrupt simulator (irq_sim: edges
 *                            only, handle_simple_irq, a fire while masked
 *                            dropped, no retrigger), raised through its
 *                            pending state
 *   handler H R...           handler H (0-3) returns R in turn, the last
 *                            for ever: none, handled, wake, or lower
 *                            (its device lets go of a level line: the
 *                            line's level goes low, then handled).  A
 *                            thread lets go of a level line always.
 *   request N H [shared] [oneshot] [thread] [noprimary] [nulldev] [rising|high]
 *                            request_threaded_irq(line N, H's primary or
 *                            none, H's thread or none, flags, "hH", &H or
 *                            with nulldev NULL, which only a shared
 *                            request may ask: Linux refuses it), and
 *                            IRQF_TRIGGER_RISING or _HIGH
 *   free N H [nulldev]       free_irq(line N, &H or NULL)
 *   raise N                  an edge on line N (an edge line's)
 *   level N 0|1              line N's level (a level line's)
 *   disable N | disable_nosync N | enable N | sync N
 *   irqs off | irqs on       local_irq_save / local_irq_restore
 *   bh off | bh on           local_bh_disable / local_bh_enable
 *   lock plain|bh|irq|irqsave | unlock
 *                            the sequence's spin lock, taken and let go
 *                            the way named (spin_lock, spin_lock_bh, ...)
 *   tasklet T schedule|hi_schedule|disable|enable|kill
 *                            tasklet T (0-1)
 *   timer T short|long|del|del_sync
 *                            timer T (0-1): mod_timer to the next jiffy or
 *                            to 100 s on, del_timer, del_timer_sync
 *   work W queue|flush|cancel_sync
 *                            work W (0-1) on system_wq
 *   dwork D short|long|mod_short|cancel|cancel_sync|flush
 *                            delayed work D (0-1) on system_wq: queued
 *                            for the next jiffy or 100 s on (its value:
 *                            whether it queued), mod_delayed_work to the
 *                            next jiffy (whether it was pending), the
 *                            cancels, flush_delayed_work (its value not
 *                            recorded: whether the work had run before it
 *                            looked is the scheduler's)
 *   defer H tasklet T|hi T|timer T|work W|napi P|iopoll P|none
 *                            each call of H's primary also schedules that
 *                            tasklet (tasklet_hi_schedule for hi), arms
 *                            that timer to the next jiffy or queues that
 *                            work, or schedules that NAPI (napi_schedule)
 *                            or irq_poll instance, as a driver hands on
 *                            its work
 *   napi P add W [defer N] | enable | disable | schedule | del | sync | missed |
 *          backlog K | state | threaded 0|1 | busy R [prefer]
 *                            NAPI instance P (0-5) on a dummy device of its
 *                            own: netif_napi_add_weight (a weight of 1-64;
 *                            with defer, napi_defer_hard_irqs N and a
 *                            gro_flush_timeout of 1 ms), napi_enable,
 *                            napi_disable, napi_schedule_prep then
 *                            __napi_schedule (its value: the prep's),
 *                            netif_napi_del, napi_synchronize,
 *                            napi_if_scheduled_mark_missed, the events its
 *                            device holds (its poll reaps them up to the
 *                            budget, and completes below it), the state
 *                            bits, dev_set_threaded, napi_busy_loop for R
 *                            rounds of 8 (prefer: prefer_busy_poll)
 *   iopoll P init W | sched | disable | enable | backlog K
 *                            irq_poll instance P (0-5): irq_poll_init,
 *                            irq_poll_sched, irq_poll_disable,
 *                            irq_poll_enable, its backlog, as for NAPI
 *   softnet                  the NET_RX runs cut short since the run began
 *                            (time_squeeze, every CPU's)
 *   spurious N               line N's /proc/irq/N/spurious
 *   repeat K STEP            STEP K times (one record, the runs counted)
 *
 * The irqs, bh and lock steps nest; the one that ends a hold must end the
 * innermost.  With a hold the runner's CPU cannot sleep: a step that may
 * (request, free, disable, sync, tasklet kill, work flush and cancel_sync,
 * del_sync, dwork cancel_sync and flush) is refused with "=> refused: sleeps".
 *
 * Each step gives one record line: its number, the step, and what came of
 * it: "ret E" (a call's errno or value, 0 for success), "runs" (the
 * primary handlers that ran since the record before, in order, a run of
 * the same one written hH*N), "threads" (each handler's thread runs,
 * counted, since their order is the scheduler's), "tasklets", "timers",
 * "works", "dworks" (the runs of each, counted), "polls" (each NAPI (nP)
 * or irq_poll (iP) poll in order with the work it did, "+" when it used
 * its whole budget, "!" when its napi_complete_done said no), "ctx" (a run in the
 * wrong context: a primary outside hardirq context or on the runner's CPU
 * while it has interrupts off, a tasklet or timer outside softirq context
 * or on that CPU while bottom halves are off there, a thread or work
 * outside task context), "log" (the kernel's words about the lines: warnings, nobody
 * cared, disabling, with each line's number as LN).  A step that ends
 * with a hold is not waited for (nothing there may sleep): what ran meanwhile
 * is in the record of the first step after it that ends with none.  At
 * the end, for each line that has a handler, its state and its spurious
 * counters (count, unhandled, whether a last unhandled time is set), and
 * each handler's calls.
 *
 * Spurious counters: "no /proc/irq entry" for a line never requested
 * (Linux makes /proc/irq/N at the first request); "unhandled ~" when the
 * line's unhandled interrupts came more than HZ/10 apart on that side
 * (Linux then starts the count again, so a slow run counts other
 * numbers; compare.sh matches "~" with any number); not given for a line
 * that had a threaded action (a hardirq that only woke threads is judged
 * by whether a thread handled one since, and that thread may finish on
 * another CPU before its own hardirq looks, on both sides).
 */
#ifndef IRQKIT_SEQ_H
#define IRQKIT_SEQ_H

#define SEQ_LINES	36
#define SEQ_HANDLERS	4
#define SEQ_RETS	16
#define SEQ_TEXT	512

struct seq_side {
	void	*ctx;
	/* line @n with an edge (@level false) or a level flow: its irq number, or -errno */
	int	(*line)(void *ctx, unsigned int n, int level);
	/* a descriptor with no chip for line @n: its irq number, or -errno; and its end */
	int	(*nochip)(void *ctx, unsigned int n);
	void	(*nochip_free)(void *ctx, unsigned int irq);
	/*
	 * An edge on @irq; @irq's level.  Any context.  Return: 0, or -EINVAL
	 * for an edge on a level line or a level on an edge line, as
	 * irqkit's software chip answers.
	 */
	int	(*raise)(void *ctx, unsigned int irq);
	int	(*set_level)(void *ctx, unsigned int irq, int high);
	/* wait until what the steps so far started (handlers, threads, softirqs) has run */
	void	(*settle)(void *ctx);
	/* let a jiffy pass, the timers due run */
	void	(*tick)(void *ctx);
	/* @irq's /proc/irq/N/spurious into @buf (NUL-terminated): its length, or -errno */
	int	(*spurious)(void *ctx, unsigned int irq, char *buf, unsigned int size);
	/* one record line, without its newline */
	void	(*out)(void *ctx, const char *text);
	/* NET_RX runs cut short by the budget or the time so far, every CPU's (softnet_stat) */
	unsigned long	(*time_squeeze)(void *ctx);
	/* optional: hand what the log holds to seq_log() now (before a settled record) */
	void	(*log_flush)(void *ctx);
	/*
	 * PREEMPT_RT: a spinlock_t sleeps and keeps neither interrupts nor
	 * (but in its _bh form) bottom halves off, so a lock hold keeps less out
	 */
	bool	rt;
};

/*
 * seq_run - run @text's steps on @side, a record for each.  Process
 * context, interrupts on; the lines' handlers must not run meanwhile except
 * as the steps cause.  Return: 0, or the number of the first line that
 * does not parse (then nothing ran).
 */
int seq_run(const struct seq_side *side, const char *text);

/*
 * seq_log - a log line of the side's kernel (printk): kept for the next
 * record if it speaks about a line in the kernel's words.  Any context.
 */
void seq_log(const char *line);

#endif
