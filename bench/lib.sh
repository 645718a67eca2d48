# Shared by the bench/*.sh scripts (sourced, POSIX sh): timing, the result
# table, the generated inputs (build logs, a patch stack) and driving a
# program in a tmux terminal. Inputs are kept in $BENCH_DIR between runs.
here=$(cd "$(dirname "$0")/.." && pwd)
klang=${KLANG:-$here/klang}
BENCH_DIR=${BENCH_DIR:-${TMPDIR:-/tmp}/klang-bench-inputs}
mkdir -p "$BENCH_DIR"
# the rows of the final table: name|klang|reference|ratio|target|max
BENCH_TABLE=${BENCH_TABLE:-$BENCH_DIR/table}

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# best_ms RUNS CMD...: the best wall time of RUNS runs, in ms. Output goes
# to $BENCH_OUT, by default a file: grep -c stops at the first match when
# its output is /dev/null, and is timed writing to a file.
best_ms() {
	_runs=$1
	shift
	_b=
	for _ in $(seq "$_runs"); do
		_s=$(date +%s%N)
		"$@" >"${BENCH_OUT:-$BENCH_DIR/out}"
		_e=$(date +%s%N)
		_t=$(((_e - _s) / 1000000))
		if [ -z "$_b" ] || [ "$_t" -lt "$_b" ]; then _b=$_t; fi
	done
	echo "$_b"
}

# best_cpu_ms RUNS CMD...: the best user + system CPU time of RUNS runs, in
# ms: for single-threaded commands the wall time of an idle machine, and
# still that on a machine other jobs share
best_cpu_ms() {
	_runs=$1
	shift
	_b=
	for _ in $(seq "$_runs"); do
		_t=$( { /usr/bin/time -f '%U %S' "$@" >"${BENCH_OUT:-$BENCH_DIR/out}"; } 2>&1 | tail -1 |
			awk '{ printf "%d", ($1 + $2) * 1000 }')
		if [ -z "$_b" ] || [ "$_t" -lt "$_b" ]; then _b=$_t; fi
	done
	echo "$_b"
}

# row NAME KLANG REFERENCE RATIO MAX: one line of the table; RATIO must be
# at most MAX for PASS. KLANG and REFERENCE are text (with their units).
row() {
	printf '%s|%s|%s|%s|%s\n' "$1" "$2" "$3" "$4" "$5" >>"$BENCH_TABLE"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b ? a / b : 0 }'; }

print_table() {
	awk -F'|' '
		BEGIN { printf "%-44s %-12s %-24s %7s %8s  %s\n", "benchmark", "klang", "reference", "ratio", "target", "result" }
		{ printf "%-44s %-12s %-24s %7s %8s  %s\n", $1, $2, $3, $4, "<= " $5, $4 + 0 <= $5 + 0 ? "PASS" : "MISS" }' "$BENCH_TABLE"
}

# make_log OUT CC SIZE_MB VARY: copies of the real fixture logs of one
# compiler (Linux 6.1, gcc 12 / clang 14, x86_64 and arm64) until SIZE MB;
# with VARY=1 each copy has another directory level and shifted line
# numbers, so the diagnostics stay distinct.
make_log() {
	_out=$1 _cc=$2 _size=$3 _vary=$4
	[ -s "$_out" ] && [ "$(stat -c %s "$_out")" -ge $((_size * 1000000)) ] && return
	_fx=$here/../shared/fixtures/linux-6.1
	[ -d "$_fx" ] || _fx=$here/../../shared/fixtures/linux-6.1 # from a git worktree
	_src=
	for _f in "$_fx/tinyconfig-W1-$_cc-x86.log" "$here/tests/fixtures/diag/tinyconfig-W1-$_cc-arm64.log"; do
		[ -f "$_f" ] && _src="$_src $_f"
	done
	[ -n "$_src" ] || { echo "bench: no $_cc fixture logs" >&2; exit 2; }
	# shellcheck disable=SC2086
	perl -e '
		my ($size, $vary, @files) = @ARGV;
		my @text = map { local $/; open my $f, "<", $_ or die "$_: $!"; scalar <$f> } @files;
		my ($n, $i) = (0, 0);
		while ($n < $size * 1000000) {
			for my $t (@text) {
				my $c = $t;
				if ($vary) {
					my $dir = "v" . ($i % 40);
					my $off = ($i * 7) % 300;
					$c =~ s{(linux-(?:source-)?6\.1/)(arch|kernel|fs|mm|lib|init|drivers|include)/}{$1$2/$dir/}g;
					$c =~ s{(\.[chS]):(\d+)([:,])}{$1 . ":" . ($2 + $off) . $3}ge;
				}
				print $c;
				$n += length $c;
				$i++;
			}
		}' "$_size" "$_vary" $_src >"$_out.tmp"
	mv "$_out.tmp" "$_out"
}

# make_stack DIR N FILES: a repository with a base (tag v1.0) of FILES files
# and N patches on master (bench/stack-gen.awk), checked out.
make_stack() {
	_dir=$1 _n=$2 _files=$3
	[ -f "$_dir.done-$_n-$_files" ] && return
	rm -rf "$_dir" "$_dir".done-*
	git init -q "$_dir"
	LC_ALL=C awk -v n="$_n" -v files="$_files" -f "$here/bench/stack-gen.awk" |
		git -C "$_dir" fast-import --quiet
	git -C "$_dir" checkout -q -f master
	touch "$_dir.done-$_n-$_files"
}

# A private tmux server (killed by tm_stop) with one 160x48 terminal; each
# on a new socket (a server being killed may still hold the last one)
TM="tmux -L klang-bench-$$ -f /dev/null"
tm_start() {
	TM="tmux -L klang-bench-$$-$(date +%s%N) -f /dev/null"
	$TM new-session -d -x 160 -y 48 -s b "$1"
}
tm_stop() { $TM kill-server 2>/dev/null || true; }
tm_screen() { $TM capture-pane -p -t b 2>/dev/null; }
tm_keys() { $TM send-keys -t b "$@"; }
# tm_wait REGEX [TIMEOUT_MS]: poll the screen until a line matches; prints
# the ms since $tm_t0 (or "timeout")
tm_wait() {
	_lim=$(($(now_ms) + ${2:-60000}))
	while [ "$(now_ms)" -lt "$_lim" ]; do
		if tm_screen | grep -Eq "$1"; then
			echo $(($(now_ms) - tm_t0))
			return
		fi
	done
	echo timeout
}
