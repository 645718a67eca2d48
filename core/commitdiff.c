/* A commit against its first parent. The changed paths come from treediff.c
 * (identical subtrees skipped, as git does); the changed blobs are then
 * counted directly, or handed to libgit2's diff, limited to those paths,
 * when renames must be found or the text of the diff is wanted. */
#include "core/commitdiff.h"

#include <git2.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/gitwrite.h"
#include "core/objread.h"
#include "core/treediff.h"

#define BINARY_CHECK_BYTES 8000 /* git and libgit2: a NUL in these is binary */

/* The ids of a commit's tree and of its first parent's (NULL: a root). */
static int commit_tree_ids(struct git_commit *c, git_oid *old, const git_oid **oldp, git_oid *new)
{
	git_commit *parent;
	*new = *git_commit_tree_id(c);
	*oldp = NULL;
	if (git_commit_parentcount(c) == 0)
		return 0;
	if (git_commit_parent(&parent, c, 0) < 0)
		return -1;
	*old = *git_commit_tree_id(parent);
	*oldp = old;
	git_commit_free(parent);
	return 0;
}

enum rename_mode commitdiff_rename_mode(git_repository *r)
{
	git_config *cfg = NULL;
	git_buf val = GIT_BUF_INIT;
	enum rename_mode m = RENAMES_ON;
	if (git_repository_config_snapshot(&cfg, r) == 0 &&
	    git_config_get_string_buf(&val, cfg, "diff.renames") == 0) {
		int b;
		if (!strcasecmp(val.ptr, "copies") || !strcasecmp(val.ptr, "copy"))
			m = RENAMES_COPIES;
		else if (git_config_parse_bool(&b, val.ptr) == 0)
			m = b ? RENAMES_ON : RENAMES_OFF;
	}
	git_buf_dispose(&val);
	git_config_free(cfg);
	git_error_clear();
	return m;
}

static bool is_binary(const char *s, size_t n)
{
	return memchr(s, '\0', n < BINARY_CHECK_BYTES ? n : BINARY_CHECK_BYTES) != NULL;
}

static size_t count_lines(const char *s, size_t n)
{
	size_t lines = 0;
	for (const char *p = s, *end = s + n; (p = memchr(p, '\n', (size_t)(end - p))); p++)
		lines++;
	return lines + (n && s[n - 1] != '\n');
}

static int count_hunk(const git_diff_delta *d, const git_diff_hunk *h, void *payload)
{
	struct diffstat *st = payload;
	(void)d;
	/* zero context lines: a hunk's lines are all changes */
	st->deletions += (size_t)h->old_lines;
	st->insertions += (size_t)h->new_lines;
	return 0;
}

/* The end of the line starting at s (past its newline, if any). */
static const char *line_end(const char *s, const char *end)
{
	const char *nl = memchr(s, '\n', (size_t)(end - s));
	return nl ? nl + 1 : end;
}

/* The start of the line ending at end (which is past a newline or at EOF). */
static const char *line_start(const char *begin, const char *end)
{
	const char *s = end - 1;
	while (s > begin && s[-1] != '\n')
		s--;
	return s;
}

/* Strip the lines both texts start and end with, as xdiff does first. When
 * one side has nothing left the counts are the other side's lines, and when
 * each side has one line left they differ (or they would have been
 * stripped): no diff to run for a patch that only adds, only removes or
 * changes one line, whatever the algorithm. */
static bool counts_without_diff(const char *a, size_t an, const char *b, size_t bn,
				struct diffstat *st)
{
	const char *ae = a + an, *be = b + bn;
	while (a < ae && b < be) {
		const char *la = line_end(a, ae), *lb = line_end(b, be);
		if (la - a != lb - b || memcmp(a, b, (size_t)(la - a)))
			break;
		a = la, b = lb;
	}
	while (a < ae && b < be) {
		const char *la = line_start(a, ae), *lb = line_start(b, be);
		if (ae - la != be - lb || memcmp(la, lb, (size_t)(ae - la)))
			break;
		ae = la, be = lb;
	}
	size_t del = count_lines(a, (size_t)(ae - a)), ins = count_lines(b, (size_t)(be - b));
	if (del && ins && (del > 1 || ins > 1))
		return false;
	st->deletions += del;
	st->insertions += ins;
	return true;
}

