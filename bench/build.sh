#!/bin/sh
# Benchmark of klang build: klang's own CPU time against the builds' CPU time,
# and two builds sharing one jobserver against the same two one after the other.
#
#   bench/build.sh [TREE] [CONFIG] [JOBS] [TOOLCHAIN]
#
# TREE defaults to the demo tree (patchsets/demo/tree), CONFIG to defconfig,
# JOBS to the number of CPUs, TOOLCHAIN to gcc. BENCH_WARMUP=0 skips the
# warm-up build (for a real kernel, where one round takes minutes);
# BENCH_RUNS rounds are timed, the best kept (3 on the demo tree, 1 on a
# real kernel). Builds go to a temporary
# directory that is removed afterwards; the tree is never written to.
set -eu
. "$(dirname "$0")/lib.sh"
tree=${1:-$here/patchsets/demo/tree}
config=${2:-defconfig}
jobs=${3:-$(nproc)}
tc=${4:-gcc}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/klang-bench-XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

[ -x "$klang" ] || { echo "bench: $klang not built (make)" >&2; exit 2; }

now() { date +%s.%N; }

# run NAME ARCHES: one klang build, prints wall seconds; keeps its output
run() {
	name=$1 arches=$2
	rm -rf "$tmp/$name"
	t0=$(now)
	"$klang" build --repo "$tree" --arch "$arches" --toolchain "$tc" --config "$config" \
		--jobs "$jobs" --out "$tmp/$name" --records "$tmp/records" >"$tmp/$name.out" 2>&1 ||
		{ echo "bench: klang build failed, see:" >&2; cat "$tmp/$name.out" >&2; exit 1; }
	t1=$(now)
	echo "$t0 $t1" | awk '{ printf "%.1f", $2 - $1 }'
}

echo "tree $tree, config $config, toolchain $tc, $jobs jobs"

# a warm-up so the page cache is the same for everyone (BENCH_WARMUP=0: skip)
[ "${BENCH_WARMUP:-1}" = 0 ] || run warmup arm64,x86_64 >/dev/null

# best of RUNS rounds (default 3 on the demo tree, where a build takes a
# second, 1 on a real kernel); the order alternates from round to round so
# a warm cache or a busier machine can be told apart from the jobserver
runs=${BENCH_RUNS:-3}
[ "$tree" = "$here/patchsets/demo/tree" ] || runs=${BENCH_RUNS:-1}
load0=$(cut -d' ' -f1-3 /proc/loadavg)
min() { awk -v a="$1" -v b="$2" 'BEGIN { print (a == "" || b + 0 < a + 0) ? b : a }'; }
par= a= b= cpu_k=0 cpu_b=0
for i in $(seq "$runs"); do
	if [ $((i % 2)) = 0 ]; then p=$(run parallel arm64,x86_64); fi
	a=$(min "$a" "$(run seq-arm64 arm64)")
	b=$(min "$b" "$(run seq-x86_64 x86_64)")
	if [ $((i % 2)) = 1 ]; then p=$(run parallel arm64,x86_64); fi
	par=$(min "$par" "$p")
	# klang's CPU and the builds' over every parallel round
	set -- $(sed -n 's/^cpu: klang \([0-9.]*\)s, builds \([0-9.]*\)s$/\1 \2/p' "$tmp/parallel.out")
	cpu_k=$(echo "$cpu_k $1" | awk '{ print $1 + $2 }')
	cpu_b=$(echo "$cpu_b $2" | awk '{ print $1 + $2 }')
done
cpu="$cpu_k $cpu_b"
seq=$(echo "$a $b" | awk '{ printf "%.1f", $1 + $2 }')
echo "load average before: $load0, after: $(cut -d' ' -f1-3 /proc/loadavg)"

echo "$cpu" | awk -v r="$runs" '{ printf "klang CPU %.2fs for %.1fs of build CPU (%.3f%%), over %d round(s)\n", $1, $2, 100 * $1 / ($2 ? $2 : 1), r }'
echo "two builds on one jobserver: ${par}s wall (best of $runs)"
echo "the same two in sequence:    ${seq}s wall (arm64 ${a}s + x86_64 ${b}s, best of $runs each)"
echo "$par $seq" | awk '{ printf "speed-up: %.2fx\n", $2 / ($1 ? $1 : 1) }'
set -- $cpu
name=$(basename "$tree")
[ "$tree" = "$here/patchsets/demo/tree" ] && name="demo tree"
row "klang CPU / build CPU, $config, $name" "${1}s" "${2}s (builds)" \
	"$(awk -v k="$1" -v b="$2" 'BEGIN { printf "%.4f", b ? k / b : 1 }')" 0.01
row "2 builds on one jobserver vs in sequence" "${par}s" "${seq}s (sequence)" "$(ratio "$par" "$seq")" 1
