/* In-memory cherry-picks of the kept patches onto the base, and the branch
 * that receives them. The commits are built in a second repository handle
 * whose object writes go to memory; only when every patch applied are they
 * written to the repository (one pack) and the branch created. */
#include "core/apply.h"

#include <git2.h>
#include <git2/sys/mempack.h>
#include <git2/sys/odb_backend.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gitwrite.h"
#include "core/treediff.h"

static int git_err(struct kerr *e, const char *what)
{
	return kerr_set(e, "%s: %s", what, gw_strerror());
}

static void add_index(size_t **arr, size_t *n, size_t v)
{
	*arr = xrealloc(*arr, (*n + 1) * sizeof(**arr));
	(*arr)[(*n)++] = v;
}

/* The conflicting paths of a cherry-pick, and the dropped patches before
 * `upto` that touched them. */
static void record_conflict(struct series *s, git_index *idx, size_t upto, struct apply_result *res)
{
	git_index_conflict_iterator *it;
	const git_index_entry *anc, *ours, *theirs;
	if (git_index_conflict_iterator_new(&it, idx) < 0)
		return;
	while (git_index_conflict_next(&anc, &ours, &theirs, it) == 0) {
		const git_index_entry *en = ours ? ours : theirs ? theirs : anc;
		res->files = xrealloc(res->files, (res->nfiles + 1) * sizeof(*res->files));
		res->files[res->nfiles++] = xstrdup(en->path);
	}
	git_index_conflict_iterator_free(it);
	for (size_t i = 0; i < upto; i++) {
		if (s->items[i].keep)
			continue;
		for (size_t f = 0; f < res->nfiles; f++)
			if (series_touches(s, i, res->files[f])) {
				add_index(&res->dropped, &res->ndropped, i + 1);
				break;
			}
	}
}

static int committer(git_repository *repo, git_signature **out)
{
	if (git_signature_default(out, repo) == 0)
		return 0;
	return git_signature_now(out, "klang", "klang@localhost");
}

/* Can change `ch` be taken as it is onto `base`: does base hold at its path
 * what the patch started from (nothing, for a new file)? */
static bool unchanged_on(const git_tree *base, const struct change *ch)
{
	if (ch->old_mode == GIT_FILEMODE_COMMIT || ch->new_mode == GIT_FILEMODE_COMMIT)
		return false; /* a submodule: left to the merge */
	git_tree_entry *en = NULL;
	int found = git_tree_entry_bypath(&en, base, ch->path);
	bool same = !ch->old_mode ? found == GIT_ENOTFOUND
				  : found == 0 && git_tree_entry_filemode_raw(en) == ch->old_mode &&
					git_oid_equal(git_tree_entry_id(en), &ch->old_id);
	git_tree_entry_free(en);
	return same;
}

/* The quick pick: when every file the patch touches is on `parent` as it was
 * on the patch's own parent (no dropped patch changed it), the result is
 * `parent` with the patch's versions of those files, and only the trees on
 * their paths are written. A three-way merge builds an index of the whole
 * tree instead: for a kernel, 80,000 entries and 180 ms a patch.
 * 0 with *tree_oid, 1 when the patch needs the merge. */
static int pick_quick(struct series *s, git_repository *repo, git_commit *c, git_commit *parent,
		      git_oid *tree_oid)
{
	git_commit *from = NULL;
	git_tree *base = NULL;
	struct changes ch = {0};
	git_tree_update *up = NULL;
	int rc = 1;
	if (git_commit_parentcount(c) != 1 || git_commit_parent(&from, c, 0) < 0)
		goto out;
	if (git_oid_equal(git_commit_tree_id(from), git_commit_tree_id(parent))) {
		*tree_oid = *git_commit_tree_id(c); /* nothing dropped before it */
		rc = 0;
		goto out;
	}
	if (git_commit_tree(&base, parent) < 0 ||
	    tree_changes(stack_reader(s->st), git_commit_tree_id(from), git_commit_tree_id(c),
			 &ch) < 0)
		goto out;
	up = xcalloc(ch.n + 1, sizeof(*up));
	for (size_t k = 0; k < ch.n; k++) {
		const struct change *x = &ch.v[k];
		if (!unchanged_on(base, x))
			goto out;
		up[k] = (git_tree_update){.action = x->new_mode ? GIT_TREE_UPDATE_UPSERT
								: GIT_TREE_UPDATE_REMOVE,
					  .id = x->new_id,
					  .filemode = x->new_mode,
					  .path = x->path};
	}
	/* a file that becomes a directory (or back) is not for this: merge */
	rc = git_tree_create_updated(tree_oid, repo, base, ch.n, up) < 0;
out:
	free(up);
	changes_free(&ch);
	git_tree_free(base);
	git_commit_free(from);
	return rc;
}

