/* Reading unified diffs file by file (git's and plain diff -u / quilt ones)
 * and writing them back in git's form. Hunks are read by their line counts,
 * as git apply does, so a mail signature ("-- ") after the last hunk is not
 * taken for a removed line and a truncated hunk is reported. */
#include "core/difftext.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cursor {
	const char *p, *end;
	size_t lineno;	 /* of the line at p */
	size_t err_line; /* where the first error is */
};

static int __attribute__((format(printf, 4, 5)))
diff_error(struct cursor *c, struct kerr *e, size_t line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (e)
		vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	c->err_line = line;
	return -1;
}

static size_t cur_len(const struct cursor *c)
{
	const char *nl = memchr(c->p, '\n', (size_t)(c->end - c->p));
	return nl ? (size_t)(nl - c->p) : (size_t)(c->end - c->p);
}

static bool cur_done(const struct cursor *c)
{
	return c->p >= c->end;
}

static void cur_next(struct cursor *c)
{
	const char *nl = memchr(c->p, '\n', (size_t)(c->end - c->p));
	c->p = nl ? nl + 1 : c->end;
	c->lineno++;
}

static bool cur_starts(const struct cursor *c, const char *prefix)
{
	size_t n = strlen(prefix);
	return !cur_done(c) && cur_len(c) >= n && !memcmp(c->p, prefix, n);
}

/* The current line with its newline appended to sb (one is added if the
 * text ends without one). */
static void cur_copy(const struct cursor *c, struct strbuf *sb)
{
	size_t n = cur_len(c);
	sb_add(sb, c->p, n);
	sb_addc(sb, '\n');
}

/* "--" or "---": a signature or notes separator a mailer left after a diff. */
static bool only_dashes(const struct cursor *c)
{
	size_t n = cur_len(c);
	return (n == 2 || n == 3) && !strncmp(c->p, "---", n);
}

static bool line_starts(const char *line, const char *prefix)
{
	return line && !strncmp(line, prefix, strlen(prefix));
}

bool difftext_file_start(const char *line, const char *next)
{
	if (line_starts(line, "diff --git "))
		return true;
	return line_starts(line, "--- ") && line_starts(next, "+++ ");
}

static bool at_file_start(const struct cursor *c)
{
	if (cur_done(c))
		return false;
	const char *nl = memchr(c->p, '\n', (size_t)(c->end - c->p));
	const char *next = nl && nl + 1 < c->end ? nl + 1 : NULL;
	if (cur_starts(c, "diff --git "))
		return true;
	return cur_starts(c, "--- ") && next && (size_t)(c->end - next) >= 4 &&
	       !memcmp(next, "+++ ", 4);
}

/* git's C-style quoted path: "a/b\tc" -> a/b<TAB>c. *used is the length
 * read, closing quote included. */
static char *unquote(const char *s, size_t len, size_t *used)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i = 1;
	for (; i < len && s[i] != '"'; i++) {
		if (s[i] != '\\' || i + 1 >= len) {
			sb_addc(&sb, s[i]);
			continue;
		}
		char c = s[++i];
		if (c >= '0' && c <= '3' && i + 2 < len) {
			sb_addc(&sb, (char)(((c - '0') << 6) | ((s[i + 1] - '0') << 3) |
					    (s[i + 2] - '0')));
			i += 2;
			continue;
		}
		const char *from = "abtnvfr", *to = "\a\b\t\n\v\f\r";
		const char *k = strchr(from, c);
		sb_addc(&sb, k && c ? to[k - from] : c);
	}
	*used = i < len ? i + 1 : len;
	return sb_detach(&sb);
}

static bool needs_quotes(const char *p)
{
	for (; *p; p++)
		if (*p == '"' || *p == '\\' || (unsigned char)*p < 0x20)
			return true;
	return false;
}

static void add_path(struct strbuf *sb, const char *prefix, const char *path)
{
	if (!needs_quotes(path)) {
		sb_addf(sb, "%s%s", prefix, path);
		return;
	}
	sb_addf(sb, "\"%s", prefix);
	for (const char *p = path; *p; p++) {
		const char *k = strchr("\"\\\t\n\r", *p);
		if (k && *p)
			sb_addf(sb, "\\%c", "\"\\tnr"[k - "\"\\\t\n\r"]);
		else if ((unsigned char)*p < 0x20)
			sb_addf(sb, "\\%03o", (unsigned char)*p);
		else
			sb_addc(sb, *p);
	}
	sb_addc(sb, '"');
}

