// SPDX-License-Identifier: MIT
/*
 * Testing a driver in deterministic mode: nothing runs unless the test makes
 * it run, and time moves only when the test moves it, so each check below
 * holds on every run, on any machine.
 *
 * The driver: a button whose interrupt starts a 20 ms debounce timer; the
 * timer reads the button and counts a press if it is still down.  Its test:
 *   - a raise from the thread that plays CPU 0 runs the handler before
 *     irqkit_sw_raise() returns;
 *   - a raise inside local_irq_save() waits for local_irq_restore();
 *   - the timer fires when the virtual clock passes 20 ms, not before;
 *   - a bounce (released before the timer) counts nothing;
 *   - a line routed to CPU 1 runs when the test runs CPU 1.
 *
 *   example-deterministic-test   (exits 0, printing one line per check)
 */
#include <linux/interrupt.h>
#include <linux/jiffies.h>
#include <linux/timer.h>
#include <irqkit/irqkit.h>

#include <stdio.h>
#include <stdlib.h>

#define BUTTON_IRQ	3
#define OTHER_IRQ	4
#define MS		1000000ull	/* virtual nanoseconds */

struct button {
	bool			down;		/* the pin */
	unsigned int		irqs, presses;
	struct timer_list	debounce;
};

static struct button btn;

static irqreturn_t button_interrupt(int irq, void *dev_id)
{
	struct button *b = dev_id;

	(void)irq;
	b->irqs++;
	mod_timer(&b->debounce, jiffies + msecs_to_jiffies(20));
	return IRQ_HANDLED;
}

static void button_debounced(struct timer_list *t)
{
	struct button *b = from_timer(b, t, debounce);

	if (b->down)
		b->presses++;
}

static unsigned int other_irqs;

static irqreturn_t other_interrupt(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	other_irqs++;
	return IRQ_HANDLED;
}

static int failures;

#define CHECK(cond, what)						\
	do {								\
		if (cond) {						\
			printf("ok   %s\n", what);			\
		} else {						\
			printf("FAIL %s (%s, line %d)\n", what, #cond, __LINE__); \
			failures++;					\
		}							\
	} while (0)

int main(void)
{
	struct irqkit_config cfg = {
		.nr_irqs = 16, .nr_cpus = 2, .mode = IRQKIT_MODE_DETERMINISTIC,
	};
	unsigned long flags;

	/* the calling thread plays CPU 0 */
	if (irqkit_start(&cfg) || irqkit_swchip_add(0, 16, IRQKIT_TYPE_EDGE_RISING)) {
		fprintf(stderr, "deterministic_test: cannot start\n");
		return 1;
	}
	timer_setup(&btn.debounce, button_debounced, 0);
	if (request_irq(BUTTON_IRQ, button_interrupt, 0, "button", &btn) ||
	    request_irq(OTHER_IRQ, other_interrupt, 0, "other", NULL) ||
	    irqkit_irq_set_affinity(OTHER_IRQ, 1u << 1)) {
		fprintf(stderr, "deterministic_test: cannot request the lines\n");
		return 1;
	}

	btn.down = true;
	irqkit_sw_raise(BUTTON_IRQ);
	CHECK(btn.irqs == 1, "a raise on the CPU this thread plays runs the handler at once");

	local_irq_save(flags);
	irqkit_sw_raise(BUTTON_IRQ);
	CHECK(btn.irqs == 1, "with interrupts off, the raise waits");
	local_irq_restore(flags);
	CHECK(btn.irqs == 2, "local_irq_restore() takes it");

	irqkit_clock_advance(19 * MS);
	CHECK(btn.presses == 0, "19 ms after the last interrupt the debounce timer has not fired");
	irqkit_clock_advance(1 * MS);
	CHECK(btn.presses == 1, "at 20 ms it fires and counts the press");

	irqkit_sw_raise(BUTTON_IRQ);
	irqkit_clock_advance(5 * MS);
	btn.down = false;		/* a bounce: released before the timer */
	irqkit_clock_advance(30 * MS);
	CHECK(btn.irqs == 3 && btn.presses == 1, "a bounce counts no press");

	irqkit_sw_raise(OTHER_IRQ);
	CHECK(other_irqs == 0, "a line routed to CPU 1 waits for CPU 1 to run");
	CHECK(irqkit_wait_delivered(OTHER_IRQ, 0) == -IRQKIT_EAGAIN,
	      "irqkit_wait_delivered() says it is still there");
	irqkit_cpu_run(1);
	CHECK(other_irqs == 1 && irqkit_wait_delivered(OTHER_IRQ, 0) == 0,
	      "irqkit_cpu_run(1) delivers it");

	free_irq(OTHER_IRQ, NULL);
	free_irq(BUTTON_IRQ, &btn);
	del_timer_sync(&btn.debounce);
	irqkit_stop();
	printf("%s\n", failures ? "deterministic_test: FAILED" : "deterministic_test: all checks hold");
	return failures ? 1 : 0;
}
