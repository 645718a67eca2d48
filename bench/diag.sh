#!/bin/sh
# Benchmark of klang diag on a ~200 MB build log made from the real fixture
# logs (Linux 6.1, gcc 12 and clang 14, x86_64 and arm64), each copy with
# its paths and line numbers varied so the diagnostics stay distinct.
#   bench/diag.sh [SIZE_MB]        (default 200; needs ./klang, perl)
#   VARY=0 bench/diag.sh           plain copies: every warning repeats
# Compares `klang diag parse --format tsv` with `grep -c ': warning:'` on the
# same file (target <= 1.5; bench/floor.c, the least a parser does for such
# a table, is timed beside them), `klang diag diff` of a GCC and a Clang log
# with one parse (<= 2), and the peak memory of a parse of the log of
# repeats with that of the distinct one (memory grows with distinct
# diagnostics, not with the log: <= 0.25).
set -eu
. "$(dirname "$0")/lib.sh"
size=${1:-200}
vary=${VARY:-1}
runs=${RUNS:-3}
gcc=$BENCH_DIR/gcc-$size-$vary.log
clang=$BENCH_DIR/clang-$size-$vary.log
same=$BENCH_DIR/gcc-$size-0.log
make_log "$gcc" gcc "$size" "$vary"
make_log "$clang" clang "$size" "$vary"
make_log "$same" gcc "$size" 0
# the same log with no diagnostic in it (": warning:" and ": note:"
# renamed): what reading and splitting the log costs klang, against grep
bare=$BENCH_DIR/gcc-$size-$vary-bare.log
if [ ! -f "$bare" ]; then
	sed 's/: warning:/: w_rning:/; s/: note:/: n_te:/' "$gcc" >"$bare.tmp"
	mv "$bare.tmp" "$bare"
fi
cat "$gcc" "$clang" "$same" "$bare" >/dev/null # page cache

peak_kb() { /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1; }

# side by side, alternating, best of RUNS each. Parse and grep are both
# single-threaded: their CPU time (user + system) is compared, which is the
# wall time on an idle machine and stays so on a shared one. diff reads its
# two logs in parallel: its wall time is compared with a parse's. klang
# writes to /dev/null, as the issue has it; grep -c to a file (see best_ms).
g=$(best_cpu_ms "$runs" grep -c ': warning:' "$gcc")
BENCH_OUT=/dev/null
p=$(best_cpu_ms "$runs" "$klang" diag parse "$gcc" --format tsv)
unset BENCH_OUT
g2=$(best_cpu_ms "$runs" grep -c ': warning:' "$gcc")
[ "$g2" -lt "$g" ] && g=$g2
BENCH_OUT=/dev/null
pw=$(best_ms "$runs" "$klang" diag parse "$gcc" --format tsv)
d=$(best_ms "$runs" "$klang" diag diff --gcc "$gcc" --clang "$clang" --format tsv)
pw2=$(best_ms "$runs" "$klang" diag parse "$gcc" --format tsv)
pb=$(best_cpu_ms "$runs" "$klang" diag parse "$bare" --format tsv)
# the floor: the least a parser of the log does for the same table
# (bench/floor.c), to see what is within reach of grep's time at all
floor=$BENCH_DIR/floor
cc -std=c11 -O2 -o "$floor" "$here/bench/floor.c"
pf=$(best_cpu_ms "$runs" "$floor" "$gcc")
unset BENCH_OUT
[ "$pw2" -lt "$pw" ] && pw=$pw2
rows=$(($("$klang" diag parse "$gcc" --format tsv | wc -l) - 1))
rows_same=$(($("$klang" diag parse "$same" --format tsv | wc -l) - 1))
mem=$(peak_kb "$klang" diag parse "$gcc" --format tsv)
mem_same=$(peak_kb "$klang" diag parse "$same" --format tsv)
mb=$(($(stat -c %s "$gcc") / 1000000))

echo "log: $mb MB, $(grep -c ': warning:' "$gcc") warnings, $rows distinct diagnostics"
echo "grep -c ': warning:'  $g ms CPU"
echo "klang diag parse      $p ms CPU, $pw ms wall, peak $((mem / 1024)) MB"
echo "klang diag diff       $d ms wall (GCC and Clang logs of $mb MB)"
echo "klang diag parse      $pb ms CPU on the same log with no diagnostic in it: reading and"
echo "                      splitting the log; the rest of the parse is the work on each diagnostic"
echo "floor (bench/floor.c) $pf ms CPU ($(ratio "$pf" "$g") x grep -c): only finds the warning lines, splits them,"
echo "                      counts, sorts and prints them; no notes (macro sites), paths, families or groups"
echo "log of repeats:       $rows_same distinct diagnostics, peak $((mem_same / 1024)) MB"
row "diag parse, $mb MB log, vs grep -c (CPU)" "$p ms" "$g ms (grep -c)" "$(ratio "$p" "$g")" 1.5
row "diag diff of two $mb MB logs, vs one parse" "$d ms" "$pw ms (parse)" "$(ratio "$d" "$pw")" 2
row "parse peak memory: $rows_same vs $rows distinct" "$((mem_same / 1024)) MB" "$((mem / 1024)) MB (distinct)" \
	"$(ratio "$mem_same" "$mem")" 0.25
