#!/bin/sh
# Regenerate the seed corpora in fuzz/corpus/NAME/ from the real fixtures
# (../shared/fixtures: Linux 6.1 build logs, real patches and mboxes;
# tests/fixtures/diag: arm64 logs) and the shipped YAML files, cut into
# small pieces. Run from the source tree after `make`:
#   fuzz/make-seeds.sh [FIXTURES]
# Seeds are named by content (sha1), so rerunning adds nothing twice.
set -eu
FIX=${1:-../shared/fixtures}
[ -d "$FIX" ] || FIX=../../shared/fixtures
KLANG=${KLANG:-./klang}
C=fuzz/corpus
mkdir -p $C

# put NAME FILE...: copy pieces into fuzz/corpus/NAME under content names
put() {
	name=$1
	shift
	mkdir -p $C/$name
	for f in "$@"; do
		[ -s "$f" ] || continue
		sum=$(sha1sum "$f" | cut -c1-16)
		cp "$f" $C/$name/$sum
	done
}
# piece NAME TEXT: one seed from a string
piece() {
	printf '%s' "$2" > $C/.piece
	put "$1" $C/.piece
	rm -f $C/.piece
}
# pieces NAME REGEX FILE...: each file whole, and cut before every line
# matching REGEX (a top-level key, a list entry), one seed a piece
pieces() {
	name=$1 re=$2
	shift 2
	for y in "$@"; do
		put "$name" "$y"
		awk -v out="$tmp/k" -v re="$re" '$0 ~ re { n++ } n { print > (out n ".yaml") }' "$y"
		put "$name" "$tmp"/k*.yaml
		rm -f "$tmp"/k*.yaml
	done
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# clangver: every vendor's --version text, and versions as users write them
for v in "Debian clang version 14.0.6
Target: x86_64-pc-linux-gnu
Thread model: posix
InstalledDir: /usr/bin" \
	"clang version 19.1.7 (https://github.com/llvm/llvm-project cd708029e0b2869e80abe31ddb175f7c35361f90)" \
	"Ubuntu clang version 14.0.0-1ubuntu1" \
	"clang version 5.0.0-3~16.04.1 (tags/RELEASE_500/final)" \
	"Android (4691093 based on r316199) clang version 6.0.2 (https://android.googlesource.com/toolchain/clang 183abd29fc496f55536e7d904e0abae47888fc7f)" \
	"Chromium OS 17.0_pre496208_p20230501-r1 clang version 17.0.0 (/var/tmp/portage/sys-devel/llvm-17.0_pre496208_p20230501-r1/work/llvm-17.0_pre496208_p20230501/clang 98f5a340975bc00197c57e39eb4ca26e2da0e8a2)" \
	"Apple clang version 15.0.0 (clang-1500.1.0.2.5)
Target: arm64-apple-darwin23" \
	"Apple LLVM version 10.0.0 (clang-1000.11.45.5)" \
	"clang version 18.1.8 (Fedora 18.1.8-1.fc40)" \
	"Homebrew clang version 17.0.6" \
	"gcc (Debian 12.2.0-14) 12.2.0" \
	"5" "5.0" "14.0.6" "clang-14" " v6.0 " "14.0.0-1ubuntu1" "99999999999999999999" "5 and 6"; do
	piece clangver "$v"
done
# the compiler lines of the real build logs
for log in "$FIX"/linux-6.1/*.log; do
	grep -m3 -i 'clang version\|gcc' "$log" > "$tmp/cc" || true
	put clangver "$tmp/cc"
done

# tags, message: subjects and whole messages of the real patches
n=0
for p in "$FIX"/patches/*.patch "$FIX"/patches/*.mbox; do
	# every Subject: (mboxes hold many), without [PATCH n/m]
	grep '^Subject:' "$p" | sed 's/^Subject: *//' | while IFS= read -r s; do
		n=$((n + 1))
		printf '%s' "$s" > "$tmp/s$n"
		put tags "$tmp/s$n"
	done
	# messages: From/Subject header to the --- line, one per mail
	awk -v out="$tmp/m" '
		/^From [0-9a-f]+ / { n++ }
		/^---$/ { done[n] = 1 }
		{ if (!done[n]) print > (out n ".txt") }' "$p"
	put message "$tmp"/m*.txt
	rm -f "$tmp"/m*.txt
done
piece tags "FOO,BAR
FOO: BACKPORT: FROMLIST: thing"
piece tags "Revert \"HACK: arm64: x\""
piece tags "ANDROID: ARM: fix"
piece tags "DO-NOT-UPSTREAM: ok"
piece tags "[PATCH v3 07/12] UPSTREAM: usb: x"
piece message "HACK: x86: fix for clang

Fixed in LLVM 5; needed until clang >= 6.0 (clang-14 too).

Clang-Fixed: 5
Clang-Min: 4.0
Change-Id: I0123456789abcdef0123456789abcdef01234567
(cherry picked from commit 0123456789abcdef0123456789abcdef01234567)
Signed-off-by: A <a@example.org>"

# patchset and theme: the shipped files, whole and one top-level key each
pieces patchset '^[a-z_]+:' patchsets/*.yaml
pieces theme '^[a-z_-]+:' themes/*.yaml

# overrides: what klang writes, and what people write by hand
piece overrides "# klang manual overrides
overrides:
  - commit: 0000000000000000000000000000000000000abc
    change_id: \"I1111111111111111111111111111111111111111\"
    subject: \"HACK: arm64: work around clang\"
    decision: drop
  - commit: 0000000000000000000000000000000000000abd
    until_clang: \"6.0\"
"
piece overrides "overrides:
  - change_id: I1111111111111111111111111111111111111111
    decision: keep
"
piece overrides "overrides:
  - decision: maybe
"
piece overrides "overrides: []
"

# diag: the build logs in 60-line pieces (every piece of the x86 logs, every
# 10th of the big arm64 ones), each after one byte that says where the
# target cuts it in two slices
for log in "$FIX"/linux-6.1/*.log tests/fixtures/diag/*.log; do
	rm -f "$tmp"/p*
	split -l 60 -a 3 "$log" "$tmp/p"
	step=1
	case $log in *arm64*) step=10 ;; esac
	i=0
	for piece in "$tmp"/p*; do
		i=$((i + 1))
		[ $((i % step)) -eq 1 ] || [ $step -eq 1 ] || continue
		{ printf '\200'; cat "$piece"; } > "$piece.seed"
		put diag "$piece.seed"
		# sarif: what klang writes as SARIF for the same piece
		if [ $((i % 4)) -eq 1 ] && "$KLANG" diag parse "$piece" --format sarif > "$piece.sarif" 2>/dev/null; then
			put sarif "$piece.sarif"
		fi
	done
done
rm -f "$tmp"/p*
# Kconfig's warnings, which the fixture logs do not hold
piece diag "$(printf '\200.config:1309:warning: override: UNWINDER_GUESS changes choice state\n/src/linux/kernel/configs/tiny.config:5:warning: override: reassigning to symbol CC_OPTIMIZE_FOR_SIZE\nWARNING: unmet direct dependencies detected for SND_X\n  Depends on [n]: SOUND [=n]\n  Selected by [y]:\n  - SND_Y [=y]\n/src/linux/arch/x86/Kconfig:12:error: recursive dependency detected!\n')"
# GCC's own JSON, from a real compile when gcc is here
printf '#define MAX(a, b) ((a) > (b) ? (a) : (b))\nint printf(const char *, ...);\nint f(unsigned x, int *p)\n{\n\tint y;\n\tif (x < 0)\n\t\treturn MAX(y, 1);\n\tprintf("%%d", (long)x);\n\treturn *p ? x : 2;\n}\n' > "$tmp/w.c"
if gcc -c -Wall -Wextra -fdiagnostics-format=json "$tmp/w.c" -o /dev/null 2> "$tmp/gcc.json"; then
	put sarif "$tmp/gcc.json"
fi

# rules: the shipped group rules and families, whole and one entry each
pieces rules '^- ' rules/*.yaml

# triage: what klang writes
piece triage "# klang warning triage
- fingerprint: 0123456789abcdef
  status: false-positive
  file: \"include/linux/sunrpc/xdr.h\"
  flag: \"-Wtautological-constant-out-of-range-compare\"
  message: \"result of comparison of constant # with expression of type '__u32' is always false\"
  note: \"SIZE_MAX / 4 on 64-bit: \\\"always\\\" false\"
- fingerprint: 00000000000000aa
  status: confirmed
"
piece triage "- fingerprint: 00000000000000aa
  status: maybe
"
piece triage "[]
"

# mbox, quilt: every real patch file, and each mail of the mboxes on its own
for p in tests/fixtures/patches/*.patch tests/fixtures/patches/*.mbox \
	tests/fixtures/patches/quilt/*.patch tests/fixtures/patches/quilt/*.diff; do
	[ -f "$p" ] || continue
	put mbox "$p"
	rm -f "$tmp"/mail*
	awk -v out="$tmp/mail" '/^From [^ ]+ [A-Z][a-z][a-z] / { n++ } { print > (out n) }' "$p"
	[ "$(ls "$tmp"/mail* 2>/dev/null | wc -l)" -gt 1 ] && put mbox "$tmp"/mail*
done
rm -f "$tmp"/mail*
put quilt tests/fixtures/patches/quilt/series \
	tests/fixtures/patches/quilt/0001-HACK-ARM-CURRENT_POINTER_IN_TPIDRURO-clang-14.patch \
	tests/fixtures/patches/cbl-ci2__mainline.mbox
piece quilt "# comment
-p1 first.patch
second.patch -p0

third.patch -R
fourth.patch -pX
"

# config: what people write, and klang's own dump
piece config "# mine
theme: projector
editor: nvim
jobs: 12
arches: [arm64, riscv]
toolchains: llvm, gcc
wrapper: ccache
bindings:
  quit: Q
  stack-next: [j, <Down>]
"
piece config "theme: mono
config: allmodconfig
bindings:
  quit: [q, C-c]
  copy-id: none
"
piece config "theme: x

colour: red
"
piece config "arches: [arm64, 'x 86']
"