/* Remove `strip` leading components; NULL if there are not that many. */
static const char *strip_path(const char *p, int strip)
{
	for (int i = 0; i < strip; i++) {
		const char *slash = strchr(p, '/');
		if (!slash)
			return NULL;
		p = slash + 1;
		while (*p == '/')
			p++;
	}
	return *p ? p : NULL;
}

/* Timestamps diff -u gives a file that does not exist (quilt's new files). */
static bool epoch_stamp(const char *ts)
{
	return strstr(ts, "1970-01-01 00:00:00") || strstr(ts, "1969-12-31") ||
	       strstr(ts, "Jan  1 00:00:00 1970");
}

struct file {
	char *old_path, *new_path; /* as read, before stripping */
	bool old_null, new_null, binary;
	bool stripped; /* paths from rename/copy lines are never prefixed */
};

/* The path of a "--- X" / "+++ X" line (s points past the marker). */
static void read_marker_path(const char *s, size_t n, char **path, bool *null)
{
	size_t used;
	char *p;
	const char *ts = "";
	if (n && s[0] == '"') {
		p = unquote(s, n, &used);
	} else {
		const char *tab = memchr(s, '\t', n);
		size_t plen = tab ? (size_t)(tab - s) : n;
		while (plen && (s[plen - 1] == '\r' || (!tab && s[plen - 1] == ' ')))
			plen--;
		p = xstrndup(s, plen);
		used = tab ? (size_t)(tab - s) : n;
	}
	char *stamp = xstrndup(s + used, n - used);
	ts = stamp;
	free(*path);
	*path = NULL;
	*null = !strcmp(p, "/dev/null") || epoch_stamp(ts);
	if (*null)
		free(p);
	else
		*path = p;
	free(stamp);
}

/* "diff --git a/x b/y": both names when they can be told apart. */
static void read_git_line_paths(const char *s, size_t n, struct file *f)
{
	size_t used;
	if (n && s[0] == '"') {
		f->old_path = unquote(s, n, &used);
		if (used + 1 < n && s[used] == ' ')
			f->new_path = s[used + 1] == '"'
					  ? unquote(s + used + 1, n - used - 1, &used)
					  : xstrndup(s + used + 1, n - used - 1);
		return;
	}
	/* only the new name needed quotes: a/x "b/y\t" (as add_path writes it) */
	for (const char *q = s; n && s[n - 1] == '"' && q + 2 < s + n; q++) {
		if (q[0] != ' ' || q[1] != '"')
			continue;
		size_t rest = n - (size_t)(q + 1 - s);
		char *np = unquote(q + 1, rest, &used);
		if (used == rest) {
			f->old_path = xstrndup(s, (size_t)(q - s));
			f->new_path = np;
			return;
		}
		free(np);
	}
	/* the same name twice: "a/NAME b/NAME" */
	if (n % 2 == 1 && s[n / 2] == ' ') {
		const char *a = strchr(s, '/'), *b = memchr(s + n / 2 + 1, '/', n / 2);
		if (a && b && (size_t)(a - s) < n / 2 &&
		    n / 2 - (size_t)(a - s) == n - (size_t)(b - s) &&
		    !memcmp(a, b, n / 2 - (size_t)(a - s))) {
			f->old_path = xstrndup(s, n / 2);
			f->new_path = xstrndup(s + n / 2 + 1, n / 2);
			return;
		}
	}
	const char *sp = NULL;
	for (const char *q = s; q + 3 < s + n; q++)
		if (!memcmp(q, " b/", 3))
			sp = q;
	if (sp) {
		f->old_path = xstrndup(s, (size_t)(sp - s));
		f->new_path = xstrndup(sp + 1, n - (size_t)(sp - s) - 1);
	}
}

static bool parse_num(const char **s, unsigned long *v)
{
	char *end;
	if (**s < '0' || **s > '9')
		return false;
	*v = strtoul(*s, &end, 10);
	*s = end;
	return true;
}

/* "@@ -a[,b] +c[,d] @@" */
static bool parse_hunk_header(const char *s, unsigned long *old, unsigned long *new)
{
	unsigned long start;
	s += 3;
	if (*s++ != '-' || !parse_num(&s, &start))
		return false;
	*old = 1;
	if (*s == ',' && (s++, !parse_num(&s, old)))
		return false;
	if (*s++ != ' ' || *s++ != '+' || !parse_num(&s, &start))
		return false;
	*new = 1;
	if (*s == ',' && (s++, !parse_num(&s, new)))
		return false;
	return !strncmp(s, " @@", 3);
}

