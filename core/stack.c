/* The patch stack: base..head walked with libgit2, first parent only, oldest
 * first (what `git log --reverse --first-parent base..head` lists). Loading
 * reads each commit once; diff statistics are computed per patch on demand,
 * or for the whole stack by one worker process per CPU. */
#include "core/stack.h"

#include <errno.h>
#include <git2.h>
#include <iconv.h>
#include <limits.h>
#include <stdint.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/basetag.h"
#include "core/commitdiff.h"
#include "core/gitwrite.h"
#include "core/objread.h"
#include "core/rawcommit.h"

/* Text from a commit with an `encoding` header other than UTF-8 is converted,
 * as git log does; NULL when it is UTF-8 already or cannot be converted. */
static char *to_utf8(const char *s, size_t len, const char *enc)
{
	if (!enc || !strcasecmp(enc, "UTF-8") || !strcasecmp(enc, "utf8"))
		return NULL;
	iconv_t cd = iconv_open("UTF-8", enc);
	if (cd == (iconv_t)-1)
		return NULL;
	size_t inleft = len, cap = inleft * 4 + 16, outleft = cap;
	char *out = xmalloc(cap + 1), *in = (char *)s, *o = out;
	size_t rc = iconv(cd, &in, &inleft, &o, &outleft);
	iconv_close(cd);
	if (rc == (size_t)-1) {
		free(out);
		return NULL;
	}
	*o = '\0';
	return out;
}

/* A commit of a walk: parsed in place (rawcommit.h), or through libgit2
 * (gc) when rawcommit leaves it, its fields then pointing into gc. */
struct walk_commit {
	struct rawcommit c;
	git_commit *gc;
};

static void from_libgit2(struct rawcommit *c, git_commit *gc)
{
	const git_signature *a = git_commit_author(gc);
	const char *enc = git_commit_message_encoding(gc), *msg = git_commit_message(gc);
	memset(c, 0, sizeof(*c));
	c->id = *git_commit_id(gc);
	c->tree = *git_commit_tree_id(gc);
	c->nparents = git_commit_parentcount(gc);
	c->parents = c->nparents > RAWCOMMIT_INLINE_PARENTS
			 ? xmalloc(c->nparents * sizeof(*c->parents))
			 : c->parents_inline;
	for (size_t i = 0; i < c->nparents; i++)
		c->parents[i] = *git_commit_parent_id(gc, (unsigned)i);
	c->name = a->name ? a->name : "";
	c->name_len = strlen(c->name);
	c->email = a->email ? a->email : "";
	c->email_len = strlen(c->email);
	c->author_time = a->when.time;
	c->author_offset = a->when.offset;
	c->commit_time = git_commit_time(gc);
	c->encoding = enc;
	c->encoding_len = enc ? strlen(enc) : 0;
	c->message = msg ? msg : "";
}

static int commit_get(struct stack *st, const git_oid *id, struct walk_commit *w)
{
	w->gc = NULL;
	if (rawcommit_read(st->reader, id, &w->c) == 0)
		return 0;
	if (git_commit_lookup(&w->gc, st->repo, id) < 0)
		return -1;
	from_libgit2(&w->c, w->gc);
	return 0;
}

static void commit_put(struct stack *st, struct walk_commit *w)
{
	rawcommit_release(st->reader, &w->c);
	git_commit_free(w->gc);
	w->gc = NULL;
}

