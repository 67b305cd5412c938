#!/bin/sh
# SPDX-License-Identifier: MIT
# tools/irqkit-top against a running program that publishes (publish_target),
# and its answers to what is not one.
#   irqkit_top.sh path/to/irqkit-top path/to/publish_target
set -eu
top=$1 target=$2
IRQKIT_PUBLISH_DIR=$(mktemp -d)
export IRQKIT_PUBLISH_DIR
out=$(mktemp)
trap 'kill "$tpid" 2>/dev/null || true; rm -rf "$IRQKIT_PUBLISH_DIR" "$out"' EXIT
fail() { echo "irqkit_top.sh: $*" >&2; cat "$out" >&2; exit 1; }

IRQKIT_HIST=1 "$target" 8 > "$out" & tpid=$!
for _ in $(seq 100); do grep -q ready "$out" && [ -f "$IRQKIT_PUBLISH_DIR/$tpid/interrupts" ] && break; sleep 0.05; done
[ -f "$IRQKIT_PUBLISH_DIR/$tpid/interrupts" ] || fail "the target did not publish"

"$top" --list > "$out" 2>&1 || fail "--list failed"
grep -q "^ *$tpid  publish_target *running" "$out" || fail "--list does not show the target"

# without a PID: the only program that publishes
"$top" --once -d 1 > "$out" 2>&1 || fail "--once failed"
grep -q "irqkit-top: $tpid (publish_target), per second over 1 s" "$out" || fail "no title"
row=$(awk '$1 == "3" && /pubtarget/' "$out")
[ -n "$row" ] || fail "no row for line 3"
rate=$(echo "$row" | awk '{ print int($3) }')
[ "$rate" -gt 100 ] || fail "line 3 at $rate per second (raised about 1000 a second)"
echo "$row" | grep -q " ok " || fail "line 3 not shown as ok"

"$top" --json --once -d 0.5 "$tpid" > "$out" 2>&1 || fail "--json failed"
grep -q "^{\"pid\":$tpid,\"comm\":\"publish_target\",\"interval_s\":0.5,\"lines\":\[{\"irq\":3," "$out" ||
	fail "--json output"

"$top" --hist --once "$tpid" > "$out" 2>&1 || fail "--hist failed"
grep -q "^irq 3 (pubtarget): raise to handler: [0-9]* samples" "$out" || fail "--hist output"
grep -q "nsecs : count     distribution" "$out" || fail "--hist: no table"

# what is not a publishing program
"$top" --once $$ > "$out" 2>&1 && fail "a shell's pid was accepted"
grep -q "process $$ does not publish" "$out" || fail "no message for a process that does not publish"
mkdir "$IRQKIT_PUBLISH_DIR/999999999"
# cat, not cp: the publisher renames a fresh table over the file every
# interval, and cp skips a file "replaced while being copied"
for f in interrupts comm; do
	cat "$IRQKIT_PUBLISH_DIR/$tpid/$f" > "$IRQKIT_PUBLISH_DIR/999999999/$f"
done
"$top" --once 999999999 > "$out" 2>&1 && fail "a stale directory was accepted"
grep -q "is stale: process 999999999 is gone" "$out" || fail "no message for a stale directory"
"$top" --list > "$out" 2>&1
grep -q "999999999 .*stale" "$out" || fail "--list does not mark the stale directory"
"$top" --once nope > "$out" 2>&1 && fail "a bad pid was accepted"
grep -q "nope: not a process id" "$out" || fail "no message for a bad pid"

# a truncated table (written by something else than irqkit): a message, no garbage
fake=$IRQKIT_PUBLISH_DIR/$$
mkdir "$fake"
echo publish_target > "$fake/comm"
printf '  3:  12\n' > "$fake/interrupts"
printf 'irqkit:\n' > "$fake/irqkit"
"$top" --once -d 0.1 $$ > "$out" 2>&1 && fail "a truncated table was accepted"
grep -q "is not a table (truncated?)" "$out" || fail "no message for a truncated table"

"$top" --hist --once $$ > "$out" 2>&1 && fail "--hist of a program without histograms"
grep -q "process $$ records no histograms" "$out" || fail "no message for a program without histograms"

kill "$tpid"; wait "$tpid" 2>/dev/null || true
echo "irqkit_top.sh: ok"
