#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Build the API reference in a configured build directory and check it: no
# Doxygen warning (a comment the filter or Doxygen misread), a man page for
# each exported function of the headers, the parameter text in it, the HTML.
#   tools/check-api-docs.sh BUILD_DIR
set -eu
build=$1
top=$(cd "$(dirname "$0")/.." && pwd)
cmake --build "$build" --target api-docs
docs=$build/api-docs
fail() { echo "check-api-docs: $*" >&2; exit 1; }

[ ! -s "$docs/warnings.log" ] || { cat "$docs/warnings.log" >&2; fail "Doxygen warned (above)"; }
[ -f "$docs/html/index.html" ] || fail "no HTML index"
grep -q "irqkit_request_irq" "$docs/html/irq_8h.html" || fail "irq.h's HTML page lacks irqkit_request_irq"

# every IRQKIT_API function of the native headers has its page
missing=0 n=0
for f in $(sed -n 's/^IRQKIT_API[^(]*[ *]\(irqkit_[a-z0-9_]*\)(.*/\1/p' "$top"/include/irqkit/*.h); do
	n=$((n + 1))
	[ -f "$docs/man/man3/$f.3" ] || { echo "check-api-docs: no man page for $f" >&2; missing=$((missing + 1)); }
done
[ "$missing" = 0 ] || fail "$missing of $n functions have no man page"
[ "$n" -gt 100 ] || fail "only $n functions found in the headers"

# a page says what the kernel-doc comment says, parameters included
page=$docs/man/man3/$(sed -n 's/^\.so man3\///p' "$docs/man/man3/irqkit_request_irq.3")
grep -q "add a handler for an interrupt line" "$page" || fail "irqkit_request_irq's summary is not in $page"
grep -q "cookie passed to the handler" "$page" || fail "irqkit_request_irq's @dev_id is not in $page"
if grep -q '@dev_id\|\\\\p ' "$page"; then fail "kernel-doc markup left in $page"; fi
echo "check-api-docs: $n functions, each with its man page; no warnings"
