// SPDX-License-Identifier: MIT
/*
 * The irqkit side of the comparison: the sequences of seq.h run over
 * irqkit's Linux-name layer, one virtual CPU in threaded mode, the lines on
 * the software chip, the runner bound to that CPU (so that interrupts off
 * are off for it, as for a kernel thread), and each step waited for with
 * irqkit_wait_delivered().  The kernel's log reaches seq_log() through the
 * log hook.  Prints one record a line.
 * Usage: seq_irqkit FILE.seq   (exit 0; 1 if the file does not parse or
 * the runtime does not start)
 */
#include <irqkit/irqkit.h>
#include <irqkit/swchip.h>

#include <stdio.h>
#include <stdlib.h>

#include "seq.h"

#define FIRST_IRQ	32		/* line N is irq FIRST_IRQ + N - 1 */

static unsigned int lines_up;		/* set up, as bits of N */

static int side_line(void *ctx, unsigned int n, int level)
{
	unsigned int irq = FIRST_IRQ + n - 1;
	int ret = irqkit_swchip_add(irq, 1,
				    level ? IRQKIT_TYPE_LEVEL_HIGH : IRQKIT_TYPE_EDGE_RISING);

	(void)ctx;
	if (ret)
		return ret;
	lines_up |= 1u << n;
	return (int)irq;
}

static void side_raise(void *ctx, unsigned int irq)
{
	(void)ctx;
	(void)irqkit_sw_raise(irq);
}

static void side_set_level(void *ctx, unsigned int irq, int high)
{
	(void)ctx;
	(void)irqkit_sw_set_level(irq, high);
}

/*
 * Wait until each line's arrivals have been handled, threads included; an
 * arrival on a disabled line waits for its enable, not for this.
 */
static void side_settle(void *ctx)
{
	(void)ctx;
	for (unsigned int n = 1; n <= SEQ_LINES; n++) {
		unsigned int irq = FIRST_IRQ + n - 1;

		if ((lines_up & (1u << n)) &&
		    !(irqkit_irqd_state(irqkit_irq_get_irq_data(irq)) & IRQKIT_IRQD_DISABLED))
			(void)irqkit_wait_delivered(irq, 10000);
	}
}

static void side_out(void *ctx, const char *text)
{
	(void)ctx;
	puts(text);
}

static void log_hook(void *arg, int level, const char *line)
{
	(void)arg;
	(void)level;
	seq_log(line);
	if (getenv("SEQ_VERBOSE"))
		fprintf(stderr, "log: %s\n", line);
}

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (buf = calloc(1, (size_t)n + 1)) && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

int main(int argc, char **argv)
{
	struct irqkit_config cfg = { .mode = IRQKIT_MODE_THREADED, .nr_cpus = 1, .nr_irqs = 64,
				     .log = log_hook };
	struct seq_side side = { .line = side_line, .raise = side_raise,
				 .set_level = side_set_level, .settle = side_settle,
				 .out = side_out };
	char *text;
	int bad;

	if (argc != 2 || !(text = read_file(argv[1]))) {
		fprintf(stderr, "usage: %s FILE.seq (a readable file)\n", argv[0]);
		return 1;
	}
	if (irqkit_start(&cfg) || irqkit_thread_bind(0)) {
		fprintf(stderr, "%s: irqkit_start failed\n", argv[0]);
		return 1;
	}
	bad = seq_run(&side, text);
	(void)irqkit_thread_unbind();
	irqkit_stop();
	free(text);
	if (bad) {
		fprintf(stderr, "%s:%d: not a step\n", argv[1], bad);
		return 1;
	}
	return 0;
}
