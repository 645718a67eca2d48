/* Hunks applied where they match, near where their header says. Only the
 * files a diff touches are read; the tree is rewritten with
 * git_tree_create_updated. */
#include "core/hunkapply.h"

#include <git2.h>
#include <stdlib.h>
#include <string.h>

#include "core/gitwrite.h"

struct line {
	const char *s;
	size_t n; /* with its newline, if it has one */
};

struct image {
	struct line *v;
	size_t n, cap;
};

static void image_add(struct image *im, const char *s, size_t n)
{
	ALLOC_GROW(im->v, im->n + 1, im->cap);
	im->v[im->n++] = (struct line){s, n};
}

static void image_split(struct image *im, const char *buf, size_t len)
{
	for (size_t i = 0; i < len;) {
		const char *nl = memchr(buf + i, '\n', len - i);
		size_t n = nl ? (size_t)(nl - buf - i) + 1 : len - i;
		image_add(im, buf + i, n);
		i += n;
	}
}

static void drop_newline(struct image *im)
{
	struct line *l = im->n ? &im->v[im->n - 1] : NULL;
	if (l && l->n && l->s[l->n - 1] == '\n')
		l->n--;
}

static bool match_at(const struct image *im, size_t pos, const struct image *pre)
{
	for (size_t i = 0; i < pre->n; i++)
		if (im->v[pos + i].n != pre->v[i].n ||
		    memcmp(im->v[pos + i].s, pre->v[i].s, pre->v[i].n))
			return false;
	return true;
}

/* The position nearest to `expect` (not before `min`) where `pre` matches;
 * -1 if none. */
static long find(const struct image *im, size_t min, long expect, const struct image *pre)
{
	long last = (long)im->n - (long)pre->n;
	if (expect < (long)min)
		expect = (long)min;
	if (!pre->n)
		return expect <= (long)im->n ? expect : (long)im->n;
	for (long d = 0; expect - d >= (long)min || expect + d <= last; d++) {
		if (expect - d >= (long)min && expect - d <= last &&
		    match_at(im, (size_t)(expect - d), pre))
			return expect - d;
		if (d && expect + d <= last && expect + d >= (long)min &&
		    match_at(im, (size_t)(expect + d), pre))
			return expect + d;
	}
	return -1;
}

/* Apply the hunks of one file to `im` in place. */
static int apply_hunks(git_patch *pt, struct image *im, const char *path, struct kerr *e)
{
	size_t min = 0;
	long net = 0, drift = 0; /* lines added so far; how far the last hunk moved */
	for (size_t h = 0; h < git_patch_num_hunks(pt); h++) {
		const git_diff_hunk *hunk;
		size_t nlines;
		struct image pre = {0}, post = {0};
		if (git_patch_get_hunk(&hunk, &nlines, pt, h) < 0)
			return kerr_set(e, "%s: %s", path, gw_strerror());
		for (size_t l = 0; l < nlines; l++) {
			const git_diff_line *dl;
			if (git_patch_get_line_in_hunk(&dl, pt, h, l) < 0)
				continue;
			if (dl->origin == GIT_DIFF_LINE_CONTEXT ||
			    dl->origin == GIT_DIFF_LINE_DELETION)
				image_add(&pre, dl->content, dl->content_len);
			if (dl->origin == GIT_DIFF_LINE_CONTEXT ||
			    dl->origin == GIT_DIFF_LINE_ADDITION)
				image_add(&post, dl->content, dl->content_len);
			/* "\ No newline at end of file": the line before has none */
			if (dl->origin == GIT_DIFF_LINE_CONTEXT_EOFNL ||
			    dl->origin == GIT_DIFF_LINE_DEL_EOFNL)
				drop_newline(&pre);
			if (dl->origin == GIT_DIFF_LINE_CONTEXT_EOFNL ||
			    dl->origin == GIT_DIFF_LINE_ADD_EOFNL)
				drop_newline(&post);
		}
		long at = hunk->old_lines ? hunk->old_start - 1 : hunk->old_start;
		long pos = find(im, min, at + net + drift, &pre);
		if (pos < 0) {
			free(pre.v);
			free(post.v);
			return kerr_set(e, "%s: hunk %zu (line %d) matches nowhere", path, h + 1,
					hunk->old_start);
		}
		/* splice post in place of pre */
		size_t tail = im->n - (size_t)pos - pre.n;
		ALLOC_GROW(im->v, im->n - pre.n + post.n + 1, im->cap);
		memmove(im->v + pos + post.n, im->v + pos + pre.n, tail * sizeof(*im->v));
		if (post.n)
			memcpy(im->v + pos, post.v, post.n * sizeof(*im->v));
		im->n = im->n - pre.n + post.n;
		min = (size_t)pos + post.n;
		drift = pos - (at + net);
		net += (long)post.n - (long)pre.n;
		free(pre.v);
		free(post.v);
	}
	return 0;
}

