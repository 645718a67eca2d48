/* Choosing the newest finished build logs per arch (see core/buildlogs.h). */
#include "core/buildlogs.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/util.h"

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
	char *path;
	time_t mtime;
};

/* Is a better than b: newer, then by path. */
static bool better(const struct cand *a, const struct cand *b)
{
	if (!b->path)
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

size_t buildlogs_find(const char *repo, struct buildlog_pair **out)
{
	char *root = xasprintf("%s/.klang/out", repo ? repo : ".");
	DIR *dir = opendir(root);
	struct {
		char *arch;
		struct cand c[2];
	} *a = NULL;
	size_t na = 0, cap = 0;
	struct dirent *de;
	while (dir && (de = readdir(dir))) {
		int kind;
		size_t alen = build_dir_arch(de->d_name, &kind);
		if (kind < 0)
			continue;
		struct cand c = {.path = xasprintf("%s/%s/build.log", root, de->d_name)};
		char *sum = xasprintf("%s/%s/summary.json", root, de->d_name);
		struct stat sl, ss;
		if (stat(c.path, &sl) || !S_ISREG(sl.st_mode)) {
			free(c.path);
			free(sum);
			continue;
		}
		c.mtime = sl.st_mtime;
		/* finished: its summary written after the log, or a log left
		 * alone for 10 minutes (copied in, or its klang was killed) */
		bool finished = (!stat(sum, &ss) && ss.st_mtime >= sl.st_mtime) ||
				sl.st_mtime < time(NULL) - 600;
		free(sum);
		if (!finished) {
			free(c.path);
			continue;
		}
		size_t i = 0;
		while (i < na &&
		       (strlen(a[i].arch) != alen || strncmp(a[i].arch, de->d_name, alen)))
			i++;
		if (i == na) {
			ALLOC_GROW(a, na + 1, cap);
			memset(&a[na], 0, sizeof(a[na]));
			a[na++].arch = xstrndup(de->d_name, alen);
		}
		if (better(&c, &a[i].c[kind])) {
			free(a[i].c[kind].path);
			a[i].c[kind] = c;
		} else {
			free(c.path);
		}
	}
	if (dir)
		closedir(dir);
	free(root);
	struct buildlog_pair *p = xcalloc(na + 1, sizeof(*p));
	size_t n = 0;
	for (size_t i = 0; i < na; i++) {
		if (a[i].c[0].path && a[i].c[1].path) {
			p[n++] = (struct buildlog_pair){
			    .arch = a[i].arch,
			    .gcc = a[i].c[0].path,
			    .clang = a[i].c[1].path,
			    .gcc_mtime = a[i].c[0].mtime,
			    .clang_mtime = a[i].c[1].mtime,
			};
			continue;
		}
		free(a[i].arch);
		free(a[i].c[0].path);
		free(a[i].c[1].path);
	}
	free(a);
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