/* `parent` is the commit's first parent when the caller has it at hand. */
static void fill_patch(struct stack *st, struct patch *p, const struct rawcommit *c,
		       const struct rawcommit *parent)
{
	char encbuf[64], *enc = NULL;
	if (c->encoding)
		enc = c->encoding_len < sizeof(encbuf)
			  ? memcpy(encbuf, c->encoding, c->encoding_len)
			  : xstrndup(c->encoding, c->encoding_len);
	if (enc)
		enc[c->encoding_len] = '\0';
	char *conv = to_utf8(c->message, strlen(c->message), enc);
	patch_parse_message(p, conv ? conv : c->message, st->extra_tag_names, st->nextra_tag_names);
	free(conv);
	git_oid_tostr(p->id, sizeof(p->id), &c->id);
	conv = to_utf8(c->name, c->name_len, enc);
	p->author = conv ? conv : xstrndup(c->name, c->name_len);
	p->author_email = xstrndup(c->email, c->email_len);
	p->time = c->author_time;
	p->tz_offset = c->author_offset;
	p->merge = c->nparents > 1;
	memcpy(p->tree_oid, c->tree.id, sizeof(p->tree_oid));
	p->root = c->nparents == 0;
	struct walk_commit own;
	bool have_own = !p->root && !parent && commit_get(st, &c->parents[0], &own) == 0;
	if (have_own)
		parent = &own.c;
	if (parent)
		memcpy(p->parent_tree_oid, parent->tree.id, sizeof(p->parent_tree_oid));
	p->trees_known = p->root || parent;
	if (have_own)
		commit_put(st, &own);
	if (enc && enc != encbuf)
		free(enc);
}

static struct patch *new_patch(struct stack *st)
{
	ALLOC_GROW(st->patches, st->npatches + 1, st->cap);
	struct patch *p = &st->patches[st->npatches++];
	memset(p, 0, sizeof(*p));
	return p;
}

static void drop_patches(struct stack *st)
{
	for (size_t i = 0; i < st->npatches; i++)
		patch_free(&st->patches[i]);
	st->npatches = 0;
}

/* The patches were added newest first: turn them round and number them. */
static void number_patches(struct stack *st)
{
	for (size_t i = 0, j = st->npatches; i + 1 < j; i++, j--) {
		struct patch t = st->patches[i];
		st->patches[i] = st->patches[j - 1];
		st->patches[j - 1] = t;
	}
	for (size_t i = 0; i < st->npatches; i++)
		st->patches[i].index = i + 1;
}

/* A revision that names a commit (tags are peeled); -1 if there is none. */
static int resolve(git_repository *r, const char *rev, git_commit **out)
{
	git_object *obj;
	if (git_revparse_single(&obj, r, rev) < 0)
		return -1;
	int rc = git_object_peel((git_object **)out, obj, GIT_OBJECT_COMMIT);
	git_object_free(obj);
	return rc;
}

static char *repo_display_path(git_repository *r)
{
	const char *p = git_repository_workdir(r);
	if (!p)
		p = git_repository_path(r);
	char *s = xstrdup(p);
	size_t n = strlen(s);
	while (n > 1 && s[n - 1] == '/')
		s[--n] = '\0';
	return s;
}

static int open_repo(struct stack *st, const char *path, struct kerr *e)
{
	char abs[PATH_MAX];
	if (git_repository_open_ext(&st->repo, path, 0, NULL) == 0) {
		st->repo_path = repo_display_path(st->repo);
		return 0;
	}
	st->repo = NULL;
	return kerr_set(e, "not a git repository: %s", realpath(path, abs) ? abs : path);
}

/* The usual case, base on head's first-parent line: follow first parents
 * from head down to base (or, with no base given, to the first commit a v*
 * tag names), reading each commit once. 1 when the stop is not met: the line
 * ends, gets older than base by a day, or runs longer than any stack; the
 * caller then walks the general way. */
#define WALK_SLACK (24 * 3600)
#define WALK_MAX_TO_TAG 200000

struct line_walk {
	const git_oid *base;	   /* stop at base, or */
	const struct tagset *tags; /* at the first commit a tag names */
	git_oid stop;		   /* where it stopped */
	git_oid *sides;		   /* merges passed: first parent, other parent */
	size_t nsides, cap;
};

static bool walk_stops(const struct line_walk *lw, const git_oid *id)
{
	return lw->base ? git_oid_equal(id, lw->base) : tagset_name(lw->tags, id, NULL) != NULL;
}

