/* Reading patches out of mailboxes and patch files, the way git mailsplit +
 * git mailinfo do for git am (and quilt for DEP-3 and bare diffs):
 * - a message starts at a "From " line at the top of the file or after an
 *   empty line, when a header line follows it (format-patch's "From <sha>
 *   Mon Sep 17 00:00:00 2001", b4's "From git@z Thu Jan  1 00:00:00 1970",
 *   "From MAILER-DAEMON ...", AOSP's "From 0000...");
 * - ">From " (mboxrd) is unquoted, bodies are transfer-decoded, text parts
 *   of a multipart message are joined, and "From:"/"Subject:"/"Date:" at the
 *   top of the body override the mail's own (a patch sent on someone's behalf);
 * - the commit message ends at the first "---" line or diff; the diff is read
 *   by difftext, which checks every hunk and rewrites it in git's form;
 * - a file without a "From " line may start with DEP-3 or mail headers, with
 *   free text, or directly with the diff. */
#include "core/mbox.h"

#include <ctype.h>
#include <git2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/difftext.h"
#include "core/gitwrite.h"
#include "core/mail.h"

struct msg {
	const char *text;
	size_t len;
	size_t line;	  /* 1-based line of text[0] in the file */
	char from_id[41]; /* the commit of a format-patch "From <sha>" line, or "" */
	bool mbox;	  /* it had a "From " separator */
};

static size_t line_len(const char *s, const char *end)
{
	const char *nl = memchr(s, '\n', (size_t)(end - s));
	return nl ? (size_t)(nl - s) : (size_t)(end - s);
}

static const char *next_line(const char *s, const char *end)
{
	const char *nl = memchr(s, '\n', (size_t)(end - s));
	return nl ? nl + 1 : end;
}

/* "From <token> <date>" followed by a header line. The date must end in a
 * time and a year ("Mon Sep 17 00:00:00 2001"), as git mailsplit checks, so
 * that "From 2.6.32 on, ..." in a body starts no message. */
static bool is_separator(const char *s, const char *end)
{
	size_t n = line_len(s, end);
	while (n && s[n - 1] == '\r')
		n--;
	if (n < 20 || strncmp(s, "From ", 5) || s[5] == ' ')
		return false;
	const char *colon = NULL;
	for (const char *p = s + n - 2; p > s + 9 && !colon; p--)
		if (*p == ':')
			colon = p;
	if (!colon || colon + 3 > s + n || !isdigit((unsigned char)colon[-4]) ||
	    !isdigit((unsigned char)colon[-2]) || !isdigit((unsigned char)colon[-1]) ||
	    !isdigit((unsigned char)colon[1]) || !isdigit((unsigned char)colon[2]))
		return false;
	long year = 0;
	const char *y = colon + 3;
	while (y < s + n && *y == ' ')
		y++;
	for (; y < s + n && isdigit((unsigned char)*y) && year < 100000; y++)
		year = year * 10 + (*y - '0');
	if (year <= 90)
		return false;
	const char *next = next_line(s, end);
	return next < end && mail_is_header_line(next, line_len(next, end));
}

static void separator_id(const char *s, char id[41])
{
	id[0] = '\0';
	size_t n = strspn(s + 5, "0123456789abcdef");
	if (n == 40 && s[45] == ' ' && strspn(s + 5, "0") != 40) {
		memcpy(id, s + 5, 40);
		id[40] = '\0';
	}
}

static bool is_blank_line(const char *s, const char *end)
{
	size_t n = line_len(s, end);
	return n == 0 || (n == 1 && s[0] == '\r');
}

static bool only_blanks(const char *s, const char *end)
{
	for (; s < end; s++)
		if (!isspace((unsigned char)*s))
			return false;
	return true;
}

/* ">From " -> "From ", ">>From " -> ">From " (mboxrd). */
static char *unquote_from(const char *s, size_t len)
{
	struct strbuf sb = STRBUF_INIT;
	const char *end = s + len;
	for (const char *p = s; p < end; p = next_line(p, end)) {
		size_t n = line_len(p, end), q = 0;
		while (q < n && p[q] == '>') /* not strspn: the text need not end in NUL */
			q++;
		bool quoted = q && q < n && n - q >= 5 && !strncmp(p + q, "From ", 5);
		sb_add(&sb, p + quoted, (size_t)(next_line(p, end) - p) - quoted);
	}
	return sb_detach(&sb);
}

