/* A stack from an mbox or a quilt series, applied in memory on a base. */
#include "core/stackfiles.h"

#include <git2.h>
#include <stdlib.h>
#include <string.h>

#include "core/commitdiff.h"
#include "core/gitwrite.h"
#include "core/hunkapply.h"
#include "core/quilt.h"

static int open_repo(struct stack *st, const char *path, struct kerr *e)
{
	gw_libinit();
	if (git_repository_open_ext(&st->repo, path, 0, NULL) < 0) {
		st->repo = NULL;
		return kerr_set(e, "not a git repository: %s", path);
	}
	const char *wd = git_repository_workdir(st->repo);
	st->repo_path = xstrdup(wd ? wd : git_repository_path(st->repo));
	size_t n = strlen(st->repo_path);
	if (n > 1 && st->repo_path[n - 1] == '/')
		st->repo_path[n - 1] = '\0';
	return 0;
}

static git_signature *patch_signature(const struct patch *p)
{
	git_signature *sig;
	const char *name = p->author && *p->author ? p->author : "unknown";
	const char *email = p->author_email && *p->author_email ? p->author_email : "unknown";
	if (git_signature_new(&sig, name, email, p->time, p->tz_offset) < 0 &&
	    git_signature_new(&sig, "unknown", "unknown", p->time, p->tz_offset) < 0)
		return NULL;
	return sig;
}

/* The paths a diff reads or writes, each once. */
static size_t diff_paths(git_diff *diff, const char ***out)
{
	size_t n = 0, nd = git_diff_num_deltas(diff);
	const char **v = xcalloc(2 * nd + 1, sizeof(*v));
	for (size_t i = 0; i < nd; i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);
		const char *p[2] = {d->old_file.path, d->new_file.path};
		for (int k = 0; k < 2; k++) {
			bool seen = !p[k];
			for (size_t j = 0; j < n && !seen; j++)
				seen = !strcmp(v[j], p[k]);
			if (!seen)
				v[n++] = p[k];
		}
	}
	*out = v;
	return n;
}

/* Apply `diff` to `tree` at the cost of the files it touches, not of the
 * whole tree (a kernel has 80,000 files): the touched files are copied into
 * a small tree, libgit2 applies the diff there, and the results go back into
 * the big tree with git_tree_create_updated. */
static int apply_to_tree(git_repository *r, git_tree *tree, git_diff *diff, git_oid *out)
{
	const char **paths;
	size_t n = diff_paths(diff, &paths);
	git_tree_update *in = xcalloc(n + 1, sizeof(*in)), *back = xcalloc(n + 1, sizeof(*back));
	bool *existed = xcalloc(n + 1, sizeof(bool));
	git_treebuilder *tb = NULL;
	git_tree *empty = NULL, *small = NULL;
	git_index *index = NULL;
	git_oid empty_id, small_id;
	size_t nin = 0, nback = 0;
	int rc = -1;

	for (size_t i = 0; i < n; i++) {
		git_tree_entry *te;
		if (git_tree_entry_bypath(&te, tree, paths[i]) < 0)
			continue;
		existed[i] = git_tree_entry_type(te) == GIT_OBJECT_BLOB;
		if (existed[i])
			in[nin++] =
			    (git_tree_update){GIT_TREE_UPDATE_UPSERT, *git_tree_entry_id(te),
					      git_tree_entry_filemode(te), paths[i]};
		git_tree_entry_free(te);
	}
	if (git_treebuilder_new(&tb, r, NULL) < 0 || git_treebuilder_write(&empty_id, tb) < 0 ||
	    git_tree_lookup(&empty, r, &empty_id) < 0 ||
	    git_tree_create_updated(&small_id, r, empty, nin, in) < 0 ||
	    git_tree_lookup(&small, r, &small_id) < 0 ||
	    git_apply_to_tree(&index, r, small, diff, NULL) < 0)
		goto out;
	for (size_t i = 0; i < n; i++) {
		const git_index_entry *ie = git_index_get_bypath(index, paths[i], 0);
		if (ie)
			back[nback++] =
			    (git_tree_update){GIT_TREE_UPDATE_UPSERT, ie->id, ie->mode, paths[i]};
		else if (existed[i])
			back[nback++] =
			    (git_tree_update){GIT_TREE_UPDATE_REMOVE, {{0}}, 0, paths[i]};
	}
	rc = git_tree_create_updated(out, r, tree, nback, back);
out:
	git_index_free(index);
	git_tree_free(small);
	git_tree_free(empty);
	git_treebuilder_free(tb);
	free(existed);
	free(back);
	free(in);
	free(paths);
	return rc;
}

