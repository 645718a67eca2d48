/* Tests for core/mbox (with core/mail and core/difftext): real patch files
 * from ClangBuiltLinux CI, AOSP common-patches, Debian and OpenWrt, plus
 * small fixtures for b4, mboxrd quoting, quoted-printable mail, unordered and
 * malformed series. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/difftext.h"
#include "core/mail.h"
#include "core/mbox.h"
#include "tests/localfix.h"

static void read_fixture(struct patch_files *pf, const char *name)
{
	char *path = test_local_fixture(name);
	struct kerr e;
	memset(pf, 0, sizeof(*pf));
	CU_ASSERT_EQUAL_FATAL(mbox_read(pf, path, NULL, &e), 0);
	free(path);
}

static void assert_tags(const struct patch *p, const char *want)
{
	char *tags = patch_tags_join(p, ",");
	CU_ASSERT_STRING_EQUAL(tags, want);
	free(tags);
}

static size_t count_trailers(const struct patch *p, const char *key)
{
	size_t n = 0;
	for (size_t i = 0; i < p->ntrailers; i++)
		n += !strcmp(p->trailers[i].key, key);
	return n;
}

static void test_cbl_mbox(void)
{
	struct patch_files pf;
	read_fixture(&pf, "patches/cbl-ci2__mainline.mbox");
	CU_ASSERT_EQUAL_FATAL(pf.npatches, 4);
	CU_ASSERT_EQUAL(pf.nmalformed, 0);
	struct patch *p = pf.patches;
	/* folded "[PATCH 1/3] FROMGIT: ... pointer\n comparison" */
	CU_ASSERT_STRING_EQUAL(p[0].subject,
			       "FROMGIT: IB/qib: Fix clang confusion of NULL pointer comparison");
	CU_ASSERT_STRING_EQUAL(p[0].title,
			       "IB/qib: Fix clang confusion of NULL pointer comparison");
	assert_tags(&p[0], "FROMGIT");
	CU_ASSERT_STRING_EQUAL(p[0].id, "4d2cb0a5ecdac0ff328eba7ce88fb77dd8a3476c");
	CU_ASSERT_STRING_EQUAL(p[0].author, "Jason Gunthorpe");
	CU_ASSERT_STRING_EQUAL(p[0].author_email, "jgg@nvidia.com");
	CU_ASSERT_EQUAL(p[0].time, 1631561156); /* Mon, 13 Sep 2021 16:25:56 -0300 */
	CU_ASSERT_EQUAL(p[0].tz_offset, -180);
	CU_ASSERT_EQUAL(p[0].ntrailers, 6);
	CU_ASSERT_STRING_EQUAL(
	    patch_trailer(&p[0], "Link"),
	    "https://git.kernel.org/rdma/rdma/c/3110b942d36b961858664486d72f815d78c956c3");
	CU_ASSERT_EQUAL(p[0].files, 1);
	CU_ASSERT_EQUAL(p[0].insertions, 1);
	CU_ASSERT_EQUAL(p[0].deletions, 1);
	CU_ASSERT_TRUE(p[0].stats_loaded);
	/* the body keeps its indented compiler output, the signature is gone */
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(p[0].body, " >> drivers/infiniband/hw/qib/qib_sysfs.c:413:1"));
	CU_ASSERT_PTR_NULL(strstr(p[0].diff, "2.33.0"));

	assert_tags(&p[1], "FROMLIST");
	CU_ASSERT_STRING_EQUAL(p[1].title, "ARM: select HAVE_FUTEX_CMPXCHG");
	CU_ASSERT_EQUAL(count_trailers(&p[1], "Link"), 2);
	CU_ASSERT_EQUAL(p[1].insertions, 1);
	CU_ASSERT_EQUAL(p[1].deletions, 0);

	assert_tags(&p[2], "HACK");
	CU_ASSERT_STRING_EQUAL(p[2].title, "block: Disable BLK_DEV_NBD with clang <= 13");
	CU_ASSERT_STRING_EQUAL(patch_trailer(&p[2], "Link"),
			       "https://github.com/ClangBuiltLinux/linux/issues/1438");

	/* "From MAILER-DAEMON": a list mail, no tag, notes after "---" */
	CU_ASSERT_STRING_EQUAL(p[3].subject, "nbd: use shifts rather than multiplies");
	assert_tags(&p[3], "");
	CU_ASSERT_STRING_EQUAL(p[3].author, "Nick Desaulniers");
	CU_ASSERT_EQUAL(p[3].time, 1632180333);
	CU_ASSERT_EQUAL(p[3].files, 1);
	CU_ASSERT_EQUAL(p[3].insertions, 17);
	CU_ASSERT_EQUAL(p[3].deletions, 12);
	CU_ASSERT_EQUAL(count_trailers(&p[3], "Link"), 3);
	CU_ASSERT_EQUAL(count_trailers(&p[3], "Suggested-by"), 3);
	CU_ASSERT_PTR_NULL(strstr(p[3].body, "This patch is kind of a v3"));
	CU_ASSERT_PTR_NULL(strstr(p[3].diff, "base-commit"));
	CU_ASSERT_EQUAL(strlen(p[3].id), 40); /* its patch id: no commit named it */
	for (size_t i = 0; i < 4; i++) {
		CU_ASSERT_EQUAL(p[i].index, i + 1);
		CU_ASSERT_PTR_NOT_NULL(strstr(p[i].source, "cbl-ci2__mainline.mbox"));
		CU_ASSERT_TRUE(str_startswith(p[i].diff, "diff --git a/"));
	}
	patch_files_free(&pf);
}

