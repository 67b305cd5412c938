#!/bin/sh
# Compile src/core/ as freestanding code, with no libc headers on the include
# path, and list what the objects need from outside: only the hooks of the
# contract (irqkit_arch_* of arch.h, irqkit_plat_* of platform.h, in
# src/core/include/irqkit-core/), the objects the port's inline headers
# declare, and the compiler's own memset/memcpy may be undefined.  Usage:
#   tools/check-freestanding.sh [compiler [generated-include-dir [arch-include-dir]]]
# (the second: where the build wrote irqkit/config.h; the third: the port's
# <irqkit/arch/...> headers, src/platform/posix/include by default)
set -eu
cc=${1:-${CC:-cc}}
top=$(cd "$(dirname "$0")/.." && pwd)
gen=${2:-$top/build/include}
arch=${3:-$top/src/platform/posix/include}
inc=$("$cc" -print-file-name=include)
# a cross compiler (riscv64-unknown-elf-gcc): its own nm, and its flags
nm=nm
flags=""
case $cc in
*-gcc)
	[ -x "$(command -v "${cc%gcc}nm")" ] && nm=${cc%gcc}nm ;;
esac
case $cc in
riscv64-*)
	flags="-misa-spec=2.2 -march=rv64imac -mabi=lp64 -mcmodel=medany" ;;
esac
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

for src in $(find "$top/src/core" -name '*.c' | sort); do
	obj=$(echo "${src#"$top"/src/core/}" | tr / _)
	# shellcheck disable=SC2086
	"$cc" $flags -std=gnu11 -O2 -ffreestanding -fno-builtin -nostdinc -isystem "$inc" \
		-I"$top/include" -I"$arch" -I"$gen" -I"$top/src/core" -I"$top/src/core/include" \
		-Wall -Wextra -Werror -Wno-unused-parameter \
		-c "$src" -o "$out/${obj%.c}.o"
done
# one relocatable object: what the core files need from each other is resolved
# shellcheck disable=SC2086
"$cc" $flags -nostdlib -r -o "$out/core.ro" "$out"/*.o
# The port's inline headers may name objects of their own (posix: the
# thread-local task): the names they declare extern are part of the contract.
archobj=$(sed -n 's/.*extern .*[ *]\(irqkit_[a-z_]*\)\(\[[A-Z_0-9]*\]\)*;*$/\1/p' "$arch"/irqkit/arch/*.h | sort -u |
	tr '\n' '|')
bad=$("$nm" -u "$out/core.ro" | awk 'NF == 2 { print $2 }' | sort -u |
	grep -v -E "^(${archobj}irqkit_plat_[a-z_]+|irqkit_arch_[a-z_]+|memset|memcpy|memmove|__tls_get_addr|_GLOBAL_OFFSET_TABLE_|__[a-z]+[dst]i2)\$" || true)
if [ -n "$bad" ]; then
	echo "freestanding check ($cc): src/core/ needs symbols outside the platform contract:" >&2
	echo "$bad" >&2
	exit 1
fi
echo "freestanding check ($cc): src/core/ compiles with -ffreestanding -nostdinc;" \
	"it needs only: $("$nm" -u "$out/core.ro" | awk 'NF == 2 { print $2 }' | sort -u | tr '\n' ' ')"
