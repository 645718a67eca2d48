/* Patch files from a series: commits built in memory (core/apply.c), each
 * turned into a format-patch email by libgit2, each written atomically
 * without overwriting anything; on failure (a full disk) none is left. */
#include "core/export.h"

#include <ctype.h>
#include <git2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/commitdiff.h"
#include "core/gitwrite.h"
#include "core/lockfile.h"
#include "core/mbox.h"
#include "core/objread.h"

int export_format_parse(const char *s)
{
	if (s && !strcmp(s, "mbox"))
		return EXPORT_MBOX;
	if (s && !strcmp(s, "quilt"))
		return EXPORT_QUILT;
	return -1;
}

char *export_file_name(size_t n, const char *subject)
{
	struct strbuf sb = STRBUF_INIT;
	sb_addf(&sb, "%04zu-", n);
	size_t start = sb.len;
	bool gap = false;
	for (const char *p = subject; *p && sb.len - start < 52; p++) {
		unsigned char c = (unsigned char)*p;
		if (isalnum(c) || c == '.' || c == '_') {
			if (gap && sb.len > start)
				sb_addc(&sb, '-');
			gap = false;
			sb_addc(&sb, (char)c);
			while (c == '.' && p[1] == '.')
				p++;
		} else {
			gap = true;
		}
	}
	while (sb.len > start && (sb.buf[sb.len - 1] == '.' || sb.buf[sb.len - 1] == '-'))
		sb.buf[--sb.len] = '\0';
	sb_adds(&sb, ".patch");
	return sb_detach(&sb);
}

/* The email of commit `id` (n of total) in format-patch form. */
static int email(git_repository *repo, struct objread *rd, const char *id, size_t n, size_t total,
		 git_buf *out, struct kerr *e)
{
	git_oid oid;
	git_commit *c = NULL;
	git_diff *diff = NULL;
	git_email_create_options o = GIT_EMAIL_CREATE_OPTIONS_INIT;
	int rc = -1;
	if (git_oid_fromstr(&oid, id) == 0 && git_commit_lookup(&c, repo, &oid) == 0 &&
	    commitdiff_diff(repo, rd, c, RENAMES_OFF, &o.diff_opts, &diff) == 0 &&
	    git_email_create_from_diff(out, diff, n, total, &oid, git_commit_summary(c),
				       git_commit_body(c), git_commit_author(c), &o) == 0)
		rc = 0;
	else
		kerr_set(e, "format patch %zu: %s", n, gw_strerror());
	git_diff_free(diff);
	git_commit_free(c);
	return rc;
}

/* Mail k (0-based) of the n to write: from the commit built in memory, or
 * for a stack read from files without a base, from the patch as read. */
static int mail_text(struct series *s, git_repository *repo, struct objread *rd,
		     const struct apply_result *res, size_t item, size_t k, size_t n,
		     struct strbuf *out, struct kerr *e)
{
	if (!repo) {
		const struct patch *p = s->items[item].patch;
		mbox_format_patch(p, p->diff, k + 1, n, out);
		return 0;
	}
	git_buf mail = GIT_BUF_INIT;
	int rc = email(repo, rd, res->commits[k], k + 1, n, &mail, e);
	if (rc == 0) {
		/* format-patch's signature, naming klang rather than libgit2 */
		char *sig = NULL;
		for (char *f = strstr(mail.ptr, "\n--\nlibgit2 "); f;
		     f = strstr(f + 1, "\n--\nlibgit2 "))
			sig = f; /* the last one: a diff line may look alike */
		sb_add(out, mail.ptr, sig ? (size_t)(sig - mail.ptr) + 1 : mail.size);
		sb_adds(out, "-- \nklang " KLANG_VERSION "\n\n");
	}
	git_buf_dispose(&mail);
	return rc;
}