static void test_format_patch_single(void)
{
	struct patch_files pf;
	read_fixture(
	    &pf,
	    "patches/"
	    "cbl-ci2__android-mainline__0001-HACK-ARM-CURRENT_POINTER_IN_TPIDRURO-clang-14.patch");
	CU_ASSERT_EQUAL_FATAL(pf.npatches, 1);
	struct patch *p = pf.patches;
	CU_ASSERT_STRING_EQUAL(
	    p->subject, "HACK: ARM: Don't enable CONFIG_CURRENT_POINTER_IN_TPIDRURO with clang-14");
	assert_tags(p, "HACK");
	CU_ASSERT_STRING_EQUAL(p->id, "c39922c263e62cb1a4b24d30cd8a3a517f55f2f1");
	/* the issue URL in the body is not a Link: trailer */
	CU_ASSERT_PTR_NULL(patch_trailer(p, "Link"));
	CU_ASSERT_EQUAL(p->ntrailers, 1);
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(p->body, "https://github.com/ClangBuiltLinux/linux/issues/1502"));
	CU_ASSERT_EQUAL(p->files, 1);
	CU_ASSERT_EQUAL(p->insertions, 1);
	CU_ASSERT_EQUAL(p->deletions, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(p->diff, "index f0f9e8bec83a..e21e59d10188 100644\n"));
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(p->diff, "CLANG_VERSION < 140000\n \n config ARM_CPU_TOPOLOGY"));
	patch_files_free(&pf);
}

static void test_aosp(void)
{
	struct patch_files pf;
	read_fixture(&pf, "patches/"
			  "aosp-common-patches__android-mainline__BACKPORT-FROMLIST-pwm-Add-"
			  "support-for-different-PWM-output-types.patch");
	CU_ASSERT_EQUAL_FATAL(pf.npatches, 1);
	struct patch *p = pf.patches;
	assert_tags(p, "BACKPORT,FROMLIST");
	CU_ASSERT_STRING_EQUAL(p->title, "pwm: Add support for different PWM output types");
	CU_ASSERT_STRING_EQUAL(p->author, "Fenglin Wu");
	CU_ASSERT_STRING_EQUAL(patch_trailer(p, "Bug"), "140290585");
	CU_ASSERT_STRING_EQUAL(patch_trailer(p, "Change-Id"),
			       "Ie8d61975057c51258e5bde9451ce96be4acdf98b");
	CU_ASSERT_EQUAL(count_trailers(p, "Signed-off-by"), 2);
	/* From 0000...: no commit, so the id is the patch id, never zeros */
	CU_ASSERT_EQUAL(strlen(p->id), 40);
	CU_ASSERT_NOT_EQUAL(strspn(p->id, "0"), 40);
	CU_ASSERT_EQUAL(p->files, 3);
	CU_ASSERT_EQUAL(p->insertions, 74);
	CU_ASSERT_EQUAL(p->deletions, 0);
	patch_files_free(&pf);

	read_fixture(
	    &pf,
	    "patches/"
	    "aosp-common-patches__android-mainline_____ANNOTATION-pending-upstream_____.patch");
	CU_ASSERT_EQUAL(pf.npatches, 0);
	CU_ASSERT_EQUAL(pf.nmalformed, 0);
	CU_ASSERT_EQUAL_FATAL(pf.nannotations, 1);
	CU_ASSERT_STRING_EQUAL(pf.annotations[0].text, "pending upstream");
	CU_ASSERT_EQUAL(pf.annotations[0].position, 0);
	patch_files_free(&pf);

	/* the last one deletes the file: a marker too, not a change */
	read_fixture(&pf, "patches/"
			  "aosp-common-patches__android-mainline_____ANNOTATION-remove-ANNOTATIONS-"
			  "file_____.patch");
	CU_ASSERT_EQUAL(pf.npatches, 0);
	CU_ASSERT_EQUAL_FATAL(pf.nannotations, 1);
	CU_ASSERT_STRING_EQUAL(pf.annotations[0].text, "remove ANNOTATIONS file");
	patch_files_free(&pf);
}

