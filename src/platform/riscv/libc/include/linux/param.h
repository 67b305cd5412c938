/* SPDX-License-Identifier: MIT */
/* Bare metal: the uapi <linux/param.h>'s place; HZ is the Linux-name layer's. */
