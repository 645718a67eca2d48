/* Writing commits, tags and refs straight into the object database. */
#include "core/gitwrite.h"

#include <dlfcn.h>
#include <git2.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* libgit2 built with mbedTLS (Debian's) parses every CA certificate of the
 * system as it starts: 9 ms, more than walking a thousand commits, and
 * klang never makes a network connection. During git_libgit2_init that
 * call is answered here with "no certificates"; at any other time it goes
 * to mbedTLS. A libgit2 built another way never calls it. */
static bool in_libinit;

int mbedtls_x509_crt_parse_file(void *chain, const char *path);
int mbedtls_x509_crt_parse_file(void *chain, const char *path)
{
	static int (*real)(void *, const char *);
	if (in_libinit)
		return 0;
	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "mbedtls_x509_crt_parse_file");
	return real ? real(chain, path) : -1;
}

void gw_libinit(void)
{
	static int done;
	if (!done) {
		in_libinit = true;
		git_libgit2_init();
		in_libinit = false;
		done = 1;
	}
}

const char *gw_strerror(void)
{
	const git_error *ge = git_error_last();
	return ge && ge->message ? ge->message : "unknown libgit2 error";
}

int gw_init(const char *path, git_repository **out, struct kerr *e)
{
	gw_libinit();
	if (git_repository_open(out, path) == 0)
		return 0;
	if (git_repository_init(out, path, 0) < 0)
		return kerr_set(e, "%s: cannot create repository: %s", path, gw_strerror());
	return 0;
}

static int lookup_commit(git_repository *r, const char *rev, git_commit **out)
{
	git_object *obj;
	if (git_revparse_single(&obj, r, rev) < 0)
		return -1;
	int rc = git_object_peel((git_object **)out, obj, GIT_OBJECT_COMMIT);
	git_object_free(obj);
	return rc;
}

int gw_commit(git_repository *r, const struct gw_commit *c, char out_id[41], struct kerr *e)
{
	git_commit *parents[2] = {NULL, NULL};
	size_t nparents = 0;
	git_tree *base_tree = NULL, *tree = NULL;
	git_treebuilder *tb = NULL;
	git_tree_update *ups = NULL;
	git_signature *sig = NULL;
	int rc = -1;

	const char *p1 = c->parent ? c->parent : c->ref;
	if (p1 && lookup_commit(r, p1, &parents[0]) == 0)
		nparents = 1;
	else if (c->parent) {
		kerr_set(e, "parent '%s' not found", c->parent);
		goto out;
	}
	if (c->second_parent) {
		if (lookup_commit(r, c->second_parent, &parents[nparents]) < 0) {
			kerr_set(e, "merge parent '%s' not found", c->second_parent);
			goto out;
		}
		nparents++;
	}
	if (nparents && git_commit_tree(&base_tree, parents[0]) < 0)
		goto git_fail;
	if (!base_tree) {
		git_oid empty;
		if (git_treebuilder_new(&tb, r, NULL) < 0 ||
		    git_treebuilder_write(&empty, tb) < 0 ||
		    git_tree_lookup(&base_tree, r, &empty) < 0)
			goto git_fail;
	}
	ups = xcalloc(c->nfiles ? c->nfiles : 1, sizeof(*ups));
	for (size_t i = 0; i < c->nfiles; i++) {
		const struct gw_file *f = &c->files[i];
		ups[i].path = f->path;
		if (f->content) {
			size_t len = f->len ? f->len : strlen(f->content);
			if (git_blob_create_from_buffer(&ups[i].id, r, f->content, len) < 0)
				goto git_fail;
			ups[i].action = GIT_TREE_UPDATE_UPSERT;
			ups[i].filemode = GIT_FILEMODE_BLOB;
		} else {
			ups[i].action = GIT_TREE_UPDATE_REMOVE;
		}
	}
	git_oid tree_id, commit_id;
	if (git_tree_create_updated(&tree_id, r, base_tree, c->nfiles, ups) < 0 ||
	    git_tree_lookup(&tree, r, &tree_id) < 0)
		goto git_fail;
	if (git_signature_new(&sig, c->author ? c->author : "klang",
			      c->email ? c->email : "klang@example.org",
			      c->time ? c->time : 1700000000, c->tz) < 0)
		goto git_fail;
	if (git_commit_create(&commit_id, r, NULL, sig, sig, NULL, c->message, tree, nparents,
			      (const git_commit **)parents) < 0)
		goto git_fail;
	if (c->ref) {
		git_reference *ref;
		if (git_reference_create(&ref, r, c->ref, &commit_id, 1, "klang: commit") < 0)
			goto git_fail;
		git_reference_free(ref);
	}
	if (out_id)
		git_oid_tostr(out_id, 41, &commit_id);
	rc = 0;
	goto out;
git_fail:
	kerr_set(e, "cannot write commit: %s", gw_strerror());
out:
	free(ups);
	git_signature_free(sig);
	git_tree_free(tree);
	git_tree_free(base_tree);
	git_treebuilder_free(tb);
	for (size_t i = 0; i < 2; i++)
		git_commit_free(parents[i]);
	return rc;
}

int gw_tag(git_repository *r, const char *name, const char *rev, struct kerr *e)
{
	git_object *obj;
	git_oid oid;
	if (git_revparse_single(&obj, r, rev) < 0)
		return kerr_set(e, "tag %s: revision '%s' not found", name, rev);
	int rc = git_tag_create_lightweight(&oid, r, name, obj, 1);
	git_object_free(obj);
	if (rc < 0)
		return kerr_set(e, "tag %s: %s", name, gw_strerror());
	return 0;
}

int gw_checkout(git_repository *r, const char *branch, struct kerr *e)
{
	char *ref = xasprintf("refs/heads/%s", branch);
	git_checkout_options co = GIT_CHECKOUT_OPTIONS_INIT;
	co.checkout_strategy = GIT_CHECKOUT_FORCE;
	int rc = git_repository_set_head(r, ref);
	if (rc == 0)
		rc = git_checkout_head(r, &co);
	free(ref);
	if (rc < 0)
		return kerr_set(e, "checkout %s: %s", branch, gw_strerror());
	return 0;
}