static void test_dep3_and_plain_diffs(void)
{
	struct patch_files pf;
	read_fixture(&pf, "patches/debian-kernel__debian__arch-sh4-fix-uimage-build.patch");
	CU_ASSERT_EQUAL_FATAL(pf.npatches, 1);
	struct patch *p = pf.patches;
	CU_ASSERT_STRING_EQUAL(p->subject, "[sh4] Fix uImage build"); /* not a [PATCH] prefix */
	CU_ASSERT_STRING_EQUAL(p->author, "Nobuhiro Iwamatsu");
	CU_ASSERT_STRING_EQUAL(p->author_email, "iwamatsu@nigauri.org");
	CU_ASSERT_STRING_EQUAL(patch_trailer(p, "Forwarded"), "not-needed");
	CU_ASSERT_STRING_EQUAL(patch_trailer(p, "Bug-Debian"), "https://bugs.debian.org/569034");
	CU_ASSERT_TRUE(str_startswith(p->body, "[bwh: This was added without a description"));
	CU_ASSERT_TRUE(str_startswith(p->diff, "diff --git a/arch/sh/Makefile b/arch/sh/Makefile\n"
					       "--- a/arch/sh/Makefile\n+++ b/arch/sh/Makefile\n"));
	CU_ASSERT_EQUAL(p->deletions, 1);
	CU_ASSERT_EQUAL(p->insertions, 0);
	patch_files_free(&pf);

	read_fixture(&pf, "patches/"
			  "openwrt__target-linux-generic-backport-6.6__220-v6.16-powerpc-boot-fix-"
			  "build-with-gcc-15.patch");
	CU_ASSERT_EQUAL_FATAL(pf.npatches, 1);
	p = pf.patches;
	CU_ASSERT_STRING_EQUAL(p->subject, "powerpc/boot: Fix build with gcc 15");
	CU_ASSERT_STRING_EQUAL(patch_trailer(p, "Link"),
			       "https://patch.msgid.link/20250331105722.19709-1-msuchanek@suse.de");
	CU_ASSERT_EQUAL(count_trailers(p, "Tested-by"), 2);
	CU_ASSERT_EQUAL(p->files, 1);
	CU_ASSERT_EQUAL(p->insertions, 1);
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(p->diff, "@@ -72,6 +72,7 @@ BOOTCPPFLAGS\t:= -nostdinc $(LINUXINCLUDE\n"));
	patch_files_free(&pf);
}

