/* Clang version parsing, comparison and detection. The vendor formats come
 * from real `--version` first lines:
 *   clang version 19.1.7 (https://github.com/llvm/llvm-project ...)
 *   Debian clang version 14.0.6
 *   Ubuntu clang version 14.0.0-1ubuntu1
 *   clang version 5.0.0-3~16.04.1 (tags/RELEASE_500/final)
 *   Android (4691093 based on r316199) clang version 6.0.2 (https://...)
 *   Chromium OS 17.0_pre496208_p20230501-r1 clang version 17.0.0 (...)
 *   clang version 18.1.8 (Fedora 18.1.8-1.fc40)
 *   Apple clang version 15.0.0 (clang-1500.1.0.2.5)   -- Apple's numbers
 *   Apple LLVM version 10.0.0 (clang-1000.11.45.5)    -- Apple's numbers */
#include "core/clangver.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void copy_trim(char *dst, size_t size, const char *s, size_t n)
{
	while (n && isspace((unsigned char)*s))
		s++, n--;
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	if (n >= size)
		n = size - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

/* Read "14", "14.0", "14.0.6" and what follows up to a space; returns the
 * end, or NULL if `s` does not start with a digit or a part is above
 * CLANGVER_PART_MAX. */
static const char *parse_numbers(const char *s, struct clang_version *v)
{
	int *parts[3] = {&v->major, &v->minor, &v->patch};
	if (!isdigit((unsigned char)*s))
		return NULL;
	v->major = v->minor = v->patch = 0;
	v->nparts = 0;
	while (v->nparts < 3 && isdigit((unsigned char)*s)) {
		long n = 0;
		while (isdigit((unsigned char)*s)) {
			n = n * 10 + (*s++ - '0');
			if (n > CLANGVER_PART_MAX)
				return NULL;
		}
		*parts[v->nparts++] = (int)n;
		if (*s == '.' && isdigit((unsigned char)s[1]) && v->nparts < 3)
			s++;
		else
			break;
	}
	const char *end = s;
	while (*end && !isspace((unsigned char)*end) && *end != '(' && *end != ')')
		end++;
	copy_trim(v->suffix, sizeof(v->suffix), s, (size_t)(end - s));
	return end;
}

int clangver_parse(const char *s, struct clang_version *v)
{
	memset(v, 0, sizeof(*v));
	if (!s)
		return -1;
	while (isspace((unsigned char)*s))
		s++;
	const char *end = parse_numbers(s, v);
	if (!end || v->suffix[0]) /* "14abc", "1e3", "0x10", "14.0.6.1" */
		return -1;
	while (isspace((unsigned char)*end))
		end++;
	return *end ? -1 : 0;
}

int clangver_parse_trailer(const char *s, struct clang_version *v)
{
	memset(v, 0, sizeof(*v));
	while (s && isspace((unsigned char)*s))
		s++;
	if (!s || !parse_numbers(s, v) || (v->suffix[0] && !strchr("-+~", v->suffix[0])))
		return -1;
	v->suffix[0] = '\0';
	return 0;
}

/* Fill vendor/detail from what precedes "clang version": "Debian",
 * "Android (4691093 based on r316199)", "Chromium OS 17.0_pre496208_p...". */
static void parse_vendor(const char *s, size_t n, struct clang_version *v)
{
	const char *paren = memchr(s, '(', n);
	if (paren) {
		copy_trim(v->vendor, sizeof(v->vendor), s, (size_t)(paren - s));
		const char *close = memchr(paren, ')', n - (size_t)(paren - s));
		size_t dn = close ? (size_t)(close - paren - 1) : n - (size_t)(paren - s) - 1;
		copy_trim(v->detail, sizeof(v->detail), paren + 1, dn);
		return;
	}
	/* Vendor words end at the first word that starts with a digit. */
	const char *w = s, *end = s + n;
	while (w < end) {
		while (w < end && isspace((unsigned char)*w))
			w++;
		if (w < end && isdigit((unsigned char)*w))
			break;
		while (w < end && !isspace((unsigned char)*w))
			w++;
	}
	copy_trim(v->vendor, sizeof(v->vendor), s, (size_t)(w - s));
	copy_trim(v->detail, sizeof(v->detail), w, (size_t)(end - w));
}

/* A trailing "(Fedora 18.1.8-1.fc40)" names the vendor when nothing preceded
 * "clang version"; "(https://...)" and "(tags/RELEASE_500/final)" do not. */
static void parse_trailing_paren(const char *s, struct clang_version *v)
{
	while (isspace((unsigned char)*s))
		s++;
	if (*s != '(')
		return;
	s++;
	const char *close = strchr(s, ')');
	size_t n = close ? (size_t)(close - s) : strlen(s);
	if (v->apple || !isupper((unsigned char)*s) || v->vendor[0]) {
		if (!v->detail[0])
			copy_trim(v->detail, sizeof(v->detail), s, n);
		return;
	}
	parse_vendor(s, n, v);
	if (!v->detail[0]) /* "(Fedora)" alone: not enough to call it a vendor */
		v->vendor[0] = '\0';
}

int clangver_from_output(const char *text, struct clang_version *v, struct kerr *e)
{
	static const char *const markers[] = {"clang version ", "LLVM version "};
	memset(v, 0, sizeof(*v));
	const char *line = text ? text : "";
	while (*line) {
		const char *eol = strchr(line, '\n');
		size_t len = eol ? (size_t)(eol - line) : strlen(line);
		char *l = xstrndup(line, len);
		for (size_t i = 0; i < ARRAY_SIZE(markers); i++) {
			char *m = strstr(l, markers[i]);
			if (!m)
				continue;
			const char *end = parse_numbers(m + strlen(markers[i]), v);
			if (!end)
				continue;
			parse_vendor(l, (size_t)(m - l), v);
			v->apple = !strncmp(v->vendor, "Apple", 5);
			if (v->apple)
				v->detail[0] = '\0';
			parse_trailing_paren(end, v);
			free(l);
			return 0;
		}
		free(l);
		line += len + (eol ? 1 : 0);
	}
	const char *eol = text ? strchr(text, '\n') : NULL;
	int n = text ? (eol ? (int)(eol - text) : (int)strlen(text)) : 0;
	if (n > 200)
		n = 200;
	memset(v, 0, sizeof(*v));
	return kerr_set(e, "no Clang version in '%.*s'", n, text ? text : "");
}

int clangver_cmp(const struct clang_version *a, const struct clang_version *b)
{
	if (a->major != b->major)
		return a->major < b->major ? -1 : 1;
	if (a->minor != b->minor)
		return a->minor < b->minor ? -1 : 1;
	if (a->patch != b->patch)
		return a->patch < b->patch ? -1 : 1;
	return 0;
}

const char *clangver_str(const struct clang_version *v, char *buf, size_t len)
{
	snprintf(buf, len, "%d.%d.%d", v->major, v->minor, v->patch);
	return buf;
}

const char *clangver_str_short(const struct clang_version *v, char *buf, size_t len)
{
	if (v->nparts <= 1)
		snprintf(buf, len, "%d", v->major);
	else if (v->nparts == 2)
		snprintf(buf, len, "%d.%d", v->major, v->minor);
	else
		clangver_str(v, buf, len);
	return buf;
}

const char *clangver_default_cc(const char *cc)
{
	if (cc && *cc)
		return cc;
	const char *env = getenv("CC");
	return env && *env ? env : "clang";
}

/* Split a command line on blanks (no quoting: $CC is words). */
static char **split_words(const char *s, size_t *n)
{
	char **argv = NULL;
	size_t cap = 0;
	*n = 0;
	while (*s) {
		while (isspace((unsigned char)*s))
			s++;
		const char *w = s;
		while (*s && !isspace((unsigned char)*s))
			s++;
		if (s > w) {
			ALLOC_GROW(argv, *n + 2, cap);
			argv[(*n)++] = xstrndup(w, (size_t)(s - w));
		}
	}
	ALLOC_GROW(argv, *n + 1, cap);
	argv[*n] = NULL;
	return argv;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Read the child's output into sb until EOF, or until the child has exited
 * and nothing more is waiting (a process it left in the background may hold
 * the pipe open). 0, or -1 when it took CLANGVER_TIMEOUT seconds or printed
 * more than 64 KiB; *st is its wait status once it exited. */
static int read_version(int fd, pid_t pid, struct strbuf *sb, int *st)
{
	double deadline = now() + CLANGVER_TIMEOUT;
	bool exited = false;
	for (;;) {
		struct pollfd pfd = {fd, POLLIN, 0};
		int left = (int)((deadline - now()) * 1000);
		if (left <= 0 || sb->len > 65536)
			return -1;
		int r = poll(&pfd, 1, exited ? 0 : left < 100 ? left : 100);
		if (r < 0 && errno != EINTR)
			return -1;
		if (r > 0) {
			char buf[4096];
			ssize_t n = read(fd, buf, sizeof(buf));
			if (n == 0)
				break;
			if (n > 0)
				sb_add(sb, buf, (size_t)n);
		} else if (r == 0 && exited) {
			return 0;
		}
		if (!exited)
			exited = waitpid(pid, st, WNOHANG) == pid;
	}
	while (!exited && waitpid(pid, st, 0) < 0 && errno == EINTR)
		;
	return 0;
}

int run_version(char **words, size_t nwords, char **out, struct kerr *e)
{
	int fds[2];
	if (pipe(fds) < 0)
		return kerr_set(e, "pipe: %s", strerror(errno));
	pid_t pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return kerr_set(e, "fork: %s", strerror(errno));
	}
	if (pid == 0) {
		char **argv = xcalloc(nwords + 2, sizeof(*argv));
		memcpy(argv, words, nwords * sizeof(*argv));
		argv[nwords] = "--version";
		setpgid(0, 0); /* what it leaves behind is killed with it */
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		close(fds[0]);
		close(fds[1]);
		execvp(argv[0], argv);
		_exit(errno == ENOENT || errno == ENOTDIR ? 127 : 126);
	}
	setpgid(pid, pid);
	close(fds[1]);
	struct strbuf sb = STRBUF_INIT;
	int st = 0;
	int rc = read_version(fds[0], pid, &sb, &st);
	close(fds[0]);
	kill(-pid, SIGKILL);
	if (rc < 0) {
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		rc = sb.len > 65536 ? kerr_set(e, "%s --version printed more than 64 KiB", words[0])
				    : kerr_set(e, "%s --version did not finish in %d s", words[0],
					       CLANGVER_TIMEOUT);
	} else if (WIFEXITED(st) && WEXITSTATUS(st) == 127 && !strstr(sb_str(&sb), "version")) {
		rc = kerr_set(e, "%s: command not found", words[0]);
	} else if (WIFEXITED(st) && WEXITSTATUS(st) == 126 && !sb.len) {
		rc = kerr_set(e, "%s: not executable", words[0]);
	} else if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		rc = kerr_set(e, "'%s --version' failed", words[0]);
	}
	if (rc == 0)
		*out = sb_detach(&sb);
	sb_free(&sb);
	return rc;
}

