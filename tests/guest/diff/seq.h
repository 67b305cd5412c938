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
 *   line N edge|level        line N (1-8) of the side's chip, with an edge
 *                            or a level flow
 *   handler H R...           handler H (0-3) returns R in turn, the last
 *                            for ever: none, handled, wake
 *   request N H [shared] [oneshot] [thread] [noprimary]
 *                            request_threaded_irq(line N, H's primary or
 *                            none, H's thread or none, flags, "hH", &H)
 *   free N H                 free_irq(line N, &H)
 *   raise N                  an edge on line N
 *   level N 0|1              line N's level
 *   disable N | disable_nosync N | enable N | sync N
 *   irqs off | irqs on       local_irq_save / local_irq_restore
 *   repeat K STEP            STEP K times (one record, the runs counted)
 *
 * Each step gives one record line: its number, the step, and what came of
 * it: "ret E" (a call's errno, 0 for success), "runs" (the primary
 * handlers that ran since the step before, in hardirq context, in order,
 * a run of the same one written hH*N), "threads" (each handler's thread
 * runs, counted, since their order is the scheduler's), "log" (the
 * kernel's words about the lines: warnings, nobody cared, disabling, with
 * each line's number as LN).  At the end, the state of each line that has
 * a handler, and each handler's calls.
 */
#ifndef IRQKIT_SEQ_H
#define IRQKIT_SEQ_H

#define SEQ_LINES	8
#define SEQ_HANDLERS	4
#define SEQ_RETS	16
#define SEQ_TEXT	512

struct seq_side {
	void	*ctx;
	/* line @n with an edge (@level false) or a level flow: its irq number, or -errno */
	int	(*line)(void *ctx, unsigned int n, int level);
	/* an edge on @irq; @irq's level */
	void	(*raise)(void *ctx, unsigned int irq);
	void	(*set_level)(void *ctx, unsigned int irq, int high);
	/* wait until what the steps so far started (handlers, threads) has run */
	void	(*settle)(void *ctx);
	/* one record line, without its newline */
	void	(*out)(void *ctx, const char *text);
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