/* Apply one patch on `parent`; the new commit's id in *out. */
static int apply_patch(git_repository *r, const git_oid *parent, struct patch *p, git_oid *out,
		       struct kerr *e)
{
	git_commit *pc = NULL;
	git_tree *tree = NULL, *newtree = NULL;
	git_diff *diff = NULL;
	git_signature *sig = NULL;
	git_oid tree_id;
	struct kerr why;
	int rc = -1;

	if (git_commit_lookup(&pc, r, parent) < 0 || git_commit_tree(&tree, pc) < 0)
		goto fail;
	if (git_diff_from_buffer(&diff, p->diff, strlen(p->diff)) < 0)
		goto fail;
	/* where the hunks say, else where they have moved to */
	if (apply_to_tree(r, tree, diff, &tree_id) < 0 &&
	    hunkapply_tree(r, tree, diff, &tree_id, &why) < 0) {
		kerr_set(e, "does not apply: %s", why.msg);
		goto out;
	}
	if (git_tree_lookup(&newtree, r, &tree_id) < 0)
		goto fail;
	if (!(sig = patch_signature(p)))
		goto fail;
	char *msg =
	    *p->body ? xasprintf("%s\n\n%s\n", p->subject, p->body) : xasprintf("%s\n", p->subject);
	int crc = git_commit_create(out, r, NULL, sig, sig, NULL, msg, newtree, 1,
				    (const git_commit **)&pc);
	free(msg);
	if (crc < 0)
		goto fail;
	rc = 0;
	goto out;
fail:
	kerr_set(e, "does not apply: %s", gw_strerror());
out:
	git_signature_free(sig);
	git_diff_free(diff);
	git_tree_free(newtree);
	git_tree_free(tree);
	git_commit_free(pc);
	return rc;
}

/* Apply every patch; the ones that fail move to pf->malformed, and the
 * positions of malformed entries and annotations follow the patches kept. */
static void apply_all(struct stack *st, struct patch_files *pf, const git_oid *base)
{
	size_t n = pf->npatches, kept = 0;
	size_t *kept_before = xcalloc(n + 1, sizeof(size_t));
	struct patch_files failed = {0};
	git_oid head = *base;

	for (size_t i = 0; i < n; i++) {
		struct patch *p = &pf->patches[i];
		struct kerr e;
		git_oid id;
		kept_before[i] = kept;
		if (apply_patch(st->repo, &head, p, &id, &e) < 0) {
			failed.npatches = kept; /* position of the entry */
			patch_files_malformed(&failed, p->source, 0, "'%s' %s", p->subject, e.msg);
			patch_free(p);
			continue;
		}
		head = id;
		git_oid_tostr(p->id, sizeof(p->id), &id);
		free(p->diff);
		p->diff = NULL;
		p->index = kept + 1;
		pf->patches[kept++] = *p;
	}
	kept_before[n] = kept;
	pf->npatches = kept;
	for (size_t i = 0; i < pf->nmalformed; i++)
		pf->malformed[i].position = kept_before[pf->malformed[i].position];
	for (size_t i = 0; i < pf->nannotations; i++)
		pf->annotations[i].position = kept_before[pf->annotations[i].position];
	for (size_t i = 0; i < failed.nmalformed; i++) {
		ALLOC_GROW(pf->malformed, pf->nmalformed + 1, pf->malformed_cap);
		pf->malformed[pf->nmalformed++] = failed.malformed[i];
	}
	free(failed.malformed);
	free(kept_before);
	git_oid_tostr(st->head_id, sizeof(st->head_id), &head);
}

