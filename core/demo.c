/* The demo workspace: build the demo's commits with libgit2 (the same ids on
 * every machine), then create the repository, or reuse or refresh it without
 * touching what the user changed. */
#include "core/demo.h"

#include <dirent.h>
#include <git2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/gitwrite.h"

#define DEMO_AUTHOR "Kernel Demo"
#define DEMO_EMAIL "demo@example.org"
#define DEMO_OLD_DATE "Sun, 2 Oct 2022 14:09:07 -0700"
#define DEMO_BASE_DATE "Sun, 6 Nov 2022 15:31:09 -0800"
/* Where the repository remembers the head it was last given, to tell a
 * pristine demo branch (which may be refreshed) from one with user commits. */
#define DEMO_CONFIG_HEAD "klang.demohead"

char *demo_default_dir(void)
{
	return cache_dir("demo");
}

/* The files of a directory tree, paths relative to its root, sorted. */
struct file_list {
	struct gw_file *v;
	size_t n, cap;
};

static int cmp_file(const void *a, const void *b)
{
	return strcmp(((const struct gw_file *)a)->path, ((const struct gw_file *)b)->path);
}

static int read_tree(const char *root, const char *rel, struct file_list *fl, struct kerr *e)
{
	char *dir = rel ? xasprintf("%s/%s", root, rel) : xstrdup(root);
	DIR *d = opendir(dir);
	int rc = 0;
	if (!d) {
		kerr_set(e, "%s: cannot read the demo tree", dir);
		free(dir);
		return -1;
	}
	struct dirent *de;
	while (rc == 0 && (de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		char *r = rel ? xasprintf("%s/%s", rel, de->d_name) : xstrdup(de->d_name);
		char *full = xasprintf("%s/%s", root, r);
		if (is_dir(full)) {
			rc = read_tree(root, r, fl, e);
			free(r);
		} else {
			size_t len;
			char *data = read_file(full, &len, e);
			if (!data) {
				rc = -1;
				free(r);
			} else {
				ALLOC_GROW(fl->v, fl->n + 1, fl->cap);
				fl->v[fl->n++] = (struct gw_file){r, data, len};
			}
		}
		free(full);
	}
	closedir(d);
	free(dir);
	return rc;
}

static void file_list_free(struct file_list *fl)
{
	for (size_t i = 0; i < fl->n; i++) {
		free((char *)fl->v[i].path);
		free((char *)fl->v[i].content);
	}
	free(fl->v);
}

/* The two release commits: v6.0-demo (the tree with PATCHLEVEL = 0), then
 * v6.1-demo, which only changes the Makefile back. */
static int build_base(git_repository *r, const char *src, char old_id[41], char base_id[41],
		      struct kerr *e)
{
	struct file_list fl = {0};
	char *tree = xasprintf("%s/tree", src);
	int rc = read_tree(tree, NULL, &fl, e);
	free(tree);
	if (rc < 0 || fl.n == 0) {
		file_list_free(&fl);
		return rc < 0 ? -1 : kerr_set(e, "%s/tree: the demo tree is empty", src);
	}
	qsort(fl.v, fl.n, sizeof(*fl.v), cmp_file);
	struct gw_file key = {.path = "Makefile"};
	struct gw_file *mk = bsearch(&key, fl.v, fl.n, sizeof(*fl.v), cmp_file);
	const char *p = mk ? strstr(mk->content, "PATCHLEVEL = 1\n") : NULL;
	if (!p) {
		file_list_free(&fl);
		return kerr_set(e, "%s/tree/Makefile: no 'PATCHLEVEL = 1' line", src);
	}
	int64_t t0, t1;
	int tz0, tz1;
	demo_parse_date(DEMO_OLD_DATE, &t0, &tz0);
	demo_parse_date(DEMO_BASE_DATE, &t1, &tz1);
	const char *new_mk = mk->content;
	char *old_mk = xstrdup(new_mk);
	old_mk[p - new_mk + strlen("PATCHLEVEL = ")] = '0';
	mk->content = old_mk;
	struct gw_commit c0 = {.files = fl.v,
			       .nfiles = fl.n,
			       .message = "Linux 6.0-demo\n",
			       .author = DEMO_AUTHOR,
			       .email = DEMO_EMAIL,
			       .time = t0,
			       .tz = tz0};
	rc = gw_commit(r, &c0, old_id, e);
	mk->content = new_mk;
	if (rc == 0) {
		struct gw_file f = {"Makefile", new_mk, mk->len};
		struct gw_commit c1 = {.parent = old_id,
				       .files = &f,
				       .nfiles = 1,
				       .message = "Linux 6.1-demo\n",
				       .author = DEMO_AUTHOR,
				       .email = DEMO_EMAIL,
				       .time = t1,
				       .tz = tz1};
		rc = gw_commit(r, &c1, base_id, e);
	}
	free(old_mk);
	file_list_free(&fl);
	return rc;
}

/* The patch files of the stack, in order (their names start with a number). */
static int list_patches(const char *dir, char ***out, size_t *n, struct kerr *e)
{
	DIR *d = opendir(dir);
	size_t cap = 0;
	*out = NULL;
	*n = 0;
	if (!d)
		return kerr_set(e, "%s: cannot read the demo stack", dir);
	struct dirent *de;
	while ((de = readdir(d)))
		if (str_endswith(de->d_name, ".patch")) {
			ALLOC_GROW(*out, *n + 1, cap);
			(*out)[(*n)++] = xasprintf("%s/%s", dir, de->d_name);
		}
	closedir(d);
	if (*n == 0)
		return kerr_set(e, "%s: no .patch files", dir);
	qsort(*out, *n, sizeof(**out), cmp_str);
	return 0;
}

/* Apply one patch on `parent` and commit it (no ref moves). */
static int apply_patch(git_repository *r, const char *path, const char *parent, char id[41],
		       struct kerr *e)
{
	struct demo_patch p;
	git_diff *diff = NULL;
	git_object *obj = NULL;
	git_tree *tree = NULL;
	git_index *idx = NULL;
	git_blob **blobs = NULL;
	struct gw_file *files = NULL;
	size_t nfiles = 0, cap = 0, nblobs = 0;
	int rc = -1;

	char *text = read_file(path, NULL, e);
	if (!text)
		return -1;
	if (demo_patch_parse(text, path, &p, e) < 0) {
		free(text);
		return -1;
	}
	if (git_diff_from_buffer(&diff, p.diff, strlen(p.diff)) < 0) {
		kerr_set(e, "%s: bad diff: %s", path, gw_strerror());
		goto out;
	}
	if (git_revparse_single(&obj, r, parent) < 0 ||
	    git_object_peel((git_object **)&tree, obj, GIT_OBJECT_TREE) < 0 ||
	    git_apply_to_tree(&idx, r, tree, diff, NULL) < 0) {
		kerr_set(e, "%s: does not apply: %s", path, gw_strerror());
		goto out;
	}
	size_t nd = git_diff_num_deltas(diff);
	blobs = xcalloc(nd ? nd : 1, sizeof(*blobs));
	for (size_t i = 0; i < nd; i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);
		ALLOC_GROW(files, nfiles + 2, cap);
		if (d->status == GIT_DELTA_DELETED || d->status == GIT_DELTA_RENAMED)
			files[nfiles++] = (struct gw_file){d->old_file.path, NULL, 0};
		if (d->status == GIT_DELTA_DELETED)
			continue;
		const git_index_entry *ie = git_index_get_bypath(idx, d->new_file.path, 0);
		if (!ie || git_blob_lookup(&blobs[nblobs], r, &ie->id) < 0) {
			kerr_set(e, "%s: %s missing after applying", path, d->new_file.path);
			goto out;
		}
		git_blob *b = blobs[nblobs++];
		files[nfiles++] = (struct gw_file){d->new_file.path, git_blob_rawcontent(b),
						   (size_t)git_blob_rawsize(b)};
	}
	struct gw_commit c = {.parent = parent,
			      .files = files,
			      .nfiles = nfiles,
			      .message = p.message,
			      .author = p.author,
			      .email = p.email,
			      .time = p.time,
			      .tz = p.tz};
	rc = gw_commit(r, &c, id, e);
out:
	for (size_t i = 0; i < nblobs; i++)
		git_blob_free(blobs[i]);
	free(blobs);
	free(files);
	git_index_free(idx);
	git_tree_free(tree);
	git_object_free(obj);
	git_diff_free(diff);
	demo_patch_free(&p);
	free(text);
	return rc;
}

