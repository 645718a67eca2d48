#!/bin/sh
# Regenerate the KEYS table of the man page from the TUI's action list, so
# the two cannot drift:  ./klang --dump-keys | doc/keys2man.sh - doc/klang.1
# Input: one action a line, tab-separated: scope title, keys (space-separated,
# "<Space>(patch)" for a binding in another view), action name, help text, in
# the order the help view lists them. The man page is rewritten in place
# between its KEYS-BEGIN and KEYS-END markers.
set -eu
[ $# -eq 2 ] || { echo "usage: $0 KEYS.tsv|- MANPAGE" >&2; exit 2; }
keys=$1 man=$2
tmp="$man.tmp.$$"
trap 'rm -f "$tmp"' EXIT
awk -F '\t' '
function roff(s) {
	gsub(/\\/, "\\e", s)
	gsub(/-/, "\\-", s)
	gsub(/"/, "\\(dq", s)
	return s
}
FNR == NR {
	if (NF < 4) { printf "%s:%d: expected 4 tab-separated fields\n", FILENAME, FNR > "/dev/stderr"; bad = 1; exit 2 }
	if ($1 != scope) { table = table ".SS " $1 "\n"; scope = $1 }
	k = $2; gsub(/ /, "  ", k)
	table = table ".TP\n.B \"" roff(k) "\"\n" roff($4) "\n.RI [ " roff($3) " ]\n"
	n++
	next
}
/^\.\\" KEYS-BEGIN/ { print; printf "%s", table; skip = 1; found = 1; next }
/^\.\\" KEYS-END/ { skip = 0 }
!skip { print }
END {
	if (bad) exit 2
	if (!found) { print "no KEYS-BEGIN marker in the man page" > "/dev/stderr"; exit 2 }
	if (!n) { print "no keys read" > "/dev/stderr"; exit 2 }
}' "$keys" "$man" > "$tmp"
mv "$tmp" "$man"
trap - EXIT
