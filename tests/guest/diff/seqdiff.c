// SPDX-License-Identifier: MIT OR GPL-2.0
/*
 * The kernel's side of the comparison: a module of the guest's kernel that
 * runs seq.h's sequences (the same seq.c as irqkit's side) on lines of a
 * chip of its own, and keeps their records for user space.
 *
 * The chip behaves as irqkit's software chip does: a line latches an edge
 * (or holds its level) while masked and fires when unmasked; a firing is
 * an irq_work, so the flow runs in hardirq context on the CPU that raised,
 * and waits while that CPU has interrupts off, as a device's interrupt
 * does; an edge that comes while the flow is disabled is retriggered by the
 * chip at the enable.  Edge lines run handle_edge_irq, level lines
 * handle_level_irq.  The kernel's log reaches the records from its ring
 * buffer (kmsg_dump's iterator), read before each settled record: on a
 * PREEMPT_RT kernel the consoles print from a thread, later, while the ring
 * buffer has each line when printk returns.
 *
 * Use (debugfs): write a sequence to /sys/kernel/debug/seqdiff/run; the
 * write returns when it has run (-EINVAL if a line does not parse); read
 * the records from the same file.
 */
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/interrupt.h>
#include <linux/netdevice.h>
#include <linux/irq.h>
#include <linux/irq_work.h>
#include <linux/irqdomain.h>
#include <linux/kmsg_dump.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "seq.h"

#define OUT_SIZE	(256 * 1024)
#define IN_SIZE		(64 * 1024)

struct sline {
	bool	level;		/* a level line: fires while asserted */
	bool	latched;	/* an edge waits, or the level is high */
	bool	masked;
	unsigned int virq;
};

static struct sline slines[SEQ_LINES + 1];
static DEFINE_RAW_SPINLOCK(chip_lock);
static struct irq_domain *domain;
static struct irq_work fire_work;
static DEFINE_MUTEX(run_lock);
static char *out;
static size_t out_len;
static struct dentry *dir;

/* hardirq context (irq_work): every line that waits and is unmasked, its flow. */
static void fire(struct irq_work *w)
{
	for (unsigned int n = 1; n <= SEQ_LINES; n++) {
		bool go;

		raw_spin_lock(&chip_lock);
		go = slines[n].latched && !slines[n].masked;
		if (go && !slines[n].level)
			slines[n].latched = false;
		raw_spin_unlock(&chip_lock);
		if (go)
			generic_handle_domain_irq(domain, n);
	}
}

static void sl_mask(struct irq_data *d)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&chip_lock, flags);
	slines[d->hwirq].masked = true;
	raw_spin_unlock_irqrestore(&chip_lock, flags);
}

static void sl_unmask(struct irq_data *d)
{
	unsigned long flags;
	bool go;

	raw_spin_lock_irqsave(&chip_lock, flags);
	slines[d->hwirq].masked = false;
	go = slines[d->hwirq].latched;
	raw_spin_unlock_irqrestore(&chip_lock, flags);
	if (go)
		irq_work_queue(&fire_work);
}

static void sl_ack(struct irq_data *d)
{
}

static int sl_retrigger(struct irq_data *d)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&chip_lock, flags);
	slines[d->hwirq].latched = true;
	raw_spin_unlock_irqrestore(&chip_lock, flags);
	irq_work_queue(&fire_work);
	return 1;
}

static int sl_set_type(struct irq_data *d, unsigned int type)
{
	bool level = type & IRQ_TYPE_LEVEL_MASK;

	/*
	 * Reprogrammed to the other trigger, as irqkit's software chip: an
	 * edge still latched means nothing to a level line, and a level
	 * asserted nothing to an edge line.
	 */
	if (slines[d->hwirq].level != level)
		slines[d->hwirq].latched = false;
	slines[d->hwirq].level = level;
	irq_set_handler_locked(d, level ? handle_level_irq : handle_edge_irq);
	return 0;
}

static struct irq_chip sl_chip = {
	.name		= "seqdiff",
	.irq_mask	= sl_mask,
	.irq_unmask	= sl_unmask,
	.irq_ack	= sl_ack,
	.irq_retrigger	= sl_retrigger,
	.irq_set_type	= sl_set_type,
};