/* Every commit of the demo, written to the object database; no ref moves. */
struct demo_commits {
	char old[41], base[41], head[41];
	size_t npatches;
};

static int build_commits(git_repository *r, const char *src, struct demo_commits *dc,
			 struct kerr *e)
{
	if (build_base(r, src, dc->old, dc->base, e) < 0)
		return -1;
	char *dir = xasprintf("%s/stack", src);
	char **patches;
	int rc = list_patches(dir, &patches, &dc->npatches, e);
	memcpy(dc->head, dc->base, sizeof(dc->head));
	for (size_t i = 0; rc == 0 && i < dc->npatches; i++) {
		char id[41];
		rc = apply_patch(r, patches[i], dc->head, id, e);
		memcpy(dc->head, id, sizeof(id));
	}
	for (size_t i = 0; i < dc->npatches; i++)
		free(patches[i]);
	free(patches);
	free(dir);
	return rc;
}

static bool ref_id(git_repository *r, const char *name, char id[41])
{
	git_oid oid;
	if (git_reference_name_to_id(&oid, r, name) < 0)
		return false;
	git_oid_tostr(id, 41, &oid);
	return true;
}

static int set_ref(git_repository *r, const char *name, const char *id, struct kerr *e)
{
	git_oid oid;
	git_reference *ref;
	if (git_oid_fromstr(&oid, id) < 0 ||
	    git_reference_create(&ref, r, name, &oid, 1, "klang demo") < 0)
		return kerr_set(e, "%s: %s", name, gw_strerror());
	git_reference_free(ref);
	return 0;
}

