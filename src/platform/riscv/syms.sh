#!/bin/sh
# Put an image's function names into its .irqkit_syms section (link.ld leaves
# 128 KiB of zeros there): one "ADDRESS NAME" line per function, in address
# order, NUL-terminated, for irqkit_plat_symbol().  The link is not redone,
# so every address stays what the names say.
# Usage: syms.sh IMAGE.elf
set -eu
elf=$1
tmp=$elf.syms
riscv64-unknown-elf-nm -n --defined-only "$elf" |
	awk '$2 ~ /^[tTwW]$/ && $3 !~ /^\./ { print $1, $3 }' | head -c 131000 >"$tmp"
printf '\0' >>"$tmp"
truncate -s 131072 "$tmp"
riscv64-unknown-elf-objcopy --update-section .irqkit_syms="$tmp" "$elf"
rm -f "$tmp"