/* Every name first, checked against the directory, then every file. */
static int write_all(struct series *s, git_repository *repo, struct objread *rd,
		     const struct apply_result *res, size_t n, const char *dir,
		     enum export_format fmt, char ***files, size_t *nfiles, struct kerr *e)
{
	size_t total = n + (fmt == EXPORT_QUILT);
	char **names = xcalloc(total + 1, sizeof(*names));
	char **paths = xcalloc(total + 1, sizeof(*paths));
	size_t *items = xcalloc(n + 1, sizeof(*items));
	struct strbuf series_file = STRBUF_INIT;
	size_t written = 0;
	int rc = 0;
	for (size_t i = 0, k = 0; i < s->nitems && k < n; i++) {
		if (!s->items[i].keep)
			continue;
		bool empty = false;
		for (size_t j = 0; j < res->nempty; j++)
			empty |= res->empty[j] == i + 1;
		if (empty)
			continue;
		items[k] = i;
		names[k] = export_file_name(k + 1, s->items[i].patch->subject);
		sb_addf(&series_file, "%s\n", names[k]);
		k++;
	}
	if (fmt == EXPORT_QUILT)
		names[n] = xstrdup("series");
	for (size_t i = 0; i < total && rc == 0; i++) {
		paths[i] = xasprintf("%s/%s", dir, names[i]);
		if (file_exists(paths[i]))
			rc = kerr_set(e, "%s exists; klang will not overwrite it", paths[i]);
	}
	if (rc == 0 && file_exists(dir) && !is_dir(dir))
		rc = kerr_set(e, "%s exists and is not a directory", dir);
	bool made_dir = rc == 0 && !is_dir(dir);
	if (rc == 0)
		rc = mkdir_p(dir, e);
	for (size_t i = 0; i < n && rc == 0; i++) {
		struct strbuf sb = STRBUF_INIT;
		rc = mail_text(s, repo, rd, res, items[i], i, n, &sb, e);
		if (rc == 0)
			rc = write_file_new(paths[i], sb.buf, sb.len, e);
		written += rc == 0;
		sb_free(&sb);
	}
	if (rc == 0 && fmt == EXPORT_QUILT)
		rc = write_file_new(paths[n], sb_str(&series_file), series_file.len, e);
	sb_free(&series_file);
	free(items);
	for (size_t i = 0; i < total; i++)
		free(names[i]);
	free(names);
	if (rc == 0) {
		*files = paths;
		*nfiles = total;
	} else {
		for (size_t i = 0; i < total; i++) {
			if (i < written) /* all or nothing: a full disk leaves no half series */
				unlink(paths[i]);
			free(paths[i]);
		}
		if (made_dir)
			rmdir(dir);
		free(paths);
	}
	return rc;
}

static int export_unapplied(struct series *s, const char *dir, enum export_format fmt,
			    struct apply_result *res, char ***files, size_t *nfiles, struct kerr *e)
{
	size_t n = 0;
	for (size_t i = 0; i < s->nitems; i++) {
		if (!s->items[i].keep)
			continue;
		if (!s->items[i].patch->diff)
			return kerr_set(e, "patch %zu has no diff to export", i + 1);
		n++;
	}
	return write_all(s, NULL, NULL, res, n, dir, fmt, files, nfiles, e);
}

int export_series(struct series *s, const char *dir, enum export_format fmt,
		  struct apply_result *res, char ***files, size_t *nfiles, struct kerr *e)
{
	*files = NULL;
	*nfiles = 0;
	memset(res, 0, sizeof(*res));
	if (!s->st->repo) /* read from files without a base: the patches as read */
		return export_unapplied(s, dir, fmt, res, files, nfiles, e);
	git_repository *scratch;
	if (apply_open_scratch(s, &scratch, e) < 0)
		return -1;
	/* the commits made in memory are read through the scratch handle */
	struct objread *rd = objread_new(scratch);
	int rc = apply_build(s, scratch, res, e);
	if (rc == 0)
		rc = write_all(s, scratch, rd, res, res->applied, dir, fmt, files, nfiles, e);
	objread_free(rd);
	git_repository_free(scratch);
	return rc;
}
