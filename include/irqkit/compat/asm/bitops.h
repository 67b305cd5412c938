/* SPDX-License-Identifier: MIT */
/* 2.6 drivers included <asm/bitops.h>: the same as <linux/bitops.h>. */
#include <linux/bitops.h>
