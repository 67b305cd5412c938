/* SPDX-License-Identifier: MIT */
/*
 * The floor of bench_trap: a minimal hand-written trap path, the port's
 * entry's register save and restore (trapframe.h), straight into one C
 * function, no interrupt layer.
 */
#include "trapframe.h"

#define FRAME	(16 * 8)
	.text
	.balign 4
	.globl bench_minimal_vector
bench_minimal_vector:
	addi	sp, sp, -FRAME
	SAVE_CALLER_SAVED
	call	bench_minimal_handler
	RESTORE_CALLER_SAVED
	addi	sp, sp, FRAME
	mret
