/* Choosing the newest finished build logs per arch (see core/buildlogs.h). */
#include "core/buildlogs.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/buildrec.h"
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

struct scan {
	struct {
		char *arch;
		struct cand c[2];
	} * a;
	size_t na, cap;
};

/* A finished log of arch (alen bytes) and compiler kind: kept when newer
 * than the one held. `written` is when its summary or record was written,
 * after the log once the build finished; a log left alone for 10 minutes
 * counts too (copied in, or its klang was killed). Takes path. */
static void consider(struct scan *s, const char *arch, size_t alen, int kind, char *path,
		     const struct stat *written)
{
	struct stat sl;
	if (stat(path, &sl) || !S_ISREG(sl.st_mode) ||
	    !((written && written->st_mtime >= sl.st_mtime) || sl.st_mtime < time(NULL) - 600)) {
		free(path);
		return;
	}
	size_t i = 0;
	while (i < s->na && (strlen(s->a[i].arch) != alen || strncmp(s->a[i].arch, arch, alen)))
		i++;
	if (i == s->na) {
		ALLOC_GROW(s->a, s->na + 1, s->cap);
		memset(&s->a[s->na], 0, sizeof(s->a[s->na]));
		s->a[s->na++].arch = xstrndup(arch, alen);
	}
	struct cand c = {path, sl.st_mtime};
	if (better(&c, &s->a[i].c[kind])) {
		free(s->a[i].c[kind].path);
		s->a[i].c[kind] = c;
	} else {
		free(path);
	}
}

/* <repo>/.klang/out/<arch>-<toolchain>/build.log, the default --out. */
static void scan_out(struct scan *s, const char *repo)
{
	char *root = xasprintf("%s/.klang/out", repo);
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
		free(sum);
		consider(s, de->d_name, alen, kind, xasprintf("%s/%s/build.log", root, de->d_name),
			 has_sum ? &ss : NULL);
	}
	if (dir)
		closedir(dir);
	free(root);
}

/* <repo>/.klang/builds/NAME.json, the records of finished builds: their logs
 * wherever --out put them. */
static void from_record(json_t *rec, const struct stat *sr, void *data)
{
	const char *arch = json_string_value(json_object_get(rec, "arch"));
	const char *tc = json_string_value(json_object_get(rec, "toolchain"));
	const char *log = json_string_value(json_object_get(rec, "log"));
	int kind = tc ? toolchain_kind(tc) : -1;
	if (arch && *arch && log && *log == '/' && kind >= 0)
		consider(data, arch, strlen(arch), kind, xstrdup(log), sr);
}

size_t buildlogs_find(const char *repo, struct buildlog_pair **out)
{
	struct scan s = {0};
	scan_out(&s, repo ? repo : ".");
	char *records = xasprintf("%s/.klang/builds", repo ? repo : ".");
	buildrec_each(records, from_record, &s);
	free(records);
	struct buildlog_pair *p = xcalloc(s.na + 1, sizeof(*p));
	size_t n = 0;
	for (size_t i = 0; i < s.na; i++) {
		if (s.a[i].c[0].path && s.a[i].c[1].path) {
			p[n++] = (struct buildlog_pair){
			    .arch = s.a[i].arch,
			    .gcc = s.a[i].c[0].path,
			    .clang = s.a[i].c[1].path,
			    .gcc_mtime = s.a[i].c[0].mtime,
			    .clang_mtime = s.a[i].c[1].mtime,
			};
			continue;
		}
		free(s.a[i].arch);
		free(s.a[i].c[0].path);
		free(s.a[i].c[1].path);
	}
	free(s.a);
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