/* The head the workspace was last given, so that a branch nobody committed
 * to can be refreshed. */
static bool recorded_head(git_repository *r, char id[41])
{
	git_config *cfg;
	git_buf buf = {0};
	bool ok = false;
	if (git_repository_config(&cfg, r) < 0)
		return false;
	if (git_config_get_string_buf(&buf, cfg, DEMO_CONFIG_HEAD) == 0 && buf.size == 40) {
		memcpy(id, buf.ptr, 41);
		ok = true;
	}
	git_buf_dispose(&buf);
	git_config_free(cfg);
	return ok;
}

static int record_head(git_repository *r, const char *id, struct kerr *e)
{
	git_config *cfg;
	int rc = git_repository_config(&cfg, r);
	if (rc == 0) {
		rc = git_config_set_string(cfg, DEMO_CONFIG_HEAD, id);
		git_config_free(cfg);
	}
	return rc < 0 ? kerr_set(e, "cannot write %s: %s", DEMO_CONFIG_HEAD, gw_strerror()) : 0;
}

/* klang keeps its state in .klang/ of the repository: hide it from git status. */
static int exclude_state_dir(git_repository *r, struct kerr *e)
{
	char *dir = xasprintf("%sinfo", git_repository_path(r));
	char *path = xasprintf("%s/exclude", dir);
	char *old = file_exists(path) ? read_file(path, NULL, e) : xstrdup("");
	int rc = old ? 0 : -1;
	if (rc == 0 && !strstr(old, "\n/.klang/\n") && !str_startswith(old, "/.klang/\n")) {
		char *text =
		    xasprintf("%s%s/.klang/\n", old, *old && !str_endswith(old, "\n") ? "\n" : "");
		rc = mkdir_p(dir, e) < 0 ? -1 : write_file_atomic(path, text, strlen(text), e);
		free(text);
	}
	free(old);
	free(path);
	free(dir);
	return rc;
}

/* Tracked files changed in the index or the work tree, as "  modified: path"
 * lines; untracked and ignored files (build output, .klang/) do not count. */
static size_t local_changes(git_repository *r, struct strbuf *out)
{
	git_status_options so = GIT_STATUS_OPTIONS_INIT;
	git_status_list *sl;
	so.show = GIT_STATUS_SHOW_INDEX_AND_WORKDIR;
	so.flags = GIT_STATUS_OPT_EXCLUDE_SUBMODULES;
	if (git_status_list_new(&sl, r, &so) < 0)
		return 0;
	size_t n = git_status_list_entrycount(sl);
	for (size_t i = 0; i < n; i++) {
		const git_status_entry *s = git_status_byindex(sl, i);
		const git_diff_delta *d =
		    s->index_to_workdir ? s->index_to_workdir : s->head_to_index;
		unsigned st = s->status;
		const char *what =
		    st & (GIT_STATUS_WT_DELETED | GIT_STATUS_INDEX_DELETED)   ? "deleted"
		    : st & GIT_STATUS_INDEX_NEW				      ? "new file"
		    : st & (GIT_STATUS_WT_RENAMED | GIT_STATUS_INDEX_RENAMED) ? "renamed"
									      : "modified";
		sb_addf(out, "  %-9s %s\n", what, d ? d->new_file.path : "?");
	}
	git_status_list_free(sl);
	return n;
}

