#!/bin/sh
# Instruction counts of the bare-metal port (bench/riscv/bench_trap.c): QEMU
# virt, one hart, -icount shift=0,sleep=off, where minstret counts retired
# instructions and every run gives the same figures.
# Usage: bench/riscv.sh [build-dir]   (default build/riscv, built by tools/run-riscv.sh)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$top/build/riscv}
cmake --build "$dir" --target bench_trap >/dev/null
timeout --kill-after=5 60 qemu-system-riscv64 -machine virt -bios none -display none \
	-monitor none -serial stdio -nic none -smp 1 -icount shift=0,sleep=off \
	-kernel "$dir/bench/riscv/bench_trap.elf" </dev/null