int clangver_detect(const char *cc, struct clang_version *v, struct kerr *e)
{
	memset(v, 0, sizeof(*v));
	cc = clangver_default_cc(cc);
	size_t n;
	char **words;
	if (strchr(cc, '/') && access(cc, X_OK) == 0) { /* a path, even with blanks */
		words = xcalloc(2, sizeof(*words));
		words[0] = xstrdup(cc);
		n = 1;
	} else
		words = split_words(cc, &n);
	int rc = -1;
	char *out = NULL;
	if (!n)
		rc = kerr_set(e, "empty compiler name");
	else if (run_version(words, n, &out, e) == 0) {
		struct kerr pe;
		rc = clangver_from_output(out, v, &pe);
		if (rc < 0)
			kerr_set(e, "%s is not clang: %s", cc, pe.msg);
	}
	free(out);
	for (size_t i = 0; i < n; i++)
		free(words[i]);
	free(words);
	return rc;
}

/* "clang" or "clang-N[.M...]" (not clang-format, clang-tidy, clang++). */
static bool is_clang_name(const char *name)
{
	if (!strcmp(name, "clang"))
		return true;
	if (strncmp(name, "clang-", 6) || !isdigit((unsigned char)name[6]))
		return false;
	for (const char *p = name + 6; *p; p++)
		if (!isdigit((unsigned char)*p) && *p != '.')
			return false;
	return true;
}

