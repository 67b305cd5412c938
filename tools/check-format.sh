#!/bin/sh
# What clang-format 19 would change in the lines of C changed since REV
# (default: HEAD, i.e. the work not yet committed), printed as a diff.  An
# aid for new code, not a CI gate: .clang-format says why.
# Usage: tools/check-format.sh [REV]
# Exit: 0 clean, 1 a changed line is not formatted, 2 cannot check.
set -eu
cd "$(dirname "$0")/.."
cf=${CLANG_FORMAT:-clang-format-19}
if ! command -v "$cf" >/dev/null || ! command -v git-clang-format-19 >/dev/null; then
	echo "check-format: $cf and git-clang-format-19 are needed (Debian: clang-format-19)" >&2
	exit 2
fi
base=${1:-HEAD}
if ! git cat-file -e "$base^{commit}" 2>/dev/null; then
	echo "check-format: $base is not a commit of this clone" >&2
	exit 2
fi
# --diff prints what it would change, or a "no modified files" / "did not modify" line
out=$(git-clang-format-19 --binary "$(command -v "$cf")" --diff --extensions c,h "$base" -- \
	src include tests bench examples tools 2>&1) || true
case "$out" in
"" | "no modified files to format" | "clang-format did not modify any files")
	echo "check-format: lines changed since $(git rev-parse --short "$base") are formatted"
	exit 0 ;;
esac
printf '%s\n' "$out"
echo "check-format: the lines above, changed since $(git rev-parse --short "$base"), are not as .clang-format writes them" >&2
exit 1
