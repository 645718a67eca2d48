#!/bin/sh
# Run klang's batch commands under valgrind memcheck: no errors, no definite
# leaks. Builds a small repository with git, then runs each command (good
# input and bad input) and fails if valgrind reports anything.
#   tests/valgrind.sh [KLANG]      (make valgrind)
set -u
KLANG=$(realpath "${1:-./klang}")
SRC=$(cd "$(dirname "$0")/.." && pwd)
# the shared fixtures sit next to the source tree (or next to its worktree)
FIX=${KLANG_FIXTURES:-$SRC/../shared/fixtures}
[ -d "$FIX" ] || FIX=$SRC/../../shared/fixtures
T=$(mktemp -d "${TMPDIR:-/tmp}/klang-valgrind-XXXXXX")
trap 'rm -rf "$T"' EXIT
VG="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
	--show-leak-kinds=definite --track-fds=no --child-silent-after-fork=yes \
	--suppressions=$SRC/tests/valgrind.supp"

# A repository: v1.0 and a stack of tagged patches, one with a Clang trailer.
R=$T/repo
git init -q -b main "$R" && cd "$R" || exit 2
git config user.name klang && git config user.email klang@example.org
printf 'int a;\n' > a.c && git add a.c && git commit -qm "initial" && git tag v1.0
i=0
for s in "UPSTREAM: arm64: one" "HACK: x86: clang workaround" "BACKPORT: FROMLIST: pwm: three" \
	"OBSOLETE: kbuild: four" "ANDROID: ARM: five"; do
	i=$((i + 1))
	printf 'int p%d;\n' $i > p$i.c && git add p$i.c
	git commit -qm "$s" -m "Clang-Fixed: $((i + 4))" -m "Change-Id: I$(printf '%040d' $i)"
done
cd "$T" || exit 2
printf 'name: vg\nrepo: repo\nbase: v1.0\nhead: main\nrules:\n  - subject: "^HACK"\n    until_clang: 9\n' > ps.yaml
printf 'rules:\n  - subject: "("\n' > bad-regex.yaml
printf 'rules: [\n' > bad-syntax.yaml

fail=0
runs=0
# run EXPECTED-STATUS ARGS...: klang under memcheck; 99 is a valgrind error
run() {
	want=$1
	shift
	runs=$((runs + 1))
	$VG "$KLANG" "$@" > "$T/out" 2> "$T/err"
	rc=$?
	if [ $rc -eq 99 ] || grep -q '^==[0-9]*==' "$T/err"; then
		echo "  VALGRIND FAIL  klang $*"
		sed 's/^/    /' "$T/err"
		fail=1
	elif [ $rc -ne "$want" ]; then
		echo "  EXIT $rc (want $want)  klang $*"
		sed 's/^/    /' "$T/err" | head -5
		fail=1
	else
		echo "  ok      klang $*"
	fi
}

run 0 --help
run 0 --version
run 2 no-such-command
run 0 clang-version
run 0 clang-version --all
run 2 clang-version --cc /nonexistent/clang
run 0 stack --repo "$R" --base v1.0 --head main
run 0 stack --repo "$R" --base v1.0 --head main --format tsv
run 0 stack --repo "$R" --base v1.0 --head main --format json --tag hack
run 2 stack --repo "$T/nothing" --base v1.0
run 2 stack --repo "$R" --base v9.9
run 2 stack --repo "$R" --base main --head v1.0
run 0 series --patchset "$T/ps.yaml" --clang 14 --format tsv
run 0 series --patchset "$T/ps.yaml" --clang 5.0 --format json
run 0 series --patchset "$T/ps.yaml" --clang 14 --override 2=keep --override 3=until:6
run 0 series --patchset "$T/ps.yaml" --clang 14 --override 2=clear
run 0 series --patchset "$T/ps.yaml" --clang 14 --apply vg-branch
run 2 series --patchset "$T/ps.yaml" --clang 14 --apply vg-branch
run 0 series --patchset "$T/ps.yaml" --clang 14 --export "$T/mbox" --as mbox
run 0 series --patchset "$T/ps.yaml" --clang 14 --export "$T/quilt" --as quilt
run 2 series --patchset "$T/ps.yaml" --clang 14 --export "$T/mbox" --as mbox
run 2 series --patchset "$T/bad-regex.yaml" --clang 14
run 2 series --patchset "$T/bad-syntax.yaml" --clang 14
run 2 series --patchset "$T/ps.yaml" --clang soon
printf 'overrides:\n  - decision: maybe\n' > "$R/.klang/overrides.yaml"
run 0 series --patchset "$T/ps.yaml" --clang 14 --override 1=drop
# warning triage on the real Linux 6.1 logs
GCC=$FIX/linux-6.1/tinyconfig-W1-gcc-x86.log
CLANG=$FIX/linux-6.1/tinyconfig-W1-clang-x86.log
run 0 diag parse "$CLANG" --format json
run 0 diag parse "$GCC" --format sarif
run 0 diag diff --gcc "$GCC" --clang "$CLANG" --format tsv
run 0 diag diff --old "$GCC" --new "$GCC" --format text
run 0 diag triage --repo "$R" 0123456789abcdef confirmed --note "looked at it"
run 0 diag triage --repo "$R" --list
printf -- '- fingerprint: zz\n' > "$R/.klang/triage.yaml"
run 0 diag parse "$CLANG" --repo "$R" --format quickfix
run 2 diag parse "$T/nothing.log"
run 2 diag parse "$CLANG" --rules "$T/bad-syntax.yaml"
# builds: a tree whose Makefile prints a warning, a toolchain that is missing
mkdir -p "$T/tree"
printf 'defconfig:\n\t@mkdir -p $(O) && echo CONFIG_X=y > $(O)/.config\nall:\n\t@echo "  CC      kernel/a.o"; echo "kernel/a.c:1:2: warning: x [-Wfoo]"\n.DEFAULT_GOAL := all\n' > "$T/tree/Makefile"
run 0 build --repo "$T/tree" --arch x86_64 --toolchain gcc --out "$T/builds" --jobs 2
run 2 build --repo "$T/tree" --arch x86_64 --toolchain clang-99 --out "$T/builds2"
[ $fail -eq 0 ] && echo "valgrind: $runs commands, no errors, no definite leaks"
exit $fail