/* A blob's bytes; a missing side (added or deleted file) is empty. */
static int read_blob(struct objread *o, unsigned mode, const git_oid *id, const char **data,
		     size_t *len)
{
	git_object_t type;
	*data = NULL;
	*len = 0;
	if (!mode)
		return 0;
	if (objread_read(o, id, &type, data, len) < 0)
		return -1;
	if (type == GIT_OBJECT_BLOB)
		return 0;
	objread_release(o, *data);
	*data = NULL;
	git_error_set_str(GIT_ERROR_OBJECT, "not a blob");
	return -1;
}

/* Lines of one changed path, as --numstat counts them. */
static int stat_change(struct objread *o, const struct change *c, struct diffstat *st)
{
	const char *os = NULL, *ns = NULL;
	size_t on, nn;
	int rc;
	st->files++;
	/* a submodule is one line, "Subproject commit <id>" */
	if (c->old_mode == GIT_FILEMODE_COMMIT || c->new_mode == GIT_FILEMODE_COMMIT) {
		st->deletions += c->old_mode != 0;
		st->insertions += c->new_mode != 0;
		return 0;
	}
	if ((rc = read_blob(o, c->old_mode, &c->old_id, &os, &on)) < 0 ||
	    (rc = read_blob(o, c->new_mode, &c->new_id, &ns, &nn)) < 0)
		goto out;
	const char *a = os ? os : "", *b = ns ? ns : "";
	if (is_binary(a, on) || is_binary(b, nn) || counts_without_diff(a, on, b, nn, st))
		goto out;
	git_diff_options opts = GIT_DIFF_OPTIONS_INIT;
	opts.context_lines = 0;
	opts.flags = GIT_DIFF_FORCE_TEXT;
	rc = git_diff_buffers(a, on, NULL, b, nn, NULL, &opts, NULL, NULL, count_hunk, NULL, st);
out:
	objread_release(o, os);
	objread_release(o, ns);
	return rc;
}

/* libgit2's diff of the two trees, limited to the changed paths (so it does
 * not walk the whole tree), with renames found as git would. */
static int libgit2_diff(git_repository *r, const git_oid *old_id, const git_oid *new_id,
			const struct changes *ch, enum rename_mode rn, const git_diff_options *opts,
			git_diff **out)
{
	git_diff_options o = GIT_DIFF_OPTIONS_INIT;
	if (opts)
		o = *opts;
	git_tree *old = NULL, *new = NULL;
	char **paths = xcalloc(ch->n, sizeof(char *));
	for (size_t i = 0; i < ch->n; i++)
		paths[i] = ch->v[i].path;
	o.pathspec.strings = paths;
	o.pathspec.count = ch->n;
	o.flags |= GIT_DIFF_DISABLE_PATHSPEC_MATCH;
	*out = NULL;
	int rc = git_tree_lookup(&new, r, new_id);
	if (rc == 0 && old_id)
		rc = git_tree_lookup(&old, r, old_id);
	if (rc == 0) /* no change: an empty diff of the tree with itself */
		rc = git_diff_tree_to_tree(out, r, ch->n ? old : new, new, &o);
	free(paths);
	if (rc == 0 && rn != RENAMES_OFF && ch->added && (ch->deleted || rn == RENAMES_COPIES)) {
		git_diff_find_options fo = GIT_DIFF_FIND_OPTIONS_INIT;
		fo.flags =
		    GIT_DIFF_FIND_RENAMES | (rn == RENAMES_COPIES ? GIT_DIFF_FIND_COPIES : 0);
		rc = git_diff_find_similar(*out, &fo);
	}
	if (rc < 0) {
		git_diff_free(*out);
		*out = NULL;
	}
	git_tree_free(old);
	git_tree_free(new);
	return rc;
}

static int stat_trees(git_repository *r, struct objread *o, const git_oid *old, const git_oid *new,
		      enum rename_mode rn, struct diffstat *out)
{
	struct changes ch;
	int rc = tree_changes(o, old, new, &ch);
	memset(out, 0, sizeof(*out));
	/* only added and deleted files can pair up as renames */
	if (rc == 0 && rn != RENAMES_OFF && ch.added && ch.deleted) {
		git_diff *d = NULL;
		git_diff_stats *ds = NULL;
		rc = libgit2_diff(r, old, new, &ch, rn, NULL, &d);
		if (rc == 0)
			rc = git_diff_get_stats(&ds, d);
		if (rc == 0) {
			out->files = git_diff_stats_files_changed(ds);
			out->insertions = git_diff_stats_insertions(ds);
			out->deletions = git_diff_stats_deletions(ds);
		}
		git_diff_stats_free(ds);
		git_diff_free(d);
	} else {
		for (size_t i = 0; rc == 0 && i < ch.n; i++)
			rc = stat_change(o, &ch.v[i], out);
	}
	changes_free(&ch);
	return rc;
}

