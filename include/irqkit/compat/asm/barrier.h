/* SPDX-License-Identifier: MIT */
/* 2.6 drivers included <asm/barrier.h>: the same as <linux/barrier.h>. */
#include <linux/barrier.h>
