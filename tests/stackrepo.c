/* Test repositories for the patch-stack suites (not a suite). */
#include "tests/stackrepo.h"

#include <git2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gitwrite.h"
#include "core/util.h"
#include "tests/helpers.h"

/* "prefix 1\n" .. "prefix n\n", lines line1 and line2 (if not 0) replaced. */
static char *text(const char *prefix, int n, int line1, const char *with1, int line2,
		  const char *with2)
{
	struct strbuf sb = STRBUF_INIT;
	for (int i = 1; i <= n; i++) {
		if (i == line1)
			sb_addf(&sb, "%s\n", with1);
		else if (i == line2)
			sb_addf(&sb, "%s\n", with2);
		else
			sb_addf(&sb, "%s %d\n", prefix, i);
	}
	return sb_detach(&sb);
}

struct step {
	const char *message;
	const char *author; /* NULL: default */
	struct gw_file files[3];
	size_t nfiles;
};

static int commit(struct git_repository *repo, const char *ref, const char *parent,
		  const char *second, const struct step *s, char id[41])
{
	struct kerr e;
	struct gw_commit c = {.ref = ref,
			      .parent = parent,
			      .second_parent = second,
			      .files = s->files,
			      .nfiles = s->nfiles,
			      .message = s->message,
			      .author = s->author,
			      .email = s->author ? "jm@example.org" : NULL};
	if (gw_commit(repo, &c, id, &e) < 0) {
		fprintf(stderr, "stackrepo: %s\n", e.msg);
		return -1;
	}
	return 0;
}