static void test_b4(void)
{
	struct patch_files pf;
	read_fixture(&pf, "patches/b4-am-v3.mbox");
	CU_ASSERT_EQUAL_FATAL(pf.npatches, 3);
	CU_ASSERT_EQUAL(pf.nmalformed, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(pf.cover);
	CU_ASSERT_STRING_EQUAL(pf.cover->subject, "arm64: clang warning workarounds");
	struct patch *p = pf.patches;
	CU_ASSERT_STRING_EQUAL(p[0].subject,
			       "FROMLIST: kbuild: Disable -Wformat-overflow for clang");
	CU_ASSERT_EQUAL(count_trailers(&p[0], "Link"), 2);
	CU_ASSERT_STRING_EQUAL(patch_trailer(&p[0], "Reviewed-by"),
			       "Nick Desaulniers <ndesaulniers@google.com>");
	/* RFC 2047 name, mboxrd quoting undone once */
	CU_ASSERT_STRING_EQUAL(p[1].author, "Uwe Kleine-K\xc3\xb6nig");
	CU_ASSERT_TRUE(str_startswith(p[1].body,
				      ">From the clang side this is only a workaround.\n"
				      "From what I can tell it is needed until clang 17.\n"));
	CU_ASSERT_STRING_EQUAL(patch_trailer(&p[1], "Clang-Fixed"), "17");
	assert_tags(&p[1], "HACK");
	assert_tags(&p[2], "UPSTREAM");
	CU_ASSERT_PTR_NOT_NULL(strstr(p[2].diff, "new file mode 100644\n"));
	CU_ASSERT_EQUAL(p[2].time, 1678817013);
	/* b4's "From git@z" lines carry no commit: patch ids, distinct */
	CU_ASSERT_STRING_NOT_EQUAL(p[0].id, p[1].id);
	CU_ASSERT_EQUAL(strlen(p[0].id), 40);
	patch_files_free(&pf);
}

static void test_mutt_qp_inbody_from(void)
{
	struct patch_files pf;
	read_fixture(&pf, "patches/mutt-v3-07-12.mbox");
	CU_ASSERT_EQUAL_FATAL(pf.npatches, 1);
	struct patch *p = pf.patches;
	CU_ASSERT_STRING_EQUAL(p->subject, "FROMLIST: kbuild: add CLANG_AT_LEAST_14");
	assert_tags(p, "FROMLIST");
	/* "From:" at the top of the body names the author */
	CU_ASSERT_STRING_EQUAL(p->author, "Nick Desaulniers");
	CU_ASSERT_STRING_EQUAL(p->author_email, "ndesaulniers@google.com");
	CU_ASSERT_PTR_NOT_NULL(strstr(p->body, "CLANG_VERSION >= 140000 in three places"));
	CU_ASSERT_PTR_NOT_NULL(strstr(p->body, "quoted-printable: aaaa"));
	CU_ASSERT_PTR_NOT_NULL(strstr(p->diff, "asm goto (\"\" : \"=r\"(x) ::: bar);"));
	CU_ASSERT_EQUAL(p->insertions, 5);
	CU_ASSERT_EQUAL(p->deletions, 2);
	CU_ASSERT_EQUAL(count_trailers(p, "Signed-off-by"), 2);
	patch_files_free(&pf);
}

static void test_unordered_and_malformed(void)
{
	struct patch_files pf;
	read_fixture(&pf, "patches/unordered.mbox");
	CU_ASSERT_EQUAL_FATAL(pf.npatches, 2);
	CU_ASSERT_STRING_EQUAL(pf.patches[0].subject, "kbuild: add a comment");
	CU_ASSERT_STRING_EQUAL(pf.patches[1].subject,
			       "kbuild: use the helper for -Wformat-overflow");
	CU_ASSERT_EQUAL(pf.patches[0].index, 1);
	patch_files_free(&pf);

	read_fixture(&pf, "patches/malformed.mbox");
	CU_ASSERT_EQUAL_FATAL(pf.npatches, 2);
	CU_ASSERT_STRING_EQUAL(pf.patches[0].title, "good one");
	CU_ASSERT_STRING_EQUAL(pf.patches[1].title, "good again");
	CU_ASSERT_EQUAL(pf.patches[1].index, 2);
	CU_ASSERT_EQUAL_FATAL(pf.nmalformed, 2);
	CU_ASSERT_EQUAL(pf.malformed[0].line, 33);
	CU_ASSERT_EQUAL(pf.malformed[0].position, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(pf.malformed[0].reason, "hunk at line 29 cut short"));
	CU_ASSERT_EQUAL(pf.malformed[1].line, 34);
	CU_ASSERT_STRING_EQUAL(pf.malformed[1].reason, "no diff in 'HACK: no diff at all'");
	char *printed;
	size_t plen;
	FILE *f = open_memstream(&printed, &plen);
	patch_files_print_malformed(&pf, f);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(printed,
				      "malformed.mbox:34: no diff in 'HACK: no diff at all' "
				      "(after patch 1)\n"));
	free(printed);
	char *first = patch_files_first_error(&pf);
	CU_ASSERT_TRUE(str_endswith(first, "malformed.mbox:33: hunk at line 29 cut short: 0 old "
					   "and 1 new lines missing"));
	free(first);
	patch_files_free(&pf);
}

