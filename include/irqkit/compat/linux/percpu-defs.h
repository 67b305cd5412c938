/* SPDX-License-Identifier: MIT */
/* <linux/percpu-defs.h>: the definitions are in <linux/percpu.h>. */
#include <linux/percpu.h>