static int read_hunks(struct cursor *c, struct strbuf *out, struct difftext_file *df,
		      struct kerr *e)
{
	while (cur_starts(c, "@@ ")) {
		unsigned long old, new;
		char *hdr = xstrndup(c->p, cur_len(c));
		bool ok = parse_hunk_header(hdr, &old, &new);
		free(hdr);
		if (!ok)
			return diff_error(c, e, c->lineno, "malformed hunk header");
		size_t at = c->lineno;
		cur_copy(c, out);
		cur_next(c);
		while (old || new) {
			size_t n = cur_done(c) ? 0 : cur_len(c);
			char ch = n ? c->p[0] : cur_done(c) ? '\0' : ' ';
			if (ch == ' ' && old && new) {
				old--, new --;
			} else if (ch == '-' && old) {
				old--, df->deletions++;
			} else if (ch == '+' && new) {
				new --, df->insertions++;
			} else if (ch != '\\') {
				return diff_error(c, e, c->lineno,
						  "hunk at line %zu cut short: "
						  "%lu old and %lu new lines missing",
						  at, old, new);
			}
			if (n)
				cur_copy(c, out);
			else
				sb_adds(
				    out,
				    " \n"); /* a context line whose blank was eaten by a mailer */
			cur_next(c);
		}
		if (cur_starts(c, "\\")) {
			cur_copy(c, out);
			cur_next(c);
		}
		/* An added or removed line right after the counted ones means
		 * the header undercounts: applying it would silently drop the
		 * change (a stray context line is harmless; git ignores it too). */
		if ((cur_starts(c, "+") && !cur_starts(c, "+++ ")) ||
		    (cur_starts(c, "-") && !cur_starts(c, "-- ") && !cur_starts(c, "--- ") &&
		     !only_dashes(c)))
			return diff_error(c, e, c->lineno,
					  "hunk at line %zu has more lines "
					  "than its header counts",
					  at);
	}
	return 0;
}

/* "GIT binary patch" then up to two literal/delta blocks, each ended by an
 * empty line. */
static void read_binary(struct cursor *c, struct strbuf *out)
{
	cur_copy(c, out);
	cur_next(c);
	for (int block = 0; block < 2; block++) {
		if (!cur_starts(c, "literal ") && !cur_starts(c, "delta "))
			break;
		while (!cur_done(c) && cur_len(c) > 0) {
			cur_copy(c, out);
			cur_next(c);
		}
		if (!cur_done(c)) {
			sb_addc(out, '\n');
			cur_next(c);
		}
	}
}

static const char *const git_ext_headers[] = {
    "old mode ",  "new mode ",		"similarity index ", "dissimilarity index ",
    "index ",	  "deleted file mode ", "new file mode ",    "rename from ",
    "rename to ", "copy from ",		"copy to ",
};

static bool read_git_headers(struct cursor *c, struct file *f, struct strbuf *ext)
{
	read_git_line_paths(c->p + 11, cur_len(c) - 11, f);
	cur_next(c);
	for (;;) {
		size_t i;
		for (i = 0; i < ARRAY_SIZE(git_ext_headers); i++)
			if (cur_starts(c, git_ext_headers[i]))
				break;
		if (i == ARRAY_SIZE(git_ext_headers))
			break;
		const char *h = git_ext_headers[i], *v = c->p + strlen(h);
		size_t vn = cur_len(c) - strlen(h), used;
		char **slot = strstr(h, "from")	 ? &f->old_path
			      : strstr(h, " to") ? &f->new_path
						 : NULL;
		if (slot) {
			free(*slot);
			*slot = vn && v[0] == '"' ? unquote(v, vn, &used) : xstrndup(v, vn);
			f->stripped = true;
		}
		f->new_null |= str_startswith(h, "deleted file");
		f->old_null |= str_startswith(h, "new file");
		cur_copy(c, ext);
		cur_next(c);
	}
	if (cur_starts(c, "Binary files ")) {
		f->binary = true;
		cur_copy(c, ext);
		cur_next(c);
		return true;
	}
	if (cur_starts(c, "GIT binary patch")) {
		f->binary = true;
		read_binary(c, ext);
		return true;
	}
	return false;
}

static void file_free(struct file *f)
{
	free(f->old_path);
	free(f->new_path);
}

