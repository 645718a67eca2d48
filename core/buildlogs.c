/* Choosing the newest finished build logs per arch (see core/buildlogs.h). */
#include "core/buildlogs.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/buildrec.h"
#include "core/diag.h"
#include "core/util.h"

/* REPO's home in the cache, named after its path: two trees named linux
 * differ. NULL without $XDG_CACHE_HOME and $HOME. */
static char *cache_home(const char *repo)
{
	char *real = realpath(repo, NULL);
	const char *path = real ? real : repo, *slash = strrchr(path, '/');
	const char *base = slash && slash[1] ? slash + 1 : slash ? "root" : path;
	char *sub =
	    xasprintf("trees/%s-%08x", base, (unsigned)(diag_hash(path, strlen(path), 0) >> 32));
	char *home = cache_dir(sub);
	free(sub);
	free(real);
	return home;
}

char *buildlogs_home(const char *repo, char **why)
{
	char *home = xasprintf("%s/.klang", repo), *out = xasprintf("%s/out", home);
	/* the nearest of them that exists is where the rest would be made */
	const char *at = is_dir(out) ? out : is_dir(home) ? home : repo;
	*why = access(at, W_OK) < 0 && errno != ENOENT ? xasprintf("%s: %s", at, strerror(errno))
						       : NULL;
	free(out);
	char *cache = *why ? cache_home(repo) : NULL;
	if (!cache)
		return home;
	free(home);
	return cache;
}

char *buildlogs_state_file(const char *repo, const char *name)
{
	char *why, *home = buildlogs_home(repo, &why);
	char *path = xasprintf("%s/%s", home, name);
	if (why) { /* a tree that cannot be written: its own file starts the copy */
		char *tree = xasprintf("%s/.klang/%s", repo, name);
		struct kerr e;
		size_t len;
		char *text =
		    !file_exists(path) && file_exists(tree) ? read_file(tree, &len, &e) : NULL;
		if (text && mkdir_p(home, &e) == 0)
			write_file_atomic(path, text, len, &e);
		free(text);
		free(tree);
		free(why);
	}
	free(home);
	return path;
}

/* 0 gcc, 1 clang, -1 neither. */
static int toolchain_kind(const char *tc)
{
	const char *base = strrchr(tc, '/') ? strrchr(tc, '/') + 1 : tc;
	if (!strncmp(base, "gcc", 3) ||
	    (strlen(base) >= 3 && !strcmp(base + strlen(base) - 3, "gcc")))
		return 0;
	if (!strncmp(base, "llvm", 4) || !strncmp(base, "clang", 5))
		return 1;
	return -1;
}

/* A build directory's name, "<arch>-<toolchain>": the arch's length, and
 * the toolchain's kind in *kind (-1: not a build directory). */
static size_t build_dir_arch(const char *name, int *kind)
{
	const char *dash = strchr(name, '-');
	*kind = dash && name[0] != '.' ? toolchain_kind(dash + 1) : -1;
	return *kind < 0 ? 0 : (size_t)(dash - name);
}

char *buildlogs_arch_of(const char *log)
{
	const char *end = strrchr(log, '/'), *dir = end;
	if (!end)
		return NULL;
	while (dir > log && dir[-1] != '/')
		dir--;
	char *name = xstrndup(dir, (size_t)(end - dir));
	int kind;
	size_t alen = build_dir_arch(name, &kind);
	char *arch = alen ? xstrndup(name, alen) : NULL;
	free(name);
	return arch;
}

struct cand {
	char *path, *arch, *config; /* config "" when nothing says */
	int kind;		    /* 0 gcc, 1 clang */
	bool uptodate;		    /* an ok build that compiled nothing */
	time_t mtime;
	dev_t dev;
	ino_t ino;
};

struct scan {
	struct cand *c;
	size_t n, cap;
};

/* Is a better than b (NULL: none yet): newer, then by path. */
static bool better(const struct cand *a, const struct cand *b)
{
	if (!b)
		return true;
	if (a->mtime != b->mtime)
		return a->mtime > b->mtime;
	return strcmp(a->path, b->path) < 0;
}

static int cmp_pair(const void *a, const void *b)
{
	return strcmp(((const struct buildlog_pair *)a)->arch,
		      ((const struct buildlog_pair *)b)->arch);
}

/* A finished log of arch (alen bytes) and compiler kind. `written` is when
 * its summary or record was written, after the log once the build finished;
 * a log left alone for 10 minutes counts too (copied in, or its klang was
 * killed). `info` (the summary or record, may be NULL) gives its config; a
 * build that failed before compiling anything has nothing to compare, and a
 * cancelled one only half a log (a failed one keeps what it compiled); an
 * ok one that compiled nothing is kept, and marked up to date when no log
 * of the builds before it was kept (buildlogs_keep_previous). The
 * same file found twice (its out directory and its record) counts once.
 * Takes path. */
