#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The layers' rules (docs/DESIGN.md, Layers), checked on the objects the
# build made: which layer's symbols each layer's code calls or reads.
#
#   core      names no chip, platform or test-layer symbol, only the port
#             contract a platform provides (irqkit_plat_*, irqkit_arch_*,
#             what the port's inline arch hooks name, the mem* functions)
#   chips     name no platform or test-layer symbol beyond that contract
#   platform  names no chip and no test-layer symbol, except the hooks it
#             declares for a layer stacked on it (irqkit__posix_*)
#   testing   is on top: it may name any layer under it
#
# And in the sources: nothing under src/platform/ speaks of the test
# layer's parts (the deterministic scheduler, the explorer).
#
#   tools/check-layers.sh core=A.o:B.o chips=... platform=... [testing=...]
set -eu
nm=${NM:-nm}
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0

for arg in "$@"; do
	layer=${arg%%=*}
	objs=$(printf '%s' "${arg#*=}" | tr ':' ' ')
	# shellcheck disable=SC2086 # a list of object files
	"$nm" --defined-only $objs 2>/dev/null | awk 'NF == 3 && $2 ~ /[TDBRVWC]/ { print $3 }' |
		sort -u >"$tmp/def.$layer"
	# shellcheck disable=SC2086
	"$nm" -u $objs 2>/dev/null | awk '{ print $NF }' | sort -u >"$tmp/und.$layer"
	[ -s "$tmp/def.$layer" ] || { echo "check-layers: $layer: no symbols in its objects" >&2; exit 2; }
done

# the port contract: the hooks, what the port's public headers (its inline
# arch hooks) name, and the memory functions a freestanding compiler calls
{
	echo '^(irqkit_plat_|irqkit_arch_|(memcpy|memset|memmove|memcmp)$)'
	grep -rhoE '\birqkit_[a-z0-9_]+' "$top"/src/platform/*/include | sort -u | sed 's/.*/^&$/'
} | paste -sd '|' >"$tmp/contract"
contract=$(cat "$tmp/contract")
# calls LAYER TO ALLOWED: what @LAYER takes from @TO beyond the @ALLOWED pattern
calls() {
	[ -f "$tmp/und.$1" ] && [ -f "$tmp/def.$2" ] || return 0
	bad=$(comm -12 "$tmp/und.$1" "$tmp/def.$2" | grep -Ev "$3" || true)
	if [ -n "$bad" ]; then
		echo "check-layers: $1 names $2's symbols:" $bad >&2
		status=1
	fi
}
calls core chips '^$'
calls core platform "$contract"
calls core testing '^$'
calls chips platform "$contract"
calls chips testing '^$'
calls platform chips '^$'
calls platform testing '^irqkit__posix_'

if grep -rniE 'simulat|explor|sched_det|irqkit__det_|testing\.h' "$top/src/platform" >"$tmp/words"; then
	echo "check-layers: src/platform names the test layer's parts:" >&2
	cat "$tmp/words" >&2
	status=1
fi
[ "$status" = 0 ] && echo "check-layers: $# layers keep their rules"
exit "$status"
