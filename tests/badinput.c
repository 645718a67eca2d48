/* The bad-input table's rows (see tests/badinput.h). Keep doc/bad-inputs.md
 * in step: the badinput suite checks every row is there as written here. */
#include "tests/badinput.h"

#include "core/util.h"

#define SERIES "klang series --repo r --base v1.0 --clang 14"
#define PATCH1 "0001-HACK-arm64-work-around-clang.patch"

const struct badinput_row badinput_rows[] = {
    /* repositories and ranges */
    {"missing repository", NULL, "klang stack --repo missing", 2,
     "klang: not a git repository: missing"},
    {"a directory that is not a repository", "mkdir -p plain", "klang stack --repo plain", 2,
     "klang: not a git repository: /path/to/plain"},
    {"build logs given to the workbench outside a repository", NULL,
     "klang --gcc-log g.log --clang-log c.log", 2,
     "klang: not a git repository: /path/to\n"
     "klang: to compare the logs without a repository: klang diag diff --gcc g.log --clang "
     "c.log"},
    {"missing base ref", NULL, "klang stack --repo r --base v9.9", 2,
     "klang: base 'v9.9' not found in /path/to/r"},
    {"missing head ref", NULL, SERIES " --head nope", 2,
     "klang: series: head 'nope' not found in /path/to/r"},
    {"base not an ancestor of head", NULL, "klang stack --repo r --base side --head main", 2,
     "klang: base 'side' is not an ancestor of head 'main'"},
    {"empty range", NULL, "klang stack --repo r --base main --head main", 0,
     "klang: stack: no patches in main..main"},
    {"dirty work tree on apply (left as it is)", "echo dirt >> r/a.c",
     SERIES " --apply fresh --format tsv", 0, "created branch fresh at <id>: base v1.0 + 2 patches",
     "cd r && git status --porcelain | grep -qx ' M a.c' && "
     "git diff | grep -qx '+dirt' && test $(git symbolic-ref HEAD) = refs/heads/main"},
    {"dirty work tree on demo reuse (changes kept)",
     "rm -rf dm && klang demo dm --no-tui > /dev/null 2>&1 && echo dirt >> dm/Makefile",
     "klang demo dm --no-tui > /dev/null", 0,
     "klang demo: reusing /path/to/dm (23 patches on v6.1-demo, branch llvm_v6.1-demo)\n"
     "your changes, kept:\n"
     "  modified  Makefile",
     "tail -n 1 dm/Makefile | grep -qx dirt"},
    {"demo into a directory that is not a demo", "mkdir -p notdemo && echo mine > notdemo/x",
     "klang demo notdemo --no-tui", 2,
     "klang: demo: notdemo exists and is not a klang demo workspace: give another DIR",
     "test \"$(ls notdemo)\" = x"},
    {"existing branch on apply", NULL, SERIES " --apply exists --format tsv", 2,
     "klang: series: branch 'exists' exists; klang will not overwrite it "
     "(--force replaces a branch klang created)",
     "cd r && test $(git rev-parse exists^) = $(git rev-parse v1.0)"},
    {"a branch name that is not one on apply", NULL, SERIES " --apply HEAD", 2,
     "klang: series: 'HEAD' is not a valid branch name",
     "cd r && ! git show-ref --verify -q refs/heads/HEAD"},

    /* YAML: patchsets */
    {"YAML syntax error", "printf 'rules: [\\n' > syntax.yaml",
     "klang series --patchset syntax.yaml --clang 14", 2,
     "klang: syntax.yaml:2:1: did not find expected node content while parsing a flow node"},
    {"YAML semantic error: unknown key", "printf 'name: x\\ncolour: red\\n' > key.yaml",
     "klang series --patchset key.yaml --clang 14", 2,
     "klang: key.yaml:2:1: unknown key 'colour' (name, description, repo, base, head, fetch, "
     "tags, rules)"},
    {"YAML semantic error: not a version",
     "printf 'rules:\\n  - subject: x\\n    until_clang: soon\\n' > version.yaml",
     "klang series --patchset version.yaml --clang 14", 2,
     "klang: version.yaml:3:18: 'until_clang' must be a Clang version such as 5, 5.0 or 14.0.6"},
    {"YAML semantic error: a key given twice", "printf 'rules: []\\nrules: []\\n' > twice.yaml",
     "klang series --patchset twice.yaml --clang 14", 2,
     "klang: twice.yaml:2:1: duplicate key 'rules'"},
    {"invalid regex", "printf 'rules:\\n  - subject: \"(\"\\n    drop: true\\n' > regex.yaml",
     "klang series --patchset regex.yaml --clang 14", 2,
     "klang: regex.yaml:2:5: subject '(': missing closing parenthesis at offset 1"},
    {"unknown tag in a patchset", "printf 'tags: [\"FOO:\"]\\n' > tag.yaml",
     "klang series --patchset tag.yaml --clang 14", 2,
     "klang: tag.yaml:1:8: a tag is one word without ':' (FOO, not 'FOO:')"},
    {"NUL bytes in a YAML file", "printf 'name: a\\000b\\n' > nul.yaml",
     "klang series --patchset nul.yaml --clang 14", 2,
     "klang: nul.yaml:1:8: control characters are not allowed (0x00)"},
    {"invalid UTF-8 in a YAML file", "printf 'name: \\377\\376\\n' > utf8.yaml",
     "klang series --patchset utf8.yaml --clang 14", 2,
     "klang: utf8.yaml:1:7: invalid leading UTF-8 octet (0xff)"},
    {"a 1 MB line in a YAML file",
     "{ printf 'description: '; head -c 1048576 /dev/zero | tr '\\0' x; echo; } > long.yaml",
     "klang series --patchset long.yaml --repo r --base v1.0 --clang 14 --format tsv", 0, ""},
    {"empty YAML file", ": > empty.yaml", "klang series --patchset empty.yaml --clang 14", 2,
     "klang: empty.yaml:1:1: empty patchset"},
    {"unreadable file", "printf 'rules: []\\n' > unreadable.yaml && chmod 000 unreadable.yaml",
     "klang series --patchset unreadable.yaml --clang 14", 2,
     "klang: unreadable.yaml: Permission denied", NULL, NEEDS_NO_DAC},
    {"a directory instead of a file", "mkdir -p adir.yaml",
     "klang series --patchset adir.yaml --clang 14", 2,
     "klang: adir.yaml: is a directory, not a file"},
    {"an endless file (a device)", NULL, "klang series --patchset /dev/zero --clang 14", 2,
     "klang: /dev/zero: larger than 512 MB: not a file klang reads whole"},
    {"missing patchset", NULL, "klang series --patchset nosuch --clang 14", 2,
     "klang: series: patchset 'nosuch' not found"},

    /* YAML: themes */
    {"theme: YAML syntax error", "printf 'elements: [\\n' > broken-theme.yaml",
     "klang --theme ./broken-theme.yaml --repo r", 2,
     "klang: ./broken-theme.yaml:2:1: did not find expected node content while parsing a "
     "flow node"},
    {"unknown theme element", "printf 'elements:\\n  nosuch: {fg: red}\\n' > elem-theme.yaml",
     "klang --theme ./elem-theme.yaml --repo r", 2,
     "klang: ./elem-theme.yaml:2:3: unknown element 'nosuch'"},
    {"unknown theme", NULL, "klang --theme nosuch --repo r", 2,
     "klang: unknown theme 'nosuch': themes/nosuch.yaml not found"},
    {"unknown tag on the command line", NULL, "klang stack --repo r --tag FOO", 2,
     "klang: stack: unknown tag 'FOO' in --tag (known: UPSTREAM, BACKPORT, FROMGIT, FROMLIST, "
     "HACK, CUSTOM, OBSOLETE, CHROMIUM, ANDROID, none)"},

    /* commits */
    {"a 1 MB commit subject", NULL, "klang stack --repo big --base v1.0 --format tsv > big.tsv", 0,
     "", "test $(wc -c < big.tsv) -gt 1048576"},
    {"invalid UTF-8 in a commit message", NULL,
     "klang stack --repo big --base v1.0 --format json > big.json", 0, "",
     "iconv -f UTF-8 -t UTF-8 big.json > /dev/null && grep -q ' not UTF-8' big.json"},

    {"escape sequences in a commit subject", NULL, "klang stack --repo big --base v1.0 > esc.txt",
     0, "",
     "! tr -d -c '\\033\\007' < esc.txt | grep -q . && grep -q ' \\[31mred \\[0m and ' esc.txt"},

    /* compilers */
    {"a compiler that does not exist", NULL,
     "klang series --repo r --base v1.0 --cc /nonexistent/clang", 2,
     "klang: series: /nonexistent/clang: command not found (give the target with --clang)"},
    {"a compiler that is not Clang",
     "printf '#!/bin/sh\\necho \"gcc (Debian 12.2.0-14) 12.2.0\"\\n' > fakecc && chmod +x fakecc",
     "klang clang-version --cc ./fakecc", 2,
     "klang: clang-version: ./fakecc is not clang: no Clang version in 'gcc (Debian 12.2.0-14) "
     "12.2.0'"},
    {"a compiler that cannot be run", "printf 'clang\\n' > notexec && chmod 644 notexec",
     "klang clang-version --cc ./notexec", 2, "klang: clang-version: ./notexec: not executable"},
    {"an option without its value", NULL, "klang clang-version --cc", 2,
     "klang: clang-version: --cc needs a value (see klang clang-version --help)"},
    {"an empty compiler name", NULL, "klang clang-version --cc ''", 2,
     "klang: clang-version: --cc needs a value (see klang clang-version --help)"},
    {"not a Clang version", NULL, "klang series --repo r --base v1.0 --clang soon", 2,
     "klang: series: --clang 'soon' is not a version (5, 5.0, 14.0.6)"},

    {"not a kernel tree", "mkdir -p plain",
     "klang build --repo plain --arch x86_64 --toolchain gcc --out o-plain", 2,
     "klang: build: plain: not a kernel tree (no Makefile)", "test ! -e o-plain"},
    {"a compiler that does not exist (build)", "mkdir -p tree && touch tree/Makefile",
     "klang build --repo tree --arch x86_64 --toolchain clang-99 --out o-cc", 2,
     "klang: build: clang-99: not found on PATH", "test ! -e o-cc"},
    {"a compiler path that is not a compiler", "mkdir -p tree && touch tree/Makefile",
     "klang build --repo tree --arch x86_64 --toolchain /nonexistent/gcc --out o-cc", 2,
     "klang: build: /nonexistent/gcc: not an executable compiler", "test ! -e o-cc"},
    {"a make that is missing",
     "mkdir -p tree nomake && touch tree/Makefile && ln -sf \"$(command -v gcc)\" nomake/gcc",
     "PATH=$PWD/nomake klang build --repo tree --arch x86_64 --toolchain gcc --out o-make", 2,
     "klang: build: make: not found on PATH", "test ! -e o-make"},
    {"an unknown arch", "mkdir -p tree && touch tree/Makefile",
     "klang build --repo tree --arch nosucharch --toolchain gcc --out o-arch", 2,
     "klang: build: nosucharch: no known cross triple; pass -- CROSS_COMPILE=PREFIX"},
    {"an arch the tree does not have",
     "mkdir -p tree/arch/x86 tree/arch/arm64 && touch tree/Makefile",
     "klang build --repo tree --arch sparc99 --toolchain gcc --out o-arch", 2,
     "klang: build: arch sparc99: no arch/sparc99 in /path/to/tree (there: arm64 x86)",
     "test ! -e o-arch"},
    {"an empty name in --arch or --toolchain", "mkdir -p tree && touch tree/Makefile",
     "klang build --repo tree --arch arm64,,x86_64 --toolchain gcc --out o-empty", 2,
     "klang: build: --arch 'arm64,,x86_64': an empty name in the list", "test ! -e o-empty"},
    {"a make variable klang sets itself", "mkdir -p tree && touch tree/Makefile",
     "klang build --repo tree --arch x86_64 --toolchain gcc --out o-var -- O=elsewhere", 2,
     "klang: build: 'O=elsewhere': klang sets O itself (use --out)",
     "test ! -e o-var && test ! -e elsewhere"},
    {"a .config file that is missing", "mkdir -p tree && touch tree/Makefile",
     "klang build --repo tree --arch x86_64 --toolchain gcc --config no/.config --out o-cfg", 2,
     "klang: build: config no/.config: No such file or directory", "test ! -e o-cfg"},
    {"an output directory that is a file", "mkdir -p tree && touch tree/Makefile && : > o-file",
     "klang build --repo tree --arch x86_64 --toolchain gcc --out o-file", 2,
     "klang: build: --out o-file: not a directory", "test -f o-file && test ! -s o-file"},

    /* state files */
    {"corrupt state file (moved aside)",
     "mkdir -p r/.klang && printf 'overrides:\\n  - decision: maybe\\n' > r/.klang/overrides.yaml",
     SERIES " --format tsv > /dev/null", 0,
     "klang: series: /path/to/r/.klang/overrides.yaml:2:15: decision must be keep or drop; "
     "moved aside to /path/to/r/.klang/overrides.yaml.corrupt",
     "test ! -e r/.klang/overrides.yaml && grep -q maybe r/.klang/overrides.yaml.corrupt"},
    {"state file with a YAML syntax error (moved aside, kept)",
     "printf 'overrides: [\\n' > r/.klang/overrides.yaml",
     SERIES " --override 1=drop --format tsv > /dev/null", 0,
     "klang: series: /path/to/r/.klang/overrides.yaml:2:1: did not find expected node content "
     "while parsing a flow node; "
     "moved aside to /path/to/r/.klang/overrides.yaml.corrupt.2",
     "grep -q maybe r/.klang/overrides.yaml.corrupt && "
     "grep -qx 'overrides: \\[' r/.klang/overrides.yaml.corrupt.2 && "
     "grep -q 'decision: drop' r/.klang/overrides.yaml"},
    {"two klang instances setting overrides at once", "rm -f r/.klang/overrides.yaml",
     SERIES " --override 1=keep > /dev/null & " SERIES " --override 2=drop > /dev/null; wait", 0,
     "",
     "grep -q 'decision: keep' r/.klang/overrides.yaml && "
     "grep -q 'decision: drop' r/.klang/overrides.yaml"},

    /* build logs */
    {"a log with NUL bytes",
     "printf 'kernel/a.c:1:2: warning: unused \\000x [-Wunused]\\nkernel/b.c:3:4: warning: "
     "after [-Wfoo]\\n' > nul.log",
     "klang diag parse nul.log --format tsv > nul.tsv", 0, "",
     "grep -q 'kernel/a.c\t1\t2' nul.tsv && grep -q 'kernel/b.c\t3\t4.*after$' nul.tsv"},
    {"a log with invalid UTF-8",
     "printf 'kernel/a.c:1:2: warning: bad \\377\\376 bytes [-Wfoo]\\n' > utf8.log",
     "klang diag parse utf8.log --format json > utf8.json", 0, "",
     "iconv -f UTF-8 -t UTF-8 utf8.json > /dev/null && grep -q 'bad .* bytes' utf8.json"},
    {"a log with a 1 MB line",
     "{ printf 'kernel/a.c:1:2: warning: '; head -c 1048576 /dev/zero | tr '\\0' x; "
     "echo ' [-Wfoo]'; echo 'kernel/b.c:3:4: warning: next [-Wbar]'; } > long.log",
     "klang diag parse long.log --format tsv > long.tsv", 0, "",
     "test $(wc -c < long.tsv) -gt 1048576 && grep -q 'kernel/b.c.*next$' long.tsv"},
    {"a log cut mid-diagnostic",
     "printf 'kernel/a.c:1:2: warning: unused variable [-Wunused]\\nkernel/b.c:10:5: warning: "
     "unused' > cut.log",
     "klang diag parse cut.log --format tsv > cut.tsv", 0, "",
     "grep -q 'kernel/a.c.*unused variable$' cut.tsv && grep -q 'kernel/b.c\t10\t5.*unused$' "
     "cut.tsv"},
    {"a GCC JSON log cut short",
     "printf '[{\"kind\": \"warning\", \"message\": \"unused\"}' > cut.json",
     "klang diag parse cut.json", 2, "klang: cut.json:1:41: ']' expected near end of file"},
    {"a SARIF result that is not an object",
     "printf '{\"runs\": [{\"results\": [null, 5, \"x\"]}]}\\n' > null.sarif",
     "klang diag parse null.sarif", 2, "klang: null.sarif: runs[0].results[0] is not an object"},
    {"an empty log", ": > empty.log", "klang diag parse empty.log > empty.txt", 0, "",
     "grep -qx '0 diagnostics (0 warnings, 0 errors reported)' empty.txt"},
    {"an unreadable log", "echo x > unreadable.log && chmod 000 unreadable.log",
     "klang diag parse unreadable.log", 2, "klang: unreadable.log: Permission denied", NULL,
     NEEDS_NO_DAC},
    {"a directory instead of a log", "mkdir -p logdir", "klang diag parse logdir", 2,
     "klang: logdir: is a directory, not a log"},
    {"a missing log", ": > empty.log", "klang diag diff --gcc nosuch.log --clang empty.log", 2,
     "klang: nosuch.log: No such file or directory"},
    {"stdin given as two logs", ": > empty.log", "klang diag diff --gcc - --clang - < empty.log", 2,
     "klang: diag: - is given twice: stdin can be read once (see klang diag --help)"},
    {"an empty option value", ": > empty.log", "klang diag parse empty.log --arch ''", 2,
     "klang: diag: --arch needs a value (see klang diag --help)"},
    {"diff with no logs and no builds", "mkdir -p nobuilds", "klang diag diff --repo nobuilds", 2,
     "klang: diag: diff needs --gcc LOG... and --clang LOG...: no finished GCC and Clang builds "
     "of one config under nobuilds/.klang (klang build makes them) (see klang diag --help)"},

    /* patch files: mbox and quilt */
    {"a directory instead of a patch file", "mkdir -p adir", "klang stack --mbox adir", 2,
     "klang: adir: is a directory, not a file"},
    {"a binary file instead of a patch file", "printf 'a\\0b\\n' > bin.mbox",
     "klang stack --mbox bin.mbox", 1,
     "klang: bin.mbox: binary file, not a patch or mbox (before the first patch)\n"
     "klang: stack: no patches in bin.mbox"},
    {"a patch with a hunk cut short",
     "printf 'From: A <a@example.org>\\nSubject: [PATCH] x86: fix a\\n\\n---\\n"
     "diff --git a/a.c b/a.c\\n--- a/a.c\\n+++ b/a.c\\n@@ -1,3 +1,3 @@\\n-int a;\\n"
     "+long a;\\n' > cut.patch",
     "klang stack --mbox cut.patch", 1,
     "klang: cut.patch:11: hunk at line 8 cut short: 2 old and 2 new lines missing (before the "
     "first patch)\n"
     "klang: stack: no patches in cut.patch"},
    {"a quilt series naming a missing patch",
     "mkdir -p q && printf 'one.patch\\nnosuch.patch\\n' > q/series && printf 'Subject: one\\n\\n"
     "---\\n--- a/x\\n+++ b/x\\n@@ -1 +1 @@\\n-a\\n+b\\n' > q/one.patch",
     "klang stack --quilt q --format tsv > q.tsv", 1,
     "klang: q/series:2: nosuch.patch: No such file or directory (after patch 1)",
     "test $(wc -l < q.tsv) = 2 && grep -q '^1\t.*\tone\t' q.tsv"},

    /* YAML: group rules and the triage store */
    {"invalid regex in group rules",
     ": > empty.log && printf -- '- name: x\\n  flag: \"(\"\\n' > re-rules.yaml",
     "klang diag parse empty.log --rules re-rules.yaml", 2,
     "klang: re-rules.yaml:2:9: pattern error at offset 1: missing closing parenthesis"},
    {"group rules: YAML syntax error", ": > empty.log && printf -- '- name: [\\n' > syn-rules.yaml",
     "klang diag parse empty.log --rules syn-rules.yaml", 2,
     "klang: syn-rules.yaml:2:1: did not find expected node content while parsing a flow node"},
    {"group rules: unknown key", ": > empty.log && printf -- '- nme: x\\n' > key-rules.yaml",
     "klang diag parse empty.log --rules key-rules.yaml", 2,
     "klang: key-rules.yaml:1:3: unknown key 'nme' (a rule has name, flag, message, file)"},
    {"group rules: control characters in a name",
     ": > empty.log && printf -- '- name: \"a\\\\tb\\\\nc\"\\n  flag: x\\n' > ctl-rules.yaml",
     "klang diag parse empty.log --rules ctl-rules.yaml", 2,
     "klang: ctl-rules.yaml:1:9: a rule name may not hold control characters (0x09)"},
    {"unknown triage status", NULL, "klang diag triage --repo r 0123456789abcdef maybe", 2,
     "klang: diag: 'maybe' is not new, confirmed, wontfix, false-positive or fixed (see klang "
     "diag --help)"},
    {"a triage store in a repository that is not there", NULL,
     "klang diag triage --repo missing 0123456789abcdef confirmed", 2,
     "klang: diag: --repo missing: No such file or directory", "test ! -e missing"},
    {"a triage status set outside a repository", "mkdir -p plain",
     "klang diag triage --repo plain 0123456789abcdef confirmed", 2,
     "klang: diag: not a git repository: /path/to/plain", "test ! -e plain/.klang"},
    {"a fingerprint that is not 16 hex digits", NULL, "klang diag triage --repo r 0123 confirmed",
     2, "klang: diag: '0123' is not a fingerprint (16 hex digits) (see klang diag --help)",
     "! grep -qs 0123 r/.klang/triage.yaml"},
    {"corrupt triage store (moved aside)",
     ": > empty.log && mkdir -p r/.klang && printf -- '- fingerprint: zz\\n  status: new\\n' > "
     "r/.klang/triage.yaml",
     "klang diag parse empty.log --repo r > /dev/null", 0,
     "klang: r/.klang/triage.yaml:1:16: fingerprint 'zz' is not 16 hex digits; moved aside to "
     "r/.klang/triage.yaml.corrupt",
     "test ! -e r/.klang/triage.yaml && grep -q zz r/.klang/triage.yaml.corrupt"},
    {"two klang instances triaging at once", NULL,
     "klang diag triage --repo r 00000000000000a1 confirmed & "
     "klang diag triage --repo r 00000000000000b2 wontfix; wait",
     0, "",
     "grep -A1 00000000000000a1 r/.klang/triage.yaml | grep -q confirmed && "
     "grep -A1 00000000000000b2 r/.klang/triage.yaml | grep -q wontfix"},

    /* writing */
    {"export onto an existing file",
     "rm -rf r/.klang && mkdir -p taken && echo mine > taken/" PATCH1,
     SERIES " --export taken --as mbox --format tsv > /dev/null", 2,
     "klang: series: taken/" PATCH1 " exists; klang will not overwrite it",
     "test \"$(cat taken/" PATCH1 ")\" = mine && test $(ls taken | wc -l) = 1"},
    {"export into a file", "echo mine > afile",
     SERIES " --export afile --as quilt --format tsv > /dev/null", 2,
     "klang: series: afile exists and is not a directory", "test \"$(cat afile)\" = mine"},
    {"full disk on export", "rm -rf r/.klang && mkdir -p full",
     SERIES " --export full/out --as mbox > /dev/null", 2,
     "klang: series: full/out/0002-UPSTREAM-x86-a-big-file.patch: No space left on device",
     "test ! -e full/out", NEEDS_TMPFS},
    {"full disk during a build",
     "mkdir -p full big-tree && printf 'defconfig:\\n\\t@mkdir -p $(O) && echo CONFIG_X=y > "
     "$(O)/.config\\nall:\\n\\t@seq 1 20000\\n.DEFAULT_GOAL := all\\n' > big-tree/Makefile",
     "klang build --repo big-tree --arch x86_64 --toolchain gcc --out full/b --jobs 2 > build.out",
     1, "klang: build: full/b/summary.json: No space left on device",
     "grep -q 'build.log: No space left on device' build.out && ! grep -q '^summary:' build.out",
     NEEDS_TMPFS},
    {"full disk on standard output", NULL,
     "klang stack --repo r --base v1.0 --format tsv > /dev/full", 1,
     "klang: stack: cannot write the output"},
    {"full disk under diag's output", "printf 'a.c:1:2: warning: x [-Wx]\\n' > one.log",
     "klang diag parse one.log --format json > /dev/full", 1,
     "klang: diag: cannot write the output"},
};

const size_t badinput_nrows = ARRAY_SIZE(badinput_rows);
