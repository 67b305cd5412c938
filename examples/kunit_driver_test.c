// SPDX-License-Identifier: MIT
/*
 * A driver and its KUnit suite, in one kernel-style file.
 *
 * The driver: the receive side of a small UART on a shared interrupt line.
 * Its handler checks the device's status register (IRQ_NONE when the
 * interrupt is not its own, as a shared line requires), moves the received
 * byte into a ring under the device's lock, counts an overrun when the
 * ring is full, and wakes a reader.  The "hardware" is two registers in
 * memory and a software interrupt line of irqkit's.
 *
 * The suite: Linux's KUnit, as a kernel developer writes it; it needs no
 * main() and builds as it stands:
 *   cc kunit_driver_test.c $(pkg-config --cflags --libs irqkit-kunit)
 *   ./a.out                       # KTAP on stdout, exit status 1 on a failure
 *   ./a.out --filter_glob='myuart.*overrun*' --sim=20
 * Each case gets a fresh runtime with two virtual CPUs; the suite's init
 * wires the device to a line and probes, its exit removes.
 */
#include <kunit/test.h>

#include <linux/interrupt.h>
#include <linux/spinlock.h>
#include <linux/wait.h>

#include <irqkit/irqkit.h>

/* ---- the driver ------------------------------------------------------------------------- */

#define RING_SIZE	16
#define STATUS_RX_READY	0x01

struct myuart_regs {			/* the device's registers */
	volatile u8	status;
	volatile u8	rx;
};

struct myuart {
	int			irq;
	struct myuart_regs	*regs;
	spinlock_t		lock;		/* the ring, from the handler and the reader */
	u8			ring[RING_SIZE];
	unsigned int		head, tail;	/* head - tail bytes waiting */
	unsigned long		overruns;
	wait_queue_head_t	readable;
};

static irqreturn_t myuart_interrupt(int irq, void *dev_id)
{
	struct myuart *up = dev_id;
	u8 status = up->regs->status;

	(void)irq;
	if (!(status & STATUS_RX_READY))
		return IRQ_NONE;		/* another device's: the line is shared */
	spin_lock(&up->lock);
	if (up->head - up->tail < RING_SIZE)
		up->ring[up->head++ % RING_SIZE] = up->regs->rx;
	else
		up->overruns++;
	spin_unlock(&up->lock);
	up->regs->status = status & ~STATUS_RX_READY;	/* reading rx acknowledges */
	wake_up(&up->readable);
	return IRQ_HANDLED;
}

static int myuart_probe(struct myuart *up, int irq, struct myuart_regs *regs)
{
	up->irq = irq;
	up->regs = regs;
	spin_lock_init(&up->lock);
	init_waitqueue_head(&up->readable);
	up->head = up->tail = 0;
	up->overruns = 0;
	return request_irq(irq, myuart_interrupt, IRQF_SHARED, "myuart", up);
}

static void myuart_remove(struct myuart *up)
{
	free_irq(up->irq, up);
}

/* Take up to @n bytes, waiting up to @timeout jiffies for the first. */
static int myuart_read(struct myuart *up, u8 *buf, int n, long timeout)
{
	unsigned long flags;
	int got = 0;

	if (!wait_event_timeout(up->readable, READ_ONCE(up->head) != READ_ONCE(up->tail), timeout))
		return -EAGAIN;
	spin_lock_irqsave(&up->lock, flags);
	while (got < n && up->tail != up->head)
		buf[got++] = up->ring[up->tail++ % RING_SIZE];
	spin_unlock_irqrestore(&up->lock, flags);
	return got;
}

/* ---- the suite -------------------------------------------------------------------------- */

#define TEST_IRQ	9

struct myuart_test {
	struct myuart_regs	regs;
	struct myuart		up;
};

/* The device receives @byte and raises its line, as the UART would. */
static void device_receives(struct myuart_test *t, u8 byte)
{
	t->regs.rx = byte;
	t->regs.status |= STATUS_RX_READY;
	irqkit_sw_raise(TEST_IRQ);
	irqkit_wait_delivered(TEST_IRQ, 5000);
}