/* Pick one patch onto `parent`; *out is the new commit, or parent itself if
 * the patch changed nothing. 1 on a conflict. */
static int pick(struct series *s, git_repository *repo, size_t i, git_commit *parent,
		git_commit **out, struct apply_result *res, struct kerr *e)
{
	const struct patch *p = s->items[i].patch;
	git_oid oid, tree_oid;
	git_commit *c = NULL;
	git_index *idx = NULL;
	git_tree *tree = NULL;
	git_signature *who = NULL;
	int rc = -1;
	git_merge_options mo = GIT_MERGE_OPTIONS_INIT;
	if (git_oid_fromstr(&oid, p->id) < 0 || git_commit_lookup(&c, repo, &oid) < 0) {
		git_err(e, p->id);
		goto out;
	}
	if (pick_quick(s, repo, c, parent, &tree_oid) != 0) {
		if (git_cherrypick_commit(&idx, repo, c, parent, p->merge ? 1 : 0, &mo) < 0) {
			kerr_set(e, "patch %zu (%s): cherry-pick failed: %s", i + 1, p->subject,
				 gw_strerror());
			goto out;
		}
		if (git_index_has_conflicts(idx)) {
			res->failed = i + 1;
			record_conflict(s, idx, i, res);
			rc = 1;
			goto out;
		}
		if (git_index_write_tree_to(&tree_oid, idx, repo) < 0) {
			git_err(e, "write tree");
			goto out;
		}
	}
	if (git_oid_equal(&tree_oid, git_commit_tree_id(parent))) {
		add_index(&res->empty, &res->nempty, i + 1);
		git_commit_dup(out, parent);
		rc = 0;
		goto out;
	}
	git_oid new_oid;
	const git_commit *parents[1] = {parent};
	if (git_tree_lookup(&tree, repo, &tree_oid) < 0 || committer(repo, &who) < 0 ||
	    git_commit_create(&new_oid, repo, NULL, git_commit_author(c), who,
			      git_commit_message_encoding(c), git_commit_message_raw(c), tree, 1,
			      parents) < 0 ||
	    git_commit_lookup(out, repo, &new_oid) < 0) {
		git_err(e, "create commit");
		goto out;
	}
	res->commits = xrealloc(res->commits, (res->applied + 1) * sizeof(*res->commits));
	res->commits[res->applied++] = xstrdup(git_oid_tostr_s(&new_oid));
	rc = 0;
out:
	git_signature_free(who);
	git_tree_free(tree);
	git_index_free(idx);
	git_commit_free(c);
	return rc;
}

int apply_build(struct series *s, git_repository *repo, struct apply_result *res, struct kerr *e)
{
	memset(res, 0, sizeof(*res));
	git_oid oid;
	git_commit *cur = NULL;
	if (git_oid_fromstr(&oid, s->st->base_id) < 0 || git_commit_lookup(&cur, repo, &oid) < 0)
		return git_err(e, "base");
	int rc = 0;
	for (size_t i = 0; i < s->nitems && rc == 0; i++) {
		if (!s->items[i].keep)
			continue;
		git_commit *next = NULL;
		rc = pick(s, repo, i, cur, &next, res, e);
		if (rc == 0) {
			git_commit_free(cur);
			cur = next;
		}
	}
	git_oid_tostr(res->tip, sizeof(res->tip), git_commit_id(cur));
	git_commit_free(cur);
	return rc;
}

int apply_open_scratch(struct series *s, git_repository **out, struct kerr *e)
{
	git_odb *odb = NULL;
	git_odb_backend *mp = NULL;
	*out = NULL;
	if (git_repository_open(out, git_repository_path(s->st->repo)) < 0 ||
	    git_repository_odb(&odb, *out) < 0 || git_mempack_new(&mp) < 0 ||
	    git_odb_add_backend(odb, mp, 999) < 0) {
		git_odb_free(odb);
		git_repository_free(*out);
		*out = NULL;
		return git_err(e, "open repository");
	}
	git_odb_free(odb);
	return 0;
}

/* Into the pack: `id` and, for a tree, what it holds, unless the repository
 * has it already. A pick changes a few paths, so the walk stops at every
 * other subtree: libgit2's git_mempack_dump packs each commit's whole tree,
 * which for a kernel is 80,000 files, a minute and a gigabyte. */
static int pack_new(git_packbuilder *pb, git_repository *scratch, git_odb *have, const git_oid *id,
		    git_object_t type)
{
	if (type == GIT_OBJECT_COMMIT || git_odb_exists(have, id)) /* a submodule's commit */
		return 0;
	if (git_packbuilder_insert(pb, id, NULL) < 0)
		return -1;
	if (type != GIT_OBJECT_TREE)
		return 0;
	git_tree *t;
	if (git_tree_lookup(&t, scratch, id) < 0)
		return -1;
	int rc = 0;
	for (size_t i = 0; i < git_tree_entrycount(t) && rc == 0; i++) {
		const git_tree_entry *en = git_tree_entry_byindex(t, i);
		rc = pack_new(pb, scratch, have, git_tree_entry_id(en), git_tree_entry_type(en));
	}
	git_tree_free(t);
	return rc;
}

