#!/bin/sh
# Time to the first screen and until the whole stack is loaded, klang's
# workbench against `tig base..head`, both started the same way in a 160x48
# tmux terminal on the same repository of N patches, the screen polled
# with capture-pane from the moment the command is started:
#   first screen  klang: its status line names the patch under the cursor;
#                 tig: its status line names the first commit
#   all counted   klang: the summary line counts every patch;
#                 tig: its status line counts every commit of the range
#   bench/screen.sh [N]      (default 10000; RUNS=5, median of RUNS)
set -eu
. "$(dirname "$0")/lib.sh"
n=${1:-10000}
runs=${RUNS:-5}
command -v tig >/dev/null || { echo "bench: tig is not installed (apt-get install tig)" >&2; exit 2; }
command -v tmux >/dev/null || { echo "bench: tmux is not installed" >&2; exit 2; }
repo=$BENCH_DIR/stack-$n
make_stack "$repo" "$n" 500
total=$(git -C "$repo" rev-list --count v1.0..master)
trap tm_stop EXIT INT TERM

# measure CMD FIRST_RE DONE_RE: "first done" in ms
measure() {
	tm_t0=$(now_ms)
	tm_start "cd '$repo' && exec $1"
	f=$(tm_wait "$2")
	d=$(tm_wait "$3")
	tm_stop
	echo "$f $d"
}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

: >"$BENCH_DIR/screen"
for _ in $(seq "$runs"); do
	# alternate, so neither gets a warmer cache or a quieter machine
	k=$(measure "'$klang' --base v1.0 --head master" '^\[stack\].* patch 1 of ' "^$n patches ")
	t=$(measure "tig v1.0..master" '^\[main\] [0-9a-f]{40} - commit 1 of ' "^\\[main\\].* of $total ")
	echo "$k $t" >>"$BENCH_DIR/screen"
done
if grep -q timeout "$BENCH_DIR/screen"; then
	echo "bench: a screen never showed up:" >&2
	cat "$BENCH_DIR/screen" >&2
	exit 1
fi
kf=$(cut -d' ' -f1 "$BENCH_DIR/screen" | median)
kd=$(cut -d' ' -f2 "$BENCH_DIR/screen" | median)
tf=$(cut -d' ' -f3 "$BENCH_DIR/screen" | median)
td=$(cut -d' ' -f4 "$BENCH_DIR/screen" | median)
echo "first screen: klang ${kf} ms, tig ${tf} ms; all $n counted: klang ${kd} ms, tig ${td} ms ($total commits; median of $runs)"
row "first screen, $n patches, vs tig" "$kf ms" "$tf ms (tig)" "$(ratio "$kf" "$tf")" 1
row "all $n patches counted, vs tig" "$kd ms" "$td ms (tig)" "$(ratio "$kd" "$td")" 1
