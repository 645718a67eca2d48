/* Tests for the diagnostics parser (core/diag.c, diaglex.c, diagnorm.c,
 * diagset.c) on the real Linux 6.1 logs (x86_64 and arm64, gcc 12 and
 * clang 14) and on the line formats those logs do not show. */
#include <CUnit/CUnit.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/diag.h"
#include "core/diagout.h"
#include "core/sarif.h"
#include "core/util.h"
#include "tests/diagtest.h"

static void test_gcc_x86(void)
{
	char *path = dt_shared("linux-6.1/tinyconfig-W1-gcc-x86.log");
	struct diag_set *s = dt_parse_file(path, DIAG_CC_UNKNOWN);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	struct diag_totals t;
	diag_set_totals(s, &t);
	/* every ": warning:" line is one reported warning */
	CU_ASSERT_EQUAL(t.warnings, dt_grep_count(path, ": warning:"));
	CU_ASSERT_EQUAL(t.errors, 0);
	struct diag *d = diag_set_get(s, 0);
	CU_ASSERT_EQUAL(d->cc, DIAG_CC_GCC);
	CU_ASSERT_STRING_EQUAL(d->arch, "x86");
	/* paths relative to the tree; gcc's Unicode quotes made ASCII */
	d = dt_find(s, "arch/x86/entry/vdso/vma.c", 35, "-Wmissing-prototypes");
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	CU_ASSERT_STRING_EQUAL(d->message, "no previous prototype for 'arch_get_vdso_data'");
	CU_ASSERT_EQUAL(d->loc.col, 19);
	CU_ASSERT_STRING_EQUAL(d->source, "struct vdso_data *arch_get_vdso_data(void *vvar_page)");
	CU_ASSERT_EQUAL(d->ntus, 1);
	CU_ASSERT_STRING_EQUAL(d->tus[0], "arch/x86/entry/vdso/vma.c");
	/* "In function" context */
	d = dt_find(s, "arch/x86/kernel/cpu/cacheinfo.c", 733, "l3_id");
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	CU_ASSERT_STRING_EQUAL(d->function, "init_intel_cacheinfo");
	/* an included .c file: the unit is the includer */
	d = dt_find(s, "kernel/sched/rt.c", 9, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	CU_ASSERT_STRING_EQUAL(d->flag, "-Wunused-const-variable=");
	CU_ASSERT_EQUAL(d->nincludes, 1);
	CU_ASSERT_STRING_EQUAL(d->includes[0].file, "kernel/sched/build_policy.c");
	CU_ASSERT_EQUAL(d->includes[0].line, 45);
	CU_ASSERT_STRING_EQUAL(d->tus[0], "kernel/sched/build_policy.c");
	/* kernel-doc: no column, no flag; it echoes the comment it could not read */
	d = dt_find(s, "kernel/time/timekeeping.c", 1705, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	CU_ASSERT_STRING_EQUAL(d->flag, "kernel-doc");
	CU_ASSERT_EQUAL(d->loc.col, 0);
	CU_ASSERT_STRING_EQUAL(d->source,
			       " * We have three kinds of time sources to use for sleep time");
	/* shown as file:line, not file:line:0 */
	struct strbuf loc = STRBUF_INIT;
	diag_loc_text(&loc, &d->loc);
	CU_ASSERT_STRING_EQUAL(sb_str(&loc), "kernel/time/timekeeping.c:1705");
	sb_reset(&loc);
	diag_loc_text(&loc, &(struct diag_loc){"", 0, 0});
	CU_ASSERT_STRING_EQUAL(sb_str(&loc), "<build>");
	sb_free(&loc);
	CU_ASSERT_EQUAL(dt_count(s, "arch/x86/events/intel/pt.c", 1220), 3);
	/* a note of gcc, not a warning of its own */
	d = dt_find(s, "kernel/time/hrtimer.c", 124, "-Woverride-init");
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	CU_ASSERT_EQUAL(d->nnotes, 1);
	CU_ASSERT_EQUAL(d->nmacros, 0);
	CU_ASSERT_STRING_EQUAL(d->notes[0].msg,
			       "(near initialization for 'hrtimer_clock_to_base_table[0]')");
	diag_set_free(s);
	free(path);
}

static void test_clang_x86_header_dedup(void)
{
	char *path = dt_shared("linux-6.1/tinyconfig-W1-clang-x86.log");
	struct diag_set *s = dt_parse_file(path, DIAG_CC_UNKNOWN);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	struct diag_totals t;
	diag_set_totals(s, &t);
	CU_ASSERT_EQUAL(t.warnings, dt_grep_count(path, ": warning:"));
	CU_ASSERT_EQUAL(diag_set_get(s, 0)->cc, DIAG_CC_CLANG);
	/* the xdr.h warning, reported by two units, is one diagnostic */
	CU_ASSERT_EQUAL(dt_count(s, "include/linux/sunrpc/xdr.h", 752), 1);
	struct diag *d = dt_find(s, "include/linux/sunrpc/xdr.h", 752, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	CU_ASSERT_EQUAL(d->occurrences, 2);
	CU_ASSERT_EQUAL(d->ntus, 2);
	CU_ASSERT_STRING_EQUAL(d->tus[0], "init/do_mounts.c");
	CU_ASSERT_STRING_EQUAL(d->tus[1], "kernel/sysctl.c");
	/* clang's chain: one line per level, the unit first */
	CU_ASSERT_EQUAL(d->nincludes, 4);
	CU_ASSERT_STRING_EQUAL(d->includes[0].file, "init/do_mounts.c");
	CU_ASSERT_STRING_EQUAL(d->includes[3].file, "include/linux/sunrpc/sched.h");
	CU_ASSERT_STRING_EQUAL(d->flag, "-Wtautological-constant-out-of-range-compare");
	/* the "declare 'static'" note and its fix-it */
	d = dt_find(s, "arch/x86/entry/vdso/vma.c", 35, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	CU_ASSERT_EQUAL(d->nnotes, 1);
	CU_ASSERT_EQUAL(d->notes[0].kind, DIAG_NOTE_PLAIN);
	CU_ASSERT_EQUAL(d->notes[0].loc.col, 1);
	/* "N warnings generated." never counts, and nothing else is a diagnostic */
	for (size_t i = 0; i < diag_set_size(s); i++)
		CU_ASSERT_PTR_NULL(strstr(diag_set_get(s, i)->message, "generated"));
	diag_set_free(s);
	free(path);
}

static void test_gcc_arm64_macros(void)
{
	char *path = dt_ours("tinyconfig-W1-gcc-arm64.log");
	struct diag_set *s = dt_parse_file(path, DIAG_CC_UNKNOWN);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_STRING_EQUAL(diag_set_get(s, 0)->arch, "arm64");
	/* gcc spells the syscall table warning in __SYSCALL's body and chains
	 * "in expansion of macro" notes out to the use in unistd.h */
	struct diag *d = dt_find(s, "include/uapi/asm-generic/unistd.h", 34, "-Woverride-init");
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	CU_ASSERT_STRING_EQUAL(d->spell.file, "arch/arm64/kernel/sys.c");
	CU_ASSERT_EQUAL(d->spell.line, 56);
	CU_ASSERT_EQUAL(d->spell.col, 40);
	CU_ASSERT_EQUAL(d->loc.col, 1);
	CU_ASSERT_EQUAL(d->nmacros, 2);
	CU_ASSERT_EQUAL(d->notes[0].kind, DIAG_NOTE_IN_EXPANSION);
	CU_ASSERT_STRING_EQUAL(d->notes[0].macro, "__SYSCALL");
	CU_ASSERT_STRING_EQUAL(d->notes[1].macro, "__SC_COMP");
	CU_ASSERT_STRING_EQUAL(d->source,
			       "__SC_COMP(__NR_io_setup, sys_io_setup, compat_sys_io_setup)");
	/* the "near initialization" note and its own macro notes follow */
	CU_ASSERT_EQUAL(d->nnotes, 5);
	CU_ASSERT_EQUAL(d->notes[2].kind, DIAG_NOTE_PLAIN);
	/* one diagnostic per expansion site, not one for sys.c:56:40 */
	size_t at56 = 0;
	for (size_t i = 0; i < diag_set_size(s); i++) {
		const struct diag *x = diag_set_get(s, i);
		at56 += !strcmp(x->spell.file, "arch/arm64/kernel/sys.c") && x->spell.line == 56;
	}
	CU_ASSERT_EQUAL(at56, dt_grep_count(path, "sys.c:56:40: warning:"));
	/* COND_SYSCALL: the chain was printed once, for the first of them; the
	 * others still belong to kernel/sys_ni.c */
	d = dt_find(s, "kernel/sys_ni.c", 41, "-Wmissing-prototypes");
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	CU_ASSERT_STRING_EQUAL(d->spell.file, "arch/arm64/include/asm/syscall_wrapper.h");
	CU_ASSERT_EQUAL(d->ntus, 1);
	CU_ASSERT_STRING_EQUAL(d->tus[0], "kernel/sys_ni.c");
	diag_set_free(s);
	free(path);
}

static void test_clang_arm64_macros(void)
{
	char *path = dt_ours("tinyconfig-W1-clang-arm64.log");
	struct diag_set *s = dt_parse_file(path, DIAG_CC_UNKNOWN);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL(diag_set_get(s, 0)->cc, DIAG_CC_CLANG);
	/* clang points at the use and chains "expanded from macro" inwards */
	struct diag *d = dt_find(s, "include/uapi/asm-generic/unistd.h", 34, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	CU_ASSERT_STRING_EQUAL(d->flag, "-Winitializer-overrides");
	CU_ASSERT_EQUAL(d->spell.line, 34);
	CU_ASSERT_EQUAL(d->nincludes, 3);
	CU_ASSERT_STRING_EQUAL(d->includes[0].file, "arch/arm64/kernel/sys.c");
	CU_ASSERT_EQUAL(d->includes[0].line, 60);
	CU_ASSERT_STRING_EQUAL(d->tus[0], "arch/arm64/kernel/sys.c");
	CU_ASSERT_EQUAL(d->nmacros, 3);
	CU_ASSERT_EQUAL(d->notes[0].kind, DIAG_NOTE_EXPANDED_FROM);
	CU_ASSERT_STRING_EQUAL(d->notes[0].macro, "__SC_COMP");
	CU_ASSERT_STRING_EQUAL(d->notes[1].macro, "__SYSCALL");
	CU_ASSERT_EQUAL(d->notes[2].kind, DIAG_NOTE_EXPANDED_HERE);
	CU_ASSERT_STRING_EQUAL(d->notes[2].loc.file, "<scratch space>");
	CU_ASSERT_STRING_EQUAL(d->notes[3].msg, "previous initialization is here");
	CU_ASSERT_STRING_EQUAL(d->notes[1].source,
			       "#define __SYSCALL(nr, sym)      [nr] = __arm64_##sym,");
	diag_set_free(s);
	free(path);
}

/* Dump a set as TSV into a string (for comparing two parses). */
static char *tsv_of(struct diag_set *s)
{
	diag_set_sort(s);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct diag **rows = xmalloc((diag_set_size(s) + 1) * sizeof(*rows));
	for (size_t i = 0; i < diag_set_size(s); i++)
		rows[i] = diag_set_get(s, i);
	diag_write_tsv(f, rows, diag_set_size(s), DIAG_VIEW_PARSE);
	fclose(f);
	free(rows);
	return buf;
}

/* A brief parse (TSV, quickfix) gives the rows of a full one, with the
 * source lines the fingerprints need, and keeps no notes, chains or units. */
static void test_brief(void)
{
	const char *logs[] = {"tinyconfig-W1-gcc-arm64.log", "tinyconfig-W1-clang-arm64.log",
			      "tinyconfig-W1-gcc-riscv.log", "tinyconfig-W1-clang-riscv.log"};
	for (size_t k = 0; k < ARRAY_SIZE(logs); k++) {
		char *path = dt_ours(logs[k]);
		struct diag_set *full = dt_parse_file(path, DIAG_CC_UNKNOWN),
				*brief = diag_set_new();
		struct diag_parser_opts o = {.brief = true};
		struct kerr e;
		CU_ASSERT_FATAL(full && !diag_parse_file(brief, path, &o, &e));
		char *want = tsv_of(full), *got = tsv_of(brief);
		CU_ASSERT_STRING_EQUAL(got, want);
		CU_ASSERT_EQUAL_FATAL(diag_set_size(brief), diag_set_size(full));
		size_t notes = 0, sources = 0;
		for (size_t i = 0; i < diag_set_size(full); i++) {
			const struct diag *f = diag_set_get(full, i), *b = diag_set_get(brief, i);
			notes += f->nnotes;
			sources += f->source != NULL;
			CU_ASSERT_STRING_EQUAL(b->source ? b->source : "-",
					       f->source ? f->source : "-");
			CU_ASSERT_EQUAL(diag_fp(b), diag_fp(f));
			CU_ASSERT_EQUAL(b->occurrences, f->occurrences);
			CU_ASSERT(!b->nnotes && !b->nincludes && !b->ntus && !b->function &&
				  !b->fixit);
		}
		/* the logs have what brief leaves out */
		CU_ASSERT(notes > 0 && sources > diag_set_size(full) / 5);
		free(want);
		free(got);
		diag_set_free(full);
		diag_set_free(brief);
		free(path);
	}
}

static void test_streaming_slices(void)
{
	char *path = dt_ours("tinyconfig-W1-clang-arm64.log");
	struct kerr e;
	size_t len;
	char *text = read_file(path, &len, &e);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	struct diag_set *whole = dt_parse_file(path, DIAG_CC_UNKNOWN);
	char *want = tsv_of(whole);
	/* slices of 1 byte, of 7, and of varying sizes give the same result */
	size_t sizes[] = {1, 7, 4093, 0};
	for (size_t k = 0; k < ARRAY_SIZE(sizes); k++) {
		struct diag_parser_opts o = {.log_name = path};
		struct diag_parser *p = diag_parser_new(&o);
		unsigned seed = 12345;
		for (size_t off = 0; off < len;) {
			size_t n = sizes[k];
			if (!n) {
				seed = seed * 1103515245 + 12345;
				n = 1 + (seed >> 16) % 3000;
			}
			if (n > len - off)
				n = len - off;
			diag_parser_feed(p, text + off, n);
			off += n;
		}
		struct diag_counts c;
		diag_parser_counts(p, &c);
		CU_ASSERT_EQUAL(c.warnings, 728);
		CU_ASSERT_EQUAL(c.errors, 0);
		struct diag_set *s = diag_set_new();
		diag_parser_finish(p, s);
		char *got = tsv_of(s);
		CU_ASSERT_STRING_EQUAL(got, want);
		free(got);
		diag_set_free(s);
	}
	free(want);
	diag_set_free(whole);
	free(text);
	free(path);
}

static void test_variants(void)
{
	const char *log =
	    "make[1]: Entering directory '/out'\n"
	    "  CC      kernel/foo.o\n"
	    "In file included from /src/linux/include/linux/a.h:5,\n"
	    "  CC      kernel/other.o\n"
	    "                 from /src/linux/kernel/foo.c:12:\n"
	    "/src/linux/include/linux/b.h: In function \xe2\x80\x98"
	    "bar\xe2\x80\x99:\n"
	    "/src/linux/include/linux/b.h:10:5: warning: unused variable \xe2\x80\x98x\xe2\x80\x99 "
	    "[-Wunused-variable]\n"
	    "   10 |  int x;\n"
	    "      |      ^\n"
	    "/src/linux/kernel/foo.c:40:1: error: the frame size of 1040 bytes is larger than 1024 "
	    "bytes [-Werror=frame-larger-than=]\n"
	    "/src/linux/kernel/bar.c:7:12: warning: stack frame size (1040) exceeds limit (1024) "
	    "in 'big' [-Wframe-larger-than]\n"
	    "static int big(void)\n"
	    "           ^\n"
	    "/src/linux/kernel/baz.c:9:12: warning: stack frame size of 1040 bytes in function "
	    "'old' [-Wframe-larger-than=]\n"
	    "/src/linux/kernel/w.c:3:7: error: unused variable 'y' [-Werror,-Wunused-variable]\n"
	    "/out/include/generated/g.h:3:1: warning: generated [-Wgen]\n"
	    "./drivers/x/../y/z.c:2:3: warning: dotted [-Wdot]\n"
	    "vmlinux.o: warning: objtool: do_thing()+0x12: unreachable instruction\n"
	    "WARNING: modpost: vmlinux.o: section mismatch in reference: foo (section: .text) -> "
	    "bar (section: .init.text)\n"
	    "ERROR: modpost: \"missing_sym\" [drivers/net/dummy.ko] undefined!\n"
	    "ld: warning: arch/x86/boot/compressed/vmlinux has a LOAD segment with RWX "
	    "permissions\n"
	    "ld.lld: error: undefined symbol: qux\n"
	    ">>> referenced by foo.c:12 (/src/linux/kernel/foo.c:12)\n"
	    ">>>               kernel/foo.o:(bar) in archive vmlinux.a\n"
	    "aarch64-linux-gnu-ld: kernel/foo.o: in function `bar':\n"
	    "/src/linux/kernel/ld.c:12: undefined reference to `qux'\n"
	    "make[2]: *** [/src/linux/scripts/Makefile.build:250: kernel/foo.o] Error 1\n"
	    "make[1]: *** Waiting for unfinished jobs....\n"
	    "/src/linux/arch/x86/entry/entry_64.S:100: Warning: no instruction mnemonic suffix "
	    "given\n"
	    "3 warnings and 1 error generated.\n"
	    "\x1b[01m\x1b[K/src/linux/kernel/c1.c:1:2:\x1b[m\x1b[K \x1b[01;35m\x1b[Kwarning: "
	    "\x1b[m\x1b[Kcoloured [\x1b[01;35m\x1b[K-Wc1\x1b[m\x1b[K]\n"
	    "12:34:56 /src/linux/kernel/c2.c:2:3: warning: stamped [-Wc2]\n"
	    "BUILDSTDERR: /src/linux/kernel/c3.c:3:4: warning: rpm [-Wc3]\n"
	    "  CC      kernel/x.o\r/src/linux/kernel/c4.c:4:5: warning: after progress [-Wc4]\r\n"
	    "2024-01-02T03:04:05.1234567Z /src/linux/kernel/c5.c:5:6: warning: github [-Wc5]\n"
	    "/src/linux/kernel/fix.c:1:1: warning: add static [-Wmissing-prototypes]\n"
	    "fix-it:\"/src/linux/kernel/fix.c\":{1:1-1:1}:\"static \"\n"
	    ".config:1309:warning: override: UNWINDER_GUESS changes choice state\n"
	    "/src/linux/kernel/configs/tiny.config:5:warning: override: reassigning to symbol "
	    "CC_OPTIMIZE_FOR_SIZE\n"
	    "WARNING: unmet direct dependencies detected for SND_X\n"
	    "  Depends on [n]: SOUND [=n]\n"
	    "/src/linux/arch/x86/Kconfig:12:error: recursive dependency detected!\n";
	struct diag_set *s = dt_parse_text(log, DIAG_CC_GCC);
	struct diag *d = dt_find(s, "include/linux/b.h", 10, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	CU_ASSERT_STRING_EQUAL(d->message, "unused variable 'x'");
	CU_ASSERT_STRING_EQUAL(d->function, "bar");
	CU_ASSERT_EQUAL(d->nincludes, 2); /* interleaved progress lines do not break it */
	CU_ASSERT_STRING_EQUAL(d->includes[0].file, "kernel/foo.c");
	CU_ASSERT_STRING_EQUAL(d->tus[0], "kernel/foo.c");
	CU_ASSERT_STRING_EQUAL(d->source, " int x;");
	d = dt_find(s, "kernel/foo.c", 40, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	CU_ASSERT_EQUAL(d->kind, DIAG_ERROR);
	CU_ASSERT_TRUE(d->werror);
	CU_ASSERT_STRING_EQUAL(d->flag, "-Wframe-larger-than=");
	d = dt_find(s, "kernel/bar.c", 7, NULL);
	CU_ASSERT_STRING_EQUAL(d->flag, "-Wframe-larger-than");
	CU_ASSERT_STRING_EQUAL(dt_find(s, "kernel/baz.c", 9, NULL)->flag, "-Wframe-larger-than=");
	d = dt_find(s, "kernel/w.c", 3, NULL);
	CU_ASSERT_STRING_EQUAL(d->flag, "-Wunused-variable");
	CU_ASSERT_TRUE(d->werror);
	CU_ASSERT_STRING_EQUAL(d->message, "unused variable 'y'");
	CU_ASSERT_PTR_NOT_NULL(dt_find(s, "include/generated/g.h", 3, "-Wgen"));
	CU_ASSERT_PTR_NOT_NULL(dt_find(s, "drivers/y/z.c", 2, "-Wdot"));
	d = dt_find(s, "vmlinux.o", 0, "objtool");
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	CU_ASSERT_STRING_EQUAL(d->message, "do_thing()+0x12: unreachable instruction");
	d = dt_find(s, "vmlinux.o", 0, "modpost");
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	CU_ASSERT_STRING_EQUAL(
	    d->message,
	    "section mismatch in reference: foo (section: .text) -> bar (section: .init.text)");
	d = dt_find(s, "", 0, "missing_sym");
	CU_ASSERT_TRUE(d && d->kind == DIAG_ERROR && !strcmp(d->flag, "modpost"));
	d = dt_find(s, "", 0, "RWX");
	CU_ASSERT_TRUE(d && !strcmp(d->flag, "ld") && d->kind == DIAG_WARNING);
	d = dt_find(s, "", 0, "undefined symbol: qux");
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	CU_ASSERT_EQUAL(d->kind, DIAG_ERROR);
	CU_ASSERT_EQUAL(d->nnotes, 2);
	CU_ASSERT_EQUAL(d->notes[0].kind, DIAG_NOTE_REFERENCE);
	d = dt_find(s, "kernel/ld.c", 12, "undefined reference");
	CU_ASSERT_TRUE(d && !strcmp(d->flag, "ld") && d->kind == DIAG_ERROR);
	d = dt_find(s, "scripts/Makefile.build", 250, "make");
	CU_ASSERT_TRUE(d && d->kind == DIAG_ERROR);
	CU_ASSERT_PTR_NULL(dt_find(s, "", 0, "Waiting"));
	d = dt_find(s, "arch/x86/entry/entry_64.S", 100, NULL);
	CU_ASSERT_TRUE(d && !strcmp(d->flag, "as"));
	/* Kconfig: the generated .config's line numbers are dropped (they
	 * differ between the compilers' configs); a source's are kept */
	d = dt_find(s, ".config", 0, "UNWINDER_GUESS changes choice state");
	CU_ASSERT_TRUE(d && !strcmp(d->flag, "kconfig") && d->kind == DIAG_WARNING);
	d = dt_find(s, "kernel/configs/tiny.config", 5, "override: reassigning");
	CU_ASSERT_TRUE(d && !strcmp(d->flag, "kconfig") && d->kind == DIAG_WARNING);
	d = dt_find(s, "", 0, "unmet direct dependencies detected for SND_X");
	CU_ASSERT_TRUE(d && !strcmp(d->flag, "kconfig") &&
		       !strcmp(d->message, "unmet direct "
					   "dependencies detected for SND_X"));
	d = dt_find(s, "arch/x86/Kconfig", 12, "recursive dependency");
	CU_ASSERT_TRUE(d && !strcmp(d->flag, "kconfig") && d->kind == DIAG_ERROR);
	static const char *const cleaned[] = {"kernel/c1.c", "kernel/c2.c", "kernel/c3.c",
					      "kernel/c4.c", "kernel/c5.c"};
	for (size_t i = 0; i < ARRAY_SIZE(cleaned); i++) {
		d = dt_find(s, cleaned[i], (unsigned)i + 1, NULL);
		CU_ASSERT_PTR_NOT_NULL_FATAL(d);
		CU_ASSERT_EQUAL(d->loc.col, i + 2);
		char flag[8];
		snprintf(flag, sizeof(flag), "-Wc%zu", i + 1);
		CU_ASSERT_STRING_EQUAL(d->flag, flag);
	}
	CU_ASSERT_STRING_EQUAL(dt_find(s, "kernel/c1.c", 1, NULL)->message, "coloured");
	d = dt_find(s, "kernel/fix.c", 1, NULL);
	CU_ASSERT_TRUE(d && d->fixit && strstr(d->fixit, "static "));
	/* nothing from the "generated" line, nothing from progress lines */
	for (size_t i = 0; i < diag_set_size(s); i++)
		CU_ASSERT_PTR_NULL(strstr(diag_set_get(s, i)->message, "generated."));
	CU_ASSERT_EQUAL(diag_set_size(s), 25);
	diag_set_free(s);
}

static void test_normalize_path(void)
{
	struct {
		const char *in, *root, *build, *want;
	} cases[] = {
	    {"/src/linux/kernel/fork.c", "/src/linux", NULL, "kernel/fork.c"},
	    {"/src/linux/kernel/fork.c", "/src/linux/", NULL, "kernel/fork.c"},
	    {"/out/include/generated/a.h", "/src/linux", "/out", "include/generated/a.h"},
	    {"/src/linux/out/x.h", "/src/linux", "/src/linux/out", "x.h"},
	    {"./include/linux/a.h", NULL, NULL, "include/linux/a.h"},
	    {"../include/linux/a.h", NULL, NULL, "include/linux/a.h"},
	    {"../../linux/kernel/a.c", NULL, NULL, "linux/kernel/a.c"},
	    {"arch/x86/include/asm/../../../../include/x.h", NULL, NULL, "include/x.h"},
	    {"/usr/lib/gcc/x86_64-linux-gnu/12/include/stdarg.h", "/src/linux", NULL,
	     "/usr/lib/gcc/x86_64-linux-gnu/12/include/stdarg.h"},
	    {"/src/linuxother/a.c", "/src/linux", NULL, "/src/linuxother/a.c"},
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *got = diag_normalize_path(cases[i].in, cases[i].root, cases[i].build);
		CU_ASSERT_STRING_EQUAL(got, cases[i].want);
		if (strcmp(got, cases[i].want))
			fprintf(stderr, "normalize %s -> %s\n", cases[i].in, got);
		free(got);
	}
}

/* A root whose own path holds a kernel directory name (/work/kernel/...)
 * and many files: the prefix every path shares wins. */
static void test_root_detection(void)
{
	struct strbuf log = STRBUF_INIT;
	const char *files[] = {"kernel/a.c", "arch/arm64/include/asm/b.h", "mm/c.c", "fs/d.c"};
	for (int i = 0; i < 100; i++)
		sb_addf(&log, "/work/kernel/linux-source-6.1/%s:%d:1: warning: w%d [-Wx]\n",
			files[i % 4], i + 1, i);
	struct diag_set *s = dt_parse_text(log.buf, DIAG_CC_UNKNOWN);
	CU_ASSERT_EQUAL(diag_set_size(s), 100);
	CU_ASSERT_PTR_NOT_NULL(dt_find(s, "kernel/a.c", 1, NULL));
	CU_ASSERT_PTR_NOT_NULL(dt_find(s, "arch/arm64/include/asm/b.h", 2, NULL));
	CU_ASSERT_PTR_NOT_NULL(dt_find(s, "fs/d.c", 100, NULL));
	CU_ASSERT_STRING_EQUAL(diag_set_get(s, 0)->arch, "arm64");
	diag_set_free(s);
	/* one single header path: arch/<name> is not taken for the root */
	s = dt_parse_text("/work/linux/arch/arm64/include/asm/x.h:3:1: warning: w [-Wx]\n",
			  DIAG_CC_UNKNOWN);
	CU_ASSERT_PTR_NOT_NULL(dt_find(s, "arch/arm64/include/asm/x.h", 3, NULL));
	diag_set_free(s);
	sb_free(&log);
}

/* Bad input: a line of 1 MB, NUL bytes, invalid UTF-8, a log cut anywhere,
 * random bytes. Nothing crashes, what can be read is read, JSON stays valid. */
static void test_bad_input(void)
{
	struct strbuf b = STRBUF_INIT;
	for (int i = 0; i < (1 << 20); i++)
		sb_addc(&b, 'a' + i % 26);
	sb_addc(&b, '\n');
	sb_adds(&b, "/s/kernel/long.c:1:2: warning: ");
	for (int i = 0; i < (1 << 20); i++)
		sb_addc(&b, 'x');
	sb_adds(&b, " [-Wlong]\n");
	static const char nul[] = "/s/kernel/nul.c:3:4: warning: a\0b [-Wnul]\n";
	sb_add(&b, nul, sizeof(nul) - 1);
	sb_adds(&b, "/s/kernel/utf.c:5:6: warning: bad \xff\xfe\xc3 bytes \xe2\x80 [-Wutf]\n");
	struct diag_parser *p = diag_parser_new(NULL);
	diag_parser_feed(p, b.buf, b.len);
	struct diag_set *s = diag_set_new();
	diag_parser_finish(p, s);
	struct diag *d = dt_find(s, "kernel/long.c", 1, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	CU_ASSERT_EQUAL(strlen(d->message), 1u << 20);
	CU_ASSERT_STRING_EQUAL(d->flag, "-Wlong");
	d = dt_find(s, "kernel/nul.c", 3, NULL);
	CU_ASSERT_TRUE(d && !strcmp(d->message, "a b") && !strcmp(d->flag, "-Wnul"));
	d = dt_find(s, "kernel/utf.c", 5, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	CU_ASSERT_PTR_NOT_NULL(strstr(d->message, "\xef\xbf\xbd"));
	/* JSON of all that loads back */
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct diag *rows[] = {d};
	diag_write_json(f, rows, 1, DIAG_VIEW_PARSE, NULL);
	fclose(f);
	json_error_t je;
	json_t *j = json_loads(buf, 0, &je);
	CU_ASSERT_PTR_NOT_NULL(j);
	json_decref(j);
	free(buf);
	diag_set_free(s);

	/* the arm64 gcc log cut at many points, in and between diagnostics */
	char *path = dt_ours("tinyconfig-W1-gcc-arm64.log");
	struct kerr e;
	size_t tlen;
	char *text = read_file(path, &tlen, &e);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	for (size_t cut = 0; cut < 60000; cut += 1499) {
		p = diag_parser_new(NULL);
		diag_parser_feed(p, text, cut);
		s = diag_set_new();
		diag_parser_finish(p, s);
		diag_set_free(s);
	}
	/* the cut inside the first syscall table warning keeps what came before */
	char *mid = strstr(text, "sys.c:56:40: warning: initialized field overwritten");
	CU_ASSERT_PTR_NOT_NULL_FATAL(mid);
	p = diag_parser_new(NULL);
	diag_parser_feed(p, text, (size_t)(mid - text) + 30);
	s = diag_set_new();
	diag_parser_finish(p, s);
	CU_ASSERT_PTR_NOT_NULL(dt_find(s, "arch/arm64/kernel/sys.c", 41, NULL));
	CU_ASSERT_PTR_NOT_NULL(dt_find(s, "arch/arm64/kernel/sys.c", 56, NULL));
	diag_set_free(s);
	free(text);
	free(path);

	/* random bytes */
	sb_reset(&b);
	unsigned seed = 7;
	for (int i = 0; i < 200000; i++) {
		seed = seed * 1103515245 + 12345;
		sb_addc(&b, (char)(seed >> 16));
	}
	p = diag_parser_new(NULL);
	diag_parser_feed(p, b.buf, b.len);
	s = diag_set_new();
	diag_parser_finish(p, s);
	diag_set_free(s);
	sb_free(&b);
}

static void test_fingerprint(void)
{
	/* survives a line move; numbers masked; identifiers kept */
	struct diag_set *a =
	    dt_parse_text("/s/kernel/a.c:10:5: warning: frame 1040 in l2_id [-Wx]\n"
			  "   10 | \tint  l2_id;\n",
			  DIAG_CC_GCC);
	struct diag_set *b =
	    dt_parse_text("/s/kernel/a.c:42:5: warning: frame 2048 in l2_id [-Wx]\n"
			  "   42 |  int l2_id;\n",
			  DIAG_CC_GCC);
	struct diag_set *c =
	    dt_parse_text("/s/kernel/a.c:42:5: warning: frame 2048 in l3_id [-Wx]\n"
			  "   42 |  int l2_id;\n",
			  DIAG_CC_GCC);
	/* worked out only when asked for, then kept */
	const struct diag *d = diag_set_get(a, 0);
	CU_ASSERT_FALSE(d->fp_known);
	CU_ASSERT_EQUAL(diag_fp(d), diag_fingerprint(d));
	CU_ASSERT_TRUE(d->fp_known);
	CU_ASSERT_EQUAL(diag_fp(diag_set_get(a, 0)), diag_fp(diag_set_get(b, 0)));
	CU_ASSERT_NOT_EQUAL(diag_fp(diag_set_get(a, 0)), diag_fp(diag_set_get(c, 0)));
	struct strbuf m = STRBUF_INIT;
	diag_mask_numbers("sys_call_table[12] of 0x4d0 and 1040 in l2_id", &m);
	CU_ASSERT_STRING_EQUAL(m.buf, "sys_call_table[#] of # and # in l2_id");
	sb_free(&m);
	diag_set_free(a);
	diag_set_free(b);
	diag_set_free(c);
}

/* GCC 12 (the demo's build) printed an include chain that stops at a
 * header, the rest having been printed before: the unit is still the .c
 * file, from the diagnostic before in that header or else from the
 * "In function" line, not the header the chain stops at. */
static void test_cut_include_chain(void)
{
	static const char chain[] =
	    "In file included from /w/demo/include/linux/kernel.h:8,\n"
	    "                 from /w/demo/include/linux/fs.h:5:\n"
	    "/w/demo/fs/proc/root.c: In function \xe2\x80\x98proc_remove\xe2\x80\x99:\n"
	    "/w/demo/include/linux/printk.h:29:33: warning: pointer \xe2\x80\x98"
	    "de\xe2\x80\x99 used after \xe2\x80\x98kfree\xe2\x80\x99 [-Wuse-after-free]\n"
	    "   29 | #define pr_info(fmt, ...)       printk(KERN_INFO pr_fmt(fmt), "
	    "##__VA_ARGS__)\n"
	    "      |                                 ^~~~~~~~~~~~~~~~~~~~~\n"
	    "/w/demo/fs/proc/root.c:41:17: note: in expansion of macro "
	    "\xe2\x80\x98pr_info\xe2\x80\x99\n"
	    "   41 |                 pr_info(\"proc: removed /proc/%s\\n\", de->name);\n"
	    "      |                 ^~~~~~~\n";
	static const char before[] =
	    "  CC      fs/proc/root.o\n"
	    "In file included from /w/demo/include/linux/proc_fs.h:5,\n"
	    "                 from /w/demo/fs/proc/root.c:4:\n"
	    "/w/demo/include/linux/fs.h:47:12: warning: \xe2\x80\x98inode_is_dir\xe2\x80\x99 "
	    "defined but not used [-Wunused-function]\n"
	    "   47 | static int inode_is_dir(const struct inode *inode)\n"
	    "      |            ^~~~~~~~~~~~\n";
	for (int with_before = 0; with_before < 2; with_before++) {
		char *log =
		    xasprintf("%s%s", with_before ? before : "  CC      fs/proc/root.o\n", chain);
		struct diag_set *s = dt_parse_text(log, DIAG_CC_GCC);
		CU_ASSERT_PTR_NOT_NULL_FATAL(s);
		const struct diag *d = dt_find(s, "fs/proc/root.c", 41, "use-after-free");
		CU_ASSERT_PTR_NOT_NULL_FATAL(d);
		CU_ASSERT_EQUAL(d->ntus, 1);
		CU_ASSERT_STRING_EQUAL(d->ntus ? d->tus[0] : "", "fs/proc/root.c");
		diag_set_free(s);
		free(log);
	}
}

void suite_diag(void)
{
	CU_pSuite s = CU_add_suite("diag", NULL, NULL);
	CU_add_test(s, "gcc x86 log", test_gcc_x86);
	CU_add_test(s, "clang x86 log, header dedup", test_clang_x86_header_dedup);
	CU_add_test(s, "gcc arm64 macro chains", test_gcc_arm64_macros);
	CU_add_test(s, "clang arm64 macro chains", test_clang_arm64_macros);
	CU_add_test(s, "streaming in slices", test_streaming_slices);
	CU_add_test(s, "brief parse: the rows of a full one", test_brief);
	CU_add_test(s, "line variants", test_variants);
	CU_add_test(s, "path normalisation", test_normalize_path);
	CU_add_test(s, "source root detection", test_root_detection);
	CU_add_test(s, "bad input", test_bad_input);
	CU_add_test(s, "fingerprint", test_fingerprint);
	CU_add_test(s, "an include chain cut short: the unit all the same", test_cut_include_chain);
}