static int walk_line(struct stack *st, const git_oid *head, struct line_walk *lw)
{
	struct walk_commit w[2], *c = &w[0], *parent = &w[1];
	git_commit *b = NULL;
	git_time_t limit = INT64_MIN;
	bool have = false;
	int rc = 1;
	if (lw->base && git_commit_lookup(&b, st->repo, lw->base) == 0)
		limit = git_commit_time(b) - WALK_SLACK;
	if ((lw->base && !b) || commit_get(st, head, c) < 0)
		goto out;
	have = true;
	while (!walk_stops(lw, &c->c.id)) {
		size_t n = c->c.nparents;
		if (n == 0 || c->c.commit_time < limit || st->npatches >= WALK_MAX_TO_TAG ||
		    commit_get(st, &c->c.parents[0], parent) < 0)
			goto out;
		for (size_t i = 1; i < n; i++) {
			ALLOC_GROW(lw->sides, lw->nsides + 2, lw->cap);
			lw->sides[lw->nsides++] = c->c.parents[0];
			lw->sides[lw->nsides++] = c->c.parents[i];
		}
		fill_patch(st, new_patch(st), &c->c, &parent->c);
		commit_put(st, c);
		struct walk_commit *t = c;
		c = parent;
		parent = t;
	}
	lw->stop = c->c.id;
	rc = 0;
out:
	git_commit_free(b);
	if (have)
		commit_put(st, c);
	if (rc)
		drop_patches(st);
	return rc;
}

/* No base given: walk down to the first v*-tagged commit of the line; it is
 * the base when no branch merged on the way brings a v* tag of its own (what
 * a merge brings is what its other parent reaches and its first parent does
 * not); then git describe would say the same. Otherwise (patches dropped)
 * libgit2's describe names the base. */
static char *walk_to_tag(struct stack *st, git_commit *head)
{
	struct tagset *tags = tagset_load(st->repo, "v*");
	struct line_walk lw = {.tags = tags};
	const char *name = NULL;
	size_t count = 0;
	if (walk_line(st, git_commit_id(head), &lw) == 0)
		name = tagset_name(tags, &lw.stop, &count);
	bool nearest = name && count == 1;
	for (size_t i = 0; nearest && i < lw.nsides; i += 2)
		nearest = tagset_none_above(st->repo, tags, &lw.sides[i + 1], 1, &lw.sides[i]);
	char *base = NULL;
	if (nearest)
		base = xstrdup(name);
	else
		drop_patches(st);
	free(lw.sides);
	tagset_free(tags);
	return base;
}

/* git's base..head with --first-parent: libgit2's revision walk. */
static int walk_general(struct stack *st, const git_oid *base, const git_oid *head, struct kerr *e)
{
	git_revwalk *w = NULL;
	git_oid id;
	int rc = -1;
	if (git_revwalk_new(&w, st->repo) < 0 || git_revwalk_push(w, head) < 0 ||
	    git_revwalk_hide(w, base) < 0)
		goto fail;
	git_revwalk_simplify_first_parent(w);
	while ((rc = git_revwalk_next(&id, w)) == 0) {
		struct walk_commit c;
		if (commit_get(st, &id, &c) < 0)
			goto fail;
		fill_patch(st, new_patch(st), &c.c, NULL);
		commit_put(st, &c);
	}
	if (rc != GIT_ITEROVER)
		goto fail;
	git_revwalk_free(w);
	return 0;
fail:
	kerr_set(e, "cannot walk %s: %s", st->repo_path, gw_strerror());
	git_revwalk_free(w);
	return -1;
}

static int lookup_patch_commit(git_repository *r, const struct patch *p, git_commit **c)
{
	git_oid id;
	if (git_oid_fromstr(&id, p->id) < 0)
		return -1;
	return git_commit_lookup(c, r, &id);
}

/* After the walk: the usual case, the oldest patch's parent is the base,
 * needs no search of the history. */
