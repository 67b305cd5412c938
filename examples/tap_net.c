// SPDX-License-Identifier: MIT
/*
 * A network driver over a TAP device, written as today's drivers are, with
 * NAPI: the receive interrupt claims the poll (napi_schedule_prep), turns
 * the device's interrupt off (disable_irq_nosync) and schedules it; the
 * poll, in the NET_RX softirq, takes up to its weight of frames; when it
 * took less, napi_complete_done says whether the interrupt may come back,
 * and only then is it turned on.  An interrupt that comes during the poll
 * makes the complete say no and the poll run once more, so a frame that
 * lands between the last read and the enable is not left waiting.
 *
 * The frames come from the kernel: the program sends them to the TAP
 * interface through a packet socket, and the kernel transmits them on it,
 * which makes them readable on the TAP descriptor.  That needs
 * CAP_NET_ADMIN and CAP_NET_RAW; without them it says so and exits with 77
 * (skipped).
 *
 * Usage: example-tap-net [frames [--burst]]; exit status 0 when every frame
 * arrived.  The frames go out eight at a time with a pause after each eight,
 * or with --burst back to back (keep them under the interface's queue of
 * 1000), where the polls take full weights and one interrupt serves many.
 */
#define _GNU_SOURCE
#include <irqkit/irqkit.h>

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/if_packet.h>
#include <linux/if_tun.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#define IRQ		6
#define WEIGHT		16
#define ETH_P_DEMO	0x88b5	/* IEEE 802 local experimental ethertype */

struct nic {
	int				fd;
	struct irqkit_napi_struct	napi;
	atomic_int			irqs, polls, frames, bad;
};

static enum irqkit_irqreturn nic_irq(int irq, void *dev_id)
{
	struct nic *n = dev_id;

	atomic_fetch_add(&n->irqs, 1);
	if (irqkit_napi_schedule_prep(&n->napi)) {
		irqkit_disable_irq_nosync((unsigned int)irq);	/* no more interrupts while polling */
		irqkit_napi_schedule_prepped_irqoff(&n->napi);
	}
	return IRQKIT_HANDLED;
}

static int nic_poll(struct irqkit_napi_struct *napi, int budget)
{
	struct nic *n = irqkit_netdev_priv(napi->dev);
	unsigned char frame[2048];
	int done = 0;

	atomic_fetch_add(&n->polls, 1);
	while (done < budget) {
		ssize_t len = read(n->fd, frame, sizeof(frame));
		struct ether_header eh;

		if (len < 0)
			break;		/* EAGAIN: the device is empty */
		done++;
		if ((size_t)len < sizeof(eh))
			continue;
		memcpy(&eh, frame, sizeof(eh));
		if (ntohs(eh.ether_type) != ETH_P_DEMO)
			continue;	/* the kernel's own traffic (IPv6 router solicitations...) */
		if (len < (ssize_t)sizeof(eh) + 4 || memcmp(frame + sizeof(eh), "irqk", 4))
			atomic_fetch_add(&n->bad, 1);
		atomic_fetch_add(&n->frames, 1);
	}
	/* the whole weight: polled again; less: interrupts back on, if NAPI agrees */
	if (done < budget && irqkit_napi_complete_done(napi, done))
		irqkit_enable_irq(IRQ);
	return done;
}

/* A TAP interface, up; its name in @name.  Return: its descriptor, or -errno. */
static int tap_open(char *name, int *ifindex)
{
	struct ifreq ifr = { .ifr_flags = IFF_TAP | IFF_NO_PI };
	int fd = open("/dev/net/tun", O_RDWR | O_CLOEXEC), s, err;

	if (fd < 0)
		return -errno;
	snprintf(ifr.ifr_name, IFNAMSIZ, "irqkit%%d");
	if (ioctl(fd, TUNSETIFF, &ifr)) {
		err = -errno;
		close(fd);
		return err;
	}
	memcpy(name, ifr.ifr_name, IFNAMSIZ);
	s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	ifr.ifr_flags = IFF_UP;
	if (s < 0 || ioctl(s, SIOCSIFFLAGS, &ifr) || ioctl(s, SIOCGIFINDEX, &ifr)) {
		err = -errno;
		if (s >= 0)
			close(s);
		close(fd);
		return err;
	}
	*ifindex = ifr.ifr_ifindex;
	close(s);
	return fd;
}

int main(int argc, char **argv)
{
	struct irqkit_config cfg = { .nr_irqs = 16, .nr_cpus = 2 };
	int want = argc > 1 ? atoi(argv[1]) : 100, ifindex = 0, ps, fd, ok;
	bool burst = argc > 2 && !strcmp(argv[2], "--burst");
	char name[IFNAMSIZ] = "", stat[512];
	struct sockaddr_ll to = { .sll_family = AF_PACKET, .sll_halen = ETH_ALEN };
	struct irqkit_net_device *ndev;
	struct nic *n;

	fd = tap_open(name, &ifindex);
	ps = fd < 0 ? -1 : socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
	if (fd < 0 || ps < 0) {
		printf("skipped: cannot create a TAP device and send to it (%s); needs CAP_NET_ADMIN and CAP_NET_RAW\n",
		       strerror(fd < 0 ? -fd : errno));
		return 77;
	}
	if (irqkit_start(&cfg) || !(ndev = irqkit_alloc_netdev_dummy(sizeof(*n)))) {
		fprintf(stderr, "set-up failed\n");
		return 1;
	}
	n = irqkit_netdev_priv(ndev);
	n->fd = fd;
	irqkit_netif_napi_add_weight(ndev, &n->napi, nic_poll, WEIGHT);
	irqkit_napi_enable(&n->napi);
	if (irqkit_fd_bind_tap(IRQ, n->fd) || irqkit_request_irq(IRQ, nic_irq, 0, name, n)) {
		fprintf(stderr, "set-up failed\n");
		return 1;
	}
	to.sll_ifindex = ifindex;
	memset(to.sll_addr, 0xff, ETH_ALEN);
	for (int i = 0; i < want; i++) {
		unsigned char frame[64] = { 0 };
		struct ether_header eh = { .ether_type = htons(ETH_P_DEMO) };

		memset(eh.ether_dhost, 0xff, ETH_ALEN);
		eh.ether_shost[0] = 0x02;	/* locally administered */
		memcpy(frame, &eh, sizeof(eh));
		memcpy(frame + sizeof(eh), "irqk", 4);
		if (sendto(ps, frame, sizeof(frame), 0, (struct sockaddr *)&to, sizeof(to)) < 0) {
			perror("sendto");
			return 1;
		}
		if (i % 8 == 7 && !burst)
			usleep(200);
	}
	for (int i = 0; i < 500 && atomic_load(&n->frames) < want; i++)
		usleep(10000);
	printf("%s: %d frames sent, %d received (%d bad) in %d interrupts and %d polls\n", name, want,
	       atomic_load(&n->frames), atomic_load(&n->bad), atomic_load(&n->irqs),
	       atomic_load(&n->polls));
	if (irqkit_show_softnet_stat_buf(stat, sizeof(stat)) > 0)
		printf("/proc/net/softnet_stat:\n%s", stat);
	irqkit_free_irq(IRQ, n);
	irqkit_napi_disable(&n->napi);
	ok = atomic_load(&n->frames) == want && !atomic_load(&n->bad);
	irqkit_free_netdev(ndev);	/* the instance with it */
	irqkit_stop();
	close(ps);
	close(fd);
	return ok ? 0 : 1;
}
