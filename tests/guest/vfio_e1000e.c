// SPDX-License-Identifier: MIT
/*
 * Inside the Linux guest (tests/guest/run.sh): QEMU's e1000e (an 82574,
 * five MSI-X vectors) under the kernel's vfio-pci, driven by code written
 * as a kernel driver writes it (<linux/pci.h>): one vector kept out of the
 * spreading for the "other" causes, one per queue spread over irqkit's
 * CPUs, a handler per vector.  The device routes each cause to a vector
 * through its IVAR register, and a write of the cause to ICS raises it;
 * with MSI-X on, reading ICR does not clear a cause, so each handler
 * writes its cause back to ICR (write 1 to clear).
 *
 * Checks: each cause arrives on its own vector and on a CPU of its mask;
 * a queue vector whose CPU goes offline is shut down and the cause raised
 * meanwhile is delivered once when the CPU comes back; the free leaves
 * vfio-pci no interrupt (its "vfio-msix" lines in /proc/interrupts); an
 * unbind from vfio-pci reaches the driver as VFIO's device request and
 * completes once it closes the device, which leaves the process no
 * descriptor; bad calls get Linux's errors; rx0's vector switches to a
 * NAPI driver that masks rx0 at the device (IMC) and polls, which reaps
 * every event of a burst once and leaves rx0 unmasked.  The device ends
 * unbound.
 *
 * Prints "ok N - what" or "not ok N - what" per check, then
 * "GUEST vfio_e1000e: PASS" or "... FAIL"; exits 0 on a pass.
 * Usage: vfio_e1000e PCI_ADDRESS   (e.g. 0000:00:05.0)
 */
#define _GNU_SOURCE
#include <linux/cpumask.h>
#include <linux/interrupt.h>
#include <linux/netdevice.h>
#include <linux/pci.h>
#include <linux/smp.h>

#include "guest.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/wait.h>

#define NR_VECS		5
#define ROUNDS		20
#define IRQKIT_CPUS	4		/* a vector per CPU: the four queues */

struct vec {
	const char		*name;
	uint32_t		cause;
	const struct cpumask	*mask;
	atomic_uint		irqs;
	atomic_int		cpu;
	atomic_uint		off_mask;	/* ran on a CPU outside its mask */
};

/* vector 0 the pre vector ("other"), then the queues in IVAR's order */
static struct vec vecs[NR_VECS] = {
	{ .name = "e1000e-other", .cause = ICR_OTHER | ICR_LSC },
	{ .name = "e1000e-rx0", .cause = ICR_RXQ0 },
	{ .name = "e1000e-rx1", .cause = ICR_RXQ1 },
	{ .name = "e1000e-tx0", .cause = ICR_TXQ0 },
	{ .name = "e1000e-tx1", .cause = ICR_TXQ1 },
};

static volatile uint32_t *regs;

static void wr(unsigned int reg, uint32_t v)
{
	regs[reg / 4] = v;
}

static irqreturn_t vec_interrupt(int irq, void *data)
{
	struct vec *v = data;
	int cpu = smp_processor_id();

	atomic_store(&v->cpu, cpu);
	if (!cpumask_test_cpu(cpu, v->mask))
		atomic_fetch_add(&v->off_mask, 1);
	wr(E1000_ICR, v->cause);	/* with MSI-X on, the driver clears its cause */
	atomic_fetch_add(&v->irqs, 1);
	return IRQ_HANDLED;
}

static atomic_uint req_seen;

static irqreturn_t req_interrupt(int irq, void *data)
{
	atomic_fetch_add(&req_seen, 1);
	return IRQ_HANDLED;
}

/* The lines of /proc/interrupts naming @what: vfio-pci's own interrupts for the device. */
static int proc_interrupts_with(const char *what)
{
	FILE *f = fopen("/proc/interrupts", "r");
	char line[1024];
	int n = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		n += strstr(line, what) != NULL;
	fclose(f);
	return n;
}

static int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	if (!d)
		return -1;
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

/* Raise @v's cause and wait for its handler; return whether exactly one more ran. */
static bool raise_and_see(struct vec *v)
{
	unsigned int before = atomic_load(&v->irqs);

	wr(E1000_ICS, v->cause);
	return wait_for(&v->irqs, before + 1, 5000) && atomic_load(&v->irqs) == before + 1;
}

/*
 * rx0 in polled mode, as a NIC driver runs its receive queue: the handler
 * masks rx0 at the device and schedules the poll; the poll clears the
 * cause, reaps up to its weight of the events the "wire" left (a counter
 * the test raises with the cause), and under its weight completes, unmasks
 * and looks again (a cause raised while masked also fires at the unmask).
 */