/* ---- bodies ---- */

static bool text_part(const char *ctype)
{
	if (!ctype)
		return true;
	return !strncasecmp(ctype, "text/", 5) || strcasestr(ctype, "x-patch") ||
	       strcasestr(ctype, "x-diff");
}

/* The body's text: transfer-decoded and, for multipart, its text parts. */
static void decode_body(const struct mail_headers *h, const char *s, size_t len, struct strbuf *out,
			int depth)
{
	const char *ctype = mail_header(h, "Content-Type");
	char *boundary = ctype && !strncasecmp(ctype, "multipart/", 10)
			     ? mail_content_param(ctype, "boundary")
			     : NULL;
	if (!boundary || depth > 3) {
		char *charset = mail_content_param(ctype, "charset");
		if (text_part(ctype)) {
			char *t = mail_decode_body(
			    s, len, mail_header(h, "Content-Transfer-Encoding"), charset);
			sb_adds(out, t);
			free(t);
		}
		free(charset);
		free(boundary);
		return;
	}
	char *delim = xasprintf("--%s", boundary);
	size_t dn = strlen(delim);
	const char *end = s + len, *part = NULL;
	for (const char *p = s; p < end; p = next_line(p, end)) {
		if (line_len(p, end) < dn || strncmp(p, delim, dn))
			continue;
		if (part) {
			struct mail_headers ph;
			size_t lines, hl = mail_read_headers(part, (size_t)(p - part), &ph, &lines);
			decode_body(&ph, part + hl, (size_t)(p - part) - hl, out, depth + 1);
			mail_headers_free(&ph);
		}
		if (!strncmp(p + dn, "--", 2))
			break;
		part = next_line(p, end);
	}
	free(delim);
	free(boundary);
}

/* ---- the commit message and where the diff starts ---- */

/* git mailinfo's patchbreak: "---" (alone or with blanks), or a diff start. */
static const char *find_patchbreak(const char *s, const char *end, bool *skip_line)
{
	for (const char *p = s; p < end; p = next_line(p, end)) {
		size_t n = line_len(p, end);
		const char *nx = next_line(p, end);
		*skip_line = false;
		if (n >= 3 && !strncmp(p, "---", 3)) {
			size_t i = 3;
			while (i < n && isspace((unsigned char)p[i]))
				i++;
			if (i == n) {
				*skip_line = true;
				return p;
			}
		}
		if (n >= 6 && !strncmp(p, "diff -", 6))
			return p;
		if (n >= 7 && !strncmp(p, "Index: ", 7))
			return p;
		if (nx < end && difftext_file_start(p, nx))
			return p;
	}
	return end;
}

static size_t count_lines(const char *s, const char *end)
{
	size_t n = 0;
	for (; s < end; s++)
		n += *s == '\n';
	return n;
}

struct fields {
	char *subject; /* as written, before stripping */
	char *from;
	char *date;
	struct strbuf extra; /* DEP-3 fields kept as trailers: "Origin: x\n" */
	bool dep3;
};

static const char *const dep3_keys[] = {"Description",	    "Origin",	   "Forwarded", "Bug",
					"Applied-Upstream", "Last-Update", "Author"};

/* Does a file that is not an mbox start with headers, or with free text
 * whose first line only looks like one ("scripts: foo: fix bar")? */
static bool known_headers(const struct mail_headers *h)
{
	static const char *const keys[] = {"From", "Subject", "Date", "Author", "Description"};
	for (size_t i = 0; i < h->n; i++)
		for (size_t k = 0; k < ARRAY_SIZE(keys); k++)
			if (!strcasecmp(h->v[i].key, keys[k]))
				return true;
	return false;
}

