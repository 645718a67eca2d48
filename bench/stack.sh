#!/bin/sh
# Benchmark of `klang stack --format tsv` against the git command it stands
# for, `git log --reverse --first-parent --numstat base..head`, on a stack
# of N patches made by git fast-import (bench/stack-gen.awk). Checks first
# that klang prints the rows git's output implies (tests/stack-expect.awk).
#   bench/stack.sh [N]        N patches (default 10000)
#   FILES=20000 bench/stack.sh   a bigger tree under the stack (default 500)
#   REPACK=1 bench/stack.sh   repack as git gc would (newest objects whole)
#   RUNS=5 KLANG=./klang      best of RUNS runs of each command
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
n=${1:-10000}
files=${FILES:-500}
runs=${RUNS:-5}
klang=${KLANG:-$here/klang}
dir=$(mktemp -d "${TMPDIR:-/tmp}/klang-bench-XXXXXX")
trap 'rm -rf "$dir"' EXIT INT TERM

git init -q "$dir"
LC_ALL=C awk -v n="$n" -v files="$files" -f "$here/bench/stack-gen.awk" |
	git -C "$dir" fast-import --quiet
[ "${REPACK:-0}" = 1 ] && git -C "$dir" repack -adfq

# Best wall time of a command, in milliseconds.
best() {
	b=
	for _ in $(seq "$runs"); do
		s=$(date +%s%N)
		"$@" >/dev/null
		e=$(date +%s%N)
		t=$(((e - s) / 1000000))
		if [ -z "$b" ] || [ "$t" -lt "$b" ]; then b=$t; fi
	done
	echo "$b"
}

range="v1.0..master"
git -C "$dir" log --reverse --first-parent --numstat --format='@@@%H%x1f%an%x1f%s' "$range" |
	LC_ALL=C awk -f "$here/tests/stack-expect.awk" >"$dir.want"
"$klang" stack --repo "$dir" --base v1.0 --head master --format tsv >"$dir.got"
if cmp -s "$dir.want" "$dir.got"; then
	echo "rows: $(($(wc -l <"$dir.got") - 1)) patches, identical to git log's"
else
	echo "rows DIFFER from git log's:" >&2
	diff "$dir.want" "$dir.got" | head >&2
	rm -f "$dir.want" "$dir.got"
	exit 1
fi
rm -f "$dir.want" "$dir.got"

g=$(best git -C "$dir" log --reverse --first-parent --numstat "$range")
k=$(best "$klang" stack --repo "$dir" --base v1.0 --head master --format tsv)
k1=$(best taskset -c 0 "$klang" stack --repo "$dir" --base v1.0 --head master --format tsv 2>/dev/null ||
	echo "")
d=$(best "$klang" stack --repo "$dir" --head master --format tsv)
t=$(best "$klang" stack --repo "$dir" --base v1.0 --head master --format text)
ratio=$(awk -v k="$k" -v g="$g" 'BEGIN { printf "%.2f", k / g }')
echo "patches: $n, files in the tree: $files, repacked: ${REPACK:-0}, cpus: $(nproc), best of $runs"
echo "git log --reverse --first-parent --numstat: $g ms"
echo "klang stack --format tsv:                   $k ms (ratio klang/git: $ratio)"
[ -n "$k1" ] && echo "klang stack --format tsv on one cpu:        $k1 ms"
echo "klang stack --format tsv, default base:     $d ms"
echo "klang stack (text, no statistics):          $t ms"
