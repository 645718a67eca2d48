/* Shared helpers: allocation, strings, errors, files. */
#include "core/util.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static void oom(size_t n)
{
	fprintf(stderr, "klang: out of memory allocating %zu bytes\n", n);
	exit(EXIT_USAGE);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		oom(n);
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		oom(n * size);
	return p;
}

#define BIG (256u << 10) /* glibc maps blocks this big on their own */

static void *populate(void *p, size_t n)
{
#ifdef MADV_POPULATE_WRITE
	/* asked each time (big blocks only): the diff's two readers call this */
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE); /* 16 or 64 KiB on some arm64 */
	uintptr_t a = ((uintptr_t)p + page - 1) & ~(page - 1);
	uintptr_t e = ((uintptr_t)p + n) & ~(page - 1);
	if (n >= BIG && e > a)
		madvise((void *)a, e - a, MADV_POPULATE_WRITE); /* a hint: fails on old kernels */
#endif
	return p;
}

void *xmalloc_big(size_t n)
{
	return populate(xmalloc(n), n);
}

void *xcalloc_big(size_t n)
{
	/* calloc of a big block is a fresh mapping, zero already */
	return populate(xcalloc(1, n), n);
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom(n);
	return p;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	size_t len = strnlen(s, n);
	char *p = xmalloc(len + 1);
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	sb_vaddf(&sb, fmt, ap);
	va_end(ap);
	return sb_detach(&sb);
}

void sb_grow(struct strbuf *sb, size_t extra)
{
	if (sb->len + extra + 1 > sb->cap) {
		size_t cap = sb->cap ? sb->cap * 2 : 64;
		while (cap < sb->len + extra + 1)
			cap *= 2;
		sb->buf = xrealloc(sb->buf, cap);
		sb->cap = cap;
	}
}

void sb_add(struct strbuf *sb, const char *s, size_t n)
{
	sb_grow(sb, n);
	memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void sb_adds(struct strbuf *sb, const char *s)
{
	sb_add(sb, s, strlen(s));
}

void sb_addc(struct strbuf *sb, char c)
{
	sb_add(sb, &c, 1);
}

void sb_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	va_copy(cp, ap);
	int n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0)
		return;
	sb_grow(sb, (size_t)n);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	sb->len += (size_t)n;
}

void sb_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	sb_vaddf(sb, fmt, ap);
	va_end(ap);
}

void sb_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

char *sb_detach(struct strbuf *sb)
{
	char *s = sb->buf ? sb->buf : xstrdup("");
	sb->buf = NULL;
	sb->len = sb->cap = 0;
	return s;
}

void sb_free(struct strbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->cap = 0;
}

int kerr_set(struct kerr *e, const char *fmt, ...)
{
	if (e) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* Patches, YAML, configs: a whole file in memory, up to this size (logs are
 * streamed, never read whole). */
#define READ_FILE_MAX (512 << 20)

char *read_file(const char *path, size_t *lenp, struct kerr *e)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		kerr_set(e, "%s: %s", path, strerror(errno));
		return NULL;
	}
	struct stat st;
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(fd);
		kerr_set(e, "%s: is a directory, not a file", path);
		return NULL;
	}
	struct strbuf sb = STRBUF_INIT;
	sb_grow(&sb, 65536);
	for (;;) {
		sb_grow(&sb, 65536);
		ssize_t n = read(fd, sb.buf + sb.len, sb.cap - sb.len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			kerr_set(e, "%s: %s", path, strerror(errno));
			close(fd);
			sb_free(&sb);
			return NULL;
		}
		if (n == 0)
			break;
		sb.len += (size_t)n;
		if (sb.len > READ_FILE_MAX) { /* /dev/zero, or a log given as YAML */
			kerr_set(e, "%s: larger than %d MB: not a file klang reads whole", path,
				 READ_FILE_MAX >> 20);
			close(fd);
			sb_free(&sb);
			return NULL;
		}
	}
	close(fd);
	sb.buf[sb.len] = '\0';
	if (lenp)
		*lenp = sb.len;
	return sb_detach(&sb);
}

static int write_replace(const char *path, const char *data, size_t len, bool sync, struct kerr *e)
{
	char *tmp = xasprintf("%s.tmp.%ld", path, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		kerr_set(e, "%s: %s", tmp, strerror(errno));
		free(tmp);
		return -1;
	}
	size_t off = 0;
	while (off < len) {
		ssize_t n = write(fd, data + off, len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			goto fail;
		off += (size_t)n;
	}
	if (sync && fsync(fd) < 0)
		goto fail;
	if (close(fd) < 0) {
		fd = -1;
		goto fail;
	}
	if (rename(tmp, path) < 0) {
		fd = -1;
		goto fail;
	}
	free(tmp);
	return 0;
fail:
	kerr_set(e, "%s: %s", path, strerror(errno ? errno : EIO));
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	free(tmp);
	return -1;
}

int write_file_atomic(const char *path, const char *data, size_t len, struct kerr *e)
{
	return write_replace(path, data, len, true, e);
}

int write_file_replace(const char *path, const char *data, size_t len, struct kerr *e)
{
	return write_replace(path, data, len, false, e);
}

int mkdir_p(const char *path, struct kerr *e)
{
	char *p = xstrdup(path);
	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0755) < 0 && errno != EEXIST) {
			kerr_set(e, "%s: %s", p, strerror(errno));
			free(p);
			return -1;
		}
		*s = '/';
	}
	if (mkdir(p, 0755) < 0 && (errno != EEXIST || !is_dir(p))) {
		kerr_set(e, "%s: %s", p, strerror(errno == EEXIST ? ENOTDIR : errno));
		free(p);
		return -1;
	}
	free(p);
	return 0;
}

