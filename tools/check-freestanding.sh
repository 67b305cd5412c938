#!/bin/sh
# Compile src/core/ as freestanding code, with no libc headers on the include
# path, and list what the objects need from outside: only the platform hooks
# of the contract (irqkit_plat_*, src/core/include/irqkit-core/platform.h) and the compiler's own memset/memcpy
# may be undefined.  Usage: tools/check-freestanding.sh [compiler [generated-include-dir]]
# (the second: where the build wrote irqkit/config.h)
set -eu
cc=${1:-${CC:-cc}}
top=$(cd "$(dirname "$0")/.." && pwd)
gen=${2:-$top/build/include}
inc=$("$cc" -print-file-name=include)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

for src in $(find "$top/src/core" -name '*.c' | sort); do
	obj=$(echo "${src#"$top"/src/core/}" | tr / _)
	"$cc" -std=gnu11 -O2 -ffreestanding -fno-builtin -nostdinc -isystem "$inc" \
		-I"$top/include" -I"$gen" -I"$top/src/core" -I"$top/src/core/include" \
		-Wall -Wextra -Werror -Wno-unused-parameter \
		-c "$src" -o "$out/${obj%.c}.o"
done
# one relocatable object: what the core files need from each other is resolved
ld -r -o "$out/core.ro" "$out"/*.o
bad=$(nm -u "$out/core.ro" | awk 'NF == 2 { print $2 }' | sort -u |
	grep -v -E '^(irqkit_plat_[a-z_]+|memset|memcpy|memmove|__tls_get_addr|_GLOBAL_OFFSET_TABLE_)$' || true)
if [ -n "$bad" ]; then
	echo "freestanding check ($cc): src/core/ needs symbols outside the platform contract:" >&2
	echo "$bad" >&2
	exit 1
fi
echo "freestanding check ($cc): src/core/ compiles with -ffreestanding -nostdinc;" \
	"it needs only: $(nm -u "$out/core.ro" | awk 'NF == 2 { print $2 }' | sort -u | tr '\n' ' ')"