static void consider(struct scan *s, const char *arch, size_t alen, int kind, char *path,
		     const struct stat *written, json_t *info)
{
	struct stat sl;
	const char *status = json_string_value(json_object_get(info, "status"));
	const char *config = json_string_value(json_object_get(info, "config"));
	json_t *objects = json_object_get(info, "objects");
	bool uptodate = status && !strcmp(status, "ok") && objects &&
			!json_integer_value(objects) &&
			!buildlogs_earlier(path); /* else the logs kept say it all */
	bool empty = status && strcmp(status, "ok") &&
		     (!json_integer_value(objects) || !strcmp(status, "cancelled"));
	if (empty || stat(path, &sl) || !S_ISREG(sl.st_mode) ||
	    !((written && written->st_mtime >= sl.st_mtime) || sl.st_mtime < time(NULL) - 600)) {
		free(path);
		return;
	}
	for (size_t i = 0; i < s->n; i++)
		if (s->c[i].dev == sl.st_dev && s->c[i].ino == sl.st_ino) {
			free(path);
			return;
		}
	ALLOC_GROW(s->c, s->n + 1, s->cap);
	s->c[s->n++] = (struct cand){path,
				     xstrndup(arch, alen),
				     xstrdup(config ? config : ""),
				     kind,
				     uptodate,
				     sl.st_mtime,
				     sl.st_dev,
				     sl.st_ino};
}

/* <home>/out/<arch>-<toolchain>/build.log, the default --out. */
static void scan_out(struct scan *s, const char *home)
{
	char *root = xasprintf("%s/out", home);
	DIR *dir = opendir(root);
	struct dirent *de;
	while (dir && (de = readdir(dir))) {
		int kind;
		size_t alen = build_dir_arch(de->d_name, &kind);
		if (kind < 0)
			continue;
		char *sum = xasprintf("%s/%s/summary.json", root, de->d_name);
		struct stat ss;
		bool has_sum = !stat(sum, &ss);
		json_t *info = has_sum ? json_load_file(sum, 0, NULL) : NULL;
		free(sum);
		consider(s, de->d_name, alen, kind, xasprintf("%s/%s/build.log", root, de->d_name),
			 has_sum ? &ss : NULL, info);
		json_decref(info);
	}
	if (dir)
		closedir(dir);
	free(root);
}

/* <home>/builds/NAME.json, the records of finished builds: their logs
 * wherever --out put them. */
static void from_record(json_t *rec, const struct stat *sr, void *data)
{
	const char *arch = json_string_value(json_object_get(rec, "arch"));
	const char *tc = json_string_value(json_object_get(rec, "toolchain"));
	const char *log = json_string_value(json_object_get(rec, "log"));
	int kind = tc ? toolchain_kind(tc) : -1;
	if (arch && *arch && log && *log == '/' && kind >= 0)
		consider(data, arch, strlen(arch), kind, xstrdup(log), sr, rec);
}

/* Per arch, the GCC and Clang logs of one config (like is compared with
 * like): of each config built with both, the newest of each compiler; of
 * those pairs, the one whose older log is the newest. */
static bool best_pair(const struct scan *s, const char *arch, struct buildlog_pair *out)
{
	const struct cand *bg = NULL, *bc = NULL;
	for (size_t i = 0; i < s->n; i++) {
		const struct cand *x = &s->c[i];
		if (strcmp(x->arch, arch))
			continue;
		const struct cand *g = NULL, *c = NULL;
		for (size_t j = 0; j < s->n; j++) {
			const struct cand *y = &s->c[j];
			if (strcmp(y->arch, arch) || strcmp(y->config, x->config))
				continue;
			if (y->kind == 0 && better(y, g))
				g = y;
			if (y->kind == 1 && better(y, c))
				c = y;
		}
		if (!g || !c)
			continue;
		const struct cand *older = better(g, c) ? c : g;
		if (!bg || better(older, better(bg, bc) ? bc : bg))
			bg = g, bc = c;
	}
	if (!bg)
		return false;
	*out = (struct buildlog_pair){
	    .arch = xstrdup(arch),
	    .gcc = xstrdup(bg->path),
	    .clang = xstrdup(bc->path),
	    .gcc_mtime = bg->mtime,
	    .clang_mtime = bc->mtime,
	    .uptodate = bg->uptodate || bc->uptodate,
	};
	return true;
}

size_t buildlogs_find(const char *repo, struct buildlog_pair **out)
{
	struct scan s = {0};
	char *homes[2] = {xasprintf("%s/.klang", repo ? repo : "."), cache_home(repo ? repo : ".")};
	for (size_t i = 0; i < 2 && homes[i]; i++) {
		scan_out(&s, homes[i]);
		char *records = xasprintf("%s/builds", homes[i]);
		buildrec_each(records, true, from_record, &s);
		free(records);
		free(homes[i]);
	}
	struct buildlog_pair *p = xcalloc(s.n + 1, sizeof(*p));
	size_t n = 0;
	for (size_t i = 0; i < s.n; i++) {
		bool seen = false;
		for (size_t k = 0; k < n && !seen; k++)
			seen = !strcmp(p[k].arch, s.c[i].arch);
		if (!seen && best_pair(&s, s.c[i].arch, &p[n]))
			n++;
	}
	for (size_t i = 0; i < s.n; i++) {
		free(s.c[i].path);
		free(s.c[i].arch);
		free(s.c[i].config);
	}
	free(s.c);
	qsort(p, n, sizeof(*p), cmp_pair);
	*out = p;
	return n;
}

void buildlogs_free(struct buildlog_pair *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(p[i].arch);
		free(p[i].gcc);
		free(p[i].clang);
	}
	free(p);
}

char *buildlogs_signature(const struct buildlog_pair *p, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < n; i++)
		sb_addf(&sb, "%s %s %lld %s %lld\n", p[i].arch, p[i].gcc, (long long)p[i].gcc_mtime,
			p[i].clang, (long long)p[i].clang_mtime);
	return sb_detach(&sb);
}