static bool is_dep3(const struct mail_headers *h)
{
	for (size_t i = 0; i < h->n; i++)
		for (size_t k = 0; k < ARRAY_SIZE(dep3_keys); k++)
			if (!strncasecmp(h->v[i].key, dep3_keys[k], strlen(dep3_keys[k])))
				return true;
	return false;
}

static void set_field(char **slot, const char *v)
{
	if (v && *v) {
		free(*slot);
		*slot = xstrdup(v);
	}
}

static void take_headers(struct fields *f, const struct mail_headers *h, struct strbuf *desc)
{
	set_field(&f->subject, mail_header(h, "Subject"));
	set_field(&f->from, mail_header(h, "From"));
	set_field(&f->date, mail_header(h, "Date"));
	if (!f->dep3)
		return;
	set_field(&f->from, mail_header(h, "Author"));
	for (size_t i = 0; i < h->n; i++) {
		const struct mail_header *m = &h->v[i];
		if (!strcasecmp(m->key, "Last-Update") && !f->date)
			set_field(&f->date, m->value);
		if (!strcasecmp(m->key, "Description") && !mail_header(h, "Subject")) {
			/* first line: the subject; the rest, with " ." for blank lines */
			const char *nl = strchr(m->lines, '\n');
			free(f->subject);
			f->subject =
			    xstrndup(m->lines, nl ? (size_t)(nl - m->lines) : strlen(m->lines));
			for (const char *l = nl; l; l = strchr(l + 1, '\n')) {
				const char *le = strchr(l + 1, '\n');
				size_t ln = le ? (size_t)(le - l - 1) : strlen(l + 1);
				if (!(ln == 1 && l[1] == '.') &&
				    !(ln == 2 && l[1] == ' ' && l[2] == '.'))
					sb_add(desc, l + 1, ln);
				sb_addc(desc, '\n');
			}
			continue;
		}
		if (!strcasecmp(m->key, "Description") || !strcasecmp(m->key, "Subject") ||
		    !strcasecmp(m->key, "From") || !strcasecmp(m->key, "Author") ||
		    !strcasecmp(m->key, "Date"))
			continue;
		sb_addf(&f->extra, "%s: %s\n", m->key, m->value);
	}
}

/* Does the last paragraph of `body` consist of "Key: value" lines only? */
static bool ends_with_trailers(const char *body)
{
	size_t n = strlen(body);
	while (n && body[n - 1] == '\n')
		n--;
	if (!n)
		return false;
	const char *start = body;
	for (size_t i = 0; i + 1 < n; i++)
		if (body[i] == '\n' && body[i + 1] == '\n')
			start = body + i + 2;
	for (const char *l = start; l < body + n; l = next_line(l, body + n))
		if (!mail_is_header_line(l, line_len(l, body + n)) && l[0] != ' ')
			return false;
	return true;
}

char *mbox_file_title(const char *source)
{
	if (!strcmp(source, "-") || !strcmp(source, "<stdin>"))
		return xstrdup("stdin");
	const char *b = strrchr(source, '/');
	b = b ? b + 1 : source;
	size_t n = strlen(b);
	const char *exts[] = {".patch", ".diff", ".mbox", ".eml"};
	for (size_t i = 0; i < ARRAY_SIZE(exts); i++)
		if (str_endswith(b, exts[i]))
			n -= strlen(exts[i]);
	return xstrndup(b, n);
}

/* ---- one message ---- */

struct numbered {
	unsigned n, total;
};

struct reader {
	struct patch_files *pf;
	const char *source;
	const struct patch_read_opts *o;
	struct numbered *num; /* [PATCH n/m] of each patch read here */
	size_t nnum, numcap;
	size_t first_patch, first_malformed;
};

static const char *annotation_text(const struct patch *p, const struct difftext *d)
{
	const char *f = d->nfiles == 1
			    ? d->files[0].new_path ? d->files[0].new_path : d->files[0].old_path
			    : NULL;
	if (strncmp(p->subject, "__", 2) || !f || strcmp(f, "ANNOTATIONS"))
		return NULL;
	const char *s = p->subject + strspn(p->subject, "_");
	return !strncasecmp(s, "ANNOTATION:", 11) ? s + 11 : s;
}