static void parse_text(struct patch_files *pf, const char *text)
{
	memset(pf, 0, sizeof(*pf));
	mbox_parse(pf, text, strlen(text), "mem.patch", NULL);
}

static void test_crlf_and_bare(void)
{
	struct patch_files pf;
	parse_text(&pf, "From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\r\n"
			"From: A U Thor <a@example.org>\r\n"
			"Subject: [RFC PATCH v2 3/4] CHROMIUM: x: y\r\n\r\n"
			"Body.\r\n---\r\n"
			"diff --git a/f b/f\r\n--- a/f\r\n+++ b/f\r\n@@ -1 +1 @@\r\n-a\r\n+b\r\n");
	CU_ASSERT_EQUAL_FATAL(pf.npatches, 1);
	CU_ASSERT_STRING_EQUAL(pf.patches[0].subject, "CHROMIUM: x: y");
	CU_ASSERT_STRING_EQUAL(pf.patches[0].body, "Body.");
	CU_ASSERT_PTR_NOT_NULL(strstr(pf.patches[0].diff, "-a\n+b\n"));
	patch_files_free(&pf);

	/* a body line "From ..." that is no mbox separator (format-patch does
	 * not quote it) */
	parse_text(&pf, "From 1111111111111111111111111111111111111111 Mon Sep 17 00:00:00 2001\n"
			"From: A <a@b.org>\nSubject: [PATCH] x\n\n"
			"From 2.6.32 to 5.10 this was fine:\nSigned-off-by: A <a@b.org>\n---\n"
			"--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n");
	CU_ASSERT_EQUAL_FATAL(pf.npatches, 1);
	CU_ASSERT_EQUAL(pf.nmalformed, 0);
	CU_ASSERT_TRUE(str_startswith(pf.patches[0].body, "From 2.6.32 to 5.10 this was fine:"));
	patch_files_free(&pf);

	parse_text(&pf, "--- a/x.c\n+++ b/x.c\n@@ -1 +1 @@\n-int a;\n+int b;\n");
	CU_ASSERT_EQUAL_FATAL(pf.npatches, 1);
	CU_ASSERT_STRING_EQUAL(pf.patches[0].subject, "mem"); /* named after its file */
	CU_ASSERT_STRING_EQUAL(pf.patches[0].author, "");
	patch_files_free(&pf);

	parse_text(&pf, "");
	CU_ASSERT_EQUAL(pf.npatches, 0);
	CU_ASSERT_EQUAL(pf.nmalformed, 1);
	patch_files_free(&pf);

	/* b4's "---" and base-commit right after the last hunk */
	parse_text(&pf, "Subject: [PATCH] x\n\n---\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n"
			"---\nbase-commit: 0123\n-- \nb4 0.13\n");
	CU_ASSERT_EQUAL(pf.npatches, 1);
	CU_ASSERT_EQUAL(pf.nmalformed, 0);
	patch_files_free(&pf);

	/* an undercounted hunk would silently drop a line: refused */
	parse_text(&pf, "--- a/x.c\n+++ b/x.c\n@@ -1 +1 @@\n-int a;\n+int b;\n+int c;\n");
	CU_ASSERT_EQUAL(pf.npatches, 0);
	CU_ASSERT_EQUAL_FATAL(pf.nmalformed, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(pf.malformed[0].reason, "more lines than its header"));
	CU_ASSERT_EQUAL(pf.malformed[0].line, 6);
	patch_files_free(&pf);
}