static int found_cmp(const void *a, const void *b)
{
	const struct clang_found *x = a, *y = b;
	if (!x->error != !y->error)
		return x->error ? 1 : -1;
	int c = clangver_cmp(&y->v, &x->v);
	return c ? c : strcmp(x->name, y->name);
}

struct clang_found *clangver_find_all(size_t *n)
{
	struct clang_found *f = NULL;
	size_t cap = 0;
	*n = 0;
	const char *path = getenv("PATH");
	char *copy = xstrdup(path && *path ? path : "/usr/local/bin:/usr/bin:/bin");
	for (char *save = NULL, *dir = strtok_r(copy, ":", &save); dir;
	     dir = strtok_r(NULL, ":", &save)) {
		DIR *d = opendir(*dir ? dir : ".");
		if (!d)
			continue;
		struct dirent *de;
		while ((de = readdir(d))) {
			if (!is_clang_name(de->d_name))
				continue;
			bool seen = false;
			for (size_t i = 0; i < *n && !seen; i++)
				seen = !strcmp(f[i].name, de->d_name);
			char *full = xasprintf("%s/%s", dir, de->d_name);
			struct stat sb;
			if (seen || stat(full, &sb) < 0 || !S_ISREG(sb.st_mode) ||
			    access(full, X_OK) < 0) {
				free(full);
				continue;
			}
			ALLOC_GROW(f, *n + 1, cap);
			struct clang_found *c = &f[(*n)++];
			memset(c, 0, sizeof(*c));
			c->name = xstrdup(de->d_name);
			c->path = full;
			struct kerr e;
			if (clangver_detect(full, &c->v, &e) < 0)
				c->error = xstrdup(e.msg);
		}
		closedir(d);
	}
	free(copy);
	if (*n)
		qsort(f, *n, sizeof(*f), found_cmp);
	return f;
}

void clangver_found_free(struct clang_found *f, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(f[i].name);
		free(f[i].path);
		free(f[i].error);
	}
	free(f);
}