/* Update the work tree from one commit's tree to another's, refusing to
 * overwrite anything that differs from the first. */
static int checkout_update(git_repository *r, const char *from, const char *to, struct kerr *e)
{
	git_object *a = NULL, *b = NULL;
	git_tree *ta = NULL;
	int rc = -1;
	if (git_revparse_single(&a, r, from) == 0 &&
	    git_object_peel((git_object **)&ta, a, GIT_OBJECT_TREE) == 0 &&
	    git_revparse_single(&b, r, to) == 0) {
		git_checkout_options co = GIT_CHECKOUT_OPTIONS_INIT;
		co.checkout_strategy = GIT_CHECKOUT_SAFE;
		co.baseline = ta;
		rc = git_checkout_tree(r, b, &co);
	}
	if (rc < 0)
		kerr_set(e, "%s", gw_strerror());
	git_tree_free(ta);
	git_object_free(a);
	git_object_free(b);
	return rc;
}

static int create(git_repository *r, const struct demo_commits *dc, struct kerr *e)
{
	if (gw_tag(r, DEMO_OLD_TAG, dc->old, e) < 0 || gw_tag(r, DEMO_BASE_TAG, dc->base, e) < 0 ||
	    set_ref(r, "refs/heads/master", dc->base, e) < 0 ||
	    set_ref(r, "refs/heads/" DEMO_BRANCH, dc->head, e) < 0 ||
	    gw_checkout(r, DEMO_BRANCH, e) < 0 || record_head(r, dc->head, e) < 0)
		return -1;
	return exclude_state_dir(r, e);
}

/* A branch kept as it is whose base tag is not under it (a workspace an
 * older klang left so) cannot be opened: say how to start afresh. */
static void note_foreign_base(git_repository *r, const char *branch, struct strbuf *notes)
{
	char base[41];
	git_oid b, t;
	if (!*branch || !ref_id(r, "refs/tags/" DEMO_BASE_TAG, base) ||
	    git_oid_fromstr(&b, branch) < 0 || git_oid_fromstr(&t, base) < 0 ||
	    git_oid_equal(&b, &t) || git_graph_descendant_of(r, &b, &t) == 1)
		return;
	sb_addf(notes,
		"tag %s is not an ancestor of branch %s (left so by an older klang):\n"
		"remove %s to start afresh\n",
		DEMO_BASE_TAG, DEMO_BRANCH, git_repository_workdir(r));
}

/* An existing workspace: leave the user's work alone, refresh the rest. */
static int refresh(git_repository *r, const struct demo_commits *dc, struct demo_info *info,
		   struct kerr *e)
{
	struct strbuf notes = STRBUF_INIT, changes = STRBUF_INIT;
	char cur[41] = "", rec[41] = "";
	bool have_cur = ref_id(r, "refs/heads/" DEMO_BRANCH, cur);
	bool pristine = !have_cur || (recorded_head(r, rec) && !strcmp(rec, cur));
	bool on_branch = false;
	git_reference *head = NULL;
	int rc = 0;