static void test_difftext_forms(void)
{
	struct difftext d;
	struct kerr e;
	const char *p0 = "--- dir/a.c.orig\t2023-01-01 00:00:00.000000000 +0000\n"
			 "+++ dir/a.c\t2023-01-02 00:00:00.000000000 +0000\n"
			 "@@ -1,2 +1,2 @@\n x\n-y\n+z\n"
			 "--- dir/new.c\t1970-01-01 00:00:00.000000000 +0000\n"
			 "+++ dir/new.c\t2023-01-02 00:00:00.000000000 +0000\n"
			 "@@ -0,0 +1 @@\n+n\n";
	CU_ASSERT_EQUAL_FATAL(difftext_parse(&d, p0, strlen(p0), 1, 0, &e), 0);
	CU_ASSERT_EQUAL_FATAL(d.nfiles, 2);
	CU_ASSERT_STRING_EQUAL(d.files[0].old_path, "dir/a.c");
	CU_ASSERT_PTR_NULL(d.files[1].old_path);
	CU_ASSERT_STRING_EQUAL(d.files[1].new_path, "dir/new.c");
	CU_ASSERT_PTR_NOT_NULL(strstr(d.git,
				      "diff --git a/dir/new.c b/dir/new.c\nnew file mode 100644\n"
				      "--- /dev/null\n+++ b/dir/new.c\n"));
	difftext_free(&d);
	CU_ASSERT_EQUAL_FATAL(difftext_parse(&d, p0, strlen(p0), 1, 1, &e), 0);
	CU_ASSERT_STRING_EQUAL(d.files[0].new_path, "a.c");
	difftext_free(&d);
	CU_ASSERT_EQUAL(difftext_parse(&d, p0, strlen(p0), 10, 2, &e), -1);
	CU_ASSERT_STRING_EQUAL(e.msg, "cannot strip 2 leading components from 'dir/a.c.orig'");
	CU_ASSERT_EQUAL(d.error_line, 10);

	const char *git =
	    "diff --git a/old name.c b/new name.c\nsimilarity index 90%\n"
	    "rename from old name.c\nrename to new name.c\n"
	    "diff --git a/logo.png b/logo.png\nnew file mode 100644\n"
	    "index 0000000..1111111\nGIT binary patch\nliteral 3\n"
	    "Kcmb=B0000000\n\nliteral 0\nHcmV?d00001\n\n"
	    "diff --git \"a/tab\\there\" \"b/tab\\there\"\nold mode 100644\nnew mode 100755\n"
	    "-- \n2.40.0\n";
	CU_ASSERT_EQUAL_FATAL(difftext_parse(&d, git, strlen(git), 1, 1, &e), 0);
	CU_ASSERT_EQUAL_FATAL(d.nfiles, 3);
	CU_ASSERT_STRING_EQUAL(d.files[0].old_path, "old name.c");
	CU_ASSERT_STRING_EQUAL(d.files[0].new_path, "new name.c");
	CU_ASSERT_TRUE(d.files[1].binary);
	CU_ASSERT_STRING_EQUAL(d.files[2].new_path, "tab\there");
	CU_ASSERT_PTR_NOT_NULL(strstr(d.git, "diff --git \"a/tab\\there\" \"b/tab\\there\"\n"));
	CU_ASSERT_PTR_NULL(strstr(d.git, "2.40.0"));
	difftext_free(&d);

	/* a blank context line eaten by a mailer is put back */
	const char *eaten = "--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n a\n\n-b\n+c\n";
	CU_ASSERT_EQUAL_FATAL(difftext_parse(&d, eaten, strlen(eaten), 1, 1, &e), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(d.git, "@@ -1,3 +1,3 @@\n a\n \n-b\n+c\n"));
	difftext_free(&d);
}