static bool is_ancestor(struct stack *st, const git_oid *base, const git_oid *head)
{
	git_commit *c;
	if (git_oid_equal(base, head))
		return true;
	if (!st->npatches)
		return false; /* head is behind base */
	if (lookup_patch_commit(st->repo, &st->patches[0], &c) == 0) {
		bool direct =
		    git_commit_parentcount(c) && git_oid_equal(git_commit_parent_id(c, 0), base);
		git_commit_free(c);
		if (direct)
			return true;
	}
	return git_graph_descendant_of(st->repo, head, base) == 1;
}

#define LIBGIT2_COMMIT_CACHE ((size_t)4096) /* libgit2's default limit */

static int open_range(struct stack *st, const struct stack_opts *o, struct kerr *e)
{
	git_commit *head = NULL, *base = NULL;
	bool walked = false;
	int rc = -1;
	stack_reader(st); /* commits are read through it (rawcommit.h) */
	/* each commit is read once: caching them would only cost time */
	git_libgit2_opts(GIT_OPT_SET_CACHE_OBJECT_LIMIT, GIT_OBJECT_COMMIT, (size_t)0);
	st->head_ref = xstrdup(o->head ? o->head : "HEAD");
	if (resolve(st->repo, st->head_ref, &head) < 0) {
		kerr_set(e, "head '%s' not found in %s", st->head_ref, st->repo_path);
		goto out;
	}
	if (o->base)
		st->base_ref = xstrdup(o->base);
	else if ((st->base_ref = walk_to_tag(st, head)))
		walked = true;
	else if (!(st->base_ref = describe_tag(head, "v*"))) {
		kerr_set(e, "no v* tag reachable from %s in %s; give --base", st->head_ref,
			 st->repo_path);
		goto out;
	}
	if (resolve(st->repo, st->base_ref, &base) < 0) {
		kerr_set(e, "base '%s' not found in %s", st->base_ref, st->repo_path);
		goto out;
	}
	const git_oid *hid = git_commit_id(head), *bid = git_commit_id(base);
	git_oid_tostr(st->head_id, sizeof(st->head_id), hid);
	git_oid_tostr(st->base_id, sizeof(st->base_id), bid);
	struct line_walk lw = {.base = bid};
	bool on_line = walked || walk_line(st, hid, &lw) == 0;
	free(lw.sides);
	if (!on_line && walk_general(st, bid, hid, e) < 0)
		goto out;
	number_patches(st);
	if (!on_line && !is_ancestor(st, bid, hid)) {
		kerr_set(e, "base '%s' is not an ancestor of head '%s'", st->base_ref,
			 st->head_ref);
		goto out;
	}
	rc = 0;
out:
	git_libgit2_opts(GIT_OPT_SET_CACHE_OBJECT_LIMIT, GIT_OBJECT_COMMIT, LIBGIT2_COMMIT_CACHE);
	git_commit_free(head);
	git_commit_free(base);
	return rc;
}

int stack_open(struct stack *st, const struct stack_opts *o, struct kerr *e)
{
	memset(st, 0, sizeof(*st));
	gw_libinit();
	/* git does not hash every object it reads; libgit2 does by default, and
	 * that is a quarter of the time of computing a stack's statistics */
	git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
	/* keep blobs and big trees in libgit2's object cache (by default it keeps
	 * no blob and no tree over 4 KiB): a patch's old blob is usually the
	 * new blob of an earlier patch, and kernel directories are big trees */
	git_libgit2_opts(GIT_OPT_SET_CACHE_OBJECT_LIMIT, GIT_OBJECT_BLOB, (size_t)128 << 10);
	git_libgit2_opts(GIT_OPT_SET_CACHE_OBJECT_LIMIT, GIT_OBJECT_TREE, (size_t)256 << 10);
	st->extra_tag_names = o->extra_tags;
	st->nextra_tag_names = o->nextra_tags;
	if (open_repo(st, o->repo ? o->repo : ".", e) < 0 || open_range(st, o, e) < 0)
		goto fail;
	st->renames = commitdiff_rename_mode(st->repo);
	if (o->stats && stack_load_all_stats(st, e) < 0)
		goto fail;
	return 0;
fail:
	stack_free(st);
	return -1;
}