/* Write the commits made in memory, with their new trees and blobs, into
 * the real repository as one pack. */
static int persist(git_repository *scratch, const struct apply_result *res, git_repository *repo,
		   struct kerr *e)
{
	git_buf pack = GIT_BUF_INIT;
	git_odb *odb = NULL;
	git_odb_writepack *wp = NULL;
	git_packbuilder *pb = NULL;
	git_indexer_progress stats = {0};
	int rc =
	    git_repository_odb(&odb, repo) < 0 || git_packbuilder_new(&pb, scratch) < 0 ? -1 : 0;
	for (size_t i = 0; i < res->applied && rc == 0; i++) {
		git_oid id;
		git_commit *c = NULL;
		rc = git_oid_fromstr(&id, res->commits[i]) < 0 ||
			     git_packbuilder_insert(pb, &id, NULL) < 0 ||
			     git_commit_lookup(&c, scratch, &id) < 0 ||
			     pack_new(pb, scratch, odb, git_commit_tree_id(c), GIT_OBJECT_TREE) < 0
			 ? -1
			 : 0;
		git_commit_free(c);
	}
	if (rc < 0 || git_packbuilder_write_buf(&pack, pb) < 0 ||
	    git_odb_write_pack(&wp, odb, NULL, NULL) < 0 ||
	    wp->append(wp, pack.ptr, pack.size, &stats) < 0 || wp->commit(wp, &stats) < 0)
		rc = git_err(e, "write objects");
	if (wp)
		wp->free(wp);
	git_packbuilder_free(pb);
	git_odb_free(odb);
	git_buf_dispose(&pack);
	return rc;
}

/* Did klang create this branch, and has it not moved since? */
static bool klang_owns(git_repository *repo, const char *ref, const git_oid *tip)
{
	git_reflog *log;
	if (git_reflog_read(&log, repo, ref) < 0)
		return false;
	const git_reflog_entry *en = git_reflog_entry_byindex(log, 0); /* newest */
	const char *msg = en ? git_reflog_entry_message(en) : NULL;
	bool ok = msg && !strncmp(msg, APPLY_REFLOG_PREFIX, strlen(APPLY_REFLOG_PREFIX)) &&
		  git_oid_equal(git_reflog_entry_id_new(en), tip);
	git_reflog_free(log);
	return ok;
}

bool apply_branch_name_valid(const char *branch)
{
	int valid = 0;
	gw_libinit();
	/* libgit2 refuses HEAD and -x; refs/heads/x would make refs/heads/refs/heads/x */
	return git_branch_name_is_valid(&valid, branch) == 0 && valid &&
	       !str_startswith(branch, "refs/");
}

/* Refuse what must not be touched: an invalid name, a branch klang did not
 * create, a branch checked out. */
static int check_branch(git_repository *repo, const char *branch, const char *ref, bool force,
			struct kerr *e)
{
	if (!apply_branch_name_valid(branch))
		return kerr_set(e, "'%s' is not a valid branch name", branch);
	git_reference *old = NULL;
	if (git_reference_lookup(&old, repo, ref) < 0)
		return 0;
	int rc = 0;
	const git_oid *tip = git_reference_target(old);
	if (!force)
		rc = kerr_set(e,
			      "branch '%s' exists; klang will not overwrite it (--force replaces "
			      "a branch klang created)",
			      branch);
	else if (!tip || !klang_owns(repo, ref, tip))
		rc = kerr_set(e,
			      "branch '%s' exists and klang did not create it (or it moved "
			      "since); not replaced",
			      branch);
	else if (git_branch_is_head(old) == 1 || git_branch_is_checked_out(old) == 1)
		rc = kerr_set(e, "branch '%s' is checked out; not replaced", branch);
	git_reference_free(old);
	return rc;
}

