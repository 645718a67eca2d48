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
. "$(dirname "$0")/lib.sh"
n=${1:-10000}
files=${FILES:-500}
runs=${RUNS:-5}
dir=$BENCH_DIR/stack-$n
[ "$files" = 500 ] || dir=$dir-$files
[ "${REPACK:-0}" = 1 ] && dir=$dir-repacked
make_stack "$dir" "$n" "$files"
if [ "${REPACK:-0}" = 1 ] && [ ! -f "$dir.repacked" ]; then
	git -C "$dir" repack -adfq
	touch "$dir.repacked"
fi
best() { best_ms "$runs" "$@"; }

range="v1.0..master"
git -C "$dir" log --reverse --first-parent --numstat --format='@@@%H%x1f%an%x1f%s' "$range" |
	LC_ALL=C awk -f "$here/tests/stack-expect.awk" >"$BENCH_DIR/stack.want"
"$klang" stack --repo "$dir" --base v1.0 --head master --format tsv >"$BENCH_DIR/stack.got"
if cmp -s "$BENCH_DIR/stack.want" "$BENCH_DIR/stack.got"; then
	echo "rows: $(($(wc -l <"$BENCH_DIR/stack.got") - 1)) patches, identical to git log's"
else
	echo "rows DIFFER from git log's:" >&2
	diff "$BENCH_DIR/stack.want" "$BENCH_DIR/stack.got" | head >&2
	rm -f "$BENCH_DIR/stack.want" "$BENCH_DIR/stack.got"
	exit 1
fi
rm -f "$BENCH_DIR/stack.want" "$BENCH_DIR/stack.got"

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
row "stack --format tsv, $n patches, vs git log" "$k ms" "$g ms (git log)" "$ratio" 1