static int open_base(struct stack *st, const char *base, const char *repo, git_oid *out,
		     struct kerr *e)
{
	if (open_repo(st, repo ? repo : ".", e) < 0)
		return -1;
	git_object *obj = NULL, *c = NULL;
	if (git_revparse_single(&obj, st->repo, base) < 0 ||
	    git_object_peel(&c, obj, GIT_OBJECT_COMMIT) < 0) {
		git_object_free(obj);
		return kerr_set(e, "base '%s' not found in %s", base, st->repo_path);
	}
	*out = *git_object_id(c);
	git_oid_tostr(st->base_id, sizeof(st->base_id), out);
	git_object_free(c);
	git_object_free(obj);
	st->renames = commitdiff_rename_mode(st->repo);
	return 0;
}

/* The stack's name (head_ref): the mbox's file name, the quilt series'
 * directory (its parent for quilt's own DIR/patches/series). */
static char *stack_name(const char *path, enum stack_files_kind kind)
{
	if (kind == STACK_FILES_MBOX)
		return mbox_file_title(path);
	struct kerr e;
	char *series = quilt_find_series(path, &e);
	char *dir = xstrdup(series ? series : path);
	char *slash = strrchr(dir, '/');
	if (series && slash)
		*slash = '\0';
	while ((slash = strrchr(dir, '/')) &&
	       (!slash[1] || (!strcmp(slash + 1, "patches") && slash != dir)))
		*slash = '\0';
	slash = strrchr(dir, '/');
	char *name = xstrdup(slash ? slash + 1 : *dir && strcmp(dir, ".") ? dir : "series");
	free(dir);
	free(series);
	return name;
}

int stack_open_files(struct stack *st, const char *path, enum stack_files_kind kind,
		     const char *base, const char *repo, struct patch_files *report, struct kerr *e)
{
	return stack_open_files_tags(st, path, kind, base, repo, NULL, 0, report, e);
}

int stack_open_files_tags(struct stack *st, const char *path, enum stack_files_kind kind,
			  const char *base, const char *repo, const char *const *extra_tags,
			  size_t nextra_tags, struct patch_files *report, struct kerr *e)
{
	struct patch_files pf = {0};
	struct patch_read_opts o = {false, 1, extra_tags, nextra_tags};
	git_oid base_oid;

	memset(st, 0, sizeof(*st));
	if (report)
		memset(report, 0, sizeof(*report));
	if (base && open_base(st, base, repo, &base_oid, e) < 0)
		goto fail;
	int rc =
	    kind == STACK_FILES_QUILT ? quilt_read(&pf, path, &o, e) : mbox_read(&pf, path, &o, e);
	if (rc < 0)
		goto fail;
	if (base)
		apply_all(st, &pf, &base_oid);
	if (!report && pf.nmalformed) {
		char *msg = patch_files_first_error(&pf);
		kerr_set(e, "%s", msg);
		free(msg);
		goto fail;
	}
	st->patches = pf.patches;
	st->npatches = pf.npatches;
	st->cap = pf.cap;
	pf.patches = NULL;
	pf.npatches = pf.cap = 0;
	st->base_ref = base ? xstrdup(base) : NULL;
	st->head_ref = stack_name(path, kind);
	st->extra_tag_names = extra_tags;
	st->nextra_tag_names = nextra_tags;
	if (report)
		*report = pf;
	return 0;
fail:
	patch_files_free(&pf);
	stack_free(st);
	return -1;
}
