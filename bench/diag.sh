#!/bin/sh
# Benchmark of klang diag on a ~200 MB build log made from the real fixture
# logs (Linux 6.1, gcc 12 and clang 14, x86_64 and arm64), each copy with
# its paths and line numbers varied so the diagnostics stay distinct.
#   bench/diag.sh [SIZE_MB]        (default 200; needs ./klang, perl)
#   VARY=0 bench/diag.sh           plain copies: every warning repeats
# Prints the times of `klang diag parse --format tsv` against
# `grep -c ': warning:'` on the same file, and of `klang diag diff` of two
# such logs against one parse, and their ratios (targets: <= 1.5 and <= 2).
set -eu
cd "$(dirname "$0")/.."
size=${1:-200}
vary=${VARY:-1}
klang=${KLANG:-./klang}
tmp=${TMPDIR:-/tmp}/klang-bench-diag-$vary
mkdir -p "$tmp"
fx=../shared/fixtures/linux-6.1
[ -d "$fx" ] || fx=../../shared/fixtures/linux-6.1   # from a git worktree
logs="$fx/tinyconfig-W1-gcc-x86.log $fx/tinyconfig-W1-clang-x86.log"
for f in tests/fixtures/diag/tinyconfig-W1-gcc-arm64.log tests/fixtures/diag/tinyconfig-W1-clang-arm64.log; do
	[ -f "$f" ] && logs="$logs $f"
done

# make LOG OUT COMPILER: copies of the fixture logs of one compiler until SIZE MB
make_log() {
	out=$1 cc=$2
	[ -s "$out" ] && [ "$(stat -c %s "$out")" -ge $((size * 1000000)) ] && return
	src=$(for f in $logs; do case $f in *-$cc-*) echo "$f";; esac; done)
	perl -e '
		my ($size, $vary, @files) = @ARGV;
		my @text = map { local $/; open my $f, "<", $_ or die "$_: $!"; scalar <$f> } @files;
		my ($n, $i) = (0, 0);
		while ($n < $size * 1000000) {
			for my $t (@text) {
				my $c = $t;
				if ($vary) {
					# another directory level and shifted lines per copy
					my $dir = "v" . ($i % 40);
					my $off = ($i * 7) % 300;
					$c =~ s{(linux-(?:source-)?6\.1/)(arch|kernel|fs|mm|lib|init|drivers|include)/}{$1$2/$dir/}g;
					$c =~ s{(\.[chS]):(\d+)([:,])}{$1 . ":" . ($2 + $off) . $3}ge;
				}
				print $c;
				$n += length $c;
				$i++;
			}
		}' "$size" "$vary" $src > "$out"
}

now() { date +%s.%N; }
# best of 3 wall-clock runs of a command, output to a file (grep stops at
# the first match when its output is /dev/null)
best() {
	b=
	for r in 1 2 3; do
		t0=$(now)
		"$@" > "$tmp/out"
		t1=$(now)
		t=$(echo "$t1 - $t0" | bc -l)
		if [ -z "$b" ] || [ "$(echo "$t < $b" | bc -l)" = 1 ]; then b=$t; fi
	done
	echo "$b"
}

make_log "$tmp/gcc.log" gcc
make_log "$tmp/clang.log" clang
ls -l "$tmp/gcc.log" "$tmp/clang.log" | awk '{ printf "%s: %.0f MB\n", $NF, $5 / 1e6 }'
cat "$tmp/gcc.log" > /dev/null; cat "$tmp/clang.log" > /dev/null   # page cache

grep_t=$(best grep -c ': warning:' "$tmp/gcc.log")
parse_t=$(best "$klang" diag parse "$tmp/gcc.log" --format tsv)
diff_t=$(best "$klang" diag diff --gcc "$tmp/gcc.log" --clang "$tmp/clang.log" --format tsv)
mem=$( { /usr/bin/time -f %M "$klang" diag parse "$tmp/gcc.log" --format tsv > /dev/null; } 2>&1 | tail -1)
rows=$("$klang" diag parse "$tmp/gcc.log" --format tsv | wc -l)

printf 'grep -c        %6.3f s\n' "$grep_t"
printf 'diag parse     %6.3f s  (%d distinct diagnostics, peak %d KB)\n' "$parse_t" $((rows - 1)) "$mem"
printf 'diag diff      %6.3f s\n' "$diff_t"
printf 'parse / grep   %6.2f  (target <= 1.5)\n' "$(echo "$parse_t / $grep_t" | bc -l)"
printf 'diff / parse   %6.2f  (target <= 2)\n' "$(echo "$diff_t / $parse_t" | bc -l)"