	if (git_reference_lookup(&head, r, "HEAD") == 0) {
		const char *name = git_reference_symbolic_target(head);
		on_branch = name && !strcmp(name, "refs/heads/" DEMO_BRANCH);
		if (!on_branch)
			sb_addf(&notes, "HEAD is on %s, not %s: left there\n",
				!name				      ? "a detached commit"
				: str_startswith(name, "refs/heads/") ? name + 11
								      : name,
				DEMO_BRANCH);
		git_reference_free(head);
	}
	size_t nchanges = local_changes(r, &changes);
	info->state = DEMO_REUSED;
	if (!strcmp(cur, dc->head)) {
		/* Up to date. */
	} else if (!pristine) {
		info->state = DEMO_KEPT;
		sb_addf(&notes,
			"branch %s has commits that are not the demo's: kept as it is\n"
			"(the demo's stack ends at %.12s)\n",
			DEMO_BRANCH, dc->head);
	} else if (nchanges && on_branch) {
		info->state = DEMO_KEPT;
		sb_addf(&notes,
			"not refreshed to this klang's demo stack: the files have changes\n");
	} else {
		if (on_branch && have_cur && checkout_update(r, cur, dc->head, e) < 0) {
			info->state = DEMO_KEPT;
			sb_addf(&notes, "not refreshed, the files could not be updated: %s\n",
				e->msg);
		} else if ((rc = set_ref(r, "refs/heads/" DEMO_BRANCH, dc->head, e)) == 0 &&
			   (rc = record_head(r, dc->head, e)) == 0) {
			info->state = DEMO_REFRESHED;
		}
	}
	if (nchanges)
		sb_addf(&notes, "your changes, kept:\n%s", sb_str(&changes));
	/* The tags move with the branch: a kept branch keeps the base it was
	 * made on, which another klang's demo may not share. */
	if (info->state == DEMO_KEPT)
		note_foreign_base(r, cur, &notes);
	else if (rc == 0 && (gw_tag(r, DEMO_OLD_TAG, dc->old, e) < 0 ||
			     gw_tag(r, DEMO_BASE_TAG, dc->base, e) < 0))
		rc = -1;
	if (rc == 0 && exclude_state_dir(r, e) < 0)
		rc = -1;
	info->notes = notes.len ? sb_detach(&notes) : NULL;
	sb_free(&notes);
	sb_free(&changes);
	return rc;
}

static bool dir_is_empty(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *de;
	bool empty = true;
	if (!d)
		return false;
	while (empty && (de = readdir(d)))
		empty = !strcmp(de->d_name, ".") || !strcmp(de->d_name, "..");
	closedir(d);
	return empty;
}

int demo_prepare(const char *dir, const char *src, struct demo_info *info, struct kerr *e)
{
	git_repository *r = NULL;
	char *own_src = NULL, *abs = NULL;
	struct demo_commits dc;
	int rc = -1;
	bool fresh = true;

	memset(info, 0, sizeof(*info));
	if (!src && !(src = own_src = data_path("patchsets/demo"))) {
		kerr_set(e,
			 "patchsets/demo not found: set KLANG_DATADIR to klang's data directory");
		goto out;
	}
	gw_libinit();
	if (is_dir(dir)) {
		if (git_repository_open_ext(&r, dir, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) == 0) {
			char id[41];
			fresh = false;
			if (git_repository_is_bare(r) ||
			    !ref_id(r, "refs/tags/" DEMO_BASE_TAG, id)) {
				kerr_set(e,
					 "%s is a git repository but not a klang demo workspace "
					 "(no tag %s): give another DIR",
					 dir, DEMO_BASE_TAG);
				goto out;
			}
		} else if (!dir_is_empty(dir)) {
			kerr_set(e, "%s exists and is not a klang demo workspace: give another DIR",
				 dir);
			goto out;
		}
	} else if (file_exists(dir)) {
		kerr_set(e, "%s exists and is not a directory", dir);
		goto out;
	} else if (mkdir_p(dir, e) < 0) {
		goto out;
	}
	if (fresh && gw_init(dir, &r, e) < 0)
		goto out;
	if (!(abs = realpath(dir, NULL))) {
		kerr_set(e, "%s: cannot resolve the path", dir);
		goto out;
	}
	if (build_commits(r, src, &dc, e) < 0)
		goto out;
	info->dir = abs;
	abs = NULL;
	info->npatches = dc.npatches;
	memcpy(info->head, dc.head, sizeof(info->head));
	info->patchset = xasprintf("%s/../demo.yaml", src);
	char *ps = realpath(info->patchset, NULL);
	if (ps) {
		free(info->patchset);
		info->patchset = ps;
	}
	if (fresh) {
		info->state = DEMO_CREATED;
		rc = create(r, &dc, e);
	} else {
		rc = refresh(r, &dc, info, e);
	}
out:
	git_repository_free(r);
	free(own_src);
	free(abs);
	if (rc < 0)
		demo_info_free(info);
	return rc;
}

void demo_info_free(struct demo_info *info)
{
	free(info->dir);
	free(info->patchset);
	free(info->notes);
	memset(info, 0, sizeof(*info));
}