static int load_stats(git_repository *r, struct objread *o, int renames, struct patch *p,
		      struct kerr *e)
{
	struct diffstat ds;
	git_commit *c;
	if (p->stats_loaded)
		return 0;
	if (p->diff || !r) {
		diffstat_from_text(p->diff, &ds);
	} else if (p->trees_known) {
		git_oid old, new;
		memcpy(old.id, p->parent_tree_oid, sizeof(old.id));
		memcpy(new.id, p->tree_oid, sizeof(new.id));
		if (commitdiff_stat_trees(r, o, p->root ? NULL : &old, &new,
					  (enum rename_mode)renames, &ds, e) < 0)
			return -1;
	} else {
		if (lookup_patch_commit(r, p, &c) < 0)
			return kerr_set(e, "commit %s not found: %s", p->id, gw_strerror());
		int rc = commitdiff_stat(r, o, c, (enum rename_mode)renames, &ds, e);
		git_commit_free(c);
		if (rc < 0)
			return -1;
	}
	p->files = ds.files;
	p->insertions = ds.insertions;
	p->deletions = ds.deletions;
	p->stats_loaded = true;
	return 0;
}

struct objread *stack_reader(struct stack *st)
{
	if (st->repo && !st->reader)
		st->reader = objread_new(st->repo);
	return st->reader;
}

int stack_load_stats(struct stack *st, struct patch *p, struct kerr *e)
{
	return load_stats(st->repo, stack_reader(st), st->renames, p, e);
}

/* Statistics of a big stack are computed by worker processes, each on a
 * contiguous slice (consecutive patches share trees, which stay in libgit2's
 * cache). Processes, not threads: libgit2 shares one pack cache between all
 * repository handles of a process, behind locks, so threads do not scale.
 * The children inherit the open repository, write their results into a
 * shared mapping and leave with _exit (no atexit handlers, no cache teardown).
 * Call it from a single-threaded process. */
#define STATS_MAX_WORKERS 16
#define STATS_MIN_SLICE 500

struct stats_slot {
	size_t files, insertions, deletions;
};

struct stats_shared {
	struct kerr err[STATS_MAX_WORKERS];
	int failed[STATS_MAX_WORKERS];
	int done[STATS_MAX_WORKERS]; /* set last: the slots are filled */
	struct stats_slot slot[];    /* one per patch */
};

static size_t stats_workers(size_t npatches)
{
	cpu_set_t set;
	long cpus = sched_getaffinity(0, sizeof(set), &set) == 0 ? CPU_COUNT(&set)
								 : sysconf(_SC_NPROCESSORS_ONLN);
	size_t n = cpus > 0 ? (size_t)cpus : 1;
	if (n > STATS_MAX_WORKERS)
		n = STATS_MAX_WORKERS;
	if (n > npatches / STATS_MIN_SLICE)
		n = npatches / STATS_MIN_SLICE;
	return n ? n : 1;
}

static int stats_slice(struct stack *st, size_t from, size_t to, struct kerr *e)
{
	for (size_t i = from; i < to; i++)
		if (stack_load_stats(st, &st->patches[i], e) < 0)
			return -1;
	return 0;
}

/* The workers share git's 96 MiB budget for cached objects. */
static size_t worker_budget(size_t workers)
{
	return workers > 6 ? (size_t)16 << 20 : ((size_t)96 << 20) / workers;
}

static void stats_child(struct stack *st, struct stats_shared *sh, size_t w, size_t from, size_t to,
			size_t workers)
{
	objread_limit(st->reader, worker_budget(workers));
	if (stats_slice(st, from, to, &sh->err[w]) < 0) {
		sh->failed[w] = 1;
		_exit(1);
	}
	for (size_t i = from; i < to; i++)
		sh->slot[i] = (struct stats_slot){st->patches[i].files, st->patches[i].insertions,
						  st->patches[i].deletions};
	__atomic_store_n(&sh->done[w], 1, __ATOMIC_RELEASE);
	_exit(0);
}

