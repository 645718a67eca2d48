/* The patch stack: base..head walked with libgit2, first parent only, oldest
 * first (what `git log --reverse --first-parent base..head` lists). Loading
 * reads commits only; diff statistics are computed per patch on demand, or
 * for the whole stack on several threads. */
#include "core/stack.h"

#include <errno.h>
#include <git2.h>
#include <iconv.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "core/commitdiff.h"
#include "core/gitwrite.h"

/* Text from a commit with an `encoding` header other than UTF-8 is converted,
 * as git log does; NULL when it is UTF-8 already or cannot be converted. */
static char *to_utf8(const char *s, const char *enc)
{
	if (!enc || !strcasecmp(enc, "UTF-8") || !strcasecmp(enc, "utf8"))
		return NULL;
	iconv_t cd = iconv_open("UTF-8", enc);
	if (cd == (iconv_t)-1)
		return NULL;
	size_t inleft = strlen(s), cap = inleft * 4 + 16, outleft = cap;
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

static void fill_patch(struct stack *st, struct patch *p, git_commit *c)
{
	const char *enc = git_commit_message_encoding(c);
	const char *msg = git_commit_message(c);
	char *conv = to_utf8(msg ? msg : "", enc);
	patch_parse_message(p, conv ? conv : msg, st->extra_tag_names, st->nextra_tag_names);
	free(conv);
	git_oid_tostr(p->id, sizeof(p->id), git_commit_id(c));
	const git_signature *a = git_commit_author(c);
	conv = to_utf8(a->name ? a->name : "", enc);
	p->author = conv ? conv : xstrdup(a->name ? a->name : "");
	p->author_email = xstrdup(a->email ? a->email : "");
	p->time = a->when.time;
	p->tz_offset = a->when.offset;
	p->merge = git_commit_parentcount(c) > 1;
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

/* The nearest v* tag reachable from head, as `git describe --tags --match
 * 'v*' --abbrev=0` finds it. */
static char *default_base(git_commit *head)
{
	git_describe_options o = GIT_DESCRIBE_OPTIONS_INIT;
	git_describe_format_options fo = GIT_DESCRIBE_FORMAT_OPTIONS_INIT;
	git_describe_result *res = NULL;
	git_buf buf = GIT_BUF_INIT;
	char *name = NULL;
	o.describe_strategy = GIT_DESCRIBE_TAGS;
	o.pattern = "v*";
	fo.abbreviated_size = 0;
	if (git_describe_commit(&res, (git_object *)head, &o) == 0 &&
	    git_describe_format(&buf, res, &fo) == 0)
		name = xstrdup(buf.ptr);
	git_buf_dispose(&buf);
	git_describe_result_free(res);
	return name;
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

static int walk(struct stack *st, const git_oid *base, const git_oid *head, struct kerr *e)
{
	git_revwalk *w = NULL;
	git_oid *ids = NULL, id;
	size_t n = 0, cap = 0;
	int rc = -1;
	if (git_revwalk_new(&w, st->repo) < 0 || git_revwalk_push(w, head) < 0 ||
	    git_revwalk_hide(w, base) < 0)
		goto fail;
	git_revwalk_simplify_first_parent(w);
	while ((rc = git_revwalk_next(&id, w)) == 0) {
		ALLOC_GROW(ids, n + 1, cap);
		ids[n++] = id;
	}
	if (rc != GIT_ITEROVER)
		goto fail;
	st->patches = xcalloc(n ? n : 1, sizeof(*st->patches));
	st->cap = n;
	for (size_t i = 0; i < n; i++) {
		git_commit *c;
		if (git_commit_lookup(&c, st->repo, &ids[n - 1 - i]) < 0)
			goto fail;
		struct patch *p = &st->patches[st->npatches++];
		p->index = i + 1;
		fill_patch(st, p, c);
		git_commit_free(c);
	}
	free(ids);
	git_revwalk_free(w);
	return 0;
fail:
	kerr_set(e, "cannot walk %s: %s", st->repo_path, gw_strerror());
	free(ids);
	git_revwalk_free(w);
	return -1;
}

static int open_range(struct stack *st, const struct stack_opts *o, struct kerr *e)
{
	git_commit *head = NULL, *base = NULL;
	int rc = -1;
	st->head_ref = xstrdup(o->head ? o->head : "HEAD");
	if (resolve(st->repo, st->head_ref, &head) < 0) {
		kerr_set(e, "head '%s' not found in %s", st->head_ref, st->repo_path);
		goto out;
	}
	if (o->base) {
		st->base_ref = xstrdup(o->base);
	} else if (!(st->base_ref = default_base(head))) {
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
	if (!git_oid_equal(hid, bid) && git_graph_descendant_of(st->repo, hid, bid) != 1) {
		kerr_set(e, "base '%s' is not an ancestor of head '%s'", st->base_ref,
			 st->head_ref);
		goto out;
	}
	rc = walk(st, bid, hid, e);
out:
	git_commit_free(head);
	git_commit_free(base);
	return rc;
}

int stack_open(struct stack *st, const struct stack_opts *o, struct kerr *e)
{
	memset(st, 0, sizeof(*st));
	gw_libinit();
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

static int lookup_patch_commit(git_repository *r, const struct patch *p, git_commit **c)
{
	git_oid id;
	if (git_oid_fromstr(&id, p->id) < 0)
		return -1;
	return git_commit_lookup(c, r, &id);
}

static int load_stats(git_repository *r, int renames, struct patch *p, struct kerr *e)
{
	struct diffstat ds;
	git_commit *c;
	if (p->stats_loaded)
		return 0;
	if (p->diff || !r) {
		diffstat_from_text(p->diff, &ds);
	} else {
		if (lookup_patch_commit(r, p, &c) < 0)
			return kerr_set(e, "commit %s not found: %s", p->id, gw_strerror());
		int rc = commitdiff_stat(r, c, (enum rename_mode)renames, &ds, e);
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

int stack_load_stats(struct stack *st, struct patch *p, struct kerr *e)
{
	return load_stats(st->repo, st->renames, p, e);
}

/* Threads take patches in chunks from a shared counter; each opens its own
 * repository handle (libgit2 handles are not shared between threads). */
#define STATS_CHUNK 32
#define STATS_MIN_PER_THREAD 256

struct stats_job {
	struct stack *st;
	const char *gitdir;
	atomic_size_t next;
	atomic_int failed;
	pthread_mutex_t lock;
	struct kerr err;
};

static void *stats_worker(void *arg)
{
	struct stats_job *j = arg;
	git_repository *r;
	struct kerr e;
	if (git_repository_open(&r, j->gitdir) < 0) {
		kerr_set(&e, "%s: %s", j->gitdir, gw_strerror());
		goto fail;
	}
	while (!atomic_load(&j->failed)) {
		size_t from = atomic_fetch_add(&j->next, STATS_CHUNK);
		if (from >= j->st->npatches)
			break;
		size_t to = from + STATS_CHUNK < j->st->npatches ? from + STATS_CHUNK
								  : j->st->npatches;
		for (size_t i = from; i < to; i++)
			if (load_stats(r, j->st->renames, &j->st->patches[i], &e) < 0) {
				git_repository_free(r);
				goto fail;
			}
	}
	git_repository_free(r);
	return NULL;
fail:
	pthread_mutex_lock(&j->lock);
	if (!atomic_exchange(&j->failed, 1))
		j->err = e;
	pthread_mutex_unlock(&j->lock);
	return NULL;
}

static size_t stats_threads(size_t npatches)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t n = cpus > 0 ? (size_t)cpus : 1;
	if (n > 8)
		n = 8;
	if (n > npatches / STATS_MIN_PER_THREAD)
		n = npatches / STATS_MIN_PER_THREAD;
	if (!(git_libgit2_features() & GIT_FEATURE_THREADS))
		n = 0;
	return n;
}

int stack_load_all_stats(struct stack *st, struct kerr *e)
{
	size_t n = st->repo ? stats_threads(st->npatches) : 0;
	pthread_t tids[8];
	size_t started = 0;
	if (n < 2) {
		for (size_t i = 0; i < st->npatches; i++)
			if (stack_load_stats(st, &st->patches[i], e) < 0)
				return -1;
		return 0;
	}
	struct stats_job j = { .st = st, .gitdir = git_repository_path(st->repo) };
	atomic_init(&j.next, 0);
	atomic_init(&j.failed, 0);
	pthread_mutex_init(&j.lock, NULL);
	for (; started < n; started++)
		if (pthread_create(&tids[started], NULL, stats_worker, &j) != 0)
			break;
	if (!started) /* no thread could start: do it here */
		stats_worker(&j);
	for (size_t i = 0; i < started; i++)
		pthread_join(tids[i], NULL);
	pthread_mutex_destroy(&j.lock);
	if (atomic_load(&j.failed)) {
		*e = j.err;
		return -1;
	}
	return 0;
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
	char *text = commitdiff_text(st->repo, c, (enum rename_mode)st->renames, e);
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
	git_repository_free(st->repo);
	memset(st, 0, sizeof(*st));
}
