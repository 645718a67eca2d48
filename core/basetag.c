/* The default base of a stack. git describe walks every commit reachable
 * from head until it has seen enough tags; on a stack of 10,000 patches that
 * is a second walk as long as the stack's own. When head's first-parent line
 * reaches a commit T that one v* tag names, and no commit above T (on the
 * line or on a merged branch) is named by a v* tag, every other v* tag
 * reachable from head is an ancestor of T, so T is the nearest: the stack's
 * walk finds it on the way (stack.c) and this file checks the merged
 * branches. Anything else goes to libgit2's describe. */
#include "core/basetag.h"

#include <git2.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

struct tag_entry {
	git_oid commit;
	char *name;
};

struct tagset {
	struct tag_entry *v;
	size_t n, cap;
};

static int entry_cmp(const void *a, const void *b)
{
	const struct tag_entry *x = a, *y = b;
	int c = git_oid_cmp(&x->commit, &y->commit);
	return c ? c : strcmp(x->name, y->name);
}

/* The commit a tag ref names: packed-refs often knows it; otherwise only an
 * annotated tag needs reading (an object header says which it is). */
static int tag_commit(git_odb *odb, git_reference *ref, git_oid *out)
{
	const git_oid *peeled = git_reference_target_peel(ref), *target = git_reference_target(ref);
	size_t len;
	git_object_t type;
	if (peeled) {
		*out = *peeled;
		return 0;
	}
	if (!target || git_odb_read_header(&len, &type, odb, target) < 0)
		return -1;
	if (type == GIT_OBJECT_COMMIT) {
		*out = *target;
		return 0;
	}
	git_object *obj;
	if (type != GIT_OBJECT_TAG || git_reference_peel(&obj, ref, GIT_OBJECT_COMMIT) < 0)
		return -1;
	*out = *git_object_id(obj);
	git_object_free(obj);
	return 0;
}

struct tagset *tagset_load(git_repository *r, const char *pattern)
{
	struct tagset *ts = xcalloc(1, sizeof(*ts));
	git_reference_iterator *it = NULL;
	git_reference *ref;
	git_odb *odb = NULL;
	char *glob = xasprintf("refs/tags/%s", pattern);
	if (git_repository_odb(&odb, r) == 0 &&
	    git_reference_iterator_glob_new(&it, r, glob) == 0) {
		while (git_reference_next(&ref, it) == 0) {
			git_oid commit;
			if (tag_commit(odb, ref, &commit) == 0) {
				ALLOC_GROW(ts->v, ts->n + 1, ts->cap);
				ts->v[ts->n].commit = commit;
				ts->v[ts->n++].name =
				    xstrdup(git_reference_name(ref) + strlen("refs/tags/"));
			}
			git_reference_free(ref);
		}
	}
	git_error_clear();
	git_reference_iterator_free(it);
	git_odb_free(odb);
	free(glob);
	if (ts->n)
		qsort(ts->v, ts->n, sizeof(*ts->v), entry_cmp);
	return ts;
}

void tagset_free(struct tagset *ts)
{
	if (!ts)
		return;
	for (size_t i = 0; i < ts->n; i++)
		free(ts->v[i].name);
	free(ts->v);
	free(ts);
}

const char *tagset_name(const struct tagset *ts, const git_oid *commit, size_t *count)
{
	size_t lo = 0, hi = ts->n;
	while (lo < hi) { /* the first entry >= commit */
		size_t mid = lo + (hi - lo) / 2;
		if (git_oid_cmp(&ts->v[mid].commit, commit) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	size_t n = 0;
	while (lo + n < ts->n && git_oid_equal(&ts->v[lo + n].commit, commit))
		n++;
	if (count)
		*count = n;
	return n ? ts->v[lo].name : NULL;
}

bool tagset_none_above(git_repository *r, const struct tagset *ts, const git_oid *tips,
		       size_t ntips, const git_oid *below)
{
	git_revwalk *w = NULL;
	git_oid id;
	int rc = git_revwalk_new(&w, r);
	for (size_t i = 0; rc == 0 && i < ntips; i++)
		rc = git_revwalk_push(w, &tips[i]);
	if (rc == 0)
		rc = git_revwalk_hide(w, below);
	while (rc == 0 && (rc = git_revwalk_next(&id, w)) == 0)
		if (tagset_name(ts, &id, NULL))
			rc = 1;
	git_revwalk_free(w);
	git_error_clear();
	return rc == GIT_ITEROVER;
}

char *describe_tag(git_commit *head, const char *pattern)
{
	git_describe_options o = GIT_DESCRIBE_OPTIONS_INIT;
	git_describe_format_options fo = GIT_DESCRIBE_FORMAT_OPTIONS_INIT;
	git_describe_result *res = NULL;
	git_buf buf = GIT_BUF_INIT;
	char *name = NULL;
	o.describe_strategy = GIT_DESCRIBE_TAGS;
	o.pattern = pattern;
	fo.abbreviated_size = 0;
	if (git_describe_commit(&res, (git_object *)head, &o) == 0 &&
	    git_describe_format(&buf, res, &fo) == 0)
		name = xstrdup(buf.ptr);
	git_buf_dispose(&buf);
	git_describe_result_free(res);
	git_error_clear();
	return name;
}