static int sl_map(struct irq_domain *d, unsigned int virq, irq_hw_number_t hw)
{
	irq_set_chip_and_handler(virq, &sl_chip, handle_edge_irq);
	return 0;
}

static const struct irq_domain_ops sl_ops = { .map = sl_map };

/* ---- the side of seq.h ----------------------------------------------------------- */

static int side_line(void *ctx, unsigned int n, int level)
{
	unsigned int virq = irq_create_mapping(domain, n);

	if (!virq)
		return -ENOMEM;
	slines[n] = (struct sline){ .level = level, .masked = true, .virq = virq };
	irq_set_irq_type(virq, level ? IRQ_TYPE_LEVEL_HIGH : IRQ_TYPE_EDGE_RISING);
	/*
	 * The type is the line's own, as a line described by firmware has it
	 * and irqkit's software lines do: a shared request must match it
	 * (without, Linux lets the first shared request set it).
	 */
	irqd_set_trigger_type(irq_get_irq_data(virq),
			      level ? IRQ_TYPE_LEVEL_HIGH : IRQ_TYPE_EDGE_RISING);
	return (int)virq;
}

/* A descriptor of its own with no chip (no_irq_chip), as irq_alloc_desc gives one. */
static int side_nochip(void *ctx, unsigned int n)
{
	int irq = irq_alloc_desc(NUMA_NO_NODE);

	return irq > 0 ? irq : irq ? irq : -ENOMEM;
}

static void side_nochip_free(void *ctx, unsigned int irq)
{
	irq_free_desc(irq);
}

/* An edge latches, a level is held while high: one bit, cleared for an edge when it fires. */
static void latch(unsigned int irq, bool high)
{
	unsigned long hw = irqd_to_hwirq(irq_get_irq_data(irq)), flags;
	bool go;

	raw_spin_lock_irqsave(&chip_lock, flags);
	slines[hw].latched = high;
	go = high && !slines[hw].masked;
	raw_spin_unlock_irqrestore(&chip_lock, flags);
	if (go)
		irq_work_queue(&fire_work);
}

/* As irqkit's software chip: an edge is an edge line's, a level a level line's. */
static int side_set_level(void *ctx, unsigned int irq, int high)
{
	if (!slines[irqd_to_hwirq(irq_get_irq_data(irq))].level)
		return -EINVAL;
	latch(irq, high);
	return 0;
}

static int side_raise(void *ctx, unsigned int irq)
{
	if (slines[irqd_to_hwirq(irq_get_irq_data(irq))].level)
		return -EINVAL;
	latch(irq, true);
	return 0;
}

/* Until no line would fire, the firing ran, each line's handlers and threads are done. */
static void side_settle(void *ctx)
{
	for (int i = 0; i < 10000; i++) {
		bool more = false;

		irq_work_sync(&fire_work);
		for (unsigned int n = 1; n <= SEQ_LINES; n++)
			if (slines[n].virq)
				synchronize_irq(slines[n].virq);
		raw_spin_lock_irq(&chip_lock);
		for (unsigned int n = 1; n <= SEQ_LINES; n++)
			more |= slines[n].virq && slines[n].latched && !slines[n].masked &&
				!slines[n].level;
		raw_spin_unlock_irq(&chip_lock);
		if (!more && !irq_work_is_pending(&fire_work))
			break;
		usleep_range(50, 100);
	}
}

/* Let time pass: a short sleep (a timer to the next jiffy needs a few). */
static void side_tick(void *ctx)
{
	usleep_range(500, 1000);
}

/* Linux's softnet_data, as /proc/net/softnet_stat sums it: the NET_RX runs cut short. */
static unsigned long side_time_squeeze(void *ctx)
{
	unsigned long sum = 0;
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu(softnet_data, cpu).time_squeeze;
	return sum;
}

/* /proc/irq/N/spurious, read as user space would: the counters are not exported otherwise. */
static int side_spurious(void *ctx, unsigned int irq, char *buf, unsigned int size)
{
	char path[48];
	struct file *f;
	loff_t pos = 0;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/irq/%u/spurious", irq);
	f = filp_open(path, O_RDONLY, 0);
	if (IS_ERR(f))
		return (int)PTR_ERR(f);
	n = kernel_read(f, buf, size - 1, &pos);
	filp_close(f, NULL);
	if (n < 0)
		return (int)n;
	buf[n] = '\0';
	return (int)n;
}