static int read_file_diff(struct cursor *c, struct difftext *d, struct strbuf *out, int strip,
			  struct kerr *e)
{
	struct file f = {0};
	struct strbuf ext = STRBUF_INIT, body = STRBUF_INIT;
	struct difftext_file df = {0};
	bool git = cur_starts(c, "diff --git ");
	size_t at = c->lineno;
	int rc = -1;

	if (git && read_git_headers(c, &f, &ext))
		goto paths;
	if (at_file_start(c) && !cur_starts(c, "diff --git ")) {
		bool null;
		read_marker_path(c->p + 4, cur_len(c) - 4, &f.old_path, &null);
		f.old_null |= null;
		cur_next(c);
		read_marker_path(c->p + 4, cur_len(c) - 4, &f.new_path, &null);
		f.new_null |= null;
		f.stripped = false;
		cur_next(c);
		if (read_hunks(c, &body, &df, e) < 0)
			goto out;
	}
paths:
	if (f.old_null && f.new_null) {
		diff_error(c, e, at, "both sides of the diff are /dev/null");
		goto out;
	}
	const char *paths[2] = {NULL, NULL};
	char *raw[2] = {f.old_path, f.new_path};
	bool null[2] = {f.old_null, f.new_null};
	for (int i = 0; i < 2; i++) {
		if (null[i] || !raw[i])
			continue;
		paths[i] = f.stripped ? raw[i] : strip_path(raw[i], strip);
		if (!paths[i]) {
			diff_error(c, e, at, "cannot strip %d leading component%s from '%s'", strip,
				   strip == 1 ? "" : "s", raw[i]);
			goto out;
		}
	}
	/* plain diff -u has no renames: "x.orig" -> "x" is the file x */
	if (!git && paths[0] && paths[1] && strcmp(paths[0], paths[1]))
		paths[0] = paths[1];
	if (!paths[0] && !paths[1]) {
		diff_error(c, e, at, "file diff without file names");
		goto out;
	}
	const char *a = paths[0] ? paths[0] : paths[1], *b = paths[1] ? paths[1] : paths[0];
	df.old_path = paths[0] ? xstrdup(paths[0]) : NULL;
	df.new_path = paths[1] ? xstrdup(paths[1]) : NULL;
	df.binary = f.binary;

	sb_adds(out, "diff --git ");
	add_path(out, "a/", a);
	sb_addc(out, ' ');
	add_path(out, "b/", b);
	sb_addc(out, '\n');
	if (!git && f.old_null)
		sb_adds(out, "new file mode 100644\n");
	if (!git && f.new_null)
		sb_adds(out, "deleted file mode 100644\n");
	sb_add(out, sb_str(&ext), ext.len);
	if (body.len) {
		sb_adds(out, "--- ");
		paths[0] ? add_path(out, "a/", paths[0]) : sb_adds(out, "/dev/null");
		sb_adds(out, "\n+++ ");
		paths[1] ? add_path(out, "b/", paths[1]) : sb_adds(out, "/dev/null");
		sb_addc(out, '\n');
		sb_add(out, body.buf, body.len);
	}
	ALLOC_GROW(d->files, d->nfiles + 1, d->cap);
	d->files[d->nfiles++] = df;
	d->insertions += df.insertions;
	d->deletions += df.deletions;
	rc = 0;
out:
	if (rc < 0) {
		free(df.old_path);
		free(df.new_path);
	}
	file_free(&f);
	sb_free(&ext);
	sb_free(&body);
	return rc;
}

int difftext_parse(struct difftext *d, const char *text, size_t len, size_t first_line, int strip,
		   struct kerr *e)
{
	struct cursor c = {text, text + len, first_line, 0};
	struct strbuf out = STRBUF_INIT;
	memset(d, 0, sizeof(*d));
	while (!cur_done(&c)) {
		if (!at_file_start(&c)) {
			cur_next(&c);
			continue;
		}
		if (read_file_diff(&c, d, &out, strip, e) < 0) {
			sb_free(&out);
			difftext_free(d);
			d->error_line = c.err_line;
			return -1;
		}
	}
	d->git = sb_detach(&out);
	return 0;
}

void difftext_free(struct difftext *d)
{
	for (size_t i = 0; i < d->nfiles; i++) {
		free(d->files[i].old_path);
		free(d->files[i].new_path);
	}
	free(d->files);
	free(d->git);
	memset(d, 0, sizeof(*d));
}
