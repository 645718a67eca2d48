/* libgit2 blame of one line within base..head (see core/blame.h). */
#include "core/blame.h"

#include <git2.h>
#include <stdbool.h>
#include <string.h>

int blame_line(struct git_repository *repo, const char *path, unsigned line, const char *base_id,
	       const char *head_id, char out_id[41], struct kerr *e)
{
	git_blame_options o = GIT_BLAME_OPTIONS_INIT;
	if (git_oid_fromstr(&o.newest_commit, head_id) ||
	    git_oid_fromstr(&o.oldest_commit, base_id))
		return kerr_set(e, "bad commit id '%s' or '%s'", head_id, base_id);
	/* libgit2 1.5 leaks the head commit when blaming a path it lacks */
	git_commit *c = NULL;
	git_tree *t = NULL;
	git_tree_entry *te = NULL;
	bool in_head = !git_commit_lookup(&c, repo, &o.newest_commit) && !git_commit_tree(&t, c) &&
		       !git_tree_entry_bypath(&te, t, path);
	git_tree_entry_free(te);
	git_tree_free(t);
	git_commit_free(c);
	if (!in_head)
		return kerr_set(e, "%s: not in head %.7s", path, head_id);
	git_blame *b = NULL;
	if (git_blame_file(&b, repo, path, &o)) {
		const git_error *ge = git_error_last();
		return kerr_set(e, "%s: not in head %.7s (%s)", path, head_id,
				ge && ge->message ? ge->message : "blame failed");
	}
	const git_blame_hunk *h = line ? git_blame_get_hunk_byline(b, line) : NULL;
	int rc;
	if (!h) {
		size_t lines = 0;
		for (uint32_t i = 0; i < git_blame_get_hunk_count(b); i++)
			lines += git_blame_get_hunk_byindex(b, i)->lines_in_hunk;
		rc = kerr_set(e, "%s has %zu lines at head %.7s, not %u", path, lines, head_id,
			      line);
	} else if (h->boundary || git_oid_equal(&h->final_commit_id, &o.oldest_commit)) {
		rc = 1;
	} else {
		git_oid_tostr(out_id, 41, &h->final_commit_id);
		rc = 0;
	}
	git_blame_free(b);
	return rc;
}
