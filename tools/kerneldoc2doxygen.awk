# SPDX-License-Identifier: MIT
#
# Doxygen's INPUT_FILTER for irqkit's headers: their comments are written in
# the kernel's kernel-doc form (Documentation/doc-guide/kernel-doc.rst), which
# Doxygen does not read.  In each /** comment:
#   "name - summary" (its first line)   ->  \brief summary
#   "@arg: text" (a line's start)        ->  \param arg text
#   "Return: text"                      ->  \return text
#   "Context: text"                     ->  Context in bold, then text
#   "@arg" elsewhere                     ->  \p arg
#   "<dir/file.h>"                       ->  escaped, not an HTML tag
# Everything else passes unchanged, so line numbers stay right.
function body(s) {
	gsub(/<([A-Za-z0-9_]+\/)*[A-Za-z0-9_]+\.h>/, "\\<&\\>", s)
	gsub(/\\<</, "\\<", s); gsub(/>\\>/, "\\>", s)
	while (match(s, /@[A-Za-z_][A-Za-z0-9_]*/))
		s = substr(s, 1, RSTART - 1) "\\p " substr(s, RSTART + 1)
	return s
}
{
	line = $0
	if (!indoc && line ~ /^[ \t]*\/\*\*/) {
		indoc = 1; first = 1
		# one-line form: /** name - text */
		if (match(line, /\/\*\*[ \t]*[A-Za-z_][A-Za-z0-9_]*[ \t]+-[ \t]+/)) {
			line = substr(line, 1, RSTART - 1) "/** \\brief " substr(line, RSTART + RLENGTH)
			first = 0
		} else if (line ~ /\/\*\*[ \t]*$/) {
			print line; next
		}
		if (line ~ /\*\//) indoc = 0
		print body(line); next
	}
	if (indoc) {
		if (first && match(line, /^[ \t]*\*[ \t]+[A-Za-z_][A-Za-z0-9_]*[ \t]+-[ \t]+/)) {
			prefix = substr(line, 1, RSTART + RLENGTH - 1)
			sub(/[A-Za-z_][A-Za-z0-9_]*[ \t]+-[ \t]+$/, "", prefix)
			line = prefix "\\brief " substr(line, RSTART + RLENGTH)
		} else if (match(line, /^[ \t]*\*[ \t]+@[A-Za-z_][A-Za-z0-9_]*:/)) {
			pre = substr(line, 1, RSTART + RLENGTH - 1)
			name = pre; sub(/^[ \t]*\*[ \t]+@/, "", name); sub(/:$/, "", name)
			line = " * \\param " name substr(line, RSTART + RLENGTH)
		} else if (match(line, /^[ \t]*\*[ \t]+Return:/)) {
			line = " * \\return" substr(line, RSTART + RLENGTH)
		} else if (match(line, /^[ \t]*\*[ \t]+Context:/)) {
			line = " * <b>Context:</b>" substr(line, RSTART + RLENGTH)
		}
		first = 0
		if (line ~ /\*\//) indoc = 0
		line = body(line)
		# body() turned "\param x" into "\param x" (no @ left); keep as is
		print line; next
	}
	print
}