static void add_annotation(struct patch_files *pf, const char *s)
{
	s += strspn(s, " ");
	size_t n = strlen(s);
	while (n && (s[n - 1] == '_' || s[n - 1] == ' '))
		n--;
	ALLOC_GROW(pf->annotations, pf->nannotations + 1, pf->annotations_cap);
	pf->annotations[pf->nannotations++] = (struct annotation){xstrndup(s, n), pf->npatches};
}

/* libgit2 must read the diff too (it applies it later); its patch id names
 * patches that come from no commit. */
static int check_with_libgit2(const char *git, char id[41], struct kerr *e)
{
	git_diff *diff;
	gw_libinit();
	if (git_diff_from_buffer(&diff, git, strlen(git)) < 0)
		return kerr_set(e, "libgit2 cannot read the diff: %s", gw_strerror());
	git_oid oid;
	int rc = 0;
	if (!id[0]) {
		if (git_diff_patchid(&oid, diff, NULL) < 0)
			rc = kerr_set(e, "no patch id: %s", gw_strerror());
		else
			git_oid_tostr(id, 41, &oid);
	}
	git_diff_free(diff);
	return rc;
}

/* The commit message: the subject (a bare diff is named after its file),
 * a DEP-3 description, the free text before the patch break, and DEP-3
 * fields as trailers (joining a trailer block that ends the text). */
static void commit_message(struct strbuf *out, const char *subject, const struct strbuf *desc,
			   const char *text, const char *end, const struct strbuf *fields,
			   const char *source)
{
	char *free_text = xstrndup(text, (size_t)(end - text));
	if (subject) {
		sb_addf(out, "%s\n\n", subject);
	} else if (!str_trim(free_text)[0]) {
		char *t = mbox_file_title(source);
		sb_addf(out, "%s\n\n", t);
		free(t);
	}
	sb_add(out, sb_str(desc), desc->len);
	if (desc->len)
		sb_addc(out, '\n');
	sb_adds(out, free_text);
	free(free_text);
	if (fields->len) {
		while (out->len && out->buf[out->len - 1] == '\n')
			out->buf[--out->len] = '\0';
		sb_adds(out, ends_with_trailers(sb_str(out)) ? "\n" : "\n\n");
		sb_add(out, fields->buf, fields->len);
	}
}

/* Author, date, diff and statistics into p, then p into the list. */
static void add_patch(struct reader *r, struct patch *p, struct difftext *d, const struct fields *f,
		      unsigned num, unsigned total)
{
	struct patch_files *pf = r->pf;
	if (f->from)
		mail_parse_address(f->from, &p->author, &p->author_email);
	else
		p->author = xstrdup(""), p->author_email = xstrdup("");
	if (f->date && !mail_parse_date(f->date, &p->time, &p->tz_offset))
		p->time = 0;
	p->diff = d->git;
	d->git = NULL;
	p->files = d->nfiles;
	p->insertions = d->insertions;
	p->deletions = d->deletions;
	p->stats_loaded = true;
	p->source = xstrdup(r->source);
	ALLOC_GROW(pf->patches, pf->npatches + 1, pf->cap);
	pf->patches[pf->npatches++] = *p;
	memset(p, 0, sizeof(*p));
	ALLOC_GROW(r->num, r->nnum + 1, r->numcap);
	r->num[r->nnum++] = (struct numbered){num, total};
}