int stackrepo_build(struct stackrepo *r)
{
	struct git_repository *repo;
	struct kerr e;
	char tmp[41];
	int rc = -1;
	memset(r, 0, sizeof(*r));
	r->dir = test_tmpdir();
	if (gw_init(r->dir, &repo, &e) < 0)
		return -1;

	char *core0 = text("usb core line", 20, 0, NULL, 0, NULL);
	char *core1 = text("usb core line", 20, 5, "usb core line 5 fixed", 0, NULL);
	/* two changes far apart: a real diff, not only added or removed lines */
	char *core2 = text("usb core line", 20, 2, "usb gadget 2", 15, "usb gadget 15");
	char *core3 = xasprintf("%sone more line\n", core2);
	char *mm0 = text("arm mm", 10, 0, NULL, 0, NULL);
	char *mm1 = xstrdup("arm mm 1\narm mm 2\narm mm 3\narm mm 4\narm mm 5\nnew a\nnew b\n"
			    "arm mm 6\narm mm 7\narm mm 8\narm mm 9\narm mm 10\n");
	char *mm2 = xasprintf("replaced 1-3\n%s", strstr(mm1, "arm mm 4"));
	char *pwm = text("pwm output type", 12, 0, NULL, 0, NULL);
	char *longtxt = text("long document line", 30, 0, NULL, 0, NULL);
	struct strbuf sb = STRBUF_INIT;
	sb_adds(&sb, "CHROMIUM: mm: ");
	while (sb.len < 300)
		sb_adds(&sb, "a very long subject ");
	sb.len = 300;
	sb.buf[300] = '\0';
	char *subject300 = xasprintf("%s\n\nA subject of exactly 300 characters.\n", sb.buf);
	sb_free(&sb);

	const struct step base0 = {"Linux 4.8\n",
				   NULL,
				   {{"README", "Linux kernel\n", 0},
				    {"drivers/usb/core.c", core0, 0},
				    {"arch/arm/mm.c", mm0, 0}},
				   3};
	const struct step base = {"Linux 4.9\n", NULL, {{"README", "Linux kernel 4.9\n", 0}}, 1};
	const struct step steps[SR_COUNT] = {
	    [SR_UPSTREAM] =
		{"UPSTREAM: usb: core: fix a leak in hub probe\n\n"
		 "The hub probe leaked its buffer on the error path.\n\n"
		 "Change-Id: I0123456789abcdef0123456789abcdef01234567\n"
		 "Signed-off-by: Greg <greg@example.org>\n"
		 "(cherry picked from commit 0123456789abcdef0123456789abcdef01234567)\n"
		 "Signed-off-by: Android Dev <dev@android.example>\n",
		 NULL,
		 {{"drivers/usb/core.c", core1, 0}},
		 1},
	    [SR_BACKPORT_FROMLIST] =
		{"BACKPORT: FROMLIST: pwm: Add support for different PWM output types\n\n"
		 "Some hardware can emit inverted output.\n\n"
		 "[Lee: Backported to 4.9, minor conflicts]\n"
		 "Bug: 123456\n"
		 "Link: https://lore.kernel.org/patchwork/patch/1234/\n"
		 "Change-Id: Iabc\n"
		 "Signed-off-by: Lee <lee@example.org>\n",
		 NULL,
		 {{"drivers/pwm/core.c", pwm, 0}},
		 1},
	    [SR_DO_NOT_UPSTREAM] = {"DO-NOT-UPSTREAM: debug: add a knob\n",
				    NULL,
				    {{"README", "Linux kernel 4.9\nknob\nmore\n", 0}},
				    1},
	    [SR_ANDROID_ARM] = {"ANDROID: ARM: enable the thing\n",
				NULL,
				{{"arch/arm/mm.c", mm1, 0}},
				1},
	    [SR_FROMLIST_USB] = {"FROMLIST: USB: gadget: fix two lines\n",
				 NULL,
				 {{"drivers/usb/core.c", core2, 0}},
				 1},
	    [SR_REVERT] = {"Revert \"BACKPORT: FROMLIST: pwm: Add support for different PWM output "
			   "types\"\n\n"
			   "This reverts commit 1234.\n",
			   NULL,
			   {{"drivers/pwm/core.c", NULL, 0}},
			   1},
	    [SR_UNTAGGED] = {"kbuild: add a Makefile\n",
			     NULL,
			     {{"Makefile", "all:\n\ttrue", 0}},
			     1},
	    [SR_MERGE] = {"Merge branch 'side'\n",
			  NULL,
			  {{"side.c", "int side;\n", 0}, {"README", "Linux kernel 4.9\nknob\n", 0}},
			  2},
	    [SR_UTF8_AUTHOR] =
		{"HACK: clang: work around a miscompile\n\n"
		 "(cherry picked from commit abcdef0123456789abcdef0123456789abcdef01)\n\n"
		 "Clang-Fixed: 15\n"
		 "Signed-off-by: Jos\xc3\xa9 M\xc3\xbcller <jm@example.org>\n",
		 "Jos\xc3\xa9 M\xc3\xbcller",
		 {{"arch/arm/mm.c", mm2, 0}},
		 1},
	    [SR_LONG_SUBJECT] = {subject300, NULL, {{"docs/long.txt", longtxt, 0}}, 1},
	    [SR_TAB_SUBJECT] = {"CUSTOM: a\ttab in the subject\n",
				NULL,
				{{"README", "Linux kernel 4.9\nknob\ntab\n", 0}},
				1},
	    [SR_BINARY] = {"OBSOLETE: add a firmware blob\n",
			   NULL,
			   {{"firmware/blob.bin", "FW\0\1\2\n\n", 8}},
			   1},
	    [SR_RENAME] = {"FROMGIT: docs: rename long.txt\n",
			   NULL,
			   {{"docs/long.txt", NULL, 0}, {"docs/longer.txt", longtxt, 0}},
			   2},
	    [SR_LOWERCASE] = {"Upstream: lower case is not a tag\n",
			      NULL,
			      {{"drivers/usb/core.c", core3, 0}},
			      1},
	    [SR_NO_SPACE] = {"HACK:no space is not a tag\n",
			     NULL,
			     {{"README", "Linux kernel 4.9\n", 0}},
			     1},
	    [SR_TWO_LINE_SUBJECT] = {"UPSTREAM: a subject on\ntwo lines\n\nBody.\n",
				     NULL,
				     {{"arch/arm/mm.c", mm0, 0}},
				     1},
	    [SR_EMPTY] = {"BACKPORT: change nothing\n", NULL, {{0}}, 0},
	};

	if (commit(repo, "refs/heads/main", NULL, NULL, &base0, tmp) < 0 ||
	    gw_tag(repo, "v4.8", "main", &e) < 0 ||
	    commit(repo, "refs/heads/main", NULL, NULL, &base, r->base) < 0 ||
	    gw_tag(repo, "v4.9", "main", &e) < 0)
		goto out;
	const struct step other = {
	    "other: a branch off v4.8\n", NULL, {{"other.c", "int o;\n", 0}}, 1};
	if (commit(repo, "refs/heads/other", "v4.8", NULL, &other, tmp) < 0)
		goto out;
	const struct step side = {
	    "side: work on a branch\n", NULL, {{"side.c", "int side;\n", 0}}, 1};
	for (int i = 0; i < SR_COUNT; i++) {
		if (i == SR_MERGE &&
		    commit(repo, "refs/heads/side", r->base, NULL, &side, r->side) < 0)
			goto out;
		if (commit(repo, "refs/heads/main", NULL, i == SR_MERGE ? "side" : NULL, &steps[i],
			   r->ids[i]) < 0)
			goto out;
		if (i == SR_TAB_SUBJECT && gw_tag(repo, "android-4.9", "main", &e) < 0)
			goto out;
	}
	rc = gw_checkout(repo, "main", &e);
out:
	git_repository_free(repo);
	free(core0), free(core1), free(core2), free(core3);
	free(mm0), free(mm1), free(mm2), free(pwm), free(longtxt), free(subject300);
	return rc;
}

void stackrepo_free(struct stackrepo *r)
{
	test_rmdir(r->dir);
	free(r->dir);
	r->dir = NULL;
}

char *stackrepo_generate(size_t n, size_t files)
{
	char *dir = test_tmpdir();
	char *cmd = xasprintf("git init -q '%s' && LC_ALL=C awk -v n=%zu -v files=%zu -f "
			      "'%s/bench/stack-gen.awk' | git -C '%s' fast-import --quiet",
			      dir, n, files, test_src_dir(), dir);
	int rc = test_run(cmd, NULL, NULL);
	free(cmd);
	if (rc != 0) {
		test_rmdir(dir);
		free(dir);
		return NULL;
	}
	return dir;
}

char *stackrepo_expected_tsv(const char *dir, const char *range)
{
	char *out = NULL;
	char *cmd = xasprintf("git -C '%s' log --reverse --first-parent --numstat "
			      "--format='@@@%%H%%x1f%%an%%x1f%%s' %s | LC_ALL=C awk -f "
			      "'%s/tests/stack-expect.awk'",
			      dir, range, test_src_dir());
	if (test_run(cmd, &out, NULL) != 0) {
		free(out);
		out = NULL;
	}
	free(cmd);
	return out;
}