int commitdiff_stat_trees(git_repository *r, struct objread *o, const git_oid *old_id,
			  const git_oid *new_id, enum rename_mode rn, struct diffstat *out,
			  struct kerr *e)
{
	if (stat_trees(r, o, old_id, new_id, rn, out) == 0)
		return 0;
	return kerr_set(e, "tree %s: cannot compute the diff: %s", git_oid_tostr_s(new_id),
			gw_strerror());
}

int commitdiff_stat(git_repository *r, struct objread *o, struct git_commit *c, enum rename_mode rn,
		    struct diffstat *out, struct kerr *e)
{
	git_oid old, new;
	const git_oid *oldp;
	memset(out, 0, sizeof(*out));
	if (commit_tree_ids(c, &old, &oldp, &new) == 0 &&
	    stat_trees(r, o, oldp, &new, rn, out) == 0)
		return 0;
	return kerr_set(e, "%s: cannot compute the diff: %s", git_oid_tostr_s(git_commit_id(c)),
			gw_strerror());
}

int commitdiff_diff(git_repository *r, struct objread *o, struct git_commit *c, enum rename_mode rn,
		    const git_diff_options *opts, git_diff **out)
{
	git_oid old, new;
	const git_oid *oldp;
	struct changes ch = {0};
	*out = NULL;
	int rc = commit_tree_ids(c, &old, &oldp, &new) == 0 &&
			 tree_changes(o, oldp, &new, &ch) == 0 &&
			 libgit2_diff(r, oldp, &new, &ch, rn, opts, out) == 0
		     ? 0
		     : -1;
	changes_free(&ch);
	return rc;
}

char *commitdiff_text(git_repository *r, struct objread *o, struct git_commit *c,
		      enum rename_mode rn, struct kerr *e)
{
	git_diff *d = NULL;
	git_buf buf = GIT_BUF_INIT;
	char *text = NULL;
	if (commitdiff_diff(r, o, c, rn, NULL, &d) == 0 &&
	    git_diff_to_buf(&buf, d, GIT_DIFF_FORMAT_PATCH) == 0)
		text = xstrndup(buf.ptr ? buf.ptr : "", buf.size);
	else
		kerr_set(e, "%s: cannot compute the diff: %s", git_oid_tostr_s(git_commit_id(c)),
			 gw_strerror());
	git_buf_dispose(&buf);
	git_diff_free(d);
	return text;
}

/* Line count of a hunk header's side: "12,3" is 3, "12" is 1. */
static long hunk_side(const char *s, char **end)
{
	long n = 1;
	strtol(s, end, 10);
	if (**end == ',')
		n = strtol(*end + 1, end, 10);
	return n;
}

/* Counts "@@ -a,b +c,d @@" hunks line by line, so a "--- x" line inside a
 * hunk is a deletion, not a file header. Files are the "diff --git" headers,
 * or the "+++ " headers of a diff without them (quilt). */
void diffstat_from_text(const char *diff, struct diffstat *out)
{
	long old_left = 0, new_left = 0;
	size_t git_files = 0, plain_files = 0;
	memset(out, 0, sizeof(*out));
	for (const char *s = diff; s && *s;) {
		const char *nl = strchr(s, '\n');
		char *end;
		if (old_left > 0 || new_left > 0) {
			if (*s == '-')
				old_left--, out->deletions++;
			else if (*s == '+')
				new_left--, out->insertions++;
			else if (*s != '\\')
				old_left--, new_left--;
		} else if (!strncmp(s, "diff --git ", 11)) {
			git_files++;
		} else if (!strncmp(s, "+++ ", 4) || !strncmp(s, "Binary files ", 13)) {
			plain_files++;
		} else if (!strncmp(s, "@@ -", 4)) {
			long o = hunk_side(s + 4, &end);
			if (!strncmp(end, " +", 2)) {
				old_left = o;
				new_left = hunk_side(end + 2, &end);
			}
		}
		s = nl ? nl + 1 : NULL;
	}
	out->files = git_files ? git_files : plain_files;
}