static void read_message(struct reader *r, const struct msg *m)
{
	struct patch_files *pf = r->pf;
	char *text = m->mbox ? unquote_from(m->text, m->len) : xstrndup(m->text, m->len);
	size_t len = strlen(text), hlines = 0, hbytes = 0;
	struct mail_headers h = {0};
	struct fields f = {.extra = STRBUF_INIT};
	struct strbuf body = STRBUF_INIT, desc = STRBUF_INIT, msgtext = STRBUF_INIT;
	struct difftext d = {0};
	struct patch p = {0};
	struct kerr e;
	unsigned num = 0, total = 0;

	if (m->mbox || mail_is_header_line(text, line_len(text, text + len)))
		hbytes = mail_read_headers(text, len, &h, &hlines);
	if (!m->mbox && !known_headers(&h)) {
		mail_headers_free(&h);
		hbytes = hlines = 0;
	}
	f.dep3 = !m->mbox && is_dep3(&h);
	take_headers(&f, &h, &desc);
	decode_body(&h, text + hbytes, len - hbytes, &body, 0);

	/* in-body From:/Subject:/Date: */
	const char *b = sb_str(&body), *bend = b + body.len;
	while (b < bend && is_blank_line(b, bend))
		b = next_line(b, bend);
	if (!f.dep3 && b < bend && mail_is_header_line(b, line_len(b, bend)) &&
	    (!strncasecmp(b, "From:", 5) || !strncasecmp(b, "Subject:", 8) ||
	     !strncasecmp(b, "Date:", 5))) {
		struct mail_headers ih;
		size_t il;
		b += mail_read_headers(b, (size_t)(bend - b), &ih, &il);
		take_headers(&f, &ih, &desc);
		mail_headers_free(&ih);
	}

	bool skip;
	const char *brk = find_patchbreak(b, bend, &skip);
	const char *diff_at = skip ? next_line(brk, bend) : brk;
	size_t diff_line = m->line + hlines + count_lines(sb_str(&body), diff_at);
	if (difftext_parse(&d, diff_at, (size_t)(bend - diff_at), diff_line, r->o->strip, &e) < 0) {
		patch_files_malformed(pf, r->source, d.error_line, "%s", e.msg);
		goto out;
	}

	const char *subject = f.subject ? mail_subject_strip(f.subject, &num, &total) : NULL;
	if (!subject && (f.from || m->mbox)) {
		patch_files_malformed(pf, r->source, m->line, "no Subject header");
		goto out;
	}
	commit_message(&msgtext, subject, &desc, b, brk, &f.extra, r->source);
	patch_parse_message(&p, sb_str(&msgtext), r->o->extra_tags, r->o->nextra_tags);

	if (!d.nfiles) {
		if (num == 0 && total > 0 && !pf->cover) {
			pf->cover = xmalloc(sizeof(*pf->cover));
			*pf->cover = p;
			memset(&p, 0, sizeof(p));
		} else {
			patch_files_malformed(pf, r->source, m->line, "no diff in '%s'", p.subject);
		}
		goto out;
	}
	const char *ann = annotation_text(&p, &d);
	if (ann) {
		add_annotation(pf, ann);
		goto out;
	}
	memcpy(p.id, m->from_id, sizeof(p.id));
	if (check_with_libgit2(d.git, p.id, &e) < 0) {
		patch_files_malformed(pf, r->source, diff_line, "'%s': %s", p.subject, e.msg);
		goto out;
	}
	add_patch(r, &p, &d, &f, num, total);
out:
	patch_free(&p);
	difftext_free(&d);
	sb_free(&msgtext);
	sb_free(&desc);
	sb_free(&body);
	sb_free(&f.extra);
	free(f.subject);
	free(f.from);
	free(f.date);
	mail_headers_free(&h);
	free(text);
}

/* [PATCH n/m] messages in n order, when they are exactly 1..m once each. */
static void sort_numbered(struct reader *r)
{
	struct patch_files *pf = r->pf;
	size_t count = pf->npatches - r->first_patch;
	if (count < 2 || count != r->nnum || pf->nmalformed != r->first_malformed)
		return;
	bool *seen = xcalloc(count + 1, sizeof(bool));
	bool ok = true, sorted = true;
	for (size_t i = 0; i < count && ok; i++) {
		unsigned n = r->num[i].n;
		ok = n >= 1 && n <= count && r->num[i].total == count && !seen[n];
		if (ok)
			seen[n] = true;
		sorted &= n == i + 1;
	}
	free(seen);
	if (!ok || sorted)
		return;
	struct patch *tmp = xmalloc(count * sizeof(*tmp));
	for (size_t i = 0; i < count; i++)
		tmp[r->num[i].n - 1] = pf->patches[r->first_patch + i];
	memcpy(pf->patches + r->first_patch, tmp, count * sizeof(*tmp));
	free(tmp);
}

