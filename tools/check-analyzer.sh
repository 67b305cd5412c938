#!/bin/sh
# Static analysis of the library's sources (src/: the core, the chips, the
# posix platform), failing on any finding:
#   - clang-tidy with the Clang Static Analyzer's checks (clang-analyzer-*,
#     less the insecureAPI ones that only ask for C11 Annex K), with the
#     build's own compile commands;
#   - cppcheck's warning and portability checks.
# A finding that is not a bug is silenced on its line, with the reason
# (NOLINTNEXTLINE(check): why, or cppcheck-suppress), never here.
# Usage: tools/check-analyzer.sh BUILD-DIR
# (a build configured with -DCMAKE_EXPORT_COMPILE_COMMANDS=ON)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:?usage: tools/check-analyzer.sh BUILD-DIR}
[ -f "$build/compile_commands.json" ] || {
	echo "check-analyzer: $build/compile_commands.json is missing (CMAKE_EXPORT_COMPILE_COMMANDS=ON)" >&2
	exit 2
}
cd "$top"
all=$(git ls-files 'src/*.c' 2>/dev/null || find src -name '*.c')
# what this (host) build compiles; the bare-metal port's files are checked
# by cppcheck with its own include paths below
srcs=$(for f in $all; do grep -q "\"file\": \"[^\"]*/$f\"" "$build/compile_commands.json" && echo "$f"; done)
rvsrcs=$(echo "$all" | grep -E '^src/(platform/riscv/|chips/plic\.c)' || true)
out=$(mktemp)
trap 'rm -f "$out"' EXIT

clang-tidy --quiet -p "$build" \
	--checks='-*,clang-analyzer-*,-clang-analyzer-security.insecureAPI.*' $srcs >"$out" 2>&1 || true
if grep -q 'warning:\|error:' "$out"; then
	grep -A8 'warning:\|error:' "$out" >&2
	echo "check-analyzer: clang-tidy (clang-analyzer) found the above" >&2
	exit 1
fi
echo "check-analyzer: clang-tidy clang-analyzer-*: $(echo "$srcs" | wc -l) files, no finding"

# shellcheck disable=SC2086
cppcheck --quiet --error-exitcode=1 --inline-suppr --enable=warning,portability --std=c11 \
	-D__GNUC__ -DIRQKIT_BUILD -Iinclude -Isrc/platform/posix/include -I"$build/include" \
	-Isrc/core -Isrc/core/include -j 2 $srcs
if [ -n "$rvsrcs" ]; then
	# shellcheck disable=SC2086
	cppcheck --quiet --error-exitcode=1 --inline-suppr --enable=warning,portability --std=c11 \
		-D__GNUC__ -DIRQKIT_BUILD -D__riscv -Iinclude -Isrc/platform/riscv/include \
		-Isrc/platform/riscv/libc/include -I"$build/include" -Isrc/core/include -j 2 $rvsrcs
fi
echo "check-analyzer: cppcheck warning,portability: no finding ($(echo "$srcs" | wc -l) host files, $(echo "$rvsrcs" | grep -c . || true) bare-metal files)"