static struct {
	struct net_device	ndev;
	struct napi_struct	napi;
	atomic_uint		pending, reaped, irqs, polls, full;
} rxq;

static irqreturn_t rx_napi_interrupt(int irq, void *data)
{
	atomic_fetch_add(&rxq.irqs, 1);
	if (napi_schedule_prep(&rxq.napi)) {
		wr(E1000_IMC, ICR_RXQ0);
		__napi_schedule_irqoff(&rxq.napi);
	}
	return IRQ_HANDLED;
}

static int rx_poll(struct napi_struct *napi, int budget)
{
	int done = 0;

	atomic_fetch_add(&rxq.polls, 1);
	wr(E1000_ICR, ICR_RXQ0);
	while (done < budget && atomic_load(&rxq.pending)) {
		atomic_fetch_sub(&rxq.pending, 1);
		done++;
	}
	atomic_fetch_add(&rxq.reaped, (unsigned int)done);
	if (done == budget) {
		atomic_fetch_add(&rxq.full, 1);
		return done;
	}
	if (napi_complete_done(napi, done)) {
		wr(E1000_IMS, ICR_RXQ0);
		if (atomic_load(&rxq.pending) && napi_schedule_prep(napi)) {
			wr(E1000_IMC, ICR_RXQ0);
			__napi_schedule(napi);
		}
	}
	return done;
}

/* The probe, as a kernel driver writes it.  Return: 0 or -errno. */
static int e1000e_probe(struct pci_dev *pdev)
{
	struct irq_affinity affd = { .pre_vectors = 1 };
	int n, ret;

	pci_set_master(pdev);
	regs = pci_iomap(pdev, 0, 0);
	if (!regs)
		return -ENOMEM;
	wr(E1000_IMC, ~0u);		/* everything masked while the vectors are set up */
	wr(E1000_EIAC, 0);		/* no auto-clear: the handlers clear their causes */
	wr(E1000_ICR, ~0u);
	wr(E1000_IVAR, (IVAR_VALID | 1) | (IVAR_VALID | 2) << 4 | (IVAR_VALID | 3) << 8 |
			       (IVAR_VALID | 4) << 12 | (IVAR_VALID | 0) << 16);
	n = pci_alloc_irq_vectors_affinity(pdev, 2, NR_VECS, PCI_IRQ_ALL_TYPES | PCI_IRQ_AFFINITY,
					   &affd);
	if (n != NR_VECS)
		return n < 0 ? n : -ENOSPC;
	for (int i = 0; i < NR_VECS; i++) {
		vecs[i].mask = pci_irq_get_affinity(pdev, i);
		ret = request_irq(pci_irq_vector(pdev, i), vec_interrupt, 0, vecs[i].name,
				  &vecs[i]);
		if (ret) {
			while (--i >= 0)
				free_irq(pci_irq_vector(pdev, i), &vecs[i]);
			pci_free_irq_vectors(pdev);
			return ret;
		}
	}
	wr(E1000_IMS, ICR_RXQ0 | ICR_RXQ1 | ICR_TXQ0 | ICR_TXQ1 | ICR_OTHER | ICR_LSC);
	return 0;
}

static void e1000e_remove(struct pci_dev *pdev)
{
	wr(E1000_IMC, ~0u);
	for (int i = 0; i < NR_VECS; i++)
		free_irq(pci_irq_vector(pdev, i), &vecs[i]);
	pci_free_irq_vectors(pdev);
	pci_iounmap(pdev, (void *)regs);
}

