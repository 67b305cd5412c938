// SPDX-License-Identifier: MIT
/*
 * A network driver over a TAP device, in the shape of a 2.6 NAPI driver:
 * the receive interrupt turns itself off (disable_irq_nosync) and schedules
 * the poll routine (a tasklet here), which takes up to a budget of frames;
 * when the device is empty it turns the interrupt back on, else it
 * reschedules itself.
 *
 * The frames come from the kernel: the program sends them to the TAP
 * interface through a packet socket, and the kernel transmits them on it,
 * which makes them readable on the TAP descriptor.  That needs
 * CAP_NET_ADMIN and CAP_NET_RAW; without them it says so and exits with 77
 * (skipped).
 *
 * Usage: example-tap-net [frames]; exit status 0 when every frame arrived.
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#define IRQ		6
#define BUDGET		16
#define ETH_P_DEMO	0x88b5	/* IEEE 802 local experimental ethertype */

struct nic {
	int			fd;
	struct irqkit_tasklet	poll;
	atomic_int		irqs, polls, frames, bad;
};

static enum irqkit_irqreturn nic_irq(int irq, void *dev_id)
{
	struct nic *n = dev_id;

	irqkit_disable_irq_nosync((unsigned int)irq);	/* NAPI: no more interrupts while polling */
	atomic_fetch_add(&n->irqs, 1);
	irqkit_tasklet_schedule(&n->poll);
	return IRQKIT_HANDLED;
}

static void nic_poll(unsigned long data)
{
	struct nic *n = (struct nic *)data;
	unsigned char frame[2048];
	int done = 0;

	atomic_fetch_add(&n->polls, 1);
	while (done < BUDGET) {
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
	if (done < BUDGET)
		irqkit_enable_irq(IRQ);			/* empty: interrupts back on */
	else
		irqkit_tasklet_schedule(&n->poll);	/* more to do: poll again */
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
	static struct nic n;
	struct irqkit_config cfg = { .nr_irqs = 16, .nr_cpus = 2 };
	int want = argc > 1 ? atoi(argv[1]) : 100, ifindex = 0, ps;
	char name[IFNAMSIZ] = "";
	struct sockaddr_ll to = { .sll_family = AF_PACKET, .sll_halen = ETH_ALEN };

	n.fd = tap_open(name, &ifindex);
	ps = n.fd < 0 ? -1 : socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
	if (n.fd < 0 || ps < 0) {
		printf("skipped: cannot create a TAP device and send to it (%s); needs CAP_NET_ADMIN and CAP_NET_RAW\n",
		       strerror(n.fd < 0 ? -n.fd : errno));
		return 77;
	}
	irqkit_tasklet_init(&n.poll, nic_poll, (unsigned long)&n);
	if (irqkit_start(&cfg) || irqkit_fd_bind_tap(IRQ, n.fd) ||
	    irqkit_request_irq(IRQ, nic_irq, 0, name, &n)) {
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
		if (i % 8 == 7)
			usleep(200);
	}
	for (int i = 0; i < 500 && atomic_load(&n.frames) < want; i++)
		usleep(10000);
	printf("%s: %d frames sent, %d received (%d bad) in %d interrupts and %d polls\n", name, want,
	       atomic_load(&n.frames), atomic_load(&n.bad), atomic_load(&n.irqs),
	       atomic_load(&n.polls));
	irqkit_free_irq(IRQ, &n);
	irqkit_tasklet_kill(&n.poll);
	irqkit_stop();
	close(ps);
	close(n.fd);
	return atomic_load(&n.frames) == want && !atomic_load(&n.bad) ? 0 : 1;
}