/* Apply one file's diff; its tree updates go to ups. */
static int apply_file(git_repository *r, git_tree *tree, git_patch *pt, git_tree_update *ups,
		      size_t *nups, struct kerr *e)
{
	const git_diff_delta *d = git_patch_get_delta(pt);
	const char *oldp = d->old_file.path, *newp = d->new_file.path;
	git_tree_entry *te = NULL;
	git_blob *blob = NULL;
	struct image im = {0};
	unsigned mode = d->new_file.mode;
	int rc = -1;

	if (d->flags & GIT_DIFF_FLAG_BINARY)
		return kerr_set(e, "%s: binary patch does not apply", newp);
	if (d->status != GIT_DELTA_ADDED) {
		if (git_tree_entry_bypath(&te, tree, oldp) < 0 ||
		    git_blob_lookup(&blob, r, git_tree_entry_id(te)) < 0) {
			kerr_set(e, "%s: not in the base tree", oldp);
			goto out;
		}
		if (!mode)
			mode = git_tree_entry_filemode(te);
		image_split(&im, git_blob_rawcontent(blob), (size_t)git_blob_rawsize(blob));
	}
	if (apply_hunks(pt, &im, newp ? newp : oldp, e) < 0)
		goto out;
	if (d->status == GIT_DELTA_DELETED) {
		if (im.n)
			kerr_set(e, "%s: deleted file still has content", oldp);
		else
			ups[(*nups)++] = (git_tree_update){GIT_TREE_UPDATE_REMOVE, {{0}}, 0, oldp};
		rc = im.n ? -1 : 0;
		goto out;
	}
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < im.n; i++)
		sb_add(&sb, im.v[i].s, im.v[i].n);
	git_oid id;
	int brc = git_blob_create_from_buffer(&id, r, sb_str(&sb), sb.len);
	sb_free(&sb);
	if (brc < 0) {
		kerr_set(e, "%s: %s", newp, gw_strerror());
		goto out;
	}
	if (d->status == GIT_DELTA_RENAMED && strcmp(oldp, newp))
		ups[(*nups)++] = (git_tree_update){GIT_TREE_UPDATE_REMOVE, {{0}}, 0, oldp};
	ups[(*nups)++] = (git_tree_update){GIT_TREE_UPDATE_UPSERT, id,
					   mode ? (git_filemode_t)mode : GIT_FILEMODE_BLOB, newp};
	rc = 0;
out:
	free(im.v);
	git_blob_free(blob);
	git_tree_entry_free(te);
	return rc;
}

int hunkapply_tree(git_repository *r, git_tree *tree, git_diff *diff, git_oid *out, struct kerr *e)
{
	size_t nd = git_diff_num_deltas(diff), nups = 0;
	git_tree_update *ups = xcalloc(2 * nd + 1, sizeof(*ups));
	git_patch **pts = xcalloc(nd + 1, sizeof(*pts));
	int rc = 0;
	for (size_t i = 0; i < nd && !rc; i++) {
		if (git_patch_from_diff(&pts[i], diff, i) < 0)
			rc = kerr_set(e, "%s", gw_strerror());
		else
			rc = apply_file(r, tree, pts[i], ups, &nups, e);
	}
	if (!rc && git_tree_create_updated(out, r, tree, nups, ups) < 0)
		rc = kerr_set(e, "%s", gw_strerror());
	for (size_t i = 0; i < nd; i++)
		git_patch_free(pts[i]);
	free(pts);
	free(ups);
	return rc;
}