static int myuart_test_init(struct kunit *test)
{
	struct myuart_test *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	int ret;

	if (!t)
		return -ENOMEM;
	ret = irqkit_swchip_add(TEST_IRQ, 1, IRQKIT_TYPE_EDGE_RISING);
	if (ret)
		return ret;
	ret = myuart_probe(&t->up, TEST_IRQ, &t->regs);
	if (ret)
		return ret;
	test->priv = t;
	return 0;
}

static void myuart_test_exit(struct kunit *test)
{
	struct myuart_test *t = test->priv;

	if (t)
		myuart_remove(&t->up);
}

static void myuart_test_byte_is_read(struct kunit *test)
{
	struct myuart_test *t = test->priv;
	u8 buf[4];

	device_receives(t, 'k');
	KUNIT_ASSERT_EQ(test, myuart_read(&t->up, buf, sizeof(buf), HZ), 1);
	KUNIT_EXPECT_EQ(test, buf[0], 'k');
	KUNIT_EXPECT_EQ(test, t->regs.status & STATUS_RX_READY, 0);
}

static void myuart_test_nothing_to_read_times_out(struct kunit *test)
{
	struct myuart_test *t = test->priv;
	u8 buf[1];

	KUNIT_EXPECT_EQ(test, myuart_read(&t->up, buf, 1, 1), -EAGAIN);
}

static void myuart_test_full_ring_counts_overruns(struct kunit *test)
{
	struct myuart_test *t = test->priv;
	u8 buf[RING_SIZE + 4];

	for (int i = 0; i < RING_SIZE + 4; i++)
		device_receives(t, (u8)i);
	KUNIT_EXPECT_EQ(test, t->up.overruns, 4);
	KUNIT_ASSERT_EQ(test, myuart_read(&t->up, buf, sizeof(buf), HZ), RING_SIZE);
	for (int i = 0; i < RING_SIZE; i++)
		KUNIT_EXPECT_EQ_MSG(test, buf[i], i, "byte %d", i);
}

/* An interrupt of the other device on the line is not ours: IRQ_NONE, nothing read. */
static void myuart_test_other_devices_interrupt_is_not_ours(struct kunit *test)
{
	struct myuart_test *t = test->priv;
	struct irqkit_irq_info info;
	u8 buf[1];

	irqkit_sw_raise(TEST_IRQ);
	KUNIT_ASSERT_EQ(test, irqkit_wait_delivered(TEST_IRQ, 5000), 0);
	KUNIT_EXPECT_EQ(test, myuart_read(&t->up, buf, 1, 1), -EAGAIN);
	KUNIT_ASSERT_EQ(test, irqkit_irq_get_info(TEST_IRQ, &info), 0);
	KUNIT_EXPECT_EQ(test, info.irqs_unhandled, 1);
}

static const u8 patterns[] = { 0x00, 0x55, 0xaa, 0xff };

static void pattern_desc(const u8 *p, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "byte 0x%02x", *p);
}

KUNIT_ARRAY_PARAM(pattern, patterns, pattern_desc);

static void myuart_test_every_bit_pattern(struct kunit *test)
{
	struct myuart_test *t = test->priv;
	const u8 *p = test->param_value;
	u8 buf[1];

	device_receives(t, *p);
	KUNIT_ASSERT_EQ(test, myuart_read(&t->up, buf, 1, HZ), 1);
	KUNIT_EXPECT_EQ(test, buf[0], *p);
}

static struct kunit_case myuart_cases[] = {
	KUNIT_CASE(myuart_test_byte_is_read),
	KUNIT_CASE(myuart_test_nothing_to_read_times_out),
	KUNIT_CASE(myuart_test_full_ring_counts_overruns),
	KUNIT_CASE(myuart_test_other_devices_interrupt_is_not_ours),
	KUNIT_CASE_PARAM(myuart_test_every_bit_pattern, pattern_gen_params),
	{}
};

static struct kunit_suite myuart_suite = {
	.name = "myuart",
	.init = myuart_test_init,
	.exit = myuart_test_exit,
	.test_cases = myuart_cases,
};

kunit_test_suite(myuart_suite);
