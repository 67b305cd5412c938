/* SPDX-License-Identifier: MIT */
/*
 * Reset, trap entry and the context switch of the RISC-V bare-metal port
 * (QEMU virt, machine mode, -bios none).  Every hart enters _start at the
 * base of RAM with a0 = its hart id and a1 = the device tree.
 */
#include "trapframe.h"

#define STACK_SHIFT	15		/* RV_STACK_SIZE, 32 KiB */
#define MAX_HARTS	8

	.section .text.init, "ax"
	.globl _start
_start:
	csrw	mie, zero
	csrw	mstatus, zero		/* MIE off, FS off: no floating point */
.option push
.option norelax
	la	gp, __global_pointer$
.option pop
	mv	tp, zero
	li	t0, MAX_HARTS
	bgeu	a0, t0, park
	/* each hart's boot stack: from the top down */
	la	sp, __stack_top
	slli	t0, a0, STACK_SHIFT
	sub	sp, sp, t0
	bnez	a0, wait_bss
	/* hart 0 clears .bss, then lets the others go (the flag is in .data) */
	la	t0, __bss_start
	la	t1, __bss_end
1:	bgeu	t0, t1, 2f
	sd	zero, 0(t0)
	addi	t0, t0, 8
	j	1b
2:	fence	rw, rw
	la	t0, rv_bss_done
	li	t1, 1
	sw	t1, 0(t0)
	j	go
wait_bss:
	la	t0, rv_bss_done
1:	lw	t1, 0(t0)
	beqz	t1, 1b
	fence	rw, rw
go:
	la	t0, rv_trap_entry
	csrw	mtvec, t0
	call	rv_hart_main		/* does not return */
park:
	wfi
	j	park

	.section .data
	.balign 4
	.globl rv_bss_done
rv_bss_done:
	.word	0

/*
 * The trap entry: on the interrupted thread's stack, save what a C call may
 * clobber plus mepc and mstatus (a trap may nest once: see irqflags.h), call
 * rv_trap(frame), put it all back, mret.
 */
#define FRAME	(18 * 8)
	.text
	.balign 4
	.globl rv_trap_entry
rv_trap_entry:
	addi	sp, sp, -FRAME
	SAVE_CALLER_SAVED
	csrr	t0, mepc
	sd	t0, 128(sp)
	csrr	t0, mstatus
	sd	t0, 136(sp)
	mv	a0, sp
	call	rv_trap
	ld	t0, 136(sp)
	csrw	mstatus, t0		/* MIE off (as saved in the trap), MPIE/MPP as taken */
	ld	t0, 128(sp)
	csrw	mepc, t0
	RESTORE_CALLER_SAVED
	addi	sp, sp, FRAME
	mret

/*
 * rv_switch(from, to, to_tp): keep the callee-saved registers of the thread
 * that calls it in @from, take @to's, and tp = @to_tp.  Interrupts are off.
 */
	.globl rv_switch
rv_switch:
	sd	ra, 0(a0)
	sd	sp, 8(a0)
	sd	s0, 16(a0)
	sd	s1, 24(a0)
	sd	s2, 32(a0)
	sd	s3, 40(a0)
	sd	s4, 48(a0)
	sd	s5, 56(a0)
	sd	s6, 64(a0)
	sd	s7, 72(a0)
	sd	s8, 80(a0)
	sd	s9, 88(a0)
	sd	s10, 96(a0)
	sd	s11, 104(a0)
	ld	ra, 0(a1)
	ld	sp, 8(a1)
	ld	s0, 16(a1)
	ld	s1, 24(a1)
	ld	s2, 32(a1)
	ld	s3, 40(a1)
	ld	s4, 48(a1)
	ld	s5, 56(a1)
	ld	s6, 64(a1)
	ld	s7, 72(a1)
	ld	s8, 80(a1)
	ld	s9, 88(a1)
	ld	s10, 96(a1)
	ld	s11, 104(a1)
	mv	tp, a2
	ret

/* A new thread's first instruction: s0 is its struct irqkit_plat_thread. */
	.globl rv_thread_start
rv_thread_start:
	mv	a0, s0
	call	rv_thread_main		/* does not return */
1:	j	1b
