// SPDX-License-Identifier: MIT
/*
 * NAPI through the Linux-name layer: a NIC-style driver as they are
 * written today (alloc_netdev_dummy, netif_napi_add, the handler masks the
 * line and schedules, the poll reaps up to its budget and unmasks only when
 * napi_complete_done says so) builds unchanged and takes one hardirq for a
 * burst, one per packet when they come one at a time.
 */
#define _GNU_SOURCE
#include "../harness.h"

#include <linux/interrupt.h>
#include <linux/netdevice.h>

struct nic {
	struct napi_struct	napi;
	unsigned int		irq;
	atomic_int		ring;		/* packets the device holds */
	atomic_int		hardirqs, polls, received, unmasks;
};

static irqreturn_t nic_interrupt(int irq, void *dev_id)
{
	struct nic *nic = dev_id;

	atomic_fetch_add(&nic->hardirqs, 1);
	if (napi_schedule_prep(&nic->napi)) {
		disable_irq_nosync(irq);	/* the device's interrupt off until the poll is done */
		__napi_schedule_irqoff(&nic->napi);
	}
	return IRQ_HANDLED;
}

static int nic_poll(struct napi_struct *napi, int budget)
{
	struct nic *nic = container_of(napi, struct nic, napi);
	int done = 0;

	atomic_fetch_add(&nic->polls, 1);
	while (done < budget && atomic_load(&nic->ring) > 0) {
		atomic_fetch_sub(&nic->ring, 1);
		done++;
	}
	atomic_fetch_add(&nic->received, done);
	if (done < budget && napi_complete_done(napi, done)) {
		atomic_fetch_add(&nic->unmasks, 1);
		enable_irq(nic->irq);
	}
	return done;
}

static void test_a_nic_driver_polls_a_burst_after_one_interrupt(void **state)
{
	struct net_device *ndev = alloc_netdev_dummy(sizeof(struct nic));
	struct nic *nic;

	(void)state;
	assert_non_null(ndev);
	nic = netdev_priv(ndev);
	nic->irq = T_EDGE(1);
	netif_napi_add(ndev, &nic->napi, nic_poll);
	assert_int_equal(nic->napi.weight, NAPI_POLL_WEIGHT);
	napi_enable(&nic->napi);
	assert_int_equal(request_irq(nic->irq, nic_interrupt, 0, "nic", nic), 0);

	/* a burst of 200: one interrupt, polls of 64, 64, 64 and 8, one unmask */
	atomic_store(&nic->ring, 200);
	irqkit_sw_raise(nic->irq);
	assert_int_equal(atomic_load(&nic->received), 200);
	assert_int_equal(atomic_load(&nic->hardirqs), 1);
	assert_int_equal(atomic_load(&nic->polls), 4);
	assert_int_equal(atomic_load(&nic->unmasks), 1);
	/* one at a time: an interrupt and a poll each */
	for (int i = 0; i < 10; i++) {
		atomic_fetch_add(&nic->ring, 1);
		irqkit_sw_raise(nic->irq);
	}
	assert_int_equal(atomic_load(&nic->received), 210);
	assert_int_equal(atomic_load(&nic->hardirqs), 11);
	assert_int_equal(atomic_load(&nic->polls), 14);
	assert_int_equal(atomic_load(&nic->unmasks), 11);

	free_irq(nic->irq, nic);
	napi_disable(&nic->napi);
	free_netdev(ndev);		/* deletes the instance */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_a_nic_driver_polls_a_burst_after_one_interrupt,
						det_setup, det_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