static int create_branch(struct series *s, const char *ref, const char *tip, bool force,
			 struct kerr *e)
{
	git_repository *repo = s->st->repo;
	git_oid oid;
	git_reference *r = NULL;
	char cv[32];
	char *msg = xasprintf("%s: %s + %zu of %zu patches for clang %s", APPLY_REFLOG_PREFIX,
			      s->st->base_ref ? s->st->base_ref : s->st->base_id, s->kept,
			      s->nitems, clangver_str(&s->clang, cv, sizeof(cv)));
	int rc = git_oid_fromstr(&oid, tip);
	if (rc == 0)
		rc = git_reference_create(&r, repo, ref, &oid, force, msg);
	if (rc < 0) {
		free(msg);
		return git_err(e, ref);
	}
	git_reference_free(r);
	/* A bare repository keeps no reflog by default: write the mark anyway. */
	git_reflog *log = NULL;
	if (git_reflog_read(&log, repo, ref) == 0 && !klang_owns(repo, ref, &oid)) {
		git_signature *who = NULL;
		if (committer(repo, &who) == 0 && git_reflog_append(log, &oid, who, msg) == 0)
			git_reflog_write(log);
		git_signature_free(who);
	}
	git_reflog_free(log);
	free(msg);
	return 0;
}

int apply_series(struct series *s, const char *branch, bool force, struct apply_result *res,
		 struct kerr *e)
{
	memset(res, 0, sizeof(*res));
	if (!s->st->repo)
		return kerr_set(
		    e, "this stack was not read from a git repository; nothing to apply to");
	char *ref = xasprintf("refs/heads/%s", branch);
	git_repository *scratch = NULL;
	int rc = check_branch(s->st->repo, branch, ref, force, e);
	if (rc == 0)
		rc = apply_open_scratch(s, &scratch, e);
	if (rc == 0)
		rc = apply_build(s, scratch, res, e);
	if (rc == 0 && res->applied)
		rc = persist(scratch, res, s->st->repo, e);
	if (rc == 0)
		rc = create_branch(s, ref, res->tip, force, e);
	git_repository_free(scratch);
	free(ref);
	return rc;
}

void apply_describe_conflict(const struct series *s, const struct apply_result *res,
			     struct strbuf *out)
{
	if (!res->failed)
		return;
	const struct patch *p = s->items[res->failed - 1].patch;
	sb_addf(out, "patch %zu (%s) does not apply on base + kept patches: conflict in ",
		res->failed, p->subject);
	for (size_t i = 0; i < res->nfiles; i++)
		sb_addf(out, "%s%s", i ? ", " : "", res->files[i]);
	sb_addf(out, " (commit %.12s)\n", p->id);
	for (size_t i = 0; i < res->ndropped; i++) {
		const struct series_item *d = &s->items[res->dropped[i] - 1];
		sb_addf(out, "dropped patch %zu (%s) touched the same %s (commit %.12s)\n",
			res->dropped[i], d->patch->subject,
			d->needed_by == res->failed ? "lines" : "files", d->patch->id);
	}
	if (!res->ndropped)
		sb_adds(out, "no dropped patch touched these files\n");
}

void apply_result_free(struct apply_result *res)
{
	for (size_t i = 0; i < res->applied; i++)
		free(res->commits[i]);
	free(res->commits);
	for (size_t i = 0; i < res->nfiles; i++)
		free(res->files[i]);
	free(res->files);
	free(res->dropped);
	free(res->empty);
	memset(res, 0, sizeof(*res));
}

char *apply_branch_name(const struct series *s)
{
	const char *name = s->ps && s->ps->name && *s->ps->name ? s->ps->name : NULL;
	char *checked_out = NULL;
	if (!name) {
		name = s->st->head_ref ? s->st->head_ref : "HEAD";
		if (str_startswith(name, "refs/heads/"))
			name += strlen("refs/heads/");
		git_reference *head;
		if (!strcmp(name, "HEAD") && s->st->repo &&
		    git_repository_head(&head, s->st->repo) == 0) {
			if (git_reference_is_branch(head))
				checked_out = xstrdup(git_reference_shorthand(head));
			git_reference_free(head);
		}
		if (!strcmp(name, "HEAD"))
			name = checked_out ? checked_out : "stack";
	}
	/* on a branch klang made, klang/NAME/clang-V: NAME again, not a nested name */
	char *own = NULL;
	if (str_startswith(name, "klang/") && strstr(name + strlen("klang/"), "/clang-")) {
		name += strlen("klang/");
		own = xstrndup(name, (size_t)(strstr(name, "/clang-") - name));
		name = own;
	}
	char b[32];
	char *branch =
	    xasprintf("klang/%s/clang-%s", name, clangver_str_short(&s->clang, b, sizeof(b)));
	free(checked_out);
	free(own);
	/* characters git refuses in a ref name, and '/' inside the name part */
	size_t start = strlen("klang/"), end = strlen(branch) - strlen(b) - strlen("/clang-");
	for (size_t i = 0; branch[i]; i++) {
		char c = branch[i];
		if (c == '~' || c == '^' || c == ':' || c == ' ' || c == '@' || c == '\\' ||
		    c == '?' || c == '*' || c == '[' || (unsigned char)c < 32 ||
		    (c == '/' && i >= start && i < end))
			branch[i] = '-';
	}
	return branch;
}