int main(int argc, char **argv)
{
	struct irqkit_config cfg = { .nr_irqs = 64, .nr_cpus = IRQKIT_CPUS,
				     .mode = IRQKIT_MODE_THREADED, .log = log_line };
	struct pci_dev *pdev = NULL;
	int fds, v, req, status = 0;
	pid_t child = -1;
	bool all = true;

	if (argc < 2) {
		printf("usage: vfio_e1000e PCI_ADDRESS\nGUEST vfio_e1000e: FAIL\n");
		return 1;
	}
	check(irqkit_start(&cfg) == 0, "irqkit_start (4 CPUs, threaded)");
	fds = open_fds();
	check(irqkit_pci_open(argv[1], &pdev) == 0 && pdev, "irqkit_pci_open by address");
	if (!pdev) {
		irqkit_stop();
		return verdict("vfio_e1000e");
	}
	check(pdev->vendor == 0x8086 && pdev->device == 0x10d3, "an 82574 (8086:10d3)");
	check(pci_msix_vec_count(pdev) == NR_VECS, "five MSI-X vectors, as VFIO says");
	check(pci_alloc_irq_vectors(pdev, 6, 8, PCI_IRQ_MSIX) == -ENOSPC,
	      "six at least of five: -ENOSPC");

	check(e1000e_probe(pdev) == 0, "probe: 1 + 4 vectors with a pre vector, a handler each");
	check(pdev->msix_enabled, "MSI-X on");
	check(proc_interrupts_with("vfio-msix") == NR_VECS,
	      "vfio-pci holds five interrupts (/proc/interrupts)");
	check(cpumask_weight(vecs[0].mask) == IRQKIT_CPUS, "the pre vector: every CPU");
	for (int i = 1; i < NR_VECS; i++)
		all &= cpumask_weight(vecs[i].mask) == 1 && cpumask_test_cpu(i - 1, vecs[i].mask);
	check(all, "queue vector i on CPU i - 1 alone");
	check(pci_irq_vector(pdev, NR_VECS) == -EINVAL, "a vector past the count: -EINVAL");

	/* each cause on its own vector, on its CPU */
	all = true;
	for (int r = 0; r < ROUNDS && all; r++)
		for (int i = 0; i < NR_VECS && all; i++)
			all = raise_and_see(&vecs[i]);
	check(all, "20 rounds of each cause: each on its own vector, once");
	all = true;
	for (int i = 0; i < NR_VECS; i++) {
		all &= atomic_load(&vecs[i].irqs) == ROUNDS && !atomic_load(&vecs[i].off_mask);
		if (i)
			all &= atomic_load(&vecs[i].cpu) == i - 1;
		printf("  %s: %u interrupts, last on CPU %d\n", vecs[i].name,
		       atomic_load(&vecs[i].irqs), atomic_load(&vecs[i].cpu));
	}
	check(all, "every interrupt on a CPU of its vector's mask");

	/* CPU 2 goes: tx0's vector shuts down; its cause waits for the CPU */
	v = pci_irq_vector(pdev, 3);
	check(irqkit_remove_cpu(2) == 0, "CPU 2 offline");
	{
		struct irqkit_irq_info info;

		check(irqkit_irq_get_info((unsigned int)v, &info) == 0 && info.managed_shutdown,
		      "tx0's managed vector is shut down");
	}
	wr(E1000_ICS, ICR_TXQ0);
	usleep(200000);
	check(atomic_load(&vecs[3].irqs) == ROUNDS, "tx0 raised meanwhile: not handled yet");
	check(irqkit_add_cpu(2) == 0, "CPU 2 back");
	check(wait_for(&vecs[3].irqs, ROUNDS + 1, 5000) &&
	      irqkit_wait_delivered((unsigned int)v, 1000) == 0 &&
	      atomic_load(&vecs[3].irqs) == ROUNDS + 1 && atomic_load(&vecs[3].cpu) == 2,
	      "delivered once, on CPU 2, when it came back");
	check(raise_and_see(&vecs[3]), "tx0 again, as before");

	/* rx0 in polled mode: a burst of 2000 events, each with its cause raised */
	{
		unsigned int rx = (unsigned int)pci_irq_vector(pdev, 1);
		bool got;

		free_irq(rx, &vecs[1]);
		init_dummy_netdev(&rxq.ndev);
		netif_napi_add(&rxq.ndev, &rxq.napi, rx_poll);
		napi_enable(&rxq.napi);
		check(request_irq(rx, rx_napi_interrupt, 0, "e1000e-rx0-napi", &rxq) == 0,
		      "rx0's vector: a NAPI driver's handler");
		for (int i = 0; i < 2000; i++) {
			atomic_fetch_add(&rxq.pending, 1);
			wr(E1000_ICS, ICR_RXQ0);
		}
		got = wait_for(&rxq.reaped, 2000, 20000);
		usleep(100000);
		printf("  rx0 polled: 2000 events in %u interrupts and %u polls (%u of full weight)\n",
		       atomic_load(&rxq.irqs), atomic_load(&rxq.polls), atomic_load(&rxq.full));
		check(got && atomic_load(&rxq.reaped) == 2000 && !atomic_load(&rxq.pending) &&
		      atomic_load(&rxq.irqs) <= 2000 && (regs[E1000_IMS / 4] & ICR_RXQ0),
		      "every event reaped once, rx0 unmasked at the end");
		free_irq(rx, &rxq);
		napi_disable(&rxq.napi);
		netif_napi_del(&rxq.napi);
		check(request_irq(rx, vec_interrupt, 0, vecs[1].name, &vecs[1]) == 0,
		      "rx0's handler back");
	}

	e1000e_remove(pdev);
	check(!pdev->msix_enabled && proc_interrupts_with("vfio-msix") == 0,
	      "remove: vfio-pci holds no MSI-X interrupt");
	irqkit_pci_free_irq_vectors(pdev);	/* twice: a log line, nothing else */

	/*
	 * A vector added to a running set: one vector first (the "other"
	 * causes), then rx0's.  The guest's vfio-pci (6.1) cannot grow a
	 * running set, so MSI-X goes off and on with two, and vector 0 is
	 * signalled once after.
	 */
	{
		struct msi_map map;
		unsigned int other = atomic_load(&vecs[0].irqs);

		vecs[0].mask = vecs[1].mask = cpu_possible_mask;	/* not spread: any CPU */
		regs = pci_iomap(pdev, 0, 0);			/* the remove unmapped it */
		check(regs != NULL, "BAR 0 mapped again");
		if (!regs)
			return verdict("vfio_e1000e");
		wr(E1000_IVAR, (IVAR_VALID | 1) | (IVAR_VALID | 0) << 16);
		check(pci_alloc_irq_vectors(pdev, 1, 1, PCI_IRQ_MSIX) == 1 &&
		      request_irq(pci_irq_vector(pdev, 0), vec_interrupt, 0, vecs[0].name,
				  &vecs[0]) == 0, "one MSI-X vector, its handler");
		map = pci_msix_alloc_irq_at(pdev, MSI_ANY_INDEX, NULL);
		check(map.index == 1 && map.virq == pci_irq_vector(pdev, 1) &&
		      proc_interrupts_with("vfio-msix") == 2,
		      "pci_msix_alloc_irq_at: entry 1, vfio-pci holds two");
		check(wait_for(&vecs[0].irqs, other + 1, 5000) &&
		      irqkit_wait_delivered((unsigned int)pci_irq_vector(pdev, 0), 1000) == 0 &&
		      atomic_load(&vecs[0].irqs) == other + 1,
		      "vector 0 signalled once after MSI-X went off and on");
		check(request_irq((unsigned int)map.virq, vec_interrupt, 0, vecs[1].name,
				  &vecs[1]) == 0, "a handler on the new vector");
		wr(E1000_IMS, ICR_RXQ0 | ICR_OTHER | ICR_LSC);
		check(raise_and_see(&vecs[1]) && raise_and_see(&vecs[0]),
		      "rx0 on the new vector, the other causes on vector 0");
		wr(E1000_IMC, ~0u);
		free_irq((unsigned int)map.virq, &vecs[1]);
		pci_msix_free_irq(pdev, map);
		free_irq(pci_irq_vector(pdev, 0), &vecs[0]);
		pci_free_irq_vectors(pdev);
		pci_iounmap(pdev, (void *)regs);
		check(proc_interrupts_with("vfio-msix") == 0, "all given back");
	}

	/* the host wants the device back: vfio-pci's request reaches the driver, which lets go */
	req = irqkit_pci_event_irq(pdev, IRQKIT_PCI_EVENT_REQ);
	check(req > 0 && request_irq((unsigned int)req, req_interrupt, 0, "e1000e-req", NULL) == 0,
	      "VFIO's device request as a line, a handler on it");
	child = fork();
	if (child == 0) {
		int fd;

		/* the VFIO descriptors the fork copied would keep the device open */
		for (fd = 3; fd < 1024; fd++)
			close(fd);
		fd = open("/sys/bus/pci/drivers/vfio-pci/unbind", O_WRONLY);

		_exit(fd >= 0 && write(fd, argv[1], strlen(argv[1])) == (ssize_t)strlen(argv[1]) ?
			      0 : 1);
	}
	check(child > 0 && wait_for(&req_seen, 1, 20000),
	      "unbinding it from vfio-pci: the request reaches the handler");
	if (req > 0)
		free_irq((unsigned int)req, NULL);
	check(irqkit_pci_close(pdev) == 0, "irqkit_pci_close");
	check(child > 0 && waitpid(child, &status, 0) == child && WIFEXITED(status) &&
	      WEXITSTATUS(status) == 0, "the unbind completes once the device is closed");
	check(open_fds() == fds, "no descriptor left open");
	irqkit_stop();
	return verdict("vfio_e1000e");
}
