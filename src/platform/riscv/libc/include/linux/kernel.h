/* SPDX-License-Identifier: MIT */
/* Bare metal: what the Linux-name layer finds where a host has its uapi <linux/kernel.h> (nothing it needs). */