void state_dir_ignore_scratch(const char *repo)
{
	static const char text[] =
	    "# klang's scratch (build trees, logs, records, exports, locks).\n"
	    "# triage.yaml, overrides.yaml, rules.yaml and config.yaml are meant\n"
	    "# to be shared: commit them when your team triages together.\n"
	    "/out/\n/builds/\n/export/\n*.lock\n*.corrupt*\n";
	struct kerr e;
	char *dir = xasprintf("%s/.klang", repo ? repo : ".");
	char *path = xasprintf("%s/.gitignore", dir);
	if (!file_exists(path) && mkdir_p(dir, &e) == 0)
		(void)write_file_atomic(path, text, sizeof(text) - 1, &e);
	free(path);
	free(dir);
}

/* The first directory at or above PATH, up to the file system's edge,
 * with MARK in it; NULL if none. */
static char *up_to(const char *path, const char *mark)
{
	char *dir = realpath(path, NULL);
	struct stat st, top;
	if (!dir || stat(dir, &top) < 0) {
		free(dir);
		return NULL;
	}
	for (;;) {
		char *at = xasprintf("%s%s%s", dir, strcmp(dir, "/") ? "/" : "", mark);
		bool found = stat(at, &st) == 0;
		free(at);
		if (found)
			return dir;
		char *slash = strrchr(dir, '/');
		if (!slash || slash == dir || (*slash = '\0', stat(dir, &st) < 0) ||
		    st.st_dev != top.st_dev)
			break;
	}
	free(dir);
	return NULL;
}

/* Without libgit2, whose start-up (it reads every CA certificate) would be
 * most of the CPU time klang build takes of its own. */
char *repo_workdir(const char *path)
{
	return up_to(path, ".git");
}

char *kernel_top(const char *path)
{
	char *own = xasprintf("%s/scripts/Kbuild.include", path);
	bool top = file_exists(own);
	free(own);
	return top ? NULL : up_to(path, "scripts/Kbuild.include");
}

bool file_exists(const char *path)
{
	return access(path, F_OK) == 0;
}

char *cache_dir(const char *sub)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	if (xdg && *xdg == '/')
		return xasprintf("%s/klang/%s", xdg, sub);
	if (home && *home)
		return xasprintf("%s/.cache/klang/%s", home, sub);
	return NULL;
}

bool is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

bool is_make_assignment(const char *s)
{
	const char *p = s;
	if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || *p == '_'))
		return false;
	while ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || *p == '_' ||
	       (*p >= '0' && *p <= '9'))
		p++;
	return *p == '=';
}

int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char *data_path(const char *rel)
{
	const char *env = getenv("KLANG_DATADIR");
	if (env && *env) {
		char *p = xasprintf("%s/%s", env, rel);
		if (file_exists(p))
			return p;
		free(p);
	}
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		/* ./klang in the source tree, or build/<variant>/klang */
		char *dir = dirname(exe);
		const char *ups[] = {"", "/../..", "/.."};
		for (size_t i = 0; i < ARRAY_SIZE(ups); i++) {
			char *p = xasprintf("%s%s/%s", dir, ups[i], rel);
			char *mk = xasprintf("%s%s/GNUmakefile", dir, ups[i]);
			bool ok = file_exists(p) && file_exists(mk);
			free(mk);
			if (ok)
				return p;
			free(p);
		}
	}
#ifdef KLANG_DATADIR
	char *p = xasprintf("%s/%s", KLANG_DATADIR, rel);
	if (file_exists(p))
		return p;
	free(p);
#endif
	return NULL;
}

bool str_startswith(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

bool str_endswith(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && memcmp(s + n - m, suffix, m) == 0;
}

char *str_trim(char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r'))
		s[--n] = '\0';
	return s;
}

void str_flatten(char *s)
{
	for (; *s; s++)
		if (*s == '\t' || *s == '\n' || *s == '\r')
			*s = ' ';
}

void fput_flat(FILE *f, const char *s)
{
	for (; s && *s; s++)
		fputc((unsigned char)*s < 0x20 || *s == 0x7f ? ' ' : *s, f);
}

void warnx_(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("klang: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

void run_both(void *(*fn)(void *), void *a, void *b)
{
	pthread_t t;
	bool threaded = pthread_create(&t, NULL, fn, b) == 0;
	fn(a);
	if (threaded)
		pthread_join(t, NULL);
	else
		fn(b);
}

size_t utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
	unsigned char c = s[0];
	size_t len;
	*cp = c;
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2, *cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3, *cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4, *cp = c & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		*cp = (*cp << 6) | (s[i] & 0x3f);
	}
	if ((len == 3 && (*cp < 0x800 || (*cp >= 0xd800 && *cp <= 0xdfff))) ||
	    (len == 4 && (*cp < 0x10000 || *cp > 0x10ffff)))
		return 0;
	return len;
}
