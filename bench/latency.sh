#!/bin/sh
# Per-key latency of the workbench: a scripted session of KEYS keys (default
# 1000) in the stack view over a stack of 10,000 patches, and in the
# warnings view over ~100,000 places (a row each, the arches of a
# diagnostic merged; from a GCC and a Clang log made of the real fixture
# logs), klang running in a 160x48 tmux terminal. Keys are
# sent one at a time; klang writes how long each took, from reading it to
# the end of the redraw (KLANG_KEYLOG, in microseconds), and the next key
# goes when that line is written. Targets: mean < 5 ms, 99th percentile
# < 16 ms (one frame at 60 Hz), on klang's CPU time per key.
#   bench/latency.sh [KEYS]
set -eu
. "$(dirname "$0")/lib.sh"
keys=${1:-1000}
command -v tmux >/dev/null || { echo "bench: tmux is not installed" >&2; exit 2; }
repo=$BENCH_DIR/stack-10000
make_stack "$repo" 10000 500
make_log "$BENCH_DIR/w-gcc.log" gcc 92 1
make_log "$BENCH_DIR/w-clang.log" clang 28 1
trap tm_stop EXIT INT TERM

lines() { if [ -f "$1" ]; then wc -l <"$1"; else echo 0; fi; }

# key LOG KEY: send one key, wait until klang has logged it
key() {
	_want=$(($(lines "$1") + 1))
	tm_keys "$2"
	_lim=$(($(now_ms) + 30000))
	while [ "$(lines "$1")" -lt "$_want" ]; do
		[ "$(now_ms)" -lt "$_lim" ] || { echo "bench: no redraw after key $2" >&2; exit 1; }
	done
}

# session NAME SETUP_KEYS MOVES...: open klang, type SETUP_KEYS (not
# counted), then KEYS keys cycling through MOVES; prints "mean p99 max n
# cpu-mean cpu-p99" in ms (the keys and their times: $log.keys, $log)
session() {
	name=$1 setup=$2
	shift 2
	log=$BENCH_DIR/keylog-$name
	rm -f "$log" "$log.keys"
	tm_t0=$(now_ms)
	tm_start "cd '$repo' && KLANG_KEYLOG='$log' exec '$klang' --base v1.0 --head master \
		--gcc-log '$BENCH_DIR/w-gcc.log' --clang-log '$BENCH_DIR/w-clang.log'"
	[ "$(tm_wait '^\[stack\].* patch 1 of ')" != timeout ] || { echo "bench: klang did not start" >&2; exit 1; }
	for k in $setup; do
		key "$log" "$k"
	done
	skip=$(lines "$log")
	i=0
	while [ "$i" -lt "$keys" ]; do
		for k in "$@"; do
			[ "$i" -lt "$keys" ] || break
			key "$log" "$k"
			echo "$k" >>"$log.keys"
			i=$((i + 1))
		done
	done
	tm_screen | tail -2 | head -1 | sed 's/  */ /g' >"$log.status"
	tm_stop
	tail -n +$((skip + 1)) "$log" >"$log.keyed"
	echo "$(stats 1 <"$log.keyed") $(stats 2 <"$log.keyed" | cut -d' ' -f1-2)"
}

# stats COLUMN: "mean p99 max n" of a column of microseconds, in ms
stats() {
	cut -d' ' -f"$1" | sort -n | awk '{ v[NR] = $1; s += $1 } END {
		p = int(NR * 0.99 + 0.999); if (p < 1) p = 1
		printf "%.2f %.2f %.2f %d\n", s / NR / 1000, v[p] / 1000, v[NR] / 1000, NR }'
}

# rows NAME WHAT mean p99 max n cpu-mean cpu-p99: the table's rows. klang's
# CPU time per key is what is compared with the targets: on an idle machine
# it is the wall time, and other jobs on a shared one do not change it
# (the wall times are printed above).
rows() {
	row "key latency mean (CPU), $2" "$7 ms" "5 ms (target)" "$(ratio "$7" 5)" 1
	row "key latency p99 (CPU), $1 view" "$8 ms" "16 ms (target)" "$(ratio "$8" 16)" 1
}

moves="j j j NPage j k PPage C-d C-u Down Up G k g l h End Home"
set -- $(session stack "" $moves)
echo "stack view, 10000 patches: $4 keys, mean $1 ms, p99 $2 ms, max $3 ms (CPU: mean $5 ms, p99 $6 ms)"
rows stack "stack view, 10000 patches" "$@"

# w opens the warnings view; s three times shows all sides
set -- $(session warnings "w s s s" $moves s)
echo "warnings view: $4 keys, mean $1 ms, p99 $2 ms, max $3 ms (CPU: mean $5 ms, p99 $6 ms)"
echo "  $(cat "$BENCH_DIR/keylog-warnings.status")"
n=$(sed -n 's/.*: \([0-9]*\) clang-only, \([0-9]*\) gcc-only, \([0-9]*\) both.*/\1 \2 \3/p' \
	"$BENCH_DIR/keylog-warnings.status" | awk '{ print $1 + $2 + $3 }')
rows warnings "warnings view, $n places" "$@"
