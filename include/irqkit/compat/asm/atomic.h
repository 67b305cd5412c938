/* SPDX-License-Identifier: MIT */
/* 2.6 drivers included <asm/atomic.h>: the same as <linux/atomic.h>. */
#include <linux/atomic.h>