static void test_mail_helpers(void)
{
	int64_t t;
	int tz;
	CU_ASSERT_TRUE(mail_parse_date("Thu, 18 Nov 2021 09:23:27 -0700", &t, &tz));
	CU_ASSERT_EQUAL(t, 1637252607);
	CU_ASSERT_EQUAL(tz, -420);
	CU_ASSERT_TRUE(mail_parse_date("2016-11-21", &t, &tz));
	CU_ASSERT_EQUAL(t, 1479686400);
	CU_ASSERT_TRUE(mail_parse_date("1 Jan 2000 00:00 GMT", &t, &tz));
	CU_ASSERT_EQUAL(t, 946684800);
	CU_ASSERT_FALSE(mail_parse_date("yesterday", &t, &tz));
	/* fields out of range are no date (the writer could not give them back) */
	CU_ASSERT_FALSE(mail_parse_date("Tue, 14 Mar 2023 11:03333333333333333333", &t, &tz));
	CU_ASSERT_FALSE(mail_parse_date("Tue, 14 Mar 2023 24:00:00 +0000", &t, &tz));
	CU_ASSERT_FALSE(mail_parse_date("Tue, 14 Mar 20230 11:03:31 +0000", &t, &tz));
	CU_ASSERT_FALSE(mail_parse_date("99999-03-14", &t, &tz));
	/* a zone that is no hhmm counts as UTC */
	CU_ASSERT_TRUE(mail_parse_date("Tue, 14 Mar 2023 11:03:31 +9999", &t, &tz));
	CU_ASSERT_EQUAL(tz, 0);
	CU_ASSERT_EQUAL(t, 1678791811);

	char *s = mail_decode_words("=?UTF-8?B?VXdlIEtsZWluZS1Lw7ZuaWc=?= <u@x>");
	CU_ASSERT_STRING_EQUAL(s, "Uwe Kleine-K\xc3\xb6nig <u@x>");
	free(s);
	s = mail_decode_words("=?iso-8859-1?q?J=F6rg?= =?iso-8859-1?q?_R=F6del?=");
	CU_ASSERT_STRING_EQUAL(s, "J\xc3\xb6rg R\xc3\xb6"
				  "del");
	free(s);

	char *name, *email;
	mail_parse_address("\"Chancellor, Nathan\" <nathan@kernel.org>", &name, &email);
	CU_ASSERT_STRING_EQUAL(name, "Chancellor, Nathan");
	CU_ASSERT_STRING_EQUAL(email, "nathan@kernel.org");
	free(name);
	free(email);

	unsigned n, total;
	CU_ASSERT_STRING_EQUAL(mail_subject_strip("Re: [PATCH v3 07/12] FROMLIST: x", &n, &total),
			       "FROMLIST: x");
	CU_ASSERT_EQUAL(n, 7);
	CU_ASSERT_EQUAL(total, 12);
	CU_ASSERT_STRING_EQUAL(mail_subject_strip("[RFC] [PATCH 2/3] y", &n, &total), "y");
	CU_ASSERT_EQUAL(n, 2);
	CU_ASSERT_STRING_EQUAL(mail_subject_strip("[sh4] Fix uImage build", &n, &total),
			       "[sh4] Fix uImage build");
	CU_ASSERT_EQUAL(total, 0);
}

/* Written back as format-patch mails and read again: the same patches. */
static void test_format_round_trip(void)
{
	const char *files[] = {"patches/cbl-ci2__mainline.mbox", "patches/b4-am-v3.mbox",
			       "patches/mutt-v3-07-12.mbox",
			       "patches/debian-kernel__debian__arch-sh4-fix-uimage-build.patch",
			       "patches/"
			       "aosp-common-patches__android-mainline__BACKPORT-FROMLIST-pwm-Add-"
			       "support-for-different-PWM-output-types.patch"};
	for (size_t f = 0; f < ARRAY_SIZE(files); f++) {
		struct patch_files a, b = {0};
		read_fixture(&a, files[f]);
		struct strbuf sb = STRBUF_INIT;
		for (size_t i = 0; i < a.npatches; i++)
			mbox_format_patch(&a.patches[i], a.patches[i].diff, i + 1, a.npatches, &sb);
		mbox_parse(&b, sb.buf, sb.len, "again.mbox", NULL);
		CU_ASSERT_EQUAL_FATAL(b.npatches, a.npatches);
		CU_ASSERT_EQUAL(b.nmalformed, 0);
		for (size_t i = 0; i < a.npatches; i++) {
			struct patch *x = &a.patches[i], *y = &b.patches[i];
			CU_ASSERT_STRING_EQUAL(y->subject, x->subject);
			CU_ASSERT_STRING_EQUAL(y->author, x->author);
			CU_ASSERT_STRING_EQUAL(y->author_email, x->author_email);
			CU_ASSERT_EQUAL(y->time, x->time);
			CU_ASSERT_EQUAL(y->tz_offset, x->tz_offset);
			CU_ASSERT_STRING_EQUAL(y->body, x->body);
			CU_ASSERT_EQUAL(y->ntrailers, x->ntrailers);
			CU_ASSERT_STRING_EQUAL(y->diff, x->diff);
			CU_ASSERT_STRING_EQUAL(y->id, x->id);
			CU_ASSERT_EQUAL(y->tags, x->tags);
		}
		sb_free(&sb);
		patch_files_free(&a);
		patch_files_free(&b);
	}
}

/* A body that starts like in-body headers ("Subject: ..." quoted from a
 * report) is exported behind an in-body From: of the writer's own, so it
 * reads back as it was, not as a new subject. */