void mbox_parse(struct patch_files *pf, const char *text, size_t len, const char *source,
		const struct patch_read_opts *o)
{
	static const struct patch_read_opts defaults = {true, 1, NULL, 0};
	struct patch_read_opts opts = o ? *o : defaults;
	if (!opts.strip_given)
		opts.strip = 1;
	struct reader r = {pf, source, &opts, NULL, 0, 0, pf->npatches, pf->nmalformed};
	const char *end = text + len, *p = text;
	size_t line = 1;
	struct msg m = {text, 0, 1, "", false};
	bool prev_blank = true, any = false;

	for (; p < end; p = next_line(p, end), line++) {
		if (!(prev_blank && is_separator(p, end))) {
			prev_blank = is_blank_line(p, end);
			continue;
		}
		m.len = (size_t)(p - m.text);
		if (any || !only_blanks(m.text, p))
			read_message(&r, &m);
		any = true;
		m = (struct msg){next_line(p, end), 0, line + 1, "", true};
		separator_id(p, m.from_id);
		prev_blank = false;
	}
	m.len = (size_t)(end - m.text);
	if (any || !only_blanks(text, end))
		read_message(&r, &m);
	else
		patch_files_malformed(pf, source, 0, "empty file: no patch in it");
	sort_numbered(&r);
	for (size_t i = r.first_patch; i < pf->npatches; i++)
		pf->patches[i].index = i + 1;
	free(r.num);
}

int mbox_read(struct patch_files *pf, const char *path, const struct patch_read_opts *o,
	      struct kerr *e)
{
	size_t len;
	bool is_stdin = !strcmp(path, "-"); /* git format-patch --stdout | klang stack --mbox - */
	char *text = read_file(is_stdin ? "/dev/stdin" : path, &len, e);
	if (!text)
		return -1;
	if (is_stdin)
		path = "<stdin>";
	if (memchr(text, '\0', len)) {
		free(text);
		patch_files_malformed(pf, path, 0, "binary file, not a patch or mbox");
		return 0;
	}
	mbox_parse(pf, text, len, path, o);
	free(text);
	return 0;
}

void patch_files_malformed(struct patch_files *pf, const char *source, size_t line, const char *fmt,
			   ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	sb_vaddf(&sb, fmt, ap);
	va_end(ap);
	ALLOC_GROW(pf->malformed, pf->nmalformed + 1, pf->malformed_cap);
	pf->malformed[pf->nmalformed++] =
	    (struct malformed){xstrdup(source), line, sb_detach(&sb), pf->npatches};
}

char *patch_files_first_error(const struct patch_files *pf)
{
	if (!pf->nmalformed)
		return NULL;
	const struct malformed *m = &pf->malformed[0];
	if (m->line)
		return xasprintf("%s:%zu: %s", m->source, m->line, m->reason);
	return xasprintf("%s: %s", m->source, m->reason);
}

void patch_files_print_malformed(const struct patch_files *pf, FILE *f)
{
	for (size_t i = 0; i < pf->nmalformed; i++) {
		const struct malformed *m = &pf->malformed[i];
		fprintf(f, "klang: %s", m->source);
		if (m->line)
			fprintf(f, ":%zu", m->line);
		if (m->position)
			fprintf(f, ": %s (after patch %zu)\n", m->reason, m->position);
		else
			fprintf(f, ": %s (before the first patch)\n", m->reason);
	}
}

void patch_files_free(struct patch_files *pf)
{
	for (size_t i = 0; i < pf->npatches; i++)
		patch_free(&pf->patches[i]);
	free(pf->patches);
	for (size_t i = 0; i < pf->nmalformed; i++) {
		free(pf->malformed[i].source);
		free(pf->malformed[i].reason);
	}
	free(pf->malformed);
	for (size_t i = 0; i < pf->nannotations; i++)
		free(pf->annotations[i].text);
	free(pf->annotations);
	if (pf->cover) {
		patch_free(pf->cover);
		free(pf->cover);
	}
	memset(pf, 0, sizeof(*pf));
}