static void side_out(void *ctx, const char *text)
{
	size_t n = strlen(text);

	if (out_len + n + 1 < OUT_SIZE) {
		memcpy(out + out_len, text, n);
		out[out_len + n] = '\n';
		out_len += n + 1;
	}
}

/* The log: each line since the last look, without its time stamp, to seq_log (@keep). */
static struct kmsg_dump_iter log_iter;

static void log_drain(bool keep)
{
	static char line[512];
	size_t len;

	while (kmsg_dump_get_line(&log_iter, false, line, sizeof(line) - 1, &len)) {
		if (!keep)
			continue;
		line[len] = '\0';
		if (len && line[len - 1] == '\n')
			line[len - 1] = '\0';
		if (line[0] == '[' && strchr(line, ']'))
			seq_log(skip_spaces(strchr(line, ']') + 1));
		else
			seq_log(line);
	}
}

static void side_log_flush(void *ctx)
{
	log_drain(true);
}

/* ---- debugfs ------------------------------------------------------------------------ */

static ssize_t run_write(struct file *f, const char __user *buf, size_t len, loff_t *pos)
{
	struct seq_side side = { .line = side_line, .raise = side_raise,
				 .set_level = side_set_level, .settle = side_settle,
				 .tick = side_tick, .spurious = side_spurious, .out = side_out,
				 .time_squeeze = side_time_squeeze,
				 .nochip = side_nochip, .nochip_free = side_nochip_free,
				 .log_flush = side_log_flush, .rt = IS_ENABLED(CONFIG_PREEMPT_RT) };
	char *text;
	int bad;

	if (len >= IN_SIZE)
		return -EFBIG;
	text = memdup_user_nul(buf, len);
	if (IS_ERR(text))
		return PTR_ERR(text);
	mutex_lock(&run_lock);
	out_len = 0;
	log_drain(false);	/* what came before the sequence is not its */
	bad = seq_run(&side, text);
	for (unsigned int n = 1; n <= SEQ_LINES; n++) {
		if (slines[n].virq)
			irq_dispose_mapping(slines[n].virq);
		slines[n] = (struct sline){ 0 };
	}
	mutex_unlock(&run_lock);
	kfree(text);
	if (bad) {
		pr_err("seqdiff: line %d of the sequence is not a step\n", bad);
		return -EINVAL;
	}
	return (ssize_t)len;
}

static ssize_t run_read(struct file *f, char __user *buf, size_t len, loff_t *pos)
{
	ssize_t ret;

	mutex_lock(&run_lock);
	ret = simple_read_from_buffer(buf, len, pos, out, out_len);
	mutex_unlock(&run_lock);
	return ret;
}

static const struct file_operations run_fops = {
	.owner	= THIS_MODULE,
	.write	= run_write,
	.read	= run_read,
	.llseek	= default_llseek,
};

static int __init seqdiff_init(void)
{
	out = vzalloc(OUT_SIZE);
	if (!out)
		return -ENOMEM;
	/* hard: in hardirq context on PREEMPT_RT too, where plain irq_work runs in a thread */
	fire_work = IRQ_WORK_INIT_HARD(fire);
	domain = irq_domain_add_linear(NULL, SEQ_LINES + 1, &sl_ops, NULL);
	if (!domain) {
		vfree(out);
		return -ENOMEM;
	}
	dir = debugfs_create_dir("seqdiff", NULL);
	debugfs_create_file("run", 0600, dir, NULL, &run_fops);
	kmsg_dump_rewind(&log_iter);
	return 0;
}

static void __exit seqdiff_exit(void)
{
	debugfs_remove_recursive(dir);
	irq_work_sync(&fire_work);
	irq_domain_remove(domain);
	vfree(out);
}

module_init(seqdiff_init);
module_exit(seqdiff_exit);
MODULE_LICENSE("Dual MIT/GPL");
MODULE_DESCRIPTION("irqkit's comparison with Linux: seq.h's sequences in the kernel");