static void test_format_body_like_headers(void)
{
	const char *mail =
	    "From 1234567890123456789012345678901234567890 Mon Sep 17 00:00:00 2001\n"
	    "From: A U Thor <a@example.org>\n"
	    "Subject: [PATCH] x86: quote a report\n\n"
	    "From: Reporter <r@example.org>\n\n"
	    "Subject: it crashes\n\nThe report said so.\n"
	    "---\n"
	    "diff --git a/a.c b/a.c\n--- a/a.c\n+++ b/a.c\n@@ -1 +1 @@\n-int a;\n+long a;\n";
	struct patch_files a = {0}, b = {0};
	mbox_parse(&a, mail, strlen(mail), "a.mbox", NULL);
	CU_ASSERT_EQUAL_FATAL(a.npatches, 1);
	CU_ASSERT_STRING_EQUAL(a.patches[0].author, "Reporter");
	CU_ASSERT_PTR_NOT_NULL(strstr(a.patches[0].body, "Subject: it crashes"));
	struct strbuf sb = STRBUF_INIT;
	mbox_format_patch(&a.patches[0], a.patches[0].diff, 1, 1, &sb);
	CU_ASSERT_PTR_NOT_NULL(strstr(sb.buf, "\n\nFrom: Reporter <r@example.org>\n\nSubject: it"));
	mbox_parse(&b, sb.buf, sb.len, "b.mbox", NULL);
	CU_ASSERT_EQUAL_FATAL(b.npatches, 1);
	CU_ASSERT_STRING_EQUAL(b.patches[0].subject, a.patches[0].subject);
	CU_ASSERT_STRING_EQUAL(b.patches[0].author, "Reporter");
	CU_ASSERT_STRING_EQUAL(b.patches[0].body, a.patches[0].body);
	sb_free(&sb);
	patch_files_free(&a);
	patch_files_free(&b);
}

/* A subject or author whose text holds "=?...?=" (an encoded word quoted in
 * plain text) is written encoded, as git format-patch does: written as it
 * is, a reader would decode it. */
static void test_format_encoded_word_text(void)
{
	struct patch p = {0};
	p.subject = "arm64: quote =?utf-8?q?K=C3=B6nig?= in a subject";
	p.author = "A =?x?= Thor";
	p.author_email = "a@example.org";
	p.body = "Body.\n";
	p.time = 1700000000;
	struct strbuf sb = STRBUF_INIT;
	mbox_format_patch(&p,
			  "diff --git a/a.c b/a.c\n--- a/a.c\n+++ b/a.c\n@@ -1 +1 @@\n-int a;\n"
			  "+long a;\n",
			  1, 1, &sb);
	CU_ASSERT_PTR_NULL(strstr(sb.buf, "Subject: [PATCH] arm64: quote =?utf-8"));
	struct patch_files a = {0};
	mbox_parse(&a, sb.buf, sb.len, "a.mbox", NULL);
	CU_ASSERT_EQUAL_FATAL(a.npatches, 1);
	CU_ASSERT_STRING_EQUAL(a.patches[0].subject, p.subject);
	CU_ASSERT_STRING_EQUAL(a.patches[0].author, p.author);
	sb_free(&sb);
	patch_files_free(&a);
}

void suite_mbox(void)
{
	CU_pSuite s = CU_add_suite("mbox", NULL, NULL);
	CU_add_test(s, "ClangBuiltLinux mbox: format-patch + MAILER-DAEMON", test_cbl_mbox);
	CU_add_test(s, "format-patch file, folded subject", test_format_patch_single);
	CU_add_test(s, "AOSP From 0000..., stacked tags, annotation marker", test_aosp);
	CU_add_test(s, "DEP-3 header, quilt diffs without diff --git", test_dep3_and_plain_diffs);
	CU_add_test(s, "b4 am: From git@z, cover letter, >From, RFC 2047", test_b4);
	CU_add_test(s, "mutt: [PATCH v3 07/12], quoted-printable, in-body From",
		    test_mutt_qp_inbody_from);
	CU_add_test(s, "unordered series sorted, malformed listed", test_unordered_and_malformed);
	CU_add_test(s, "CRLF mail, bare diff, empty file, undercounted hunk", test_crlf_and_bare);
	CU_add_test(s, "diff forms: -pN, renames, binary, quoted paths", test_difftext_forms);
	CU_add_test(s, "mail dates, encoded words, addresses, subjects", test_mail_helpers);
	CU_add_test(s, "written as format-patch mails, read back the same", test_format_round_trip);
	CU_add_test(s, "a body that starts like in-body headers, written and read back",
		    test_format_body_like_headers);
	CU_add_test(s, "a subject holding an encoded word's text, written and read back",
		    test_format_encoded_word_text);
}