int stack_load_all_stats(struct stack *st, struct kerr *e)
{
	size_t n = st->repo ? stats_workers(st->npatches) : 1, started = 1;
	size_t per = n ? (st->npatches + n - 1) / n : st->npatches;
	size_t len = sizeof(struct stats_shared) + st->npatches * sizeof(struct stats_slot);
	struct stats_shared *sh = MAP_FAILED;
	pid_t pids[STATS_MAX_WORKERS];
	int rc = 0;

	stack_reader(st); /* before the fork: the workers share its maps */
	if (n > 1)
		sh = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		return stats_slice(st, 0, st->npatches, e);
	memset(sh, 0, sizeof(*sh));
	fflush(NULL); /* nothing buffered is written twice */
	/* workers 1..n-1 are children; worker 0 (the first slice) is this process */
	for (; started < n; started++) {
		pid_t pid = fork();
		if (pid < 0)
			break;
		if (pid == 0)
			stats_child(st, sh, started, started * per,
				    (started + 1) * per < st->npatches ? (started + 1) * per
								       : st->npatches,
				    n);
		pids[started] = pid;
	}
	/* slices whose child could not start are done here */
	size_t mine = started * per < st->npatches ? started * per : st->npatches;
	objread_limit(st->reader, worker_budget(n));
	rc = stats_slice(st, 0, per < mine ? per : mine, e);
	if (rc == 0)
		rc = stats_slice(st, mine, st->npatches, e);
	objread_limit(st->reader, worker_budget(1));
	for (size_t w = 1; w < started; w++) {
		int status = 0;
		pid_t got;
		while ((got = waitpid(pids[w], &status, 0)) < 0 && errno == EINTR)
			;
		/* got < 0: someone else reaped it (a SIGCHLD handler); its flags tell */
		bool ok = __atomic_load_n(&sh->done[w], __ATOMIC_ACQUIRE) &&
			  (got < 0 || (WIFEXITED(status) && WEXITSTATUS(status) == 0));
		if (rc == 0 && sh->failed[w]) {
			*e = sh->err[w];
			rc = -1;
		} else if (rc == 0 && !ok) {
			rc = kerr_set(e, "%s: a statistics worker died", st->repo_path);
		}
		size_t to = (w + 1) * per < mine ? (w + 1) * per : mine;
		for (size_t i = w * per; rc == 0 && i < to; i++) {
			struct patch *p = &st->patches[i];
			p->files = sh->slot[i].files;
			p->insertions = sh->slot[i].insertions;
			p->deletions = sh->slot[i].deletions;
			p->stats_loaded = true;
		}
	}
	munmap(sh, len);
	return rc;
}

struct patch *stack_find(struct stack *st, const char *id)
{
	size_t n = strlen(id);
	if (n < 4 || n > 40)
		return NULL;
	for (size_t i = 0; i < st->npatches; i++)
		if (!strncasecmp(st->patches[i].id, id, n))
			return &st->patches[i];
	return NULL;
}

char *stack_patch_diff(struct stack *st, const struct patch *p, struct kerr *e)
{
	git_commit *c;
	if (p->diff)
		return xstrdup(p->diff);
	if (!st->repo) {
		kerr_set(e, "%s: no diff", p->source ? p->source : p->id);
		return NULL;
	}
	if (lookup_patch_commit(st->repo, p, &c) < 0) {
		kerr_set(e, "commit %s not found: %s", p->id, gw_strerror());
		return NULL;
	}
	char *text =
	    commitdiff_text(st->repo, stack_reader(st), c, (enum rename_mode)st->renames, e);
	git_commit_free(c);
	return text;
}

void stack_free(struct stack *st)
{
	for (size_t i = 0; i < st->npatches; i++)
		patch_free(&st->patches[i]);
	free(st->patches);
	free(st->repo_path);
	free(st->base_ref);
	free(st->head_ref);
	objread_free(st->reader);
	git_repository_free(st->repo);
	memset(st, 0, sizeof(*st));
}
